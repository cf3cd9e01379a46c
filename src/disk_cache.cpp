#include "disk_cache.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "file_lock.hpp"
#include "log.hpp"
#include "normjit/errors.hpp"
#include "normjit/version.hpp"
#include "template_store.hpp"

namespace normjit::detail {
namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'N', 'J', 'I', 'T', 'C', 'U', 'B', '1'};

std::uint64_t hash64(const void* p, size_t n) { return XXH3_64bits(p, n); }

bool read_file(const fs::path& p, std::string* out, bool* missing) {
  *missing = false;
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *missing = errno == ENOENT;
    return false;
  }
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  if (ok) {
    out->resize(size_t(st.st_size));
    size_t got = 0;
    while (ok && got < out->size()) {
      const ssize_t n = ::read(fd, out->data() + got, out->size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ok = false;
      else got += size_t(n);
    }
  }
  ::close(fd);
  return ok;
}

// Unique temp name in the destination's directory, so rename() stays on one filesystem.
std::string temp_name(const fs::path& dest) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}/.{}.tmp.{}.{:x}.{}", dest.parent_path().string(), dest.filename().string(),
                     ::getpid(), std::hash<std::thread::id>{}(std::this_thread::get_id()) & 0xffffff,
                     counter++);
}

}  // namespace

std::string toolchain_description() {
  return fmt::format("normjit {}; cache format {}; nvrtc {}; templates {}; options {}",
                     NORMJIT_VERSION_STRING, kCacheFormatVersion, nvrtc_version(),
                     templates().hash, fmt::join(base_compile_options(), " "));
}

std::string toolchain_fingerprint() {
  const std::string d = toolchain_description();
  return fmt::format("{:016x}", hash64(d.data(), d.size()));
}

DiskCache::DiskCache(Options opts, std::string fingerprint)
    : opts_(std::move(opts)), fingerprint_(std::move(fingerprint)) {
  if (opts_.root.empty()) return;
  dir_ = opts_.root / "v1" / fingerprint_;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  readable_ = fs::is_directory(dir_);
  if (!readable_) {
    warn_once("cache-root", fmt::format("cache directory {} is unusable ({}); kernels are kept "
                                        "in memory only",
                                        dir_.string(), ec ? ec.message() : "not a directory"));
    return;
  }
  writable_ = ::access(dir_.c_str(), W_OK) == 0;
  if (!writable_) {
    warn_once("cache-root", fmt::format("cache directory {} is not writable; existing entries are "
                                        "used, new kernels are kept in memory only",
                                        dir_.string()));
    return;
  }
  const fs::path fp_file = dir_ / "fingerprint.json";
  if (!fs::exists(fp_file, ec)) {
    nlohmann::json j = {{"fingerprint", fingerprint_}, {"toolchain", toolchain_description()}};
    publish(fp_file, j.dump(2) + "\n");
  }
}

fs::path DiskCache::entry_path(const KernelConfig& c, const CacheKey& k) const {
  const std::string hex = k.hex();
  return dir_ / hex.substr(0, 2) / (slug(c) + "-" + hex + ".cubin");
}

fs::path DiskCache::sidecar_path(const KernelConfig& c, const CacheKey& k) const {
  fs::path p = entry_path(c, k);
  p.replace_extension(".json");
  return p;
}

DiskCache::ReadStatus DiskCache::read_entry(const KernelConfig& c, const CacheKey& k, Binary* out,
                                            std::string* why) const {
  std::string data;
  bool missing = false;
  if (!read_file(entry_path(c, k), &data, &missing)) {
    *why = missing ? "missing" : "unreadable";
    return missing ? ReadStatus::Missing : ReadStatus::Invalid;
  }
  CacheEntryHeader h{};
  if (data.size() < sizeof h) {
    *why = fmt::format("truncated ({} bytes, header needs {})", data.size(), sizeof h);
    return ReadStatus::Invalid;
  }
  std::memcpy(&h, data.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) {
    *why = "wrong magic";
    return ReadStatus::Invalid;
  }
  if (h.header_hash != hash64(&h, offsetof(CacheEntryHeader, header_hash))) {
    *why = "header checksum mismatch";
    return ReadStatus::Invalid;
  }
  if (h.format_version != kCacheFormatVersion || h.header_size != sizeof h) {
    *why = fmt::format("format version {} (expected {})", h.format_version, kCacheFormatVersion);
    return ReadStatus::Invalid;
  }
  if (h.key_hi != k.hi || h.key_lo != k.lo) {
    *why = "entry belongs to another config";
    return ReadStatus::Invalid;
  }
  if (h.arch_cc != std::uint32_t(c.arch.cc)) {
    *why = fmt::format("entry built for sm_{} (expected sm_{})", h.arch_cc, c.arch.cc);
    return ReadStatus::Invalid;
  }
  if (h.kind != std::uint32_t(Binary::Kind::Cubin) && h.kind != std::uint32_t(Binary::Kind::Ptx)) {
    *why = fmt::format("unknown payload kind {}", h.kind);
    return ReadStatus::Invalid;
  }
  if (h.payload_size != data.size() - sizeof h) {
    *why = fmt::format("payload is {} bytes, header says {}", data.size() - sizeof h, h.payload_size);
    return ReadStatus::Invalid;
  }
  if (h.payload_hash != hash64(data.data() + sizeof h, data.size() - sizeof h)) {
    *why = "payload checksum mismatch";
    return ReadStatus::Invalid;
  }
  // The sidecar must exist and describe this key; otherwise the entry is incomplete.
  std::string side;
  if (!read_file(sidecar_path(c, k), &side, &missing)) {
    *why = missing ? "sidecar missing" : "sidecar unreadable";
    return ReadStatus::Invalid;
  }
  const nlohmann::json j = nlohmann::json::parse(side, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("key") || j["key"] != k.hex()) {
    *why = "sidecar is not this entry's";
    return ReadStatus::Invalid;
  }
  out->kind = Binary::Kind(h.kind);
  out->bytes.assign(data.data() + sizeof h, data.size() - sizeof h);
  out->target = j.value("target", "");
  out->millis = 0;
  return ReadStatus::Ok;
}

void DiskCache::quarantine(const fs::path& p, const std::string& why) const {
  std::error_code ec;
  if (!fs::exists(p, ec)) return;
  const fs::path qdir = dir_ / "quarantine";
  fs::create_directories(qdir, ec);
  static std::atomic<unsigned> seq{0};
  const fs::path dest = qdir / fmt::format("{}.{}.{}.{}", p.filename().string(), std::time(nullptr),
                                           ::getpid(), seq++);
  fs::rename(p, dest, ec);
  if (ec) fs::remove(p, ec);  // cannot keep it aside: at least never load it again
  warn_once("quarantine:" + p.string(),
            fmt::format("cache entry {} is invalid ({}); moved aside and rebuilt", p.string(), why));
}

bool DiskCache::publish(const fs::path& dest, const std::string& bytes) const {
  const std::string tmp = temp_name(dest);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  size_t done = 0;
  bool ok = true;
  while (ok && done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ok = false;
    else done += size_t(n);
  }
  // No fsync: a file torn by a crash fails its checksum and is rebuilt, which is cheaper than
  // an fsync on every compile.
  ok = (::close(fd) == 0) && ok;
  ok = ok && ::rename(tmp.c_str(), dest.c_str()) == 0;
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

void DiskCache::disable_writes(const std::string& why) {
  writable_ = false;
  warn_once("cache-write", fmt::format("cannot write to the kernel cache {} ({}); new kernels are "
                                       "kept in memory only",
                                       dir_.string(), why));
}

void DiskCache::store(const KernelConfig& c, const CacheKey& k, const Binary& b) {
  CacheEntryHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.format_version = kCacheFormatVersion;
  h.kind = std::uint32_t(b.kind);
  h.arch_cc = std::uint32_t(c.arch.cc);
  h.header_size = sizeof h;
  h.key_hi = k.hi;
  h.key_lo = k.lo;
  h.payload_size = b.bytes.size();
  h.payload_hash = hash64(b.bytes.data(), b.bytes.size());
  h.header_hash = hash64(&h, offsetof(CacheEntryHeader, header_hash));
  std::string file(reinterpret_cast<const char*>(&h), sizeof h);
  file += b.bytes;

  nlohmann::json side = {
      {"key", k.hex()},
      {"slug", slug(c)},
      {"config", nlohmann::json::parse(canonical_json(c))},
      {"target", b.target},
      {"kind", b.kind == Binary::Kind::Cubin ? "cubin" : "ptx"},
      {"nvrtc", nvrtc_version()},
      {"options", base_compile_options()},
      {"compile_ms", b.millis},
      {"log", b.log},
      {"created", std::time(nullptr)},
  };
  // Sidecar first: once the cubin is visible, its sidecar already is.
  if (!publish(sidecar_path(c, k), side.dump(2) + "\n") || !publish(entry_path(c, k), file)) {
    disable_writes(std::strerror(errno));
  }
}

Binary DiskCache::get_or_build(const KernelConfig& c, const std::function<Binary()>& build,
                               CacheOutcome* outcome, bool explicit_build) {
  const CacheKey k = cache_key(c);
  Binary b;
  std::string why;
  if (readable_ && read_entry(c, k, &b, &why) == ReadStatus::Ok) {
    *outcome = CacheOutcome::Hit;
    return b;
  }
  if (opts_.offline && !explicit_build) {
    const std::string cmd = prewarm_command(c);
    throw CacheMissError(
        fmt::format("normjit: offline mode (NORMJIT_OFFLINE) and kernel {} (key {}) is not in the "
                    "cache {}; produce it with: {}",
                    slug(c), k.hex(), dir_.empty() ? "(none)" : dir_.string(), cmd),
        slug(c), cmd);
  }
  if (!writable_) {
    *outcome = CacheOutcome::Compiled;
    return build();
  }
  std::error_code ec;
  const fs::path entry = entry_path(c, k);
  fs::create_directories(entry.parent_path(), ec);
  fs::path lock_path = entry;
  lock_path.replace_extension(".lock");
  FileLock lock(lock_path.string(), opts_.lock_timeout);
  if (!lock.locked()) log_warn("{}; compiling {} without the lock", lock.error(), slug(c));
  // Another process may have published it while we waited.
  const ReadStatus st = read_entry(c, k, &b, &why);
  if (st == ReadStatus::Ok) {
    *outcome = CacheOutcome::Hit;
    return b;
  }
  if (st == ReadStatus::Invalid) {
    quarantine(entry, why);
    quarantine(sidecar_path(c, k), why);
  }
  b = build();
  *outcome = CacheOutcome::Compiled;
  if (writable_) store(c, k, b);
  return b;
}

}  // namespace normjit::detail

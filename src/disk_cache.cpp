#include "disk_cache.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
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
constexpr const char* kTempInfix = ".tmp.";

std::uint64_t hash64(const void* p, size_t n) { return XXH3_64bits(p, n); }

bool read_file(const fs::path& p, std::string* out, bool* missing) {
  *missing = false;
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *missing = errno == ENOENT || errno == ENOTDIR;
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

// Unique temp name in the destination's directory, so rename() stays on one filesystem. The
// pid in it lets the next lock holder recognise a dead writer's leftovers (is_stale_temp).
std::string temp_name(const fs::path& dest) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}/.{}{}{}.{:x}.{}", dest.parent_path().string(), dest.filename().string(),
                     kTempInfix, ::getpid(),
                     std::hash<std::thread::id>{}(std::this_thread::get_id()) & 0xffffff,
                     counter++);
}

// "13.0" -> 13000 (CUDA's version encoding); 0 when it is not a version.
std::uint32_t version_code(const std::string& v) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(v.c_str(), "%u.%u", &major, &minor) != 2 || major > 999 || minor > 99) return 0;
  return major * 1000 + minor * 10;
}

std::string version_text(std::uint32_t code) {
  return fmt::format("{}.{}", code / 1000, code % 1000 / 10);
}

// Test-only fault injection, used by tests/cpu/test_cache_faults.cpp: with
// NORMJIT_TEST_STALL=compile:<ms> or write:<ms> a process pauses while it holds a key's lock
// (before compiling, or halfway through writing the .cubin temp file) after announcing it on
// stderr, so that the test can SIGKILL it at exactly that point.
void test_stall(const char* where) {
  struct Stall {
    std::string where;
    long ms = 0;
  };
  static const Stall stall = [] {
    Stall s;
    const char* v = std::getenv("NORMJIT_TEST_STALL");
    if (!v || !*v) return s;
    const std::string t = v;
    const size_t colon = t.find(':');
    if (colon == std::string::npos) return s;
    s.where = t.substr(0, colon);
    s.ms = std::atol(t.c_str() + colon + 1);
    return s;
  }();
  if (stall.ms <= 0 || stall.where != where) return;
  std::fprintf(stderr, "normjit test-stall: %s (pid %d, %ld ms)\n", where, int(::getpid()), stall.ms);
  std::fflush(stderr);
  std::this_thread::sleep_for(std::chrono::milliseconds(stall.ms));
}

bool write_all(int fd, const char* p, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t w = ::write(fd, p + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    done += size_t(w);
  }
  return true;
}

// Why a prebuilt root has no directory for `fingerprint`, for the one warning about it.
std::string describe_prebuilt_mismatch(const fs::path& root) {
  std::error_code ec;
  if (!fs::exists(root, ec)) return fmt::format("{} (does not exist)", root.string());
  std::vector<std::string> fps;
  for (const auto& e : fs::directory_iterator(root / kCacheLayoutDir, ec))
    if (e.is_directory(ec)) fps.push_back(e.path().filename().string());
  if (fps.empty()) return fmt::format("{} (no normjit cache in it)", root.string());
  return fmt::format("{} (has fingerprint{} {})", root.string(), fps.size() == 1 ? "" : "s",
                     fmt::join(fps, ", "));
}

}  // namespace

// ---- toolchain, roots ---------------------------------------------------------------------

std::string toolchain_description() {
  return fmt::format("normjit {}; cache format {}; nvrtc {}; templates {}; options {}",
                     NORMJIT_VERSION_STRING, kCacheFormatVersion, nvrtc_version(),
                     templates().hash, fmt::join(base_compile_options(), " "));
}

std::string toolchain_fingerprint() {
  const std::string d = toolchain_description();
  return fmt::format("{:016x}", hash64(d.data(), d.size()));
}

std::uint32_t nvrtc_version_code() noexcept {
  static const std::uint32_t code = [] {
    try {
      return version_code(nvrtc_version());
    } catch (...) {
      return 0u;
    }
  }();
  return code;
}

namespace {
// Roots are made absolute once, so a later chdir() of the process cannot move the cache.
fs::path absolute_or_same(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return ec ? p : a.lexically_normal();
}
}  // namespace

fs::path cache_root_from_env() {
  if (const char* d = std::getenv("NORMJIT_CACHE_DIR"); d && *d) return absolute_or_same(d);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return absolute_or_same(fs::path(x) / "normjit");
  const char* home = std::getenv("HOME");
  if (!home || !*home) {
    if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_dir && *pw->pw_dir) home = pw->pw_dir;
  }
  if (!home || !*home) {
    warn_once("cache-root", "no NORMJIT_CACHE_DIR, XDG_CACHE_HOME or HOME: kernels are kept in "
                            "memory only");
    return {};
  }
  return fs::path(home) / ".cache" / "normjit";
}

std::vector<fs::path> prebuilt_roots_from_env() {
  std::vector<fs::path> out;
  const char* v = std::getenv("NORMJIT_PREBUILT_CACHE_DIR");
  if (!v) return out;
  std::stringstream ss(v);
  for (std::string item; std::getline(ss, item, ':');)
    if (!item.empty()) out.push_back(absolute_or_same(item));
  return out;
}

// ---- entry files ----------------------------------------------------------------------------

bool key_from_file_name(const std::string& name, CacheKey* key) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot < 33 || name[dot - 33] != '-') return false;
  const std::string hex = name.substr(dot - 32, 32);
  for (char ch : hex)
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) return false;
  key->hi = std::strtoull(hex.substr(0, 16).c_str(), nullptr, 16);
  key->lo = std::strtoull(hex.substr(16).c_str(), nullptr, 16);
  return true;
}

bool is_temp_name(const std::string& name) {
  return !name.empty() && name[0] == '.' && name.find(kTempInfix) != std::string::npos;
}

bool is_stale_temp(const fs::path& p) {
  const std::string name = p.filename().string();
  if (!is_temp_name(name)) return false;
  const size_t at = name.rfind(kTempInfix);
  const long pid = std::atol(name.c_str() + at + std::strlen(kTempInfix));
  if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) return true;
  // A live pid may be another process (pid reuse, another pid namespace): go by age then. No
  // writer keeps a temp file open for an hour.
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return false;
  return std::time(nullptr) - st.st_mtime > 3600;
}

void remove_stale_temps(const fs::path& dir, const std::vector<std::string>& names) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (!is_temp_name(n)) continue;
    for (const std::string& owner : names) {
      if (n.rfind("." + owner + kTempInfix, 0) == 0 && is_stale_temp(e.path())) {
        std::error_code rec;
        fs::remove(e.path(), rec);
        log_info("removed {}, left by a writer that died", e.path().string());
      }
    }
  }
}

EntryCheck check_entry(const fs::path& cubin, const fs::path& sidecar, const EntryExpectation& expect,
                       bool load_payload) {
  EntryCheck r;
  auto invalid = [&r](std::string why) {
    r.status = EntryStatus::Invalid;
    r.why = std::move(why);
    return r;
  };
  std::string data;
  bool missing = false;
  if (!read_file(cubin, &data, &missing)) {
    r.status = missing ? EntryStatus::Missing : EntryStatus::Invalid;
    r.why = missing ? "missing" : fmt::format("unreadable ({})", std::strerror(errno));
    return r;
  }
  CacheEntryHeader h{};
  if (data.size() < sizeof h)
    return invalid(fmt::format("truncated ({} bytes, header needs {})", data.size(), sizeof h));
  std::memcpy(&h, data.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return invalid("wrong magic");
  if (h.header_hash != hash64(&h, offsetof(CacheEntryHeader, header_hash)))
    return invalid("header checksum mismatch");
  if (h.format_version != kCacheFormatVersion || h.header_size != sizeof h) {
    return invalid(fmt::format("format version {} (expected {})", h.format_version,
                               kCacheFormatVersion));
  }
  r.arch_cc = h.arch_cc;
  if (h.key_hi != expect.key.hi || h.key_lo != expect.key.lo)
    return invalid("entry belongs to another config");
  if (expect.arch_cc && h.arch_cc != std::uint32_t(expect.arch_cc))
    return invalid(fmt::format("entry built for sm_{} (expected sm_{})", h.arch_cc, expect.arch_cc));
  if (expect.nvrtc && h.nvrtc_version != expect.nvrtc) {
    return invalid(fmt::format("entry built by NVRTC {} (this is NVRTC {})",
                               version_text(h.nvrtc_version), version_text(expect.nvrtc)));
  }
  if (h.kind != std::uint32_t(Binary::Kind::Cubin) && h.kind != std::uint32_t(Binary::Kind::Ptx))
    return invalid(fmt::format("unknown payload kind {}", h.kind));
  if (h.payload_size != data.size() - sizeof h) {
    return invalid(fmt::format("payload is {} bytes, header says {}", data.size() - sizeof h,
                               h.payload_size));
  }
  if (h.payload_hash != hash64(data.data() + sizeof h, data.size() - sizeof h))
    return invalid("payload checksum mismatch");

  // The sidecar must exist and describe exactly this entry; otherwise the entry is incomplete.
  std::string side;
  if (!read_file(sidecar, &side, &missing)) return invalid(missing ? "sidecar missing" : "sidecar unreadable");
  nlohmann::json j = nlohmann::json::parse(side, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("key") || j["key"] != expect.key.hex())
    return invalid("sidecar is not this entry's");
  r.sidecar = j;
  if (!expect.fingerprint.empty() && j.value("fingerprint", "") != expect.fingerprint) {
    return invalid(fmt::format("sidecar is from toolchain '{}', not this directory's {}",
                               j.value("fingerprint", ""), expect.fingerprint));
  }
  // The config must be the one the key hashes (canonical_json is the config object's dump()),
  // for the arch the header names, built by the NVRTC the header names.
  const auto cfg = j.find("config");
  if (cfg == j.end() || !cfg->is_object()) return invalid("sidecar has no config");
  const std::string canon = cfg->dump();
  const XXH128_hash_t kh = XXH3_128bits(canon.data(), canon.size());
  if (kh.high64 != expect.key.hi || kh.low64 != expect.key.lo)
    return invalid("sidecar config does not hash to the entry's key");
  int cfg_cc = 0;
  try {
    cfg_cc = Arch::parse(cfg->value("arch", "")).cc;
  } catch (const std::exception&) {
    return invalid("sidecar config names no valid arch");
  }
  if (std::uint32_t(cfg_cc) != h.arch_cc)
    return invalid(fmt::format("sidecar says sm_{}, header says sm_{}", cfg_cc, h.arch_cc));
  const std::string side_nvrtc = j.value("nvrtc", "");
  if (version_code(side_nvrtc) != h.nvrtc_version) {
    return invalid(fmt::format("sidecar says NVRTC '{}', header says {}", side_nvrtc,
                               version_text(h.nvrtc_version)));
  }
  r.status = EntryStatus::Ok;
  r.binary.kind = Binary::Kind(h.kind);
  if (load_payload) r.binary.bytes.assign(data.data() + sizeof h, data.size() - sizeof h);
  r.binary.target = j.value("target", "");
  r.binary.millis = 0;
  return r;
}

fs::path entry_path_in(const fs::path& dir, const KernelConfig& c, const CacheKey& k) {
  const std::string hex = k.hex();
  return dir / hex.substr(0, 2) / (slug(c) + "-" + hex + ".cubin");
}

fs::path move_to_quarantine(const fs::path& fp_dir, const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(p, ec))) return {};
  const fs::path qdir = fp_dir / "quarantine";
  fs::create_directories(qdir, ec);
  static std::atomic<unsigned> seq{0};
  const fs::path dest = qdir / fmt::format("{}.{}.{}.{}", p.filename().string(), std::time(nullptr),
                                           ::getpid(), seq++);
  fs::rename(p, dest, ec);
  if (!ec) return dest;
  fs::remove(p, ec);  // cannot keep it aside: at least never load it again
  return {};
}

bool publish_file(const fs::path& dest, const std::string& bytes, bool stall) {
  const std::string tmp = temp_name(dest);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const size_t half = stall ? bytes.size() / 2 : bytes.size();
  bool ok = write_all(fd, bytes.data(), half);
  if (ok && stall) {
    test_stall("write");
    ok = write_all(fd, bytes.data() + half, bytes.size() - half);
  }
  // No fsync: a file torn by a crash fails its checksum and is rebuilt, which is cheaper than
  // an fsync on every compile.
  int err = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(tmp.c_str(), dest.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    errno = err;
  }
  return ok;
}

// ---- DiskCache ------------------------------------------------------------------------------

DiskCache::DiskCache(Options opts, std::string fingerprint)
    : opts_(std::move(opts)), fingerprint_(std::move(fingerprint)) {
  std::error_code ec;
  if (!opts_.root.empty()) {
    dir_ = opts_.root / kCacheLayoutDir / fingerprint_;
    if (opts_.create) fs::create_directories(dir_, ec);
    std::error_code stat_ec;  // keep `ec` (why creating failed) for the warning
    readable_ = fs::is_directory(dir_, stat_ec);  // never throws: an unreachable root is a warning
    if (!opts_.create) {
      // A read-only view: nothing to warn about, nothing to write.
    } else if (!readable_) {
      warn_once("cache-root", fmt::format("cache directory {} is unusable ({}); kernels are kept "
                                          "in memory only",
                                          dir_.string(), ec ? ec.message() : "not a directory"));
    } else {
      writable_ = ::access(dir_.c_str(), W_OK) == 0;
      if (!writable_) {
        warn_once("cache-root", fmt::format("cache directory {} is not writable; existing entries "
                                            "are used, new kernels are kept in memory only",
                                            dir_.string()));
      } else if (const fs::path fp_file = dir_ / "fingerprint.json"; !fs::exists(fp_file, ec)) {
        nlohmann::json j = {{"fingerprint", fingerprint_}, {"toolchain", toolchain_description()}};
        publish_file(fp_file, j.dump(2) + "\n");
      }
    }
  }
  // Prebuilt caches: only their directory for this exact toolchain is usable. One without it
  // (another normjit, NVRTC or template version) is ignored with a single warning.
  std::vector<std::string> ignored;
  for (const fs::path& root : opts_.prebuilt_roots) {
    const fs::path d = root / kCacheLayoutDir / fingerprint_;
    if (!fs::is_directory(d, ec)) {
      ignored.push_back(describe_prebuilt_mismatch(root));
      continue;
    }
    if (readable_ && fs::equivalent(d, dir_, ec)) continue;  // that is the writable cache
    prebuilt_dirs_.push_back(d);
  }
  if (!ignored.empty()) {
    warn_once("prebuilt-cache",
              fmt::format("NORMJIT_PREBUILT_CACHE_DIR: no kernels for this toolchain (fingerprint "
                          "{}) in {}; ignored. A prebuilt cache must be made by the same normjit, "
                          "NVRTC and templates (normjit prewarm --cache-dir DIR ...)",
                          fingerprint_, fmt::join(ignored, "; ")));
  }
}

fs::path DiskCache::entry_path(const KernelConfig& c, const CacheKey& k) const {
  return entry_path_in(dir_, c, k);
}

fs::path DiskCache::sidecar_path(const KernelConfig& c, const CacheKey& k) const {
  fs::path p = entry_path(c, k);
  p.replace_extension(".json");
  return p;
}

EntryCheck DiskCache::read_entry(const fs::path& dir, const KernelConfig& c, const CacheKey& k) const {
  const fs::path entry = entry_path_in(dir, c, k);
  fs::path side = entry;
  side.replace_extension(".json");
  return check_entry(entry, side, EntryExpectation{k, c.arch.cc, nvrtc_version_code(), fingerprint_});
}

bool DiskCache::lookup_prebuilt(const KernelConfig& c, const CacheKey& k, Binary* out) const {
  for (const fs::path& d : prebuilt_dirs_) {
    EntryCheck e = read_entry(d, c, k);
    if (e.status == EntryStatus::Ok) {
      *out = std::move(e.binary);
      return true;
    }
    if (e.status == EntryStatus::Invalid) {
      const fs::path p = entry_path_in(d, c, k);
      warn_once("prebuilt-invalid:" + p.string(),
                fmt::format("prebuilt cache entry {} is invalid ({}); ignored (prebuilt caches "
                            "are read-only)",
                            p.string(), e.why));
    }
  }
  return false;
}

std::optional<CacheLocation> DiskCache::find(const KernelConfig& c) const {
  const CacheKey k = cache_key(c);
  const EntryExpectation expect{k, c.arch.cc, nvrtc_version_code(), fingerprint_};
  for (const fs::path& d : prebuilt_dirs_) {
    const fs::path p = entry_path_in(d, c, k);
    fs::path side = p;
    side.replace_extension(".json");
    if (check_entry(p, side, expect, false).status == EntryStatus::Ok) return CacheLocation{p, true};
  }
  if (readable_ &&
      check_entry(entry_path(c, k), sidecar_path(c, k), expect, false).status == EntryStatus::Ok)
    return CacheLocation{entry_path(c, k), false};
  return std::nullopt;
}

void DiskCache::quarantine(const fs::path& entry, const fs::path& sidecar, const std::string& why) const {
  // Both files go: an entry is only valid as a pair. One warning per entry.
  const bool moved = !move_to_quarantine(dir_, entry).empty();
  move_to_quarantine(dir_, sidecar);
  warn_once("quarantine:" + entry.string(),
            fmt::format("cache entry {} is invalid ({}); {} and rebuilt", entry.string(), why,
                        moved ? "moved to quarantine/" : "removed"));
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
  h.kind = std::uint16_t(b.kind);
  h.arch_cc = std::uint32_t(c.arch.cc);
  h.header_size = sizeof h;
  h.key_hi = k.hi;
  h.key_lo = k.lo;
  h.payload_size = b.bytes.size();
  h.payload_hash = hash64(b.bytes.data(), b.bytes.size());
  h.nvrtc_version = nvrtc_version_code();
  h.header_hash = hash64(&h, offsetof(CacheEntryHeader, header_hash));
  std::string file(reinterpret_cast<const char*>(&h), sizeof h);
  file += b.bytes;

  nlohmann::json side = {
      {"key", k.hex()},
      {"slug", slug(c)},
      {"config", nlohmann::json::parse(canonical_json(c))},
      {"target", b.target},
      {"kind", b.kind == Binary::Kind::Cubin ? "cubin" : "ptx"},
      {"format", kCacheFormatVersion},
      {"fingerprint", fingerprint_},
      {"nvrtc", version_text(h.nvrtc_version)},
      {"options", base_compile_options()},
      {"compile_ms", b.millis},
      {"log", b.log},
      {"created", std::time(nullptr)},
  };
  // Sidecar first: once the cubin is visible, its sidecar already is.
  const fs::path side_path = sidecar_path(c, k);
  if (!publish_file(side_path, side.dump(2) + "\n")) {
    disable_writes(std::strerror(errno));
    return;
  }
  if (!publish_file(entry_path(c, k), file, /*test_stall=*/true)) {
    const int err = errno;
    ::unlink(side_path.c_str());  // we hold the lock: nobody else published it meanwhile
    disable_writes(std::strerror(err));
  }
}

Binary DiskCache::get_or_build(const KernelConfig& c, const std::function<Binary()>& build,
                               CacheOutcome* outcome, bool explicit_build) {
  const CacheKey k = cache_key(c);
  Binary b;
  if (lookup_prebuilt(c, k, &b)) {
    *outcome = CacheOutcome::Hit;
    return b;
  }
  if (readable_) {
    EntryCheck e = read_entry(dir_, c, k);
    if (e.status == EntryStatus::Ok) {
      *outcome = CacheOutcome::Hit;
      return std::move(e.binary);
    }
  }
  if (opts_.offline && !explicit_build) {
    const std::string cmd = prewarm_command(c);
    std::string searched = dir_.empty() ? "(none)" : dir_.string();
    for (const fs::path& d : prebuilt_dirs_) searched += ", prebuilt " + d.string();
    throw CacheMissError(
        fmt::format("normjit: offline mode (NORMJIT_OFFLINE) and kernel {} (key {}) is not in the "
                    "cache {}; produce it with: {}",
                    slug(c), k.hex(), searched, cmd),
        slug(c), cmd);
  }
  if (!writable_) {
    *outcome = CacheOutcome::Compiled;
    return build();
  }
  std::error_code ec;
  const fs::path entry = entry_path(c, k);
  const fs::path side = sidecar_path(c, k);
  fs::create_directories(entry.parent_path(), ec);
  fs::path lock_path = entry;
  lock_path.replace_extension(".lock");
  FileLock lock(lock_path.string(), opts_.lock_timeout);
  if (!lock.locked()) log_warn("{}; compiling {} without the lock", lock.error(), slug(c));
  // Another process may have published it while we waited.
  EntryCheck e = read_entry(dir_, c, k);
  if (e.status == EntryStatus::Ok) {
    *outcome = CacheOutcome::Hit;
    return std::move(e.binary);
  }
  if (e.status == EntryStatus::Invalid) {
    quarantine(entry, side, e.why);
  }
  // Holding the lock, the only other writers of this key can be dead ones (or ones that gave
  // up waiting for the lock): remove what the dead left.
  if (lock.locked())
    remove_stale_temps(entry.parent_path(), {entry.filename().string(), side.filename().string()});
  test_stall("compile");
  b = build();
  *outcome = CacheOutcome::Compiled;
  if (writable_) store(c, k, b);
  return b;
}

}  // namespace normjit::detail

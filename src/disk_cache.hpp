// On-disk cubin cache (format: cache/README.md).
//
//   <root>/v1/<fingerprint>/<key[0:2]>/<slug>-<key>.cubin   64-byte header + payload
//                                      /<slug>-<key>.json    sidecar: canonical config, log
//                                      /<slug>-<key>.lock    per-key lock, never deleted live
//   <root>/v1/<fingerprint>/quarantine/                      bad entries moved here
//
// Concurrency contract: readers take no lock; an entry becomes visible only through rename()
// of a fully written temp file (sidecar first, then the cubin), so nobody ever reads a torn
// file. A miss takes the key's lock, re-checks, builds, publishes, unlocks: a key is compiled
// once per machine while locks work, and distinct keys never wait for each other.
// Anything that fails validation (size, magic, version, checksum, key, arch, sidecar) is moved
// to quarantine/ under the lock and rebuilt; it is never loaded.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"

namespace normjit::detail {

constexpr std::uint32_t kCacheFormatVersion = 1;

// 16 hex digits over everything besides the config that changes a binary: library version,
// cache format, NVRTC version, template bytes, base options.
std::string toolchain_fingerprint();
// The text hashed into the fingerprint (written to fingerprint.json for humans).
std::string toolchain_description();

// Header before the payload. Layout is part of the on-disk format: do not reorder.
#pragma pack(push, 1)
struct CacheEntryHeader {
  char magic[8];                // "NJITCUB1"
  std::uint32_t format_version; // kCacheFormatVersion
  std::uint32_t kind;           // Binary::Kind
  std::uint32_t arch_cc;        // e.g. 90
  std::uint32_t header_size;    // sizeof(CacheEntryHeader)
  std::uint64_t key_hi, key_lo; // the entry's own key: a file under another name is foreign
  std::uint64_t payload_size;
  std::uint64_t payload_hash;   // XXH3-64 of the payload
  std::uint64_t header_hash;    // XXH3-64 of the bytes above
};
#pragma pack(pop)
static_assert(sizeof(CacheEntryHeader) == 64, "on-disk header layout");

enum class CacheOutcome { Hit, Compiled };

class DiskCache {
 public:
  struct Options {
    std::filesystem::path root;  // empty: memory only
    bool offline = false;        // a miss throws CacheMissError instead of compiling
    std::chrono::milliseconds lock_timeout{std::chrono::minutes(5)};
  };

  DiskCache(Options opts, std::string fingerprint);

  // Valid entry or a newly built one. `build` runs at most once, under the key's lock. In
  // offline mode a miss throws CacheMissError unless `explicit_build` (a prewarm) asks for it.
  Binary get_or_build(const KernelConfig& c, const std::function<Binary()>& build,
                      CacheOutcome* outcome, bool explicit_build = false);

  const std::filesystem::path& dir() const { return dir_; }  // <root>/v1/<fingerprint>
  const std::string& fingerprint() const { return fingerprint_; }
  bool readable() const { return readable_; }
  bool writable() const { return writable_; }
  bool offline() const { return opts_.offline; }

  // Paths of one entry (exposed for tests and tools).
  std::filesystem::path entry_path(const KernelConfig& c, const CacheKey& k) const;
  std::filesystem::path sidecar_path(const KernelConfig& c, const CacheKey& k) const;

 private:
  enum class ReadStatus { Ok, Missing, Invalid };
  ReadStatus read_entry(const KernelConfig& c, const CacheKey& k, Binary* out,
                        std::string* why) const;
  void quarantine(const std::filesystem::path& p, const std::string& why) const;
  bool publish(const std::filesystem::path& dest, const std::string& bytes) const;
  void store(const KernelConfig& c, const CacheKey& k, const Binary& b);
  void disable_writes(const std::string& why);

  Options opts_;
  std::string fingerprint_;
  std::filesystem::path dir_;
  bool readable_ = false;
  std::atomic<bool> writable_{false};
};

}  // namespace normjit::detail

// On-disk cubin cache (format: cache/README.md).
//
//   <root>/v1/<fingerprint>/<key[0:2]>/<slug>-<key>.cubin   64-byte header + payload
//                                      /<slug>-<key>.json    sidecar: canonical config, log
//                                      /<slug>-<key>.lock    per-key lock
//   <root>/v1/<fingerprint>/quarantine/                      bad entries moved here
//
// Concurrency contract: readers take no lock; an entry becomes visible only through rename()
// of a fully written temp file (sidecar first, then the cubin), so nobody ever reads a torn
// file. A miss takes the key's lock, re-checks, builds, publishes, unlocks: a key is compiled
// once per machine while locks work, and distinct keys never wait for each other. A process
// killed while holding a lock releases it (flock), and the temp files it leaves are removed by
// the next holder of that key's lock (their writer is dead) or by `normjit cache verify --fix`.
// Anything that fails validation (check_entry: size, magic, version, checksum, key, arch,
// NVRTC version, sidecar) is moved to quarantine/ under the lock and rebuilt; it is never loaded.
//
// Prebuilt caches (NORMJIT_PREBUILT_CACHE_DIR, e.g. shipped in a container image) are searched
// first, validated the same way, and never written to: no quarantine, no lock, no copy.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"

namespace normjit::detail {

// 2: the header records the NVRTC version.
constexpr std::uint32_t kCacheFormatVersion = 2;
// Directory under the root that holds one directory per fingerprint.
constexpr const char* kCacheLayoutDir = "v1";

// 16 hex digits over everything besides the config that changes a binary: library version,
// cache format, NVRTC version, template bytes, base options.
std::string toolchain_fingerprint();
// The text hashed into the fingerprint (written to fingerprint.json for humans).
std::string toolchain_description();
// NVRTC version as CUDA encodes versions (13.0 -> 13000); 0 when NVRTC cannot be loaded.
std::uint32_t nvrtc_version_code() noexcept;

// The writable cache root: $NORMJIT_CACHE_DIR, else $XDG_CACHE_HOME/normjit, else
// $HOME/.cache/normjit (HOME from the passwd entry when unset). Empty when none is known:
// kernels are then kept in memory only (warned once).
std::filesystem::path cache_root_from_env();
// $NORMJIT_PREBUILT_CACHE_DIR split at ':' (empty items skipped), in search order.
std::vector<std::filesystem::path> prebuilt_roots_from_env();

// Header before the payload. Layout is part of the on-disk format: do not reorder. Still 64
// bytes in format 2 (tools strip it with `tail -c +65`); format 1 had u32 kind and header_size
// and no NVRTC version, and is rejected by its format_version.
#pragma pack(push, 1)
struct CacheEntryHeader {
  char magic[8];                // "NJITCUB1"
  std::uint32_t format_version; // kCacheFormatVersion
  std::uint16_t kind;           // Binary::Kind
  std::uint16_t header_size;    // sizeof(CacheEntryHeader)
  std::uint32_t arch_cc;        // e.g. 90
  std::uint32_t nvrtc_version;  // NVRTC that built the payload (nvrtc_version_code())
  std::uint64_t key_hi, key_lo; // the entry's own key: a file under another name is foreign
  std::uint64_t payload_size;
  std::uint64_t payload_hash;   // XXH3-64 of the payload
  std::uint64_t header_hash;    // XXH3-64 of the bytes above
};
#pragma pack(pop)
static_assert(sizeof(CacheEntryHeader) == 64, "on-disk header layout");

// ---- entry validation: the one definition of "valid", used by lookups and `cache verify` ----

struct EntryExpectation {
  CacheKey key;                // the key the entry's name promises
  int arch_cc = 0;             // 0: any, as long as header and sidecar config agree
  std::uint32_t nvrtc = 0;     // 0: any, as long as header and sidecar agree
  std::string fingerprint;     // "": any; else the sidecar's (the directory's name)
};

enum class EntryStatus { Ok, Missing, Invalid };

struct EntryCheck {
  EntryStatus status = EntryStatus::Missing;
  std::string why;          // what is wrong (Missing / Invalid)
  Binary binary;            // the payload (Ok)
  nlohmann::json sidecar;   // the parsed sidecar (Ok, or Invalid past the sidecar parse)
  std::uint32_t arch_cc = 0;  // from the header, when it could be read
};

// Validates an entry file and its sidecar against `expect`. `load_payload` false skips copying
// the payload into the result (checksums are still verified).
EntryCheck check_entry(const std::filesystem::path& cubin, const std::filesystem::path& sidecar,
                       const EntryExpectation& expect, bool load_payload = true);

// The key in an entry file name ("<slug>-<32 hex>.cubin" / ".json"); false when it has none.
bool key_from_file_name(const std::string& file_name, CacheKey* key);
// True for a writer's temp file (".<name>.tmp.<pid>.<tid>.<n>") that nobody will finish: its
// process is gone from this pid namespace, or it is older than an hour.
bool is_stale_temp(const std::filesystem::path& p);
// True for a writer's temp file name.
bool is_temp_name(const std::string& file_name);

enum class CacheOutcome { Hit, Compiled };

// Where a lookup was answered (see DiskCache::find).
struct CacheLocation {
  std::filesystem::path path;  // the .cubin
  bool prebuilt = false;       // in a read-only prebuilt cache
};

class DiskCache {
 public:
  struct Options {
    std::filesystem::path root;  // empty: memory only
    std::vector<std::filesystem::path> prebuilt_roots;  // read-only, searched first
    bool offline = false;        // a miss throws CacheMissError instead of compiling
    std::chrono::milliseconds lock_timeout{std::chrono::minutes(5)};
    // false: a read-only view (dry runs, tools) that creates nothing and never writes.
    bool create = true;
  };

  DiskCache(Options opts, std::string fingerprint);

  // Valid entry or a newly built one. `build` runs at most once, under the key's lock. In
  // offline mode a miss throws CacheMissError unless `explicit_build` (a prewarm) asks for it.
  Binary get_or_build(const KernelConfig& c, const std::function<Binary()>& build,
                      CacheOutcome* outcome, bool explicit_build = false);

  // Where a valid entry for `c` is, searching like get_or_build; changes nothing on disk.
  std::optional<CacheLocation> find(const KernelConfig& c) const;

  const std::filesystem::path& dir() const { return dir_; }  // <root>/v1/<fingerprint>
  const std::string& fingerprint() const { return fingerprint_; }
  // <prebuilt root>/v1/<fingerprint> of each usable prebuilt cache, in search order.
  const std::vector<std::filesystem::path>& prebuilt_dirs() const { return prebuilt_dirs_; }
  bool readable() const { return readable_; }
  bool writable() const { return writable_; }
  bool offline() const { return opts_.offline; }

  // Paths of one entry (exposed for tests and tools).
  std::filesystem::path entry_path(const KernelConfig& c, const CacheKey& k) const;
  std::filesystem::path sidecar_path(const KernelConfig& c, const CacheKey& k) const;

 private:
  EntryCheck read_entry(const std::filesystem::path& dir, const KernelConfig& c,
                        const CacheKey& k) const;
  bool lookup_prebuilt(const KernelConfig& c, const CacheKey& k, Binary* out) const;
  void quarantine(const std::filesystem::path& entry, const std::filesystem::path& sidecar,
                  const std::string& why) const;
  void store(const KernelConfig& c, const CacheKey& k, const Binary& b);
  void disable_writes(const std::string& why);

  Options opts_;
  std::string fingerprint_;
  std::filesystem::path dir_;
  std::vector<std::filesystem::path> prebuilt_dirs_;
  bool readable_ = false;
  std::atomic<bool> writable_{false};
};

// <dir>/<key[0:2]>/<slug>-<key>.cubin for a fingerprint directory `dir`.
std::filesystem::path entry_path_in(const std::filesystem::path& dir, const KernelConfig& c,
                                    const CacheKey& k);

// Moves `p` into <fingerprint dir>/quarantine/ (deletes it when that fails); returns the new
// path, or "" when it was deleted or did not exist.
std::filesystem::path move_to_quarantine(const std::filesystem::path& fingerprint_dir,
                                         const std::filesystem::path& p);
// Writes `bytes` to `dest` through a temp file and rename(); false (errno set) on failure.
bool publish_file(const std::filesystem::path& dest, const std::string& bytes,
                  bool test_stall = false);
// Removes the stale temp files of the entry files named `names` in directory `dir`.
void remove_stale_temps(const std::filesystem::path& dir, const std::vector<std::string>& names);

}  // namespace normjit::detail

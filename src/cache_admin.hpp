// Cache administration: the library side of `normjit cache ls|verify|prune|clear|path`.
//
// Everything here works on a cache root given explicitly and never constructs the runtime, so
// it runs without a GPU, without NVRTC (the current fingerprint is then unknown) and next to
// live processes: entries are validated with check_entry (the lookups' own validation), and
// removed or quarantined only while holding the key's lock, the way DiskCache itself does.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cubin_info.hpp"
#include "disk_cache.hpp"

namespace normjit::detail::admin {

// One entry: a .cubin and its .json sidecar (either may be missing).
struct Entry {
  std::filesystem::path cubin, sidecar, lock;  // paths (whether or not they exist)
  bool has_cubin = false, has_sidecar = false;
  std::string fingerprint;  // its fingerprint directory
  CacheKey key;             // from the file name
  std::string slug;         // from the sidecar, else from the file name
  std::string op;           // sidecar config op ("" when unknown)
  int arch_cc = 0;          // sidecar config arch, else the header's (0 when unknown)
  std::string target;       // "sm_90a", "compute_120" ... ("" when unknown)
  std::uint64_t bytes = 0;  // .cubin + .json
  std::int64_t created = 0; // sidecar "created" (unix time); 0 when unknown
};

struct Scan {
  std::filesystem::path root;
  std::vector<Entry> entries;                 // sorted by fingerprint, then slug
  std::vector<std::filesystem::path> temps;   // writers' temp files (live or dead)
  std::vector<std::filesystem::path> quarantined;
  std::vector<std::filesystem::path> unknown;  // files normjit did not write
  std::vector<std::string> fingerprints;      // fingerprint directories seen
  std::uint64_t total_bytes = 0;              // every file under <root>/v1
};

struct Filter {
  std::string op;           // "" any
  int arch_cc = 0;          // 0 any; sm_90 matches sm_90a entries
  std::string fingerprint;  // "" any; else a prefix of the fingerprint
  bool matches(const Entry& e) const;
};

// Lists <root>/v1 (missing root: empty scan). `fingerprint` prefix limits the directories read.
Scan scan(const std::filesystem::path& root, const std::string& fingerprint = "");

// The kernel's registers and stack a thread (cubin_info.hpp), for an entry that validates as
// its lookups would (check_entry) and holds a cubin; nullopt otherwise (PTX, incomplete or bad
// entries: `cache verify` says why).
std::optional<KernelResources> entry_resources(const Entry& e);

// ---- verify ---------------------------------------------------------------------------------

struct Problem {
  std::filesystem::path path;
  std::string why;
  std::string action;  // "" (reported only), "quarantined", "removed", "skipped: ..."
};

struct VerifyReport {
  int checked = 0;  // entries validated
  int ok = 0;
  std::vector<Problem> problems;  // bad entries, orphan sidecars, stale temp files
  bool all_fixed() const;
};

// Re-validates every entry (checksums, header, sidecar; NVRTC version against the running one
// for `current_fingerprint`'s directory). With `fix`, bad entries go to quarantine/, orphan
// sidecars and dead writers' temp files are removed.
VerifyReport verify(const std::filesystem::path& root, const Filter& filter, bool fix,
                    const std::string& current_fingerprint);

// ---- prune / clear --------------------------------------------------------------------------

struct Removal {
  std::filesystem::path path;  // the .cubin (or the quarantined / temp file)
  std::string slug;            // "" for quarantined and temp files
  std::uint64_t bytes = 0;
  std::int64_t created = 0;
  bool removed = false;        // false in a dry run, or when its lock stayed busy
  std::string note;
};

struct RemovalReport {
  std::vector<Removal> items;
  std::uint64_t bytes_before = 0;
  std::uint64_t bytes_after = 0;  // estimated for a dry run
  int removed_entries() const;
};

struct PruneOptions {
  std::optional<std::uint64_t> max_bytes;        // keep the cache at most this big
  std::optional<std::int64_t> older_than_seconds;  // remove entries created longer ago
  bool dry_run = false;
  std::int64_t now = 0;  // unix time (0: now)
};

// Quarantined files and dead writers' temp files go first, then entries oldest `created`
// first (never by access time): all older than `older_than_seconds`, then more until the
// cache fits in `max_bytes`.
RemovalReport prune(const std::filesystem::path& root, const PruneOptions& options);

// Removes the entries `filter` selects; with no op/arch filter also quarantine/, dead temp
// files, unused lock files, and the directories of fingerprints other than `current`.
RemovalReport clear(const std::filesystem::path& root, const Filter& filter,
                    const std::string& current_fingerprint);

// ---- path -----------------------------------------------------------------------------------

struct PrebuiltInfo {
  std::filesystem::path root;
  std::filesystem::path dir;  // <root>/v1/<current fingerprint>
  bool usable = false;        // dir exists
};

struct PathInfo {
  std::filesystem::path root;  // "" when memory only
  std::string fingerprint;     // "" when NVRTC cannot be loaded
  std::filesystem::path dir;   // <root>/v1/<fingerprint>
  std::vector<PrebuiltInfo> prebuilt;
};
// Resolved from the environment like the runtime does; creates nothing.
PathInfo path_info();
// toolchain_fingerprint(), or "" when NVRTC cannot be loaded.
std::string current_fingerprint() noexcept;

// ---- units ----------------------------------------------------------------------------------

// "500M", "2G", "1.5GiB", "100k", "4096" -> bytes (K/M/G/T are powers of 1024). Throws
// ValidationError naming `what` and the expected form.
std::uint64_t parse_size(const std::string& text, const std::string& what = "size");
// "7d", "12h", "30m", "45s", "2w", "1d12h" -> seconds. Throws ValidationError.
std::int64_t parse_duration(const std::string& text, const std::string& what = "duration");
std::string format_size(std::uint64_t bytes);  // "1.2M"
std::string format_age(std::int64_t seconds);  // "45s", "3m", "5h", "2d"

}  // namespace normjit::detail::admin

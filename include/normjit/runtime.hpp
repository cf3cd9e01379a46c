// Process-wide runtime: caches, statistics, compile-only (prewarm) entry points.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "normjit/dtype.hpp"

namespace normjit {

enum class Op : std::uint8_t {
  rmsnorm = 0,
  gemma_rmsnorm = 1,
  fused_add_rmsnorm = 2,
  gemma_fused_add_rmsnorm = 3,
};
std::string_view op_name(Op op) noexcept;
bool parse_op(std::string_view name, Op* out) noexcept;
std::vector<Op> all_ops();

// The compile-time shape of a call: what a prewarm needs to know to build the kernel a later
// call will ask for. `rank3` selects the per-head [batch, heads, head_dim] form.
struct ProblemSpec {
  Op op = Op::rmsnorm;
  DType dtype = DType::bf16;         // activation dtype
  DType weight_dtype = DType::bf16;  // = dtype or f32
  std::int64_t hidden = 0;
  bool rank3 = false;
  int max_vec = 0;  // cap on elements per vector access (0: what 16-byte-aligned tensors allow)
  // Rows of a call (tokens, or tokens x heads for rank3); 0: any. The kernel chosen for many
  // rows may differ from the one for few; prewarming a problem with rows 0 builds both.
  std::int64_t rows = 0;
  // rmsnorm / gemma_rmsnorm writing over its input (out == input, or no out): rules out kernels
  // whose CTAs share a row's input (KernelConfig::split). Prewarming builds both kinds.
  bool out_aliases_input = false;
  // The call promises that nothing in flight writes the weight (LaunchOptions::static_weight)
  // and launches with PDL: a few rows may then take a kernel that reads the weight before it
  // waits for the previous kernel (KernelConfig::weight_first). A prewarm builds the kind its
  // problems name (manifest field static_weight, `prewarm --static-weight`).
  bool static_weight = false;
  // Every tensor's rows are `hidden` elements apart (2-D or flat per-head rows): a kernel may
  // then address its rows from one base at compile-time offsets (KernelConfig::dense). Calls set
  // it from their strides; prewarming a problem builds both kinds.
  bool dense_rows = false;
  // Heads a token of a per-head (rank3) call whose heads a kernel may address by block
  // (KernelConfig::head_blocks: a block holds some of one token's heads); 0 where not known or not
  // so addressable. Calls set it from their shape and strides; prewarming a rank3 problem with 0
  // builds the kernels of both.
  std::int64_t heads = 0;
};

struct PrewarmItem {
  std::string slug;
  std::string key;      // hex cache key
  bool compiled = false;  // false: it was already in the disk cache
  double millis = 0;
  std::string error;    // non-empty when it failed (with compiled: built but not stored)
  // Added with PrewarmOptions:
  std::string arch;     // the NVRTC target, e.g. "sm_90a"
  bool cached = false;  // found valid in the disk cache (no compile); in a dry run: would hit
  bool prebuilt = false;  // ... in a read-only prebuilt cache (NORMJIT_PREBUILT_CACHE_DIR)
};

// Compiles (no GPU needed) every kernel the given problems can select on `arch` ("sm_90",
// "sm_90a", "90", "sm_100" ...; a comma list; empty = the GPUs present) into the disk cache,
// `jobs` at once (0 = all cores). Throws ValidationError for unsupported problems. Per-kernel
// failures are reported in the items (see PrewarmOptions below).
std::vector<PrewarmItem> prewarm(const std::vector<ProblemSpec>& problems,
                                 const std::string& arch = "", int jobs = 0);

struct PrewarmOptions {
  // Comma list of targets ("sm_80,sm_90,sm_100"); "all": every arch NVRTC can build for from
  // sm_80 on; empty: the arch of each visible GPU (CudaError when there is none).
  std::string arch;
  int jobs = 0;          // parallel compiles; 0 = all cores
  bool dry_run = false;  // resolve configs and look them up; compile and write nothing
  // Called once per kernel when it is done (from worker threads, one call at a time), with
  // the number done so far and the total. Exceptions it throws are ignored.
  std::function<void(const PrewarmItem& item, std::size_t done, std::size_t total)> progress;
};

// As above for several archs in one pool. A kernel that was compiled but could not be stored
// (read-only or full disk) is reported as failed: a prewarm that leaves nothing behind is one.
// Items come in (arch, problem) order, one per distinct kernel.
std::vector<PrewarmItem> prewarm(const std::vector<ProblemSpec>& problems,
                                 const PrewarmOptions& options);

// A prewarm manifest: the problems a deployment needs (format: cache/README.md).
struct Manifest {
  std::string name;
  std::string description;
  std::vector<std::string> models;    // the models it covers (informational)
  std::vector<ProblemSpec> problems;  // expanded, includes resolved
  std::string origin;                 // the file, or "<inline json>"
};
// Parses manifest JSON. Throws ValidationError naming `origin` and the bad field (unknown op,
// dtype or field, a value out of range, a per-head problem for an op without that form).
// "include"s resolve next to `origin`, then as bundled names (manifest_dirs(search_dirs)).
Manifest parse_manifest(const std::string& json_text, const std::string& origin = "<inline json>",
                        const std::vector<std::string>& search_dirs = {});
// `spec`: manifest JSON text (starts with '{'), a file path, or a bundled manifest name
// ("llama-3.1-8b") looked up in manifest_dirs(search_dirs).
Manifest load_manifest(const std::string& spec, const std::vector<std::string>& search_dirs = {});
// Where bundled manifests are looked up, in order: $NORMJIT_MANIFEST_DIR (a ':' list),
// `search_dirs`, share/normjit/manifests of the installation holding this library.
std::vector<std::string> manifest_dirs(const std::vector<std::string>& search_dirs = {});
// The cross product ops x dtypes x weight dtypes (empty: the activation dtype) x sizes, as
// manifests and `normjit prewarm --op/--dtype/--hidden` list problems.
std::vector<ProblemSpec> expand_problems(const std::vector<Op>& ops, const std::vector<DType>& dtypes,
                                         const std::vector<DType>& weight_dtypes,
                                         const std::vector<std::int64_t>& sizes, bool rank3,
                                         int max_vec);
// Names of the manifests found in manifest_dirs(search_dirs).
std::vector<std::string> bundled_manifests(const std::vector<std::string>& search_dirs = {});

struct RuntimeStats {
  std::uint64_t memory_hits = 0;  // calls served by the in-process cache
  std::uint64_t disk_hits = 0;    // kernels loaded from the disk cache
  std::uint64_t compiles = 0;     // NVRTC compilations in this process
  std::uint64_t launches = 0;
};
RuntimeStats runtime_stats() noexcept;

struct CacheInfo {
  std::string root;         // cache root directory ("" when memory only)
  std::string fingerprint;  // directory name for this toolchain
  bool writable = false;
  bool offline = false;
};
CacheInfo cache_info();

struct GpuInfo {
  int ordinal = 0;
  std::string name;
  std::string arch;  // compute capability, e.g. "sm_90"
  std::string target;  // what normjit compiles for it, e.g. "sm_90a"
  int sms = 0;         // streaming multiprocessors (the heuristics read it, e.g. for one-wave rules)
};

struct SystemInfo {
  std::string version;            // normjit version
  bool driver = false;            // libcuda loaded and cuInit succeeded
  std::string driver_error;       // why not
  int driver_version = 0;         // e.g. 13000
  std::vector<GpuInfo> gpus;
  std::string nvrtc_version;      // "" when NVRTC cannot be loaded
  std::string nvrtc_error;
  std::vector<std::string> nvrtc_archs;
  std::string templates;          // "embedded" or NORMJIT_TEMPLATE_DIR
  std::string template_hash;
  CacheInfo cache;
};
// Never throws for a missing driver or GPU; describes what is there.
SystemInfo system_info();

// Drops every loaded kernel of this process (the disk cache is untouched). Not thread-safe with
// concurrent op calls; meant for tests and tools.
void reset_memory_cache();

}  // namespace normjit

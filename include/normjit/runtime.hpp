// Process-wide runtime: caches, statistics, compile-only (prewarm) entry points.
#pragma once
#include <cstdint>
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
};

struct PrewarmItem {
  std::string slug;
  std::string key;      // hex cache key
  bool compiled = false;  // false: it was already in the disk cache
  double millis = 0;
  std::string error;    // non-empty when it failed
};

// Compiles (no GPU needed) every kernel the given problems can select on `arch` ("sm_90",
// "sm_90a", "90", "sm_100" ...; empty = the detected GPU) into the disk cache, `jobs` at once
// (0 = all cores). Throws ValidationError for unsupported problems.
std::vector<PrewarmItem> prewarm(const std::vector<ProblemSpec>& problems,
                                 const std::string& arch = "", int jobs = 0);

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

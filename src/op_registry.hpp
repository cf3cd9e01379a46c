// The one table that maps each op to its kernel template, its fusion flags and its heuristic.
#pragma once
#include <string_view>

#include "arch.hpp"
#include "kernel_config.hpp"
#include "normjit/runtime.hpp"

namespace normjit::detail {

// Picks the kernel config for a problem on a GPU. `max_vec` is the widest vector (in elements)
// the call's pointers and strides allow. Pure function; throws ValidationError(Unsupported)
// when the problem is outside what the template supports.
using Heuristic = KernelConfig (*)(const ProblemSpec& problem, int max_vec, Arch arch);

struct OpInfo {
  Op op;
  std::string_view name;           // public name (flashinfer's)
  std::string_view template_file;  // in kernel_templates/
  std::string_view device_fn;      // template function taking <Cfg>(const NormParams&)
  bool residual;                   // fused residual add
  bool gemma;                      // weight offset 1
  bool allows_rank3;               // per-head [batch, heads, head_dim] form
  Heuristic choose;
};

const OpInfo& op_info(Op op);

// Fields a benchmark may force over the heuristic's choice (0 / -1: keep the heuristic's).
struct ConfigOverride {
  int threads_per_row = 0;
  int rows_per_block = 0;
  int vec = 0;         // only narrower than the heuristic's (alignment was checked for that)
  int residency = -1;
  int min_blocks = -1;  // -1: the heuristic's; 0: none
  int loads = -1;       // -1: the heuristic's
  int stores = -1;      // -1: the heuristic's (fused add only)
  int cluster = 0;      // CTAs per row (sm_90+); 0: the heuristic's
  int split = 0;        // CTAs sharing a row without a cluster; 0: the heuristic's (1 if reshaped)
  int weight_first = -1;  // -1: the heuristic's (dropped where the residency is not 0)
  int keep_out = -1;      // -1: the heuristic's
  int keep_tail = -1;     // -1: the heuristic's (dropped where it does not apply); MiB, 0: every row
  int pin_weight = -1;    // -1: the heuristic's (dropped where it does not apply)
  int rows_per_thread = 0;  // 0: the heuristic's (1 where it does not apply)
  int trigger = -1;         // -1: the heuristic's (auto); 0 auto, 1 early, 2 end (sm_90+)
  int prefetch = -1;        // -1: the heuristic's; else a KernelConfig::prefetch mask (the weight's bit dropped with weight_first)
  int reconvert = -1;       // -1: the heuristic's (dropped where it does not apply)
  int dense = -1;           // -1: the heuristic's (dropped where it does not apply or the call is not dense)
  int weight_shared = -1;   // -1: the heuristic's (dropped where it does not apply)
  int head_blocks = -1;     // -1: the heuristic's (dropped where it does not apply or the call's heads do not fit)
  int reg_usage = -2;       // -2: the heuristic's; -1: ptxas's default (not passed); 0-10: ptxas's level
};
// Installs a process-wide override (nullptr: none) and returns the one it replaces. For `normjit
// bench --config/--sweep` and tests; not meant to be changed while ops run on other threads.
const ConfigOverride* set_config_override(const ConfigOverride* o);

// set_config_override(o) for a scope: the override installed before comes back when the scope
// ends, also by an exception (a failed REQUIRE in a test). `o` must outlive the scope.
class ScopedConfigOverride {
 public:
  explicit ScopedConfigOverride(const ConfigOverride* o) : previous_(set_config_override(o)) {}
  ~ScopedConfigOverride() { set_config_override(previous_); }
  ScopedConfigOverride(const ScopedConfigOverride&) = delete;
  ScopedConfigOverride& operator=(const ScopedConfigOverride&) = delete;

 private:
  const ConfigOverride* previous_;
};

// The config an op call uses: the op's heuristic, then the override if one is installed.
// Throws ValidationError when the problem (or the override) is not supported.
KernelConfig choose_config(const ProblemSpec& problem, int max_vec, Arch arch);

// Every config calls of `problem` may use on `arch`: the one for its rows, or with rows 0 (any)
// one per row class (heuristics.hpp: kRowClasses), each for an output written over the input
// and for a separate one, and for dense rows and others (ProblemSpec::dense_rows), without
// repeats. What prewarm builds.
std::vector<KernelConfig> configs_for(const ProblemSpec& problem, Arch arch);

}  // namespace normjit::detail

// Kernel launch through cuLaunchKernelEx on the caller's stream, with PDL when asked for.
#pragma once
#include "cuda_driver.hpp"
#include "kernel_config.hpp"
#include "normjit/ops.hpp"
#include "params.cuh"

namespace normjit::detail {

// What cuLaunchKernelEx takes for one call, built the one way the library launches: the grid
// (clusters included), the attributes and the parameters. Not copyable: `config.attrs` and
// `args` point into the object itself.
struct LaunchArgs {
  CUlaunchConfig config{};
  CUlaunchAttribute attrs[2]{};
  NormParams params{};
  void* args[1]{};
  LaunchArgs() = default;
  LaunchArgs(const LaunchArgs&) = delete;
  LaunchArgs& operator=(const LaunchArgs&) = delete;
};

// Whether a launch on `arch` uses programmatic dependent launch: where the arch has it
// (Arch::has_pdl), unless LaunchOptions::enable_pdl is set false.
inline bool uses_pdl(const LaunchOptions& o, Arch arch) { return arch.has_pdl() && o.enable_pdl.value_or(true); }

// Fills `out` for `c` over p.rows rows on `stream`; `pdl`: programmatic dependent launch (the
// caller checked sm_90+), `sm_count`: the device's SMs (a one-wave grid triggers its dependents
// early). Throws ValidationError when the grid is too large; launches nothing.
void prepare_launch(const KernelConfig& c, const NormParams& p, bool pdl, int sm_count, CUstream stream,
                    LaunchArgs* out);

// Loads (or finds) the kernel for `c` and launches it over p.rows rows on `device`.
void launch_norm(const KernelConfig& c, const NormParams& p, const LaunchOptions& opts, int device);

}  // namespace normjit::detail

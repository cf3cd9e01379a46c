// Kernel launch through cuLaunchKernelEx on the caller's stream, with PDL when asked for.
#pragma once
#include "kernel_config.hpp"
#include "normjit/ops.hpp"
#include "params.cuh"

namespace normjit::detail {

// Loads (or finds) the kernel for `c` and launches it over p.rows rows on `device`.
void launch_norm(const KernelConfig& c, const NormParams& p, const LaunchOptions& opts, int device);

}  // namespace normjit::detail

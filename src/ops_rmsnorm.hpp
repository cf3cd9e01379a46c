// The kernel config an rmsnorm-family call runs, for tools that label what they time (the bench).
#pragma once
#include "kernel_config.hpp"
#include "normjit/ops.hpp"

namespace normjit::detail {

// Validates `args` as the call of `op` does (throwing the same ValidationError) and returns the
// config that call would launch, with the installed override applied; launches nothing. A call
// without rows runs nothing: its config is a default-constructed one.
KernelConfig rmsnorm_call_config(Op op, const RmsnormArgs& args, const LaunchOptions& opts);
KernelConfig fused_add_call_config(Op op, const FusedAddRmsnormArgs& args, const LaunchOptions& opts);

}  // namespace normjit::detail

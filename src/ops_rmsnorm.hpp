// A validated rmsnorm-family call before its launch: the parameters and the config it runs, for
// the ops themselves and for tools that label or replay what they time (the bench).
#pragma once
#include "kernel_config.hpp"
#include "normjit/ops.hpp"
#include "params.cuh"

namespace normjit::detail {

// A validated call: its parameters, the config it runs and its device (rows == 0: nothing to run).
struct PreparedCall {
  NormParams p;  // set field by field (set_params): a zero-fill of the call was a rep stos a call
  KernelConfig config{};
  int device = 0;
};

// Validates `args` as the call of `op` does (throwing the same ValidationError) and returns what
// that call would launch, with the installed override applied; launches nothing. A call without
// rows runs nothing: its parameters are zero and its config a default-constructed one.
PreparedCall prepare_rmsnorm(Op op, const RmsnormArgs& args, const LaunchOptions& opts);
PreparedCall prepare_fused_add(Op op, const FusedAddRmsnormArgs& args, const LaunchOptions& opts);

}  // namespace normjit::detail

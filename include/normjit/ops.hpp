// Op entry points. Names, argument order and defaults follow flashinfer.norm; the C++ core is
// destination passing (every output is a view the caller owns). Ops validate every argument
// before launching, enqueue on `LaunchOptions::stream`, never synchronize and never allocate
// device memory.
#pragma once
#include <optional>

#include "normjit/dtype.hpp"

struct CUstream_st;  // identical to cuda.h's declaration, so including both is fine

namespace normjit {

using Stream = CUstream_st*;

struct LaunchOptions {
  Stream stream = nullptr;          // the caller's stream; nullptr = legacy default stream
  std::optional<bool> enable_pdl;   // unset or true: programmatic dependent launch on sm_90+
  // The caller's promise that no work still in flight on the stream writes the weight (true for
  // model weights). With PDL, calls of a few rows then take kernels that read the weight before
  // they wait for the kernel ahead of them, which takes those bytes off a decode call's critical
  // path. Without the promise the weight is read after the wait, like the activations.
  bool static_weight = false;
};

// out[i] = input[i] / RMS(input[i]) * weight. `input` is [rows, hidden] or [batch, heads,
// head_dim] (per-head norm). `out` has the input's shape and dtype and may alias `input`
// exactly; when absent the result is written into `input` (in place).
struct RmsnormArgs {
  TensorView input;
  TensorView weight;
  double eps = 1e-6;
  std::optional<TensorView> out = std::nullopt;  // in place when absent
};
void rmsnorm(const RmsnormArgs& args, const LaunchOptions& opts = {});
// As rmsnorm with weight (1 + w), the offset added in fp32.
void gemma_rmsnorm(const RmsnormArgs& args, const LaunchOptions& opts = {});

// residual <- input + residual (rounded to the dtype); input <- rmsnorm(fp32 sum) * weight.
struct FusedAddRmsnormArgs {
  TensorView input;
  TensorView residual;
  TensorView weight;
  double eps = 1e-6;
};
void fused_add_rmsnorm(const FusedAddRmsnormArgs& args, const LaunchOptions& opts = {});
void gemma_fused_add_rmsnorm(const FusedAddRmsnormArgs& args, const LaunchOptions& opts = {});

}  // namespace normjit

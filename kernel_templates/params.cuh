// Run-time kernel arguments, shared verbatim by the host (C++17) and the device (NVRTC).
// Layout is part of the host/device contract: only fixed-width fields, asserted on the host.
#pragma once

namespace normjit {

typedef long long i64;

// A tensor whose rows are addressed as (row / inner) * stride0 + (row % inner) * stride1
// elements from `ptr`; 2-D tensors use inner = 1 and stride1 = 0. The last dim is contiguous.
struct RowTensor {
  void* ptr;
  i64 stride0;
  i64 stride1;
};

struct NormParams {
  RowTensor input;     // read
  RowTensor out;       // written (may be the input itself)
  RowTensor residual;  // fused-add ops: read and written
  const void* weight;  // [hidden], contiguous
  i64 rows;            // rows to normalize (batch * heads for per-head norms)
  i64 inner;           // rows per outer index (heads); 1 for 2-D
  float eps;
  int flags;           // kFlagEarlyTrigger
  // Per-head rows (row_offset): row / inner == (row * inner_mul) >> inner_shift (64-bit product)
  // for every row < 2^31; the host launches fewer rows than that at a time (launch.hpp:
  // row_division, for_each_launch_part).
  unsigned inner_mul;
  unsigned inner_shift;
};

// Let the next kernel of the stream launch (programmatic dependent launch) as soon as this one
// has started rather than when its blocks finish: the host sets it for grids of at most one
// block per SM, where the waiting dependents take no room from this grid. Safe either way: a
// dependent's griddepcontrol.wait still waits for this grid to complete and flush its writes.
constexpr int kFlagEarlyTrigger = 1;

// KernelConfig::prefetch's bits (Cfg::kPrefetch): which lines a kernel asks of the L2 before its
// PDL wait.
constexpr int kPrefetchWeight = 1;
constexpr int kPrefetchResidual = 2;
constexpr int kPrefetchInput = 4;

// Never set by the host: `flags & kFlagNeverSet` is a zero the compiler cannot fold, for a data
// dependence that costs no arithmetic (rms_norm.cuh: kPinWeight).
constexpr int kFlagNeverSet = 1 << 30;

}  // namespace normjit

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
  int pad_;
};

}  // namespace normjit

// RMSNorm family: rmsnorm (2-D and per-head 3-D), gemma_rmsnorm, fused_add_rmsnorm,
// gemma_fused_add_rmsnorm (spec: rmsnorm.md sections 1-5).
//
// One row is owned by kThreadsPerRow threads; a block holds kRowsPerBlock rows. The row lives
// in registers as fp32 (kItems vectors of kVec elements per thread), so global memory is read
// and written exactly once. Cfg provides:
//   In, Weight                       element types (Weight = In or float)
//   kHidden, kVec, kThreadsPerRow, kRowsPerBlock
//   kResidual (fused add), kGemma (weight offset 1), k3D (per-head rows), kPdl (sm_90+)
#pragma once
#include "reduce.cuh"

namespace normjit {

template <class Cfg>
__device__ __forceinline__ void rms_norm(const NormParams& p) {
  typedef typename Cfg::In T;
  typedef typename Cfg::Weight W;
  constexpr int kVec = Cfg::kVec;
  constexpr int kGroup = Cfg::kThreadsPerRow;
  constexpr int kRows = Cfg::kRowsPerBlock;
  constexpr int kVectors = Cfg::kHidden / kVec;
  constexpr int kItems = (kVectors + kGroup - 1) / kGroup;
  constexpr bool kExact = kVectors % kGroup == 0;  // no lane runs past the row end
  static_assert(Cfg::kHidden % kVec == 0, "hidden must be a multiple of the vector width");

  __shared__ float red[RowReduceSmem<kGroup, kRows>::kFloats];

  const int lane = threadIdx.x % kGroup;
  const i64 row = i64(blockIdx.x) * kRows + threadIdx.x / kGroup;
  const bool active = row < p.rows;

  pdl_wait<Cfg::kPdl>();

  const T* x_row = static_cast<const T*>(p.input.ptr) + row_offset<Cfg::k3D>(p.input, row, p.inner);
  T* y_row = static_cast<T*>(p.out.ptr) + row_offset<Cfg::k3D>(p.out, row, p.inner);

  float v[kItems][kVec];
#pragma unroll
  for (int it = 0; it < kItems; ++it) {
    const int col = (it * kGroup + lane) * kVec;
    if (active && (kExact || col < Cfg::kHidden)) {
      load_stream<T, kVec>(x_row + col, v[it]);
    } else {
#pragma unroll
      for (int j = 0; j < kVec; ++j) v[it][j] = 0.f;
    }
  }

  if constexpr (Cfg::kResidual) {
    // h = fp32(x) + fp32(r); the residual stream keeps cvt_T(h), the norm sees fp32 h.
    T* r_row = static_cast<T*>(p.residual.ptr) + row_offset<Cfg::k3D>(p.residual, row, p.inner);
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      const int col = (it * kGroup + lane) * kVec;
      if (active && (kExact || col < Cfg::kHidden)) {
        float r[kVec];
        load_stream<T, kVec>(r_row + col, r);
#pragma unroll
        for (int j = 0; j < kVec; ++j) v[it][j] = add_rn(v[it][j], r[j]);
        store_vec<T, kVec>(r_row + col, v[it]);
      }
    }
  }

  float ss = 0.f;
#pragma unroll
  for (int it = 0; it < kItems; ++it)
#pragma unroll
    for (int j = 0; j < kVec; ++j) ss = fma_rn(v[it][j], v[it][j], ss);
  ss = row_sum<kGroup, kRows>(ss, red);

  const float ms = div_rn(ss, float(Cfg::kHidden));
  const float rstd = rsqrt_approx(add_rn(ms, p.eps));
  constexpr float kOffset = Cfg::kGemma ? 1.f : 0.f;

  if (active) {
    const W* w = static_cast<const W*>(p.weight);
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      const int col = (it * kGroup + lane) * kVec;
      if (kExact || col < Cfg::kHidden) {
        float wv[kVec];
        load_cached<W, kVec>(w + col, wv);
#pragma unroll
        for (int j = 0; j < kVec; ++j) v[it][j] = mul_rn(mul_rn(v[it][j], rstd), add_rn(wv[j], kOffset));
        store_vec<T, kVec>(y_row + col, v[it]);
      }
    }
  }

  pdl_launch_dependents<Cfg::kPdl>();
}

}  // namespace normjit

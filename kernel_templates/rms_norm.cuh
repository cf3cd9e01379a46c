// RMSNorm family: rmsnorm (2-D and per-head 3-D), gemma_rmsnorm, fused_add_rmsnorm,
// gemma_fused_add_rmsnorm (spec: rmsnorm.md sections 1-5).
//
// One row is owned by kThreadsPerRow threads; a block holds kRowsPerBlock rows (a "group");
// each thread handles kItems vectors of kVec elements. Where the row lives between the
// reduction and the output is Cfg::kResidency:
//   0  registers, with the weight loaded alongside the row so its latency overlaps the row's;
//   1  registers, the weight loaded after the reduction (fewer registers for wide rows);
//   2  not kept: the row is re-read (from L2) after the reduction, for rows too wide for the
//      register file. The fused add then writes the residual in the second pass, after the
//      re-read, so in-place updates stay correct.
// With kPersistent the grid is sized to the GPU and each block walks groups g, g + gridDim.x,
// ...: the next group's row is loaded before the current one is reduced and written, and an
// early-loaded weight is read once per block instead of once per row.
// Activations stay packed in their storage type until used; the fused add normalizes the
// unrounded fp32 sum, as the spec requires. Cfg provides:
//   In, Weight                       element types (Weight = In or float)
//   kHidden, kVec, kThreadsPerRow, kRowsPerBlock, kResidency, kPersistent
//   kResidual (fused add), kGemma (weight offset 1), k3D (per-head rows), kPdl (sm_90+)
#pragma once
#include "reduce.cuh"

namespace normjit {

template <class Cfg>
struct RmsNormRow {
  typedef typename Cfg::In T;
  static constexpr int kVec = Cfg::kVec;
  static constexpr int kGroup = Cfg::kThreadsPerRow;
  static constexpr int kVectors = Cfg::kHidden / kVec;
  static constexpr int kItems = (kVectors + kGroup - 1) / kGroup;
  static constexpr bool kExact = kVectors % kGroup == 0;  // no lane runs past the row end

  // The inputs of one row held in registers, still packed.
  Packed<T, kVec> x[kItems];
  Packed<T, kVec> r[Cfg::kResidual ? kItems : 1];

  static __device__ __forceinline__ int col(int it, int lane) { return (it * kGroup + lane) * kVec; }
  static __device__ __forceinline__ bool in_row(int it, int lane) {
    return kExact || col(it, lane) < Cfg::kHidden;
  }

  __device__ __forceinline__ void load(const T* x_row, const T* r_row, bool active, int lane) {
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      const bool ok = active && in_row(it, lane);
      if (ok) x[it].load_stream(x_row + col(it, lane));
      else x[it].zero();
      if constexpr (Cfg::kResidual) {
        if (ok) r[it].load_stream(r_row + col(it, lane));
        else r[it].zero();
      }
    }
  }

  // fp32 values the norm sees for item `it`: x, or h = x + r (fused add).
  __device__ __forceinline__ void values(int it, float (&v)[kVec]) const {
#pragma unroll
    for (int j = 0; j < kVec; ++j) {
      if constexpr (Cfg::kResidual) v[j] = add_rn(x[it][j], r[it][j]);
      else v[j] = x[it][j];
    }
  }
};

template <class Cfg>
__device__ __forceinline__ void rms_norm(const NormParams& p) {
  typedef typename Cfg::In T;
  typedef typename Cfg::Weight W;
  typedef RmsNormRow<Cfg> Row;
  constexpr int kVec = Cfg::kVec;
  constexpr int kGroup = Cfg::kThreadsPerRow;
  constexpr int kRows = Cfg::kRowsPerBlock;
  constexpr int kItems = Row::kItems;
  constexpr bool kKeep = Cfg::kResidency < 2;  // row held in registers
  constexpr bool kEarlyWeight = Cfg::kResidency == 0;
  constexpr bool kPrefetch = Cfg::kPersistent && kKeep;
  static_assert(Cfg::kHidden % kVec == 0, "hidden must be a multiple of the vector width");

  // Two reduction buffers, alternating between groups, so one barrier per group suffices.
  __shared__ float red[2][RowReduceSmem<kGroup, kRows>::kFloats];

  const int lane = threadIdx.x % kGroup;
  const int sub = threadIdx.x / kGroup;
  const i64 groups = (p.rows + kRows - 1) / kRows;
  const i64 stride = Cfg::kPersistent ? i64(gridDim.x) : groups;
  const W* w = static_cast<const W*>(p.weight);
  auto x_at = [&](i64 row) {
    return static_cast<const T*>(p.input.ptr) + row_offset<Cfg::k3D>(p.input, row, p.inner);
  };
  auto r_at = [&](i64 row) {
    return static_cast<T*>(p.residual.ptr) + row_offset<Cfg::k3D>(p.residual, row, p.inner);
  };

  pdl_wait<Cfg::kPdl>();

  Packed<W, kVec> ws[kEarlyWeight ? kItems : 1];
  if constexpr (kEarlyWeight) {
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      if (Row::in_row(it, lane)) ws[it].load_cached(w + Row::col(it, lane));
      else ws[it].zero();
    }
  }

  Row cur;
  i64 g = blockIdx.x;
  if constexpr (kKeep) {
    const i64 row = g * kRows + sub;
    cur.load(x_at(row), r_at(row), row < p.rows, lane);
  }
  constexpr float kOffset = Cfg::kGemma ? 1.f : 0.f;

  for (int parity = 0; g < groups; g += stride, parity ^= 1) {
    const i64 row = g * kRows + sub;
    const bool active = row < p.rows;
    T* y_row = static_cast<T*>(p.out.ptr) + row_offset<Cfg::k3D>(p.out, row, p.inner);
    T* r_row = r_at(row);

    Row next;
    if constexpr (kPrefetch) {
      const i64 nrow = (g + stride) * kRows + sub;
      next.load(x_at(nrow), r_at(nrow), g + stride < groups && nrow < p.rows, lane);
    }

    float ss = 0.f;
    if constexpr (kKeep) {
#pragma unroll
      for (int it = 0; it < kItems; ++it) {
        float v[kVec];
        cur.values(it, v);
#pragma unroll
        for (int j = 0; j < kVec; ++j) ss = fma_rn(v[j], v[j], ss);
        // The residual stream keeps cvt_T(h); the norm sees the unrounded fp32 h.
        if (Cfg::kResidual && active && Row::in_row(it, lane))
          store_vec<T, kVec>(r_row + Row::col(it, lane), v);
      }
    } else {
      const T* x_row = x_at(row);
#pragma unroll 4
      for (int it = 0; it < kItems; ++it) {
        Row one;  // one item at a time; only x[0] / r[0] are used
        const bool ok = active && Row::in_row(it, lane);
        if (ok) one.x[0].load_stream(x_row + Row::col(it, lane));
        else one.x[0].zero();
        if constexpr (Cfg::kResidual) {
          if (ok) one.r[0].load_stream(r_row + Row::col(it, lane));
          else one.r[0].zero();
        }
        float v[kVec];
        one.values(0, v);
#pragma unroll
        for (int j = 0; j < kVec; ++j) ss = fma_rn(v[j], v[j], ss);
      }
    }
    ss = row_sum<kGroup, kRows>(ss, red[parity]);

    const float ms = div_rn(ss, float(Cfg::kHidden));
    const float rstd = rsqrt_approx(add_rn(ms, p.eps));

    if (active) {
#pragma unroll(kKeep ? kItems : 4)
      for (int it = 0; it < kItems; ++it) {
        if (!Row::in_row(it, lane)) continue;
        const int c = Row::col(it, lane);
        float v[kVec];
        if constexpr (kKeep) {
          cur.values(it, v);
        } else {
          // Second pass: re-read, then write the residual (after this element's last read).
          Row one;
          one.x[0].load_stream(x_at(row) + c);
          if constexpr (Cfg::kResidual) one.r[0].load_stream(r_row + c);
          one.values(0, v);
          if constexpr (Cfg::kResidual) store_vec<T, kVec>(r_row + c, v);
        }
        Packed<W, kVec> wl;
        if constexpr (kEarlyWeight) wl = ws[it];
        else wl.load_cached(w + c);
        float y[kVec];
#pragma unroll
        for (int j = 0; j < kVec; ++j) y[j] = mul_rn(mul_rn(v[j], rstd), add_rn(wl[j], kOffset));
        store_vec<T, kVec>(y_row + c, y);
      }
    }
    if constexpr (kPrefetch) cur = next;
  }

  pdl_launch_dependents<Cfg::kPdl>();
}

}  // namespace normjit

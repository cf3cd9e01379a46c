// The one row reduction every kernel uses. A block holds kRows rows of kGroup threads each
// (kGroup a power of two). The order of additions is fixed, so results are run-to-run
// deterministic; no atomics.
#pragma once
#include "common.cuh"

namespace normjit {

template <int kGroup> __device__ __forceinline__ float warp_group_sum(float v) {
  constexpr int kWidth = kGroup < 32 ? kGroup : 32;
#pragma unroll
  for (int off = kWidth / 2; off > 0; off /= 2) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// Shared memory the reduction needs, in floats.
template <int kGroup, int kRows> struct RowReduceSmem {
  static constexpr int kWarpsPerRow = kGroup > 32 ? kGroup / 32 : 1;
  static constexpr int kFloats = kGroup > 32 ? kRows * kWarpsPerRow : 1;
};

// Sum of `v` over the kGroup threads of the caller's row; every thread of the block must call
// it (it may synchronize the block). `smem` holds RowReduceSmem<kGroup, kRows>::kFloats.
template <int kGroup, int kRows>
__device__ __forceinline__ float row_sum(float v, float* smem) {
  v = warp_group_sum<kGroup>(v);
  if constexpr (kGroup > 32) {
    constexpr int kWarps = RowReduceSmem<kGroup, kRows>::kWarpsPerRow;
    const int warp = threadIdx.x / 32;  // rows are made of whole warps here
    if ((threadIdx.x & 31) == 0) smem[warp] = v;
    __syncthreads();
    const float* mine = smem + (warp / kWarps) * kWarps;
    float s = 0.f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) s += mine[w];
    v = s;
  }
  return v;
}

}  // namespace normjit

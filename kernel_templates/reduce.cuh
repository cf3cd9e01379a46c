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

// ---- thread-block clusters (sm_90+) -------------------------------------------------------
// All threads of all CTAs of the cluster; release/acquire orders shared-memory writes before it
// with distributed-shared-memory reads after it.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// `local` (a shared-memory variable of this CTA) as seen in the CTA of cluster rank `rank`.
__device__ __forceinline__ float load_cluster_shared(const float* local, unsigned rank) {
  unsigned addr, remote;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(addr) : "l"(local));
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(addr), "r"(rank));
  float v;
  asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(remote) : "memory");
  return v;
}

// Sum of each CTA's `v` (the same value in every thread of a CTA) over a cluster of kCluster
// CTAs, added in rank order so every CTA gets the same, run-to-run deterministic total. Every
// thread of every CTA must call it.
template <int kCluster> __device__ __forceinline__ float cluster_sum(float v) {
  if constexpr (kCluster == 1) {
    return v;
  } else {
    __shared__ float partial;
    if (threadIdx.x == 0) partial = v;
    cluster_sync();
    float total = 0.f;
#pragma unroll
    for (int c = 0; c < kCluster; ++c) total += load_cluster_shared(&partial, unsigned(c));
    cluster_sync();  // no CTA exits (releasing `partial`) while another still reads it
    return total;
  }
}

}  // namespace normjit

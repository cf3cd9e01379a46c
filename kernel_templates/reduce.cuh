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
// `after_warp(s)` runs once the warp's shuffles have given it its sum s, before the block's
// exchange.
template <int kGroup, int kRows, class AfterWarp>
__device__ __forceinline__ float row_sum(float v, float* smem, AfterWarp&& after_warp) {
  v = warp_group_sum<kGroup>(v);
  after_warp(v);
  if constexpr (kGroup > 32) {
    constexpr int kWarps = RowReduceSmem<kGroup, kRows>::kWarpsPerRow;
    const int warp = threadIdx.x / 32;  // rows are made of whole warps here
    if ((threadIdx.x & 31) == 0) smem[warp] = v;
    __syncthreads();
    const float* mine = smem + (warp / kWarps) * kWarps;
    if constexpr (kWarps == 32) {
      // A 1024-thread row: each lane reads one warp sum and the warp adds them by shuffles (a
      // butterfly leaves the same bits in every lane). Every thread reading all 32 sums moved
      // 4 KiB per warp from shared memory into registers, 128 KiB per row, through the same
      // pipe as the row's loads: the rmsnorm re-read of 16384 on 1024 threads ran 4.5 % faster
      // without it (H200, fourteenth run, reduce-ab.txt). Fewer warps keep the serial sum: on
      // 512 threads the shuffles saved ptxas two registers, a fourth CTA per SM fit, and the
      // re-read of 16384 ran 2-4 % slower for it.
      v = warp_group_sum<32>(mine[threadIdx.x & 31]);
    } else {
      float s = 0.f;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) s += mine[w];
      v = s;
    }
  }
  return v;
}
template <int kGroup, int kRows> __device__ __forceinline__ float row_sum(float v, float* smem) {
  return row_sum<kGroup, kRows>(v, smem, [](float) {});
}

// ---- thread-block clusters (sm_90+) -------------------------------------------------------
// The CTAs of a cluster share kRows rows (each CTA a column share of every one of them) and
// exchange their partial sums of squares once: each row's leader pushes its value into every
// CTA's slot for that row and its own rank (st.async, counted on the receiver's mbarrier), and
// every thread then waits on its own CTA's barrier. That is one one-way trip through distributed
// shared memory; a pull (publish, cluster barrier, read the others, cluster barrier so that no
// CTA leaves while another still reads it) took two barriers on every CTA's critical path, and a
// patched copy without any exchange ran 4-11 % faster at 1024 rows of 65536-262144 (H200,
// session 11, docs/benchmark-history.md, "Eleventh run"). A block may not exit while its own
// distributed-shared-memory operations are in flight (CUDA programming guide, distributed shared
// memory), and a pusher cannot see its pushes land; every CTA's barrier having completed says they
// have. So each CTA arrives on the cluster barrier once its values are in, and waits on it only as
// it leaves (cluster_finish), after its second pass, by when the others have long arrived.
template <int kCluster, int kRows = 1> struct ClusterSlots {
  float partial[kRows][kCluster];  // partial[r][c]: row r's sum over cluster rank c's share
  u64 bar;                         // completes when all kRows * kCluster values are in
};

__device__ __forceinline__ u32 cluster_rank() {
  u32 r;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// This CTA's shared address `local` as seen in the CTA of cluster rank `rank`.
__device__ __forceinline__ u32 cluster_map(u32 local, u32 rank) {
  u32 remote;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
  return remote;
}

// Every thread of every CTA, at kernel start (it does not depend on a previous kernel): thread 0
// prepares the barrier, and the arrival on the cluster barrier publishes it; cluster_sum waits.
template <int kCluster, int kRows> __device__ __forceinline__ void cluster_prepare(ClusterSlots<kCluster, kRows>& s) {
  if constexpr (kCluster > 1) {
    if (threadIdx.x == 0) {
      mbarrier_init(&s.bar);
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  }
}

// Sum of each CTA's `v` for row `row` of the block (the same value in every thread of that row)
// over the cluster, added in rank order so every CTA gets the same, run-to-run deterministic
// total; `leader`: the one thread of the row that pushes it (lane 0). Every thread of every CTA
// calls it once, after cluster_prepare and before cluster_finish.
template <int kCluster, int kRows>
__device__ __forceinline__ float cluster_sum(float v, ClusterSlots<kCluster, kRows>& s, int row, bool leader) {
  if constexpr (kCluster == 1) {
    return v;
  } else {
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");  // every CTA's barrier is ready
    if constexpr (kRows == 1) row = 0;
    auto push = [&] {
      const u32 slot = smem_addr(&s.partial[row][cluster_rank()]), bar = smem_addr(&s.bar);
#pragma unroll
      for (u32 c = 0; c < u32(kCluster); ++c)
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
                     :: "r"(cluster_map(slot, c)), "r"(__float_as_uint(v)), "r"(cluster_map(bar, c))
                     : "memory");
    };
    // The barrier's one arrival may come before or after the others' pushes land (its count of
    // bytes may go below zero meanwhile); it completes once both are in. One row a block: thread
    // 0 is the leader, and the general form below (leader = lane 0 = threadIdx.x % kGroup == 0)
    // changed the SASS of every default cluster kernel (sm_90a, session 70), so it keeps the
    // form they were timed with.
    if constexpr (kRows == 1) {
      if (threadIdx.x == 0) {
        mbarrier_expect_bytes(&s.bar, u32(4 * kCluster));
        push();
      }
    } else {
      if (threadIdx.x == 0) mbarrier_expect_bytes(&s.bar, u32(4 * kCluster * kRows));
      if (leader) push();
    }
    mbarrier_wait</*kClusterScope=*/true>(&s.bar, 0);
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");  // my values are in
    float total = 0.f;
#pragma unroll
    for (int c = 0; c < kCluster; ++c) total += s.partial[row][c];
    return total;
  }
}

// Every thread of every CTA, last thing before the kernel ends (after cluster_sum): waits until
// every CTA of the cluster has its values, so no push of this CTA is still in flight.
template <int kCluster> __device__ __forceinline__ void cluster_finish() {
  if constexpr (kCluster > 1) asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}

}  // namespace normjit

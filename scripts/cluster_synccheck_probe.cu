// Is compute-sanitizer synccheck's illegal address at 16-CTA clusters (sessions 62-64) the tool's or
// the exchange's? This probe runs, without normjit, three cluster patterns at cluster sizes 8 and
// 16 and 1-200 clusters, and checks each result on the host; run it plain and under synccheck:
//   nvcc -std=c++17 -arch=sm_90a -o /tmp/probe scripts/cluster_synccheck_probe.cu
//   /tmp/probe MODE CLUSTER CLUSTERS    (MODE 0: cluster barrier arrive + wait only; 1: the
//   cooperative-groups cluster.sync(); 2: reduce.cuh's exchange: mbarrier, st.async pushes to every
//   rank, arrive, then wait before exit; 3: as 2, but each CTA's expect_tx before its first cluster
//   arrival, so no push can land before it; 4: as 3 with a release (not relaxed) first arrival)
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s: %s (%d)\n", #x, cudaGetErrorString(e_), int(e_));         \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

__device__ __forceinline__ unsigned smem_u32(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Every CTA writes the sum over its cluster of (rank + 1) to out[blockIdx.x].
template <int kMode>
__global__ void probe(float* out) {
  __shared__ float partial[16];
  __shared__ unsigned long long bar;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), size = cluster.num_blocks();
  const float v = float(rank + 1);
  float total = 0.f;
  if constexpr (kMode == 0 || kMode == 1) {
    if (threadIdx.x == 0) partial[0] = v;
    if constexpr (kMode == 0) {
      asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    } else {
      cluster.sync();
    }
    for (unsigned c = 0; c < size; ++c) total += *cluster.map_shared_rank(&partial[0], c);
    if constexpr (kMode == 0) {
      asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    } else {
      cluster.sync();
    }
  } else {
    constexpr bool kEarlyExpect = kMode >= 3;
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_u32(&bar)) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      if (kEarlyExpect)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_u32(&bar)), "r"(4u * size)
                     : "memory");
    }
    if constexpr (kMode == 4) asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
    else asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    if (threadIdx.x == 0) {
      if (!kEarlyExpect)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_u32(&bar)), "r"(4u * size)
                     : "memory");
      for (unsigned c = 0; c < size; ++c) {
        unsigned slot, rbar;
        asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(slot) : "r"(smem_u32(&partial[rank])), "r"(c));
        asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rbar) : "r"(smem_u32(&bar)), "r"(c));
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
                     :: "r"(slot), "r"(__float_as_uint(v)), "r"(rbar) : "memory");
      }
    }
    unsigned done = 0;
    do {
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
          : "=r"(done) : "r"(smem_u32(&bar)), "r"(0u) : "memory");
    } while (!done);
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    for (unsigned c = 0; c < size; ++c) total += partial[c];
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  }
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

template <int kMode>
static void launch(float* out, int cluster, int clusters) {
  CHECK(cudaFuncSetAttribute(probe<kMode>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(cluster * clusters);
  cfg.blockDim = dim3(32);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int active = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&active, probe<kMode>, &cfg));
  std::printf("mode %d, cluster %d, %d clusters (%d fit at once): ", kMode, cluster, clusters, active);
  CHECK(cudaLaunchKernelEx(&cfg, probe<kMode>, out));
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s MODE(0-4) CLUSTER(2-16) CLUSTERS\n", argv[0]);
    return 2;
  }
  const int mode = std::atoi(argv[1]), cluster = std::atoi(argv[2]), clusters = std::atoi(argv[3]);
  const int n = cluster * clusters;
  float* out = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemset(out, 0xff, n * sizeof(float)));  // NaN: an unwritten result fails the check
  if (mode == 0) launch<0>(out, cluster, clusters);
  else if (mode == 1) launch<1>(out, cluster, clusters);
  else if (mode == 2) launch<2>(out, cluster, clusters);
  else if (mode == 3) launch<3>(out, cluster, clusters);
  else launch<4>(out, cluster, clusters);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> h(n);
  CHECK(cudaMemcpy(h.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  const float want = float(cluster * (cluster + 1) / 2);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != want;
  std::printf("%s (%d of %d wrong)\n", bad ? "FAILED" : "ok", bad, n);
  return bad ? 1 : 0;
}

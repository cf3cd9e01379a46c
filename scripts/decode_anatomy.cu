// Where the time of a decode-size norm goes inside a CUDA graph with PDL (issue 4, target 3).
//
// A stand-alone experiment, not part of the library: each kernel below is one step further from a
// plain copy towards the norm (same rows, threads and vectors per thread as a normjit kernel), all
// launched the way normjit launches decode sizes (PDL, the wait and then the trigger at the top).
// Per launch in a graph of 100 chained launches, median of 30 graph replays (CUDA events).
//
// With arguments, each CUBIN:OP:ROWS:HIDDEN:THREADS[:FUNCTION] (a normjit cache entry's cubin
// without its 64-byte header, or decode_anatomy_late.cu's cubin with a FUNCTION; OP rms or fused)
// is launched the same way, with NormParams: loaded anew and timed in four passes (as a module or
// a library, on shared or freshly allocated buffers), then this file's kernels; with --rounds N
// (specs LABEL=CUBIN:...) each is loaded once and timed beside the minimal norm of its shape,
// interleaved over N rounds. --flush: every replay starts after an L2 flush (as `normjit bench`
// times); --churn, --small-allocs N, --free-small N: device memory allocated (and freed) around
// the loads, to look for the process state that slows normjit's kernels in `bench --latency`.
//   nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o build-tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda
//   build-tmp/decode_anatomy [--flush] [CUBIN:OP:ROWS:HIDDEN:THREADS[:FUNCTION] ...]
//   build-tmp/decode_anatomy --rounds 3 base=CUBIN:rms:128:4096:128 late=build-tmp/late.cubin:rms:128:4096:128:rms4096_t128
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

#include "decode_anatomy.cuh"

#define CK(x)                                                                               \
  do {                                                                                      \
    cudaError_t e_ = (x);                                                                   \
    if (e_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

enum Mode {
  kCopy,        // y = x
  kScale,       // y = x * w (the weight read, no reduction)
  kWarpNorm,    // sum of squares within each warp only (no block barrier), then as the norm
  kNorm,        // the norm: warp shuffles, shared memory, one barrier
  kNormWFirst,  // the norm, the weight loaded before the PDL wait
  kFusedCopy,   // x and r read, r and x written in place, no reduction
  kFused,       // fused add + norm, in place (normjit's fused_add_rmsnorm)
  kFusedOop,    // fused add + norm, r and the output to other buffers (not in place)
  kNormNoTrig,  // the norm, no early trigger (the block's exit triggers)
  kNormWLate,   // the norm, every weight load of a thread issued together after the reduction
  kFusedWLate,  // the fused add (in place), the weight as kNormWLate reads it
  kNormWWarp,   // the norm, every weight load issued together after the warp's shuffles
  kFusedWWarp,  // the fused add (in place), the weight as kNormWWarp reads it
};
const char* kModeName[] = {"copy",      "x*w",        "warp-norm", "norm",         "norm w-first",
                           "fused copy", "fused",      "fused oop", "norm no-trig", "norm w-late",
                           "fused w-late", "norm w-warp", "fused w-warp"};

struct Args {
  const uint4* x;
  const uint4* r;
  const uint4* w;
  uint4* y;
  uint4* r_out;
  // Step J (row_kernel<..., kStamp = true>): each CTA's thread 0 writes kStamps values to
  // stamps[(launch * gridDim.x + CTA) * kStamps] (the Stamp enum below).
  unsigned long long* stamps;
  int launch;
  // Step R (row_kernel<..., kRep = true>): w holds wrep copies of the weight, one after another,
  // and CTA b reads copy b % wrep; each CTA's columns start rot * b vectors into the row (mod the
  // row), so that CTAs ask for the weight's lines in different orders.
  int wrep;
  int rot;
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
// The SM's cycle counter once `v` has arrived: the read is predicated on a test of v. ptxas turns
// the predicate into a select after the read, but keeps the read (CS2R SR_CLOCKLO) behind the
// instruction that consumes v, and a warp issues in order, so the read waits for the load (checked
// in the SASS of every stamped kernel, nvcc 13.0, sm_90a). 0 where v is all ones, which no stamped
// input holds.
__device__ __forceinline__ unsigned long long clock_after(unsigned v) {
  unsigned long long t;
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.u32 p, %1, 0xffffffff;\n mov.u64 %0, 0;\n @p mov.u64 %0, %%clock64;\n}"
      : "=l"(t)
      : "r"(v));
  return t;
}
// Step J's stamps per CTA: %globaltimer (ns, one clock for all SMs, its tick printed by the
// journal) where launches meet, and the SM's own cycle counter (exact within a CTA) for the
// phases of the body: the PDL release, thread 0's last x (and r) item in, the block's sum of
// squares reduced (the reciprocal computed), thread 0's last weight item in, its last store issued.
enum Stamp { kEntryNs, kWaitNs, kEndNs, kWaitClk, kInClk, kReducedClk, kWeightClk, kEndClk, kStamps };

template <int kH, int kT, int kMode, bool kStamp = false, bool kRep = false>
__global__ void __launch_bounds__(kT) row_kernel(Args a) {
  constexpr int kVectors = kH / 8;
  constexpr int kItems = kVectors / kT;
  static_assert(kVectors % kT == 0, "whole items");
  static_assert(!kRep || (kVectors & (kVectors - 1)) == 0, "rotation by a mask");
  constexpr bool kFusedMode =
      kMode == kFusedCopy || kMode == kFused || kMode == kFusedOop || kMode == kFusedWLate || kMode == kFusedWWarp;
  constexpr bool kWLate = kMode == kNormWLate || kMode == kFusedWLate;
  constexpr bool kWWarp = kMode == kNormWWarp || kMode == kFusedWWarp;
  unsigned long long* const stamp =
      kStamp ? a.stamps + (size_t(a.launch) * gridDim.x + blockIdx.x) * kStamps : nullptr;
  if (kStamp && threadIdx.x == 0) stamp[kEntryNs] = global_ns();
  // Item i of this thread is column vector col(i) of the row (and of the weight).
  const unsigned first = kRep ? (threadIdx.x + unsigned(a.rot) * blockIdx.x) % kVectors : threadIdx.x;
  auto col = [&](int i) { return kRep ? (first + unsigned(i * kT)) % kVectors : threadIdx.x + unsigned(i * kT); };
  const uint4* const wrow = kRep && a.wrep > 1 ? a.w + size_t(blockIdx.x % unsigned(a.wrep)) * kVectors : a.w;
  const size_t base = size_t(blockIdx.x) * kVectors;
  uint4 ws[kItems];
  if (kMode == kNormWFirst)
#pragma unroll
    for (int i = 0; i < kItems; ++i) ws[i] = wrow[col(i)];
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (kStamp && threadIdx.x == 0) {
    stamp[kWaitNs] = global_ns();
    stamp[kWaitClk] = clock64();
  }
  if (kMode != kNormNoTrig) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  uint4 xs[kItems], rs[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    xs[i] = a.x[base + col(i)];
    if (kFusedMode) rs[i] = a.r[base + col(i)];
    if (kMode != kCopy && kMode != kFusedCopy && kMode != kNormWFirst && !kWLate && !kWWarp)
      ws[i] = __ldg(wrow + col(i));
  }
  // Thread 0's stamps of the body; the modes without a reduction or a weight repeat the one before.
  unsigned long long in_clk = 0, reduced_clk = 0;
  auto stamp_end = [&](unsigned long long weight_clk) {
    if (kStamp && threadIdx.x == 0) {
      stamp[kEndClk] = clock64();
      stamp[kEndNs] = global_ns();
      stamp[kInClk] = in_clk;
      stamp[kReducedClk] = reduced_clk;
      stamp[kWeightClk] = weight_clk;
    }
  };
  if (kStamp && threadIdx.x == 0) {
    in_clk = clock_after(xs[0].x ^ xs[kItems - 1].w ^ (kFusedMode ? rs[0].x ^ rs[kItems - 1].w : 0u));
    reduced_clk = in_clk;
  }
  if (kMode == kCopy) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) a.y[base + col(i)] = xs[i];
    stamp_end(in_clk);
    return;
  }
  if (kMode == kFusedCopy) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const_cast<uint4*>(a.r)[base + col(i)] = xs[i];
      a.y[base + col(i)] = rs[i];
    }
    stamp_end(in_clk);
    return;
  }
  // Every weight load of the thread once `tie` is known: its sign bit (0 here, which the compiler
  // cannot know) goes into the address; all of them go out before the first output store.
  auto load_weight_after = [&](float tie) {
    const unsigned zero = __float_as_uint(tie) >> 31;
#pragma unroll
    for (int i = 0; i < kItems; ++i) ws[i] = __ldg(wrow + col(i) + zero);
  };
  float h[kItems][8];
  float ss = 0.f;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    unpack(xs[i], h[i]);
    if (kFusedMode) {
      float rf[8];
      unpack(rs[i], rf);
#pragma unroll
      for (int j = 0; j < 8; ++j) h[i][j] += rf[j];
      (kMode == kFusedOop ? a.r_out : const_cast<uint4*>(a.r))[base + col(i)] = pack(h[i]);
    }
#pragma unroll
    for (int j = 0; j < 8; ++j) ss = fmaf(h[i][j], h[i][j], ss);
  }
  float rstd = 1.f;
  if (kMode != kScale) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    if (kWWarp) load_weight_after(ss);  // the warp's sum: the loads wait for the shuffles, not the block
    if (kMode != kWarpNorm && kT > 32) {
      __shared__ float red[kT / 32];
      if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = ss;
      __syncthreads();
      ss = 0.f;
#pragma unroll
      for (int i = 0; i < kT / 32; ++i) ss += red[i];
    }
    rstd = rsqrtf(ss / kH + 1e-6f);
    if (kStamp && threadIdx.x == 0) reduced_clk = clock_after(__float_as_uint(rstd));
  }
  if (kWLate) load_weight_after(rstd);  // every weight load behind the reduction
  unsigned long long weight_clk = 0;
  if (kStamp && threadIdx.x == 0) weight_clk = clock_after(ws[0].x ^ ws[kItems - 1].w);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    float wf[8], y[8];
    unpack(ws[i], wf);
#pragma unroll
    for (int j = 0; j < 8; ++j) y[j] = h[i][j] * rstd * wf[j];
    a.y[base + col(i)] = pack(y);
  }
  stamp_end(weight_clk);
}

__global__ void grid_copy(const uint4* src, uint4* dst, unsigned n) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) dst[i] = src[i];
}

#define CU(x)                                                               \
  do {                                                                      \
    CUresult r_ = (x);                                                      \
    if (r_ != CUDA_SUCCESS) {                                               \
      const char* m_ = "";                                                  \
      cuGetErrorString(r_, &m_);                                            \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, m_);  \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

__global__ void flush_l2(const uint4* p, size_t n, uint4* sink) {
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint4 v = __ldcg(p + i);
    acc.x ^= v.x;
    acc.y ^= v.y;
  }
  if (acc.x == 0x12345678u && acc.y == 0x9abcdef0u) *sink = acc;
}
bool g_flush = false;
bool g_churn = false;
int g_small_allocs = 0;
int g_free_small = 0;
uint4* g_flush_buf = nullptr;
const size_t kFlushBytes = size_t(256) << 20;

// ---- the weight shared by several rows' CTAs --------------------------------------------------
// kN > 1: the kN CTAs of a cluster (one row each) fetch the weight once between them: CTA c
// multicasts part c (cp.async.bulk ... .multicast::cluster) into every CTA's shared memory, so
// L2 serves each weight byte once per cluster instead of once per row. kN == 1: each CTA bulk-
// copies the whole weight into its own shared memory (the same path without the sharing).
// kEarly: the weight's copies are issued before the PDL wait (a static weight).
__device__ __forceinline__ unsigned smem_u32(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
template <int kH, int kT, int kN, int kMode, bool kEarly>
__global__ void __launch_bounds__(kT) mc_kernel(Args a) {
  constexpr int kVectors = kH / 8;
  constexpr int kItems = kVectors / kT;
  constexpr bool kFusedMode = kMode == kFused;
  constexpr unsigned kPart = kH * 2 / kN;  // bytes of the weight each CTA fetches
  static_assert(kPart % 16 == 0, "16-byte parts");
  __shared__ __align__(128) uint4 wsm[kVectors];
  __shared__ __align__(8) unsigned long long bar;
  __shared__ float red[kT / 32 > 0 ? kT / 32 : 1];
  unsigned rank = 0;
  if (kN > 1) asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&bar)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&bar)), "r"(unsigned(kH * 2))
                 : "memory");
  }
  if (kN > 1) {
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  } else {
    __syncthreads();
  }
  auto fetch_weight = [&] {
    if (threadIdx.x == 0) {
      const char* src = reinterpret_cast<const char*>(a.w) + rank * kPart;
      const unsigned dst = smem_u32(reinterpret_cast<char*>(wsm) + rank * kPart);
      if (kN > 1) {
        asm volatile(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
            ::"r"(dst), "l"(src), "r"(kPart), "r"(smem_u32(&bar)), "h"(static_cast<unsigned short>((1u << kN) - 1))
            : "memory");
      } else {
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(dst), "l"(src), "r"(kPart), "r"(smem_u32(&bar)) : "memory");
      }
    }
  };
  if (kEarly) fetch_weight();
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  if (!kEarly) fetch_weight();
  const size_t base = size_t(blockIdx.x) * kVectors + threadIdx.x;
  uint4 xs[kItems], rs[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    xs[i] = a.x[base + i * kT];
    if (kFusedMode) rs[i] = a.r[base + i * kT];
  }
  float h[kItems][8];
  float ss = 0.f;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    unpack(xs[i], h[i]);
    if (kFusedMode) {
      float rf[8];
      unpack(rs[i], rf);
#pragma unroll
      for (int j = 0; j < 8; ++j) h[i][j] += rf[j];
      const_cast<uint4*>(a.r)[base + i * kT] = pack(h[i]);
    }
#pragma unroll
    for (int j = 0; j < 8; ++j) ss = fmaf(h[i][j], h[i][j], ss);
  }
  float rstd = 1.f;
  if (kMode != kScale) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    if (kT > 32) {
      if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = ss;
      __syncthreads();
      ss = 0.f;
#pragma unroll
      for (int i = 0; i < kT / 32; ++i) ss += red[i];
    }
    rstd = rsqrtf(ss / kH + 1e-6f);
  }
  {  // the weight is in once the barrier's phase 0 completes
    unsigned done = 0;
    do {
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(smem_u32(&bar)) : "memory");
    } while (!done);
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    float wf[8], y[8];
    unpack(wsm[threadIdx.x + i * kT], wf);
#pragma unroll
    for (int j = 0; j < 8; ++j) y[j] = h[i][j] * rstd * wf[j];
    a.y[base + i * kT] = pack(y);
  }
  // No CTA leaves while a multicast it issued may still be writing into another.
  if (kN > 1) {
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  }
}

// Two rows per CTA, the same columns of both on each thread: the weight is read once per two rows
// (half the CTAs of one row each).
template <int kH, int kT, int kMode>
__global__ void __launch_bounds__(kT) rows2_kernel(Args a) {
  constexpr int kVectors = kH / 8;
  constexpr int kItems = kVectors / kT;
  constexpr bool kFusedMode = kMode == kFused;
  __shared__ float red[2][kT / 32 > 0 ? kT / 32 : 1];
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  uint4 xs[2][kItems], rs[2][kItems], ws[kItems];
#pragma unroll
  for (int r = 0; r < 2; ++r)
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const size_t at = (size_t(blockIdx.x) * 2 + r) * kVectors + threadIdx.x + i * kT;
      xs[r][i] = a.x[at];
      if (kFusedMode) rs[r][i] = a.r[at];
    }
#pragma unroll
  for (int i = 0; i < kItems; ++i) ws[i] = __ldg(a.w + threadIdx.x + i * kT);
  float h[2][kItems][8];
  float ss[2] = {0.f, 0.f};
#pragma unroll
  for (int r = 0; r < 2; ++r)
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      unpack(xs[r][i], h[r][i]);
      if (kFusedMode) {
        float rf[8];
        unpack(rs[r][i], rf);
#pragma unroll
        for (int j = 0; j < 8; ++j) h[r][i][j] += rf[j];
        const_cast<uint4*>(a.r)[(size_t(blockIdx.x) * 2 + r) * kVectors + threadIdx.x + i * kT] = pack(h[r][i]);
      }
#pragma unroll
      for (int j = 0; j < 8; ++j) ss[r] = fmaf(h[r][i][j], h[r][i][j], ss[r]);
    }
  float rstd[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss[r] += __shfl_xor_sync(0xffffffffu, ss[r], o);
    if (threadIdx.x % 32 == 0) red[r][threadIdx.x / 32] = ss[r];
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float t = 0.f;
#pragma unroll
    for (int i = 0; i < kT / 32; ++i) t += red[r][i];
    rstd[r] = rsqrtf(t / kH + 1e-6f);
  }
#pragma unroll
  for (int r = 0; r < 2; ++r)
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      float wf[8], y[8];
      unpack(ws[i], wf);
#pragma unroll
      for (int j = 0; j < 8; ++j) y[j] = h[r][i][j] * rstd[r] * wf[j];
      a.y[(size_t(blockIdx.x) * 2 + r) * kVectors + threadIdx.x + i * kT] = pack(y);
    }
}

bool g_nograph = false;
// Script steps V, Q, D: the shared-memory carveout preference (percent of the unified L1/shared
// storage given to shared memory; -1 the driver's default) set on every timed kernel before its
// launch; g_carveout_set stays false until a step sets one, so the other modes set nothing.
bool g_carveout_set = false;
int g_carveout = -1;

// `one` launches once; it may take the launch's index in the graph (0-99; the warm-up launch
// before the capture is launch 0 too), as step J's stamped kernels do.
template <class Launch>
float per_launch_us(cudaStream_t s, Launch&& one_launch) {
  auto one = [&](int i) {
    if constexpr (std::is_invocable_v<Launch&, int>) one_launch(i);
    else one_launch();
  };
  one(0);
  CK(cudaStreamSynchronize(s));
  cudaGraph_t g = nullptr;
  cudaGraphExec_t ge = nullptr;
  if (!g_nograph) {
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < 100; ++i) one(i);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
  }
  // Without a graph (g_nograph): the 100 launches enqueued on the stream between the events.
  auto replay = [&] {
    if (g_nograph)
      for (int i = 0; i < 100; ++i) one(i);
    else
      CK(cudaGraphLaunch(ge, s));
  };
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int i = 0; i < 3; ++i) replay();
  std::vector<float> ms;
  for (int i = 0; i < 30; ++i) {
    if (g_flush) flush_l2<<<132 * 8, 256, 0, s>>>(g_flush_buf, kFlushBytes / 16, g_flush_buf);
    CK(cudaEventRecord(e0, s));
    replay();
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    float t;
    CK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  if (!g_nograph) {
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return ms[ms.size() / 2] * 1000.f / 100.f;
}

template <class... KArgs>
void launch_pdl(cudaStream_t s, void (*k)(KArgs...), dim3 grid, dim3 block, KArgs... args) {
  if (g_carveout_set) CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, g_carveout));
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t lc{};
  lc.gridDim = grid;
  lc.blockDim = block;
  lc.stream = s;
  lc.attrs = &attr;
  lc.numAttrs = 1;
  CK(cudaLaunchKernelEx(&lc, k, args...));
}

template <class... KArgs>
void launch_pdl_cluster(cudaStream_t s, void (*k)(KArgs...), dim3 grid, dim3 block, int cluster, KArgs... args) {
  if (g_carveout_set) CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, g_carveout));
  cudaLaunchAttribute attr[2]{};
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  attr[1].id = cudaLaunchAttributeClusterDimension;
  attr[1].val.clusterDim.x = cluster;
  attr[1].val.clusterDim.y = attr[1].val.clusterDim.z = 1;
  cudaLaunchConfig_t lc{};
  lc.gridDim = grid;
  lc.blockDim = block;
  lc.stream = s;
  lc.attrs = attr;
  lc.numAttrs = cluster > 1 ? 2 : 1;
  CK(cudaLaunchKernelEx(&lc, k, args...));
}

struct Bufs {
  uint4 *x, *r, *w, *y, *r2;
};

template <int kH, int kT, int kMode>
float time_mode(cudaStream_t s, const Bufs& b, int rows) {
  const Args a{b.x, b.r, b.w, b.y, b.r2};
  return per_launch_us(s, [&] { launch_pdl(s, row_kernel<kH, kT, kMode>, dim3(rows), dim3(kT), a); });
}

// Step J: where a launch's time goes in the graph, from the stamps of row_kernel<..., true> in
// the last replay per_launch_us times (each after an L2 flush when --flush is on), launches 1-99
// (launch 0 follows the flush). Per launch, from %globaltimer: `wait` the first CTA's PDL wait
// release after the previous launch's last CTA issued its last store (completion, flush and
// release), `body` the last CTA's last store after the first release, `spread` the releases'
// spread over the CTAs, `lead` how long before the first release the first CTA was resident;
// medians over the launches, `step` the mean period of the first releases, and per_launch_us's
// own figure (CUDA events). Then the body's phases in SM cycles (thread 0 of each CTA, medians):
// `in` from the release to its last x item, `reduce` to the block's reciprocal, `weight` further
// until its last weight item (0-ish where it was in before the reduction ended), `store` to its
// last store issued; over every CTA, and over each launch's last CTA to finish. This is the report
// from the stamps (Stamp layout) of `launches` launches of `rows` CTAs each.
void report_journal(const char* label, float us, const std::vector<unsigned long long>& h, int launches, int rows) {
  auto at = [&](int l, int c) { return &h[(size_t(l) * rows + c) * kStamps]; };
  std::vector<double> first_entry(launches), first_wait(launches), last_wait(launches), last_end(launches);
  std::vector<int> last_cta(launches);
  for (int l = 0; l < launches; ++l) {
    unsigned long long e = ~0ull, w0 = ~0ull, w1 = 0, z = 0;
    for (int c = 0; c < rows; ++c) {
      const unsigned long long* t = at(l, c);
      e = std::min(e, t[kEntryNs]);
      w0 = std::min(w0, t[kWaitNs]);
      w1 = std::max(w1, t[kWaitNs]);
      if (t[kEndNs] >= z) z = t[kEndNs], last_cta[l] = c;
    }
    first_entry[l] = double(e), first_wait[l] = double(w0), last_wait[l] = double(w1), last_end[l] = double(z);
  }
  std::vector<double> wait, body, spread, lead;
  for (int l = 1; l < launches; ++l) {
    wait.push_back(first_wait[l] - last_end[l - 1]);
    body.push_back(last_end[l] - first_wait[l]);
    spread.push_back(last_wait[l] - first_wait[l]);
    lead.push_back(first_wait[l] - first_entry[l]);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  // The timer's granularity as seen here (the smallest nonzero gap between distinct stamps): the
  // figures mean little where it approaches them.
  std::vector<unsigned long long> u;
  for (int l = 0; l < launches; ++l)
    for (int c = 0; c < rows; ++c)
      for (int k : {kEntryNs, kWaitNs, kEndNs}) u.push_back(at(l, c)[k]);
  std::sort(u.begin(), u.end());
  unsigned long long tick = ~0ull;
  for (size_t i = 1; i < u.size(); ++i)
    if (u[i] != u[i - 1]) tick = std::min(tick, u[i] - u[i - 1]);
  std::printf("  journal %s %.3f us a launch, step %.3f | wait %.3f body %.3f spread %.3f lead %.3f (medians, us; timer tick %llu ns)\n",
              label, us, (first_wait[launches - 1] - first_wait[1]) / (launches - 2) / 1000.0,
              median(wait) / 1000.0, median(body) / 1000.0, median(spread) / 1000.0, median(lead) / 1000.0, tick);
  // The body's phases in cycles; a stamp of 0 (a clock read whose value test failed) is counted.
  constexpr int kPhases = 5;
  const char* phase_name[kPhases] = {"in", "reduce", "weight", "store", "all"};
  std::vector<double> every[kPhases], last[kPhases];
  double cycles = 0, ns = 0;
  int zeros = 0;
  for (int l = 1; l < launches; ++l)
    for (int c = 0; c < rows; ++c) {
      const unsigned long long* t = at(l, c);
      if (!t[kInClk] || !t[kReducedClk] || !t[kWeightClk]) {
        ++zeros;
        continue;
      }
      const double p[kPhases] = {double(t[kInClk] - t[kWaitClk]), double(t[kReducedClk] - t[kInClk]),
                                 double(t[kWeightClk] - t[kReducedClk]), double(t[kEndClk] - t[kWeightClk]),
                                 double(t[kEndClk] - t[kWaitClk])};
      for (int k = 0; k < kPhases; ++k) {
        every[k].push_back(p[k]);
        if (c == last_cta[l]) last[k].push_back(p[k]);
      }
      cycles += p[kPhases - 1];
      ns += double(t[kEndNs] - t[kWaitNs]);
    }
  std::printf("  %*s phases, cycles (every CTA / each launch's last):", int(std::strlen(label)) + 8, "");
  for (int k = 0; k < kPhases; ++k)
    std::printf(" %s %.0f/%.0f", phase_name[k], every[k].empty() ? 0.0 : median(every[k]),
                last[k].empty() ? 0.0 : median(last[k]));
  std::printf(" | %.2f GHz over the bodies%s\n", ns > 0 ? cycles / ns : 0.0,
              zeros ? (", " + std::to_string(zeros) + " CTAs with a 0 stamp left out").c_str() : "");
  std::fflush(stdout);
}

// kRep: row_kernel's step-R form with one weight copy and no rotation (its column arithmetic
// only), labelled "rep".
template <int kH, int kT, int kMode, bool kRep = false>
void journal(cudaStream_t s, const Bufs& b, int rows) {
  constexpr int kLaunches = 100;  // per_launch_us's graph
  const size_t n = size_t(kLaunches) * rows * kStamps;
  // One buffer for every journal, allocated at the first and never filled by cudaMemset: a new
  // buffer of this size (up to 800 KiB) filled by cudaMemset is what puts the process in the slow
  // state (step G). Every CTA of every launch writes all its stamps, so none is stale.
  static unsigned long long* stamps = nullptr;
  static size_t capacity = 0;
  if (capacity < n) {
    if (stamps) CK(cudaFree(stamps));
    CK(cudaMalloc(&stamps, n * sizeof(unsigned long long)));
    capacity = n;
  }
  Args a{b.x, b.r, b.w, b.y, b.r2, stamps, 0, 1, 0};
  const float us = per_launch_us(s, [&](int i) {
    a.launch = i;
    launch_pdl(s, row_kernel<kH, kT, kMode, true, kRep>, dim3(rows), dim3(kT), a);
  });
  std::vector<unsigned long long> h(n);
  CK(cudaMemcpy(h.data(), stamps, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  char label[64];
  std::snprintf(label, sizeof label, "%4d x %-5d t%-4d %-12s%s", rows, kH, kT, kModeName[kMode], kRep ? " rep" : "");
  report_journal(label, us, h, kLaunches, rows);
}

template <int kH, int kT>
void shape(cudaStream_t s, const Bufs& b, int rows) {
  const unsigned n = unsigned(size_t(rows) * kH / 8);
  const float copy1 = per_launch_us(s, [&] {
    launch_pdl(s, grid_copy, dim3(std::max(1u, std::min((n + 255) / 256, 132u * 8))), dim3(256), (const uint4*)b.x,
               b.y, n);
  });
  const float copy2 = per_launch_us(s, [&] {
    launch_pdl(s, grid_copy, dim3(std::max(1u, std::min((2 * n + 255) / 256, 132u * 8))), dim3(256),
               (const uint4*)b.x, b.y, 2 * n);
  });
  std::printf("%4d x %-5d t%-4d items %d | grid copy %.3f (x2 bytes %.3f) |", rows, kH, kT, kH / 8 / kT, copy1, copy2);
  float t[9] = {time_mode<kH, kT, kCopy>(s, b, rows),     time_mode<kH, kT, kScale>(s, b, rows),
                time_mode<kH, kT, kWarpNorm>(s, b, rows), time_mode<kH, kT, kNorm>(s, b, rows),
                time_mode<kH, kT, kNormWFirst>(s, b, rows), time_mode<kH, kT, kFusedCopy>(s, b, rows),
                time_mode<kH, kT, kFused>(s, b, rows),    time_mode<kH, kT, kFusedOop>(s, b, rows),
                time_mode<kH, kT, kNormNoTrig>(s, b, rows)};
  for (int m = 0; m < 9; ++m) std::printf(" %s %.3f%s", kModeName[m], t[m], m == 8 ? "\n" : ",");
  std::fflush(stdout);
}

// Step W: the weight loaded with the row (kNorm, kFused: ptxas issues it among the row's
// arithmetic and shuffles) against all of it after the warp's shuffles (kNormWWarp, kFusedWWarp)
// and after the whole reduction (kNormWLate, kFusedWLate), alternated twice in one process.
template <int kH, int kT, bool kFusedOp>
void wlate(cudaStream_t s, const Bufs& b, int rows) {
  constexpr int kEarly = kFusedOp ? kFused : kNorm, kLate = kFusedOp ? kFusedWLate : kNormWLate,
                kWarp = kFusedOp ? kFusedWWarp : kNormWWarp;
  std::printf("  W %4d x %-5d t%-4d %-6s", rows, kH, kT, kFusedOp ? "fused" : "norm");
  for (int round = 0; round < 2; ++round)
    std::printf(" | with the row %.3f, after the warp's sum %.3f, after the reduction %.3f",
                time_mode<kH, kT, kEarly>(s, b, rows), time_mode<kH, kT, kWarp>(s, b, rows),
                time_mode<kH, kT, kLate>(s, b, rows));
  std::printf("\n");
  std::fflush(stdout);
}

// Step R: is the weight's cost at 128 rows its bytes, or 128 CTAs asking the same few L2 lines at
// once? Each mode timed with the weight read from wrep copies of it (CTA b reads copy b % wrep; the
// copies lie one after another, so on other lines and, by the address hash, mostly other L2
// slices), and with one copy read in an order rotated per CTA (rot 32: warp w of CTA b reads the
// lines of warp w + b first). `w1` (one copy, no rotation) is the plain kernel with the column
// arithmetic added, the baseline of the other columns; `plain`, first and last, is row_kernel
// without it. Session 70 (H100): the copies moved nothing, and the norm's w1 ran faster than
// plain at 128 x 8192 but slower once stamped (step E), so that gap is ptxas's schedule.
template <int kH, int kT, int kMode>
void rep_sweep(cudaStream_t s, const Bufs& b, int rows) {
  constexpr int kVectors = kH / 8;
  for (int k = 1; k < 128; ++k)
    CK(cudaMemcpyAsync(b.w + size_t(k) * kVectors, b.w, kVectors * sizeof(uint4), cudaMemcpyDeviceToDevice, s));
  CK(cudaStreamSynchronize(s));
  std::printf("  R %4d x %-5d t%-4d %-6s", rows, kH, kT, kModeName[kMode]);
  auto time_rep = [&](int wrep, int rot) {
    Args a{b.x, b.r, b.w, b.y, b.r2, nullptr, 0, wrep, rot};
    return per_launch_us(s, [&] { launch_pdl(s, row_kernel<kH, kT, kMode, false, true>, dim3(rows), dim3(kT), a); });
  };
  std::printf(" plain %.3f |", time_mode<kH, kT, kMode>(s, b, rows));
  for (int wrep : {1, 2, 4, 8, 16, 32, 128}) std::printf(" w%d %.3f", wrep, time_rep(wrep, 0));
  std::printf(" | rot32 %.3f | w8+rot32 %.3f | plain %.3f\n", time_rep(1, 32), time_rep(8, 32),
              time_mode<kH, kT, kMode>(s, b, rows));
  std::fflush(stdout);
}

// The weight fetched once per cluster of kN rows (mc_kernel), and two rows per CTA (rows2_kernel).
template <int kH, int kT, int kN, int kMode, bool kEarly>
float time_mc(cudaStream_t s, const Bufs& b, int rows) {
  const Args a{b.x, b.r, b.w, b.y, b.r2};
  return per_launch_us(
      s, [&] { launch_pdl_cluster(s, mc_kernel<kH, kT, kN, kMode, kEarly>, dim3(rows), dim3(kT), kN, a); });
}
// The multicast kernels' x * w against the per-CTA kernel's, bit for bit (a wrong exchange would
// otherwise time as well as a right one).
template <int kH, int kT, int kN>
void check_mc(cudaStream_t s, const Bufs& b, int rows) {
  const Args a{b.x, b.r, b.w, b.y, b.r2};
  const size_t bytes = size_t(rows) * kH * 2;
  std::vector<char> want(bytes), got(bytes);
  CK(cudaMemsetAsync(b.y, 0, bytes, s));
  launch_pdl(s, row_kernel<kH, kT, kScale>, dim3(rows), dim3(kT), a);
  CK(cudaMemcpyAsync(want.data(), b.y, bytes, cudaMemcpyDeviceToHost, s));
  CK(cudaMemsetAsync(b.y, 0, bytes, s));
  launch_pdl_cluster(s, mc_kernel<kH, kT, kN, kScale, false>, dim3(rows), dim3(kT), kN, a);
  CK(cudaMemcpyAsync(got.data(), b.y, bytes, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  if (want != got) {
    std::printf("MISMATCH: multicast over %d CTAs, %d x %d\n", kN, rows, kH);
    std::exit(3);
  }
}

template <int kH, int kT>
void shared_weight(cudaStream_t s, const Bufs& b, int rows) {
  const Args a{b.x, b.r, b.w, b.y, b.r2};
  check_mc<kH, kT, 1>(s, b, rows);
  check_mc<kH, kT, 2>(s, b, rows);
  check_mc<kH, kT, 4>(s, b, rows);
  check_mc<kH, kT, 8>(s, b, rows);
  std::printf("%4d x %-5d t%-4d | ", rows, kH, kT);
  std::printf("x*w: own L2 %.3f, bulk 1 %.3f, mc2 %.3f, mc4 %.3f, mc8 %.3f | ", time_mode<kH, kT, kScale>(s, b, rows),
              time_mc<kH, kT, 1, kScale, false>(s, b, rows), time_mc<kH, kT, 2, kScale, false>(s, b, rows),
              time_mc<kH, kT, 4, kScale, false>(s, b, rows), time_mc<kH, kT, 8, kScale, false>(s, b, rows));
  std::printf("norm: own %.3f, bulk 1 %.3f, mc2 %.3f, mc4 %.3f, mc8 %.3f, mc4 early %.3f, 2 rows/CTA %.3f | ",
              time_mode<kH, kT, kNorm>(s, b, rows), time_mc<kH, kT, 1, kNorm, false>(s, b, rows),
              time_mc<kH, kT, 2, kNorm, false>(s, b, rows), time_mc<kH, kT, 4, kNorm, false>(s, b, rows),
              time_mc<kH, kT, 8, kNorm, false>(s, b, rows), time_mc<kH, kT, 4, kNorm, true>(s, b, rows),
              per_launch_us(s, [&] { launch_pdl(s, rows2_kernel<kH, kT, kNorm>, dim3(rows / 2), dim3(kT), a); }));
  std::printf("fused: own %.3f, mc2 %.3f, mc4 %.3f, mc8 %.3f, 2 rows/CTA %.3f\n", time_mode<kH, kT, kFused>(s, b, rows),
              time_mc<kH, kT, 2, kFused, false>(s, b, rows), time_mc<kH, kT, 4, kFused, false>(s, b, rows),
              time_mc<kH, kT, 8, kFused, false>(s, b, rows),
              per_launch_us(s, [&] { launch_pdl(s, rows2_kernel<kH, kT, kFused>, dim3(rows / 2), dim3(kT), a); }));
  std::fflush(stdout);
}

static_assert(sizeof(NormParams) == 112, "normjit's cubins take params.cuh's layout");

// Per launch of a kernel taking normjit's NormParams (a normjit cubin, or decode_anatomy_late.cu's)
// as normjit launches decode sizes: PDL, one row per CTA, the early-trigger flag set where the grid
// is one wave of the H200's 132 SMs.
float time_norm(cudaStream_t s, CUfunction fn, const Bufs& b, bool fused, int rows, int hidden, int threads) {
  NormParams p{};
  p.input = {b.x, hidden, 0};
  p.out = {fused ? (void*)b.x : (void*)b.y, hidden, 0};
  p.residual = {b.r, hidden, 0};
  p.weight = b.w;
  p.rows = rows;
  p.inner = 1;
  p.inner_mul = 1u << 31;  // row / 1 as the host's row_division(1) writes it (unused by 2-D rows)
  p.inner_shift = 31;
  p.eps = 1e-6f;
  p.flags = rows <= 132 ? 1 : 0;
  void* args[] = {&p};
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attr.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig lc{};
  lc.gridDimX = rows;
  lc.gridDimY = lc.gridDimZ = 1;
  lc.blockDimX = threads;
  lc.blockDimY = lc.blockDimZ = 1;
  lc.hStream = s;
  lc.attrs = &attr;
  lc.numAttrs = 1;
  if (g_carveout_set) CU(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, g_carveout));
  return per_launch_us(s, [&] { CU(cuLaunchKernelEx(&lc, fn, args, nullptr)); });
}

// Buffers of one call's exact sizes (x, r, y: rows x hidden; w: hidden), allocated for it and
// filled by cudaMemset (bytes 0x3c) when `fill`, as `bench --latency` allocates them.
Bufs alloc_bufs(int rows, int hidden, bool fill) {
  Bufs f{};
  const size_t act = size_t(rows) * hidden * 2;
  CK(cudaMalloc(&f.x, act));
  CK(cudaMalloc(&f.r, act));
  CK(cudaMalloc(&f.w, size_t(hidden) * 2));
  CK(cudaMalloc(&f.y, act));
  if (fill) {
    for (uint4* q : {f.x, f.r, f.y}) CK(cudaMemset(q, 0x3c, act));
    CK(cudaMemset(f.w, 0x3c, size_t(hidden) * 2));
  }
  return f;
}

void free_bufs(const Bufs& f) {
  for (uint4* q : {f.x, f.r, f.w, f.y}) CK(cudaFree(q));
}

// One kernel to time from the command line: [LABEL=]CUBIN:OP:ROWS:HIDDEN:THREADS[:FUNCTION], its
// cubin read into memory.
struct CubinSpec {
  std::string label, path, image, func;
  bool fused = false;
  int rows = 0, hidden = 0, threads = 0;
};

CubinSpec parse_spec(const std::string& spec, bool labelled) {
  const size_t eq = labelled ? spec.find('=') : std::string::npos;
  std::string t = labelled ? spec.substr(eq + 1) : spec;
  for (char& c : t)
    if (c == ':') c = ' ';
  char path[512], op[16], func[64] = "normjit_entry";
  CubinSpec k;
  if ((labelled && eq == std::string::npos) ||
      std::sscanf(t.c_str(), "%511s %15s %d %d %d %63s", path, op, &k.rows, &k.hidden, &k.threads, func) < 5) {
    std::fprintf(stderr, "bad spec %s\n", spec.c_str());
    std::exit(2);
  }
  k.label = labelled ? spec.substr(0, eq) : std::string();
  k.path = path;
  std::ifstream f(path, std::ios::binary);
  k.image.assign((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  k.func = func;
  k.fused = std::strcmp(op, "fused") == 0;
  return k;
}

// A new copy of the spec's kernel: as normjit loads it (cuLibraryLoadData, a CUkernel launched as
// a CUfunction), or as a module.
CUfunction load_kernel(const CubinSpec& k, bool as_library) {
  CUfunction fn;
  if (as_library) {
    CUlibrary l;
    CUkernel kk;
    CU(cuLibraryLoadData(&l, k.image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    CU(cuLibraryGetKernel(&kk, l, k.func.c_str()));
    fn = reinterpret_cast<CUfunction>(kk);
  } else {
    CUmodule m;
    CU(cuModuleLoadData(&m, k.image.data()));
    CU(cuModuleGetFunction(&fn, m, k.func.c_str()));
  }
  return fn;
}

// lib: loaded as normjit loads it (cuLibraryLoadData, a CUkernel launched as a CUfunction);
// fresh: on buffers of the call's exact sizes, allocated for it (as `bench --latency` does).
void normjit_kernel(cudaStream_t s, const Bufs& shared_bufs, const std::string& spec_text, bool lib, bool fresh) {
  const CubinSpec spec = parse_spec(spec_text, false);
  const int rows = spec.rows, hidden = spec.hidden, threads = spec.threads;
  const CUfunction fn = load_kernel(spec, lib);
  const Bufs b = fresh ? alloc_bufs(rows, hidden, true) : shared_bufs;
  const float us = time_norm(s, fn, b, spec.fused, rows, hidden, threads);
  const size_t slash = spec.path.rfind('/');
  const bool entry = spec.func == "normjit_entry";
  std::printf("normjit %-5s %4d x %-5d %4d threads%s%s: %.3f us  (%s%s%s)\n", spec.fused ? "fused" : "rms", rows,
              hidden, threads, lib ? ", cuLibrary" : ", cuModule", fresh ? ", fresh buffers" : ", shared buffers", us,
              spec.path.c_str() + (slash == std::string::npos ? 0 : slash + 1), entry ? "" : " ",
              entry ? "" : spec.func.c_str());
  if (fresh) free_bufs(b);
  std::fflush(stdout);
}

// --rounds N: the normjit cubins (LABEL=CUBIN:OP:ROWS:HIDDEN:THREADS, loaded once each as normjit
// loads them) and this file's norm of the same shape, interleaved over N rounds on the same
// buffers, so that drift and placement fall on all alike.
float minimal_us(cudaStream_t s, const Bufs& b, bool fused, int rows, int hidden, int threads) {
#define NJ_MIN(H, T)                                                                               \
  if (hidden == H && threads == T)                                                                 \
    return fused ? time_mode<H, T, kFused>(s, b, rows) : time_mode<H, T, kNorm>(s, b, rows);
  NJ_MIN(2048, 128) NJ_MIN(2048, 256) NJ_MIN(4096, 128) NJ_MIN(4096, 256) NJ_MIN(8192, 256)
#undef NJ_MIN
  return -1.f;
}

void rounds(cudaStream_t s, const Bufs& b, const std::vector<std::string>& specs, int n) {
  struct K {
    CubinSpec spec;
    CUfunction fn;
  };
  std::vector<K> ks;
  // --small-allocs N: N small buffers allocated (and kept) before the kernels are loaded, as a
  // process that allocates per call (bench --latency) has them.
  // --free-small N: the same, freed again before the kernels are loaded.
  std::vector<void*> smalls;
  for (int i = 0; i < std::max(g_small_allocs, g_free_small); ++i) {
    void* q;
    const size_t bytes = size_t(4096) << (i % 9);
    CK(cudaMalloc(&q, bytes));
    CK(cudaMemset(q, 0x3c, bytes));
    smalls.push_back(q);
  }
  if (g_free_small > 0)
    for (void* q : smalls) CK(cudaFree(q));
  for (const std::string& text : specs) {
    K k{parse_spec(text, true), nullptr};
    k.fn = load_kernel(k.spec, true);
    ks.push_back(std::move(k));
  }
  for (int round = 0; round < n; ++round) {
    // --churn: before each round after the first, allocate and free device memory as a process
    // that runs other work does (bench --latency allocates its buffers per size).
    if (g_churn && round > 0) {
      std::vector<void*> ps;
      for (int i = 0; i < 24; ++i) {
        void* q;
        CK(cudaMalloc(&q, size_t(4096) << (i % 15)));
        ps.push_back(q);
      }
      void* big;
      CK(cudaMalloc(&big, size_t(1) << 30));
      CK(cudaMemset(big, 1, size_t(1) << 30));
      ps.push_back(big);
      for (void* q : ps) CK(cudaFree(q));
      CK(cudaDeviceSynchronize());
      std::printf("(after allocating and freeing 25 buffers, 4 KiB to 1 GiB)\n");
    }
    std::printf("round %d:\n", round);
    for (const K& k : ks) {
      const CubinSpec& c = k.spec;
      const float us = time_norm(s, k.fn, b, c.fused, c.rows, c.hidden, c.threads);
      std::printf("  %-12s %-5s %4d x %-5d t%-4d %.3f us   minimal %.3f us\n", c.label.c_str(), c.fused ? "fused" : "rms",
                  c.rows, c.hidden, c.threads, us, minimal_us(s, b, c.fused, c.rows, c.hidden, c.threads));
      std::fflush(stdout);
    }
  }
}

// --script STEPS (specs LABEL=CUBIN:...): a sequence of steps, one letter each, to find which event
// turns a fast kernel slow (the passes above: the first fast, later ones slow). Steps that use
// only a spec's sizes (F, G, H, K, N, C) need no cubin: a missing CUBIN path (e.g. `none`) will do,
// but without any spec those steps do nothing.
//   L  load one more copy of every spec as a library (cuLibraryLoadData; every copy kept)
//   M  the same as a module (cuModuleLoadData)
//   T  time every loaded copy on the shared buffers
//   U  time the newest copy of every spec on buffers of its exact sizes, allocated for it and
//      freed after (as the passes' fresh buffers and `bench --latency`)
//   F  allocate buffers of every spec's exact sizes, fill and free them (no kernel)
//   N  time this file's minimal norm of every spec's shape
//   C  time a grid-stride copy of every spec's bytes (x to y)
//   G  allocate and fill buffers of every spec's exact sizes, and keep them
//   H  allocate buffers of every spec's exact sizes and free them, unfilled
//   B  allocate, fill and free one 64 MiB buffer
//   S  sleep 200 ms
//   X  run 100 L2 flushes (whether or not --flush is on)
//   K  allocate buffers of every spec's exact sizes and fill them with a kernel of this file, keep them
//   Z, Y, W  cudaMemset 4 KiB, 1 MiB, 8 MiB of a buffer allocated at the start (no new memory)
//   P  time the newest copy of every spec as T does, but launched on the stream, not in a graph
//   A  the anatomy's steps from a copy to the norm (shape()) at 128 x 4096 on 128 threads and
//      128 x 2048 on 256, once per step whatever the specs
//   J  the journal of launches (journal(): release, body and the body's phases) at 128 x 4096 on
//      128 threads (copy, x*w, warp-norm, norm, norm with the weight first) and on 256 (norm, as
//      normjit runs that size), and 128 x 2048 on 256 (norm, norm without the early trigger)
//   E  the journal (as J) of the norm at 128 x 8192 and 128 x 4096 and of the fused add at 128 x 4096,
//      each on 256 threads, plain and in step R's form (one copy, no rotation), twice
//   W  the weight loaded with the row, after the warp's shuffles or after the reduction (wlate())
//   R  the weight read from several copies of it, or in an order rotated per CTA (rep_sweep())
//   V, Q, D  from here on, set the shared-memory carveout preference of every timed kernel to 0
//      (the most L1), 100 (the most shared memory) or -1 (the driver's default) before it runs
void script_mode(cudaStream_t s, const Bufs& b, const std::vector<std::string>& specs, const std::string& steps) {
  struct Spec : CubinSpec {
    std::vector<CUfunction> copies;
  };
  std::vector<Spec> sp;
  for (const std::string& text : specs) sp.push_back(Spec{parse_spec(text, true), {}});
  auto time_fn = [&](const Spec& k, CUfunction fn, const Bufs& bb) {
    return time_norm(s, fn, bb, k.fused, k.rows, k.hidden, k.threads);
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    const char c = steps[i];
    std::printf("step %zu %c:", i, c);
    for (Spec& k : sp) {
      if (c == 'L' || c == 'M') {
        k.copies.push_back(load_kernel(k, c == 'L'));
      } else if (c == 'T') {
        std::printf("  %s", k.label.c_str());
        for (CUfunction fn : k.copies) std::printf(" %.3f", time_fn(k, fn, b));
      } else if (c == 'U' && !k.copies.empty()) {
        const Bufs f = alloc_bufs(k.rows, k.hidden, true);
        std::printf("  %s#%zu fresh %.3f", k.label.c_str(), k.copies.size() - 1, time_fn(k, k.copies.back(), f));
        free_bufs(f);
      } else if (c == 'F' || c == 'H') {
        free_bufs(alloc_bufs(k.rows, k.hidden, c == 'F'));
      } else if (c == 'G') {
        alloc_bufs(k.rows, k.hidden, true);
      } else if (c == 'P' && !k.copies.empty()) {
        g_nograph = true;
        std::printf("  %s#%zu stream %.3f", k.label.c_str(), k.copies.size() - 1, time_fn(k, k.copies.back(), b));
        g_nograph = false;
      } else if (c == 'N') {
        std::printf("  minimal(%s) %.3f", k.label.c_str(), minimal_us(s, b, k.fused, k.rows, k.hidden, k.threads));
      } else if (c == 'C') {
        const unsigned n = unsigned(size_t(k.rows) * k.hidden / 8) * (k.fused ? 2 : 1);
        std::printf("  copy(%s) %.3f", k.label.c_str(), per_launch_us(s, [&] {
                      launch_pdl(s, grid_copy, dim3(std::max(1u, std::min((n + 255) / 256, 132u * 8))), dim3(256),
                                 (const uint4*)b.x, b.y, n);
                    }));
      }
    }
    if (c == 'V' || c == 'Q' || c == 'D') {
      g_carveout_set = true;
      g_carveout = c == 'V' ? 0 : c == 'Q' ? 100 : -1;
      std::printf(" carveout preference %d", g_carveout);
    } else if (c == 'J') {
      std::printf("\n");
      journal<4096, 128, kCopy>(s, b, 128);
      journal<4096, 128, kScale>(s, b, 128);
      journal<4096, 128, kWarpNorm>(s, b, 128);
      journal<4096, 128, kNorm>(s, b, 128);
      journal<4096, 128, kNormWFirst>(s, b, 128);
      journal<4096, 256, kNorm>(s, b, 128);
      journal<2048, 256, kNorm>(s, b, 128);
      journal<2048, 256, kNormNoTrig>(s, b, 128);
    } else if (c == 'E') {
      std::printf("\n");
      for (int round = 0; round < 2; ++round) {
        journal<8192, 256, kNorm>(s, b, 128);
        journal<8192, 256, kNorm, true>(s, b, 128);
        journal<4096, 256, kNorm>(s, b, 128);
        journal<4096, 256, kNorm, true>(s, b, 128);
        journal<4096, 256, kFused>(s, b, 128);
        journal<4096, 256, kFused, true>(s, b, 128);
      }
    } else if (c == 'W') {
      std::printf("\n");
      wlate<2048, 256, false>(s, b, 128);
      wlate<4096, 128, false>(s, b, 128);
      wlate<4096, 256, false>(s, b, 128);
      wlate<8192, 256, false>(s, b, 128);
      wlate<8192, 512, false>(s, b, 128);
      wlate<8192, 256, false>(s, b, 32);
      wlate<2048, 256, true>(s, b, 128);
      wlate<4096, 256, true>(s, b, 128);
      wlate<4096, 512, true>(s, b, 128);
      wlate<8192, 512, true>(s, b, 128);
      wlate<8192, 256, true>(s, b, 32);
    } else if (c == 'R') {
      std::printf("\n");
      rep_sweep<4096, 256, kScale>(s, b, 128);
      rep_sweep<4096, 256, kNorm>(s, b, 128);
      rep_sweep<4096, 128, kNorm>(s, b, 128);
      rep_sweep<8192, 256, kScale>(s, b, 128);
      rep_sweep<8192, 256, kNorm>(s, b, 128);
      rep_sweep<8192, 512, kNorm>(s, b, 128);
      rep_sweep<4096, 256, kFused>(s, b, 128);
      rep_sweep<8192, 256, kFused>(s, b, 32);
    } else if (c == 'A') {
      std::printf("\n");
      shape<4096, 128>(s, b, 128);
      shape<2048, 256>(s, b, 128);
    } else if (c == 'K') {
      for (const Spec& k : sp) {
        const size_t act = size_t(k.rows) * k.hidden * 2;
        for (size_t bytes : {act, act, size_t(k.hidden) * 2, act}) {
          uint4* q;
          CK(cudaMalloc(&q, bytes));
          grid_copy<<<64, 256, 0, s>>>(b.x, q, unsigned(bytes / 16));
        }
      }
      CK(cudaStreamSynchronize(s));
    } else if (c == 'Z' || c == 'Y' || c == 'W') {
      CK(cudaMemset(b.r2, 0x3c, c == 'Z' ? 4096 : c == 'Y' ? size_t(1) << 20 : size_t(8) << 20));
      CK(cudaDeviceSynchronize());
    } else if (c == 'B') {
      void* q;
      CK(cudaMalloc(&q, size_t(64) << 20));
      CK(cudaMemset(q, 1, size_t(64) << 20));
      CK(cudaFree(q));
    } else if (c == 'S') {
      CK(cudaDeviceSynchronize());
      usleep(200000);
    } else if (c == 'X') {
      if (!g_flush_buf) {
        CK(cudaMalloc(&g_flush_buf, kFlushBytes));
        CK(cudaMemset(g_flush_buf, 1, kFlushBytes));
      }
      for (int j = 0; j < 100; ++j) flush_l2<<<132 * 8, 256, 0, s>>>(g_flush_buf, kFlushBytes / 16, g_flush_buf);
      CK(cudaStreamSynchronize(s));
    }
    std::printf("\n");
    std::fflush(stdout);
  }
}

int main(int argc, char** argv) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t bytes = size_t(128) * 16384 * 2 * 2;
  Bufs b;
  for (uint4** p : {&b.x, &b.r, &b.w, &b.y, &b.r2}) {
    CK(cudaMalloc(p, bytes));
    CK(cudaMemset(*p, 0x3c, bytes));
  }
  {  // a weight that differs element to element, so that a misplaced part shows in check_mc
    std::vector<unsigned short> w(bytes / 2);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<unsigned short>(0x3f00 + (i * 2654435761u >> 20) % 256);
    CK(cudaMemcpy(b.w, w.data(), bytes, cudaMemcpyHostToDevice));
  }
  std::vector<std::string> specs;
  int n_rounds = 0;
  std::string steps;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--flush") == 0) g_flush = true;
    else if (std::strcmp(argv[i], "--churn") == 0) g_churn = true;
    else if (std::strcmp(argv[i], "--small-allocs") == 0 && i + 1 < argc) g_small_allocs = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--free-small") == 0 && i + 1 < argc) g_free_small = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) n_rounds = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--script") == 0 && i + 1 < argc) steps = argv[++i];
    else specs.push_back(argv[i]);
  }
  if (g_flush) {
    CK(cudaMalloc(&g_flush_buf, kFlushBytes));
    CK(cudaMemset(g_flush_buf, 1, kFlushBytes));
  }
  std::printf("us per launch, CUDA graph of 100 launches with PDL, median of 30 replays%s; bf16\n",
              g_flush ? ", each after an L2 flush" : "");
  if (!steps.empty()) {
    script_mode(s, b, specs, steps);
    return 0;
  }
  if (n_rounds > 0) {
    rounds(s, b, specs, n_rounds);
    return 0;
  }
  for (int lib = 0; lib < 2; ++lib)
    for (int fresh = 0; fresh < 2; ++fresh)
      for (const std::string& spec : specs) normjit_kernel(s, b, spec, lib, fresh);
  shared_weight<2048, 128>(s, b, 128);
  shared_weight<2048, 256>(s, b, 128);
  shared_weight<4096, 128>(s, b, 128);
  shared_weight<4096, 256>(s, b, 128);
  shared_weight<8192, 256>(s, b, 32);
  shared_weight<8192, 256>(s, b, 128);
  shared_weight<16384, 512>(s, b, 32);
  shared_weight<16384, 512>(s, b, 128);
  shape<2048, 128>(s, b, 128);
  shape<2048, 256>(s, b, 128);
  shape<4096, 128>(s, b, 128);
  shape<4096, 256>(s, b, 128);
  shape<4096, 512>(s, b, 128);
  shape<8192, 256>(s, b, 32);
  shape<8192, 512>(s, b, 32);
  shape<8192, 1024>(s, b, 32);
  shape<4096, 128>(s, b, 32);
  shape<2048, 128>(s, b, 32);
  shape<8192, 256>(s, b, 128);
  return 0;
}

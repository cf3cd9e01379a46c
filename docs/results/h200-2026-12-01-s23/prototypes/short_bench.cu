// Prototype: short rows (head_dim 64-256) on a persistent grid (weights loaded once per thread,
// blocks of rows taken grid-stride, optionally the next block's loads issued before this one's
// stores) against the library's kernels (the real template). bf16. Interleaved samples, L2
// flushed by a read before each.
// nvcc -O3 -std=c++17 -arch=sm_90a -I../../kernel_templates short_bench.cu -o short_bench
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "rms_norm.cuh"

using namespace normjit;

#define CK(x)                                                                                \
  do {                                                                                       \
    cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                 \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

template <int kH, int kT, int kR, int kP>
struct Cfg {
  typedef bf16 In;
  typedef bf16 Weight;
  typedef bf16 Out;
  static constexpr int kHidden = kH;
  static constexpr int kVec = 8;
  static constexpr int kThreadsPerRow = kT;
  static constexpr int kRowsPerBlock = kR;
  static constexpr int kCluster = 1;
  static constexpr int kSplit = 1;
  static constexpr int kResidency = 0;
  static constexpr int kLoads = 0;
  static constexpr int kStores = 0;
  static constexpr bool kResidual = false;
  static constexpr bool kGemma = false;
  static constexpr bool k3D = false;
  static constexpr bool kPdl = true;
  static constexpr bool kWeightFirst = false;
  static constexpr bool kKeepOut = false;
  static constexpr bool kPinWeight = false;
  static constexpr int kRowsPerThread = kP;
  static constexpr int kTrigger = 0;
  static constexpr int kPrefetch = 0;
};

template <class C> __global__ void __launch_bounds__(C::kThreadsPerRow * C::kRowsPerBlock) lib_kern(const NormParams p) {
  rms_norm<C>(p);
}

// Persistent: block b handles row blocks b, b + grid, ...; kPipe: the next row block's loads are
// issued before this one's reduction and stores.
template <class C, bool kPipe>
__global__ void __launch_bounds__(C::kThreadsPerRow * C::kRowsPerBlock) persist_kern(const NormParams p, long long nblk) {
  typedef bf16 T;
  constexpr int kVec = 8, kGroup = C::kThreadsPerRow, kRows = C::kRowsPerBlock, kPer = C::kRowsPerThread;
  constexpr int kItems = C::kHidden / kVec / kGroup;
  static_assert(C::kHidden % (kVec * kGroup) == 0, "exact");
  const int lane = threadIdx.x % kGroup;
  auto col_of = [&](int it) { return (it * kGroup + lane) * kVec; };
  const T* x = static_cast<const T*>(p.input.ptr);
  T* y = static_cast<T*>(p.out.ptr);
  const T* w = static_cast<const T*>(p.weight);
  Packed<T, kVec> ws[kItems];
#pragma unroll
  for (int it = 0; it < kItems; ++it) ws[it].load_cached(w + col_of(it));
  auto first_of = [&](long long blk) { return blk * (kRows * kPer) + threadIdx.x / kGroup; };
  Packed<T, kVec> xs[kPer][kItems];
  auto load = [&](long long blk, Packed<T, kVec>(&dst)[kPer][kItems]) {
#pragma unroll
    for (int r = 0; r < kPer; ++r) {
      const long long row = first_of(blk) + r * kRows;
#pragma unroll
      for (int it = 0; it < kItems; ++it) {
        if (blk < nblk && row < p.rows) dst[r][it].template load_act<0>(x + row * p.input.stride0 + col_of(it));
        else dst[r][it].zero();
      }
    }
  };
  auto finish = [&](long long blk, const Packed<T, kVec>(&src)[kPer][kItems]) {
    float rstd[kPer];
#pragma unroll
    for (int r = 0; r < kPer; ++r) {
      float ss = 0.f;
#pragma unroll
      for (int it = 0; it < kItems; ++it)
#pragma unroll
        for (int j = 0; j < kVec; ++j) ss = fma_rn(float(src[r][it][j]), float(src[r][it][j]), ss);
      ss = warp_group_sum<kGroup>(ss);
      rstd[r] = row_rstd<C>(ss, p.eps);
    }
#pragma unroll
    for (int r = 0; r < kPer; ++r) {
      const long long row = first_of(blk) + r * kRows;
      if (row >= p.rows) continue;
#pragma unroll
      for (int it = 0; it < kItems; ++it) {
        float o[kVec];
        normalize_vec<C>(src[r][it], rstd[r], ws[it], o);
        store_vec<T, kVec>(y + row * p.out.stride0 + col_of(it), o);
      }
    }
  };
  long long blk = blockIdx.x;
  if constexpr (!kPipe) {
    for (; blk < nblk; blk += gridDim.x) {
      load(blk, xs);
      finish(blk, xs);
    }
  } else {
    Packed<T, kVec> xn[kPer][kItems];
    load(blk, xs);
    for (; blk < nblk; blk += 2 * gridDim.x) {
      load(blk + gridDim.x, xn);
      finish(blk, xs);
      if (blk + gridDim.x >= nblk) break;
      load(blk + 2 * gridDim.x, xs);
      finish(blk + gridDim.x, xn);
    }
  }
}

struct Variant {
  std::string name;
  const void* fn;
  int threads;
  long long grid;
  bool persist;
  long long nblk;
};

static float bf2f(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint16_t f2bf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}

__global__ void flush_kernel(const uint4* p, unsigned long long n, uint4* sink) {
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    uint4 v = p[i];
    acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
  }
  if (acc.x == 0x12345678u) sink[0] = acc;
}

static int g_sms;
template <class C> int occupancy(const void* fn) {
  int b = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, fn, C::kThreadsPerRow * C::kRowsPerBlock, 0));
  return b;
}

template <int kH, int kT, int kR, int kP>
void add_variants(std::vector<Variant>& v, long long rows, bool lib_default) {
  typedef Cfg<kH, kT, kR, kP> C;
  const int threads = kT * kR;
  const long long nblk = (rows + kR * kP - 1) / (kR * kP);
  char buf[128];
  snprintf(buf, sizeof buf, "t%d r%d x%d", kT, kR, kP);
  v.push_back({std::string(lib_default ? "lib* " : "lib  ") + buf, (const void*)lib_kern<C>, threads, nblk, false, nblk});
  const int o1 = occupancy<C>((const void*)persist_kern<C, false>);
  const int o2 = occupancy<C>((const void*)persist_kern<C, true>);
  v.push_back({std::string("pers ") + buf + " occ" + std::to_string(o1), (const void*)persist_kern<C, false>, threads,
               std::min<long long>(nblk, (long long)o1 * g_sms), true, nblk});
  v.push_back({std::string("pipe ") + buf + " occ" + std::to_string(o2), (const void*)persist_kern<C, true>, threads,
               std::min<long long>(nblk, (long long)o2 * g_sms), true, nblk});
}

int main(int argc, char** argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 60;
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0));
  struct Shape { long long rows; int hidden; };
  const Shape shapes[] = {{221184, 128}, {262144, 128}, {65536, 128}, {131072, 64}, {32768, 256}, {32768, 64}, {524288, 64}};
  const size_t max_elems = size_t(262144) * 128;
  void *x, *out, *w, *flush, *sink;
  CK(cudaMalloc(&x, max_elems * 2));
  CK(cudaMalloc(&out, max_elems * 2));
  CK(cudaMalloc(&w, 256 * 2));
  const size_t flush_bytes = size_t(256) << 20;
  CK(cudaMalloc(&flush, flush_bytes));
  CK(cudaMemset(flush, 1, flush_bytes));
  CK(cudaMalloc(&sink, 64));
  std::vector<uint16_t> hx(max_elems), hw(256), hout(max_elems);
  srand(4242);
  for (auto& v : hx) v = f2bf((rand() / float(RAND_MAX)) * 4.f - 2.f);
  for (auto& v : hw) v = f2bf((rand() / float(RAND_MAX)) * 2.f - 1.f);
  CK(cudaMemcpy(x, hx.data(), max_elems * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(w, hw.data(), 256 * 2, cudaMemcpyHostToDevice));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto do_flush = [&] { flush_kernel<<<g_sms * 8, 256>>>((const uint4*)flush, flush_bytes / 16, (uint4*)sink); };
  printf("SMs %d, reps %d (interleaved, read flush)\n", g_sms, reps);
  const int only = argc > 2 ? atoi(argv[2]) : 0;
  for (const Shape& s : shapes) {
    if (only && s.hidden != only) continue;
    std::vector<Variant> vs;
    if (s.hidden == 128) {
      add_variants<128, 8, 8, 4>(vs, s.rows, s.rows == 221184);
      add_variants<128, 8, 16, 2>(vs, s.rows, s.rows != 221184);
      add_variants<128, 16, 8, 2>(vs, s.rows, false);
      add_variants<128, 16, 8, 4>(vs, s.rows, false);
    } else if (s.hidden == 64) {
      add_variants<64, 4, 32, 1>(vs, s.rows, true);
      add_variants<64, 4, 32, 2>(vs, s.rows, false);
      add_variants<64, 4, 16, 2>(vs, s.rows, false);
      add_variants<64, 4, 16, 4>(vs, s.rows, false);
      add_variants<64, 4, 32, 4>(vs, s.rows, false);
      add_variants<64, 8, 16, 2>(vs, s.rows, false);
      add_variants<64, 8, 8, 4>(vs, s.rows, false);
    } else {
      add_variants<256, 16, 8, 2>(vs, s.rows, true);
      add_variants<256, 32, 4, 2>(vs, s.rows, false);
      add_variants<256, 16, 8, 4>(vs, s.rows, false);
    }
    const size_t n = size_t(s.rows) * s.hidden;
    NormParams p{};
    p.input = {x, s.hidden, 0};
    p.out = {out, s.hidden, 0};
    p.residual = {nullptr, 0, 0};
    p.weight = w;
    p.rows = s.rows;
    p.inner = 1;
    p.eps = 1e-6f;
    std::vector<std::function<void()>> launches;
    for (Variant& v : vs) {
      launches.push_back([&p, &v] {
        if (v.persist) {
          void* args[] = {&p, &v.nblk};
          CK(cudaLaunchKernel(v.fn, dim3(unsigned(v.grid)), dim3(v.threads), args, 0, 0));
        } else {
          void* args[] = {&p};
          CK(cudaLaunchKernel(v.fn, dim3(unsigned(v.grid)), dim3(v.threads), args, 0, 0));
        }
      });
    }
    // Validate every variant: poisoned output, every element against float64.
    std::vector<double> ref(n);
    for (long long r = 0; r < s.rows; ++r) {
      double ss = 0;
      for (int i = 0; i < s.hidden; ++i) ss += double(bf2f(hx[r * s.hidden + i])) * bf2f(hx[r * s.hidden + i]);
      const double rstd = 1.0 / std::sqrt(ss / s.hidden + 1e-6);
      for (int i = 0; i < s.hidden; ++i) ref[r * s.hidden + i] = bf2f(hx[r * s.hidden + i]) * rstd * bf2f(hw[i]);
    }
    std::vector<std::string> checks;
    for (size_t k = 0; k < vs.size(); ++k) {
      CK(cudaMemset(out, 0xff, n * 2));
      launches[k]();
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(hout.data(), out, n * 2, cudaMemcpyDeviceToHost));
      long long bad = 0;
      for (size_t i = 0; i < n; ++i) {
        const double g = bf2f(hout[i]);
        if (!(std::fabs(g - ref[i]) <= 1e-2 + 1e-2 * std::fabs(ref[i]))) ++bad;
      }
      checks.push_back(bad ? "FAIL(" + std::to_string(bad) + ")" : "ok");
    }
    std::vector<std::vector<float>> us(vs.size() + 1);
    for (int i = 0; i < 80; ++i) do_flush();
    for (int rep = 0; rep < reps + 2; ++rep) {
      for (size_t j = 0; j <= vs.size(); ++j) {
        const size_t k = (j + rep) % (vs.size() + 1);
        do_flush();
        CK(cudaEventRecord(e0));
        if (k == vs.size()) CK(cudaMemcpyAsync(out, x, n * 2, cudaMemcpyDeviceToDevice));
        else launches[k]();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (rep >= 2) us[k].push_back(ms * 1000.f);
      }
    }
    auto med = [](std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    const double base = med(us[0]);
    printf("\n%lld x %d (%.1f MiB moved)\n", s.rows, s.hidden, 2.0 * n * 2 / (1 << 20));
    printf("  %-28s %8.2f us  x%.3f\n", "copy (same bytes)", med(us[vs.size()]), med(us[vs.size()]) / base);
    for (size_t k = 0; k < vs.size(); ++k)
      printf("  %-28s %8.2f us  x%.3f  grid %lld  check %s\n", vs[k].name.c_str(), med(us[k]), med(us[k]) / base,
             vs[k].grid, checks[k].c_str());
    fflush(stdout);
  }
  return 0;
}

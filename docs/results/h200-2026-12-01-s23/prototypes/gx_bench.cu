// Prototype: wide rows split over CTAs that meet through global memory (no cluster launch)
// against the library's cluster kernels, same template otherwise. 1024 rows, bf16.
// nvcc -O3 -std=c++17 -arch=sm_90a -Itpl gx_bench.cu -o gx_bench
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

template <bool kRes, int kH, int kS, int kT, int kLd, int kMinB, int kGxMode>
struct Cfg {
  typedef bf16 In;
  typedef bf16 Weight;
  typedef bf16 Out;
  static constexpr int kHidden = kH;
  static constexpr int kVec = 8;
  static constexpr int kThreadsPerRow = kT;
  static constexpr int kRowsPerBlock = 1;
  static constexpr int kCluster = kS;
  static constexpr int kSplit = 1;
  static constexpr int kResidency = 3;
  static constexpr int kLoads = kLd;
  static constexpr int kStores = 0;
  static constexpr bool kResidual = kRes;
  static constexpr bool kGemma = false;
  static constexpr bool k3D = false;
  static constexpr bool kPdl = true;
  static constexpr bool kWeightFirst = false;
  static constexpr bool kKeepOut = false;
  static constexpr bool kPinWeight = false;
  static constexpr int kRowsPerThread = 1;
  static constexpr int kTrigger = 0;
  static constexpr int kPrefetch = 0;
  static constexpr int kGx = kGxMode;
  static constexpr int kMin = kMinB;
};

template <class C> __global__ void __launch_bounds__(C::kThreadsPerRow, C::kMin) kern(const NormParams p) {
  rms_norm<C>(p);
}

struct Case {
  std::string name;
  bool residual;
  int hidden, ctas, threads, gx;
  size_t smem;
  const void* fn;
};
static std::vector<Case> g_cases;

template <bool kRes, int kH, int kS, int kT, int kLd, int kMinB, int kGx>
void add_case(const char* tag) {
  typedef Cfg<kRes, kH, kS, kT, kLd, kMinB, kGx> C;
  Case c;
  char buf[200];
  snprintf(buf, sizeof buf, "%s %s h%d S%d t%d ld%d b%d %s", tag, kRes ? "fused" : "rms", kH, kS, kT, kLd, kMinB,
           kGx == 0 ? "cluster" : kGx == 1 ? "gx-bid" : "gx-ticket");
  c.name = buf;
  c.residual = kRes;
  c.hidden = kH;
  c.ctas = kS;
  c.threads = kT;
  c.gx = kGx;
  c.smem = size_t(kH / kS) * 2 * (kRes ? 2 : 1);
  c.fn = (const void*)kern<C>;
  g_cases.push_back(c);
}

#define TRIPLE(TAG, RES, H, S, T, LD, B)   \
  add_case<RES, H, S, T, LD, B, 0>(TAG); \
  add_case<RES, H, S, T, LD, B, 1>(TAG); \
  add_case<RES, H, S, T, LD, B, 2>(TAG);
#define GXONLY(TAG, RES, H, S, T, LD, B)   \
  add_case<RES, H, S, T, LD, B, 1>(TAG); \
  add_case<RES, H, S, T, LD, B, 2>(TAG);

static void register_cases() {
  // The library's default kernels at 1024 rows (cluster), then the same without a cluster.
  TRIPLE("lib", false, 65536, 2, 512, 0, 1)
  GXONLY("alt", false, 65536, 4, 256, 0, 1)
  GXONLY("alt", false, 65536, 8, 128, 0, 1)
  TRIPLE("lib", false, 131072, 4, 512, 0, 1)
  GXONLY("alt", false, 131072, 8, 256, 0, 1)
  GXONLY("alt", false, 131072, 16, 128, 0, 8)
  TRIPLE("lib", false, 262144, 16, 128, 0, 8)
  GXONLY("alt", false, 262144, 32, 128, 0, 8)
  TRIPLE("lib", true, 65536, 4, 512, 0, 1)
  GXONLY("alt", true, 65536, 8, 256, 0, 1)
  TRIPLE("lib", true, 131072, 16, 128, 0, 8)
  GXONLY("alt", true, 131072, 32, 128, 0, 8)
  TRIPLE("lib", true, 262144, 16, 128, 1, 8)
  GXONLY("alt", true, 262144, 32, 128, 1, 8)
  GXONLY("alt", true, 262144, 32, 128, 0, 8)
  // rmsnorm / fused 32768 (library: one CTA per row, not here): staged shares over CTAs.
  TRIPLE("alt", false, 32768, 2, 512, 0, 1)
  GXONLY("alt", false, 32768, 4, 256, 0, 1)
  TRIPLE("alt", true, 32768, 2, 512, 0, 1)
  GXONLY("alt", true, 32768, 4, 256, 0, 1)
}

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

int main(int argc, char** argv) {
  const long long rows = 1024;
  const int reps = argc > 1 ? atoi(argv[1]) : 40;
  const char* filter = argc > 2 ? argv[2] : "";
  register_cases();
  const size_t max_elems = size_t(rows) * 262144;
  void *x, *r, *out, *w, *flush;
  CK(cudaMalloc(&x, max_elems * 2));
  CK(cudaMalloc(&r, max_elems * 2));
  CK(cudaMalloc(&out, max_elems * 2));
  CK(cudaMalloc(&w, 262144 * 2));
  const size_t flush_bytes = size_t(256) << 20;
  CK(cudaMalloc(&flush, flush_bytes));
  std::vector<uint16_t> hx(max_elems), hr(max_elems), hw(262144), hout(max_elems), hres(max_elems);
  srand(12345);
  for (auto& v : hx) v = f2bf((rand() / float(RAND_MAX)) * 4.f - 2.f);
  for (auto& v : hr) v = f2bf((rand() / float(RAND_MAX)) * 2.f - 1.f);
  for (auto& v : hw) v = f2bf((rand() / float(RAND_MAX)) * 2.f - 1.f);
  CK(cudaMemcpy(w, hw.data(), 262144 * 2, cudaMemcpyHostToDevice));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  GxWorkspace* ws;
  CK(cudaGetSymbolAddress((void**)&ws, g_gx));
  CK(cudaMemset(ws, 0, sizeof(GxWorkspace)));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

  auto median = [](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  auto time_it = [&](const std::function<void()>& f) {
    std::vector<float> us;
    for (int i = 0; i < reps + 3; ++i) {
      CK(cudaMemsetAsync(flush, i & 0xff, flush_bytes));
      CK(cudaEventRecord(e0));
      f();
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (i >= 3) us.push_back(ms * 1000.f);
    }
    return median(us);
  };
  std::vector<int> hidden_done;
  printf("rows %lld, reps %d, SMs %d\n", rows, reps, sms);
  for (const Case& c : g_cases) {
    if (*filter && c.name.find(filter) == std::string::npos) continue;
    const size_t n = size_t(rows) * c.hidden;
    const size_t moved = n * 2 * (c.residual ? 4 : 2);  // bytes read + written
    // Same-bytes copy once per (op, hidden).
    const int key = c.hidden * 2 + c.residual;
    if (std::find(hidden_done.begin(), hidden_done.end(), key) == hidden_done.end()) {
      hidden_done.push_back(key);
      const float cu = time_it([&] { CK(cudaMemcpyAsync(out, x, moved / 2, cudaMemcpyDeviceToDevice)); });
      printf("%-48s %9.2f us  %7.1f GB/s\n", (std::string("copy ") + (c.residual ? "fused" : "rms") + " h" +
                                               std::to_string(c.hidden)).c_str(),
             cu, moved / (cu * 1e-6) / 1e9);
    }
    CK(cudaFuncSetAttribute(c.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(c.smem)));
    if (c.ctas > 8) CK(cudaFuncSetAttribute(c.fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    NormParams p{};
    p.input = {x, c.hidden, 0};
    p.out = c.residual ? p.input : RowTensor{out, c.hidden, 0};
    p.residual = {r, c.hidden, 0};
    p.weight = w;
    p.rows = rows;
    p.inner = 1;
    p.eps = 1e-6f;
    p.flags = 0;
    cudaLaunchConfig_t lc{};
    lc.gridDim = dim3(unsigned(rows * c.ctas));
    lc.blockDim = dim3(c.threads);
    lc.dynamicSmemBytes = c.smem;
    cudaLaunchAttribute attr[1];
    lc.attrs = attr;
    lc.numAttrs = 0;
    if (c.gx == 0) {
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = c.ctas;
      attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
      lc.numAttrs = 1;
    }
    void* args[] = {&p};
    auto launch = [&] { CK(cudaLaunchKernelExC(&lc, c.fn, args)); };
    // Validate: fresh inputs, poisoned output (NaN), all rows against float64.
    CK(cudaMemcpy(x, hx.data(), n * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(r, hr.data(), n * 2, cudaMemcpyHostToDevice));
    if (!c.residual) CK(cudaMemset(out, 0xff, n * 2));
    launch();
    CK(cudaDeviceSynchronize());
    unsigned timeouts = 0;
    CK(cudaMemcpy(&timeouts, &ws->timeouts, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hout.data(), c.residual ? x : out, n * 2, cudaMemcpyDeviceToHost));
    if (c.residual) CK(cudaMemcpy(hres.data(), r, n * 2, cudaMemcpyDeviceToHost));
    long long bad = 0;
    double worst = 0;
    for (long long row = 0; row < rows; ++row) {
      const uint16_t* xr = hx.data() + row * c.hidden;
      const uint16_t* rr = hr.data() + row * c.hidden;
      double ss = 0;
      std::vector<float> h(c.hidden);
      for (int i = 0; i < c.hidden; ++i) {
        h[i] = c.residual ? bf2f(xr[i]) + bf2f(rr[i]) : bf2f(xr[i]);
        ss += double(h[i]) * h[i];
        if (c.residual && hres[row * c.hidden + i] != f2bf(h[i])) ++bad;
      }
      const double rstd = 1.0 / std::sqrt(ss / c.hidden + 1e-6);
      for (int i = 0; i < c.hidden; ++i) {
        const double ref = h[i] * rstd * bf2f(hw[i]);
        const double got = bf2f(hout[row * c.hidden + i]);
        const double err = std::fabs(got - ref);
        if (!(err <= 1e-2 + 1e-2 * std::fabs(ref))) ++bad;
        worst = std::max(worst, err / (1e-2 + 1e-2 * std::fabs(ref)));
      }
    }
    const float us = time_it(launch);
    CK(cudaMemcpy(&timeouts, &ws->timeouts, 4, cudaMemcpyDeviceToHost));
    printf("%-48s %9.2f us  %7.1f GB/s  check %s (bad %lld, worst %.3f)  timeouts %u\n", c.name.c_str(), us,
           moved / (us * 1e-6) / 1e9, bad ? "FAIL" : "ok", bad, worst, timeouts);
    fflush(stdout);
  }
  return 0;
}

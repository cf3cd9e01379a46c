#include "bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <stdexcept>

#include "cuda_driver.hpp"
#include "normjit/normjit.hpp"
#include "op_registry.hpp"
#include "params.cuh"
#include "runtime.hpp"
#include "support/reference.hpp"

namespace normjit::tools {
namespace {

using detail::check;
using detail::driver;
using Clock = std::chrono::steady_clock;

std::vector<std::string> split(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    std::stringstream ss(a);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) out.push_back(item);
  }
  return out;
}

struct Buffer {
  CUdeviceptr p = 0;
  size_t bytes = 0;
  explicit Buffer(size_t n) : bytes(n) { check(driver().cuMemAlloc(&p, n ? n : 1), "cuMemAlloc"); }
  ~Buffer() { driver().cuMemFree(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* get() const { return reinterpret_cast<void*>(p); }
};

void make_current() {
  CUcontext cur = nullptr;
  check(driver().cuCtxGetCurrent(&cur), "cuCtxGetCurrent");
  CUcontext ctx = detail::Runtime::get().primary_context(0);
  if (cur != ctx) check(driver().cuCtxPushCurrent(ctx), "cuCtxPushCurrent");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * double(v.size())))];
}

// Events around `fn`, one sample each, L2 flushed before each sample.
template <class Fn>
std::vector<double> time_samples(CUstream s, const Buffer& flush, int reps, Fn&& fn) {
  const auto& d = driver();
  std::vector<CUevent> ev(size_t(2 * reps));
  for (CUevent& e : ev) check(d.cuEventCreate(&e, 0), "cuEventCreate");
  for (int i = 0; i < reps; ++i) {
    check(d.cuMemsetD8Async(flush.p, std::uint8_t(i), flush.bytes, s), "L2 flush");
    check(d.cuEventRecord(ev[size_t(2 * i)], s), "cuEventRecord");
    fn(i);
    check(d.cuEventRecord(ev[size_t(2 * i + 1)], s), "cuEventRecord");
  }
  check(d.cuStreamSynchronize(s), "cuStreamSynchronize");
  std::vector<double> us;
  for (int i = 0; i < reps; ++i) {
    float ms = 0;
    check(d.cuEventElapsedTime(&ms, ev[size_t(2 * i)], ev[size_t(2 * i + 1)]), "cuEventElapsedTime");
    us.push_back(double(ms) * 1000.0);
  }
  for (CUevent& e : ev) d.cuEventDestroy(e);
  return us;
}

double copy_bandwidth(CUstream s, const Buffer& flush) {
  const size_t bytes = size_t(1) << 30;
  Buffer a(bytes), b(bytes);
  check(driver().cuMemsetD8(a.p, 1, bytes), "memset");
  const auto us = time_samples(s, flush, 10, [&](int) {
    check(driver().cuMemcpyDtoDAsync(b.p, a.p, bytes, s), "cuMemcpyDtoDAsync");
  });
  return 2.0 * double(bytes) / (median(us) * 1e-6) / 1e9;  // read + write, GB/s
}

}  // namespace

int run_bench(const BenchArgs& a) {
  make_current();
  const auto& d = driver();
  CUstream s = nullptr;
  check(d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  Buffer flush(size_t(256) << 20);
  const double copy_gbs = copy_bandwidth(s, flush);
  fmt::print("device-to-device copy (1 GiB, read+write): {:.0f} GB/s\n", copy_gbs);
  fmt::print("{:<24} {:>6} {:>7} {:>6} {:>9} {:>9} {:>9} {:>8} {:>7}\n", "op", "dtype", "tokens",
             "hidden", "median_us", "p10_us", "p90_us", "GB/s", "%copy");
  std::mt19937_64 rng(std::random_device{}());
  for (const std::string& opn : split(a.ops)) {
    Op op;
    if (!parse_op(opn, &op)) throw std::runtime_error("bench: unknown op " + opn);
    const bool fused = detail::op_info(op).residual;
    for (const std::string& dtn : split(a.dtypes)) {
      DType dt;
      if (!parse_dtype(dtn, &dt)) throw std::runtime_error("bench: unknown dtype " + dtn);
      const std::int64_t es = dtype_size(dt);
      for (const std::string& hs : split(a.hidden)) {
        const std::int64_t H = std::stoll(hs);
        Buffer w(size_t(H * es));
        std::vector<unsigned char> wh(size_t(H * es));
        njtest::fill_random(dt, wh.data(), H, rng, 0.5, 1.0);
        check(d.cuMemcpyHtoD(w.p, wh.data(), wh.size()), "upload");
        for (const std::string& ts : split(a.tokens)) {
          const std::int64_t T = std::stoll(ts);
          const size_t set_bytes = size_t(T * H * es);
          // Rotate over >= 240 MiB of input sets (4x the H200's L2) within a 6 GiB budget.
          const int sets = int(std::clamp<std::int64_t>(
              std::int64_t((size_t(240) << 20) / std::max<size_t>(1, set_bytes * (fused ? 2 : 1))) + 1,
              2, std::min<std::int64_t>(a.reps, std::int64_t((size_t(6) << 30) / (set_bytes * 3 + 1)) + 1)));
          std::vector<std::unique_ptr<Buffer>> xs, rs, ys;
          std::vector<unsigned char> host(set_bytes);
          for (int i = 0; i < sets; ++i) {
            xs.push_back(std::make_unique<Buffer>(set_bytes));
            njtest::fill_random(dt, host.data(), T * H, rng);
            check(d.cuMemcpyHtoD(xs.back()->p, host.data(), set_bytes), "upload");
            if (fused) {
              rs.push_back(std::make_unique<Buffer>(set_bytes));
              check(d.cuMemcpyHtoD(rs.back()->p, host.data(), set_bytes), "upload");
            } else {
              ys.push_back(std::make_unique<Buffer>(set_bytes));
            }
          }
          LaunchOptions o;
          o.stream = reinterpret_cast<Stream>(s);
          o.enable_pdl = a.pdl;
          auto call = [&](int i) {
            const int k = i % sets;
            const TensorView x = make_tensor(xs[size_t(k)]->get(), dt, {T, H});
            const TensorView wv = make_tensor(w.get(), dt, {H});
            if (fused) {
              FusedAddRmsnormArgs f{x, make_tensor(rs[size_t(k)]->get(), dt, {T, H}), wv, 1e-6};
              (op == Op::fused_add_rmsnorm ? fused_add_rmsnorm : gemma_fused_add_rmsnorm)(f, o);
            } else {
              RmsnormArgs r{x, wv, 1e-6, make_tensor(ys[size_t(k)]->get(), dt, {T, H})};
              (op == Op::rmsnorm ? rmsnorm : gemma_rmsnorm)(r, o);
            }
          };
          // Validate set 0 (first and last row) against the float64 reference before timing.
          std::vector<unsigned char> xin(set_bytes), rin(fused ? set_bytes : 0), got(set_bytes);
          check(d.cuMemcpyDtoH(xin.data(), xs[0]->p, set_bytes), "download");
          if (fused) check(d.cuMemcpyDtoH(rin.data(), rs[0]->p, set_bytes), "download");
          call(0);
          check(d.cuStreamSynchronize(s), "sync");
          check(d.cuMemcpyDtoH(got.data(), fused ? xs[0]->p : ys[0]->p, set_bytes), "download");
          if (fused) {  // restore the in-place inputs
            check(d.cuMemcpyHtoD(xs[0]->p, xin.data(), set_bytes), "upload");
            check(d.cuMemcpyHtoD(rs[0]->p, rin.data(), set_bytes), "upload");
          }
          std::vector<double> v(static_cast<size_t>(H)), wd(static_cast<size_t>(H)), y;
          for (std::int64_t j = 0; j < H; ++j) wd[size_t(j)] = njtest::get(dt, wh.data(), j);
          const double off = detail::op_info(op).gemma ? 1.0 : 0.0;
          for (std::int64_t row : {std::int64_t(0), T - 1}) {
            for (std::int64_t j = 0; j < H; ++j) {
              double x = njtest::get(dt, xin.data(), row * H + j);
              if (fused) x = double(float(x) + float(njtest::get(dt, rin.data(), row * H + j)));
              v[size_t(j)] = x;
            }
            njtest::rms_row(v, wd, off, 1e-6, &y);
            for (std::int64_t j = 0; j < H; ++j)
              if (!njtest::within_steps(dt, njtest::get(dt, got.data(), row * H + j), y[size_t(j)]))
                throw std::runtime_error(fmt::format("bench: {} {}x{} output wrong at row {} col {}",
                                                     opn, T, H, row, j));
          }
          for (int i = 0; i < 5; ++i) call(i);
          const auto us = time_samples(s, flush, a.reps, call);
          const double bytes = double(T * H * es) * (fused ? 4 : 2) + double(H * es);
          const double med = median(us);
          const double gbs = bytes / (med * 1e-6) / 1e9;
          fmt::print("{:<24} {:>6} {:>7} {:>6} {:>9.2f} {:>9.2f} {:>9.2f} {:>8.0f} {:>6.1f}%\n", opn,
                     dtn, T, H, med, pct(us, 0.1), pct(us, 0.9), gbs, 100.0 * gbs / copy_gbs);
        }
      }
    }
  }
  d.cuStreamDestroy(s);
  return 0;
}

int run_latency() {
  namespace fs = std::filesystem;
  // A fresh cache so that the first call really compiles.
  char tmpl[] = "/tmp/normjit-latency-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  setenv("NORMJIT_CACHE_DIR", tmpl, 1);
  make_current();  // context creation is not part of any figure below
  const auto& d = driver();
  CUstream s = nullptr;
  check(d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  const std::int64_t T = 1, H = 4096;
  Buffer x(size_t(T * H * 2)), w(size_t(H * 2)), y(size_t(T * H * 2));
  check(d.cuMemsetD8(x.p, 0x3c, x.bytes), "memset");
  check(d.cuMemsetD8(w.p, 0x3c, w.bytes), "memset");
  LaunchOptions o;
  o.stream = reinterpret_cast<Stream>(s);
  const RmsnormArgs args{make_tensor(x.get(), DType::bf16, {T, H}), make_tensor(w.get(), DType::bf16, {H}),
                         1e-6, make_tensor(y.get(), DType::bf16, {T, H})};
  auto timed_call = [&] {
    const auto t0 = Clock::now();
    rmsnorm(args, o);
    check(d.cuStreamSynchronize(s), "sync");
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  const double cold_ms = timed_call();
  reset_memory_cache();
  const double disk_ms = timed_call();
  const double hot_ms = timed_call();

  // Host cost per call, timed over enqueue-only batches (synchronizing between batches so the
  // launch queue never fills and blocks the host).
  auto host_us = [&](auto&& launch) {
    std::vector<double> per;
    for (int b = 0; b < 20; ++b) {
      const auto t0 = Clock::now();
      for (int i = 0; i < 500; ++i) launch();
      per.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / 500);
      check(d.cuStreamSynchronize(s), "sync");
    }
    return median(per);
  };
  const ProblemSpec ps{Op::rmsnorm, DType::bf16, DType::bf16, H, false, 0};
  const detail::KernelConfig cfg = detail::op_info(Op::rmsnorm).choose(ps, 8, detail::Runtime::get().device_arch(0));
  const detail::LoadedKernel& k = detail::Runtime::get().kernel(cfg, s);
  NormParams p{};
  p.input = {x.get(), H, 0};
  p.out = {y.get(), H, 0};
  p.weight = w.get();
  p.rows = T;
  p.inner = 1;
  p.eps = 1e-6f;
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attr.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig lc{};
  lc.gridDimX = unsigned((T + cfg.rows_per_block - 1) / cfg.rows_per_block);
  lc.gridDimY = lc.gridDimZ = 1;
  lc.blockDimX = unsigned(cfg.block_threads());
  lc.blockDimY = lc.blockDimZ = 1;
  lc.hStream = s;
  lc.attrs = &attr;
  lc.numAttrs = 1;
  void* kargs[] = {&p};
  const double raw_us = host_us([&] {
    check(d.cuLaunchKernelEx(&lc, reinterpret_cast<CUfunction>(k.kernel), kargs, nullptr), "launch");
  });
  const double api_us = host_us([&] { rmsnorm(args, o); });

  // Per-launch device time inside a CUDA graph of 100 chained in-place launches with PDL.
  const RmsnormArgs inplace{args.input, args.weight, 1e-6, std::nullopt};
  rmsnorm(inplace, o);
  check(d.cuStreamSynchronize(s), "sync");
  auto graph_us = [&](bool pdl) {
    LaunchOptions go = o;
    go.enable_pdl = pdl;
    CUgraph g = nullptr;
    CUgraphExec ge = nullptr;
    check(d.cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL), "capture");
    for (int i = 0; i < 100; ++i) rmsnorm(inplace, go);
    check(d.cuStreamEndCapture(s, &g), "end capture");
    check(d.cuGraphInstantiate(&ge, g, 0), "instantiate");
    Buffer flush(size_t(64) << 20);
    check(d.cuGraphLaunch(ge, s), "graph launch");
    const auto us = time_samples(s, flush, 30, [&](int) { check(d.cuGraphLaunch(ge, s), "graph launch"); });
    d.cuGraphExecDestroy(ge);
    d.cuGraphDestroy(g);
    return median(us) / 100.0;
  };
  const double g_pdl = graph_us(true), g_nopdl = graph_us(false);
  const RuntimeStats st = runtime_stats();
  fmt::print("rmsnorm bf16 1x4096 on device 0 (cache {}):\n", tmpl);
  fmt::print("  first call, cold cache (NVRTC compile + load + run): {:8.2f} ms\n", cold_ms);
  fmt::print("  first call, warm disk cache (read + load + run):     {:8.2f} ms\n", disk_ms);
  fmt::print("  steady-state call + sync:                              {:8.3f} ms\n", hot_ms);
  fmt::print("  host cost per call: normjit::rmsnorm {:.3f} us, raw cuLaunchKernelEx {:.3f} us, "
             "overhead {:.3f} us\n",
             api_us, raw_us, api_us - raw_us);
  fmt::print("  CUDA graph of 100 launches: {:.3f} us per launch with PDL, {:.3f} us without\n",
             g_pdl, g_nopdl);
  fmt::print("  stats: {} compiles, {} disk hits\n", st.compiles, st.disk_hits);
  d.cuStreamDestroy(s);
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  return 0;
}

}  // namespace normjit::tools

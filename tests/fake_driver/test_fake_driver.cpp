// The launch path against a stand-in driver (fake_libcuda.cpp), on a machine without a GPU:
// kernels are compiled by NVRTC and cached for real, loading and launching are faked and the
// launch is recorded. Checks what cuLaunchKernelEx receives; [.hostcost] times the library's
// own host path per call (the driver's launch costing nothing).
#define CATCH_CONFIG_RUNNER
#include <dlfcn.h>
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <cmath>
#include <algorithm>
#include <thread>
#include <vector>

#include "fake_driver/fake_libcuda.h"
#include "heuristics.hpp"
#include "launch.hpp"
#include "normjit/errors.hpp"
#include "normjit/normjit.h"
#include "normjit/ops.hpp"
#include "op_registry.hpp"
#include "ops_rmsnorm.hpp"
#include "runtime.hpp"
#include "support/fake_addresses.hpp"
#include "support/process.hpp"

using namespace normjit;

namespace {

using njtest::kIn;
using njtest::kOut;
using njtest::kRes;
using njtest::kW;
using njtest::ptr;

struct Fake {
  FakeLastLaunchFn last;
  FakeCountFn launches, libraries, context_queries, smem_optins, last_smem_optin, cluster_optins;
  FakeRecordFn record;
  FakeDigestFn digest;
};

const Fake& fake() {
  static const Fake f = [] {
    void* h = dlopen(FAKE_LIBCUDA_PATH, RTLD_NOW | RTLD_LOCAL);  // the runtime's handle too
    if (!h) FAIL("dlopen " << FAKE_LIBCUDA_PATH << ": " << dlerror());
    Fake r{};
    r.last = reinterpret_cast<FakeLastLaunchFn>(dlsym(h, "fake_cuda_last_launch"));
    r.launches = reinterpret_cast<FakeCountFn>(dlsym(h, "fake_cuda_launches"));
    r.libraries = reinterpret_cast<FakeCountFn>(dlsym(h, "fake_cuda_libraries_loaded"));
    r.context_queries = reinterpret_cast<FakeCountFn>(dlsym(h, "fake_cuda_context_queries"));
    r.record = reinterpret_cast<FakeRecordFn>(dlsym(h, "fake_cuda_record_launches"));
    r.smem_optins = reinterpret_cast<FakeCountFn>(dlsym(h, "fake_cuda_smem_optins"));
    r.last_smem_optin = reinterpret_cast<FakeCountFn>(dlsym(h, "fake_cuda_last_smem_optin"));
    r.cluster_optins = reinterpret_cast<FakeCountFn>(dlsym(h, "fake_cuda_cluster_optins"));
    r.digest = reinterpret_cast<FakeDigestFn>(dlsym(h, "fake_cuda_launch_digest"));
    REQUIRE((r.last && r.launches && r.libraries && r.context_queries && r.record && r.smem_optins &&
             r.last_smem_optin && r.cluster_optins && r.digest));
    return r;
  }();
  return f;
}

static_assert(sizeof(FakeLaunch::params) == sizeof(NormParams), "the fake records every parameter byte");

NormParams params_of(const FakeLaunch& l) {
  NormParams p;
  std::memcpy(&p, l.params, sizeof(p));
  return p;
}

RmsnormArgs rms_args(std::int64_t rows, std::int64_t hidden) {
  RmsnormArgs a;
  a.input = make_tensor(ptr(kIn), DType::bf16, {rows, hidden});
  a.weight = make_tensor(ptr(kW), DType::bf16, {hidden});
  a.eps = 1e-6;
  a.out = make_tensor(ptr(kOut), DType::bf16, {rows, hidden});
  return a;
}

detail::KernelConfig heuristic(Op op, std::int64_t rows, std::int64_t hidden) {
  ProblemSpec ps;
  ps.op = op;
  ps.dtype = ps.weight_dtype = DType::bf16;
  ps.hidden = hidden;
  ps.rows = rows;
  return detail::choose_config(ps, 8, detail::Runtime::get().device_arch(0));  // sm_90, 132 SMs
}

}  // namespace

TEST_CASE("a call hands cuLaunchKernelEx the heuristic's grid and block, PDL and the parameters", "[launch]") {
  for (std::int64_t rows : {1, 7, 300}) {
    INFO("rows " << rows);
    const long before = fake().launches();
    rmsnorm(rms_args(rows, 4096));
    REQUIRE(fake().launches() == before + 1);
    const detail::KernelConfig c = heuristic(Op::rmsnorm, rows, 4096);
    const FakeLaunch l = fake().last();
    CHECK(l.grid_x == unsigned((rows + c.rows_per_block - 1) / c.rows_per_block * c.cluster));
    CHECK(l.block_x == unsigned(c.block_threads()));
    CHECK(l.pdl == 1);  // sm_90, PDL on by default
    CHECK(l.cluster_x == (c.cluster > 1 ? unsigned(c.cluster) : 0u));
    CHECK(l.shared_bytes == 0);
    const NormParams p = params_of(l);
    CHECK(p.input.ptr == ptr(kIn));
    CHECK(p.out.ptr == ptr(kOut));
    CHECK(p.weight == ptr(kW));
    CHECK(p.input.stride0 == 4096);
    CHECK(p.rows == rows);
    CHECK(p.inner == 1);
    CHECK(p.eps == 1e-6f);
    // One wave (<= 132 SMs) lets dependents launch at once; more blocks do not.
    CHECK(bool(p.flags & kFlagEarlyTrigger) == (l.grid_x <= 132));
  }
}

TEST_CASE("the device's SM count reaches the heuristics: one wave of re-read rows at 2-4 rows an SM", "[launch]") {
  const SystemInfo info = system_info();  // what `normjit info` prints
  REQUIRE(info.gpus.size() >= 1);
  CHECK(info.gpus[0].sms == 132);
  CHECK(info.gpus[0].target == "sm_90a");
  const detail::Arch a = detail::Runtime::get().device_arch(0);
  CHECK(a.cc == 90);
  CHECK(a.sms == 132);  // the stand-in's MULTIPROCESSOR_COUNT
  for (std::int64_t rows : {264, 265, 528, 529}) {
    INFO("rows " << rows);
    const detail::KernelConfig c = heuristic(Op::rmsnorm, rows, 16384);
    const bool window = rows > 264 && rows <= 528;
    CHECK((c.residency == 2 && c.min_blocks == 4) == window);
    CHECK(c.arch.sms == 0);  // the kernel and its cache key do not depend on it
    rmsnorm(rms_args(rows, 16384));
    const FakeLaunch l = fake().last();
    CHECK(l.grid_x == unsigned(rows));
    CHECK(l.block_x == 512u);
  }
}

TEST_CASE("wide rows staged in shared memory: the kernel opts in once, each launch asks for its shares", "[launch]") {
  const detail::KernelConfig c = heuristic(Op::rmsnorm, 1024, 131072);
  REQUIRE(c.residency == 3);
  const std::int64_t smem = detail::staged_smem_bytes(c);
  REQUIRE(smem > 48 * 1024);  // above the default: needs the opt-in
  const long optins = fake().smem_optins();
  for (int i = 0; i < 3; ++i) {
    rmsnorm(rms_args(1024, 131072));
    const FakeLaunch l = fake().last();
    CHECK(l.shared_bytes == unsigned(smem));
    CHECK(l.cluster_x == unsigned(c.cluster));
    CHECK(l.grid_x == unsigned(1024 * c.cluster));
    CHECK(l.block_x == 512u);
  }
  CHECK(fake().smem_optins() == optins + 1);  // when the kernel was loaded, for the one device
  CHECK(fake().last_smem_optin() == smem);
  // Kernels without staged rows take no dynamic shared memory and no opt-in.
  rmsnorm(rms_args(1024, 4096));
  CHECK(fake().last().shared_bytes == 0);
  CHECK(fake().smem_optins() == optins + 1);
}

TEST_CASE("staged shares of 48 KiB opt in too: the default bounds static and dynamic shared memory together",
          "[launch]") {
  // The fused add's bf16 rows of 196608 on 16 CTAs: shares of 12288 elements of x and r, 48 KiB
  // exactly, to which the kernel's static shared memory adds. Without the opt-in the launch
  // failed (CUDA_ERROR_INVALID_VALUE on the H200, session 26).
  const detail::KernelConfig c = heuristic(Op::fused_add_rmsnorm, detail::kBulkRowsWide, 196608);
  REQUIRE(c.residency == 3);
  const std::int64_t smem = detail::staged_smem_bytes(c);
  REQUIRE(smem == 48 * 1024);
  const long optins = fake().smem_optins();
  FusedAddRmsnormArgs a;
  a.input = make_tensor(ptr(kIn), DType::bf16, {detail::kBulkRowsWide, 196608});
  a.residual = make_tensor(ptr(kRes), DType::bf16, {detail::kBulkRowsWide, 196608});
  a.weight = make_tensor(ptr(kW), DType::bf16, {196608});
  a.eps = 1e-6;
  fused_add_rmsnorm(a);
  CHECK(fake().last().shared_bytes == unsigned(smem));
  CHECK(fake().smem_optins() == optins + 1);
  CHECK(fake().last_smem_optin() == smem);
}

TEST_CASE("the widest staged rows launch 16-CTA clusters, opted in once at load", "[launch]") {
  // rmsnorm 262144 from kBulkRowsWide rows: 16 CTAs of 128 threads on sm_90 (heuristics.cpp,
  // kWideReadVectors), a non-portable cluster size; 131072 stays on 4 portable CTAs.
  const detail::KernelConfig c = heuristic(Op::rmsnorm, detail::kBulkRowsWide, 262144);
  REQUIRE(c.cluster == detail::kMaxClusterNonPortable);
  const long optins = fake().cluster_optins();
  for (int i = 0; i < 2; ++i) {
    rmsnorm(rms_args(detail::kBulkRowsWide, 262144));
    const FakeLaunch l = fake().last();
    CHECK(l.cluster_x == 16u);
    CHECK(l.grid_x == unsigned(detail::kBulkRowsWide * 16));
    CHECK(l.block_x == 128u);
    CHECK(l.shared_bytes == unsigned(detail::staged_smem_bytes(c)));
  }
  CHECK(fake().cluster_optins() == optins + 1);  // when the kernel was loaded, for the one device
  rmsnorm(rms_args(detail::kBulkRowsWide, 131072));
  CHECK(fake().last().cluster_x == 4u);
  CHECK(fake().cluster_optins() == optins + 1);
}

TEST_CASE("without PDL there is neither the attribute nor the early trigger", "[launch]") {
  LaunchOptions o;
  o.enable_pdl = false;
  o.stream = reinterpret_cast<Stream>(0x5000);
  rmsnorm(rms_args(3, 2048), o);
  const FakeLaunch l = fake().last();
  CHECK(l.pdl == 0);
  CHECK((params_of(l).flags & kFlagEarlyTrigger) == 0);
  CHECK(l.stream == reinterpret_cast<CUstream>(0x5000));
}

TEST_CASE("static_weight takes the weight-first kernel for a few rows with PDL, the usual one otherwise", "[launch]") {
  auto kernel_of = [](std::int64_t rows, bool static_weight, std::optional<bool> pdl, std::int64_t hidden = 4096) {
    LaunchOptions o;
    o.static_weight = static_weight;
    o.enable_pdl = pdl;
    rmsnorm(rms_args(rows, hidden), o);
    return fake().last().kernel;
  };
  const CUfunction plain = kernel_of(1, false, std::nullopt);
  const CUfunction early = kernel_of(1, true, std::nullopt);
  CHECK(early != plain);                                       // a kernel of its own (-wf)
  CHECK(kernel_of(1, true, true) == early);
  CHECK(kernel_of(1, true, false) == plain);                   // no PDL: nothing to load ahead of
  // More rows: weight first up to kPinWeightRows for rows of up to 512 vectors (hidden 4096),
  // unchanged for wider rows and from kPinWeightRows.
  CHECK(kernel_of(detail::kFewRowsMax + 1, true, std::nullopt) !=
        kernel_of(detail::kFewRowsMax + 1, false, std::nullopt));
  CHECK(kernel_of(detail::kPinWeightRows - 1, true, std::nullopt) !=
        kernel_of(detail::kPinWeightRows - 1, false, std::nullopt));
  CHECK(kernel_of(detail::kFewRowsMax + 1, true, std::nullopt, 8192) ==
        kernel_of(detail::kFewRowsMax + 1, false, std::nullopt, 8192));
  CHECK(kernel_of(detail::kPinWeightRows, true, std::nullopt) ==
        kernel_of(detail::kPinWeightRows, false, std::nullopt));
  // The C ABI spells the promise enable_pdl = NORMJIT_PDL_STATIC_WEIGHT and rejects other codes.
  const normjit_tensor x = {ptr(kIn), NORMJIT_BF16, 2, {1, 4096}, {4096, 1}, 0};
  const normjit_tensor w = {ptr(kW), NORMJIT_BF16, 1, {4096}, {1}, 0};
  const normjit_tensor y = {ptr(kOut), NORMJIT_BF16, 2, {1, 4096}, {4096, 1}, 0};
  CHECK(normjit_rmsnorm(&x, &w, 1e-6, &y, nullptr, NORMJIT_PDL_STATIC_WEIGHT) == NORMJIT_SUCCESS);
  CHECK(fake().last().kernel == early);
  CHECK(normjit_rmsnorm(&x, &w, 1e-6, &y, nullptr, 1) == NORMJIT_SUCCESS);
  CHECK(fake().last().kernel == plain);
  const long before = fake().launches();
  CHECK(normjit_rmsnorm(&x, &w, 1e-6, &y, nullptr, 3) == NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(normjit_last_error(), Catch::Contains("enable_pdl") && Catch::Contains("got 3"));
  CHECK(fake().launches() == before);
}

TEST_CASE("wide rows launch thread-block clusters with the cluster attribute", "[launch]") {
  // Few rows: the row split over a cluster; many rows: the wide-row layout of choose_rms_norm.
  for (std::int64_t rows : {std::int64_t(1), detail::kBulkRowsWide}) {
    INFO("rows " << rows);
    rmsnorm(rms_args(rows, 65536));
    const detail::KernelConfig c = heuristic(Op::rmsnorm, rows, 65536);
    REQUIRE(c.cluster > 1);
    const FakeLaunch l = fake().last();
    CHECK(l.cluster_x == unsigned(c.cluster));
    CHECK(l.grid_x == unsigned(rows * c.cluster));
    CHECK(l.block_x == unsigned(c.block_threads()));
  }
}

TEST_CASE("the fused add passes its residual, and a repeated call reuses the loaded kernel", "[launch]") {
  FusedAddRmsnormArgs a;
  a.input = make_tensor(ptr(kIn), DType::bf16, {64, 8192});
  a.residual = make_tensor(ptr(kRes), DType::bf16, {64, 8192});
  a.weight = make_tensor(ptr(kW), DType::bf16, {8192});
  a.eps = 1e-5;
  fused_add_rmsnorm(a);
  const long libraries = fake().libraries();
  const long queries = fake().context_queries();
  fused_add_rmsnorm(a);
  CHECK(fake().libraries() == libraries);          // from the memory cache
  CHECK(fake().context_queries() == queries + 1);  // the one driver call besides the launch
  const NormParams p = params_of(fake().last());
  CHECK(p.residual.ptr == ptr(kRes));
  CHECK(p.out.ptr == ptr(kIn));  // in place
  CHECK(p.eps == 1e-5f);
}

TEST_CASE("reset_memory_cache retires every thread's recent kernels", "[launch]") {
  const RmsnormArgs a = rms_args(2, 3072);
  rmsnorm(a);
  const long loaded = fake().libraries();
  rmsnorm(a);  // from this thread's recent kernels
  CHECK(fake().libraries() == loaded);
  reset_memory_cache();
  rmsnorm(a);  // must load again (from disk), not use the unloaded kernel
  CHECK(fake().libraries() == loaded + 1);
  // Another thread sees the reset too.
  std::thread([&] { rmsnorm(a); }).join();
  reset_memory_cache();
  std::thread([&] {
    const long before = fake().libraries();
    rmsnorm(a);
    CHECK(fake().libraries() == before + 1);
  }).join();
}

TEST_CASE("bad arguments launch nothing", "[launch]") {
  RmsnormArgs a = rms_args(4, 4096);
  a.weight = make_tensor(ptr(kW), DType::bf16, {2048});
  const long before = fake().launches();
  CHECK_THROWS_AS(rmsnorm(a), ValidationError);
  CHECK(fake().launches() == before);
}

// Serving engines call from several threads (a stream or a GPU each). Threads that ask for the
// same new kernels at once load each of them once (one compile or disk read), and every call
// launches its own arguments on its own problem's config, while the threads' recent-kernel
// memories and choose_config's memory of problems fill and turn over. Under ThreadSanitizer
// (scripts/sanitize.sh thread) this is the race test of the whole call path.
TEST_CASE("threads calling ops at once: each new kernel loaded once, every call launched as its own", "[launch][threads]") {
  constexpr int kThreads = 8, kCalls = 400;
  // A thread's tensors: its own rows, 64 MiB apart from the other threads'.
  auto at = [](std::uintptr_t base, int thread) { return ptr(base + std::uintptr_t(thread) * (64u << 20)); };
  struct Call {
    bool fused;
    RmsnormArgs rms;
    FusedAddRmsnormArgs add;
  };
  auto calls_of = [&](int t) {
    std::vector<Call> v(5);
    auto rms = [&](Call& c, std::initializer_list<std::int64_t> shape) {
      const std::int64_t hidden = *(shape.end() - 1);
      c.rms.input = make_tensor(at(kIn, t), DType::bf16, shape);
      c.rms.out = make_tensor(at(kOut, t), DType::bf16, shape);
      c.rms.weight = make_tensor(ptr(kW), DType::bf16, {hidden});
    };
    rms(v[0], {3, 1536});
    rms(v[1], {40, 2560});
    rms(v[2], {4, 12, 64});  // per head
    rms(v[3], {700, 1536});  // the same width at more rows: another kernel
    v[4].fused = true;
    v[4].add.input = make_tensor(at(kIn, t), DType::bf16, {2, 3584});
    v[4].add.residual = make_tensor(at(kRes, t), DType::bf16, {2, 3584});
    v[4].add.weight = make_tensor(ptr(kW), DType::bf16, {3584});
    return v;
  };
  // What each call should launch, and how many distinct kernels that is.
  std::uint64_t expected = 0;
  std::vector<detail::KernelConfig> distinct;
  for (int t = 0; t < kThreads; ++t) {
    const std::vector<Call> calls = calls_of(t);
    for (int i = 0; i < kCalls; ++i) {
      const Call& c = calls[std::size_t((t + i) % int(calls.size()))];
      const detail::PreparedCall pc = c.fused ? detail::prepare_fused_add(Op::fused_add_rmsnorm, c.add, {})
                                              : detail::prepare_rmsnorm(Op::rmsnorm, c.rms, {});
      expected += fake_launch_digest(pc.p.input.ptr, pc.p.out.ptr, pc.p.rows, unsigned(pc.config.block_threads()));
      if (std::find(distinct.begin(), distinct.end(), pc.config) == distinct.end()) distinct.push_back(pc.config);
    }
  }
  REQUIRE(distinct.size() == 5);
  reset_memory_cache();  // every kernel loads once below, whatever earlier tests loaded
  const RuntimeStats before = runtime_stats();
  const long libraries = fake().libraries(), launches = fake().launches();
  const std::uint64_t digest = fake().digest();
  std::atomic<int> waiting{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::vector<Call> calls = calls_of(t);
      waiting.fetch_sub(1);
      while (waiting.load() > 0) std::this_thread::yield();  // start together: first calls race
      for (int i = 0; i < kCalls; ++i) {
        const Call& c = calls[std::size_t((t + i) % int(calls.size()))];
        if (c.fused)
          fused_add_rmsnorm(c.add);
        else
          rmsnorm(c.rms);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  const RuntimeStats after = runtime_stats();
  CHECK(fake().libraries() - libraries == long(distinct.size()));
  CHECK(after.compiles + after.disk_hits - before.compiles - before.disk_hits == distinct.size());
  CHECK(fake().launches() - launches == long(kThreads) * kCalls);
  CHECK(after.launches - before.launches == std::uint64_t(kThreads) * kCalls);
  CHECK(fake().digest() - digest == expected);  // each call's own tensors, rows and block
}

// Random views, valid and broken, through the whole host path short of the launch (validation,
// config choice, parameter packing, the launch's own fields; nothing compiles): a call that is
// accepted must address exactly its tensors' elements, row by row as the kernel does, with a
// vector width every pointer and row stride is aligned to; a broken one must throw a
// ValidationError that names the argument, and launch nothing. The model of the addressing here
// is the tensors' own strides, independent of ops_rmsnorm.cpp's flat/per-head packing.
TEST_CASE("random views: accepted calls address exactly their elements, aligned, and broken ones launch nothing",
          "[launch][random]") {
  std::mt19937_64 rng(20261205);
  auto pick = [&](auto const& v) { return v[std::size_t(rng() % v.size())]; };
  auto chance = [&](int percent) { return int(rng() % 100) < percent; };
  const std::vector<std::int64_t> widths = {1, 3, 7, 64, 96, 100, 128, 130, 256, 1000, 1024, 2048, 2050,
                                            4096, 5120, 8192, 12288, 16384, 40968, 65536};
  // A view of `shape` at `base` (elements offset by `shift`) in one of the layouts engines hand
  // over: contiguous, padded rows, heads outermost in memory, or a q/k slice of a fused qkv row.
  auto view = [&](std::uintptr_t base, DType dt, const std::vector<std::int64_t>& shape, std::int64_t shift) {
    TensorView t;
    t.dtype = dt;
    t.ndim = int(shape.size());
    for (int i = 0; i < t.ndim; ++i) t.shape[i] = shape[std::size_t(i)];
    const std::int64_t d = shape.back();
    t.stride[t.ndim - 1] = 1;
    const int layout = int(rng() % 4);
    if (t.ndim == 2) {
      t.stride[0] = layout == 0 ? d : d + std::int64_t(rng() % 64);
    } else {
      const std::int64_t b = shape[0], h = shape[1];
      if (layout == 0) {
        t.stride[1] = d, t.stride[0] = h * d;
      } else if (layout == 1) {
        t.stride[1] = d + std::int64_t(rng() % 32), t.stride[0] = h * t.stride[1] + std::int64_t(rng() % 32);
      } else if (layout == 2) {
        t.stride[1] = b * d, t.stride[0] = d;  // [heads, tokens, d] in memory
      } else {
        t.stride[1] = d, t.stride[0] = (h + 2 * std::int64_t(1 + rng() % 8)) * d;  // inside a qkv row
      }
    }
    t.data = reinterpret_cast<void*>(base + std::uintptr_t(shift) * std::uintptr_t(dtype_size(dt)));
    return t;
  };
  auto element = [](const TensorView& t, std::int64_t b, std::int64_t h) {  // row (b, h)'s first byte
    const std::int64_t off = t.ndim == 2 ? b * t.stride[0] : b * t.stride[0] + h * t.stride[1];
    return reinterpret_cast<std::uintptr_t>(t.data) + std::uintptr_t(off * dtype_size(t.dtype));
  };
  auto row_address = [](const RowTensor& t, const NormParams& p, std::int64_t r, int bytes, bool rank3) {
    const std::int64_t outer = rank3 ? std::int64_t((std::uint64_t(r) * p.inner_mul) >> p.inner_shift) : r;
    const std::int64_t off = rank3 ? outer * t.stride0 + (r - outer * p.inner) * t.stride1 : r * t.stride0;
    return reinterpret_cast<std::uintptr_t>(t.ptr) + std::uintptr_t(off * bytes);
  };
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const bool fused = chance(30);
    const bool rank3 = !fused && chance(50);
    const Op op = fused ? pick(std::vector<Op>{Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm})
                        : pick(std::vector<Op>{Op::rmsnorm, Op::gemma_rmsnorm});
    const DType dt = pick(std::vector<DType>{DType::bf16, DType::f16, DType::f32});
    const DType wdt = dt != DType::f32 && chance(30) ? DType::f32 : dt;
    const std::int64_t d = pick(widths), b = 1 + std::int64_t(rng() % 6), h = 1 + std::int64_t(rng() % 7);
    const std::vector<std::int64_t> shape = rank3 ? std::vector<std::int64_t>{b, h, d} : std::vector<std::int64_t>{b * h, d};
    auto shift = [&] { return chance(50) ? 0 : std::int64_t(rng() % 8); };
    TensorView in = view(kIn, dt, shape, shift());
    TensorView res = view(kRes, dt, shape, shift());
    TensorView out = view(kOut, dt, shape, shift());
    TensorView w = make_tensor(reinterpret_cast<void*>(kW + std::uintptr_t(shift()) * std::uintptr_t(dtype_size(wdt))), wdt, {d});
    const bool in_place = !fused && chance(30);
    double eps = 1e-6;
    // One defect in a quarter of the calls; `arg`: the argument its error must name.
    std::string arg;
    switch (chance(25) ? int(rng() % 7) : -1) {
      case 0: w.shape[0] = d + 1, arg = "weight"; break;
      case 1: in.stride[in.ndim - 1] = 2, arg = d > 1 ? "input" : "-"; break;  // elements apart
      case 2: in.data = static_cast<char*>(in.data) + 1, arg = "input"; break;  // not element-aligned
      case 3: eps = chance(50) ? -1.0 : std::nan(""), arg = "eps"; break;
      case 4:  // rows of the written tensor that overlap each other (two rows of two elements at least)
        if (d < 2 || (rank3 ? b < 2 && h < 2 : b * h < 2) || (!fused && !in_place)) arg = "-";
        else if (fused) res.stride[0] = d / 2, arg = "residual";
        else if (rank3 && h > 1) in.stride[1] = d - 1, in.stride[0] = h * d, arg = "input";
        else in.stride[0] = d - 1, arg = "input";  // tokens' rows (2-D, or one head a token)
        break;
      case 5:  // an output starting inside the input
        if (fused) res.data = static_cast<char*>(in.data) + dtype_size(dt) * 2, res.stride[0] = in.stride[0], res.ndim = in.ndim,
                   arg = "residual";
        else if (!in_place) out = in, out.data = static_cast<char*>(in.data) + dtype_size(dt), arg = "out";
        else arg = "-";
        break;
      case 6:
        if (fused) res.dtype = dt == DType::f32 ? DType::bf16 : DType::f32, arg = "residual";
        else if (!in_place) out.dtype = dt == DType::f32 ? DType::bf16 : DType::f32, arg = "out";
        else arg = "-";
        break;
      default: break;
    }
    if (arg == "-") arg.clear();
    INFO("iteration " << iter << ": " << detail::op_info(op).name << " " << dtype_name(dt) << "/" << dtype_name(wdt) << " shape "
                      << (rank3 ? fmt::format("[{}, {}, {}]", b, h, d) : fmt::format("[{}, {}]", b * h, d))
                      << " strides in " << in.stride[0] << "," << (in.ndim == 3 ? in.stride[1] : 0) << " out "
                      << out.stride[0] << "," << (out.ndim == 3 ? out.stride[1] : 0) << " defect '" << arg << "'");
    detail::PreparedCall call;
    const long launches = fake().launches();
    try {
      if (fused) {
        FusedAddRmsnormArgs a{in, res, w, eps};
        call = detail::prepare_fused_add(op, a, {});
        if (!arg.empty()) fused_add_rmsnorm(a);  // must throw before launching
      } else {
        RmsnormArgs a{in, w, eps, in_place ? std::nullopt : std::optional<TensorView>(out)};
        call = detail::prepare_rmsnorm(op, a, {});
        if (!arg.empty()) rmsnorm(a);
      }
    } catch (const ValidationError& e) {
      INFO(e.what());
      CHECK_FALSE(arg.empty());
      CHECK(std::string(e.what()).find(arg) != std::string::npos);
      CHECK(fake().launches() == launches);
      ++rejected;
      continue;
    }
    REQUIRE(arg.empty());  // a defect that validation let through
    ++accepted;
    const detail::KernelConfig& c = call.config;
    detail::LaunchArgs la;
    detail::prepare_launch(c, call.p, true, 132, nullptr, &la);
    const NormParams& p = la.params;
    const TensorView& written = fused ? in : in_place ? in : out;
    REQUIRE(p.rows == b * h);
    REQUIRE(c.hidden == d);
    REQUIRE(d % c.vec == 0);
    // Every pointer and row stride the kernel steps by is a whole number of its vectors.
    const std::int64_t vbytes = std::int64_t(c.vec) * dtype_size(dt);
    for (const TensorView* t : {static_cast<const TensorView*>(&in), &written, static_cast<const TensorView*>(&res)}) {
      if (t == &res && !fused) continue;
      CHECK(reinterpret_cast<std::uintptr_t>(t->data) % std::uintptr_t(vbytes) == 0);
      for (int i = 0; i + 1 < t->ndim; ++i)  // a dimension of one is never stepped over
        if (t->shape[i] > 1) CHECK((t->stride[i] * dtype_size(dt)) % vbytes == 0);
    }
    // (A vector of an fp32 weight beside 8 16-bit elements is loaded as two 16-byte halves.)
    CHECK(reinterpret_cast<std::uintptr_t>(w.data) % std::uintptr_t(std::min(16, c.vec * dtype_size(wdt))) == 0);
    CHECK(p.weight == w.data);
    CHECK(p.eps == float(eps));
    // Row r is the view's row (r / heads, r % heads), read and written where the view has it.
    std::int64_t wrong = 0;
    for (std::int64_t r = 0; r < p.rows; ++r) {
      const std::int64_t rb = r / h, rh = r % h;
      const std::int64_t vb = rank3 ? rb : r, vh = rank3 ? rh : 0;
      wrong += row_address(p.input, p, r, dtype_size(dt), c.rank3) != element(in, vb, vh);
      wrong += row_address(p.out, p, r, dtype_size(dt), c.rank3) != element(written, vb, vh);
      if (fused) wrong += row_address(p.residual, p, r, dtype_size(dt), c.rank3) != element(res, vb, vh);
    }
    CHECK(wrong == 0);
    // The grid names every row once: its blocks (times a block's rows, over cluster and split) cover them.
    const std::int64_t blocks = std::int64_t(la.config.gridDimX) * la.config.gridDimY;
    CHECK(blocks / (c.cluster * c.split) * c.rows_per_cta() >= p.rows);
    CHECK((blocks / (c.cluster * c.split) - 1) * c.rows_per_cta() < p.rows);
  }
  // Both kinds in numbers (the seed is fixed, so these stay put unless the generator changes).
  CHECK(accepted > 1500);
  CHECK(rejected > 300);
}

// The library's host cost per call above the driver's launch: here the launch costs nothing, so
// this is normjit's own path (validation, config choice, context check, kernel lookup, launch
// set-up). Warm: back-to-back calls. Cold: the core's caches flushed before each timed call (a
// 4 MiB read), as a real launch's microseconds of driver code do. Informational (printed, not
// asserted):   ./build/tests/fake_driver/test_fake_driver "[.hostcost]" -s
TEST_CASE("host cost of a steady-state call", "[.hostcost]") {
  using Clock = std::chrono::steady_clock;
  const RmsnormArgs args = rms_args(1, 4096);
  rmsnorm(args);  // compile and load once
  const detail::KernelConfig c = heuristic(Op::rmsnorm, 1, 4096);
  const detail::LoadedKernel& k = detail::Runtime::get().kernel(c, nullptr);
  NormParams p{};
  p.rows = 1;
  detail::LaunchArgs la;
  detail::prepare_launch(c, p, true, 132, nullptr, &la);
  const auto& d = detail::driver();
  // As in an engine (PyTorch's primary context is current) and in `normjit bench --latency`.
  REQUIRE(d.cuCtxPushCurrent(detail::Runtime::get().primary_context(0)) == CUDA_SUCCESS);
  auto raw = [&] { d.cuLaunchKernelEx(&la.config, reinterpret_cast<CUfunction>(k.kernel), la.args, nullptr); };
  auto api = [&] { rmsnorm(args); };
  fake().record(false);
  auto warm_ns = [&](auto&& f) {
    constexpr int kCalls = 200000;
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
      const auto t0 = Clock::now();
      for (int i = 0; i < kCalls; ++i) f();
      best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kCalls);
    }
    return best;
  };
  std::vector<unsigned char> flush(4 << 20, 1);
  unsigned sink = 0;
  auto cold_ns = [&](auto&& f) {
    std::vector<double> t;
    for (int i = 0; i < 3000; ++i) {
      for (std::size_t j = 0; j < flush.size(); j += 64) sink += flush[j]++;
      const auto t0 = Clock::now();
      f();
      t.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
    }
    std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    return t[t.size() / 2];
  };
  const double raw_w = warm_ns(raw), api_w = warm_ns(api);
  const double raw_c = cold_ns(raw), api_c = cold_ns(api);
  fake().record(true);
  std::printf("host cost per call, fake driver (launch ~free): warm (best of 5 x 200000) normjit::rmsnorm %.1f ns, "
              "raw %.1f ns, normjit's own %.1f ns; cold caches (median of 3000) %.1f / %.1f / %.1f ns\n",
              api_w, raw_w, api_w - raw_w, api_c, raw_c, api_c - raw_c);
  CHECK(sink != 1);  // keeps the flush reads
}

// The same with a decoder layer's norms in turn, as a serving loop makes them (Qwen3-style, one
// token): the fused add on the hidden row, then per-head rmsnorm on q (32 heads) and k (8 heads)
// of head_dim 128. Each call's problem differs from the one before it. Informational, as above:
//   ./build/tests/fake_driver/test_fake_driver "[.hostcost]" -s
TEST_CASE("host cost of a decoder layer's calls in turn", "[.hostcost]") {
  using Clock = std::chrono::steady_clock;
  FusedAddRmsnormArgs add;
  add.input = make_tensor(ptr(kIn), DType::bf16, {1, 4096});
  add.residual = make_tensor(ptr(kRes), DType::bf16, {1, 4096});
  add.weight = make_tensor(ptr(kW), DType::bf16, {4096});
  add.eps = 1e-6;
  auto heads = [](std::int64_t n) {
    RmsnormArgs a;
    a.input = make_tensor(ptr(kIn), DType::bf16, {1, n, 128});
    a.weight = make_tensor(ptr(kW), DType::bf16, {128});
    a.eps = 1e-6;
    a.out = make_tensor(ptr(kOut), DType::bf16, {1, n, 128});
    return a;
  };
  const RmsnormArgs q = heads(32), k = heads(8), one = rms_args(1, 4096);
  auto layer = [&] {
    fused_add_rmsnorm(add);
    rmsnorm(q);
    rmsnorm(k);
  };
  layer();  // compile and load
  const auto& d = detail::driver();
  REQUIRE(d.cuCtxPushCurrent(detail::Runtime::get().primary_context(0)) == CUDA_SUCCESS);
  fake().record(false);
  auto per_call_ns = [&](auto&& f, int calls_each) {
    constexpr int kRounds = 100000;
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
      const auto t0 = Clock::now();
      for (int i = 0; i < kRounds; ++i) f();
      best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / (kRounds * calls_each));
    }
    return best;
  };
  const double turn = per_call_ns(layer, 3);
  const double same = per_call_ns([&] { rmsnorm(one); }, 1);
  fake().record(true);
  std::printf("host cost per call, fake driver: a decoder layer's three norms in turn %.1f ns, one call repeated %.1f ns\n",
              turn, same);
}

int main(int argc, char** argv) {
  ::unsetenv("FAKE_CUDA_CC");  // the fake's default device: sm_90, as the tests expect
  return njtest::run_hermetic("fake-driver-cache", FAKE_LIBCUDA_PATH,
                             [&] { return Catch::Session().run(argc, argv); });
}

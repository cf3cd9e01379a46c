// Runtime behaviour on a GPU: graph capture and replay, a miss during capture, a second
// process served by the disk cache, concurrent first calls, a prewarmed offline cache.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>

#include "rms_case.hpp"
#include "support/gpu.hpp"
#include "support/process.hpp"
#include "support/reference.hpp"

using namespace njtest;
using normjit::DType;
using normjit::detail::driver;

namespace {

struct Problem {
  std::int64_t rows, hidden;
  std::vector<std::uint16_t> x, r, w;
  DeviceBuffer xd, rd, wd, yd;
  Problem(std::int64_t rows_, std::int64_t hidden_)
      : rows(rows_), hidden(hidden_), x(size_t(rows_ * hidden_)), r(x.size()), w(size_t(hidden_)),
        xd(x.size() * 2), rd(x.size() * 2), wd(w.size() * 2), yd(x.size() * 2) {}
  void randomize(std::mt19937_64& rng) {
    fill_random(DType::bf16, x.data(), rows * hidden, rng);
    fill_random(DType::bf16, r.data(), rows * hidden, rng);
    fill_random(DType::bf16, w.data(), hidden, rng, 0.5, 1.0);
    xd.upload(x.data(), x.size() * 2);
    rd.upload(r.data(), r.size() * 2);
    wd.upload(w.data(), w.size() * 2);
    yd.fill(0xFF);
  }
  normjit::TensorView X() { return normjit::make_tensor(xd.get(), DType::bf16, {rows, hidden}); }
  normjit::TensorView R() { return normjit::make_tensor(rd.get(), DType::bf16, {rows, hidden}); }
  normjit::TensorView Y() { return normjit::make_tensor(yd.get(), DType::bf16, {rows, hidden}); }
  normjit::TensorView W() { return normjit::make_tensor(wd.get(), DType::bf16, {hidden}); }

  // y = rmsnorm(x); then fused_add(x <- norm(x + r), r <- x + r): checks all three buffers.
  int verify_chain() {
    std::vector<std::uint16_t> y(x.size()), x2(x.size()), r2(x.size());
    yd.download(y.data(), y.size() * 2);
    xd.download(x2.data(), x2.size() * 2);
    rd.download(r2.data(), r2.size() * 2);
    int bad = 0;
    std::vector<double> v(static_cast<size_t>(hidden)), ww(static_cast<size_t>(hidden)), out;
    for (std::int64_t j = 0; j < hidden; ++j) ww[size_t(j)] = get(DType::bf16, w.data(), j);
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < hidden; ++j) v[size_t(j)] = get(DType::bf16, x.data(), i * hidden + j);
      rms_row(v, ww, 0.0, 1e-6, &out);
      for (std::int64_t j = 0; j < hidden; ++j)
        bad += !within_steps(DType::bf16, get(DType::bf16, y.data(), i * hidden + j), out[size_t(j)]);
      for (std::int64_t j = 0; j < hidden; ++j) {
        const float h = float(get(DType::bf16, x.data(), i * hidden + j)) +
                        float(get(DType::bf16, r.data(), i * hidden + j));
        v[size_t(j)] = h;
        bad += get(DType::bf16, r2.data(), i * hidden + j) != round_to(DType::bf16, h);
      }
      rms_row(v, ww, 0.0, 1e-6, &out);
      for (std::int64_t j = 0; j < hidden; ++j)
        bad += !within_steps(DType::bf16, get(DType::bf16, x2.data(), i * hidden + j), out[size_t(j)]);
    }
    return bad;
  }
};

void enqueue_chain(Problem& p, CUstream s, bool pdl) {
  normjit::LaunchOptions o;
  o.stream = reinterpret_cast<normjit::Stream>(s);
  o.enable_pdl = pdl;
  normjit::RmsnormArgs a;
  a.input = p.X();
  a.weight = p.W();
  a.out = p.Y();
  normjit::rmsnorm(a, o);
  normjit::FusedAddRmsnormArgs f;
  f.input = p.X();
  f.residual = p.R();
  f.weight = p.W();
  normjit::fused_add_rmsnorm(f, o);
}

}  // namespace

TEST_CASE("CUDA graph capture and replay, PDL on and off", "[gpu][graph]") {
  use_device0();
  std::mt19937_64 rng(std::random_device{}());
  for (bool pdl : {false, true}) {
    Problem p(37, 4096);
    Stream s;
    p.randomize(rng);
    enqueue_chain(p, s.get(), pdl);  // warm-up: loads both kernels outside the capture
    s.sync();
    REQUIRE(p.verify_chain() == 0);

    CUgraph g = nullptr;
    CUgraphExec ge = nullptr;
    check_cu(driver().cuStreamBeginCapture(s.get(), CU_STREAM_CAPTURE_MODE_GLOBAL), "begin capture");
    enqueue_chain(p, s.get(), pdl);
    check_cu(driver().cuStreamEndCapture(s.get(), &g), "end capture");
    check_cu(driver().cuGraphInstantiate(&ge, g, 0), "instantiate");
    for (int replay = 0; replay < 3; ++replay) {
      p.randomize(rng);  // fresh inputs in the same buffers
      check_cu(driver().cuGraphLaunch(ge, s.get()), "graph launch");
      s.sync();
      CHECK(p.verify_chain() == 0);
    }
    driver().cuGraphExecDestroy(ge);
    driver().cuGraphDestroy(g);
  }
}

TEST_CASE("a kernel not yet loaded fails clearly during capture", "[gpu][graph]") {
  use_device0();
  Problem p(3, 1234);  // a shape no other test uses
  std::mt19937_64 rng(std::random_device{}());
  p.randomize(rng);
  Stream s;
  check_cu(driver().cuStreamBeginCapture(s.get(), CU_STREAM_CAPTURE_MODE_RELAXED), "begin capture");
  normjit::LaunchOptions o;
  o.stream = reinterpret_cast<normjit::Stream>(s.get());
  normjit::RmsnormArgs a;
  a.input = p.X();
  a.weight = p.W();
  a.out = p.Y();
  std::string message;
  try {
    normjit::rmsnorm(a, o);
  } catch (const normjit::Error& e) {
    message = e.what();
  }
  CUgraph g = nullptr;
  driver().cuStreamEndCapture(s.get(), &g);
  if (g) driver().cuGraphDestroy(g);
  CHECK_THAT(message, Catch::Contains("captured"));
  CHECK_THAT(message, Catch::Contains("warm-up"));
  // Outside capture the same call works.
  normjit::rmsnorm(a, o);
  s.sync();
}

TEST_CASE("threads asking for one new kernel compile it once", "[gpu][runtime]") {
  use_device0();
  std::mt19937_64 rng(std::random_device{}());
  const std::int64_t hidden = 2000 + std::int64_t(rng() % 500) * 2;  // unlikely to be cached
  std::vector<std::unique_ptr<Problem>> probs;
  for (int i = 0; i < 8; ++i) {
    probs.push_back(std::make_unique<Problem>(5, hidden));
    probs.back()->randomize(rng);
  }
  const auto before = normjit::runtime_stats();
  std::vector<std::thread> threads;
  std::vector<std::string> errors(probs.size());
  for (size_t i = 0; i < probs.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        use_device0();
        Stream s;
        enqueue_chain(*probs[i], s.get(), true);
        s.sync();
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  const auto after = normjit::runtime_stats();
  for (const std::string& e : errors) CHECK(e == "");
  // Two distinct kernels (rmsnorm, fused_add): each built at most once across the 8 threads.
  CHECK(after.compiles + after.disk_hits - before.compiles - before.disk_hits <= 2);
  for (auto& p : probs) CHECK(p->verify_chain() == 0);
}

TEST_CASE("child: serve from the disk cache without compiling", "[.child_disk_hit]") {
  use_device0();
  std::mt19937_64 rng(std::random_device{}());
  Problem p(64, 4096);
  p.randomize(rng);
  Stream s;
  enqueue_chain(p, s.get(), true);
  s.sync();
  const auto st = normjit::runtime_stats();
  CHECK(p.verify_chain() == 0);
  CHECK(st.compiles == 0);
  CHECK(st.disk_hits == 2);
}

TEST_CASE("a second process hits the disk cache", "[gpu][cache]") {
  use_device0();
  std::mt19937_64 rng(std::random_device{}());
  Problem p(64, 4096);
  p.randomize(rng);
  Stream s;
  enqueue_chain(p, s.get(), true);  // makes sure both kernels are on disk
  s.sync();
  const normjit::CacheInfo ci = normjit::cache_info();
  REQUIRE(ci.writable);
  const ProcessResult r = run({self_exe(), "[.child_disk_hit]"}, {{"NORMJIT_CACHE_DIR", ci.root}});
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

// Run by scripts/gpu_suite.sh with NORMJIT_OFFLINE=1 and a cache that `normjit prewarm --arch
// sm_90` filled on a machine without a GPU: every kernel must load without compiling.
TEST_CASE("prewarmed cache serves every call offline", "[.prewarmed]") {
  use_device0();
  std::mt19937_64 rng(std::random_device{}());
  for (std::int64_t hidden : {4096, 8192}) {
    for (DType dt : {DType::bf16, DType::f16}) {
      for (normjit::Op op : {normjit::Op::rmsnorm, normjit::Op::fused_add_rmsnorm}) {
        RmsCase c;
        c.op = op;
        c.dtype = dt;
        c.weight_dtype = dt;
        c.rows = 33;
        c.hidden = hidden;
        c.form = OutForm::InPlace;
        CHECK(run_rms_case(c, rng) == "");
      }
    }
  }
  const auto st = normjit::runtime_stats();
  CHECK(st.compiles == 0);
  CHECK(st.disk_hits == 8);
}

// Run by scripts/gpu_suite.sh with NORMJIT_OFFLINE=1 on a cache that `normjit prewarm
// --manifest all --arch sm_90` filled without a GPU: the first call of every manifest problem
// must load from disk (no compile) and be correct. Prints the first-call latencies.
TEST_CASE("every manifest problem is served by a prewarmed cache", "[.prewarmed_manifest]") {
  use_device0();
  const char* spec = std::getenv("NORMJIT_TEST_MANIFEST");
  const normjit::Manifest m =
      normjit::load_manifest(spec && *spec ? spec : "all", {NORMJIT_SOURCE_DIR "/cache/manifests"});
  REQUIRE(!m.problems.empty());
  std::mt19937_64 rng(std::random_device{}());
  std::vector<double> first_ms;
  for (const normjit::ProblemSpec& p : m.problems) {
    RmsCase c;
    c.op = p.op;
    c.dtype = p.dtype;
    c.weight_dtype = p.weight_dtype;
    c.hidden = p.hidden;
    c.rows = 2;
    const bool fused = p.op == normjit::Op::fused_add_rmsnorm || p.op == normjit::Op::gemma_fused_add_rmsnorm;
    c.form = fused ? OutForm::InPlace : OutForm::Separate;
    if (p.rank3) {
      c.heads = 3;
      c.nonflat_input = true;
    }
    const auto before = normjit::runtime_stats();
    const auto t0 = std::chrono::steady_clock::now();
    const std::string err = run_rms_case(c, rng);  // includes the first call of this config
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto after = normjit::runtime_stats();
    INFO(c.describe());
    CHECK(err == "");
    CHECK(after.compiles == before.compiles);
    if (after.disk_hits > before.disk_hits) first_ms.push_back(ms);
  }
  const auto st = normjit::runtime_stats();
  CHECK(st.compiles == 0);
  std::sort(first_ms.begin(), first_ms.end());
  std::printf("manifest %s: %zu problems, %llu kernels loaded from the prewarmed cache, 0 compiled; "
              "first call incl. buffers+check: median %.2f ms, max %.2f ms\n",
              m.name.c_str(), m.problems.size(), (unsigned long long)st.disk_hits,
              first_ms.empty() ? 0.0 : first_ms[first_ms.size() / 2],
              first_ms.empty() ? 0.0 : first_ms.back());
}

// Several GPUs in one process, and one cache shared by one process per GPU (issue: multi-GPU).
// Contract: an op runs on the device its tensors live on. If the caller's current context
// belongs to another device, normjit pushes the tensors' device's primary context for the
// launch and pops it afterwards; a kernel is compiled once and loaded context-independently
// (cuLibraryLoadData), so every device uses the same module.
#include <fmt/format.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
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

// rmsnorm of [rows, hidden] bf16 on `device`, launched from whatever context is current;
// returns the number of elements outside the step tolerance.
int rmsnorm_on(int device, std::int64_t rows, std::int64_t hidden, std::mt19937_64& rng,
               CUstream stream = nullptr) {
  std::vector<std::uint16_t> x(static_cast<size_t>(rows * hidden)), w(static_cast<size_t>(hidden)), y(x.size());
  fill_random(DType::bf16, x.data(), rows * hidden, rng);
  fill_random(DType::bf16, w.data(), hidden, rng, 0.5, 1.0);
  CUcontext caller = nullptr;
  check_cu(driver().cuCtxGetCurrent(&caller), "cuCtxGetCurrent");
  DeviceBuffer xd(x.size() * 2, device), wd(w.size() * 2, device), yd(y.size() * 2, device);
  xd.upload(x.data(), x.size() * 2);
  wd.upload(w.data(), w.size() * 2);
  yd.fill(0xFF);
  // Back to the caller's context before the op, so the op sees a context of another device.
  CUcontext now = nullptr;
  check_cu(driver().cuCtxGetCurrent(&now), "cuCtxGetCurrent");
  if (now != caller) {
    CUcontext popped = nullptr;
    check_cu(driver().cuCtxPopCurrent(&popped), "cuCtxPopCurrent");
  }
  normjit::RmsnormArgs a;
  a.input = normjit::make_tensor(xd.get(), DType::bf16, {rows, hidden}, device);
  a.weight = normjit::make_tensor(wd.get(), DType::bf16, {hidden}, device);
  a.out = normjit::make_tensor(yd.get(), DType::bf16, {rows, hidden}, device);
  normjit::LaunchOptions o;
  o.stream = reinterpret_cast<normjit::Stream>(stream);
  normjit::rmsnorm(a, o);
  CUcontext after = nullptr;
  check_cu(driver().cuCtxGetCurrent(&after), "cuCtxGetCurrent");
  CHECK(after == caller);  // normjit restored the caller's context
  use_device(device);
  check_cu(driver().cuCtxSynchronize(), "sync");
  yd.download(y.data(), y.size() * 2);
  std::vector<double> v(static_cast<size_t>(hidden)), wv(static_cast<size_t>(hidden)), ref;
  for (std::int64_t j = 0; j < hidden; ++j) wv[size_t(j)] = get(DType::bf16, w.data(), j);
  int bad = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t j = 0; j < hidden; ++j) v[size_t(j)] = get(DType::bf16, x.data(), r * hidden + j);
    rms_row(v, wv, 0.0, 1e-6, &ref);
    for (std::int64_t j = 0; j < hidden; ++j)
      bad += !within_steps(DType::bf16, get(DType::bf16, y.data(), r * hidden + j), ref[size_t(j)]);
  }
  return bad;
}

}  // namespace

TEST_CASE("tensors on device 1 while device 0's context is current", "[gpu][multigpu]") {
  std::mt19937_64 rng(std::random_device{}());
  use_device(0);
  CHECK(rmsnorm_on(1, 33, 4096, rng) == 0);
  use_device(1);
  CHECK(rmsnorm_on(0, 33, 4096, rng) == 0);
  // The same config on both devices was compiled at most once.
  CHECK(normjit::runtime_stats().compiles + normjit::runtime_stats().disk_hits <= 1);
}

TEST_CASE("one thread per GPU launching thousands of ops, a third thread prewarming", "[gpu][multigpu]") {
  const auto before = normjit::runtime_stats();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int dev = 0; dev < 2; ++dev) {
    threads.emplace_back([dev, &failures] {
      try {
        std::mt19937_64 rng(std::random_device{}() + dev);
        use_device(dev);
        Stream s(dev);
        for (int i = 0; i < 2000; ++i) {
          RmsCase c;
          c.op = i % 2 ? normjit::Op::fused_add_rmsnorm : normjit::Op::rmsnorm;
          c.dtype = DType::bf16;
          c.weight_dtype = DType::bf16;
          c.rows = 1 + i % 5;
          c.hidden = i % 3 ? 4096 : 2048;
          c.form = OutForm::InPlace;
          c.stream = s.get();
          c.device = dev;
          if (!run_rms_case(c, rng).empty()) ++failures;
        }
      } catch (const std::exception& e) {
        UNSCOPED_INFO(e.what());
        ++failures;
      }
    });
  }
  std::vector<normjit::PrewarmItem> items;
  threads.emplace_back([&items] {
    std::vector<normjit::ProblemSpec> ps;
    for (std::int64_t h : {1536, 2560, 3072, 5120, 6144})
      ps.push_back({normjit::Op::gemma_rmsnorm, DType::bf16, DType::bf16, h, false, 0});
    items = normjit::prewarm(ps, "sm_90", 2);
  });
  for (auto& t : threads) t.join();
  CHECK(failures == 0);
  for (const auto& it : items) CHECK(it.error == "");
  // 4 configs used by the two device threads + 5 prewarmed: each built or read once.
  const auto after = normjit::runtime_stats();
  CHECK(after.compiles + after.disk_hits - before.compiles - before.disk_hits <= 9);
}

TEST_CASE("child: one rank on its GPU", "[.child_rank]") {
  const int dev = std::atoi(std::getenv("NORMJIT_TEST_RANK_DEVICE"));
  std::mt19937_64 rng(std::random_device{}() + dev);
  use_device(dev);
  CHECK(rmsnorm_on(dev, 64, 8192, rng) == 0);
  std::printf("rank on device %d: %llu compiles, %llu disk hits\n", dev,
              (unsigned long long)normjit::runtime_stats().compiles,
              (unsigned long long)normjit::runtime_stats().disk_hits);
}

TEST_CASE("two ranks, one per GPU, on a cold shared cache", "[gpu][multigpu]") {
  const std::string dir = make_temp_dir("ranks");
  std::vector<pid_t> pids;
  std::vector<std::string> logs;
  for (int dev = 0; dev < 2; ++dev) {
    logs.push_back(fmt::format("{}/rank{}.log", dir, dev));
    pids.push_back(spawn({self_exe(), "[.child_rank]"},
                         {{"NORMJIT_CACHE_DIR", dir + "/cache"}, {"NORMJIT_TEST_RANK_DEVICE", std::to_string(dev)}},
                         logs.back()));
  }
  int compiles = 0;
  for (size_t i = 0; i < pids.size(); ++i) {
    const ProcessResult r = wait_for(pids[i], logs[i]);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    compiles += r.output.find(": 1 compiles") != std::string::npos;
  }
  CHECK(compiles == 1);  // one rank compiled, the other read the entry from disk
  std::filesystem::remove_all(dir);
}

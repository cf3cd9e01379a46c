// Session 44: registers / stack of rmsnorm's and gemma_rmsnorm's per-thread-copy (residency 4)
// defaults on sm_90a between 4096 and 16384 vectors a row, every activation and weight dtype,
// 1024 rows. Prints one line per distinct kernel.
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <mutex>
#include <atomic>
#include <vector>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
#include "cubin_info.hpp"
using namespace normjit;
using namespace normjit::detail;
int main(int argc, char** argv) {
  const long step = argc > 1 ? atol(argv[1]) : 256;
  std::set<std::string> seen;
  std::vector<KernelConfig> jobs;
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm})
    for (DType dt : {DType::bf16, DType::f16, DType::f32})
      for (DType wt : {dt, DType::f32})
        for (long v = 4096 + step; v < 16384; v += step) {
          ProblemSpec p; p.op = op; p.dtype = dt; p.weight_dtype = wt; p.rows = 1024;
          p.hidden = v * (16 / dtype_size(dt));
          KernelConfig c = choose_config(p, 0, Arch{90});
          if (c.residency != 4 || !seen.insert(slug(c)).second) continue;
          jobs.push_back(c);
        }
  std::vector<std::string> out(jobs.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      auto r = kernel_resources(compile(jobs[i]).bytes, "normjit_entry");
      char b[256];
      std::snprintf(b, sizeof b, "%-72s regs %3d stack %3d", slug(jobs[i]).c_str(), r ? r->registers : -1, r ? r->stack_bytes : -1);
      out[i] = b;
    }
  };
  std::thread t(work); work(); t.join();
  for (auto& s : out) std::printf("%s\n", s.c_str());
}

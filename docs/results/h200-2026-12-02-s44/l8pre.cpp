// Session 43: compile forced configs into $NORMJIT_CACHE_DIR for sm_90 (132 SMs, as the H200),
// so that a device call loads them instead of compiling. stdin: "op dtype hidden rows cfg" lines
// (cfg "default" for the heuristic's). Prints slug, regs/stack, smem, CTAs/SM by smem.
#include <atomic>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
#include "config_override.hpp"
#include "cubin_info.hpp"
#include "kernel_config.hpp"
#include "op_registry.hpp"
#include "runtime.hpp"
using namespace normjit; using namespace normjit::detail;
int main() {
  struct Job { ProblemSpec p; std::string cfg; KernelConfig c; std::string out; };
  std::vector<Job> jobs;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line); std::string op, dt, cfg; long long h, r;
    if (!(in >> op >> dt >> h >> r >> cfg)) continue;
    Job j; j.cfg = cfg;
    j.p.op = op == "rmsnorm" ? Op::rmsnorm : op == "gemma_rmsnorm" ? Op::gemma_rmsnorm : op == "fused_add_rmsnorm" ? Op::fused_add_rmsnorm : Op::gemma_fused_add_rmsnorm;
    j.p.dtype = j.p.weight_dtype = dt == "bf16" ? DType::bf16 : dt == "f16" ? DType::f16 : DType::f32;
    j.p.hidden = h; j.p.rows = r;
    try {
      if (cfg == "default") j.c = choose_config(j.p, 8, Arch{90, 132});
      else { ConfigOverride o = parse_config_override(cfg); ScopedConfigOverride g(&o); j.c = choose_config(j.p, 8, Arch{90, 132}); }
    } catch (const std::exception& e) { std::printf("%s %lld %s: INVALID %s\n", op.c_str(), h, cfg.c_str(), e.what()); continue; }
    jobs.push_back(j);
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      Job& j = jobs[i];
      try {
        CacheOutcome oc; Binary b = Runtime::get().binary(j.c, &oc, true);
        auto r = kernel_resources(b.bytes, "normjit_entry");
        char buf[512];
        std::snprintf(buf, sizeof buf, "%-58s %-66s %3dr %3ds smem=%6lld ctas=%2d", (std::string(op_name(j.p.op)) + " " + std::to_string(j.p.hidden) + " " + j.cfg).c_str(), slug(j.c).c_str(), r ? r->registers : -1, r ? r->stack_bytes : -1, (long long)staged_smem_bytes(j.c), staged_ctas_per_sm(j.c));
        j.out = buf;
      } catch (const std::exception& e) { j.out = slug(j.c) + " COMPILE FAILED " + e.what(); }
    }
  };
  std::thread t(work); work(); t.join();
  for (auto& j : jobs) std::printf("%s\n", j.out.c_str());
}

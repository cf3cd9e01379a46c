// Registers / stack of forced configs: stdin lines "op dtype hidden rows cfg|default".
#include <cstdio>
#include <iostream>
#include <string>
#include "config_override.hpp"
#include "cubin_info.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
int main() {
  std::string op, dt, cfg; long long h, r;
  while (std::cin >> op >> dt >> h >> r >> cfg) {
    ProblemSpec p;
    p.op = op == "rmsnorm" ? Op::rmsnorm : op == "gemma_rmsnorm" ? Op::gemma_rmsnorm : Op::fused_add_rmsnorm;
    p.dtype = p.weight_dtype = dt == "bf16" ? DType::bf16 : dt == "f16" ? DType::f16 : DType::f32;
    p.hidden = h; p.rows = r;
    KernelConfig c;
    if (cfg == "default") c = choose_config(p, 8, Arch{90, 132});
    else { ConfigOverride o = parse_config_override(cfg); ScopedConfigOverride g(&o); c = choose_config(p, 8, Arch{90, 132}); }
    auto res = kernel_resources(compile(c).bytes, "normjit_entry");
    std::printf("%s %s %lld %lld %-60s regs %3d stack %3d\n", op.c_str(), dt.c_str(), h, r, slug(c).c_str(),
                res ? res->registers : -1, res ? res->stack_bytes : -1);
    std::fflush(stdout);
  }
}

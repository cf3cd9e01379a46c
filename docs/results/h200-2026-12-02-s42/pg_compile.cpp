// Session 42: compiles the wide staged defaults with and without the persistent grid for sm_90
// and prints registers / stack of each (a CPU check of the template).
#include <cstdio>
#include <string>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
#include "cubin_info.hpp"
#include "config_override.hpp"
using namespace normjit;
using namespace normjit::detail;
int main(int argc, char** argv) {
  int cc = argc > 1 ? std::atoi(argv[1]) : 90;
  for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm})
    for (DType dt : {DType::bf16, DType::f32})
      for (long h : {16384L, 65536L, 131072L, 262144L})
        for (int pg : {0, 1}) {
          ProblemSpec p; p.op = op; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = 1024;
          ConfigOverride o = parse_config_override(h == 16384 ? "residency=3,cluster=2,tpr=256" : "residency=3");
          o.persistent = pg;
          ScopedConfigOverride so(&o);
          KernelConfig c;
          try { c = choose_config(p, 0, Arch{cc}); } catch (const std::exception& e) { std::printf("%s\n", e.what()); continue; }
          Binary b = compile(c);
          auto r = kernel_resources(b.bytes, "normjit_entry");
          std::printf("%-70s regs %d stack %d\n", slug(c).c_str(), r ? r->registers : -1, r ? r->stack_bytes : -1);
        }
}

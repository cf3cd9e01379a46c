// Session 43: a hash of each default staged kernel's cubin (sm_90) under $NORMJIT_TEMPLATE_DIR.
#include <cstdio>
#include <functional>
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
#include "kernel_config.hpp"
using namespace normjit; using namespace normjit::detail;
int main() {
  for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm, Op::gemma_rmsnorm})
    for (DType dt : {DType::bf16, DType::f32})
      for (long h : {16384L, 32768L, 65536L, 131072L, 196608L, 262144L})
        for (long r : {1L, 1024L}) {
          ProblemSpec p; p.op = op; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = r;
          KernelConfig c = choose_config(p, 8, Arch{90, 132});
          if (!staged(c)) continue;
          Binary b = compile(c);
          std::printf("%s %zx\n", slug(c).c_str(), std::hash<std::string>{}(b.bytes));
        }
}

// Which defaults take keep_tail (session 51): rmsnorm-family 2-D rows at 256 MiB and 1 GiB of output.
#include <cstdio>
#include "kernel_config.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
int main() {
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm})
    for (DType dt : {DType::bf16, DType::f16, DType::f32})
      for (long long h = 64; h <= 262144; h += (h < 16384 ? 64 : 1024)) {
        int n = 0; long long first = 0, last = 0; std::string s;
        for (long long mib : {256LL, 1024LL}) {
          ProblemSpec p; p.op = op; p.dtype = p.weight_dtype = dt; p.hidden = h;
          p.rows = ((mib << 20) + h * dtype_size(dt) - 1) / (h * dtype_size(dt));
          KernelConfig c = choose_config(p, 8, Arch{90, 132});
          if (c.keep_tail) { ++n; s = slug(c); }
        }
        if (n) std::printf("%s %s %lld %d %s\n", std::string(op_name(op)).c_str(), std::string(dtype_name(dt)).c_str(), h, n, s.c_str());
      }
}

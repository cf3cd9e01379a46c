// Session 41: the default kernel of every (op, dtype, hidden, rows) below on sm_90, one line each;
// built against two trees and diffed to list what a heuristic change moved.
#include <cstdio>
#include <string>
#include "op_registry.hpp"
#include "kernel_config.hpp"
using namespace normjit;
using namespace normjit::detail;
int main() {
  const long rows_list[] = {1, 8, 32, 128, 512, 1000, 1024, 1500, 2047, 2048, 2049, 2340, 3000, 4096, 5440, 8192, 16384, 32768, 65536};
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm, Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm})
    for (DType dt : {DType::bf16, DType::f16, DType::f32})
      for (long h = 128; h <= 65536; h += 128)
        for (long r : rows_list) {
          ProblemSpec p; p.op = op; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = r;
          KernelConfig c = choose_config(p, 0, Arch{90});
          printf("%s %s %ld %ld %s\n", std::string(op_name(op)).c_str(), std::string(dtype_name(dt)).c_str(), h, r, slug(c).c_str());
        }
}

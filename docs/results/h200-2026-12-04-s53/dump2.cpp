// rmsnorm-family choices at every 16-bit hidden of 16384-32768 (step 8), rows 256-16384, sm_90.
#include <cstdio>
#include "kernel_config.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
int main() {
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm, Op::fused_add_rmsnorm})
    for (DType dt : {DType::bf16, DType::f16})
      for (long long h = 16384; h <= 32768; h += 8)
        for (long long r : {256, 511, 512, 1000, 1023, 1024, 1600, 2047, 2048, 4096, 6000, 8191, 8192, 16384}) {
          ProblemSpec p; p.op = op; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = r;
          std::printf("%s %s %lld %lld %s\n", std::string(op_name(op)).c_str(), std::string(dtype_name(dt)).c_str(), h, r,
                      slug(choose_config(p, 8, Arch{90, 132})).c_str());
        }
}

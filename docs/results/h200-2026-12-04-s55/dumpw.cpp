// rmsnorm-family choices with an fp32 weight beside 16-bit rows (and the same-type weight), sm_90:
// hidden 128-65536 (powers of two and a few between), rows 1-65536.
#include <cstdio>
#include "kernel_config.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
int main() {
  std::vector<long long> hs;
  for (long long h = 128; h <= 65536; h *= 2) { hs.push_back(h); if (h >= 1024) { hs.push_back(h + h / 4); hs.push_back(h + h / 2); hs.push_back(h + 3 * h / 4); } }
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm, Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm})
    for (DType dt : {DType::bf16, DType::f16})
      for (DType wt : {dt, DType::f32})
        for (long long h : hs)
          for (long long r : {1LL, 8LL, 32LL, 128LL, 256LL, 512LL, 1024LL, 2048LL, 4096LL, 8192LL, 16384LL, 32768LL, 65536LL}) {
            ProblemSpec p; p.op = op; p.dtype = dt; p.weight_dtype = wt; p.hidden = h; p.rows = r;
            std::printf("%s %s/%s %lld %lld %s\n", std::string(op_name(op)).c_str(), std::string(dtype_name(dt)).c_str(),
                        std::string(dtype_name(wt)).c_str(), h, r, slug(choose_config(p, 8, Arch{90, 132})).c_str());
          }
}

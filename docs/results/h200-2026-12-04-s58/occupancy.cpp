// fp32 weight beside 16-bit rows against a weight of the rows' type: registers, stack and the CTAs
// an SM the registers allow (sm_90a), for every default of ops x dtypes x hidden 1024-65536 x rows.
// Build from the repo root: g++ -std=c++17 -O1 -Isrc -Iinclude -Ikernel_templates occupancy.cpp -Lbuild -lnormjit -lfmt
#include <cstdio>
#include <map>
#include <string>
#include <vector>
#include "cubin_info.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
struct Res { int regs, stack, ctas; };
static std::map<std::string, Res> memo;
static Res res_of(const KernelConfig& c) {
  const std::string s = slug(c);
  auto it = memo.find(s);
  if (it != memo.end()) return it->second;
  auto bytes = compile(c).bytes;
  auto r = kernel_resources(bytes, "normjit_entry");
  Res out{r ? r->registers : -1, r ? r->stack_bytes : -1, 0};
  const int per_thread = (out.regs + 7) / 8 * 8;
  const int threads = c.block_threads();
  int by_regs = 65536 / (per_thread * ((threads + 31) / 32 * 32));
  int by_threads = 2048 / threads;
  out.ctas = std::min(by_regs, by_threads);
  memo[s] = out;
  return out;
}
int main() {
  std::vector<long long> hs;
  for (long long h = 1024; h <= 65536; h += 1024) hs.push_back(h);
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm, Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm})
    for (DType dt : {DType::bf16, DType::f16})
      for (long long h : hs)
        for (long long r : {1LL, 128LL, 512LL, 1024LL, 2048LL, 4096LL, 8192LL, 32768LL}) {
          ProblemSpec p; p.op = op; p.dtype = dt; p.hidden = h; p.rows = r;
          p.weight_dtype = dt;
          const KernelConfig own = choose_config(p, 8, Arch{90, 132});
          p.weight_dtype = DType::f32;
          const KernelConfig f32w = choose_config(p, 8, Arch{90, 132});
          const Res a = res_of(own), b = res_of(f32w);
          const bool worse = b.ctas < a.ctas || (b.stack > a.stack);
          std::printf("%s %-22s %s h %6lld rows %6lld | own %-55s r%3d s%3d c%2d | f32w %-60s r%3d s%3d c%2d\n",
                      worse ? "!!" : "  ", op_info(op).name.data(), dt == DType::bf16 ? "bf16" : "f16 ", h, r,
                      slug(own).c_str(), a.regs, a.stack, a.ctas, slug(f32w).c_str(), b.regs, b.stack, b.ctas);
          std::fflush(stdout);
        }
}

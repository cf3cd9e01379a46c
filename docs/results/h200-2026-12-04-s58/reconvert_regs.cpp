// rmsnorm with an fp32 weight beside 16-bit rows: the default against reconvert=1 (registers,
// stack, CTAs an SM by registers), sm_90a, for every held default of hidden 1024-32768 x rows.
// Build from the repo root: g++ -std=c++17 -O1 -Isrc -Iinclude -Ikernel_templates reconvert_regs.cpp -Lbuild -lnormjit -lfmt
#include <cstdio>
#include <map>
#include <string>
#include "config_override.hpp"
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
  auto r = kernel_resources(compile(c).bytes, "normjit_entry");
  Res out{r ? r->registers : -1, r ? r->stack_bytes : -1, 0};
  const int threads = c.block_threads();
  out.ctas = std::min(65536 / (((out.regs + 7) / 8 * 8) * threads), 2048 / threads);
  return memo[s] = out;
}
int main() {
  for (DType dt : {DType::bf16, DType::f16})
    for (long long h = 1024; h <= 32768; h += 1024)
      for (long long rows : {512LL, 1024LL, 2048LL, 4096LL, 8192LL, 32768LL}) {
        ProblemSpec p; p.op = Op::rmsnorm; p.dtype = dt; p.weight_dtype = DType::f32; p.hidden = h; p.rows = rows;
        const KernelConfig d = choose_config(p, 8, Arch{90, 132});
        if (d.residency > 1 || d.reconvert) continue;
        KernelConfig rc;
        try {
          ConfigOverride o = parse_config_override("reconvert=1");
          ScopedConfigOverride g(&o);
          rc = choose_config(p, 8, Arch{90, 132});
        } catch (const std::exception&) { continue; }
        const Res a = res_of(d), b = res_of(rc);
        std::printf("%s %s h %5lld rows %5lld  %-52s r%3d s%3d c%2d | rc r%3d s%3d c%2d\n", b.ctas > a.ctas ? "++" : b.ctas < a.ctas ? "--" : "  ",
                    dt == DType::bf16 ? "bf16" : "f16 ", h, rows, slug(d).c_str(), a.regs, a.stack, a.ctas, b.regs, b.stack, b.ctas);
        std::fflush(stdout);
      }
}

// Session 58's two register audits (sm_90a, nvcc 13.0 NVRTC, no GPU), each default compiled once:
//   weights    an fp32 weight beside 16-bit rows against a weight of the rows' type: registers,
//              stack and the CTAs an SM the registers allow, for every default of 4 ops x
//              bf16/f16 x hidden 1024-65536 x rows (occupancy-audit.txt, via occupancy_drops.py)
//   reconvert  rmsnorm's held defaults with an fp32 weight against reconvert=1 (reconvert-audit.txt)
// Build from the repo root: g++ -std=c++17 -O1 -Isrc -Iinclude -Ikernel_templates
//   docs/results/h200-2026-12-04-s58/audits.cpp -Lbuild -lnormjit -lfmt -o audits
// and run LD_LIBRARY_PATH=build ./audits weights|reconvert.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>
#include "config_override.hpp"
#include "cubin_info.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
struct Res { int regs, stack, ctas; };
static std::map<std::string, Res> memo;
// Registers and stack a thread of c's kernel, and the CTAs an SM its registers allow (64K
// registers in allocation units of 8 a thread, at most 2048 threads).
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
static void weights() {
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

static void reconvert() {
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

int main(int argc, char** argv) {
  if (argc == 2 && !std::strcmp(argv[1], "weights")) weights();
  else if (argc == 2 && !std::strcmp(argv[1], "reconvert")) reconvert();
  else std::fprintf(stderr, "usage: audits weights|reconvert\n");
  return argc == 2 ? 0 : 2;
}

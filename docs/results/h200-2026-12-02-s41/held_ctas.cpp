// Session 41: rmsnorm's held-row kernels (residency 0-1) that the defaults give the output hint:
// CTAs an SM by registers with the hint and without it (the same config, keep_out off).
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
#include "cubin_info.hpp"
#include "prelude.hpp"
using namespace normjit; using namespace normjit::detail;
int ctas(int regs, int threads) {
  const int per_warp = (regs + 7) / 8 * 256, warps = threads / 32;
  return std::min(2048 / threads, (65536 / per_warp) / warps);
}
int main() {
  std::set<std::string> seen;
  for (DType dt : {DType::bf16, DType::f16, DType::f32})
    for (long h = 256; h <= 32768; h += 256)
      for (long mib : {32l, 48l, 64l, 96l, 128l, 192l, 255l, 384l, 512l}) {
        long es = dt == DType::f32 ? 4 : 2;
        ProblemSpec p; p.op = Op::rmsnorm; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = ((mib << 20) + h * es - 1) / (h * es);
        KernelConfig c = choose_config(p, 0, Arch{90});
        if (c.residency >= 2 || !c.keep_out || c.cluster != 1 || c.split != 1 || !seen.insert(slug(c)).second) continue;
        KernelConfig n = c; n.keep_out = false;
        auto a = kernel_resources(compile(c).bytes, kEntryName), b = kernel_resources(compile(n).bytes, kEntryName);
        const int t = c.block_threads();
        const int ca = ctas(a->registers, t), cb = ctas(b->registers, t);
        printf("%s %s t%d regs %d/%d stack %d/%d ctas %d/%d\n", ca < cb ? "LOSS" : "ok", slug(c).c_str(), t, a->registers, b->registers, a->stack_bytes, b->stack_bytes, ca, cb);
      }
}

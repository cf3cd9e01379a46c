// Session 40: rmsnorm's held-row kernels with the output hint (K) and without it (N), as cubins in
// /tmp/regs3 (keep-registers-held.txt); built like keep_registers.cpp.
#include <cstdio>
#include <fstream>
#include <set>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
using namespace normjit;
using namespace normjit::detail;
int main() {
  std::set<std::string> seen;
  for (long h = 128; h <= 32768; h += (h < 1024 ? 128 : 512))
    for (DType dt : {DType::bf16, DType::f32})
      for (long mib : {49l, 96l, 160l, 255l, 1024l}) {
        long es = dt == DType::f32 ? 4 : 2;
        ProblemSpec p; p.op = Op::rmsnorm; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = (mib << 20) / (h * es);
        KernelConfig c = choose_config(p, 0, Arch{90});
        if (c.residency >= 2 || !c.keep_out) continue;
        if (!seen.insert(slug(c)).second) continue;
        std::ofstream(std::string("/tmp/regs3/") + slug(c) + ".K.cubin", std::ios::binary) << compile(c).bytes;
        KernelConfig u = c; u.keep_out = false;
        std::ofstream(std::string("/tmp/regs3/") + slug(c) + ".N.cubin", std::ios::binary) << compile(u).bytes;
      }
}

// Session 40: rmsnorm's re-read kernels with the output hint, with and without the occupancy floor,
// as cubins in /tmp/regs2 (keep-registers.txt). Built against build/libnormjit.so:
//   g++ -std=c++17 -Isrc -Iinclude -I/usr/local/cuda/include keep_registers.cpp -Lbuild -lnormjit
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
  for (long h = 1024; h <= 32768; h += 256)
    for (DType dt : {DType::bf16, DType::f16, DType::f32})
      for (long mib : {64l, 96l, 128l, 192l, 255l}) {
        long es = dt == DType::f32 ? 4 : 2;
        ProblemSpec p; p.op = Op::rmsnorm; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = (mib << 20) / (h * es) ;
        KernelConfig c = choose_config(p, 0, Arch{90});
        if (c.residency != 2 || !c.keep_out) continue;
        if (!seen.insert(slug(c)).second) continue;
        std::ofstream(std::string("/tmp/regs2/") + slug(c) + ".F.cubin", std::ios::binary) << compile(c).bytes;
        KernelConfig u = c; u.min_blocks = 0;
        // U: the same kernel without any floor (also where the heuristic sets one of its own)
        std::ofstream(std::string("/tmp/regs2/") + slug(c) + ".U.cubin", std::ios::binary) << compile(u).bytes;
      }
}

// Session 41: rmsnorm's re-read kernels (residency 2) forced to the output hint, no floor, as cubins
// in argv[1] -- run once per template set (NORMJIT_TEMPLATE_DIR) and compare registers.
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
using namespace normjit;
using namespace normjit::detail;
int main(int argc, char** argv) {
  std::string dir = argv[1];
  std::set<std::string> seen;
  for (long h = 1024; h <= 32768; h += 512)
    for (DType dt : {DType::bf16, DType::f16, DType::f32})
      for (long mib : {64l, 128l, 255l, 512l}) {
        long es = dt == DType::f32 ? 4 : 2;
        ProblemSpec p; p.op = Op::rmsnorm; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = (mib << 20) / (h * es);
        KernelConfig c = choose_config(p, 0, Arch{90});
        if (c.residency != 2) continue;
        c.keep_out = true; c.min_blocks = 0;
        if (!seen.insert(slug(c)).second) continue;
        std::ofstream(dir + "/" + slug(c) + ".cubin", std::ios::binary) << compile(c).bytes;
      }
}

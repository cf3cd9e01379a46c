// Session 41: rmsnorm's re-read kernels of > 2.5 vectors a thread in the output hint's byte window
// (64-255 MiB), by dtype and hidden: their load policy, and (cubins in argv[1]) the kernel with the
// hint forced and no floor. Run once per template set.
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
using namespace normjit;
using namespace normjit::detail;
int main(int argc, char** argv) {
  std::string dir = argv[1];
  std::map<std::string, std::string> seen;
  for (DType dt : {DType::bf16, DType::f16, DType::f32})
    for (long h = 1024; h <= 65536; h += 256)
      for (long mib = 64; mib < 256; mib += 8) {
        long es = dt == DType::f32 ? 4 : 2;
        ProblemSpec p; p.op = Op::rmsnorm; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = (mib << 20) / (h * es);
        KernelConfig c = choose_config(p, 0, Arch{90});
        if (c.residency != 2 || c.cluster != 1 || c.split != 1) continue;
        long rv = h / c.vec;
        if (2 * rv <= 5 * c.block_threads()) continue;
        c.keep_out = true; c.min_blocks = 0;
        std::string s = slug(c);
        if (!seen.count(s)) {
          std::ofstream(dir + "/" + s + ".cubin", std::ios::binary) << compile(c).bytes;
          seen[s] = "";
        }
        printf("%s %ld %ld loads=%d %s\n", std::string(dtype_name(dt)).c_str(), h, mib, c.loads, s.c_str());
      }
}

// Session 41: every rmsnorm kernel the heuristic picks with the output hint on a re-read row
// (residency 2), 64-255 MiB, hidden 256-65536: cubins in argv[1]. Run once per template set.
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
  for (DType dt : {DType::bf16, DType::f16, DType::f32})
    for (long h = 256; h <= 65536; h += 256)
      for (long mib = 64; mib < 256; mib += 8) {
        long es = dt == DType::f32 ? 4 : 2;
        ProblemSpec p; p.op = Op::rmsnorm; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = (mib << 20) / (h * es);
        KernelConfig c = choose_config(p, 0, Arch{90});
        if (c.residency != 2 || !c.keep_out) continue;
        std::string s = slug(c);
        if (seen.insert(s).second) std::ofstream(dir + "/" + s + ".cubin", std::ios::binary) << compile(c).bytes;
      }
}

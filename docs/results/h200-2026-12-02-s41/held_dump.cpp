// Session 41: every held-row or rows-a-thread rmsnorm kernel (residency 0-1) the defaults give the
// output hint, as cubins in argv[1]; run once per template set to compare SASS.
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
using namespace normjit; using namespace normjit::detail;
int main(int argc, char** argv) {
  std::string dir = argv[1];
  std::set<std::string> seen;
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm})
  for (DType dt : {DType::bf16, DType::f16, DType::f32})
    for (long h = 64; h <= 65536; h += 64)
      for (long mib : {32l, 48l, 64l, 96l, 128l, 192l, 255l, 384l, 512l}) {
        long es = dt == DType::f32 ? 4 : 2;
        ProblemSpec p; p.op = op; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = ((mib << 20) + h * es - 1) / (h * es);
        KernelConfig c = choose_config(p, 0, Arch{90});
        if (!c.keep_out || !seen.insert(slug(c)).second) continue;
        std::ofstream(dir + "/" + slug(c) + ".cubin", std::ios::binary) << compile(c).bytes;
      }
  printf("%zu\n", seen.size());
}

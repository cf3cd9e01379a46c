// Session 43: registers / stack of every staged (residency 3-4) default of rmsnorm's family on
// sm_90a, hidden 4096-262144 (steps of 4096 to 65536, then the wide sizes), 1-16384 rows, every op,
// activation and weight dtype, with the templates of NORMJIT_TEMPLATE_DIR (or the embedded ones).
#include <cstdio>
#include <set>
#include <string>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
#include "cubin_info.hpp"
using namespace normjit;
using namespace normjit::detail;
int main() {
  std::set<std::string> seen;
  std::vector<long> hs;
  for (long h = 32768; h <= 262144; h += 8192) hs.push_back(h); hs.push_back(36864);
  
  for (Op op : all_ops())
    for (DType dt : {DType::bf16, DType::f16, DType::f32})
      for (DType wt : {dt, DType::f32})
        for (long h : hs)
          for (long rows : {1024L, 4096L}) {
            ProblemSpec p; p.op = op; p.dtype = dt; p.weight_dtype = wt; p.hidden = h; p.rows = rows;
            KernelConfig c = choose_config(p, 0, Arch{90});
            if (c.residency < 3 || !seen.insert(slug(c)).second) continue;
            Binary b = compile(c);
            auto r = kernel_resources(b.bytes, "normjit_entry");
            std::printf("%-80s regs %d stack %d\n", slug(c).c_str(), r ? r->registers : -1, r ? r->stack_bytes : -1);
          }
}

// Session 51 (CPU): the slug and an FNV-1a hash of the cubin of each stdin problem "op dtype hidden rows"
// (sm_90a); run once with this tree's templates and once with NORMJIT_TEMPLATE_DIR at 4c3b7f6's.
#include <cstdio>
#include <iostream>
#include <string>
#include "config_override.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
// stdin: "op dtype hidden rows"; prints slug and an FNV hash of the cubin.
int main() {
  std::string op, dt; long long h, r;
  while (std::cin >> op >> dt >> h >> r) {
    ProblemSpec p;
    p.op = op == "rmsnorm" ? Op::rmsnorm : op == "gemma_rmsnorm" ? Op::gemma_rmsnorm : Op::fused_add_rmsnorm;
    p.dtype = p.weight_dtype = dt == "bf16" ? DType::bf16 : dt == "f16" ? DType::f16 : DType::f32;
    p.hidden = h; p.rows = r;
    KernelConfig c = choose_config(p, 8, Arch{90, 132});
    auto bytes = compile(c).bytes;
    unsigned long long f = 1469598103934665603ull;
    for (unsigned char b : bytes) { f ^= b; f *= 1099511628211ull; }
    std::printf("%-70s %zu %016llx\n", slug(c).c_str(), bytes.size(), f);
  }
}

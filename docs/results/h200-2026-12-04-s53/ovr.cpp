// The default's full override text for shapes: "op dtype rows hidden" lines on stdin.
#include <cstdio>
#include <iostream>
#include "config_override.hpp"
#include "kernel_config.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
int main() {
  std::string op, dt; long long r, h;
  while (std::cin >> op >> dt >> r >> h) {
    ProblemSpec p;
    p.op = op == "rmsnorm" ? Op::rmsnorm : op == "gemma_rmsnorm" ? Op::gemma_rmsnorm : op == "gemma_fused_add_rmsnorm" ? Op::gemma_fused_add_rmsnorm : Op::fused_add_rmsnorm;
    p.dtype = p.weight_dtype = dt == "bf16" ? DType::bf16 : dt == "f16" ? DType::f16 : DType::f32;
    p.hidden = h; p.rows = r;
    std::printf("%s %s %lld %lld %s\n", op.c_str(), dt.c_str(), r, h, config_override_text(choose_config(p, 8, Arch{90, 132})).c_str());
  }
}

// Write the cubin of one rmsnorm-family config (op dtype hidden rows cfg) to argv[1].
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include "config_override.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
int main(int argc, char** argv) {
  std::string op, dt, cfg; long long h, r;
  std::cin >> op >> dt >> h >> r >> cfg;
  ProblemSpec p;
  p.op = op == "rmsnorm" ? Op::rmsnorm : Op::fused_add_rmsnorm;
  p.dtype = p.weight_dtype = dt == "bf16" ? DType::bf16 : dt == "f16" ? DType::f16 : DType::f32;
  p.hidden = h; p.rows = r;
  KernelConfig c;
  if (cfg == "default") c = choose_config(p, 8, Arch{90, 132});
  else { ConfigOverride o = parse_config_override(cfg); ScopedConfigOverride g(&o); c = choose_config(p, 8, Arch{90, 132}); }
  Binary b = compile(c);
  std::ofstream(argv[1], std::ios::binary).write(reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size());
  std::printf("%s\n", slug(c).c_str());
}

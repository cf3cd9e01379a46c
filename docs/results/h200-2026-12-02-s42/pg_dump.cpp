// Session 42: writes the cubins of one staged config with and without the persistent grid.
#include <cstdio>
#include <fstream>
#include <string>
#include "op_registry.hpp"
#include "nvrtc_compiler.hpp"
#include "kernel_config.hpp"
#include "config_override.hpp"
using namespace normjit;
using namespace normjit::detail;
int main(int argc, char** argv) {
  ProblemSpec p; p.op = Op::fused_add_rmsnorm; p.dtype = p.weight_dtype = DType::bf16; p.hidden = std::atol(argv[1]); p.rows = 1024;
  for (int pg : {0, 1}) {
    ConfigOverride o = parse_config_override(argc > 2 ? argv[2] : "residency=3");
    o.persistent = pg;
    ScopedConfigOverride so(&o);
    KernelConfig c = choose_config(p, 0, Arch{90});
    std::ofstream(std::string("/tmp/pg") + std::to_string(pg) + ".cubin", std::ios::binary) << compile(c).bytes;
    std::printf("%s\n", slug(c).c_str());
  }
}

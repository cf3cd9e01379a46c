// Writes the cubins of forced configs for scripts/sass.sh (a 64-byte blank header, then the
// cubin, named by slug): stdin lines "op dtype wdtype hidden rows cfg|default", argv[1] the dir.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include "config_override.hpp"
#include "cubin_info.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
using namespace normjit; using namespace normjit::detail;
static DType dt_of(const std::string& s) { return s == "bf16" ? DType::bf16 : s == "f16" ? DType::f16 : DType::f32; }
int main(int argc, char** argv) {
  std::string op, dt, wdt, cfg; long long h, r;
  while (std::cin >> op >> dt >> wdt >> h >> r >> cfg) {
    ProblemSpec p;
    p.op = op == "rmsnorm" ? Op::rmsnorm : op == "gemma_rmsnorm" ? Op::gemma_rmsnorm
         : op == "gemma_fused_add_rmsnorm" ? Op::gemma_fused_add_rmsnorm : Op::fused_add_rmsnorm;
    p.dtype = dt_of(dt); p.weight_dtype = dt_of(wdt);
    p.hidden = h; p.rows = r;
    KernelConfig c;
    if (cfg == "default") c = choose_config(p, 8, Arch{90, 132});
    else { ConfigOverride o = parse_config_override(cfg); ScopedConfigOverride g(&o); c = choose_config(p, 8, Arch{90, 132}); }
    auto bytes = compile(c).bytes;
    auto res = kernel_resources(bytes, "normjit_entry");
    std::string name = std::string(argv[1]) + "/" + slug(c) + ".cubin";
    std::ofstream f(name, std::ios::binary);
    std::string hdr(64, '\0'); f << hdr; f.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    std::printf("%s %lld %lld %-60s regs %3d stack %3d\n", op.c_str(), h, r, slug(c).c_str(),
                res ? res->registers : -1, res ? res->stack_bytes : -1);
    std::fflush(stdout);
  }
}

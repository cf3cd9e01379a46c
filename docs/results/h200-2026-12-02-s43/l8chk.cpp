// Session 43: lead 8 candidates: slug, why not valid, smem, CTAs/SM by smem, regs/stack on sm_90.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "config_override.hpp"
#include "cubin_info.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
#include "kernel_config.hpp"
using namespace normjit; using namespace normjit::detail;
int main(int argc, char** argv) {
  // l8chk OP HIDDEN ROWS "cfg;cfg;..."
  ProblemSpec p; std::string op = argv[1];
  p.op = op == "rmsnorm" ? Op::rmsnorm : Op::fused_add_rmsnorm;
  p.dtype = p.weight_dtype = argc > 5 && std::string(argv[5]) == "fp32" ? DType::f32 : DType::bf16;
  p.hidden = std::atoll(argv[2]); p.rows = std::atoll(argv[3]);
  std::string all = argv[4];
  size_t pos = 0;
  while (pos <= all.size()) {
    size_t e = all.find(';', pos); if (e == std::string::npos) e = all.size();
    std::string t = all.substr(pos, e - pos); pos = e + 1;
    KernelConfig c;
    try {
      if (t == "default") c = choose_config(p, 8, Arch{90});
      else { ConfigOverride o = parse_config_override(t); ScopedConfigOverride g(&o); c = choose_config(p, 8, Arch{90}); }
    } catch (const std::exception& ex) { std::printf("%-40s ERR %s\n", t.c_str(), ex.what()); continue; }
    std::string why = staged(c) ? staged_unsupported(c) : "";
    std::string res = "-";
    if (why.empty()) {
      try { Binary b = compile(c); auto r = kernel_resources(b.bytes, "normjit_entry");
        res = r ? std::to_string(r->registers) + "r/" + std::to_string(r->stack_bytes) + "s" : "?"; } catch (const std::exception& ex) { res = std::string("COMPILE ") + ex.what(); }
    }
    std::printf("%-40s %-70s smem=%lld ctas=%d minb=%d %s %s\n", t.c_str(), slug(c).c_str(), (long long)staged_smem_bytes(c), staged_ctas_per_sm(c), c.min_blocks, res.c_str(), why.c_str());
  }
}

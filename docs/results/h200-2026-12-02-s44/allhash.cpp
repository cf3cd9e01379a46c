// Session 44: a hash of the cubin (sm_90) of every default of the rmsnorm family over a spread of
// shapes, under $NORMJIT_TEMPLATE_DIR: which kernels a template change touches.
#include <atomic>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
#include "kernel_config.hpp"
using namespace normjit; using namespace normjit::detail;
int main() {
  std::set<std::string> seen; std::vector<KernelConfig> jobs;
  for (Op op : all_ops())
    for (DType dt : {DType::bf16, DType::f32})
      for (long h : {128L, 1000L, 2048L, 3072L, 4096L, 5120L, 7168L, 8192L, 10240L, 13824L, 16384L, 24576L, 32768L, 36864L, 45056L, 65536L, 73728L, 98304L, 131072L, 139264L, 196608L, 204800L, 237568L, 262144L})
        for (long r : {1L, 128L, 1024L, 8192L, 32768L}) {
          if (h * r > (1L << 31)) continue;
          ProblemSpec p; p.op = op; p.dtype = p.weight_dtype = dt; p.hidden = h; p.rows = r;
          KernelConfig c;
          try { c = choose_config(p, 8, Arch{90, 132}); } catch (...) { continue; }
          if (seen.insert(slug(c)).second) jobs.push_back(c);
        }
  std::vector<std::string> out(jobs.size()); std::atomic<size_t> next{0};
  auto work = [&] { for (size_t i = next++; i < jobs.size(); i = next++) {
    try { Binary b = compile(jobs[i]); char buf[300]; std::snprintf(buf, sizeof buf, "%s %zx", slug(jobs[i]).c_str(), std::hash<std::string>{}(b.bytes)); out[i] = buf; }
    catch (const std::exception& e) { out[i] = slug(jobs[i]) + " FAILED"; } } };
  std::thread t(work); work(); t.join();
  for (auto& s : out) std::printf("%s\n", s.c_str());
}

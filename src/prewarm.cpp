// Compile-only path: problems -> configs -> disk cache, in parallel, no GPU needed.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <unordered_set>

#include "heuristics.hpp"
#include "normjit/errors.hpp"
#include "normjit/runtime.hpp"
#include "op_registry.hpp"
#include "runtime.hpp"

namespace normjit {

std::vector<PrewarmItem> prewarm(const std::vector<ProblemSpec>& problems, const std::string& arch,
                                 int jobs) {
  using namespace detail;
  Runtime& rt = Runtime::get();
  const Arch a = arch.empty() ? rt.device_arch(0) : Arch::parse(arch);

  std::vector<KernelConfig> configs;
  std::unordered_set<KernelConfig, KernelConfigHasher> seen;
  for (const ProblemSpec& p : problems) {
    const OpInfo& info = op_info(p.op);
    if (p.rank3 && !info.allows_rank3) {
      throw ValidationError(ValidationError::Kind::InvalidArgument,
                            fmt::format("normjit: prewarm: {} has no per-head (rank3) form",
                                        info.name));
    }
    if (p.weight_dtype != p.dtype && p.weight_dtype != DType::f32) {
      throw ValidationError(ValidationError::Kind::InvalidArgument,
                            fmt::format("normjit: prewarm: weight dtype must be {} or f32, got {}",
                                        dtype_name(p.dtype), dtype_name(p.weight_dtype)));
    }
    if (p.dtype != DType::bf16 && p.dtype != DType::f16 && p.dtype != DType::f32) {
      throw ValidationError(ValidationError::Kind::InvalidArgument,
                            fmt::format("normjit: prewarm: {} takes bf16, f16 or f32 activations, "
                                        "got {}",
                                        info.name, dtype_name(p.dtype)));
    }
    const KernelConfig c = choose_config(p, p.max_vec, a);
    if (seen.insert(c).second) configs.push_back(c);
  }

  std::vector<PrewarmItem> items(configs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < configs.size(); i = next++) {
      PrewarmItem& it = items[i];
      it.slug = slug(configs[i]);
      it.key = cache_key(configs[i]).hex();
      const auto t0 = std::chrono::steady_clock::now();
      try {
        CacheOutcome outcome;
        rt.binary(configs[i], &outcome, /*explicit_build=*/true);
        it.compiled = outcome == CacheOutcome::Compiled;
      } catch (const std::exception& e) {
        it.error = e.what();
      }
      it.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
  };
  int n = jobs > 0 ? jobs : int(std::max(1u, std::thread::hardware_concurrency()));
  n = int(std::min<size_t>(size_t(n), std::max<size_t>(1, configs.size())));
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return items;
}

}  // namespace normjit

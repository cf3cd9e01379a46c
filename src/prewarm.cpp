// Compile-only path: problems -> configs -> disk cache, in parallel, no GPU needed.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "cuda_driver.hpp"
#include "heuristics.hpp"
#include "normjit/errors.hpp"
#include "normjit/runtime.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
#include "runtime.hpp"

namespace normjit {
namespace {

using namespace detail;

void check_problem(const ProblemSpec& p) {
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
}

// The archs of the visible GPUs, each once per SM count (the heuristics read it; the kernels
// several GPUs share are built once, prewarm's config set removes repeats).
std::vector<Arch> detected_archs() {
  if (!driver_available()) {
    throw CudaError(-1, fmt::format("normjit: prewarm: no arch given and the CUDA driver is not "
                                    "usable ({}); name the target instead, e.g. sm_90 (CLI: "
                                    "--arch sm_90)",
                                    driver_unavailable_reason()));
  }
  int n = 0;
  check(driver().cuDeviceGetCount(&n), "cuDeviceGetCount");
  if (n == 0) {
    throw CudaError(-1, "normjit: prewarm: no arch given and no CUDA GPU is visible; name the "
                        "target instead, e.g. sm_90 (CLI: --arch sm_90)");
  }
  std::vector<Arch> out;
  for (int i = 0; i < n && i < kMaxDevices; ++i) {
    const Arch a = Runtime::get().device_arch(i);
    if (std::none_of(out.begin(), out.end(), [&](const Arch& b) { return b.same_device(a); })) out.push_back(a);
  }
  return out;
}

std::vector<Arch> parse_archs(const std::string& list) {
  if (list.empty()) return detected_archs();
  std::vector<Arch> out;
  auto add = [&out](Arch a) {
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  };
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) continue;
    if (item == "all") {
      for (int cc : nvrtc_supported_archs())
        if (cc >= 80) add(Arch{cc});
    } else {
      add(Arch::parse(item));
    }
  }
  if (out.empty()) {
    throw ValidationError(ValidationError::Kind::InvalidArgument,
                          fmt::format("normjit: prewarm: arch: expected a comma list such as "
                                      "sm_80,sm_90 (or all), got '{}'",
                                      list));
  }
  return out;
}

// Why a compiled kernel did not reach the disk.
std::string not_stored_reason(const DiskCache& d) {
  if (d.dir().empty()) return "there is no cache directory (set NORMJIT_CACHE_DIR)";
  return fmt::format("the cache {} is not writable or full", d.dir().string());
}

}  // namespace

std::vector<PrewarmItem> prewarm(const std::vector<ProblemSpec>& problems, const std::string& arch,
                                 int jobs) {
  PrewarmOptions o;
  o.arch = arch;
  o.jobs = jobs;
  return prewarm(problems, o);
}

std::vector<PrewarmItem> prewarm(const std::vector<ProblemSpec>& problems,
                                 const PrewarmOptions& opts) {
  for (const ProblemSpec& p : problems) check_problem(p);
  const std::vector<Arch> archs = parse_archs(opts.arch);

  std::vector<KernelConfig> configs;
  std::unordered_set<KernelConfig, KernelConfigHasher> seen;
  for (const Arch& a : archs) {
    for (const ProblemSpec& p : problems) {
      for (const KernelConfig& c : configs_for(p, a))
        if (seen.insert(c).second) configs.push_back(c);
    }
  }

  std::vector<PrewarmItem> items(configs.size());
  std::atomic<size_t> next{0};
  std::mutex progress_mu;
  size_t done = 0;
  auto report = [&](const PrewarmItem& it) {
    std::lock_guard<std::mutex> lock(progress_mu);
    ++done;
    if (!opts.progress) return;
    try {
      opts.progress(it, done, items.size());
    } catch (...) {
      // A reporting problem must not abort the prewarm.
    }
  };
  // A dry run looks through a read-only view of the same caches, so that it creates nothing.
  std::unique_ptr<DiskCache> probe;
  if (opts.dry_run) {
    DiskCache::Options o;
    o.root = cache_root_from_env();
    o.prebuilt_roots = prebuilt_roots_from_env();
    o.create = false;
    std::string fp;
    try {
      fp = toolchain_fingerprint();
    } catch (const std::exception&) {
      fp = "nvrtc-unavailable";
    }
    probe = std::make_unique<DiskCache>(o, fp);
  }
  DiskCache& disk = probe ? *probe : Runtime::get().disk();
  auto worker = [&] {
    for (size_t i = next++; i < configs.size(); i = next++) {
      const KernelConfig& c = configs[i];
      PrewarmItem& it = items[i];
      it.slug = slug(c);
      it.key = cache_key(c).hex();
      it.arch = c.arch.target();
      const auto t0 = std::chrono::steady_clock::now();
      try {
        if (opts.dry_run) {
          const auto loc = disk.find(c);
          it.cached = loc.has_value();
          it.prebuilt = loc && loc->prebuilt;
        } else {
          CacheOutcome outcome;
          Runtime::get().binary(c, &outcome, /*explicit_build=*/true);
          it.compiled = outcome == CacheOutcome::Compiled;
          // Read back what the cache holds now: a compile that was not stored (read-only or
          // full disk) leaves nothing for later processes, so it counts as a failure.
          const auto loc = disk.find(c);
          it.cached = !it.compiled;
          it.prebuilt = loc && loc->prebuilt;
          if (!loc) {
            it.error = fmt::format("normjit: prewarm: {} was compiled but not stored: {}",
                                   it.slug, not_stored_reason(disk));
          }
        }
      } catch (const std::exception& e) {
        it.error = e.what();
      }
      it.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      report(it);
    }
  };
  int n = opts.jobs > 0 ? opts.jobs : int(std::max(1u, std::thread::hardware_concurrency()));
  n = int(std::min<size_t>(size_t(n), std::max<size_t>(1, configs.size())));
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return items;
}

}  // namespace normjit

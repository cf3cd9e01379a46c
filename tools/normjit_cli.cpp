// `normjit`: inspect the installation and prewarm the kernel cache (works without a GPU).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench.hpp"
#include "manifest.hpp"
#include "normjit/normjit.hpp"

namespace {

using namespace normjit;

template <class T, class Parse>
std::vector<T> split_list(const std::vector<std::string>& args, const char* what, Parse parse) {
  std::vector<T> out;
  for (const std::string& a : args) {
    std::stringstream ss(a);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (item.empty()) continue;
      T v;
      if (!parse(item, &v)) throw CLI::ValidationError(fmt::format("--{}: unknown value '{}'", what, item));
      out.push_back(v);
    }
  }
  return out;
}

int cmd_info(bool as_json) {
  const SystemInfo s = system_info();
  if (as_json) {
    nlohmann::json gpus = nlohmann::json::array();
    for (const GpuInfo& g : s.gpus)
      gpus.push_back({{"ordinal", g.ordinal}, {"name", g.name}, {"arch", g.arch}, {"target", g.target}});
    nlohmann::json j = {
        {"version", s.version},         {"driver", s.driver},
        {"driver_error", s.driver_error}, {"driver_version", s.driver_version},
        {"gpus", gpus},                 {"nvrtc_version", s.nvrtc_version},
        {"nvrtc_error", s.nvrtc_error}, {"nvrtc_archs", s.nvrtc_archs},
        {"templates", s.templates},     {"template_hash", s.template_hash},
        {"cache_root", s.cache.root},   {"cache_fingerprint", s.cache.fingerprint},
        {"cache_writable", s.cache.writable}, {"offline", s.cache.offline},
    };
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("normjit {}\n", s.version);
  if (s.driver) {
    fmt::print("driver:      CUDA {}.{}\n", s.driver_version / 1000, s.driver_version % 1000 / 10);
  } else {
    fmt::print("driver:      not available ({})\n", s.driver_error);
  }
  if (s.gpus.empty()) fmt::print("gpus:        none\n");
  for (const GpuInfo& g : s.gpus)
    fmt::print("gpu {}:       {} ({}, kernels built for {})\n", g.ordinal, g.name, g.arch, g.target);
  if (s.nvrtc_version.empty()) {
    fmt::print("nvrtc:       not available ({})\n", s.nvrtc_error);
  } else {
    fmt::print("nvrtc:       {} (targets {})\n", s.nvrtc_version, fmt::join(s.nvrtc_archs, " "));
  }
  fmt::print("templates:   {} (hash {})\n", s.templates, s.template_hash);
  fmt::print("cache root:  {}{}{}\n", s.cache.root.empty() ? "(memory only)" : s.cache.root,
             s.cache.writable ? "" : " [read-only]", s.cache.offline ? " [offline]" : "");
  fmt::print("fingerprint: {}\n", s.cache.fingerprint);
  return 0;
}

struct PrewarmArgs {
  std::string manifest;
  std::vector<std::string> arch, ops, dtypes, weight_dtypes, hidden;
  bool rank3 = false;
  int max_vec = 0;
  int jobs = 0;
  bool dry_run = false;
  bool as_json = false;
};

int cmd_prewarm(const PrewarmArgs& a) {
  std::vector<ProblemSpec> problems;
  if (!a.manifest.empty()) problems = tools::load_manifest(a.manifest).problems;
  if (!a.ops.empty() || !a.hidden.empty()) {
    if (a.ops.empty() || a.hidden.empty())
      throw CLI::ValidationError("prewarm: --op and --hidden go together (and --dtype, default bf16)");
    const auto ops = split_list<Op>(a.ops, "op", [](const std::string& s, Op* o) { return parse_op(s, o); });
    auto dts = split_list<DType>(a.dtypes, "dtype", [](const std::string& s, DType* d) { return parse_dtype(s, d); });
    if (dts.empty()) dts = {DType::bf16};
    const auto wdts = split_list<DType>(a.weight_dtypes, "weight-dtype",
                                        [](const std::string& s, DType* d) { return parse_dtype(s, d); });
    const auto hidden = split_list<std::int64_t>(a.hidden, "hidden", [](const std::string& s, std::int64_t* h) {
      char* end = nullptr;
      *h = std::strtoll(s.c_str(), &end, 10);
      return end && *end == '\0' && *h > 0;
    });
    for (const ProblemSpec& p : tools::expand(ops, dts, wdts, hidden, a.rank3, a.max_vec)) problems.push_back(p);
  }
  if (problems.empty()) throw CLI::ValidationError("prewarm: give --manifest, or --op/--dtype/--hidden");
  std::vector<std::string> archs = split_list<std::string>(
      a.arch, "arch", [](const std::string& s, std::string* o) { *o = s; return true; });
  if (archs.empty()) archs.push_back("");  // the detected GPU

  if (a.dry_run) {
    for (const std::string& arch : archs)
      for (const ProblemSpec& p : problems)
        fmt::print("{} {} dtype={} weight={} hidden={}{}\n", arch.empty() ? "detected" : arch,
                   op_name(p.op), dtype_name(p.dtype), dtype_name(p.weight_dtype), p.hidden,
                   p.rank3 ? " rank3" : "");
    return 0;
  }
  const auto t0 = std::chrono::steady_clock::now();
  int compiled = 0, cached = 0, failed = 0;
  nlohmann::json report = nlohmann::json::array();
  for (const std::string& arch : archs) {
    for (const PrewarmItem& it : prewarm(problems, arch, a.jobs)) {
      if (!it.error.empty()) {
        ++failed;
        if (!a.as_json) fmt::print("failed    {}: {}\n", it.slug, it.error);
      } else if (it.compiled) {
        ++compiled;
        if (!a.as_json) fmt::print("compiled  {}  ({:.0f} ms)\n", it.slug, it.millis);
      } else {
        ++cached;
        if (!a.as_json) fmt::print("cached    {}\n", it.slug);
      }
      report.push_back({{"slug", it.slug}, {"key", it.key}, {"compiled", it.compiled},
                        {"millis", it.millis}, {"error", it.error}});
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const CacheInfo ci = cache_info();
  if (a.as_json) {
    fmt::print("{}\n", nlohmann::json({{"items", report}, {"compiled", compiled}, {"cached", cached},
                                       {"failed", failed}, {"seconds", secs},
                                       {"cache_root", ci.root}})
                           .dump(2));
  } else {
    fmt::print("prewarm: {} kernels: {} compiled, {} already cached, {} failed in {:.2f} s (cache {})\n",
               compiled + cached + failed, compiled, cached, failed, secs,
               ci.root.empty() ? "memory only" : ci.root);
  }
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"normjit: JIT-compiled normalization kernels (info, cache prewarm)"};
  app.require_subcommand(1);
  std::string cache_dir;
  app.add_option("--cache-dir", cache_dir, "Cache root (default: $NORMJIT_CACHE_DIR, "
                                           "$XDG_CACHE_HOME/normjit, ~/.cache/normjit)");

  bool info_json = false;
  CLI::App* info = app.add_subcommand("info", "Driver, GPUs, NVRTC, templates and cache root");
  info->add_flag("--json", info_json, "Machine-readable output");

  PrewarmArgs pa;
  CLI::App* pw = app.add_subcommand("prewarm", "Compile kernels into the disk cache (no GPU needed)");
  pw->add_option("--manifest", pa.manifest, "Manifest file or bundled manifest name");
  pw->add_option("--arch", pa.arch, "Target GPUs, comma list (sm_80, sm_90, sm_100 ...; default: detected)");
  pw->add_option("--op", pa.ops, "Ops, comma list");
  pw->add_option("--dtype", pa.dtypes, "Activation dtypes, comma list (default bf16)");
  pw->add_option("--weight-dtype", pa.weight_dtypes, "Weight dtypes (default: the activation dtype)");
  pw->add_option("--hidden", pa.hidden, "Hidden sizes (head dims with --rank3), comma list");
  pw->add_flag("--rank3", pa.rank3, "Per-head [batch, heads, head_dim] inputs with non-uniform row spacing");
  pw->add_option("--max-vec", pa.max_vec, "Cap the vector width (elements), for misaligned tensors");
  pw->add_option("-j,--jobs", pa.jobs, "Parallel compiles (default: all cores)");
  pw->add_flag("--dry-run", pa.dry_run, "List the problems without compiling");
  pw->add_flag("--json", pa.as_json, "Machine-readable report");
  tools::BenchArgs ba;
  bool latency = false;
  CLI::App* bench = app.add_subcommand("bench", "Time ops on the GPU against a device copy (validates first)");
  bench->add_option("--op", ba.ops, "Ops, comma list")->capture_default_str();
  bench->add_option("--dtype", ba.dtypes, "Dtypes, comma list")->capture_default_str();
  bench->add_option("--tokens", ba.tokens, "Token (row) counts, comma list")->capture_default_str();
  bench->add_option("--hidden", ba.hidden, "Hidden sizes, comma list")->capture_default_str();
  bench->add_option("--reps", ba.reps, "Samples per shape")->capture_default_str();
  bench->add_flag("!--no-pdl", ba.pdl, "Launch without programmatic dependent launch");
  bench->add_option("--config", ba.config, "Force config fields: tpr=N,rpb=N,vec=N,residency=0|1|2,persistent=0|1");
  bench->add_flag("--sweep", ba.sweep, "Time every valid threads-per-row x residency per shape");
  bench->add_flag("--latency", latency,
                  "First-call (cold/disk) latency, host cost per call, per-launch time in a graph");
  for (CLI::App* sub : {info, pw, bench})
    sub->add_option("--cache-dir", cache_dir, "Cache root");

  CLI11_PARSE(app, argc, argv);
  if (!cache_dir.empty()) setenv("NORMJIT_CACHE_DIR", cache_dir.c_str(), 1);
  try {
    if (info->parsed()) return cmd_info(info_json);
    if (pw->parsed()) return cmd_prewarm(pa);
    if (bench->parsed()) return latency ? tools::run_latency() : tools::run_bench(ba);
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    fmt::print(stderr, "{}{}\n", msg.rfind("normjit", 0) == 0 ? "" : "normjit: error: ", msg);
    return 2;
  }
  return 0;
}

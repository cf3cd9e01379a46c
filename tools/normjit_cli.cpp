// `normjit`: inspect the installation, prewarm and maintain the kernel cache (works without a GPU).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "arch.hpp"
#include "bench.hpp"
#include "cache_cmd.hpp"
#include "cli_lists.hpp"
#include "kernel_config.hpp"
#include "manifest.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
#include "normjit/normjit.hpp"

namespace {

using namespace normjit;
using nlohmann::json;
using tools::parse_positive;
using tools::split_list;

int cmd_info(bool as_json) {
  const SystemInfo s = system_info();
  if (as_json) {
    nlohmann::json gpus = nlohmann::json::array();
    for (const GpuInfo& g : s.gpus)
      gpus.push_back({{"ordinal", g.ordinal}, {"name", g.name}, {"arch", g.arch}, {"target", g.target}, {"sms", g.sms}});
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
    fmt::print("gpu {}:       {} ({}, {} SMs, kernels built for {})\n", g.ordinal, g.name, g.arch, g.sms, g.target);
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
  std::vector<std::string> arch, ops, dtypes, weight_dtypes, hidden, rows;
  bool rank3 = false;
  bool static_weight = false;
  int max_vec = 0;
  int jobs = 0;
  bool dry_run = false;
  bool as_json = false;
  bool list_manifests = false;
  std::string progress = "auto";
};

// The archs to build for, as the user wrote them (dry-run lines quote them): --arch items,
// "all" expanded to what NVRTC can build from sm_80 on, or the visible GPUs' targets.
std::vector<std::string> resolve_archs(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  auto add = [&out](const std::string& a) {
    const int cc = detail::Arch::parse(a).cc;  // validates; throws naming the value
    for (const std::string& o : out)
      if (detail::Arch::parse(o).cc == cc) return;
    out.push_back(a);
  };
  for (const std::string& a : split_list<std::string>(args, "arch", [](const std::string& s, std::string* o) {
         *o = s;
         return true;
       })) {
    if (a == "all") {
      for (int cc : detail::nvrtc_supported_archs())
        if (cc >= 80) add(detail::Arch{cc}.target());
    } else {
      add(a);
    }
  }
  if (!out.empty()) return out;
  const SystemInfo s = system_info();
  for (const GpuInfo& g : s.gpus) add(g.target);
  if (out.empty()) {
    throw CLI::ValidationError(fmt::format(
        "prewarm: no GPU detected ({}); name the targets: --arch sm_90 (or --arch sm_80,sm_90,sm_100, "
        "or --arch all)",
        s.driver ? "the driver sees no device" : s.driver_error));
  }
  return out;
}

// Progress on a terminal: one line redrawn in place; failures are printed above it.
class ProgressBar {
 public:
  ProgressBar() {
    winsize w{};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col >= 40) width_ = w.ws_col;
  }
  void update(const PrewarmItem& it, size_t done, size_t total, int compiled, int cached, int failed,
              double secs) {
    if (!it.error.empty()) fmt::print("\r\033[Kfailed    {}: {}\n", it.slug, it.error);
    const int cells = 24;
    const int full = total ? int(done * cells / total) : cells;
    std::string line = fmt::format("[{}{}] {}/{}  compiled {}  cached {}  failed {}  {:.1f} s  {}",
                                   std::string(size_t(full), '#'), std::string(size_t(cells - full), '.'),
                                   done, total, compiled, cached, failed, secs, it.slug);
    if (line.size() >= width_) line.resize(width_ - 1);
    fmt::print("\r\033[K{}", line);
    std::fflush(stdout);
  }
  void finish() { fmt::print("\r\033[K"); }

 private:
  size_t width_ = 80;
};

int list_manifests() {
  for (const std::string& name : tools::bundled_manifests()) {
    std::string desc;
    try {
      const Manifest m = tools::load_manifest(name);
      desc = fmt::format("{} problems; {}", m.problems.size(), m.description);
    } catch (const std::exception& e) {
      desc = std::string("invalid: ") + e.what();
    }
    if (desc.size() > 110) desc = desc.substr(0, 107) + "...";
    fmt::print("{:<16} {}\n", name, desc);
  }
  return 0;
}

std::string describe(const ProblemSpec& p) {
  return fmt::format("{} dtype={} weight={} hidden={}{}{}{}{}", op_name(p.op), dtype_name(p.dtype),
                     dtype_name(p.weight_dtype), p.hidden, p.rank3 ? " rank3" : "",
                     p.static_weight ? " static_weight" : "",
                     p.max_vec ? fmt::format(" max_vec={}", p.max_vec) : "",
                     p.rows ? fmt::format(" rows={}", p.rows) : "");
}

int cmd_dry_run(const std::vector<ProblemSpec>& problems, const std::vector<std::string>& archs,
                bool as_json) {
  PrewarmOptions o;
  o.arch = fmt::format("{}", fmt::join(archs, ","));
  o.dry_run = true;
  std::map<std::string, PrewarmItem> by_slug;
  for (const PrewarmItem& it : prewarm(problems, o)) by_slug[it.slug] = it;
  json lines = json::array();
  std::set<std::string> kernels;
  for (const std::string& arch : archs) {
    for (const ProblemSpec& p : problems) {
      for (const detail::KernelConfig& c : detail::configs_for(p, detail::Arch::parse(arch))) {
        const std::string s = detail::slug(c);
        const PrewarmItem& it = by_slug[s];
        kernels.insert(s);
        const char* state = it.prebuilt ? "cached (prebuilt)" : it.cached ? "cached" : "to compile";
        if (as_json) {
          lines.push_back({{"arch", arch}, {"problem", describe(p)}, {"slug", s}, {"key", it.key},
                           {"cached", it.cached}, {"prebuilt", it.prebuilt}});
        } else {
          fmt::print("{} {} -> {} [{}]\n", arch, describe(p), s, state);
        }
      }
    }
  }
  int cached = 0;
  for (const std::string& s : kernels) cached += by_slug[s].cached;
  if (as_json) {
    fmt::print("{}\n", json({{"dry_run", true}, {"problems", lines}, {"kernels", kernels.size()},
                             {"cached", cached}, {"to_compile", int(kernels.size()) - cached}})
                           .dump(2));
  } else {
    fmt::print("dry run: {} problems x {} arch{} -> {} kernels: {} cached, {} to compile (nothing "
               "was compiled)\n",
               problems.size(), archs.size(), archs.size() == 1 ? "" : "s", kernels.size(), cached,
               int(kernels.size()) - cached);
  }
  return 0;
}

int cmd_prewarm(const PrewarmArgs& a) {
  if (a.list_manifests) return list_manifests();
  std::vector<ProblemSpec> problems;
  std::string manifest_name;
  const bool use_default = a.manifest.empty() && a.ops.empty() && a.hidden.empty();
  if (!a.manifest.empty() || use_default) {
    const Manifest m = tools::load_manifest(use_default ? "default" : a.manifest);
    problems = m.problems;
    manifest_name = m.name;
    if (use_default && !a.as_json)
      fmt::print("prewarm: no --manifest or --op given: using the bundled manifest '{}' ({})\n",
                 m.name, m.origin);
  }
  if (!a.ops.empty() || !a.hidden.empty()) {
    if (a.ops.empty() || a.hidden.empty())
      throw CLI::ValidationError("prewarm: --op and --hidden go together (and --dtype, default bf16)");
    const auto ops = split_list<Op>(a.ops, "op", [](const std::string& s, Op* o) { return parse_op(s, o); });
    auto dts = split_list<DType>(a.dtypes, "dtype", [](const std::string& s, DType* d) { return parse_dtype(s, d); });
    if (dts.empty()) dts = {DType::bf16};
    const auto wdts = split_list<DType>(a.weight_dtypes, "weight-dtype",
                                        [](const std::string& s, DType* d) { return parse_dtype(s, d); });
    const auto hidden = split_list<std::int64_t>(a.hidden, "hidden", parse_positive);
    for (const ProblemSpec& p : expand_problems(ops, dts, wdts, hidden, a.rank3, a.max_vec)) problems.push_back(p);
  }
  if (!a.rows.empty()) {
    // Only the kernels calls of these row counts use (default: one per row class).
    const auto rows = split_list<std::int64_t>(a.rows, "rows", parse_positive);
    std::vector<ProblemSpec> with_rows;
    for (const ProblemSpec& p : problems)
      for (std::int64_t r : rows) {
        ProblemSpec q = p;
        q.rows = r;
        with_rows.push_back(q);
      }
    problems = std::move(with_rows);
  }
  if (a.static_weight)
    for (ProblemSpec& p : problems) p.static_weight = true;
  const std::vector<std::string> archs = resolve_archs(a.arch);
  if (a.dry_run) return cmd_dry_run(problems, archs, a.as_json);

  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  const bool bar = !a.as_json && (a.progress == "bar" || (a.progress == "auto" && tty));
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  int compiled = 0, cached = 0, failed = 0, prebuilt = 0;
  ProgressBar progress_bar;
  PrewarmOptions o;
  o.arch = fmt::format("{}", fmt::join(archs, ","));
  o.jobs = a.jobs;
  o.progress = [&](const PrewarmItem& it, size_t done, size_t total) {
    if (!it.error.empty()) ++failed;
    else if (it.compiled) ++compiled;
    else ++cached;
    prebuilt += it.prebuilt;
    if (a.as_json) return;
    if (bar) {
      progress_bar.update(it, done, total, compiled, cached, failed, seconds());
    } else if (!it.error.empty()) {
      fmt::print("failed    {}: {}\n", it.slug, it.error);
    } else if (it.compiled) {
      fmt::print("compiled  {}  ({:.0f} ms)\n", it.slug, it.millis);
    } else {
      fmt::print("cached    {}{}\n", it.slug, it.prebuilt ? "  (prebuilt)" : "");
    }
    std::fflush(stdout);
  };
  const std::vector<PrewarmItem> items = prewarm(problems, o);
  if (bar) progress_bar.finish();
  const double secs = seconds();
  const CacheInfo ci = cache_info();
  if (a.as_json) {
    json report = json::array();
    for (const PrewarmItem& it : items) {
      report.push_back({{"slug", it.slug}, {"key", it.key}, {"arch", it.arch}, {"compiled", it.compiled},
                        {"cached", it.cached}, {"prebuilt", it.prebuilt}, {"millis", it.millis},
                        {"error", it.error}});
    }
    fmt::print("{}\n", json({{"items", report}, {"kernels", items.size()}, {"compiled", compiled},
                             {"cached", cached}, {"prebuilt", prebuilt}, {"failed", failed},
                             {"seconds", secs}, {"archs", archs}, {"manifest", manifest_name},
                             {"cache_root", ci.root}})
                           .dump(2));
  } else {
    fmt::print("prewarm: {} kernels: {} compiled, {} already cached, {} failed in {:.2f} s (cache {}{})\n",
               items.size(), compiled, cached, failed, secs, ci.root.empty() ? "memory only" : ci.root,
               prebuilt ? fmt::format("; {} of the cached in a prebuilt cache", prebuilt) : "");
  }
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"normjit: JIT-compiled normalization kernels (info, prewarm, cache, bench)"};
  app.require_subcommand(1);
  std::string cache_dir;
  app.add_option("--cache-dir", cache_dir, "Cache root (default: $NORMJIT_CACHE_DIR, "
                                           "$XDG_CACHE_HOME/normjit, ~/.cache/normjit)");

  bool info_json = false;
  CLI::App* info = app.add_subcommand("info", "Driver, GPUs, NVRTC, templates and cache root");
  info->add_flag("--json", info_json, "Machine-readable output");

  PrewarmArgs pa;
  CLI::App* pw = app.add_subcommand("prewarm", "Compile kernels into the disk cache (no GPU needed)");
  pw->add_option("--manifest", pa.manifest,
                 "Manifest file, bundled manifest name (see --list-manifests) or JSON text; "
                 "default: the bundled 'default' when no --op is given");
  pw->add_option("--arch", pa.arch,
                 "Targets, comma list (sm_80, sm_90, sm_100 ...; all: every arch NVRTC builds; "
                 "default: the GPUs present)");
  pw->add_option("--op", pa.ops, "Ops, comma list");
  pw->add_option("--dtype", pa.dtypes, "Activation dtypes, comma list (default bf16)");
  pw->add_option("--weight-dtype", pa.weight_dtypes, "Weight dtypes (default: the activation dtype)");
  pw->add_option("--hidden", pa.hidden, "Hidden sizes (head dims with --rank3), comma list");
  pw->add_flag("--rank3", pa.rank3, "Per-head [batch, heads, head_dim] inputs with non-uniform row spacing");
  pw->add_option("--rows", pa.rows,
                 "Row counts (tokens; tokens x heads with --rank3) to build for, comma list "
                 "(default: every row class; few and many rows may use different kernels)");
  pw->add_option("--max-vec", pa.max_vec, "Cap the vector width (elements), for misaligned tensors");
  pw->add_flag("--static-weight", pa.static_weight,
               "The calls promise a static weight (LaunchOptions::static_weight): build the kernels they use");
  pw->add_option("-j,--jobs", pa.jobs, "Parallel compiles (default: all cores)");
  pw->add_flag("--dry-run", pa.dry_run, "List the kernels each problem selects and whether they are cached; compile nothing");
  pw->add_flag("--json", pa.as_json, "Machine-readable report");
  pw->add_option("--progress", pa.progress, "auto (a bar on a terminal, else one line per kernel), bar, lines")
      ->check(CLI::IsMember({"auto", "bar", "lines"}));
  pw->add_flag("--list-manifests", pa.list_manifests, "List the bundled manifests and exit");
  tools::BenchArgs ba;
  bool latency = false;
  CLI::App* bench = app.add_subcommand("bench", "Time ops on the GPU against a device copy (validates first)");
  bench->add_option("--op", ba.ops, "Ops, comma list")->capture_default_str();
  bench->add_option("--dtype", ba.dtypes, "Dtypes, comma list")->capture_default_str();
  CLI::Option* wdtype_opt = bench->add_option("--weight-dtype", ba.weight_dtypes,
                    "Weight dtypes, comma list, each timed with every --dtype (default: the activation dtype; "
                    "f32 with bf16 or f16 is the mixed-precision case)");
  bench->add_option("--tokens", ba.tokens, "Token (row) counts, comma list")->capture_default_str();
  bench->add_option("--hidden", ba.hidden, "Hidden sizes, comma list")->capture_default_str();
  CLI::Option* heads_opt = bench->add_option("--heads", ba.heads,
                    "Per-head rows (rmsnorm, gemma_rmsnorm): N heads of --hidden (the head dim) a token, "
                    "input [tokens, N, hidden], output contiguous");
  CLI::Option* qkv_opt = bench->add_option("--qkv-heads", ba.qkv_heads,
                    "With --heads: the input's tokens lie M heads apart (M > N: q or k viewed in a fused "
                    "qkv tensor, a strided call; default N, contiguous)");
  bench->add_option("--reps", ba.reps, "Samples per shape")->capture_default_str();
  bench->add_flag("!--no-pdl", ba.pdl, "Launch without programmatic dependent launch");
  bench->add_option("--config", ba.config, "Force config fields: tpr=N,rpb=N,vec=N,residency=0|1|2|3|4,minb=N,loads=0|1|2|3,stores=0|1,cluster=N,split=N,weight_first=0|1,keep_out=0|1,keep_tail=MiB,pin_weight=0|1|2|3|4|5,rpt=1|2|4|8,trigger=auto|early|end,prefetch=none|weight|residual|input|weight+residual|...,reconvert=0|1,dense=0|1,weight_shared=0|1,head_blocks=0|1,reg_usage=-1..10 (fields not given keep the heuristic's; where tpr, rpb, vec or cluster reshape the CTA, residency and minb follow the forced shape unless given)");
  bench->add_flag("--sweep", ba.sweep, "Time every valid threads-per-row x residency x occupancy floor x load policy x weight pin of a held row (and rows staged in shared memory, cluster splits and bulk copies on sm_90+, row shares for rmsnorm) per shape, keeping the fields --config fixes; ends with the best. A config that fails to compile, launch or validate is a FAILED line, and the exit status 1");
  bench->add_option("--compare", ba.compare,
                    "Configs to time against each other in one process, interleaved sample by sample "
                    "(each sample runs every config once, from a rotating start, on the same inputs); "
                    "separated by ';', 'default' for the heuristic's, e.g. "
                    "'default;tpr=512,residency=2'. Prints each config's median and its ratio to the first; "
                    "one that fails is a FAILED line (exit status 1)")
      ->delimiter(';')
      ->excludes("--sweep")
      ->excludes("--config");
  CLI::Option* latency_flag = bench->add_flag("--latency", latency,
                  "First-call (cold/disk) latency, host cost per call, per-launch time in a graph "
                  "(with --config: for that forced config)");
  std::string fill = "memset";
  bench->add_option("--fill", fill,
                    "With --latency: fill the timed buffers by cuMemsetD8 (memset) or by a kernel (kernel); "
                    "the process state after cuMemsetD8 on new buffers slows graph launches "
                    "(docs/benchmark-history.md, \"Nineteenth run\")")
      ->check(CLI::IsMember({"memset", "kernel"}))
      ->capture_default_str()
      ->needs(latency_flag);
  tools::LatencyArgs la;
  bench->add_option("--weights", la.weights,
                    "With --latency: weights the decode graphs' launches cycle through; 100 gives each launch "
                    "its own, read from HBM as a model's layers read theirs (default 1: one weight, warm in L2)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str()
      ->needs(latency_flag);
  latency_flag->excludes(heads_opt)->excludes(qkv_opt)->excludes(wdtype_opt);  // --latency times its own bf16 calls
  for (CLI::App* sub : {info, pw, bench})
    sub->add_option("--cache-dir", cache_dir, "Cache root");
  tools::CacheCommand cache_cmd(app, &cache_dir);

  CLI11_PARSE(app, argc, argv);
  if (!cache_dir.empty()) setenv("NORMJIT_CACHE_DIR", cache_dir.c_str(), 1);
  try {
    if (info->parsed()) return cmd_info(info_json);
    if (pw->parsed()) return cmd_prewarm(pa);
    if (cache_cmd.parsed()) return cache_cmd.run();
    if (bench->parsed()) {
      if (!latency) return tools::run_bench(ba);
      la.config = ba.config;
      la.fill_by_kernel = fill == "kernel";
      return tools::run_latency(la);
    }
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    fmt::print(stderr, "{}{}\n", msg.rfind("normjit", 0) == 0 ? "" : "normjit: error: ", msg);
    return 2;
  }
  return 0;
}

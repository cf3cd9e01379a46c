// The `normjit` command-line tool, run as a child process: info without a GPU, prewarm into a
// fresh cache (text and JSON reports), manifests, dry runs and error messages.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "cpu_test_util.hpp"
#include "cuda_driver.hpp"
#include "disk_cache.hpp"
#include "heuristics.hpp"
#include "kernel_config.hpp"
#include "normjit/version.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
#include "support/process.hpp"

using namespace normjit;
using namespace normjit::detail;
using cputest::contains;
using cputest::TempDir;
namespace fs = std::filesystem;

namespace {

njtest::ProcessResult cli(const std::vector<std::string>& args, const std::string& cache_dir) {
  std::vector<std::string> argv = {cputest::cli_path()};
  argv.insert(argv.end(), args.begin(), args.end());
  return njtest::run(argv, cputest::cli_env(cache_dir));
}

const std::vector<std::string> kPrewarm8 = {"prewarm", "--arch", "sm_90", "--op",
                                            "rmsnorm,fused_add_rmsnorm", "--dtype", "bf16,fp16",
                                            "--hidden", "4096,8192"};

// Slugs that prewarm of ops x dtypes x hidden on `arch` selects (a kernel per row class).
std::set<std::string> slugs(const std::vector<Op>& ops, const std::vector<DType>& dtypes,
                            const std::vector<std::int64_t>& hidden, const char* arch) {
  std::set<std::string> out;
  for (Op op : ops)
    for (DType d : dtypes)
      for (std::int64_t h : hidden) {
        ProblemSpec p;
        p.op = op;
        p.dtype = d;
        p.weight_dtype = d;
        p.hidden = h;
        for (const KernelConfig& c : configs_for(p, Arch::parse(arch))) out.insert(slug(c));
      }
  return out;
}

std::string second_word(const std::string& line) {
  std::istringstream ss(line);
  std::string a, b;
  ss >> a >> b;
  return b;
}

}  // namespace

TEST_CASE("cli: info works without a GPU and names NVRTC, the cache root and the driver", "[cli]") {
  TempDir cache("cli-info");
  const njtest::ProcessResult r = cli({"info"}, cache.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "normjit " NORMJIT_VERSION_STRING));
  CHECK(contains(r.output, "driver"));
  CHECK(contains(r.output, "nvrtc:       " + nvrtc_version()));
  CHECK(contains(r.output, "cache root:  " + cache.str()));
  CHECK(contains(r.output, toolchain_fingerprint()));

  const njtest::ProcessResult j = cli({"info", "--json"}, cache.str());
  INFO(j.output);
  CHECK(j.exit_code == 0);
  const nlohmann::json info = nlohmann::json::parse(j.output);
  CHECK(info.at("nvrtc_version") == nvrtc_version());
  CHECK(info.at("cache_root") == cache.str());
  CHECK(info.at("cache_fingerprint") == toolchain_fingerprint());
  CHECK(info.at("driver").is_boolean());
  CHECK(info.at("version") == NORMJIT_VERSION_STRING);
  CHECK(info.at("templates") == "embedded");
}

TEST_CASE("cli: prewarm compiles into a fresh cache, then finds everything cached", "[cli]") {
  TempDir cache("cli-prewarm");
  const std::set<std::string> want =
      slugs({Op::rmsnorm, Op::fused_add_rmsnorm}, {DType::bf16, DType::f16}, {4096, 8192}, "sm_90");
  // 8 problems; those that many rows run on another kernel (heuristics.cpp) add one each.
  REQUIRE(want.size() > 8);
  const size_t n = want.size();
  const std::string all_compiled = fmt::format("prewarm: {} kernels: {} compiled, 0 already cached, 0 failed", n, n);
  const std::string all_cached = fmt::format("prewarm: {} kernels: 0 compiled, {} already cached, 0 failed", n, n);

  const njtest::ProcessResult first = cli(kPrewarm8, cache.str());
  INFO("first run:\n" << first.output);
  CHECK(first.exit_code == 0);
  const auto compiled = cputest::lines_starting_with(first.output, "compiled ");
  CHECK(compiled.size() == n);
  std::set<std::string> got;
  for (const std::string& l : compiled) got.insert(second_word(l));
  CHECK(got == want);
  CHECK(cputest::lines_starting_with(first.output, "cached ").empty());
  CHECK(contains(first.output, all_compiled));
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").size() == n);

  const njtest::ProcessResult second = cli(kPrewarm8, cache.str());
  INFO("second run:\n" << second.output);
  CHECK(second.exit_code == 0);
  CHECK(cputest::lines_starting_with(second.output, "compiled ").empty());
  CHECK(cputest::lines_starting_with(second.output, "cached ").size() == n);
  CHECK(contains(second.output, all_cached));
  CHECK(cputest::files_containing(cache.path(), ".tmp.").empty());
}

TEST_CASE("cli: prewarm --json reports compiled, cached and failed counts", "[cli]") {
  TempDir cache("cli-json");
  std::vector<std::string> args = kPrewarm8;
  args.push_back("--json");
  const njtest::ProcessResult r = cli(args, cache.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.output);
  const size_t n = slugs({Op::rmsnorm, Op::fused_add_rmsnorm}, {DType::bf16, DType::f16}, {4096, 8192}, "sm_90").size();
  CHECK(j.at("compiled") == n);
  CHECK(j.at("cached") == 0);
  CHECK(j.at("failed") == 0);
  CHECK(j.at("cache_root") == cache.str());
  REQUIRE(j.at("items").size() == n);
  for (const auto& it : j.at("items")) {
    CHECK(it.at("compiled") == true);
    CHECK(it.at("error") == "");
    CHECK(std::regex_match(it.at("key").get<std::string>(), std::regex("[0-9a-f]{32}")));
  }

  const njtest::ProcessResult again = cli(args, cache.str());
  INFO(again.output);
  const nlohmann::json j2 = nlohmann::json::parse(again.output);
  CHECK(j2.at("compiled") == 0);
  CHECK(j2.at("cached") == n);
  CHECK(j2.at("failed") == 0);
}

TEST_CASE("cli: unknown op or dtype is rejected with a message naming it", "[cli]") {
  TempDir cache("cli-unknown");
  const njtest::ProcessResult r = cli({"prewarm", "--arch", "sm_90", "--op",
                                       "rmsnorm,layernorm_nonexistent", "--hidden", "4096"},
                                      cache.str());
  INFO(r.output);
  CHECK(r.exit_code != 0);
  CHECK(contains(r.output, "layernorm_nonexistent"));
  CHECK(contains(r.output, "--op"));
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").empty());

  const njtest::ProcessResult d = cli(
      {"prewarm", "--arch", "sm_90", "--op", "rmsnorm", "--dtype", "bf17", "--hidden", "4096"},
      cache.str());
  INFO(d.output);
  CHECK(d.exit_code != 0);
  CHECK(contains(d.output, "bf17"));

  const njtest::ProcessResult a =
      cli({"prewarm", "--arch", "sm_75", "--op", "rmsnorm", "--hidden", "4096"}, cache.str());
  INFO(a.output);
  CHECK(a.exit_code != 0);
  CHECK(contains(a.output, "sm_75"));
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").empty());
}

TEST_CASE("cli: bench --compare refuses --sweep and --config, and without a driver says so", "[cli]") {
  TempDir cache("cli-compare");
  for (const char* other : {"--sweep", "--config"}) {
    std::vector<std::string> args = {"bench", "--compare", "default;tpr=512,residency=2", other};
    if (std::string(other) == "--config") args.push_back("tpr=256");
    const njtest::ProcessResult r = cli(args, cache.str());
    INFO(r.output);
    CHECK(r.exit_code != 0);
    CHECK(contains(r.output, "--compare"));
    CHECK(contains(r.output, other));
  }
  // Without a driver the parsed command gets as far as the driver and says so (with one, this
  // would time the configs: the GPU suite's business).
  if (!driver_available()) {
    const njtest::ProcessResult g = cli({"bench", "--compare", "default;tpr=512,residency=2", "--tokens", "512",
                                         "--hidden", "16384"},
                                        cache.str());
    INFO(g.output);
    CHECK(g.exit_code == 2);
    CHECK(contains(g.output, "driver"));
  }
}

TEST_CASE("cli: bench rejects a malformed --config, --compare, --fill or list before touching the GPU", "[cli]") {
  TempDir cache("cli-bench-config");
  struct Bad {
    std::vector<std::string> args;
    const char* says;
  };
  for (const Bad& b : {Bad{{"bench", "--config", "trigger=sometimes"}, "trigger=sometimes: expected an integer value or auto, early, end"},
                       Bad{{"bench", "--config", "tpr=12x"}, "tpr=12x: expected an integer value"},
                       Bad{{"bench", "--config", "prefetch=x"}, "prefetch=x: expected an integer value or none, or weight, residual, input joined by '+'"},
                       Bad{{"bench", "--config", "colour=3"}, "unknown key colour"},
                       Bad{{"bench", "--compare", "default;trigger=soon"}, "trigger=soon"},
                       Bad{{"bench", "--latency", "--fill", "zeros"}, "--fill: zeros not in {memset,kernel}"},
                       Bad{{"bench", "--fill", "kernel"}, "--fill requires --latency"},
                       Bad{{"bench", "--weights", "100"}, "--weights requires --latency"},
                       Bad{{"bench", "--latency", "--weights", "0"}, "--weights"},
                       Bad{{"bench", "--hidden", "4096,abc"}, "bench --hidden: expected positive integers, got abc"},
                       Bad{{"bench", "--tokens", "-5"}, "bench --tokens: expected positive integers, got -5"},
                       Bad{{"bench", "--tokens", ","}, "bench --tokens: the list is empty"},
                       Bad{{"bench", "--op", "rmsnorm,rmsnorn"}, "bench --op: unknown op rmsnorn (rmsnorm, gemma_rmsnorm"},
                       Bad{{"bench", "--dtype", "e4m3"}, "bench --dtype: e4m3 is not an activation dtype (bf16, f16, f32)"},
                       Bad{{"bench", "--weight-dtype", "f32,fp8"}, "bench --weight-dtype: fp8 is not a weight dtype (bf16, f16, f32)"},
                       Bad{{"bench", "--latency", "--weight-dtype", "f32"}, "excludes --latency"},
                       Bad{{"bench", "--reps", "0"}, "bench --reps: expected at least 1, got 0"},
                       Bad{{"bench", "--heads", "-2"}, "bench --heads: expected a head count >= 1, got -2"},
                       Bad{{"bench", "--qkv-heads", "48"}, "bench --qkv-heads: needs --heads"},
                       Bad{{"bench", "--heads", "32", "--qkv-heads", "8"},
                           "bench --qkv-heads: expected at least --heads (32) heads between tokens, got 8"},
                       Bad{{"bench", "--op", "rmsnorm,fused_add_rmsnorm", "--heads", "8"},
                           "bench --heads: fused_add_rmsnorm takes 2-D rows only"},
                       Bad{{"bench", "--latency", "--heads", "8"}, "excludes --latency"}}) {
    const njtest::ProcessResult r = cli(b.args, cache.str());
    INFO(r.output);
    CHECK(r.exit_code != 0);
    CHECK(contains(r.output, b.says));
    CHECK_FALSE(contains(r.output, "driver"));  // refused before the GPU was looked for
  }
}

TEST_CASE("cli: prewarm --manifest compiles the manifest's problems", "[cli][manifest]") {
  TempDir cache("cli-manifest");
  TempDir work("cli-manifest-file");
  const fs::path manifest = work.path() / "tiny-model.json";
  cputest::write_file(manifest, R"({
  "name": "tiny-model",
  "description": "written by test_cli.cpp",
  "problems": [
    {"ops": ["rmsnorm", "gemma_rmsnorm"], "dtypes": ["bf16"], "hidden": [128, 4096]},
    {"ops": ["rmsnorm"], "dtypes": ["f16"], "weight_dtypes": ["f32"], "hidden": [111],
     "rank3": true, "comment": "per-head norm"}
  ]
})");
  const njtest::ProcessResult r =
      cli({"prewarm", "--arch", "sm_80", "--manifest", manifest.string()}, cache.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  std::set<std::string> got;
  for (const std::string& l : cputest::lines_starting_with(r.output, "compiled "))
    got.insert(second_word(l));
  std::set<std::string> want = slugs({Op::rmsnorm, Op::gemma_rmsnorm}, {DType::bf16}, {128, 4096}, "sm_80");
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.dtype = DType::f16;
  p.weight_dtype = DType::f32;
  p.hidden = 111;
  p.rank3 = true;
  for (const KernelConfig& c : configs_for(p, Arch{80})) want.insert(slug(c));
  CHECK(got == want);
  CHECK(contains(r.output, fmt::format("prewarm: {} kernels: {} compiled, 0 already cached, 0 failed",
                                       want.size(), want.size())));
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").size() == want.size());
}

TEST_CASE("cli: a bad manifest is rejected with a message naming the field", "[cli][manifest]") {
  TempDir cache("cli-bad-manifest");
  TempDir work("cli-bad-manifest-file");
  struct Bad {
    const char* name;
    const char* text;
    std::vector<std::string> needles;
  };
  const std::vector<Bad> bads = {
      {"unknown op",
       R"({"problems": [{"ops": ["rmsnorm", "bogus_norm"], "dtypes": ["bf16"], "hidden": [4096]}]})",
       {"problems[0].ops", "unknown op 'bogus_norm'"}},
      {"unknown problem field",
       R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [4096], "hiden": [1]}]})",
       {"problems[0].hiden", "unknown field"}},
      {"unknown top-level field",
       R"({"name": "x", "problemz": [], "problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [4096]}]})",
       {"problemz", "unknown field"}},
      {"unknown dtype",
       R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16", "int4"], "hidden": [4096]}]})",
       {"problems[0].dtypes", "int4"}},
      {"bad hidden",
       R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [0]}]})",
       {"problems[0].hidden"}},
      {"missing field",
       R"({"problems": [{"ops": ["rmsnorm"], "hidden": [4096]}]})",
       {"problems[0]", "dtypes"}},
      {"not JSON", "{ problems: ", {"JSON"}},
  };
  for (const Bad& b : bads) {
    INFO("case: " << b.name);
    const fs::path manifest = work.path() / "bad.json";
    cputest::write_file(manifest, b.text);
    const njtest::ProcessResult r =
        cli({"prewarm", "--arch", "sm_90", "--manifest", manifest.string()}, cache.str());
    INFO(r.output);
    CHECK(r.exit_code != 0);
    CHECK(contains(r.output, manifest.string()));
    for (const std::string& n : b.needles) CHECK(contains(r.output, n));
  }
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").empty());

  const njtest::ProcessResult missing =
      cli({"prewarm", "--arch", "sm_90", "--manifest", "no-such-model-manifest"}, cache.str());
  INFO(missing.output);
  CHECK(missing.exit_code != 0);
  CHECK(contains(missing.output, "no-such-model-manifest"));
}

TEST_CASE("cli: prewarm --dry-run lists the problems and compiles nothing", "[cli]") {
  TempDir cache("cli-dry-run");
  std::vector<std::string> args = kPrewarm8;
  args.push_back("--dry-run");
  const njtest::ProcessResult r = cli(args, cache.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(cputest::lines_starting_with(r.output, "compiled ").empty());
  CHECK(cputest::lines_starting_with(r.output, "sm_90 ").size() ==
        slugs({Op::rmsnorm, Op::fused_add_rmsnorm}, {DType::bf16, DType::f16}, {4096, 8192}, "sm_90").size());
  CHECK(contains(r.output, "rmsnorm dtype=bf16 weight=bf16 hidden=4096"));
  CHECK(contains(r.output, "fused_add_rmsnorm dtype=f16 weight=f16 hidden=8192"));
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").empty());
  CHECK(cputest::files_with_extension(cache.path(), ".json").empty());
}

TEST_CASE("cli: prewarm --rows builds only the kernels those row counts use", "[cli]") {
  TempDir cache("cli-rows");
  auto dry = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"prewarm", "--arch", "sm_80", "--op", "rmsnorm", "--hidden", "8192", "--dry-run"};
    args.insert(args.end(), extra.begin(), extra.end());
    const njtest::ProcessResult r = cli(args, cache.str());
    INFO(r.output);
    CHECK(r.exit_code == 0);
    return cputest::lines_starting_with(r.output, "sm_80 ");
  };
  // Hidden 8192 on sm_80 (heuristics.cpp): a few rows are shared by two CTAs unless written in
  // place, rows from kPinWeightRows are held with the weight pinned, many rows are re-read; from
  // 96 MiB of output the held rows' stores carry the L2 evict-last hint, and the re-read rows'
  // between 64 and 256 MiB. (sm_90+ puts a few rows on a cluster, in place or not.)
  ProblemSpec p;
  p.hidden = 8192;
  p.rows = 1;
  const std::string few = slug(choose_config(p, 0, Arch{80}));
  p.out_aliases_input = true;
  const std::string few_in_place = slug(choose_config(p, 0, Arch{80}));
  p.rows = 1 << 20;
  const std::string many = slug(choose_config(p, 0, Arch{80}));
  p.rows = kPinWeightRows;
  const std::string pinned = slug(choose_config(p, 0, Arch{80}));
  p.rows = kKeepOutHeldBytes / (8192 * 2);
  const std::string pinned_kept = slug(choose_config(p, 0, Arch{80}));
  p.rows = kKeepOutRereadEndBytes / (8192 * 2) - 1;
  const std::string many_kept = slug(choose_config(p, 0, Arch{80}));
  REQUIRE(few != many);
  REQUIRE(few != few_in_place);
  REQUIRE(contains(pinned, "-pw"));
  REQUIRE(contains(pinned_kept, "-keep-pw"));
  REQUIRE(contains(many_kept, "-reload-b4-ldhinted-keep"));
  const auto any = dry({});
  REQUIRE(any.size() == 6);
  std::string all;
  for (const std::string& line : any) all += line;
  for (const std::string& kernel : {few, few_in_place, pinned, many, pinned_kept, many_kept}) CHECK(contains(all, kernel));
  const auto one = dry({"--rows", "1"});
  REQUIRE(one.size() == 2);
  CHECK(contains(one[0] + one[1], few));
  CHECK(contains(one[0] + one[1], few_in_place));
  CHECK(contains(one[0], "rows=1 "));
  CHECK(dry({"--rows", "1,4,1048576"}).size() == 5);
  CHECK(dry({"--rows", "64"}).size() == 1);
  CHECK(dry({"--rows", "64,256"}).size() == 2);
  const njtest::ProcessResult bad = cli({"prewarm", "--op", "rmsnorm", "--hidden", "8192", "--rows", "0"}, cache.str());
  CHECK(bad.exit_code != 0);
  CHECK(contains(bad.output, "rows"));
}

TEST_CASE("cli: --cache-dir overrides NORMJIT_CACHE_DIR", "[cli]") {
  TempDir env_cache("cli-env-cache");
  TempDir flag_cache("cli-flag-cache");
  const njtest::ProcessResult r =
      cli({"prewarm", "--cache-dir", flag_cache.str(), "--arch", "sm_90", "--op", "rmsnorm",
           "--hidden", "2048"},
          env_cache.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  // Hidden 2048: one kernel for every row count, its early-trigger form for a few rows, its
  // weight-pinned form from kPinWeightRows, and that with the L2 evict-last output hint from
  // kKeepOutHeldBytes of output.
  CHECK(contains(r.output, "4 compiled"));
  CHECK(cputest::files_with_extension(flag_cache.path(), ".cubin").size() == 4);
  CHECK(cputest::files_with_extension(env_cache.path(), ".cubin").empty());
}

TEST_CASE("cli: prewarm fills the cache even when NORMJIT_OFFLINE=1 is set", "[cli][offline]") {
  // Offline-mode errors tell the user to run `normjit prewarm ...`; that command has to work in
  // the environment that produced the error, where NORMJIT_OFFLINE=1 is typically still set.
  TempDir cache("cli-offline-prewarm");
  njtest::EnvList env = cputest::cli_env(cache.str());
  env.push_back({"NORMJIT_OFFLINE", "1"});
  const njtest::ProcessResult r =
      njtest::run({cputest::cli_path(), "prewarm", "--arch", "sm_90a", "--op", "rmsnorm",
                   "--dtype", "bf16", "--weight-dtype", "bf16", "--hidden", "4096", "--rows", "1"},
                  env);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "prewarm: 1 kernels: 1 compiled, 0 already cached, 0 failed"));
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").size() == 1);
}

// An NVRTC whose ptxas predates --register-usage-level (a stand-in that refuses the option, loaded
// through NORMJIT_NVRTC_LIBRARY): the kernels whose config asks for a level (KernelConfig::reg_usage)
// still build, at ptxas's default level, with one warning; with the real NVRTC there is none.
TEST_CASE("an NVRTC that refuses ptxas's register usage level builds those kernels at the default level",
          "[cli][compile]") {
  const std::vector<std::string> args = {"prewarm",  "--arch", "sm_90",   "--op",   "fused_add_rmsnorm",
                                         "--dtype",  "bf16",   "--hidden", "26640,30736", "--rows",
                                         "1024", "--progress", "lines"};
  ProblemSpec p;
  p.op = Op::fused_add_rmsnorm;
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 26640;
  p.rows = 1024;
  REQUIRE(choose_config(p, 0, Arch{90, 132}).reg_usage >= 0);  // the premise: the default asks for one
  {
    TempDir dir("oldptxas");
    njtest::EnvList env = cputest::cli_env(dir.str());
    env.emplace_back("NORMJIT_NVRTC_LIBRARY", NORMJIT_OLD_PTXAS_NVRTC);
    std::vector<std::string> argv = {cputest::cli_path()};
    argv.insert(argv.end(), args.begin(), args.end());
    const njtest::ProcessResult r = njtest::run(argv, env);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.output, "2 compiled"));
    CHECK(contains(r.output, "-ru2-sm_90a"));
    // once per process, not per kernel
    const std::string warning = "refused ptxas's --register-usage-level";
    const std::size_t first = r.output.find(warning);
    CHECK(first != std::string::npos);
    CHECK(r.output.find(warning, first + 1) == std::string::npos);
  }
  TempDir dir("realptxas");
  const njtest::ProcessResult r = cli(args, dir.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(!contains(r.output, "register-usage-level"));
}

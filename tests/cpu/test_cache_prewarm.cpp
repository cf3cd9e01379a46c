// Prewarm for real deployments: the bundled model manifests, manifest validation (including
// the head_dim / include / models extensions), the `normjit prewarm` command (dry run, JSON,
// progress bar, several archs, the default manifest) and the C ABI's normjit_prewarm_manifest.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "cache_test_util.hpp"
#include "normjit/errors.hpp"
#include "normjit/normjit.h"
#include "normjit/normjit.hpp"

using namespace cachetest;
using cputest::contains;
using cputest::TempDir;

namespace {

const std::string kManifestDir = std::string(NORMJIT_SOURCE_DIR) + "/cache/manifests";

Manifest bundled(const std::string& name) { return load_manifest(name, {kManifestDir}); }

// Kernels prewarm builds for `problems` on `cc`, counted per problem (configs_for: one per
// row class) as the dry run lists them.
size_t kernel_lines(const std::vector<ProblemSpec>& problems, int cc) {
  size_t n = 0;
  for (const ProblemSpec& p : problems) n += configs_for(p, Arch{cc}).size();
  return n;
}

bool has(const Manifest& m, Op op, std::int64_t hidden, bool rank3, DType dtype = DType::bf16) {
  for (const ProblemSpec& p : m.problems)
    if (p.op == op && p.hidden == hidden && p.rank3 == rank3 && p.dtype == dtype &&
        p.weight_dtype == dtype)
      return true;
  return false;
}

std::set<std::string> problem_set(const Manifest& m) {
  std::set<std::string> out;
  for (const ProblemSpec& p : m.problems)
    out.insert(fmt::format("{}/{}/{}/{}/{}/{}", op_name(p.op), dtype_name(p.dtype),
                           dtype_name(p.weight_dtype), p.hidden, p.rank3, p.max_vec));
  return out;
}

njtest::ProcessResult cli(const std::vector<std::string>& args, const std::string& cache_dir) {
  std::vector<std::string> argv = {cputest::cli_path()};
  argv.insert(argv.end(), args.begin(), args.end());
  return njtest::run(argv, clean_env(cache_dir));
}

const std::vector<std::string> kModelManifests = {"llama-3.1-8b", "llama-3.1-70b", "qwen3-8b",
                                                  "qwen3-30b-a3b", "deepseek-v3", "gemma-3-27b",
                                                  "wan-2.2-5b"};

}  // namespace

TEST_CASE("bundled manifests: each model's norms, the default, and all of them", "[prewarm][manifest]") {
  std::vector<std::string> names = bundled_manifests({kManifestDir});
  for (const std::string& n : kModelManifests) {
    INFO("manifest " << n);
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
    const Manifest m = bundled(n);
    CHECK(m.name == n);
    CHECK_FALSE(m.description.empty());
    CHECK_FALSE(m.models.empty());
    CHECK_FALSE(m.problems.empty());
  }
  const Manifest l8 = bundled("llama-3.1-8b");
  CHECK(has(l8, Op::rmsnorm, 4096, false));
  CHECK(has(l8, Op::fused_add_rmsnorm, 4096, false));
  const Manifest l70 = bundled("llama-3.1-70b");
  CHECK(has(l70, Op::rmsnorm, 8192, false));
  CHECK(has(l70, Op::fused_add_rmsnorm, 8192, false, DType::f16));
  const Manifest q8 = bundled("qwen3-8b");
  CHECK(has(q8, Op::fused_add_rmsnorm, 4096, false));
  CHECK(has(q8, Op::rmsnorm, 128, true));  // per-head q/k norm
  const Manifest moe = bundled("qwen3-30b-a3b");
  CHECK(has(moe, Op::fused_add_rmsnorm, 2048, false));
  CHECK(has(moe, Op::rmsnorm, 128, true));
  const Manifest ds = bundled("deepseek-v3");
  CHECK(has(ds, Op::fused_add_rmsnorm, 7168, false));
  CHECK(has(ds, Op::rmsnorm, 1536, false));  // q_lora_rank
  CHECK(has(ds, Op::rmsnorm, 512, false));   // kv_lora_rank
  CHECK(contains(ds.description, "fused_add_rmsnorm_fp8_block_quant"));
  const Manifest g = bundled("gemma-3-27b");
  CHECK(has(g, Op::gemma_rmsnorm, 5376, false));
  CHECK(has(g, Op::gemma_fused_add_rmsnorm, 5376, false));
  CHECK(has(g, Op::gemma_rmsnorm, 128, true));
  for (const ProblemSpec& p : g.problems) CHECK((p.op == Op::gemma_rmsnorm || p.op == Op::gemma_fused_add_rmsnorm));
  const Manifest wan = bundled("wan-2.2-5b");
  CHECK(has(wan, Op::rmsnorm, 128, true));
  CHECK(has(wan, Op::rmsnorm, 3072, false));

  // `default` is Llama 3.1 8B; `all` is every model manifest.
  CHECK(problem_set(bundled("default")) == problem_set(l8));
  std::set<std::string> every;
  for (const std::string& n : kModelManifests)
    for (const std::string& p : problem_set(bundled(n))) every.insert(p);
  CHECK(problem_set(bundled("all")) == every);

  // Every problem of every manifest selects a kernel on Ampere, Hopper and Blackwell.
  PrewarmOptions o;
  o.arch = "sm_80,sm_90,sm_100";
  o.dry_run = true;
  const std::vector<PrewarmItem> items = prewarm(bundled("all").problems, o);
  CHECK(items.size() >= every.size());
  for (const PrewarmItem& it : items) {
    CHECK(it.error.empty());
    CHECK_FALSE(it.compiled);
  }
}

TEST_CASE("manifests: head_dim, include and models extensions, and errors that name the field", "[prewarm][manifest]") {
  TempDir dir("manifest-ext");
  const Manifest m = load_manifest(R"({
    "name": "ext", "description": "d",
    "models": ["A", {"name": "B", "hidden_size": 1024, "head_dim": 64, "hf_id": "org/b"}],
    "problems": [
      {"ops": ["rmsnorm", "gemma_rmsnorm"], "dtypes": ["f16"], "weight_dtypes": ["f32"], "head_dim": [64, 256]},
      {"ops": ["fused_add_rmsnorm"], "dtypes": ["bf16"], "hidden": [1024], "max_vec": 4, "static_weight": true}
    ]})");
  CHECK(m.origin == "<inline json>");
  CHECK(m.models == std::vector<std::string>{"A", "B"});
  // A head_dim entry is both per-head kernels: the 2-D one (equally spaced rows) and rank3.
  REQUIRE(m.problems.size() == 9);
  for (size_t i = 0; i < 8; ++i) {
    CHECK(m.problems[i].rank3 == (i >= 4));
    CHECK(m.problems[i].weight_dtype == DType::f32);
  }
  CHECK(m.problems[8].max_vec == 4);
  CHECK_FALSE(m.problems[8].rank3);
  CHECK(m.problems[8].static_weight);
  CHECK_FALSE(m.problems[0].static_weight);

  // Includes resolve next to the including file, then as bundled names.
  cputest::write_file(dir.path() / "base.json",
                      R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [777]}]})");
  cputest::write_file(dir.path() / "top.json",
                      R"({"include": ["base", "./base.json", "qwen3-8b"],
                          "problems": [{"ops": ["rmsnorm"], "dtypes": ["f32"], "hidden": [5]}]})");
  const Manifest top = load_manifest((dir.path() / "top.json").string(), {kManifestDir});
  CHECK(top.name == "top");
  CHECK(has(top, Op::rmsnorm, 777, false));
  CHECK(has(top, Op::rmsnorm, 5, false, DType::f32));
  CHECK(has(top, Op::rmsnorm, 128, true));
  CHECK(std::find(top.models.begin(), top.models.end(), "Qwen3-8B") != top.models.end());

  cputest::write_file(dir.path() / "a.json", R"({"include": ["b"]})");
  cputest::write_file(dir.path() / "b.json", R"({"include": ["a"]})");
  struct Bad {
    const char* name;
    std::string text;
    std::vector<std::string> needles;
  };
  const std::vector<Bad> bads = {
      {"hidden and head_dim", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [8], "head_dim": [8]}]})",
       {"problems[0]", "exactly one of 'hidden'"}},
      {"neither hidden nor head_dim", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"]}]})",
       {"problems[0]", "head_dim"}},
      {"head_dim with rank3 false", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "head_dim": [8], "rank3": false}]})",
       {"problems[0].rank3"}},
      {"per-head fused add", R"({"problems": [{"ops": ["fused_add_rmsnorm"], "dtypes": ["bf16"], "head_dim": [128]}]})",
       {"problems[0].ops", "fused_add_rmsnorm has no per-head"}},
      {"weight dtype", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["f16"], "weight_dtypes": ["bf16"], "hidden": [8]}]})",
       {"problems[0].weight_dtypes", "bf16", "f16"}},
      {"fp8 activations", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["fp8_e4m3"], "hidden": [8]}]})",
       {"problems[0].dtypes", "fp8_e4m3"}},
      {"hidden too large", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [300000]}]})",
       {"problems[0].hidden", "300000", "262144"}},
      {"max_vec", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [8], "max_vec": 3}]})",
       {"problems[0].max_vec"}},
      {"unknown op lists the known ones", R"({"problems": [{"ops": ["layernorm"], "dtypes": ["bf16"], "hidden": [8]}]})",
       {"problems[0].ops", "unknown op 'layernorm'", "gemma_rmsnorm"}},
      {"model field", R"({"models": [{"name": "x", "hidden": 3}], "problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [8]}]})",
       {"models[0].hidden", "unknown field"}},
      {"model value", R"({"models": [{"name": "x", "head_dim": "big"}], "problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [8]}]})",
       {"models[0].head_dim"}},
      {"include missing", R"({"include": ["no-such-manifest-xyz"]})", {"include[0]", "no-such-manifest-xyz"}},
      {"include cycle", R"({"include": [")" + (dir.path() / "a.json").string() + R"("]})", {"includes itself"}},
      {"nothing to do", R"({"name": "x"})", {"problems"}},
      {"comment type", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [8], "comment": 5}]})",
       {"problems[0].comment"}},
      {"static_weight type", R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hidden": [8], "static_weight": 1}]})",
       {"problems[0].static_weight", "expected true or false"}},
  };
  for (const Bad& b : bads) {
    INFO("case: " << b.name);
    try {
      load_manifest(b.text, {kManifestDir});
      FAIL("accepted");
    } catch (const ValidationError& e) {
      INFO(e.what());
      CHECK(e.kind() == ValidationError::Kind::InvalidArgument);
      CHECK(contains(e.what(), "manifest "));
      for (const std::string& n : b.needles) CHECK(contains(e.what(), n));
    }
  }
  try {
    load_manifest("no-such-manifest-xyz", {kManifestDir});
    FAIL("accepted");
  } catch (const ValidationError& e) {
    CHECK(contains(e.what(), "no-such-manifest-xyz"));
    CHECK(contains(e.what(), "llama-3.1-70b"));  // lists what exists
  }
}

TEST_CASE("cli prewarm: bundled manifest, JSON report, then a dry run shows it cached", "[prewarm][cli]") {
  TempDir cache("prewarm-manifest");
  const njtest::ProcessResult r =
      cli({"prewarm", "--manifest", "llama-3.1-70b", "--arch", "sm_90", "--json"}, cache.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.output);
  CHECK(j.at("manifest") == "llama-3.1-70b");
  // 4 problems at hidden 8192 (heuristics.cpp), each with a kernel for a few rows (a 4-CTA
  // cluster), two for the rows between (held; the weight pinned from kPinWeightRows) and one for
  // many rows (re-read); the two fused-add problems with a fifth from kKeepOutRows (output kept
  // in L2); the two rmsnorm problems with two more whose output is kept in L2 (held, from
  // kKeepOutHeldBytes of output; re-read, from kKeepOutRereadBytes to kKeepOutRereadEndBytes).
  const size_t n = kernel_lines(bundled("llama-3.1-70b").problems, 90);
  CHECK(n == 22);
  CHECK(j.at("kernels") == n);
  CHECK(j.at("compiled") == n);
  CHECK(j.at("cached") == 0);
  CHECK(j.at("failed") == 0);
  CHECK(j.at("archs") == nlohmann::json::array({"sm_90"}));
  for (const auto& it : j.at("items")) CHECK(it.at("arch") == "sm_90a");

  const njtest::ProcessResult dry =
      cli({"prewarm", "--manifest", "llama-3.1-70b", "--arch", "sm_90,sm_100", "--dry-run"}, cache.str());
  INFO(dry.output);
  CHECK(dry.exit_code == 0);
  const auto lines90 = cputest::lines_starting_with(dry.output, "sm_90 ");
  const auto lines100 = cputest::lines_starting_with(dry.output, "sm_100 ");
  CHECK(lines90.size() == n);
  CHECK(lines100.size() == kernel_lines(bundled("llama-3.1-70b").problems, 100));
  for (const std::string& l : lines90) CHECK(contains(l, "[cached]"));
  for (const std::string& l : lines100) CHECK(contains(l, "[to compile]"));
  CHECK(contains(dry.output, fmt::format("-> {} kernels: {} cached, {} to compile", lines90.size() + lines100.size(),
                                         n, lines100.size())));
  CHECK(contains(dry.output, "fused_add_rmsnorm dtype=bf16 weight=bf16 hidden=8192 -> fused_add_rmsnorm-bf16-h8192-"));
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").size() == n);

  // --static-weight: the few-row kernels of calls that promise a static weight load it before
  // the PDL wait (-wf); more rows keep their kernels, so only the few-row class adds kernels.
  const njtest::ProcessResult sw = cli({"prewarm", "--manifest", "llama-3.1-70b", "--arch", "sm_90", "--static-weight",
                                        "--dry-run"}, cache.str());
  INFO(sw.output);
  CHECK(sw.exit_code == 0);
  const auto wf = cputest::lines_starting_with(sw.output, "sm_90 ");
  CHECK(contains(sw.output, "static_weight"));
  size_t weight_first = 0;
  for (const std::string& l : wf) {
    if (contains(l, "-wf-")) {
      ++weight_first;
      CHECK(contains(l, "[to compile]"));
    }
  }
  CHECK(weight_first > 0);
  CHECK(weight_first < wf.size());
}

TEST_CASE("cli prewarm: the default manifest, --arch all, and no GPU without --arch", "[prewarm][cli]") {
  TempDir cache("prewarm-default");
  const njtest::ProcessResult r = cli({"prewarm", "--arch", "sm_90", "--dry-run"}, cache.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "using the bundled manifest 'default'"));
  CHECK(cputest::lines_starting_with(r.output, "sm_90 ").size() == kernel_lines(bundled("default").problems, 90));
  CHECK(cputest::snapshot(cache.path()).empty());

  const njtest::ProcessResult all = cli({"prewarm", "--manifest", "llama-3.1-8b", "--arch", "all", "--dry-run", "--json"}, cache.str());
  INFO(all.output);
  CHECK(all.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(all.output);
  size_t kernels = 0;
  for (int cc : nvrtc_supported_archs())
    if (cc >= 80) kernels += kernel_lines(bundled("llama-3.1-8b").problems, cc);
  CHECK(j.at("kernels") == kernels);

  // The test environment has no usable driver: without --arch there is nothing to build for.
  const njtest::ProcessResult none = cli({"prewarm", "--manifest", "llama-3.1-8b"}, cache.str());
  INFO(none.output);
  CHECK(none.exit_code != 0);
  CHECK(contains(none.output, "no GPU detected"));
  CHECK(contains(none.output, "--arch sm_90"));

  const njtest::ProcessResult list = cli({"prewarm", "--list-manifests"}, cache.str());
  CHECK(list.exit_code == 0);
  for (const std::string& n : kModelManifests) CHECK(contains(list.output, n));
}

TEST_CASE("cli prewarm: a progress bar when asked (a terminal's default), several archs in one pool",
          "[prewarm][cli]") {
  TempDir cache("prewarm-bar");
  const njtest::ProcessResult r =
      cli({"prewarm", "--arch", "sm_80,sm_90", "--op", "rmsnorm,gemma_rmsnorm", "--hidden", "1024",
           "--progress", "bar", "-j", "2"},
          cache.str());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "\r"));
  // Hidden 1024: one kernel an op, and its form with the output kept in L2 (from
  // kKeepOutHeldBytes of output); on sm_90 also its early-trigger form for a few rows.
  CHECK(contains(r.output, "[########################] 10/10"));
  CHECK(cputest::lines_starting_with(r.output, "compiled ").empty());
  CHECK(contains(r.output, "prewarm: 10 kernels: 10 compiled, 0 already cached, 0 failed"));
  const nlohmann::json j = nlohmann::json::parse(
      cli({"prewarm", "--arch", "sm_80,sm_90", "--op", "rmsnorm,gemma_rmsnorm", "--hidden", "1024", "--json"},
          cache.str())
          .output);
  std::set<std::string> archs;
  for (const auto& it : j.at("items")) archs.insert(it.at("arch").get<std::string>());
  CHECK(archs == std::set<std::string>{"sm_80", "sm_90a"});
  CHECK(j.at("cached") == 10);
  const njtest::ProcessResult bad = cli({"prewarm", "--progress", "fancy", "--arch", "sm_90"}, cache.str());
  CHECK(bad.exit_code != 0);
  CHECK(contains(bad.output, "--progress"));
}

// Not a test: runs normjit_prewarm_manifest in a child (for resource limits).
TEST_CASE("cache child: C ABI prewarm", "[.c_abi_child]") {
  const char* cache = std::getenv("NJ_CHILD_CACHE");
  REQUIRE(cache);
  ::setenv("NORMJIT_CACHE_DIR", cache, 1);
  normjit_prewarm_result r{};
  r.struct_size = sizeof r;
  const normjit_status st = normjit_prewarm_manifest(std::getenv("NJ_CHILD_MANIFEST"), "sm_90", 1, &r);
  std::printf("CHILD status=%d kernels=%d compiled=%d cached=%d failed=%d\nCHILD error %s\n", int(st),
              r.kernels, r.compiled, r.cached, r.failed, normjit_last_error());
  std::fflush(stdout);
}

TEST_CASE("C ABI: normjit_prewarm_manifest returns counts and typed errors", "[prewarm][c_abi]") {
  const std::string manifest = R"({"problems": [{"ops": ["rmsnorm", "fused_add_rmsnorm"],
                                                 "dtypes": ["bf16"], "hidden": [3000]}]})";
  normjit_prewarm_result r{};
  r.struct_size = sizeof r;
  REQUIRE(normjit_prewarm_manifest(manifest.c_str(), "sm_90,sm_80", 2, &r) == NORMJIT_SUCCESS);
  CHECK(std::string(normjit_last_error()).empty());
  // Per arch: rmsnorm (rows of 375 vectors) for few rows, from kPinWeightRows (128 threads, the
  // weight pinned), from kBulkRowsRmsnorm (64 threads x 2 rows), from kRereadNpotRows (re-read
  // on 128; 2.9 vectors a thread, too many for the output hint, so one kernel from there on); the
  // fused add for few rows and from kPinWeightRows (128 threads, pinned); on sm_90 also for up to
  // kFewRowsMax rows (the PDL trigger early).
  CHECK(r.kernels == 14);
  CHECK(r.compiled + r.cached == 14);
  CHECK(r.failed == 0);
  CHECK(r.seconds > 0);
  normjit_prewarm_result again{};
  again.struct_size = sizeof again;
  REQUIRE(normjit_prewarm_manifest(manifest.c_str(), "sm_90,sm_80", 0, &again) == NORMJIT_SUCCESS);
  CHECK(again.compiled == 0);
  CHECK(again.cached == 14);
  CHECK(normjit_prewarm_manifest(manifest.c_str(), "sm_90", 1, nullptr) == NORMJIT_SUCCESS);

  // A bundled name, found through NORMJIT_MANIFEST_DIR.
  ::setenv("NORMJIT_MANIFEST_DIR", kManifestDir.c_str(), 1);
  normjit_prewarm_result q{};
  q.struct_size = sizeof q;
  const normjit_status st = normjit_prewarm_manifest("qwen3-30b-a3b", "sm_90", 0, &q);
  ::unsetenv("NORMJIT_MANIFEST_DIR");
  INFO(normjit_last_error());
  CHECK(st == NORMJIT_SUCCESS);
  // 2 ops x 2 dtypes at 2048 (each also pinned from kPinWeightRows; the fused add: few and many
  // rows), rmsnorm x 2 dtypes x (rank3, 2-D) at 128, one, (from kBulkRowsRmsnorm) two and (from
  // kFourRowsPerThreadRows) four rows per thread, (from kOneVectorLaneRows) four on 16 lanes, two
  // with the shared weight and reconverted (strided rows from kStridedSharedRows, dense ones from
  // kDenseSharedRows16), and for dense 2-D rows (from kDenseSharedEndRows16) eight per thread;
  // each of the 8 problems also for up to kFewRowsMax rows (the PDL trigger early). rmsnorm's
  // output kept in L2: at 2048 from kKeepOutHeldBytes of output (one more kernel a dtype); at 128
  // above kKeepOutShortBytes of output (196609 rows), a second form of the layouts whose row
  // windows span that count (2-D: the shared weight, four rows a thread on 8 lanes; per head: the
  // strided rows' shared weight), while the layouts of more rows (16 lanes, eight a thread) take
  // only the kept one (three more a dtype).
  CHECK(q.kernels == 46);

  normjit_prewarm_result small{};
  small.struct_size = 4;
  CHECK(normjit_prewarm_manifest(manifest.c_str(), "sm_90", 1, &small) == NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK(contains(normjit_last_error(), "struct_size"));
  CHECK(normjit_prewarm_manifest(nullptr, "sm_90", 1, &r) == NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK(contains(normjit_last_error(), "manifest"));
  CHECK(normjit_prewarm_manifest(R"({"problems": [{"ops": ["rmsnorm"], "dtypes": ["bf16"], "hiden": [1]}]})",
                                 "sm_90", 1, &r) == NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK(contains(normjit_last_error(), "problems[0].hiden"));
  CHECK(normjit_prewarm_manifest(manifest.c_str(), "sm_75", 1, &r) == NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK(contains(normjit_last_error(), "sm_75"));
  CHECK(normjit_prewarm_manifest("no-such-manifest-xyz", "sm_90", 1, &r) == NORMJIT_ERROR_INVALID_ARGUMENT);
  // No arch and no usable driver (the CPU suite hides it).
  CHECK(normjit_prewarm_manifest(manifest.c_str(), nullptr, 1, &r) == NORMJIT_ERROR_CUDA);
  CHECK(contains(normjit_last_error(), "sm_90"));

  // A kernel that compiles but cannot be stored (the file size limit) is a cache-write failure.
  TempDir cache("c-abi-full");
  njtest::EnvList env = clean_env("");
  set(&env, "NJ_CHILD_CACHE", cache.str());
  set(&env, "NJ_CHILD_MANIFEST", manifest);
  ChildSetup limited;
  limited.max_file_size = 4096;
  const njtest::ProcessResult child = run_with({njtest::self_exe(), "[.c_abi_child]"}, env, limited);
  INFO(child.output);
  CHECK(child.exit_code == 0);
  CHECK(contains(child.output, fmt::format("CHILD status={} kernels=8 compiled=0 cached=0 failed=8",
                                           int(NORMJIT_ERROR_CACHE_WRITE))));
  CHECK(contains(child.output, "compiled but not stored"));
}

// `normjit bench --sweep` and `--compare` on a GPU when one config is broken: with a copy of the
// kernel templates (NORMJIT_TEMPLATE_DIR) in which rmsnorm's kernels of one threads-per-row
// count fail to compile, or trap (a sticky error that takes the CUDA context with it).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "support/process.hpp"

namespace fs = std::filesystem;

namespace {

// rms_norm.cuh's entry point, as the templates declare it; the copy renames it and wraps it.
const char* const kEntry = "__device__ __forceinline__ void rms_norm(const NormParams& p) {";

// A copy of kernel_templates whose rms_norm<Cfg> runs `guard` (device code that may name Cfg)
// before the real body.
std::string broken_templates(const std::string& tag, const std::string& guard) {
  const fs::path dir = njtest::make_temp_dir(tag);
  for (const auto& e : fs::directory_iterator(fs::path(NORMJIT_SOURCE_DIR) / "kernel_templates"))
    fs::copy_file(e.path(), dir / e.path().filename());
  const fs::path file = dir / "rms_norm.cuh";
  std::stringstream in;
  in << std::ifstream(file).rdbuf();
  std::string text = in.str();
  const size_t at = text.find(kEntry);
  REQUIRE(at != std::string::npos);  // the entry's declaration changed: update kEntry
  text.replace(at, std::string(kEntry).size(),
               "__device__ __forceinline__ void rms_norm_unbroken(const NormParams& p) {");
  text += fmt::format(
      "\nnamespace normjit {{\ntemplate <class Cfg>\n{}\n  {}\n  rms_norm_unbroken<Cfg>(p);\n}}\n}}  // namespace normjit\n",
      kEntry, guard);
  std::ofstream(file) << text;
  return dir.string();
}

njtest::ProcessResult bench(const std::string& templates, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {NORMJIT_CLI_PATH, "bench", "--op", "rmsnorm", "--dtype", "bf16",
                                   "--tokens", "64", "--hidden", "2048", "--reps", "5"};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::string cache = njtest::make_temp_dir("bench-cli-cache");
  auto r = njtest::run(argv, {{"NORMJIT_TEMPLATE_DIR", templates}, {"NORMJIT_CACHE_DIR", cache},
                              {"NORMJIT_OFFLINE", ""}, {"NORMJIT_LOG", ""}});
  fs::remove_all(cache);
  return r;
}

int count_lines(const std::string& text, const std::regex& re) {
  int n = 0;
  std::istringstream ss(text);
  for (std::string line; std::getline(ss, line);) n += std::regex_search(line, re);
  return n;
}

}  // namespace

TEST_CASE("bench --sweep reports a config that fails to compile and times the rest", "[gpu][bench]") {
  const std::string dir =
      broken_templates("bench-cli-compile", "static_assert(Cfg::kThreadsPerRow != 64, \"broken on purpose\");");
  // Held rows with plain loads: 16-256 threads a row, two rows a thread, clusters and split rows.
  const njtest::ProcessResult r = bench(dir, {"--sweep", "--config", "residency=0,loads=0"});
  INFO(r.output);
  CHECK(r.exit_code == 1);  // the run goes on, and its status says a config failed
  const int failed = count_lines(r.output, std::regex(R"(^rmsnorm .* t64r\d+v8\S* FAILED: .*)"));
  CHECK(failed >= 1);
  CHECK(r.output.find("broken on purpose") != std::string::npos);
  CHECK(count_lines(r.output, std::regex("FAILED")) == failed);  // only the broken configs
  // Rows timed before and after the broken ones, and the sweep's verdict.
  CHECK(count_lines(r.output, std::regex(R"(^rmsnorm +bf16 +64 +2048 +t32r)")) >= 1);
  CHECK(count_lines(r.output, std::regex(R"(^rmsnorm +bf16 +64 +2048 +t(128|256)r\d+v8\S* +\d+\.\d+ )")) >= 1);
  // The heuristic's config is timed first (it is not broken here: t256 at 64 x 2048), so the verdict
  // has its time, and the best in --config's syntax.
  CHECK(count_lines(r.output, std::regex(R"(^best: rmsnorm bf16 64x2048 t\d+r\S* \d+\.\d+ us \(heuristic: )"
                                         R"(t\d+r\S* \d+\.\d+ us, \d\.\d{3}x the best\); --config tpr=\d+,rpb=\d+,)")) == 1);
  CHECK(r.output.find(fmt::format("bench: {} config(s) failed", failed)) != std::string::npos);
  // Each config once: no label timed or failed twice.
  std::set<std::string> labels;
  std::istringstream rows(r.output);
  for (std::string line; std::getline(rows, line);) {
    std::smatch m;
    if (std::regex_search(line, m, std::regex(R"(^rmsnorm +bf16 +64 +2048 +(t\d+r\S+) )")))
      CHECK(labels.insert(m[1]).second);
  }
  fs::remove_all(dir);
}

TEST_CASE("bench --compare leaves out a config that fails to compile", "[gpu][bench]") {
  const std::string dir =
      broken_templates("bench-cli-compare", "static_assert(Cfg::kThreadsPerRow != 64, \"broken on purpose\");");
  const njtest::ProcessResult r = bench(dir, {"--compare", "default;tpr=64,rpb=2;tpr=128,rpb=1"});
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK(count_lines(r.output, std::regex(R"(^rmsnorm .* tpr=64,rpb=2 FAILED: .*)")) == 1);
  CHECK(count_lines(r.output, std::regex(R"( x\d\.\d{3} +halves .*\[default\])")) == 1);
  CHECK(count_lines(r.output, std::regex(R"( x\d\.\d{3} +halves .*\[tpr=128,rpb=1\])")) == 1);
  fs::remove_all(dir);
}

TEST_CASE("bench --sweep stops, saying why, when a config takes the context with it", "[gpu][bench]") {
  const std::string dir =
      broken_templates("bench-cli-trap", "if constexpr (Cfg::kThreadsPerRow == 32) __trap();");
  const njtest::ProcessResult r = bench(dir, {"--sweep", "--config", "residency=0,loads=0"});
  INFO(r.output);
  CHECK(r.exit_code != 0);
  CHECK(r.exit_code != -1);  // an error exit, not a crash
  CHECK(count_lines(r.output, std::regex(R"(^rmsnorm .* t32r\d+v8\S* FAILED: .*)")) == 1);
  CHECK(r.output.find("the context is lost") != std::string::npos);
  CHECK(count_lines(r.output, std::regex(R"(^rmsnorm +bf16 +64 +2048 +t16r\d+v8\S* +\d+\.\d+ )")) >= 1);
  CHECK(r.output.find("best:") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("bench --heads times per-head rows, contiguous and strided views of a qkv tensor", "[gpu][bench]") {
  // Validation runs before every timed config (it throws on a wrong element of the first or last
  // token's heads), so exit status 0 means every call below computed its rows right.
  const std::string templates = (fs::path(NORMJIT_SOURCE_DIR) / "kernel_templates").string();
  const std::string cache = njtest::make_temp_dir("bench-cli-heads");
  const njtest::ProcessResult r = njtest::run(
      {NORMJIT_CLI_PATH, "bench", "--op", "rmsnorm,gemma_rmsnorm", "--dtype", "bf16,f16", "--tokens", "1,7,3000",
       "--hidden", "64,128,256", "--heads", "8", "--qkv-heads", "12", "--reps", "3"},
      {{"NORMJIT_TEMPLATE_DIR", templates}, {"NORMJIT_CACHE_DIR", cache}, {"NORMJIT_LOG", ""}});
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(count_lines(r.output, std::regex(R"(^(gemma_)?rmsnorm +(bf16|f16) +(1|7|3000) +8x(64|128|256)/12 +t\d+r\d+v\d+\S* +\d+\.\d+ )")) ==
        2 * 2 * 3 * 3);
  // The contiguous per-head rows and, interleaved, the strided ones' layouts forced: several rows
  // a thread (rank-3 addressing), converted again for the output or not.
  const njtest::ProcessResult c = njtest::run(
      {NORMJIT_CLI_PATH, "bench", "--op", "rmsnorm", "--dtype", "bf16", "--tokens", "2048", "--hidden", "128",
       "--heads", "32", "--qkv-heads", "48", "--reps", "3", "--compare",
       "default;reconvert=1;reconvert=0;tpr=8,rpt=4,reconvert=1;tpr=16,rpt=2,reconvert=0"},
      {{"NORMJIT_TEMPLATE_DIR", templates}, {"NORMJIT_CACHE_DIR", cache}, {"NORMJIT_LOG", ""}});
  INFO(c.output);
  CHECK(c.exit_code == 0);
  CHECK(count_lines(c.output, std::regex(R"(^rmsnorm +bf16 +2048 +32x128/48 +t\d+r\d+v\d+\S* +\d+\.\d+ .* x\d\.\d+ )")) == 5);
  const njtest::ProcessResult d = njtest::run(
      {NORMJIT_CLI_PATH, "bench", "--op", "rmsnorm", "--dtype", "bf16", "--tokens", "5,4096", "--hidden", "128",
       "--heads", "16", "--reps", "3"},
      {{"NORMJIT_TEMPLATE_DIR", templates}, {"NORMJIT_CACHE_DIR", cache}, {"NORMJIT_LOG", ""}});
  INFO(d.output);
  CHECK(d.exit_code == 0);
  CHECK(count_lines(d.output, std::regex(R"(^rmsnorm +bf16 +(5|4096) +16x128 +t\d+)")) == 2);
  fs::remove_all(cache);
}

TEST_CASE("bench --weight-dtype times rows with a weight of another dtype", "[gpu][bench]") {
  // An fp32 weight with 16-bit rows (the mixed-precision case): validated against the float64
  // reference before timing, so exit status 0 means every call computed its rows right; the
  // table's dtype column names the pair.
  const std::string templates = (fs::path(NORMJIT_SOURCE_DIR) / "kernel_templates").string();
  const std::string cache = njtest::make_temp_dir("bench-cli-wdtype");
  const njtest::EnvList env = {
      {"NORMJIT_TEMPLATE_DIR", templates}, {"NORMJIT_CACHE_DIR", cache}, {"NORMJIT_LOG", ""}};
  const njtest::ProcessResult r = njtest::run(
      {NORMJIT_CLI_PATH, "bench", "--op", "rmsnorm,fused_add_rmsnorm", "--dtype", "bf16,f16", "--weight-dtype",
       "f32", "--tokens", "3,2048", "--hidden", "4096,20480", "--reps", "3"}, env);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(count_lines(r.output, std::regex(R"(^(rmsnorm|fused_add_rmsnorm) +(bf16|f16)/f32 +(3|2048) +(4096|20480) +t\d+r\d+v\d+\S* +\d+\.\d+ )")) ==
        2 * 2 * 2 * 2);
  // A weight of the activation's dtype is the plain dtype's row.
  const njtest::ProcessResult same = njtest::run(
      {NORMJIT_CLI_PATH, "bench", "--op", "rmsnorm", "--dtype", "bf16", "--weight-dtype", "bf16,f32", "--tokens",
       "64", "--hidden", "2048", "--reps", "3"}, env);
  INFO(same.output);
  CHECK(same.exit_code == 0);
  CHECK(count_lines(same.output, std::regex(R"(^rmsnorm +bf16 +64 +2048 +t\d+)")) == 1);
  CHECK(count_lines(same.output, std::regex(R"(^rmsnorm +bf16/f32 +64 +2048 +t\d+)")) == 1);
  // f16 rows with a bf16 weight: not a pair the spec allows (rmsnorm.md: weight), reported.
  const njtest::ProcessResult bad = njtest::run(
      {NORMJIT_CLI_PATH, "bench", "--op", "rmsnorm", "--dtype", "f16", "--weight-dtype", "bf16", "--tokens", "64",
       "--hidden", "2048", "--reps", "3"}, env);
  INFO(bad.output);
  CHECK(bad.exit_code == 1);
  CHECK(count_lines(bad.output, std::regex(R"(^rmsnorm +f16/bf16 +64 +2048 default: not valid here \(.*weight)")) == 1);
  fs::remove_all(cache);
}

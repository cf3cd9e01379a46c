// Many CLI processes prewarming one cold cache at once: every kernel is compiled exactly once
// machine-wide, every entry is complete and valid, and no temp file is left behind.
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "cpu_test_util.hpp"
#include "disk_cache.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
#include "support/process.hpp"

using namespace normjit;
using namespace normjit::detail;
using cputest::TempDir;
namespace fs = std::filesystem;

namespace {

struct Job {
  std::string hidden;  // the --hidden argument
};

std::vector<std::int64_t> parse_hidden(const std::string& list) {
  std::vector<std::int64_t> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(std::stoll(item));
  return out;
}

// The kernels a prewarm of rmsnorm,fused_add_rmsnorm / bf16 / `hidden` on sm_90 selects.
std::vector<KernelConfig> expected_configs(const std::vector<Job>& jobs) {
  std::vector<KernelConfig> out;
  for (const Job& j : jobs) {
    for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm}) {
      for (std::int64_t h : parse_hidden(j.hidden)) {
        ProblemSpec p;
        p.op = op;
        p.dtype = DType::bf16;
        p.weight_dtype = DType::bf16;
        p.hidden = h;
        for (const KernelConfig& c : configs_for(p, Arch::parse("sm_90"))) {  // what prewarm builds
          bool seen = false;
          for (const KernelConfig& o : out) seen = seen || o == c;
          if (!seen) out.push_back(c);
        }
      }
    }
  }
  return out;
}

std::vector<std::string> prewarm_argv(const std::string& hidden) {
  return {cputest::cli_path(), "prewarm", "--arch", "sm_90", "--op", "rmsnorm,fused_add_rmsnorm",
          "--dtype", "bf16", "--hidden", hidden, "-j", "1"};
}

// Slug of a "compiled  <slug>  (N ms)" / "cached    <slug>" line.
std::string slug_of(const std::string& line) {
  std::istringstream ss(line);
  std::string word, s;
  ss >> word >> s;
  return s;
}

void run_concurrent(const std::vector<Job>& jobs) {
  TempDir cache("concurrent-cache");
  TempDir logs("concurrent-logs");
  const std::vector<KernelConfig> expected = expected_configs(jobs);
  std::set<std::string> expected_slugs;
  for (const KernelConfig& c : expected) expected_slugs.insert(slug(c));

  // Start every process before waiting for any.
  std::vector<pid_t> pids;
  std::vector<std::string> outs;
  for (size_t i = 0; i < jobs.size(); ++i) {
    outs.push_back(logs.str() + "/p" + std::to_string(i) + ".txt");
    pids.push_back(njtest::spawn(prewarm_argv(jobs[i].hidden), cputest::cli_env(cache.str()),
                                 outs.back()));
  }
  std::map<std::string, int> compiled_by_slug;
  int compiled_lines = 0;
  for (size_t i = 0; i < pids.size(); ++i) {
    const njtest::ProcessResult r = njtest::wait_for(pids[i], outs[i]);
    INFO("process " << i << " (--hidden " << jobs[i].hidden << ") output:\n" << r.output);
    CHECK(r.signal == 0);
    CHECK(r.exit_code == 0);
    const auto compiled = cputest::lines_starting_with(r.output, "compiled ");
    const auto cached = cputest::lines_starting_with(r.output, "cached ");
    const size_t mine = expected_configs({jobs[i]}).size();
    CHECK(compiled.size() + cached.size() == mine);
    CHECK(cputest::lines_starting_with(r.output, "failed ").empty());
    CHECK(cputest::contains(r.output, "prewarm: " + std::to_string(mine) + " kernels: "));
    CHECK(cputest::contains(r.output, " 0 failed"));
    for (const std::string& l : compiled) {
      ++compiled_by_slug[slug_of(l)];
      ++compiled_lines;
    }
  }
  // Each key compiled exactly once across all processes.
  CHECK(compiled_lines == int(expected.size()));
  for (const std::string& s : expected_slugs) {
    INFO("slug " << s);
    CHECK(compiled_by_slug[s] == 1);
  }
  CHECK(compiled_by_slug.size() == expected_slugs.size());

  // The entries on disk: exactly the expected ones, complete, and what NVRTC produces.
  DiskCache::Options o;
  o.root = cache.path();
  DiskCache dc(o, toolchain_fingerprint());
  std::set<std::string> want_files, have_files;
  for (const KernelConfig& c : expected) {
    const CacheKey k = cache_key(c);
    const fs::path entry = dc.entry_path(c, k);
    want_files.insert(fs::relative(entry, cache.path()).string());
    INFO("entry " << entry.string());
    REQUIRE(fs::is_regular_file(entry));
    REQUIRE(fs::is_regular_file(dc.sidecar_path(c, k)));
    const std::string file = cputest::read_file(entry);
    REQUIRE(file.size() > sizeof(CacheEntryHeader));
    CacheEntryHeader h{};
    std::memcpy(&h, file.data(), sizeof h);
    CHECK(std::string(h.magic, 8) == "NJITCUB1");
    CHECK(h.key_hi == k.hi);
    CHECK(h.key_lo == k.lo);
    CHECK(h.arch_cc == 90);
    CHECK(file.substr(sizeof h) == compile(c).bytes);
  }
  for (const std::string& f : cputest::files_with_extension(cache.path(), ".cubin"))
    have_files.insert(f);
  CHECK(have_files == want_files);
  CHECK(cputest::files_containing(cache.path(), ".tmp.").empty());
  CHECK_FALSE(fs::exists(dc.dir() / "quarantine"));

  // A later single run finds everything valid ("cached") and rewrites nothing.
  const auto before = cputest::snapshot(cache.path());
  std::string all_hidden;
  for (const Job& j : jobs) all_hidden += (all_hidden.empty() ? "" : ",") + j.hidden;
  const njtest::ProcessResult later =
      njtest::run(prewarm_argv(all_hidden), cputest::cli_env(cache.str()));
  INFO("later run output:\n" << later.output);
  CHECK(later.exit_code == 0);
  CHECK(cputest::lines_starting_with(later.output, "compiled ").empty());
  CHECK(cputest::lines_starting_with(later.output, "cached ").size() == expected.size());
  const std::string n = std::to_string(expected.size());
  CHECK(cputest::contains(later.output, "prewarm: " + n + " kernels: 0 compiled, " + n +
                                            " already cached, 0 failed"));
  const auto after = cputest::snapshot(cache.path());
  CHECK(after.size() == before.size());
  CHECK(after == before);
  CHECK(cputest::files_containing(cache.path(), ".tmp.").empty());
}

}  // namespace

TEST_CASE("8 processes prewarming the same kernels on a cold cache compile each key once",
          "[cache][concurrency]") {
  run_concurrent(std::vector<Job>(8, Job{"4096,8192"}));
}

TEST_CASE("10 processes with overlapping but different problem sets compile each key once",
          "[cache][concurrency]") {
  std::vector<Job> jobs;
  for (int i = 0; i < 5; ++i) jobs.push_back(Job{"4096,8192"});
  for (int i = 0; i < 5; ++i) jobs.push_back(Job{i % 2 ? "8192,5120" : "5120,4096"});
  run_concurrent(jobs);
}

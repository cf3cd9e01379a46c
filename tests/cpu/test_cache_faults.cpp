// Faults the disk cache must survive: many processes on a cold cache, processes killed in the
// middle of a compile or a write, corrupted and foreign entries, a read-only root, no home
// directory, a full disk, offline mode on a cold cache. The runtime reads its environment once
// per process, so environment faults run in child processes (the hidden test case below, or the
// CLI).
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "cache_test_util.hpp"
#include "file_lock.hpp"
#include "normjit/errors.hpp"
#include "normjit/normjit.hpp"
#include "runtime.hpp"

using namespace cachetest;
using cputest::contains;
using cputest::TempDir;

namespace {

// ---- the runtime child ------------------------------------------------------------------------

// Items "cc:hidden" -> rmsnorm bf16 configs.
std::vector<KernelConfig> parse_child_configs(const std::string& list) {
  std::vector<KernelConfig> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    const size_t colon = item.find(':');
    out.push_back(config(std::stoi(item.substr(0, colon)), std::stoll(item.substr(colon + 1))));
  }
  return out;
}

struct ChildRun {
  njtest::ProcessResult proc;
  std::map<std::string, std::string> outcome;  // slug -> "hit" / "compiled" / "miss" / "error"
  std::map<std::string, std::string> digest;   // slug -> payload digest
  std::string miss_command;                    // the prewarm command of the first miss
  int compiles = -1, disk_hits = -1;
  std::string outcome_of(const KernelConfig& c) const {
    const auto it = outcome.find(slug(c));
    return it == outcome.end() ? "(none)" : it->second;
  }
};

// Runs the hidden child test case: `cache` is its NORMJIT_CACHE_DIR ("-": unset), `configs`
// its "cc:hidden" list, `env` more variables.
ChildRun run_child(const std::string& cache, const std::string& configs, njtest::EnvList env = {},
                   const ChildSetup& setup = {}) {
  njtest::EnvList full = clean_env("");
  for (const auto& kv : env) set(&full, kv.first, kv.second);
  set(&full, "NJ_CHILD_CACHE", cache);
  set(&full, "NJ_CHILD_CONFIGS", configs);
  ChildRun r;
  r.proc = run_with({njtest::self_exe(), "[.cache_child]"}, full, setup);
  for (const std::string& l : child_lines(r.proc.output, "result ")) {
    std::istringstream ss(l);
    std::string w, kind, slug, outcome, digest;
    ss >> w >> kind >> slug >> outcome >> digest;
    r.outcome[slug] = outcome;
    r.digest[slug] = digest;
  }
  for (const std::string& l : child_lines(r.proc.output, "miss ")) {
    std::istringstream ss(l);
    std::string w, kind, slug;
    ss >> w >> kind >> slug;
    r.outcome[slug] = "miss";
    const size_t bar = l.find(" | ");
    if (r.miss_command.empty() && bar != std::string::npos)
      r.miss_command = l.substr(bar + 3, l.find(" | ", bar + 3) - bar - 3);
  }
  for (const std::string& l : child_lines(r.proc.output, "stats ")) {
    std::sscanf(l.c_str(), "CHILD stats compiles=%d disk_hits=%d", &r.compiles, &r.disk_hits);
  }
  return r;
}

// The child's results for `configs` are NVRTC's bytes.
void check_child_bytes(const ChildRun& r, const std::string& configs) {
  for (const KernelConfig& c : parse_child_configs(configs)) {
    INFO("config " << slug(c));
    REQUIRE(r.digest.count(slug(c)));
    CHECK(r.digest.at(slug(c)) == digest(reference(c).bytes));
  }
}

// ---- CLI prewarm children -------------------------------------------------------------------

std::vector<std::string> prewarm_argv(const std::string& hidden, const std::string& jobs = "1") {
  return {cputest::cli_path(), "prewarm", "--arch", "sm_90", "--op", "rmsnorm,fused_add_rmsnorm",
          "--dtype", "bf16", "--hidden", hidden, "-j", jobs, "--progress", "lines"};
}

std::string second_word(const std::string& line) {
  std::istringstream ss(line);
  std::string a, b;
  ss >> a >> b;
  return b;
}

std::set<std::string> expected_slugs(const std::string& hidden_list) {
  std::set<std::string> out;
  std::stringstream ss(hidden_list);
  for (std::string h; std::getline(ss, h, ',');)
    for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm})
      for (const KernelConfig& c : prewarm_configs(90, std::stoll(h), op)) out.insert(slug(c));
  return out;
}

std::vector<KernelConfig> expected_configs(const std::string& hidden_list) {
  std::vector<KernelConfig> out;
  std::stringstream ss(hidden_list);
  for (std::string h; std::getline(ss, h, ',');)
    for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm})
      for (const KernelConfig& c : prewarm_configs(90, std::stoll(h), op)) out.push_back(c);
  return out;
}

}  // namespace

// Not a test: the child process of the environment-fault tests. NJ_CHILD_CACHE is its cache
// root ("-": none), NJ_CHILD_CONFIGS the kernels to ask the runtime for, NJ_CHILD_OFFLINE its
// NORMJIT_OFFLINE.
TEST_CASE("cache child: runtime lookups", "[.cache_child]") {
  const char* cache = std::getenv("NJ_CHILD_CACHE");
  const char* configs = std::getenv("NJ_CHILD_CONFIGS");
  REQUIRE(cache);
  REQUIRE(configs);
  // The test main gave this process a private root; this child wants its own.
  if (std::string(cache) == "-") ::unsetenv("NORMJIT_CACHE_DIR");
  else ::setenv("NORMJIT_CACHE_DIR", cache, 1);
  // The test main unsets NORMJIT_OFFLINE for every test process; this one may want it.
  if (const char* off = std::getenv("NJ_CHILD_OFFLINE")) ::setenv("NORMJIT_OFFLINE", off, 1);
  Runtime& rt = Runtime::get();
  for (const KernelConfig& c : parse_child_configs(configs)) {
    try {
      CacheOutcome outcome;
      const Binary b = rt.binary(c, &outcome);
      std::printf("CHILD result %s %s %s %zu\n", slug(c).c_str(),
                  outcome == CacheOutcome::Hit ? "hit" : "compiled", digest(b.bytes).c_str(),
                  b.bytes.size());
    } catch (const CacheMissError& e) {
      std::printf("CHILD miss %s | %s | %s\n", e.slug().c_str(), e.prewarm_command().c_str(), e.what());
    } catch (const std::exception& e) {
      std::printf("CHILD error %s: %s\n", slug(c).c_str(), e.what());
    }
  }
  const RuntimeStats s = runtime_stats();
  const CacheInfo ci = cache_info();
  std::printf("CHILD stats compiles=%d disk_hits=%d\n", int(s.compiles), int(s.disk_hits));
  std::printf("CHILD cache root=%s writable=%d\n", ci.root.c_str(), int(ci.writable));
  std::fflush(stdout);
}

TEST_CASE("faults: 16 processes x 3 rounds on a cold cache compile each key once, same bytes",
          "[cache][faults][concurrency]") {
  // Half the processes want the same kernels, the others overlapping and different ones.
  const std::vector<std::string> sets = {"4096,8192", "4096,8192", "2048,4096", "8192,5120,1024"};
  std::set<std::string> all_slugs;
  std::vector<KernelConfig> all_configs;
  for (const std::string& s : sets) {
    for (const KernelConfig& c : expected_configs(s)) {
      if (all_slugs.insert(slug(c)).second) all_configs.push_back(c);
    }
  }
  std::map<std::string, std::string> first_round_files;  // relative .cubin path -> bytes
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    TempDir cache("faults-16-cache");
    TempDir logs("faults-16-logs");
    std::vector<pid_t> pids;
    std::vector<std::string> outs, hidden;
    for (int i = 0; i < 16; ++i) {
      hidden.push_back(sets[size_t(i % 2 ? 0 : (i / 2) % sets.size())]);
      outs.push_back(logs.str() + "/p" + std::to_string(i) + ".txt");
      pids.push_back(njtest::spawn(prewarm_argv(hidden.back(), i % 3 ? "1" : "2"),
                                   clean_env(cache.str()), outs.back()));
    }
    std::map<std::string, int> compiled_by_slug;
    for (size_t i = 0; i < pids.size(); ++i) {
      const njtest::ProcessResult r = njtest::wait_for(pids[i], outs[i]);
      INFO("process " << i << " (--hidden " << hidden[i] << ") output:\n" << r.output);
      CHECK(r.signal == 0);
      CHECK(r.exit_code == 0);
      const auto compiled = cputest::lines_starting_with(r.output, "compiled ");
      const auto cached = cputest::lines_starting_with(r.output, "cached ");
      std::set<std::string> mine;
      for (const auto& l : compiled) mine.insert(second_word(l));
      for (const auto& l : cached) mine.insert(second_word(l));
      CHECK(mine == expected_slugs(hidden[i]));
      CHECK(compiled.size() + cached.size() == expected_slugs(hidden[i]).size());
      CHECK(warnings(r.output).empty());
      for (const auto& l : compiled) ++compiled_by_slug[second_word(l)];
    }
    // At most once per key machine-wide; and the cache was cold, so exactly once.
    for (const std::string& s : all_slugs) {
      INFO("slug " << s);
      CHECK(compiled_by_slug[s] == 1);
    }
    CHECK(compiled_by_slug.size() == all_slugs.size());
    // Every entry is valid and holds NVRTC's bytes, in every round.
    std::map<std::string, std::string> files;
    for (const KernelConfig& c : all_configs) {
      const fs::path e = entry_of(cache.path(), c);
      INFO("entry " << e.string());
      const EntryCheck chk = check_entry(e, sidecar_of(cache.path(), c),
                                         {cache_key(c), c.arch.cc, nvrtc_version_code(), toolchain_fingerprint()});
      CHECK(chk.status == EntryStatus::Ok);
      CHECK(chk.binary.bytes == reference(c).bytes);
      files[fs::relative(e, cache.path()).string()] = cputest::read_file(e);
    }
    CHECK(cputest::files_with_extension(cache.path(), ".cubin").size() == all_configs.size());
    if (round == 0) first_round_files = files;
    CHECK(files == first_round_files);
    CHECK(temp_files(cache.path()).empty());
    CHECK_FALSE(fs::exists(fingerprint_dir(cache.path()) / "quarantine"));
  }
}

TEST_CASE("faults: a process killed while compiling under the lock blocks nobody", "[cache][faults]") {
  TempDir cache("faults-kill-compile");
  TempDir logs("faults-kill-compile-logs");
  const KernelConfig c = config(90, 4096);
  const std::string stalled_out = logs.str() + "/stalled.txt";
  njtest::EnvList env = clean_env(cache.str());
  set(&env, "NORMJIT_LOCK_TIMEOUT_MS", "120000");  // a waiter must get in by the kill, not a timeout
  njtest::EnvList stall_env = env;
  set(&stall_env, "NORMJIT_TEST_STALL", "compile:60000");
  const std::vector<std::string> argv = {cputest::cli_path(), "prewarm", "--arch", "sm_90", "--op",
                                         "rmsnorm", "--hidden", "4096", "--rows", "1", "--progress", "lines"};
  const pid_t stalled = njtest::spawn(argv, stall_env, stalled_out);
  const bool stalling = wait_for_text(stalled_out, "normjit test-stall: compile", std::chrono::seconds(30));
  INFO("stalled child output:\n" << cputest::read_file(stalled_out));
  REQUIRE(stalling);

  // A second process for the same key waits on the lock...
  const std::string waiter_out = logs.str() + "/waiter.txt";
  const pid_t waiter = njtest::spawn(argv, env, waiter_out);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  int status = 0;
  CHECK(::waitpid(waiter, &status, WNOHANG) == 0);  // still blocked
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").empty());

  // ...and gets the lock as soon as the holder dies.
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(::kill(stalled, SIGKILL) == 0);
  const njtest::ProcessResult killed = njtest::wait_for(stalled, stalled_out);
  CHECK(killed.signal == SIGKILL);
  const njtest::ProcessResult w = njtest::wait_for(waiter, waiter_out);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO("waiter output:\n" << w.output);
  CHECK(w.exit_code == 0);
  CHECK(waited < 20.0);
  CHECK(cputest::lines_starting_with(w.output, "compiled ").size() == 1);
  CHECK(warnings(w.output).empty());  // in particular no "compiling without the lock"

  // Nothing torn, nothing left over, the lock is free, and later processes hit.
  DiskCache dc = make_cache(cache.path());
  const auto loc = dc.find(c);
  REQUIRE(loc);
  CHECK(cputest::read_file(loc->path).substr(sizeof(CacheEntryHeader)) == reference(c).bytes);
  CHECK(temp_files(cache.path()).empty());
  fs::path lock = entry_of(cache.path(), c);
  lock.replace_extension(".lock");
  FileLock probe(lock.string(), std::chrono::milliseconds(0));
  CHECK(probe.locked());
}

TEST_CASE("faults: a process killed halfway through writing an entry leaves no torn entry",
          "[cache][faults]") {
  TempDir cache("faults-kill-write");
  TempDir logs("faults-kill-write-logs");
  // Hidden 4096: one kernel at one row, whether the output is apart or over the input.
  const KernelConfig c = config(90, 4096);
  const std::string out = logs.str() + "/stalled.txt";
  njtest::EnvList env = clean_env(cache.str());
  set(&env, "NORMJIT_TEST_STALL", "write:60000");
  const std::vector<std::string> argv = {cputest::cli_path(), "prewarm", "--arch", "sm_90", "--op",
                                         "rmsnorm", "--hidden", "4096", "--rows", "1", "--progress", "lines"};
  const pid_t stalled = njtest::spawn(argv, env, out);
  const bool stalling = wait_for_text(out, "normjit test-stall: write", std::chrono::seconds(30));
  INFO("stalled child output:\n" << cputest::read_file(out));
  REQUIRE(stalling);

  // Mid-write: a half-written temp file exists, the entry itself is not visible.
  const fs::path entry = entry_of(cache.path(), c);
  CHECK_FALSE(fs::exists(entry));
  const auto temps = temp_files(cache.path());
  REQUIRE(temps.size() == 1);
  CHECK(fs::file_size(cache.path() / temps[0]) == (sizeof(CacheEntryHeader) + reference(c).bytes.size()) / 2);
  {
    DiskCache offline = make_cache(cache.path(), /*offline=*/true);
    CacheOutcome outcome;
    CHECK_THROWS_AS(offline.get_or_build(c, [] { return Binary{}; }, &outcome), CacheMissError);
  }
  REQUIRE(::kill(stalled, SIGKILL) == 0);
  CHECK(njtest::wait_for(stalled, out).signal == SIGKILL);
  CHECK_FALSE(make_cache(cache.path()).find(c));

  // The next process compiles it (no waiting for a stale lock), and removes the dead writer's
  // temp file while it holds the key's lock.
  const auto t0 = std::chrono::steady_clock::now();
  const njtest::ProcessResult r = njtest::run(argv, clean_env(cache.str()));
  INFO("next process output:\n" << r.output);
  CHECK(r.exit_code == 0);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
  CHECK(cputest::lines_starting_with(r.output, "compiled ").size() == 1);
  CHECK(warnings(r.output).empty());
  CHECK(temp_files(cache.path()).empty());
  const auto loc = make_cache(cache.path()).find(c);
  REQUIRE(loc);
  CHECK(cputest::read_file(loc->path).substr(sizeof(CacheEntryHeader)) == reference(c).bytes);
  CHECK_FALSE(fs::exists(fingerprint_dir(cache.path()) / "quarantine"));  // it was missing, not bad
}

TEST_CASE("faults: foreign entries (NVRTC version, toolchain, tampered sidecar) are rebuilt",
          "[cache][faults]") {
  const KernelConfig c = config(90, 4096);
  const KernelConfig c100 = config(100, 4096);
  struct Case {
    const char* name;
    bool sidecar;  // the damaged file is the sidecar
    std::function<void(const fs::path& entry, const fs::path& side)> damage;
  };
  const std::vector<Case> cases = {
      {"header: built by another NVRTC (header re-hashed)", false,
       [](const fs::path& e, const fs::path&) {
         CacheEntryHeader h = header_of(cputest::read_file(e));
         h.nvrtc_version = h.nvrtc_version == 12080 ? 12090 : 12080;
         cputest::write_file(e, with_header(cputest::read_file(e), h));
       }},
      {"header and sidecar: both say another NVRTC", false,
       [](const fs::path& e, const fs::path& s) {
         CacheEntryHeader h = header_of(cputest::read_file(e));
         h.nvrtc_version = 12080;
         cputest::write_file(e, with_header(cputest::read_file(e), h));
         nlohmann::json j = nlohmann::json::parse(cputest::read_file(s));
         j["nvrtc"] = "12.8";
         cputest::write_file(s, j.dump());
       }},
      {"format 1 header (the previous layout)", false,
       [](const fs::path& e, const fs::path&) {
         CacheEntryHeader h = header_of(cputest::read_file(e));
         h.format_version = 1;
         cputest::write_file(e, with_header(cputest::read_file(e), h));
       }},
      {"header for another arch, sidecar for this one", false,
       [&](const fs::path& e, const fs::path&) {
         CacheEntryHeader h = header_of(cputest::read_file(e));
         h.arch_cc = 100;
         cputest::write_file(e, with_header(cputest::read_file(e), h));
       }},
      {"sidecar: another NVRTC version", true,
       [](const fs::path&, const fs::path& s) {
         nlohmann::json j = nlohmann::json::parse(cputest::read_file(s));
         j["nvrtc"] = "12.8";
         cputest::write_file(s, j.dump());
       }},
      {"sidecar: another toolchain's fingerprint", true,
       [](const fs::path&, const fs::path& s) {
         nlohmann::json j = nlohmann::json::parse(cputest::read_file(s));
         j["fingerprint"] = "0123456789abcdef";
         cputest::write_file(s, j.dump());
       }},
      {"sidecar: config edited (no longer hashes to the key)", true,
       [](const fs::path&, const fs::path& s) {
         nlohmann::json j = nlohmann::json::parse(cputest::read_file(s));
         j["config"]["hidden"] = 4097;
         cputest::write_file(s, j.dump());
       }},
      {"sidecar: config names another arch (key kept)", true,
       [&](const fs::path&, const fs::path& s) {
         nlohmann::json j = nlohmann::json::parse(cputest::read_file(s));
         j["config"] = nlohmann::json::parse(canonical_json(c100));
         cputest::write_file(s, j.dump());
       }},
      {"sidecar: not an object", true,
       [](const fs::path&, const fs::path& s) { cputest::write_file(s, "[1, 2, 3]"); }},
      {"sidecar: empty file", true, [](const fs::path&, const fs::path& s) { cputest::write_file(s, ""); }},
  };
  for (const Case& cs : cases) {
    INFO("case: " << cs.name);
    TempDir tmp("faults-foreign");
    DiskCache dc = make_cache(tmp.path());
    CacheOutcome outcome;
    int builds = 0;
    auto build = [&] {
      ++builds;
      return compile(c);
    };
    dc.get_or_build(c, build, &outcome);
    const fs::path e = dc.entry_path(c, cache_key(c)), s = dc.sidecar_path(c, cache_key(c));
    const std::string pristine = cputest::read_file(e);
    cs.damage(e, s);
    const std::string damaged = cputest::read_file(cs.sidecar ? s : e);
    // The one validation: check_entry, as lookups and `cache verify` use it.
    const EntryCheck chk = check_entry(e, s, {cache_key(c), 90, nvrtc_version_code(), toolchain_fingerprint()});
    INFO("why: " << chk.why);
    CHECK(chk.status == EntryStatus::Invalid);
    CHECK_FALSE(dc.find(c));
    const Binary got = dc.get_or_build(c, build, &outcome);
    CHECK(outcome == CacheOutcome::Compiled);
    CHECK(builds == 2);
    CHECK(got.bytes == reference(c).bytes);
    // Moved aside, rebuilt byte-identical, hits again.
    bool found = false;
    for (const auto& q : fs::directory_iterator(dc.dir() / "quarantine")) {
      const std::string n = q.path().filename().string();
      if (n.rfind((cs.sidecar ? s : e).filename().string() + ".", 0) == 0)
        found = cputest::read_file(q.path()) == damaged;
    }
    CHECK(found);
    CHECK(cputest::read_file(e) == pristine);
    dc.get_or_build(c, build, &outcome);
    CHECK(outcome == CacheOutcome::Hit);
    CHECK(builds == 2);
  }
}

TEST_CASE("faults: a corrupted entry under the runtime is rebuilt with one warning",
          "[cache][faults]") {
  TempDir cache("faults-runtime-corrupt");
  const std::string cfgs = "90:4096,90:8192";
  const ChildRun warm = run_child(cache.str(), cfgs);
  INFO("warm-up child:\n" << warm.proc.output);
  REQUIRE(warm.proc.exit_code == 0);
  CHECK(warm.compiles == 2);
  // Flip a payload byte of one entry.
  const fs::path e = entry_of(cache.path(), config(90, 4096));
  std::string bytes = cputest::read_file(e);
  bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x40);
  cputest::write_file(e, bytes);
  const ChildRun r = run_child(cache.str(), cfgs);
  INFO("child:\n" << r.proc.output);
  CHECK(r.proc.exit_code == 0);
  CHECK(r.compiles == 1);
  CHECK(r.disk_hits == 1);
  check_child_bytes(r, cfgs);
  const std::string w = the_one_warning(r.proc.output);
  CHECK(contains(w, "payload checksum mismatch"));
  CHECK(make_cache(cache.path()).find(config(90, 4096)));
}

TEST_CASE("faults: a read-only cache root: the call succeeds from memory with one warning",
          "[cache][faults][env]") {
  // root ignores permission bits: as root, the child runs as an unprivileged user instead.
  const bool as_root = ::geteuid() == 0;
  ChildSetup as_user;
  as_user.uid = unmapped_uid();
  if (as_root && !as_user.uid) {
    WARN("skipped: found no free uid to run the child as");
    return;
  }
  TempDir tmp("faults-readonly");
  ::chmod(tmp.str().c_str(), 0755);
  const std::string cfgs = "90:4096,80:2048";

  SECTION("cold: nothing can be created") {
    const fs::path root = tmp.path() / "ro";
    fs::create_directory(root);
    ::chmod(root.c_str(), as_root ? 0755 : 0555);  // root's dir is read-only to the child's user
    const auto before = cputest::snapshot(tmp.path());
    const ChildRun r = run_child(root.string(), cfgs, {}, as_user);
    INFO("child:\n" << r.proc.output);
    if (!child_set_up(r.proc)) return;
    CHECK(r.proc.exit_code == 0);
    CHECK(r.compiles == 2);
    check_child_bytes(r, cfgs);
    const std::string w = the_one_warning(r.proc.output);
    CHECK(contains(w, "memory only"));
    CHECK(cputest::snapshot(tmp.path()) == before);
  }
  SECTION("warm: existing entries are used, nothing is written") {
    const fs::path root = tmp.path() / "warm";
    const njtest::ProcessResult p = njtest::run(
        {cputest::cli_path(), "prewarm", "--arch", "sm_90", "--op", "rmsnorm", "--hidden", "4096", "--rows", "1"},
        clean_env(root.string()));
    REQUIRE(p.exit_code == 0);
    if (!as_root) ::chmod(fingerprint_dir(root).c_str(), 0555);
    const auto before = cputest::snapshot(tmp.path());
    const ChildRun r = run_child(root.string(), cfgs, {}, as_user);
    INFO("child:\n" << r.proc.output);
    if (!child_set_up(r.proc)) return;
    CHECK(r.proc.exit_code == 0);
    CHECK(r.outcome_of(config(90, 4096)) == "hit");
    CHECK(r.outcome_of(config(80, 2048)) == "compiled");
    check_child_bytes(r, cfgs);
    const std::string w = the_one_warning(r.proc.output);
    CHECK(contains(w, "not writable"));
    CHECK(cputest::snapshot(tmp.path()) == before);
  }
}

TEST_CASE("faults: no HOME, XDG_CACHE_HOME or NORMJIT_CACHE_DIR: memory only with one warning",
          "[cache][faults][env]") {
  // With HOME unset the runtime falls back to the passwd entry's home; a user without one is
  // the case where no directory is known at all.
  ChildSetup as_user;
  if (::geteuid() == 0) {
    as_user.uid = unmapped_uid();
    if (!as_user.uid) {
      WARN("skipped: found no free uid to run the child as");
      return;
    }
  } else if (::getpwuid(::geteuid())) {
    WARN("skipped: needs root, or a user without a passwd entry");
    return;
  }
  const std::string cfgs = "90:4096,90:2048";
  const ChildRun r = run_child("-", cfgs, {{"HOME", ""}, {"XDG_CACHE_HOME", ""}}, as_user);
  INFO("child:\n" << r.proc.output);
  if (!child_set_up(r.proc)) return;
  CHECK(r.proc.exit_code == 0);
  CHECK(r.compiles == 2);
  check_child_bytes(r, cfgs);
  const std::string w = the_one_warning(r.proc.output);
  CHECK(contains(w, "no NORMJIT_CACHE_DIR, XDG_CACHE_HOME or HOME"));
  CHECK(child_lines(r.proc.output, "cache root= writable=0").size() == 1);
}

TEST_CASE("faults: a full disk (RLIMIT_FSIZE): the call succeeds from memory with one warning",
          "[cache][faults][env]") {
  TempDir cache("faults-disk-full");
  // Room for fingerprint.json and a sidecar, not for a cubin: the first store fails halfway.
  ChildSetup limited;
  limited.max_file_size = 4096;
  REQUIRE(reference(config(90, 4096)).bytes.size() > 4096);
  const std::string cfgs = "90:4096,90:8192,80:4096";
  const ChildRun r = run_child(cache.str(), cfgs, {}, limited);
  INFO("child:\n" << r.proc.output);
  CHECK(r.proc.signal == 0);  // SIGXFSZ ignored
  CHECK(r.proc.exit_code == 0);
  CHECK(r.compiles == 3);
  check_child_bytes(r, cfgs);
  const std::string w = the_one_warning(r.proc.output);
  CHECK(contains(w, "cannot write to the kernel cache"));
  CHECK(contains(w, "memory only"));
  // Nothing torn or half-published stays behind.
  CHECK(cputest::files_with_extension(cache.path(), ".cubin").empty());
  CHECK(temp_files(cache.path()).empty());
  for (const std::string& f : cputest::files_with_extension(cache.path(), ".json"))
    CHECK(fs::path(f).filename() == "fingerprint.json");

  // The same through `normjit prewarm`: it fails loudly, since it leaves nothing behind.
  const njtest::ProcessResult p = run_with(
      {cputest::cli_path(), "prewarm", "--arch", "sm_90", "--op", "rmsnorm", "--hidden", "4096", "--rows", "1",
       "--progress", "lines"},
      clean_env(cache.str()), limited);
  INFO("prewarm:\n" << p.output);
  CHECK(p.exit_code == 1);
  CHECK(contains(p.output, "compiled but not stored"));
  CHECK(contains(p.output, "1 failed"));
}

TEST_CASE("faults: offline mode on a cold cache names the kernel and the command that makes it",
          "[cache][faults][offline]") {
  TempDir cache("faults-offline");
  const std::string cfgs = "90:4096";
  const KernelConfig c = config(90, 4096);
  const ChildRun cold = run_child(cache.str(), cfgs, {{"NJ_CHILD_OFFLINE", "1"}});
  INFO("cold child:\n" << cold.proc.output);
  CHECK(cold.proc.exit_code == 0);
  CHECK(cold.outcome_of(c) == "miss");
  CHECK(cold.compiles == 0);
  CHECK(contains(cold.proc.output, "offline mode (NORMJIT_OFFLINE)"));
  CHECK(contains(cold.proc.output, cache.str()));
  REQUIRE(cold.miss_command.rfind("normjit prewarm ", 0) == 0);
  CHECK(cold.miss_command == prewarm_command(c));

  // The suggested command, run as it is (NORMJIT_OFFLINE still set), makes the next call hit.
  std::vector<std::string> argv;
  std::istringstream ss(cold.miss_command);
  for (std::string w; ss >> w;) argv.push_back(w);
  argv[0] = cputest::cli_path();
  njtest::EnvList env = clean_env(cache.str());
  set(&env, "NORMJIT_OFFLINE", "1");
  const njtest::ProcessResult p = njtest::run(argv, env);
  INFO("prewarm:\n" << p.output);
  REQUIRE(p.exit_code == 0);
  const ChildRun warm = run_child(cache.str(), cfgs, {{"NJ_CHILD_OFFLINE", "1"}});
  INFO("warm child:\n" << warm.proc.output);
  CHECK(warm.outcome_of(c) == "hit");
  CHECK(warm.compiles == 0);
  check_child_bytes(warm, cfgs);
}

// Helpers of the cache fault / admin / prewarm tests: children with resource limits or another
// user id, the hidden runtime child, reference binaries and small cache-tree utilities.
#pragma once
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <optional>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cpu_test_util.hpp"
#include "disk_cache.hpp"
#include "heuristics.hpp"
#include "kernel_config.hpp"
#include "nvrtc_compiler.hpp"
#include "op_registry.hpp"
#include "support/process.hpp"

namespace cachetest {
namespace fs = std::filesystem;
using namespace normjit;
using namespace normjit::detail;

// Every normjit variable a child could inherit from the developer's shell, unset.
inline njtest::EnvList clean_env(const std::string& cache_dir) {
  njtest::EnvList env = cputest::cli_env(cache_dir);
  env.push_back({"NORMJIT_PREBUILT_CACHE_DIR", ""});
  env.push_back({"NORMJIT_TEST_STALL", ""});
  return env;
}

inline void set(njtest::EnvList* env, const std::string& k, const std::string& v) {
  for (auto& kv : *env) {
    if (kv.first == k) {
      kv.second = v;
      return;
    }
  }
  env->push_back({k, v});
}

// What a child does between fork and exec.
struct ChildSetup {
  rlim_t max_file_size = 0;  // RLIMIT_FSIZE (0: unlimited); SIGXFSZ ignored, writes get EFBIG
  uid_t uid = 0;             // run as this user (0: unchanged); needs root
};

// Exit code of a child whose ChildSetup could not be applied (e.g. setuid refused).
constexpr int kSetupFailed = 78;

// Applies a ChildSetup in the forked child (njtest::spawn's pre-exec hook).
inline void apply_child_setup(const void* arg) {
  const ChildSetup& setup = *static_cast<const ChildSetup*>(arg);
  if (setup.max_file_size) {
    ::signal(SIGXFSZ, SIG_IGN);  // ignored dispositions survive exec: writes fail with EFBIG
    const rlimit lim{setup.max_file_size, setup.max_file_size};
    if (::setrlimit(RLIMIT_FSIZE, &lim) != 0) ::_exit(kSetupFailed);
  }
  if (setup.uid) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(gid_t(setup.uid)) != 0 || ::setuid(setup.uid) != 0)
      ::_exit(kSetupFailed);
  }
}

inline pid_t spawn_with(const std::vector<std::string>& argv, const njtest::EnvList& env,
                        const std::string& output_file, const ChildSetup& setup) {
  return njtest::spawn(argv, env, output_file, apply_child_setup, &setup);
}

inline njtest::ProcessResult run_with(const std::vector<std::string>& argv, const njtest::EnvList& env,
                                      const ChildSetup& setup) {
  const std::string dir = njtest::make_temp_dir("child");
  ::chmod(dir.c_str(), 0777);  // a child running as another user writes its output here
  const std::string out = dir + "/output.txt";
  njtest::ProcessResult r = njtest::wait_for(spawn_with(argv, env, out, setup), out);
  std::error_code ec;
  fs::remove_all(dir, ec);
  return r;
}

// A uid with no passwd entry (so no home directory either), for children that must not find
// one; 0 when the test does not run as root.
inline uid_t unmapped_uid() {
  if (::geteuid() != 0) return 0;
  for (uid_t u = 54321; u < 54400; ++u)
    if (!::getpwuid(u)) return u;
  return 0;
}

// Lines of the form "normjit warning: ..." in a child's output.
inline std::vector<std::string> warnings(const std::string& output) {
  return cputest::lines_starting_with(output, "normjit warning:");
}

// The single warning a child's output must hold (REQUIREs exactly one).
inline std::string the_one_warning(const std::string& output) {
  const std::vector<std::string> w = warnings(output);
  REQUIRE(w.size() == 1);
  return w[0];
}

// Whether a child started with its ChildSetup: false, with a WARN that the test is skipped,
// where this machine does not permit the set-up (setuid).
inline bool child_set_up(const njtest::ProcessResult& p) {
  if (p.exit_code != kSetupFailed) return true;
  WARN("skipped: setuid is not permitted here");
  return false;
}

// The config ops and prewarm choose for one problem (weight: the activation dtype unless given).
inline KernelConfig config(int cc, std::int64_t hidden = 4096, Op op = Op::rmsnorm,
                           DType dtype = DType::bf16, std::optional<DType> weight = std::nullopt,
                           bool rank3 = false, int max_vec = 0) {
  ProblemSpec p;
  p.op = op;
  p.dtype = dtype;
  p.weight_dtype = weight.value_or(dtype);
  p.hidden = hidden;
  p.rank3 = rank3;
  p.max_vec = max_vec;
  return choose_config(p, max_vec, Arch{cc});
}

// What `normjit prewarm` builds for one problem of unknown rows: a kernel per row class.
inline std::vector<KernelConfig> prewarm_configs(int cc, std::int64_t hidden, Op op) {
  ProblemSpec p;
  p.op = op;
  p.hidden = hidden;
  return configs_for(p, Arch{cc});
}

// NVRTC output is deterministic for a given source and options: compile once per config.
inline const Binary& reference(const KernelConfig& c) {
  static std::unordered_map<KernelConfig, Binary, KernelConfigHasher> cache;
  auto it = cache.find(c);
  if (it == cache.end()) it = cache.emplace(c, compile(c)).first;
  return it->second;
}

inline std::string digest(const std::string& bytes) {
  return fmt::format("{:016x}", XXH3_64bits(bytes.data(), bytes.size()));
}

inline DiskCache make_cache(const fs::path& root, bool offline = false,
                            std::vector<fs::path> prebuilt = {}) {
  DiskCache::Options o;
  o.root = root;
  o.offline = offline;
  o.prebuilt_roots = std::move(prebuilt);
  return DiskCache(o, toolchain_fingerprint());
}

inline fs::path fingerprint_dir(const fs::path& root) {
  return root / kCacheLayoutDir / toolchain_fingerprint();
}

inline fs::path entry_of(const fs::path& root, const KernelConfig& c) {
  return entry_path_in(fingerprint_dir(root), c, cache_key(c));
}

inline fs::path sidecar_of(const fs::path& root, const KernelConfig& c) {
  fs::path p = entry_of(root, c);
  p.replace_extension(".json");
  return p;
}

inline std::vector<std::string> temp_files(const fs::path& root) {
  return cputest::files_containing(root, ".tmp.");
}

// Re-hashes a modified header so that only the field the test changed is wrong.
inline std::string with_header(const std::string& file, const CacheEntryHeader& h0) {
  CacheEntryHeader h = h0;
  h.header_hash = XXH3_64bits(&h, offsetof(CacheEntryHeader, header_hash));
  std::string out = file;
  std::memcpy(out.data(), &h, sizeof h);
  return out;
}

inline CacheEntryHeader header_of(const std::string& file) {
  CacheEntryHeader h{};
  REQUIRE(file.size() >= sizeof h);
  std::memcpy(&h, file.data(), sizeof h);
  return h;
}

// Polls `file` until it contains `needle` (true) or `timeout` passes (false).
inline bool wait_for_text(const std::string& file, const std::string& needle,
                          std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (cputest::read_file(file).find(needle) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// A pid that certainly belongs to no process now (a reaped child's).
inline pid_t dead_pid() {
  const pid_t pid = njtest::spawn({"/bin/true"});
  njtest::wait_for(pid);
  return pid;
}

// "CHILD ..." lines of the runtime child (see test_cache_faults.cpp).
inline std::vector<std::string> child_lines(const std::string& output, const std::string& kind) {
  return cputest::lines_starting_with(output, "CHILD " + kind);
}

}  // namespace cachetest

// Child processes for tests: the multi-process cache tests and the second-process GPU test.
#pragma once
#include <sys/types.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace njtest {

using EnvList = std::vector<std::pair<std::string, std::string>>;  // value "" unsets

struct ProcessResult {
  int exit_code = -1;     // -1 when killed by a signal
  int signal = 0;
  std::string output;     // stdout and stderr together
};

// Starts argv[0] (a path) with extra environment; output goes to `output_file` if non-empty
// (created 0666, so a child running as another user can write it). `pre_exec`, if given, runs
// in the child right before exec (resource limits, user switch); it may _exit() on failure.
pid_t spawn(const std::vector<std::string>& argv, const EnvList& env = {},
            const std::string& output_file = "", void (*pre_exec)(const void*) = nullptr,
            const void* pre_exec_arg = nullptr);
// Waits for a spawned child.
ProcessResult wait_for(pid_t pid, const std::string& output_file = "");
// spawn + wait, capturing output.
ProcessResult run(const std::vector<std::string>& argv, const EnvList& env = {});

// Absolute path of the running executable (to re-run the test binary as a child).
std::string self_exe();
// A fresh empty directory under $TMPDIR, removed by the caller (or left for debugging).
std::string make_temp_dir(const std::string& tag);

// The body of a hermetic test binary's main: runs `session` (the Catch2 session, which only
// the main's file can name) with a private kernel cache (NORMJIT_CACHE_DIR under
// make_temp_dir(cache_tag), removed afterwards), the CUDA driver at `libcuda`
// (NORMJIT_LIBCUDA) and NORMJIT_OFFLINE unset; returns its exit code.
int run_hermetic(const std::string& cache_tag, const std::string& libcuda, const std::function<int()>& session);

}  // namespace njtest

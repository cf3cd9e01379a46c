#include "support/process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace njtest {

pid_t spawn(const std::vector<std::string>& argv, const EnvList& env, const std::string& output_file,
            void (*pre_exec)(const void*), const void* pre_exec_arg) {
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    for (const auto& [k, v] : env) {
      if (v.empty()) ::unsetenv(k.c_str());
      else ::setenv(k.c_str(), v.c_str(), 1);
    }
    if (!output_file.empty()) {
      const int fd = ::open(output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
      if (fd >= 0) {
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        ::close(fd);
      }
    }
    if (pre_exec) pre_exec(pre_exec_arg);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

ProcessResult wait_for(pid_t pid, const std::string& output_file) {
  ProcessResult r;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (!output_file.empty()) {
    std::ifstream in(output_file);
    std::stringstream ss;
    ss << in.rdbuf();
    r.output = ss.str();
  }
  return r;
}

ProcessResult run(const std::vector<std::string>& argv, const EnvList& env) {
  const std::string out = make_temp_dir("proc") + "/output.txt";
  ProcessResult r = wait_for(spawn(argv, env, out), out);
  std::filesystem::remove_all(std::filesystem::path(out).parent_path());
  return r;
}

std::string self_exe() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

std::string make_temp_dir(const std::string& tag) {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/normjit-test-" + tag + "-XXXXXX";
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
  return tmpl;
}

int run_hermetic(const std::string& cache_tag, const std::string& libcuda, const std::function<int()>& session) {
  const std::string cache = make_temp_dir(cache_tag);
  ::setenv("NORMJIT_CACHE_DIR", cache.c_str(), 1);
  ::setenv("NORMJIT_LIBCUDA", libcuda.c_str(), 1);
  ::unsetenv("NORMJIT_OFFLINE");
  const int rc = session();
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
  return rc;
}

}  // namespace njtest

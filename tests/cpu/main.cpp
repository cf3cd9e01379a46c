// Catch2 runner of the CPU suite. Every test process is hermetic: the process-wide runtime gets
// a private cache root (never ~/.cache/normjit), and the CUDA driver is pointed at a path that
// does not exist, so no CPU test can reach a GPU even on a machine that has one (a call that
// gets past validation fails with CudaError instead of launching on fake pointers).
#define CATCH_CONFIG_RUNNER
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "support/process.hpp"

int main(int argc, char** argv) {
  const std::string cache = njtest::make_temp_dir("cpu-runtime-cache");
  ::setenv("NORMJIT_CACHE_DIR", cache.c_str(), 1);
  ::setenv("NORMJIT_LIBCUDA", "/nonexistent/normjit-cpu-tests/libcuda.so.1", 1);
  ::unsetenv("NORMJIT_OFFLINE");
  const int rc = Catch::Session().run(argc, argv);
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
  return rc;
}

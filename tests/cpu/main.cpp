// Catch2 runner of the CPU suite. Every test process is hermetic: the process-wide runtime gets
// a private cache root (never ~/.cache/normjit), and the CUDA driver is pointed at a path that
// does not exist, so no CPU test can reach a GPU even on a machine that has one (a call that
// gets past validation fails with CudaError instead of launching on fake pointers).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/process.hpp"

int main(int argc, char** argv) {
  return njtest::run_hermetic("cpu-runtime-cache", "/nonexistent/normjit-cpu-tests/libcuda.so.1",
                             [&] { return Catch::Session().run(argc, argv); });
}

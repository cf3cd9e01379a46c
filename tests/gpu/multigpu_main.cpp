// Multi-GPU suite entry: exits 77 (CTest: skipped) unless at least two GPUs are usable.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>

#include "support/gpu.hpp"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    if (!std::strncmp(argv[i], "--list", 6)) listing = true;
  if (!listing && njtest::device_count() < 2) {
    std::printf("SKIPPED: needs two CUDA GPUs, found %d (%s)\n", njtest::device_count(),
                njtest::gpu_available() ? "driver present" : njtest::gpu_unavailable_reason().c_str());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}

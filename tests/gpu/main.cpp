// GPU suite entry: exits 77 (CTest: skipped) when no CUDA driver/GPU is usable, so the suite
// is skipped cleanly on machines without one. Listing tests never touches the GPU.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>

#include "cuda_driver.hpp"
#include "support/gpu.hpp"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    if (!std::strncmp(argv[i], "--list", 6)) listing = true;
  if (!listing && !njtest::gpu_available()) {
    std::printf("SKIPPED: no usable CUDA GPU: %s\n", njtest::gpu_unavailable_reason().c_str());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}

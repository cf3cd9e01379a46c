// Runs the README's C++ example (README.md, "C++ API", written out at build time as
// readme_cpp_example.inc) against the stand-in driver (tests/fake_driver; its path is argv[1],
// and the library loads it through NORMJIT_LIBCUDA): the example must compile as printed, launch
// its two ops, and have its bad weight rejected before anything is launched.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>

#include "readme_cpp_example.inc"
#include "support/fake_addresses.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FAKE_LIBCUDA\n", argv[0]);
    return 2;
  }
  void* fake = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);  // the handle the library's dlopen gets too
  auto launches = fake ? reinterpret_cast<long (*)()>(dlsym(fake, "fake_cuda_launches")) : nullptr;
  if (!launches) {
    std::fprintf(stderr, "FAIL: cannot load the stand-in driver %s\n", argv[1]);
    return 1;
  }
  const long before = launches();
  try {
    readme_cpp_example(njtest::ptr(njtest::kIn), njtest::ptr(njtest::kRes), njtest::ptr(njtest::kW),
                       njtest::ptr(njtest::kOut), /*tokens=*/8, /*stream=*/nullptr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAIL: the README's C++ example threw: %s\n", e.what());
    return 1;
  }
  const long n = launches() - before;
  std::printf("README C++ example: %ld launches\n", n);
  if (n != 2) {
    std::fprintf(stderr, "FAIL: expected 2 launches (rmsnorm, fused_add_rmsnorm; the bad weight refused), got %ld\n", n);
    return 1;
  }
  return 0;
}

/* Runs the README's C example (README.md, "C ABI", written out at build time as
 * readme_c_example.inc) against the stand-in driver (tests/fake_driver; its path is argv[1], and
 * the library loads it through NORMJIT_LIBCUDA): compiled as C, it must launch its rmsnorm. */
#include <dlfcn.h>
#include <stdio.h>

#include "readme_c_example.inc"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FAKE_LIBCUDA\n", argv[0]);
    return 2;
  }
  void* fake = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL); /* the handle the library's dlopen gets too */
  long (*launches)(void) = NULL;
  if (fake) *(void**)(&launches) = dlsym(fake, "fake_cuda_launches");
  if (!launches) {
    fprintf(stderr, "FAIL: cannot load the stand-in driver %s\n", argv[1]);
    return 1;
  }
  const long before = launches();
  /* Fake device addresses (tests/support/fake_addresses.hpp): never dereferenced. */
  readme_c_example((void*)0x7f0000000000ull, (void*)0x7f1000000000ull, /*tokens=*/8, /*stream=*/NULL);
  const long n = launches() - before;
  printf("README C example: %ld launches, last error \"%s\"\n", n, normjit_last_error());
  if (n != 1) {
    fprintf(stderr, "FAIL: expected 1 launch, got %ld\n", n);
    return 1;
  }
  return 0;
}

// What the fake libcuda (fake_libcuda.cpp) records of a launch; the test side reaches these
// functions with dlsym on the library the runtime loaded.
#pragma once
#include <cuda.h>

#include <cstdint>

struct FakeLaunch {
  unsigned grid_x, block_x, shared_bytes;
  int pdl;             // programmatic stream serialization attribute (0: absent or off)
  unsigned cluster_x;  // cluster attribute's x (0: absent)
  CUstream stream;
  CUfunction kernel;
  unsigned char params[112];  // NormParams, bytewise (sizeof checked in test_fake_driver.cpp)
};

// One launch of normjit's kernel folded into a sum over launches (fake_cuda_launch_digest): its
// input and output rows, row count and block size, so that concurrent callers can check that
// every call launched with its own arguments and config.
inline std::uint64_t fake_launch_digest(const void* input, const void* out, long long rows, unsigned block_x) {
  std::uint64_t h = reinterpret_cast<std::uintptr_t>(input) * 0x9e3779b97f4a7c15ull;
  h ^= reinterpret_cast<std::uintptr_t>(out) * 0xc2b2ae3d27d4eb4full + std::uint64_t(rows) * 0x165667b19e3779f9ull;
  return h ^ (h >> 29) ^ (std::uint64_t(block_x) << 40);
}

extern "C" {
using FakeDigestFn = std::uint64_t (*)();
using FakeLastLaunchFn = FakeLaunch (*)();
using FakeCountFn = long (*)();
using FakeRecordFn = void (*)(bool);
}

// What the fake libcuda (fake_libcuda.cpp) records of a launch; the test side reaches these
// functions with dlsym on the library the runtime loaded.
#pragma once
#include <cuda.h>

struct FakeLaunch {
  unsigned grid_x, block_x, shared_bytes;
  int pdl;             // programmatic stream serialization attribute (0: absent or off)
  unsigned cluster_x;  // cluster attribute's x (0: absent)
  CUstream stream;
  CUfunction kernel;
  unsigned char params[112];  // NormParams, bytewise (sizeof checked in test_fake_driver.cpp)
};

extern "C" {
using FakeLastLaunchFn = FakeLaunch (*)();
using FakeCountFn = long (*)();
using FakeRecordFn = void (*)(bool);
}

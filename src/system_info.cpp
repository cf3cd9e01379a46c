// normjit::system_info(): what `normjit info` prints.
#include <fmt/format.h>

#include "cuda_driver.hpp"
#include "nvrtc_compiler.hpp"
#include "normjit/runtime.hpp"
#include "normjit/version.hpp"
#include "runtime.hpp"
#include "template_store.hpp"

namespace normjit {

SystemInfo system_info() {
  using namespace detail;
  SystemInfo s;
  s.version = NORMJIT_VERSION_STRING;
  try {
    s.nvrtc_version = nvrtc_version();
    for (int a : nvrtc_supported_archs()) s.nvrtc_archs.push_back(fmt::format("sm_{}", a));
  } catch (const std::exception& e) {
    s.nvrtc_error = e.what();
  }
  s.templates = templates().origin;
  s.template_hash = templates().hash;
  s.cache = cache_info();
  s.driver = driver_available();
  if (!s.driver) {
    s.driver_error = driver_unavailable_reason();
    return s;
  }
  const DriverApi& d = driver();
  d.cuDriverGetVersion(&s.driver_version);
  int n = 0;
  if (d.cuDeviceGetCount(&n) != CUDA_SUCCESS) n = 0;
  for (int i = 0; i < n; ++i) {
    GpuInfo g;
    g.ordinal = i;
    CUdevice h = 0;
    char name[256] = {};
    int major = 0, minor = 0;
    if (d.cuDeviceGet(&h, i) != CUDA_SUCCESS) continue;
    d.cuDeviceGetName(name, sizeof name, h);
    d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, h);
    d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, h);
    d.cuDeviceGetAttribute(&g.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, h);
    g.name = name;
    g.arch = fmt::format("sm_{}{}", major, minor);
    g.target = Arch{major * 10 + minor}.target();
    s.gpus.push_back(g);
  }
  return s;
}

}  // namespace normjit

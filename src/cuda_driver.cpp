// Run-time loading of libcuda (see cuda_driver.hpp).
#include "cuda_driver.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>
#include <mutex>

#include "normjit/errors.hpp"

namespace normjit::detail {
namespace {

struct Loaded {
  DriverApi api{};
  std::string error;  // empty when usable
};

template <class Fn>
bool resolve(void* get_proc, const char* name, int version, Fn* out, std::string* error) {
  using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
  CUdriverProcAddressQueryResult status{};
  void* fn = nullptr;
  const CUresult r = reinterpret_cast<GetProc>(get_proc)(name, &fn, version,
                                                         CU_GET_PROC_ADDRESS_DEFAULT, &status);
  if (r != CUDA_SUCCESS || fn == nullptr) {
    *error = fmt::format("the CUDA driver lacks {} (needs a driver for CUDA {}.{} or newer)", name,
                         version / 1000, version % 1000 / 10);
    return false;
  }
  *out = reinterpret_cast<Fn>(fn);
  return true;
}

Loaded load_driver() {
  Loaded l;
  const char* override_path = std::getenv("NORMJIT_LIBCUDA");
  const char* path = override_path && *override_path ? override_path : "libcuda.so.1";
  void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* why = dlerror();
    l.error = fmt::format("no CUDA driver: dlopen(\"{}\") failed: {}", path, why ? why : "?");
    return l;
  }
  void* get_proc = dlsym(h, "cuGetProcAddress_v2");
  if (!get_proc) {
    l.error = fmt::format("{} has no cuGetProcAddress_v2 (driver older than CUDA 12.0)", path);
    return l;
  }
  auto& a = l.api;
  std::string e;
  bool ok = true;
  using InitFn = CUresult (*)(unsigned);
  InitFn init = nullptr;
  ok = ok && resolve(get_proc, "cuInit", 2000, &init, &e);
  ok = ok && resolve(get_proc, "cuGetErrorName", 6000, &a.cuGetErrorName, &e);
  ok = ok && resolve(get_proc, "cuGetErrorString", 6000, &a.cuGetErrorString, &e);
  ok = ok && resolve(get_proc, "cuDriverGetVersion", 2020, &a.cuDriverGetVersion, &e);
  ok = ok && resolve(get_proc, "cuDeviceGetCount", 2000, &a.cuDeviceGetCount, &e);
  ok = ok && resolve(get_proc, "cuDeviceGet", 2000, &a.cuDeviceGet, &e);
  ok = ok && resolve(get_proc, "cuDeviceGetAttribute", 2000, &a.cuDeviceGetAttribute, &e);
  ok = ok && resolve(get_proc, "cuDeviceGetName", 2000, &a.cuDeviceGetName, &e);
  ok = ok && resolve(get_proc, "cuDevicePrimaryCtxRetain", 7000, &a.cuDevicePrimaryCtxRetain, &e);
  ok = ok && resolve(get_proc, "cuDevicePrimaryCtxGetState", 7000, &a.cuDevicePrimaryCtxGetState, &e);
  ok = ok && resolve(get_proc, "cuCtxGetCurrent", 4000, &a.cuCtxGetCurrent, &e);
  ok = ok && resolve(get_proc, "cuCtxGetDevice", 2000, &a.cuCtxGetDevice, &e);
  ok = ok && resolve(get_proc, "cuCtxPushCurrent", 4000, &a.cuCtxPushCurrent, &e);
  ok = ok && resolve(get_proc, "cuCtxPopCurrent", 4000, &a.cuCtxPopCurrent, &e);
  ok = ok && resolve(get_proc, "cuStreamIsCapturing", 10000, &a.cuStreamIsCapturing, &e);
  ok = ok && resolve(get_proc, "cuLibraryLoadData", 12000, &a.cuLibraryLoadData, &e);
  ok = ok && resolve(get_proc, "cuLibraryUnload", 12000, &a.cuLibraryUnload, &e);
  ok = ok && resolve(get_proc, "cuLibraryGetKernel", 12000, &a.cuLibraryGetKernel, &e);
  ok = ok && resolve(get_proc, "cuKernelSetAttribute", 12000, &a.cuKernelSetAttribute, &e);
  ok = ok && resolve(get_proc, "cuLaunchKernelEx", 11060, &a.cuLaunchKernelEx, &e);
  ok = ok && resolve(get_proc, "cuCtxSynchronize", 2000, &a.cuCtxSynchronize, &e);
  ok = ok && resolve(get_proc, "cuMemAlloc", 3020, &a.cuMemAlloc, &e);
  ok = ok && resolve(get_proc, "cuMemFree", 3020, &a.cuMemFree, &e);
  ok = ok && resolve(get_proc, "cuMemcpyHtoD", 3020, &a.cuMemcpyHtoD, &e);
  ok = ok && resolve(get_proc, "cuMemcpyDtoH", 3020, &a.cuMemcpyDtoH, &e);
  ok = ok && resolve(get_proc, "cuMemcpyDtoDAsync", 3020, &a.cuMemcpyDtoDAsync, &e);
  ok = ok && resolve(get_proc, "cuMemsetD8", 3020, &a.cuMemsetD8, &e);
  ok = ok && resolve(get_proc, "cuStreamCreate", 2000, &a.cuStreamCreate, &e);
  ok = ok && resolve(get_proc, "cuStreamDestroy", 4000, &a.cuStreamDestroy, &e);
  ok = ok && resolve(get_proc, "cuStreamSynchronize", 2000, &a.cuStreamSynchronize, &e);
  ok = ok && resolve(get_proc, "cuStreamBeginCapture", 10010, &a.cuStreamBeginCapture, &e);
  ok = ok && resolve(get_proc, "cuStreamEndCapture", 10000, &a.cuStreamEndCapture, &e);
  ok = ok && resolve(get_proc, "cuGraphInstantiateWithFlags", 11040, &a.cuGraphInstantiate, &e);
  ok = ok && resolve(get_proc, "cuGraphLaunch", 10000, &a.cuGraphLaunch, &e);
  ok = ok && resolve(get_proc, "cuGraphExecDestroy", 10000, &a.cuGraphExecDestroy, &e);
  ok = ok && resolve(get_proc, "cuGraphDestroy", 10000, &a.cuGraphDestroy, &e);
  ok = ok && resolve(get_proc, "cuEventCreate", 2000, &a.cuEventCreate, &e);
  ok = ok && resolve(get_proc, "cuEventDestroy", 4000, &a.cuEventDestroy, &e);
  ok = ok && resolve(get_proc, "cuEventRecord", 2000, &a.cuEventRecord, &e);
  ok = ok && resolve(get_proc, "cuEventSynchronize", 2000, &a.cuEventSynchronize, &e);
  ok = ok && resolve(get_proc, "cuEventElapsedTime", 2000, &a.cuEventElapsedTime, &e);
  if (!ok) {
    l.error = e;
    return l;
  }
  const CUresult r = init(0);
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    a.cuGetErrorName(r, &name);
    l.error = fmt::format("cuInit failed: {} ({}): no usable GPU", name ? name : "?", int(r));
  }
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load_driver();  // thread-safe, first GPU call only
  return l;
}

}  // namespace

const DriverApi& driver() {
  const Loaded& l = loaded();
  if (!l.error.empty()) throw CudaError(-1, "normjit: " + l.error);
  return l.api;
}

bool driver_available() noexcept {
  try {
    return loaded().error.empty();
  } catch (...) {
    return false;
  }
}

std::string driver_unavailable_reason() { return loaded().error; }

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* desc = nullptr;
  const DriverApi& d = loaded().api;
  if (d.cuGetErrorName) d.cuGetErrorName(r, &name);
  if (d.cuGetErrorString) d.cuGetErrorString(r, &desc);
  throw CudaError(int(r), fmt::format("normjit: {} failed: {} ({}): {}", what, name ? name : "?",
                                      int(r), desc ? desc : ""));
}

}  // namespace normjit::detail

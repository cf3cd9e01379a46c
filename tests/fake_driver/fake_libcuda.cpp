// A stand-in libcuda.so.1 for CPU tests (NORMJIT_LIBCUDA points at it): every entry point the
// library resolves succeeds without a GPU, and the last launch is recorded, so that tests can
// check what the library hands cuLaunchKernelEx (grid, block, PDL and cluster attributes,
// parameters) and time the library's host path with a launch that costs nothing.
// Device: compute capability FAKE_CUDA_CC (default 90), 132 SMs. Memory and streams are not
// real: pointers are never dereferenced.
#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "fake_libcuda.h"
#include "params.cuh"

namespace {

std::mutex g_mu;
FakeLaunch g_last{};
std::atomic<bool> g_record{true};  // off while timing: recording takes a lock
std::atomic<long> g_launches{0};
std::atomic<long> g_libraries{0};
std::atomic<long> g_ctx_queries{0};
std::atomic<std::uint64_t> g_digest{0};  // sum of fake_launch_digest over normjit launches
// The last opt-in to dynamic shared memory (cuKernelSetAttribute) and how many there were.
std::atomic<int> g_smem_optin{0};
std::atomic<long> g_smem_optins{0};
// Opt-ins to non-portable cluster sizes (cuKernelSetAttribute).
std::atomic<long> g_cluster_optins{0};
CUcontext const kContext = reinterpret_cast<CUcontext>(0x1000);
thread_local CUcontext t_current = nullptr;

int cc() {
  const char* v = std::getenv("FAKE_CUDA_CC");
  return v && *v ? std::atoi(v) : 90;
}

CUresult ok() { return CUDA_SUCCESS; }

CUresult fInit(unsigned) { return ok(); }
CUresult fGetErrorName(CUresult, const char** s) {
  *s = "CUDA_ERROR_FAKE";
  return ok();
}
CUresult fGetErrorString(CUresult, const char** s) {
  *s = "fake driver";
  return ok();
}
CUresult fDriverGetVersion(int* v) {
  *v = 13000;
  return ok();
}
CUresult fDeviceGetCount(int* n) {
  *n = 1;
  return ok();
}
CUresult fDeviceGet(CUdevice* d, int ordinal) {
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return ok();
}
CUresult fDeviceGetAttribute(int* v, CUdevice_attribute a, CUdevice) {
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = cc() / 10; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = cc() % 10; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    default: *v = 0;
  }
  return ok();
}
CUresult fDeviceGetName(char* name, int len, CUdevice) {
  std::strncpy(name, "fake GPU", size_t(len));
  return ok();
}
CUresult fPrimaryCtxRetain(CUcontext* c, CUdevice) {
  *c = kContext;
  return ok();
}
CUresult fPrimaryCtxGetState(CUdevice, unsigned* flags, int* active) {
  *flags = 0;
  *active = 1;
  return ok();
}
CUresult fCtxGetCurrent(CUcontext* c) {
  g_ctx_queries.fetch_add(1, std::memory_order_relaxed);
  *c = t_current;
  return ok();
}
CUresult fCtxGetDevice(CUdevice* d) {
  *d = 0;
  return ok();
}
CUresult fCtxPushCurrent(CUcontext c) {
  t_current = c;
  return ok();
}
CUresult fCtxPopCurrent(CUcontext* c) {
  if (c) *c = t_current;
  t_current = nullptr;
  return ok();
}
CUresult fStreamIsCapturing(CUstream, CUstreamCaptureStatus* s) {
  *s = CU_STREAM_CAPTURE_STATUS_NONE;
  return ok();
}
CUresult fLibraryLoadData(CUlibrary* l, const void* image, CUjit_option*, void**, unsigned, CUlibraryOption*,
                          void**, unsigned) {
  // A cubin is an ELF file: anything else reaching the loader is a bug in the cache path.
  if (!image || std::memcmp(image, "\x7f" "ELF", 4) != 0) return CUDA_ERROR_INVALID_IMAGE;
  // One count read: two threads loading at once get distinct handles.
  *l = reinterpret_cast<CUlibrary>(0x2000 + g_libraries.fetch_add(1) + 1);
  return ok();
}
CUresult fLibraryUnload(CUlibrary) { return ok(); }
CUresult fKernelSetAttribute(CUfunction_attribute a, int v, CUkernel, CUdevice) {
  if (a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    g_smem_optin.store(v);
    g_smem_optins.fetch_add(1);
  }
  if (a == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED && v == 1) g_cluster_optins.fetch_add(1);
  return ok();
}
// Kernels other than normjit's entry (bench's flush, copy and empty kernels) take other
// parameters than NormParams: their handles carry kForeignKernel, and a launch of one records no
// parameter bytes (reading NormParams' 112 bytes from an 8-byte argument overruns it).
constexpr std::uintptr_t kForeignKernel = std::uintptr_t(1) << 40;
CUresult fLibraryGetKernel(CUkernel* k, CUlibrary l, const char* name) {
  const bool entry = name && std::strcmp(name, "normjit_entry") == 0;
  *k = reinterpret_cast<CUkernel>(reinterpret_cast<std::uintptr_t>(l) | (entry ? 0 : kForeignKernel));
  return ok();
}
CUresult fLaunchKernelEx(const CUlaunchConfig* c, CUfunction f, void** args, void**) {
  FakeLaunch l{};
  l.grid_x = c->gridDimX;
  l.block_x = c->blockDimX;
  l.shared_bytes = c->sharedMemBytes;
  l.stream = c->hStream;
  l.kernel = f;
  for (unsigned i = 0; i < c->numAttrs; ++i) {
    const CUlaunchAttribute& a = c->attrs[i];
    if (a.id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      l.pdl = a.value.programmaticStreamSerializationAllowed;
    if (a.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) l.cluster_x = a.value.clusterDim.x;
  }
  if (args && args[0] && !(reinterpret_cast<std::uintptr_t>(f) & kForeignKernel)) {
    std::memcpy(l.params, args[0], sizeof(l.params));
    normjit::NormParams p;
    std::memcpy(&p, l.params, sizeof(p));
    g_digest.fetch_add(fake_launch_digest(p.input.ptr, p.out.ptr, p.rows, l.block_x), std::memory_order_relaxed);
  }
  if (g_record.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(g_mu);
    g_last = l;
  }
  g_launches.fetch_add(1, std::memory_order_relaxed);
  return ok();
}
CUresult fNoArgs() { return ok(); }
// Distinct, never-overlapping addresses (nothing is behind them), 256-byte aligned as the
// driver's are, so that code allocating several buffers (normjit bench) passes validation.
CUresult fMemAlloc(CUdeviceptr* p, size_t bytes) {
  static std::atomic<CUdeviceptr> next{CUdeviceptr(1) << 32};
  *p = next.fetch_add((CUdeviceptr(bytes) + 511) & ~CUdeviceptr(255));
  return ok();
}
template <class... A>
CUresult fAny(A...) {
  return ok();
}

struct Entry {
  const char* name;
  void* fn;
};

}  // namespace

#define FAKE_FN(f) reinterpret_cast<void*>(f)
extern "C" {

__attribute__((visibility("default"))) CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int,
                                                                      cuuint64_t,
                                                                      CUdriverProcAddressQueryResult* st) {
  static const Entry kTable[] = {
      {"cuInit", FAKE_FN(fInit)},
      {"cuGetErrorName", FAKE_FN(fGetErrorName)},
      {"cuGetErrorString", FAKE_FN(fGetErrorString)},
      {"cuDriverGetVersion", FAKE_FN(fDriverGetVersion)},
      {"cuDeviceGetCount", FAKE_FN(fDeviceGetCount)},
      {"cuDeviceGet", FAKE_FN(fDeviceGet)},
      {"cuDeviceGetAttribute", FAKE_FN(fDeviceGetAttribute)},
      {"cuDeviceGetName", FAKE_FN(fDeviceGetName)},
      {"cuDevicePrimaryCtxRetain", FAKE_FN(fPrimaryCtxRetain)},
      {"cuDevicePrimaryCtxGetState", FAKE_FN(fPrimaryCtxGetState)},
      {"cuCtxGetCurrent", FAKE_FN(fCtxGetCurrent)},
      {"cuCtxGetDevice", FAKE_FN(fCtxGetDevice)},
      {"cuCtxPushCurrent", FAKE_FN(fCtxPushCurrent)},
      {"cuCtxPopCurrent", FAKE_FN(fCtxPopCurrent)},
      {"cuStreamIsCapturing", FAKE_FN(fStreamIsCapturing)},
      {"cuLibraryLoadData", FAKE_FN(fLibraryLoadData)},
      {"cuLibraryUnload", FAKE_FN(fLibraryUnload)},
      {"cuLibraryGetKernel", FAKE_FN(fLibraryGetKernel)},
      {"cuKernelSetAttribute", FAKE_FN(fKernelSetAttribute)},
      {"cuLaunchKernelEx", FAKE_FN(fLaunchKernelEx)},
      {"cuCtxSynchronize", FAKE_FN(fNoArgs)},
      {"cuMemAlloc", FAKE_FN(fMemAlloc)},
      {"cuMemFree", FAKE_FN((fAny<CUdeviceptr>))},
      {"cuMemcpyHtoD", FAKE_FN((fAny<CUdeviceptr, const void*, size_t>))},
      {"cuMemcpyDtoH", FAKE_FN((fAny<void*, CUdeviceptr, size_t>))},
      {"cuMemcpyDtoDAsync", FAKE_FN((fAny<CUdeviceptr, CUdeviceptr, size_t, CUstream>))},
      {"cuMemsetD8", FAKE_FN((fAny<CUdeviceptr, unsigned char, size_t>))},
      {"cuStreamCreate", FAKE_FN((fAny<CUstream*, unsigned>))},
      {"cuStreamDestroy", FAKE_FN((fAny<CUstream>))},
      {"cuStreamSynchronize", FAKE_FN((fAny<CUstream>))},
      {"cuStreamBeginCapture", FAKE_FN((fAny<CUstream, CUstreamCaptureMode>))},
      {"cuStreamEndCapture", FAKE_FN((fAny<CUstream, CUgraph*>))},
      {"cuGraphInstantiateWithFlags", FAKE_FN((fAny<CUgraphExec*, CUgraph, unsigned long long>))},
      {"cuGraphLaunch", FAKE_FN((fAny<CUgraphExec, CUstream>))},
      {"cuGraphExecDestroy", FAKE_FN((fAny<CUgraphExec>))},
      {"cuGraphDestroy", FAKE_FN((fAny<CUgraph>))},
      {"cuEventCreate", FAKE_FN((fAny<CUevent*, unsigned>))},
      {"cuEventDestroy", FAKE_FN((fAny<CUevent>))},
      {"cuEventRecord", FAKE_FN((fAny<CUevent, CUstream>))},
      {"cuEventSynchronize", FAKE_FN((fAny<CUevent>))},
      {"cuEventElapsedTime", FAKE_FN((fAny<float*, CUevent, CUevent>))},
  };
  for (const Entry& e : kTable) {
    if (std::strcmp(e.name, symbol) == 0) {
      *pfn = e.fn;
      if (st) *st = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  }
  *pfn = nullptr;
  if (st) *st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

__attribute__((visibility("default"))) FakeLaunch fake_cuda_last_launch() {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_last;
}
__attribute__((visibility("default"))) long fake_cuda_launches() { return g_launches.load(); }
__attribute__((visibility("default"))) long fake_cuda_libraries_loaded() { return g_libraries.load(); }
__attribute__((visibility("default"))) long fake_cuda_context_queries() { return g_ctx_queries.load(); }
__attribute__((visibility("default"))) std::uint64_t fake_cuda_launch_digest() { return g_digest.load(); }
__attribute__((visibility("default"))) void fake_cuda_record_launches(bool on) { g_record.store(on); }
__attribute__((visibility("default"))) long fake_cuda_smem_optins() { return g_smem_optins.load(); }
__attribute__((visibility("default"))) long fake_cuda_last_smem_optin() { return g_smem_optin.load(); }
__attribute__((visibility("default"))) long fake_cuda_cluster_optins() { return g_cluster_optins.load(); }
}

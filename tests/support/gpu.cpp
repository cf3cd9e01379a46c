#include "support/gpu.hpp"

#include <stdexcept>

#include "runtime.hpp"

namespace njtest {
using normjit::detail::driver;

bool gpu_available() {
  if (!normjit::detail::driver_available()) return false;
  int n = 0;
  return driver().cuDeviceGetCount(&n) == CUDA_SUCCESS && n > 0;
}

std::string gpu_unavailable_reason() {
  if (!normjit::detail::driver_available()) return normjit::detail::driver_unavailable_reason();
  return "the driver reports no devices";
}

void check_cu(CUresult r, const char* what) { normjit::detail::check(r, what); }

void use_device(int device) {
  CUcontext cur = nullptr;
  check_cu(driver().cuCtxGetCurrent(&cur), "cuCtxGetCurrent");
  CUcontext ctx = normjit::detail::Runtime::get().primary_context(device);
  if (cur != ctx) check_cu(driver().cuCtxPushCurrent(ctx), "cuCtxPushCurrent");
}

int device_count() {
  int n = 0;
  if (!gpu_available() || driver().cuDeviceGetCount(&n) != CUDA_SUCCESS) return 0;
  return n;
}

DeviceBuffer::DeviceBuffer(size_t bytes, int device) : bytes_(bytes) {
  use_device(device);
  check_cu(driver().cuMemAlloc(&ptr_, bytes ? bytes : 1), "cuMemAlloc");
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) driver().cuMemFree(ptr_);
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (ptr_) driver().cuMemFree(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = 0;
    o.bytes_ = 0;
  }
  return *this;
}

void DeviceBuffer::upload(const void* src, size_t n, size_t offset) {
  if (offset + n > bytes_) throw std::out_of_range("upload past the buffer");
  if (n) check_cu(driver().cuMemcpyHtoD(ptr_ + offset, src, n), "cuMemcpyHtoD");
  // A pageable upload may still be in flight when cuMemcpyHtoD returns, and kernels on
  // non-blocking streams do not wait for it: finish it here.
  check_cu(driver().cuCtxSynchronize(), "cuCtxSynchronize after upload");
}

void DeviceBuffer::download(void* dst, size_t n, size_t offset) const {
  if (offset + n > bytes_) throw std::out_of_range("download past the buffer");
  if (n) check_cu(driver().cuMemcpyDtoH(dst, ptr_ + offset, n), "cuMemcpyDtoH");
}

void DeviceBuffer::fill(unsigned char byte) {
  if (bytes_) check_cu(driver().cuMemsetD8(ptr_, byte, bytes_), "cuMemsetD8");
  check_cu(driver().cuCtxSynchronize(), "cuCtxSynchronize after memset");
}

Stream::Stream(int device) {
  use_device(device);
  check_cu(driver().cuStreamCreate(&s_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
}

Stream::~Stream() {
  if (s_) driver().cuStreamDestroy(s_);
}

void Stream::sync() const { check_cu(driver().cuStreamSynchronize(s_), "cuStreamSynchronize"); }

}  // namespace njtest

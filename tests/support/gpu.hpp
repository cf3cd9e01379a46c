// GPU test helpers over the library's own driver loader: availability, a current context,
// device buffers, streams.
#pragma once
#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_driver.hpp"
#include "normjit/dtype.hpp"

namespace njtest {

bool gpu_available();
std::string gpu_unavailable_reason();
// Makes `device`'s primary context current on this thread (idempotent).
void use_device(int device);
inline void use_device0() { use_device(0); }
int device_count();
void check_cu(CUresult r, const char* what);

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes, int device = 0);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = 0; o.bytes_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return reinterpret_cast<void*>(ptr_); }
  CUdeviceptr ptr() const { return ptr_; }
  size_t bytes() const { return bytes_; }
  void upload(const void* src, size_t n, size_t offset = 0);
  void download(void* dst, size_t n, size_t offset = 0) const;
  void fill(unsigned char byte);  // e.g. 0xFF: NaN in every float format

 private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

class Stream {
 public:
  explicit Stream(int device = 0);
  ~Stream();
  CUstream get() const { return s_; }
  void sync() const;

 private:
  CUstream s_ = nullptr;
};

}  // namespace njtest

// The process-wide runtime: configuration from the environment, the disk cache, the in-memory
// kernel cache and per-device state.
//
// Memory cache: KernelConfig -> loaded kernel. Hits take a shared lock and touch nothing else
// (no allocation, no formatting). The first caller of a config becomes its builder; callers of
// the same config wait for it, callers of other configs build in parallel. A failed build is
// removed, so a later call retries.
#pragma once
#include <cuda.h>

#include <array>
#include <atomic>
#include <memory>
#include <shared_mutex>
#include <unordered_map>

#include "disk_cache.hpp"
#include "kernel_config.hpp"
#include "normjit/runtime.hpp"

namespace normjit::detail {

struct LoadedKernel {
  KernelConfig config;
  CUlibrary library = nullptr;
  CUkernel kernel = nullptr;
};

constexpr int kMaxDevices = 64;

class Runtime {
 public:
  static Runtime& get();

  // Loaded kernel for `c` (memory cache, then disk cache, then NVRTC). `stream` is only
  // consulted on a miss, to refuse loading while the stream is being captured.
  const LoadedKernel& kernel(const KernelConfig& c, CUstream stream);
  // Compile-only path (no GPU): the binary through the disk cache. `explicit_build` (prewarm)
  // compiles even in offline mode.
  Binary binary(const KernelConfig& c, CacheOutcome* outcome, bool explicit_build = false);

  // Compute capability and SM count of a device ordinal (cached after the first query).
  Arch device_arch(int device);
  // CUdevice handle and primary context of an ordinal (retained once, released at exit).
  CUcontext primary_context(int device);
  // The primary context if this runtime already retained it, else null (never blocks).
  CUcontext retained_primary_context(int device) const {
    return device >= 0 && device < kMaxDevices ? primary_[size_t(device)].load(std::memory_order_acquire) : nullptr;
  }
  CUdevice device_handle(int device);
  // Streaming multiprocessors of a device ordinal (device_arch's, cached with its compute
  // capability).
  int sm_count(int device) { return device_arch(device).sms; }

  DiskCache& disk() { return *disk_; }
  void reset_memory_cache();
  RuntimeStats stats() const;
  void count_launch() { launches_.fetch_add(1, std::memory_order_relaxed); }

 private:
  Runtime();
  ~Runtime();
  struct Slot;
  std::unique_ptr<LoadedKernel> load(const KernelConfig& c, CUstream stream);

  std::unique_ptr<DiskCache> disk_;
  mutable std::shared_mutex mu_;
  std::unordered_map<KernelConfig, std::shared_ptr<Slot>, KernelConfigHasher> kernels_;

  std::mutex device_mu_;
  std::array<std::atomic<int>, kMaxDevices> cc_{};
  std::array<int, kMaxDevices> sms_{};  // written before cc_ is published
  std::array<std::atomic<CUcontext>, kMaxDevices> primary_{};
  std::array<CUdevice, kMaxDevices> handles_{};

  std::atomic<std::uint64_t> memory_hits_{0}, disk_hits_{0}, compiles_{0}, launches_{0};
  // Bumped when loaded kernels are dropped (reset_memory_cache): it retires every thread's
  // recent-kernel entries (runtime.cpp: RecentKernels).
  std::atomic<std::uint64_t> generation_{1};
};

// Makes a context of `device` current for the scope: the caller's current context when it
// belongs to that device, else the device's primary context (pushed, then popped).
class ScopedDeviceContext {
 public:
  explicit ScopedDeviceContext(int device);
  ~ScopedDeviceContext();
  ScopedDeviceContext(const ScopedDeviceContext&) = delete;
  ScopedDeviceContext& operator=(const ScopedDeviceContext&) = delete;

 private:
  bool pushed_ = false;
};

}  // namespace normjit::detail

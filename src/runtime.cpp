#include "runtime.hpp"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <vector>

#include "cuda_driver.hpp"
#include "heuristics.hpp"
#include "log.hpp"
#include "normjit/errors.hpp"
#include "nvrtc_compiler.hpp"

namespace normjit::detail {
namespace fs = std::filesystem;

namespace {

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string(v) != "0" && std::string(v) != "false";
}

std::string safe_fingerprint() {
  try {
    return toolchain_fingerprint();
  } catch (const std::exception&) {
    return "nvrtc-unavailable";  // compiles will fail with NVRTC's own error
  }
}

}  // namespace

struct Runtime::Slot {
  std::promise<void> done;
  std::shared_future<void> ready_future = done.get_future().share();
  std::unique_ptr<LoadedKernel> kernel;
  std::atomic<bool> ready{false};
};

Runtime& Runtime::get() {
  static Runtime* rt = new Runtime();  // never destroyed: ops may run during static teardown
  return *rt;
}

Runtime::Runtime() {
  DiskCache::Options o;
  o.root = cache_root_from_env();
  o.prebuilt_roots = prebuilt_roots_from_env();
  o.offline = env_flag("NORMJIT_OFFLINE");
  if (const char* t = std::getenv("NORMJIT_LOCK_TIMEOUT_MS"); t && *t)
    o.lock_timeout = std::chrono::milliseconds(std::atoll(t));
  disk_ = std::make_unique<DiskCache>(o, safe_fingerprint());
}

Runtime::~Runtime() = default;

RuntimeStats Runtime::stats() const {
  RuntimeStats s;
  s.memory_hits = memory_hits_.load();
  s.disk_hits = disk_hits_.load();
  s.compiles = compiles_.load();
  s.launches = launches_.load();
  return s;
}

Binary Runtime::binary(const KernelConfig& c, CacheOutcome* outcome, bool explicit_build) {
  Binary b = disk_->get_or_build(
      c,
      [&] {
        compiles_.fetch_add(1);
        return compile(c);
      },
      outcome, explicit_build);
  if (*outcome == CacheOutcome::Hit) disk_hits_.fetch_add(1);
  return b;
}

std::unique_ptr<LoadedKernel> Runtime::load(const KernelConfig& c, CUstream stream) {
  const DriverApi& d = driver();
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (d.cuStreamIsCapturing(stream, &capture) == CUDA_SUCCESS &&
      capture != CU_STREAM_CAPTURE_STATUS_NONE) {
    throw Error(fmt::format(
        "normjit: kernel {} is not loaded in this process and the stream is being captured into "
        "a CUDA graph; loading a module is not allowed during capture. Run the op once before "
        "capturing (warm-up), or call normjit::prewarm and a warm-up call at start-up.",
        slug(c)));
  }
  CacheOutcome outcome;
  const Binary b = binary(c, &outcome);
  auto k = std::make_unique<LoadedKernel>();
  k->config = c;
  check(d.cuLibraryLoadData(&k->library, b.bytes.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
        "cuLibraryLoadData");
  const CUresult r = d.cuLibraryGetKernel(&k->kernel, k->library, "normjit_entry");
  if (r != CUDA_SUCCESS) {
    d.cuLibraryUnload(k->library);
    check(r, "cuLibraryGetKernel");
  }
  // Opt-ins a kernel needs on every device of its architecture (a library's kernel serves every
  // device of the process): a staged row's dynamic shared memory, and a cluster above the portable
  // size. Every staged kernel opts in: the default 48 KiB bounds static and dynamic shared memory
  // together, and the static part (reduction slots, barriers) is the compiler's, so shares of 48
  // KiB and just below it (the fused add's bf16 196608 on 16 CTAs, fp32 rows of 3072 four to a
  // block) failed to launch with CUDA_ERROR_INVALID_VALUE when only shares above 48 KiB opted in.
  struct OptIn {
    CUfunction_attribute attr;
    int value;
    const char* call;  // named in the error if it fails
  };
  std::vector<OptIn> opt_ins;
  if (const std::int64_t smem = staged_smem_bytes(c); smem > 0)
    opt_ins.push_back({CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(smem),
                       "cuKernelSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"});
  if (c.cluster > kMaxCluster)
    opt_ins.push_back(
        {CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1, "cuKernelSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)"});
  if (!opt_ins.empty()) {
    int devices = 0;
    const char* call = "cuDeviceGetCount";  // named in the error if it fails
    CUresult a = d.cuDeviceGetCount(&devices);
    for (int i = 0; a == CUDA_SUCCESS && i < devices && i < kMaxDevices; ++i) {
      try {
        if (device_arch(i) != c.arch) continue;
      } catch (const ValidationError&) {
        continue;  // a device normjit does not run on
      }
      for (const OptIn& o : opt_ins) {
        call = o.call;
        a = d.cuKernelSetAttribute(o.attr, o.value, k->kernel, device_handle(i));
        if (a != CUDA_SUCCESS) break;
      }
    }
    if (a != CUDA_SUCCESS) {
      d.cuLibraryUnload(k->library);
      check(a, call);
    }
  }
  return k;
}

namespace {

// The last few kernels this thread used, next to their configs. A steady-state call finds its
// kernel here without the shared lock, the hash and the chase bucket -> node -> slot -> kernel:
// after a real launch's driver code the caller's data is out of the core's caches, so every
// dependent load is a miss (the fake-driver host-cost test measures ~0.2 us warm, ~0.5 us cold).
struct RecentKernels {
  struct Entry {
    std::uint64_t generation = 0;  // Runtime::generation_ when stored; 0: empty
    KernelConfig config;
    const LoadedKernel* kernel = nullptr;
  };
  Entry entries[4];
  unsigned next = 0;

  const LoadedKernel* find(const KernelConfig& c, std::uint64_t generation) const {
    for (const Entry& e : entries)
      if (e.generation == generation && e.config == c) return e.kernel;
    return nullptr;
  }
  void add(const KernelConfig& c, const LoadedKernel* k, std::uint64_t generation) {
    entries[next++ % 4] = Entry{generation, c, k};
  }
};
thread_local RecentKernels t_recent;

}  // namespace

const LoadedKernel& Runtime::kernel(const KernelConfig& c, CUstream stream) {
  const std::uint64_t generation = generation_.load(std::memory_order_acquire);
  if (const LoadedKernel* k = t_recent.find(c, generation)) {
    memory_hits_.fetch_add(1, std::memory_order_relaxed);
    return *k;
  }
  {
    std::shared_lock<std::shared_mutex> lock(mu_);
    auto it = kernels_.find(c);
    if (it != kernels_.end() && it->second->ready.load(std::memory_order_acquire)) {
      memory_hits_.fetch_add(1, std::memory_order_relaxed);
      t_recent.add(c, it->second->kernel.get(), generation);
      return *it->second->kernel;
    }
  }
  std::shared_ptr<Slot> slot;
  bool builder = false;
  {
    std::unique_lock<std::shared_mutex> lock(mu_);
    auto [it, inserted] = kernels_.try_emplace(c);
    if (inserted) {
      it->second = std::make_shared<Slot>();
      builder = true;
    }
    slot = it->second;
  }
  if (!builder) {
    slot->ready_future.get();  // rethrows the builder's error
    return *slot->kernel;
  }
  try {
    slot->kernel = load(c, stream);
  } catch (...) {
    {
      // This slot only: after a reset_memory_cache the key may hold another caller's new slot.
      std::unique_lock<std::shared_mutex> lock(mu_);
      auto it = kernels_.find(c);
      if (it != kernels_.end() && it->second == slot) kernels_.erase(it);
    }
    slot->done.set_exception(std::current_exception());
    throw;
  }
  slot->ready.store(true, std::memory_order_release);
  slot->done.set_value();
  return *slot->kernel;
}

void Runtime::reset_memory_cache() {
  std::unique_lock<std::shared_mutex> lock(mu_);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  for (auto& [cfg, slot] : kernels_) {
    if (slot->ready && slot->kernel->library) driver().cuLibraryUnload(slot->kernel->library);
  }
  kernels_.clear();
}

CUdevice Runtime::device_handle(int device) {
  device_arch(device);  // validates the ordinal and fills the handle
  return handles_[size_t(device)];
}

Arch Runtime::device_arch(int device) {
  if (device >= 0 && device < kMaxDevices) {
    const int cc = cc_[size_t(device)].load(std::memory_order_acquire);
    if (cc) return Arch{cc, sms_[size_t(device)]};  // sms_ is written before cc_'s release
  }
  const DriverApi& d = driver();
  int count = 0;
  check(d.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (device < 0 || device >= count || device >= kMaxDevices) {
    throw ValidationError(ValidationError::Kind::InvalidArgument,
                          fmt::format("normjit: device: expected a CUDA device ordinal in [0, {}), "
                                      "got {}",
                                      count, device));
  }
  std::lock_guard<std::mutex> lock(device_mu_);
  CUdevice h = 0;
  check(d.cuDeviceGet(&h, device), "cuDeviceGet");
  int major = 0, minor = 0;
  check(d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, h),
        "cuDeviceGetAttribute");
  check(d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, h),
        "cuDeviceGetAttribute");
  if (major < 8) {
    throw ValidationError(ValidationError::Kind::Unsupported,
                          fmt::format("normjit: device {}: compute capability {}.{} is below the "
                                      "supported minimum 8.0",
                                      device, major, minor));
  }
  int sms = 0;
  check(d.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, h), "cuDeviceGetAttribute");
  sms_[size_t(device)] = sms;
  handles_[size_t(device)] = h;
  cc_[size_t(device)].store(major * 10 + minor, std::memory_order_release);
  return Arch{major * 10 + minor, sms};
}

CUcontext Runtime::primary_context(int device) {
  CUcontext ctx = primary_[size_t(device)].load(std::memory_order_acquire);
  if (ctx) return ctx;
  const CUdevice h = device_handle(device);
  std::lock_guard<std::mutex> lock(device_mu_);
  ctx = primary_[size_t(device)].load();
  if (!ctx) {
    // Retained for the life of the process (the runtime is never destroyed).
    check(driver().cuDevicePrimaryCtxRetain(&ctx, h), "cuDevicePrimaryCtxRetain");
    primary_[size_t(device)].store(ctx, std::memory_order_release);
  }
  return ctx;
}

ScopedDeviceContext::ScopedDeviceContext(int device) {
  const DriverApi& d = driver();
  Runtime& rt = Runtime::get();
  CUcontext cur = nullptr;
  check(d.cuCtxGetCurrent(&cur), "cuCtxGetCurrent");
  // The common case (PyTorch and most engines run on the primary context): one driver call.
  if (cur && cur == rt.retained_primary_context(device)) return;
  if (cur) {
    CUdevice dev = 0;
    check(d.cuCtxGetDevice(&dev), "cuCtxGetDevice");
    if (dev == rt.device_handle(device)) {
      // The caller's context is on our device. If the device's primary context is active
      // (it usually is the caller's: PyTorch's), retain it once, so that later calls take the
      // one-call path above; retaining an active primary context creates nothing.
      if (!rt.retained_primary_context(device)) {
        unsigned flags = 0;
        int active = 0;
        if (d.cuDevicePrimaryCtxGetState(dev, &flags, &active) == CUDA_SUCCESS && active)
          rt.primary_context(device);
      }
      return;
    }
  }
  check(d.cuCtxPushCurrent(rt.primary_context(device)), "cuCtxPushCurrent");
  pushed_ = true;
}

ScopedDeviceContext::~ScopedDeviceContext() {
  if (pushed_) {
    CUcontext ignored = nullptr;
    driver().cuCtxPopCurrent(&ignored);
  }
}

}  // namespace normjit::detail

namespace normjit {

RuntimeStats runtime_stats() noexcept { return detail::Runtime::get().stats(); }

CacheInfo cache_info() {
  detail::DiskCache& d = detail::Runtime::get().disk();
  CacheInfo i;
  i.root = d.dir().empty() ? "" : d.dir().parent_path().parent_path().string();
  i.fingerprint = d.fingerprint();
  i.writable = d.writable();
  i.offline = d.offline();
  return i;
}

void reset_memory_cache() { detail::Runtime::get().reset_memory_cache(); }

}  // namespace normjit

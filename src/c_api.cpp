// C ABI over the C++ API: converts tensors, maps exceptions to status codes.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "normjit/normjit.h"
#include "normjit/normjit.hpp"

namespace {

thread_local std::string g_last_error;

static_assert(sizeof(normjit_tensor::shape) == sizeof(normjit::TensorView::shape), "dims");

normjit::TensorView view(const normjit_tensor& t, const char* arg) {
  if (t.dtype < NORMJIT_F32 || t.dtype > NORMJIT_I32) {
    throw normjit::ValidationError(normjit::ValidationError::Kind::InvalidArgument,
                                   std::string("normjit: ") + arg + ": unknown dtype code " +
                                       std::to_string(t.dtype) + " (expected 0.." +
                                       std::to_string(NORMJIT_I32) + ")");
  }
  normjit::TensorView v;
  v.data = t.data;
  v.dtype = static_cast<normjit::DType>(t.dtype);
  v.ndim = t.ndim;
  for (int i = 0; i < NORMJIT_MAX_DIMS; ++i) {
    v.shape[i] = t.shape[i];
    v.stride[i] = t.stride[i];
  }
  v.device = t.device;
  return v;
}

normjit::LaunchOptions options(const char* name, void* stream, int enable_pdl) {
  if (enable_pdl < -1 || enable_pdl > NORMJIT_PDL_STATIC_WEIGHT) {
    throw normjit::ValidationError(normjit::ValidationError::Kind::InvalidArgument,
                                   std::string("normjit: ") + name + ": enable_pdl: expected -1 (unset), 0 (off), " +
                                       "1 (on) or 2 (on, static weight), got " + std::to_string(enable_pdl));
  }
  normjit::LaunchOptions o;
  o.stream = static_cast<normjit::Stream>(stream);
  if (enable_pdl >= 0) o.enable_pdl = enable_pdl != 0;
  o.static_weight = enable_pdl == NORMJIT_PDL_STATIC_WEIGHT;
  return o;
}

template <class F>
normjit_status guarded(F&& f) {
  try {
    f();
    g_last_error.clear();
    return NORMJIT_SUCCESS;
  } catch (const normjit::ValidationError& e) {
    g_last_error = e.what();
    return e.kind() == normjit::ValidationError::Kind::Unsupported ? NORMJIT_ERROR_UNSUPPORTED
                                                                   : NORMJIT_ERROR_INVALID_ARGUMENT;
  } catch (const normjit::CudaError& e) {
    g_last_error = e.what();
    return NORMJIT_ERROR_CUDA;
  } catch (const normjit::CompileError& e) {
    g_last_error = e.what();
    return NORMJIT_ERROR_COMPILE;
  } catch (const normjit::CacheMissError& e) {
    g_last_error = e.what();
    return NORMJIT_ERROR_CACHE_MISS;
  } catch (const std::exception& e) {
    g_last_error = e.what();
    return NORMJIT_ERROR_INTERNAL;
  } catch (...) {
    g_last_error = "normjit: unknown error";
    return NORMJIT_ERROR_INTERNAL;
  }
}

normjit_status missing(const char* fn, const char* arg) {
  g_last_error = std::string("normjit.") + fn + ": " + arg + ": expected a tensor, got NULL";
  return NORMJIT_ERROR_INVALID_ARGUMENT;
}

template <class Op>
normjit_status rms(const char* name, Op op, const normjit_tensor* input,
                   const normjit_tensor* weight, double eps, const normjit_tensor* out,
                   void* stream, int enable_pdl) {
  if (!input) return missing(name, "input");
  if (!weight) return missing(name, "weight");
  return guarded([&] {
    normjit::RmsnormArgs a;
    a.input = view(*input, "input");
    a.weight = view(*weight, "weight");
    a.eps = eps;
    if (out) a.out = view(*out, "out");
    op(a, options(name, stream, enable_pdl));
  });
}

template <class Op>
normjit_status fused(const char* name, Op op, const normjit_tensor* input,
                     const normjit_tensor* residual, const normjit_tensor* weight, double eps,
                     void* stream, int enable_pdl) {
  if (!input) return missing(name, "input");
  if (!residual) return missing(name, "residual");
  if (!weight) return missing(name, "weight");
  return guarded([&] {
    normjit::FusedAddRmsnormArgs a;
    a.input = view(*input, "input");
    a.residual = view(*residual, "residual");
    a.weight = view(*weight, "weight");
    a.eps = eps;
    op(a, options(name, stream, enable_pdl));
  });
}

}  // namespace

extern "C" {

normjit_status normjit_rmsnorm(const normjit_tensor* input, const normjit_tensor* weight,
                               double eps, const normjit_tensor* out, void* stream,
                               int enable_pdl) {
  return rms("rmsnorm", normjit::rmsnorm, input, weight, eps, out, stream, enable_pdl);
}
normjit_status normjit_gemma_rmsnorm(const normjit_tensor* input, const normjit_tensor* weight,
                                     double eps, const normjit_tensor* out, void* stream,
                                     int enable_pdl) {
  return rms("gemma_rmsnorm", normjit::gemma_rmsnorm, input, weight, eps, out, stream, enable_pdl);
}
normjit_status normjit_fused_add_rmsnorm(const normjit_tensor* input,
                                         const normjit_tensor* residual,
                                         const normjit_tensor* weight, double eps, void* stream,
                                         int enable_pdl) {
  return fused("fused_add_rmsnorm", normjit::fused_add_rmsnorm, input, residual, weight, eps,
               stream, enable_pdl);
}
normjit_status normjit_gemma_fused_add_rmsnorm(const normjit_tensor* input,
                                               const normjit_tensor* residual,
                                               const normjit_tensor* weight, double eps,
                                               void* stream, int enable_pdl) {
  return fused("gemma_fused_add_rmsnorm", normjit::gemma_fused_add_rmsnorm, input, residual,
               weight, eps, stream, enable_pdl);
}

normjit_status normjit_prewarm_manifest(const char* manifest, const char* arch, int jobs,
                                        normjit_prewarm_result* result) {
  const auto t0 = std::chrono::steady_clock::now();
  constexpr uint32_t kV1Size = offsetof(normjit_prewarm_result, seconds) + sizeof(double);
  if (result && result->struct_size < kV1Size) {
    g_last_error = "normjit_prewarm_manifest: result->struct_size: expected sizeof(normjit_prewarm_result) (" +
                   std::to_string(sizeof(normjit_prewarm_result)) + "), got " +
                   std::to_string(result->struct_size);
    return NORMJIT_ERROR_INVALID_ARGUMENT;
  }
  if (!manifest || !*manifest) {
    g_last_error = "normjit_prewarm_manifest: manifest: expected a file, a bundled manifest name or "
                   "JSON text, got NULL or \"\"";
    return NORMJIT_ERROR_INVALID_ARGUMENT;
  }
  std::vector<normjit::PrewarmItem> items;
  const normjit_status st = guarded([&] {
    normjit::PrewarmOptions o;
    o.arch = arch ? arch : "";
    o.jobs = jobs;
    items = normjit::prewarm(normjit::load_manifest(manifest).problems, o);
  });
  normjit_prewarm_result r{};
  r.struct_size = result ? result->struct_size : uint32_t(sizeof r);
  r.kernels = int32_t(items.size());
  std::string first_error;
  bool compile_failed = false;
  for (const normjit::PrewarmItem& it : items) {
    if (!it.error.empty()) {
      ++r.failed;
      if (first_error.empty()) first_error = it.error;
      compile_failed = compile_failed || !it.compiled;  // compiled + error: not stored
    } else if (it.compiled) {
      ++r.compiled;
    } else {
      ++r.cached;
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (result) std::memcpy(result, &r, std::min<size_t>(result->struct_size, sizeof r));
  if (st != NORMJIT_SUCCESS) return st;
  if (r.failed) {
    g_last_error = "normjit_prewarm_manifest: " + std::to_string(r.failed) + " of " +
                   std::to_string(r.kernels) + " kernels failed; first: " + first_error;
    return compile_failed ? NORMJIT_ERROR_COMPILE : NORMJIT_ERROR_CACHE_WRITE;
  }
  return NORMJIT_SUCCESS;
}

const char* normjit_last_error(void) { return g_last_error.c_str(); }
const char* normjit_version(void) { return NORMJIT_VERSION_STRING; }

}  // extern "C"

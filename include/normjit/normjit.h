/* normjit C ABI: plain tensor struct, status codes, a thread-local last-error string.
 * Every function validates all arguments before launching anything; on failure it returns a
 * status other than NORMJIT_SUCCESS and normjit_last_error() describes the problem. */
#ifndef NORMJIT_NORMJIT_H_
#define NORMJIT_NORMJIT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NORMJIT_MAX_DIMS 8

typedef enum normjit_status {
  NORMJIT_SUCCESS = 0,
  NORMJIT_ERROR_INVALID_ARGUMENT = 1, /* wrong dtype, shape, stride, device, aliasing, value */
  NORMJIT_ERROR_UNSUPPORTED = 2,      /* valid input this op/architecture does not implement */
  NORMJIT_ERROR_CUDA = 3,             /* driver failure, or no driver / GPU */
  NORMJIT_ERROR_COMPILE = 4,          /* NVRTC rejected the generated kernel */
  NORMJIT_ERROR_CACHE_MISS = 5,       /* offline mode and the kernel is not in the cache */
  NORMJIT_ERROR_INTERNAL = 6,
  NORMJIT_ERROR_CACHE_WRITE = 7       /* prewarm: a kernel compiled but the cache could not
                                         store it (read-only, full, or no cache directory) */
} normjit_status;

/* Values match normjit::DType. */
typedef enum normjit_dtype {
  NORMJIT_F32 = 0,
  NORMJIT_F16 = 1,
  NORMJIT_BF16 = 2,
  NORMJIT_FP8_E4M3 = 3,
  NORMJIT_FP8_E5M2 = 4,
  NORMJIT_U8 = 5,
  NORMJIT_I32 = 6
} normjit_dtype;

/* Strides in elements. `device` is the CUDA device ordinal holding `data`. */
typedef struct normjit_tensor {
  void* data;
  int32_t dtype; /* normjit_dtype */
  int32_t ndim;
  int64_t shape[NORMJIT_MAX_DIMS];
  int64_t stride[NORMJIT_MAX_DIMS];
  int32_t device;
} normjit_tensor;

/* `stream` is a CUstream (NULL: legacy default stream). enable_pdl: -1 unset (on where
 * supported), 0 off, 1 on, NORMJIT_PDL_STATIC_WEIGHT (2) on with the caller's promise that no
 * work in flight on the stream writes the weight (LaunchOptions::static_weight: calls of a few
 * rows then read the weight before waiting for the previous kernel). Optional tensors may be
 * NULL. */
#define NORMJIT_PDL_STATIC_WEIGHT 2

/* out = input / RMS(input) * weight; input [rows, hidden] or [batch, heads, head_dim];
 * out NULL: in place. */
normjit_status normjit_rmsnorm(const normjit_tensor* input, const normjit_tensor* weight,
                               double eps, const normjit_tensor* out, void* stream,
                               int enable_pdl);
normjit_status normjit_gemma_rmsnorm(const normjit_tensor* input, const normjit_tensor* weight,
                                     double eps, const normjit_tensor* out, void* stream,
                                     int enable_pdl);
/* residual <- input + residual; input <- rmsnorm(sum) * weight. */
normjit_status normjit_fused_add_rmsnorm(const normjit_tensor* input,
                                         const normjit_tensor* residual,
                                         const normjit_tensor* weight, double eps, void* stream,
                                         int enable_pdl);
normjit_status normjit_gemma_fused_add_rmsnorm(const normjit_tensor* input,
                                               const normjit_tensor* residual,
                                               const normjit_tensor* weight, double eps,
                                               void* stream, int enable_pdl);

/* ---- Prewarm: compile kernels into the disk cache ahead of time (no GPU needed) ---------- */

/* Counts of one prewarm. Set struct_size to sizeof(normjit_prewarm_result) before the call:
 * fields are only ever appended, and the library writes no more than struct_size bytes. */
typedef struct normjit_prewarm_result {
  uint32_t struct_size;
  int32_t kernels;  /* distinct kernels the manifest selects on the requested archs */
  int32_t compiled; /* compiled by this call and stored in the cache */
  int32_t cached;   /* already in the cache (the writable one or a prebuilt one) */
  int32_t failed;   /* failed to compile, or compiled but not stored */
  double seconds;   /* wall time of the call */
} normjit_prewarm_result;

/* Compiles every kernel a prewarm manifest selects into the disk cache, `jobs` at once.
 *   manifest: a manifest file, a bundled manifest name ("llama-3.1-8b"; looked up in
 *             $NORMJIT_MANIFEST_DIR, then <prefix>/share/normjit/manifests), or the manifest
 *             JSON text itself (starting with '{'). Format: cache/README.md.
 *   arch:     comma list of targets ("sm_90", "sm_80,sm_90,sm_100", "all"); NULL or "": the
 *             arch of each GPU present.
 *   jobs:     parallel compiles; <= 0: one per core.
 *   result:   NULL, or counts (struct_size set by the caller).
 * Works under NORMJIT_OFFLINE (prewarming is how an offline cache gets filled).
 * Returns NORMJIT_SUCCESS when every kernel is in the cache afterwards;
 * NORMJIT_ERROR_INVALID_ARGUMENT for a bad manifest, arch or struct_size (nothing compiled);
 * NORMJIT_ERROR_CUDA when arch is empty and no GPU is usable; NORMJIT_ERROR_COMPILE when a
 * kernel failed to compile, else NORMJIT_ERROR_CACHE_WRITE when one could not be stored (the
 * counts say how many; normjit_last_error() describes the first failure). */
normjit_status normjit_prewarm_manifest(const char* manifest, const char* arch, int jobs,
                                        normjit_prewarm_result* result);

/* Description of the last failure on this thread ("" after a success). */
const char* normjit_last_error(void);
const char* normjit_version(void);

#ifdef __cplusplus
}
#endif

#endif /* NORMJIT_NORMJIT_H_ */

// extern "C" entry points over FlashInfer's header-only norm kernels, for scripts/peers_bench.py.
// Built on the GPU machine from the headers of the flashinfer-python wheel (its Python JIT needs
// packages that machine lacks); the same route the shared peer baseline used.
#include <cuda_bf16.h>
#include <flashinfer/norm.cuh>

using bf16 = __nv_bfloat16;

extern "C" int fi_rmsnorm(void* x, void* w, void* y, unsigned rows, unsigned d, unsigned stride_x,
                          unsigned stride_y, float eps, int gemma, int pdl, void* stream) {
  auto s = static_cast<cudaStream_t>(stream);
  auto fn = gemma ? flashinfer::norm::GemmaRMSNorm<bf16> : flashinfer::norm::RMSNorm<bf16>;
  return static_cast<int>(fn(static_cast<bf16*>(x), static_cast<bf16*>(w), static_cast<bf16*>(y),
                             rows, d, stride_x, stride_y, eps, pdl != 0, s));
}

extern "C" int fi_fused_add_rmsnorm(void* x, void* r, void* w, unsigned rows, unsigned d,
                                    unsigned stride_x, unsigned stride_r, float eps, int gemma,
                                    int pdl, void* stream) {
  auto s = static_cast<cudaStream_t>(stream);
  auto fn = gemma ? flashinfer::norm::GemmaFusedAddRMSNorm<bf16>
                  : flashinfer::norm::FusedAddRMSNorm<bf16>;
  return static_cast<int>(fn(static_cast<bf16*>(x), static_cast<bf16*>(r), static_cast<bf16*>(w),
                             rows, d, stride_x, stride_r, eps, pdl != 0, s));
}

// Companion of decode_anatomy.cu: minimal norms with normjit's kernel parameters (NormParams), in a
// cubin of their own, so that decode_anatomy can load them when normjit would (after the process
// has allocated memory) and time them beside normjit's kernels. The *_dry kernels run their body
// once before the PDL wait with every memory access switched off, so that the instructions after
// the wait are already in the SM's instruction cache when it returns.
//   nvcc -cubin -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o build-tmp/late.cubin scripts/decode_anatomy_late.cu
#include "decode_anatomy.cuh"

template <int kH, int kT, bool kFused, bool kDry>
__device__ __forceinline__ void body(const NormParams& p) {
  constexpr int kVectors = kH / 8;
  constexpr int kItems = kVectors / kT;
  __shared__ float red[kT / 32];
  const size_t base = size_t(blockIdx.x) * kVectors + threadIdx.x;
  const uint4* x = static_cast<const uint4*>(p.input.ptr);
  uint4* r = static_cast<uint4*>(p.residual.ptr);
  uint4* y = static_cast<uint4*>(p.out.ptr);
  const uint4* w = static_cast<const uint4*>(p.weight);
  // One pass, or two (dry, then wet) through the same instructions: not unrolled, so both passes
  // run one copy of the code.
#pragma unroll 1
  for (int pass = kDry ? 0 : 1; pass < 2; ++pass) {
    const bool wet = pass == 1;
    if (wet) {
      asm volatile("griddepcontrol.wait;" ::: "memory");
      asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    }
    uint4 xs[kItems], rs[kItems], ws[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      xs[i] = rs[i] = ws[i] = make_uint4(0, 0, 0, 0);
      if (wet) {
        xs[i] = x[base + i * kT];
        if (kFused) rs[i] = r[base + i * kT];
        ws[i] = __ldg(w + threadIdx.x + i * kT);
      }
    }
    float h[kItems][8];
    float ss = 0.f;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      unpack(xs[i], h[i]);
      if (kFused) {
        float rf[8];
        unpack(rs[i], rf);
#pragma unroll
        for (int j = 0; j < 8; ++j) h[i][j] += rf[j];
        if (wet) r[base + i * kT] = pack(h[i]);
      }
#pragma unroll
      for (int j = 0; j < 8; ++j) ss = fmaf(h[i][j], h[i][j], ss);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = ss;
    __syncthreads();
    ss = 0.f;
#pragma unroll
    for (int i = 0; i < kT / 32; ++i) ss += red[i];
    __syncthreads();  // the dry pass's reads of red before the wet pass's writes
    const float rstd = rsqrtf(ss * (1.f / kH) + p.eps);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      float wf[8], o[8];
      unpack(ws[i], wf);
#pragma unroll
      for (int j = 0; j < 8; ++j) o[j] = h[i][j] * rstd * wf[j];
      if (wet) y[base + i * kT] = pack(o);
    }
  }
}

#define LATE_KERNEL(NAME, H, T, FUSED, DRY) \
  extern "C" __global__ void __launch_bounds__(T) NAME(const NormParams p) { body<H, T, FUSED, DRY>(p); }
LATE_KERNEL(rms4096_t128, 4096, 128, false, false)
LATE_KERNEL(rms4096_t128_dry, 4096, 128, false, true)
LATE_KERNEL(rms2048_t128, 2048, 128, false, false)
LATE_KERNEL(rms2048_t128_dry, 2048, 128, false, true)
LATE_KERNEL(fused2048_t256, 2048, 256, true, false)
LATE_KERNEL(fused2048_t256_dry, 2048, 256, true, true)
LATE_KERNEL(fused4096_t256, 4096, 256, true, false)
LATE_KERNEL(fused4096_t256_dry, 4096, 256, true, true)

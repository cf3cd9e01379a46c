// Shared by decode_anatomy.cu and decode_anatomy_late.cu: normjit's kernel parameters (the one
// definition, kernel_templates/params.cuh) and bf16 vector packing.
#pragma once
#include <cuda_bf16.h>

#include "../kernel_templates/params.cuh"

using normjit::NormParams;
using normjit::RowTensor;

__device__ __forceinline__ void unpack(const uint4& v, float (&f)[8]) {
  const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&v);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 t = __bfloat1622float2(h[i]);
    f[2 * i] = t.x;
    f[2 * i + 1] = t.y;
  }
}
__device__ __forceinline__ uint4 pack(const float (&f)[8]) {
  uint4 v;
  __nv_bfloat162* h = reinterpret_cast<__nv_bfloat162*>(&v);
#pragma unroll
  for (int i = 0; i < 4; ++i) h[i] = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
  return v;
}

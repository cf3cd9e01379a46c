// Device helpers every template uses: element types, fp32 conversions written with PTX (no
// CUDA toolkit headers are needed at run time), vector loads/stores, the exact-rounding
// arithmetic the spec names, and programmatic-dependent-launch hooks.
#pragma once
#include "params.cuh"

namespace normjit {

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

struct bf16 { u16 bits; };
struct f16 { u16 bits; };

// ---- conversions (exact widening, RN-even narrowing) -------------------------------------
__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(bf16 v) { return __uint_as_float(u32(v.bits) << 16); }
__device__ __forceinline__ float to_float(f16 v) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
  return f;
}

template <class T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ bf16 from_float<bf16>(float v) {
  bf16 r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r.bits) : "f"(v));
  return r;
}
template <> __device__ __forceinline__ f16 from_float<f16>(float v) {
  f16 r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r.bits) : "f"(v));
  return r;
}

// ---- arithmetic with the rounding points the spec fixes (never contracted) ---------------
__device__ __forceinline__ float add_rn(float a, float b) {
  float r;
  asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
__device__ __forceinline__ float mul_rn(float a, float b) {
  float r;
  asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
__device__ __forceinline__ float fma_rn(float a, float b, float c) {
  float r;
  asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c));
  return r;
}
__device__ __forceinline__ float div_rn(float a, float b) {
  float r;
  asm("div.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
__device__ __forceinline__ float rsqrt_approx(float a) {
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}

// ---- vector memory access -----------------------------------------------------------------
// A vector of N elements of T is moved in chunks of min(16, N * sizeof(T)) bytes; the host
// only picks N when every base address and stride is aligned to that chunk.
template <int Bytes> struct Chunk;
template <> struct Chunk<1> { typedef u8 type; };
template <> struct Chunk<2> { typedef u16 type; };
template <> struct Chunk<4> { typedef u32 type; };
template <> struct Chunk<8> { typedef uint2 type; };
template <> struct Chunk<16> { typedef uint4 type; };

template <class T, int N> struct VecBytes {
  static constexpr int kBytes = N * int(sizeof(T));
  static constexpr int kChunk = kBytes < 16 ? kBytes : 16;
  static constexpr int kChunks = kBytes / kChunk;
  typedef typename Chunk<kChunk>::type ChunkT;
};

// N elements of T kept in their storage format (half the registers of fp32 for 16-bit types)
// and converted to fp32 on use.
template <class T, int N> struct Packed {
  typedef VecBytes<T, N> VB;
  union {
    typename VB::ChunkT c[VB::kChunks];
    T e[N];
  } u;

  // Load of activations (read once per call). A plain ld.global: on the H200 it beat the
  // streaming ld.global.cs by 1.6-5 % at 32768 rows (rmsnorm 4096: 129.6 vs 136.7 us; fused add
  // 8192: 524.0 vs 533.2 us; docs/benchmarks.md), and .cs stores gained nothing.
  __device__ __forceinline__ void load_stream(const T* p) {
    const typename VB::ChunkT* src = reinterpret_cast<const typename VB::ChunkT*>(p);
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) u.c[i] = src[i];
  }
  // Cached load of parameters (weights) that every row reads.
  __device__ __forceinline__ void load_cached(const T* p) {
    const typename VB::ChunkT* src = reinterpret_cast<const typename VB::ChunkT*>(p);
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) u.c[i] = __ldg(src + i);
  }
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) u.c[i] = typename VB::ChunkT();
  }
  __device__ __forceinline__ float operator[](int j) const { return to_float(u.e[j]); }
};

template <class T, int N>
__device__ __forceinline__ void store_vec(T* p, const float (&f)[N]) {
  typedef VecBytes<T, N> VB;
  union { typename VB::ChunkT c[VB::kChunks]; T e[N]; } u;
#pragma unroll
  for (int j = 0; j < N; ++j) u.e[j] = from_float<T>(f[j]);
  typename VB::ChunkT* dst = reinterpret_cast<typename VB::ChunkT*>(p);
#pragma unroll
  for (int i = 0; i < VB::kChunks; ++i) dst[i] = u.c[i];
}

// ---- programmatic dependent launch (sm_90+) ----------------------------------------------
// Without the launch attribute these are no-ops, so one binary serves PDL on and off.
template <bool kEnabled> __device__ __forceinline__ void pdl_wait() {
  if constexpr (kEnabled) asm volatile("griddepcontrol.wait;" ::: "memory");
}
template <bool kEnabled> __device__ __forceinline__ void pdl_launch_dependents() {
  if constexpr (kEnabled) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

// Element offset of row `row` of a RowTensor.
template <bool k3D>
__device__ __forceinline__ i64 row_offset(const RowTensor& t, i64 row, i64 inner) {
  if constexpr (k3D) return (row / inner) * t.stride0 + (row % inner) * t.stride1;
  else return row * t.stride0;
}

}  // namespace normjit

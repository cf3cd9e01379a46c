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
template <class T> struct is_bf16 { static constexpr bool value = false; };
template <> struct is_bf16<bf16> { static constexpr bool value = true; };

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

// Cache policy of activation loads (KernelConfig::loads):
//   0  plain ld.global (L1 and L2 allocate);
//   1  ld.global.cs, "streaming": evict-first in L1 and L2;
//   2  ld.global.L1::no_allocate: L2 only;
//   3  cache hints by pass: a row that is read again (residency 2) is first read evict-last,
//      so the re-read hits L1 or L2, and read the last time evict-first (load_chunk's kPolicy 3/4).
// On the H200, 0 beat 1 by 1.6-5 % for rmsnorm (hidden 4096-16384) and fused add (4096-8192) at
// 32768 rows, but lost by 19 % for fused add at hidden 16384 (1263 vs 1065 us);
// docs/benchmarks.md.
// An L2 cache policy for the .L2::cache_hint loads and stores below: evict-last (kLast) or
// evict-first, for every line the access touches.
template <bool kLast> __device__ __forceinline__ u64 l2_policy() {
  u64 policy;
  if constexpr (kLast) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  else asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// kPolicy: 0-2 as above; 3 evict-last and 4 evict-first, each in both L1 and L2, as
// torch.compile's looped reductions emit them. The L1 half matters: with it a re-read row ran
// 0.5-1.6 % faster at 8192-32768 rows of 4096-8192 elements, and 1.7-1.8 % at 8192-32768 rows
// of 16384, where it now beats holding the row (thirteenth run, hints-ab.txt, weight-ab.txt).
#define NORMJIT_LD_HINTED(EVICT)                                                                    \
  if constexpr (sizeof(C) == 16) {                                                                  \
    asm volatile("ld.global.L1::" EVICT ".L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"        \
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy));                \
  } else if constexpr (sizeof(C) == 8) {                                                            \
    asm volatile("ld.global.L1::" EVICT ".L2::cache_hint.v2.u32 {%0, %1}, [%2], %3;"                \
                 : "=r"(v.x), "=r"(v.y) : "l"(p), "l"(policy));                                     \
  } else if constexpr (sizeof(C) == 4) {                                                            \
    asm volatile("ld.global.L1::" EVICT ".L2::cache_hint.u32 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(policy)); \
  } else if constexpr (sizeof(C) == 2) {                                                            \
    asm volatile("ld.global.L1::" EVICT ".L2::cache_hint.u16 %0, [%1], %2;" : "=h"(v) : "l"(p), "l"(policy)); \
  } else {                                                                                          \
    u16 w;                                                                                          \
    asm volatile("ld.global.L1::" EVICT ".L2::cache_hint.u8 %0, [%1], %2;" : "=h"(w) : "l"(p), "l"(policy)); \
    v = C(w);                                                                                       \
  }
template <int kPolicy, class C> __device__ __forceinline__ C load_chunk(const C* p) {
  if constexpr (kPolicy == 3 || kPolicy == 4) {
    const u64 policy = l2_policy<kPolicy == 3>();
    C v;
    if constexpr (kPolicy == 3) {
      NORMJIT_LD_HINTED("evict_last")
    } else {
      NORMJIT_LD_HINTED("evict_first")
    }
    return v;
  } else if constexpr (kPolicy == 1) return __ldcs(p);
  else if constexpr (kPolicy == 2) {
    C v;
    if constexpr (sizeof(C) == 16) {
      asm volatile("ld.global.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    } else if constexpr (sizeof(C) == 8) {
      asm volatile("ld.global.L1::no_allocate.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
    } else if constexpr (sizeof(C) == 4) {
      asm volatile("ld.global.L1::no_allocate.u32 %0, [%1];" : "=r"(v) : "l"(p));
    } else if constexpr (sizeof(C) == 2) {
      asm volatile("ld.global.L1::no_allocate.u16 %0, [%1];" : "=h"(v) : "l"(p));
    } else {
      u16 w;
      asm volatile("ld.global.L1::no_allocate.u8 %0, [%1];" : "=h"(w) : "l"(p));
      v = C(w);
    }
    return v;
  } else {
    return *p;
  }
}
#undef NORMJIT_LD_HINTED

// load_chunk under a predicate: the value, or zero where `pred` is false (nothing is read there,
// so p may point past the row). Policies 2-4 are asm volatile, which the compiler neither
// speculates nor predicates: `if (in_row) load` became a branch, and ptxas put it after the
// uses of the earlier items' loads, so a part-filled last item (rmsnorm 14336 re-read on 512
// threads: 3.5 items) left for memory a round trip after the others (sm_90a SASS; plain loads
// were predicated already). Here the predicate is PTX's, `@p ld`, as in Triton's masked loads.
// NORMJIT_LD_IF_HINTED(EVICT): with an L1 and an L2 evict-EVICT policy (load_chunk's 3 and 4);
// NORMJIT_LD_IF_NA: L1::no_allocate (load_chunk's 2). `on` is the predicate, v starts at zero.
#define NORMJIT_PRED(N) "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %" #N ", 0;\n\t@p "
#define NORMJIT_LD_IF_HINTED(EVICT)                                                                     \
  if constexpr (sizeof(C) == 16) {                                                                      \
    asm volatile(NORMJIT_PRED(4) "ld.global.L1::" EVICT ".L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%5], %6;\n\t}" \
                 : "+r"(v.x), "+r"(v.y), "+r"(v.z), "+r"(v.w) : "r"(on), "l"(p), "l"(policy));              \
  } else if constexpr (sizeof(C) == 8) {                                                                \
    asm volatile(NORMJIT_PRED(2) "ld.global.L1::" EVICT ".L2::cache_hint.v2.u32 {%0, %1}, [%3], %4;\n\t}"    \
                 : "+r"(v.x), "+r"(v.y) : "r"(on), "l"(p), "l"(policy));                                  \
  } else if constexpr (sizeof(C) == 4) {                                                                \
    asm volatile(NORMJIT_PRED(1) "ld.global.L1::" EVICT ".L2::cache_hint.u32 %0, [%2], %3;\n\t}"            \
                 : "+r"(v) : "r"(on), "l"(p), "l"(policy));                                              \
  } else if constexpr (sizeof(C) == 2) {                                                                \
    asm volatile(NORMJIT_PRED(1) "ld.global.L1::" EVICT ".L2::cache_hint.u16 %0, [%2], %3;\n\t}"          \
                 : "+h"(v) : "r"(on), "l"(p), "l"(policy));                                              \
  } else {                                                                                              \
    u16 w = 0;                                                                                          \
    asm volatile(NORMJIT_PRED(1) "ld.global.L1::" EVICT ".L2::cache_hint.u8 %0, [%2], %3;\n\t}"           \
                 : "+h"(w) : "r"(on), "l"(p), "l"(policy));                                              \
    v = C(w);                                                                                           \
  }
#define NORMJIT_LD_IF_NA                                                                                \
  if constexpr (sizeof(C) == 16) {                                                                      \
    asm volatile(NORMJIT_PRED(4) "ld.global.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%5];\n\t}"            \
                 : "+r"(v.x), "+r"(v.y), "+r"(v.z), "+r"(v.w) : "r"(on), "l"(p));                          \
  } else if constexpr (sizeof(C) == 8) {                                                                \
    asm volatile(NORMJIT_PRED(2) "ld.global.L1::no_allocate.v2.u32 {%0, %1}, [%3];\n\t}"                    \
                 : "+r"(v.x), "+r"(v.y) : "r"(on), "l"(p));                                              \
  } else if constexpr (sizeof(C) == 4) {                                                                \
    asm volatile(NORMJIT_PRED(1) "ld.global.L1::no_allocate.u32 %0, [%2];\n\t}" : "+r"(v) : "r"(on), "l"(p)); \
  } else if constexpr (sizeof(C) == 2) {                                                                \
    asm volatile(NORMJIT_PRED(1) "ld.global.L1::no_allocate.u16 %0, [%2];\n\t}" : "+h"(v) : "r"(on), "l"(p)); \
  } else {                                                                                              \
    u16 w = 0;                                                                                          \
    asm volatile(NORMJIT_PRED(1) "ld.global.L1::no_allocate.u8 %0, [%2];\n\t}" : "+h"(w) : "r"(on), "l"(p)); \
    v = C(w);                                                                                           \
  }
template <int kPolicy, class C> __device__ __forceinline__ C load_chunk_if(const C* p, bool pred) {
  static_assert(kPolicy >= 2 && kPolicy <= 4, "policies 2-4; plain and streaming loads take if (pred) load_chunk");
  C v = C();
  const int on = pred;
  if constexpr (kPolicy == 2) {
    NORMJIT_LD_IF_NA
  } else {
    const u64 policy = l2_policy<kPolicy == 3>();
    if constexpr (kPolicy == 3) {
      NORMJIT_LD_IF_HINTED("evict_last")
    } else {
      NORMJIT_LD_IF_HINTED("evict_first")
    }
  }
  return v;
}
#undef NORMJIT_PRED
#undef NORMJIT_LD_IF_HINTED
#undef NORMJIT_LD_IF_NA

// N elements of T kept in their storage format (half the registers of fp32 for 16-bit types)
// and converted to fp32 on use.
template <class T, int N> struct Packed {
  typedef VecBytes<T, N> VB;
  union {
    typename VB::ChunkT c[VB::kChunks];
    T e[N];
    u32 w[(N * sizeof(T) + 3) / 4];
  } u;

  // Load of activations with cache policy kPolicy (load_chunk above).
  template <int kPolicy> __device__ __forceinline__ void load_act(const T* p) {
    const typename VB::ChunkT* src = reinterpret_cast<const typename VB::ChunkT*>(p);
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) u.c[i] = load_chunk<kPolicy>(src + i);
  }
  // load_act with policy 2-4 where `pred`, zero elsewhere, without a branch around the load
  // (load_chunk_if). Plain and streaming loads stay `if (pred) load_act`: the compiler predicates
  // those itself.
  template <int kPolicy> __device__ __forceinline__ void load_act_if(const T* p, bool pred) {
    const typename VB::ChunkT* src = reinterpret_cast<const typename VB::ChunkT*>(p);
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) u.c[i] = load_chunk_if<kPolicy>(src + i, pred);
  }
  // Load from shared memory (a staged row, residency 3-4).
  __device__ __forceinline__ void load_shared(const T* p) {
    const typename VB::ChunkT* src = reinterpret_cast<const typename VB::ChunkT*>(p);
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) u.c[i] = src[i];
  }
  // Store to shared memory (a weight handed to the block's other rows: rms_norm_rows).
  __device__ __forceinline__ void store_shared(T* p) const {
    typename VB::ChunkT* dst = reinterpret_cast<typename VB::ChunkT*>(p);
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) dst[i] = u.c[i];
  }
  // Cached load of parameters (weights) that every row reads. Not with load_chunk's evict-last
  // hints in general: those loads are asm volatile, which kept ptxas from moving a weight load
  // above the previous item's output store, and the staged wide rows ran 4-15 % slower
  // (thirteenth run, weight-ab.txt); rms_norm.cuh takes them for the late weight only.
  __device__ __forceinline__ void load_cached(const T* p) {
    const typename VB::ChunkT* src = reinterpret_cast<const typename VB::ChunkT*>(p);
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) u.c[i] = __ldg(src + i);
  }
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int i = 0; i < VB::kChunks; ++i) u.c[i] = typename VB::ChunkT();
  }
  // The float operator[] gives, by other instructions (a byte permute of the packed word, and for
  // f16 the cvt of that), so that the compiler cannot reuse operator[]'s result: a row held in
  // registers is converted again for its output (Cfg::kReconvert) instead of holding the fp32
  // copies its reduction made across the reduction, twice the registers of the packed row.
  __device__ __forceinline__ float again(int j) const {
    if constexpr (sizeof(T) == 2 && sizeof(typename VB::ChunkT) >= 4) {
      u32 r;
      if constexpr (is_bf16<T>::value) {  // the half in the high 16 bits, zeros below
        if (j & 1) asm("prmt.b32 %0, %1, 0, 0x3244;" : "=r"(r) : "r"(u.w[j / 2]));
        else asm("prmt.b32 %0, %1, 0, 0x1044;" : "=r"(r) : "r"(u.w[j / 2]));
        return __uint_as_float(r);
      } else {  // the half in both halves, its low copy converted
        if (j & 1) asm("prmt.b32 %0, %1, 0, 0x3232;" : "=r"(r) : "r"(u.w[j / 2]));
        else asm("prmt.b32 %0, %1, 0, 0x1010;" : "=r"(r) : "r"(u.w[j / 2]));
        float f;
        asm("{ .reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.f32.f16 %0, lo; }" : "=f"(f) : "r"(r));
        return f;
      }
    } else {
      return (*this)[j];
    }
  }
  // Element j for the output pass of a held row: again(j) where the row is converted anew
  // (Cfg::kReconvert), else operator[].
  template <bool kAgain> __device__ __forceinline__ float held(int j) const {
    if constexpr (kAgain) return again(j);
    else return (*this)[j];
  }
  __device__ __forceinline__ float operator[](int j) const {
    // bf16 pairs straight from their 32-bit word: one shift or mask each, not extract + shift.
    if constexpr (sizeof(T) == 2 && sizeof(typename VB::ChunkT) >= 4 && is_bf16<T>::value)
      return __uint_as_float(j & 1 ? u.w[j / 2] & 0xffff0000u : u.w[j / 2] << 16);
    else
      return to_float(u.e[j]);
  }
};

// Store of one chunk; kKeep adds an L2 evict-last hint (KernelConfig::keep_out), so that the line
// outlasts the lines read around it and the next kernel finds it in L2. Otherwise a plain store:
// an L2 evict-first hint or st.global.cs on the output ran up to 5.9 % slower at 8192-32768 rows
// (H200, session 38, docs/results/h200-2026-12-02-s38, st-*-call3.txt).
template <bool kKeep, class C> __device__ __forceinline__ void store_chunk(C* p, const C& v) {
  if constexpr (kKeep) {
    const u64 policy = l2_policy<true>();
    if constexpr (sizeof(C) == 16) {
      asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1, %2, %3, %4}, %5;"
                   :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(policy) : "memory");
    } else if constexpr (sizeof(C) == 8) {
      asm volatile("st.global.L2::cache_hint.v2.u32 [%0], {%1, %2}, %3;"
                   :: "l"(p), "r"(v.x), "r"(v.y), "l"(policy) : "memory");
    } else if constexpr (sizeof(C) == 4) {
      asm volatile("st.global.L2::cache_hint.u32 [%0], %1, %2;" :: "l"(p), "r"(v), "l"(policy) : "memory");
    } else if constexpr (sizeof(C) == 2) {
      asm volatile("st.global.L2::cache_hint.u16 [%0], %1, %2;" :: "l"(p), "h"(v), "l"(policy) : "memory");
    } else {
      asm volatile("st.global.L2::cache_hint.u8 [%0], %1, %2;" :: "l"(p), "h"(u16(v)), "l"(policy) : "memory");
    }
  } else {
    *p = v;
  }
}

// A 16-byte chunk by one st.global.v4 whatever the compiler makes of the address: per-head rows
// several to a thread (rms_norm_rows), whose addresses come from two run-time strides, had each
// 16-byte store split into four 4-byte ones (sm_90a SASS, session 35). The memory clobber keeps
// every other access on its side of the store, as a plain store's possible aliasing does.
__device__ __forceinline__ void store_chunk_whole(uint4* p, const uint4& v) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

// Stores N fp32 values as T; kWhole: 16-byte chunks by store_chunk_whole (without kKeep).
template <class T, int N, bool kKeep = false, bool kWhole = false>
__device__ __forceinline__ void store_vec(T* p, const float (&f)[N]) {
  typedef VecBytes<T, N> VB;
  typedef typename VB::ChunkT C;
  union { C c[VB::kChunks]; T e[N]; } u;
#pragma unroll
  for (int j = 0; j < N; ++j) u.e[j] = from_float<T>(f[j]);
  C* dst = reinterpret_cast<C*>(p);
#pragma unroll
  for (int i = 0; i < VB::kChunks; ++i) {
    if constexpr (kWhole && !kKeep && sizeof(C) == 16) store_chunk_whole(dst + i, u.c[i]);
    else store_chunk<kKeep>(dst + i, u.c[i]);
  }
}

// The hinted store of one 16-byte vector at base + off (bytes), the add inside the asm. Given a
// finished address, each hinted store of a row of 4 vectors a thread took an address register of
// its own (the 16-bit re-read kernel of 32768: 42 registers, 1 CTA of 1024 threads an SM), where
// plain stores share one base with immediate offsets; this way it takes 32 (sm_90a, nvcc 13.0;
// neither the memory clobber nor the policy register was the cost). Used for 16-bit re-read rows
// of 4+ vectors a thread only: fp32 rows of 12544-16128 went from 32 to 38 registers with it
// (docs/results/h200-2026-12-02-s41, regs-at*.txt), and held rows' kernels moved by 2-10
// registers either way (held-at.txt there).
template <class T, int N>
__device__ __forceinline__ void store_vec_keep_at(T* base, long long off, const float (&f)[N]) {
  typedef VecBytes<T, N> VB;
  typedef typename VB::ChunkT C;
  static_assert(VB::kChunks == 1 && sizeof(C) == 16, "one 16-byte chunk");
  union { C c; T e[N]; } u;
#pragma unroll
  for (int j = 0; j < N; ++j) u.e[j] = from_float<T>(f[j]);
  const u64 policy = l2_policy<true>();
  asm volatile("{ .reg .u64 a; add.s64 a, %0, %1; st.global.L2::cache_hint.v4.u32 [a], {%2, %3, %4, %5}, %6; }"
               :: "l"(base), "l"(off), "r"(u.c.x), "r"(u.c.y), "r"(u.c.z), "r"(u.c.w), "l"(policy) : "memory");
}

// ---- programmatic dependent launch (sm_90+) ----------------------------------------------
// Without the launch attribute these are no-ops, so one binary serves PDL on and off.
template <bool kEnabled> __device__ __forceinline__ void pdl_wait() {
  if constexpr (kEnabled) asm volatile("griddepcontrol.wait;" ::: "memory");
}
template <bool kEnabled> __device__ __forceinline__ void pdl_launch_dependents() {
  if constexpr (kEnabled) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

// Asks the L2 for the line holding p; no register or L1 line is written. Before a PDL wait this
// is safe for data the previous kernel may still write: its writes land in the same L2 line.
__device__ __forceinline__ void prefetch_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

// Asks for the line holding p into this SM's L1 (through the L2); no register is written. Only
// after a PDL wait: an L1 line does not see another SM's later writes.
__device__ __forceinline__ void prefetch_l1(const void* p) {
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
}

// ---- bulk copies into shared memory (sm_90+: cp.async.bulk and mbarrier) -----------------
// A row staged in shared memory (KernelConfig::residency 3) arrives through the copy engine:
// one thread issues a few large copies, each completing a transaction count on an mbarrier,
// and the block waits on the barriers. No registers hold the row while its bytes are in
// flight, so an SM keeps as many bytes in flight as its shared memory holds.
__device__ __forceinline__ u32 smem_addr(const void* p) {
  u32 a;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
  return a;
}
// One thread initializes a barrier that completes when one arrival and its bytes are in.
__device__ __forceinline__ void mbarrier_init(u64* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_addr(bar)) : "memory");
}
// After the initializations, before the barrier is shared: makes them visible to the copy
// engine (the async proxy) and to the other threads once the block synchronizes.
__device__ __forceinline__ void mbarrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;" ::: "memory");
}
// The issuing thread's arrival, announcing `bytes` still to come from copies.
__device__ __forceinline__ void mbarrier_expect_bytes(u64* bar, u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_addr(bar)), "r"(bytes)
               : "memory");
}
// `bytes` (a multiple of 16, both addresses 16-byte aligned) from global to this CTA's shared
// memory, counted on `bar`. kEvictFirst: an L2 evict-first hint for data read once.
template <bool kEvictFirst>
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, u32 bytes, u64* bar) {
  if constexpr (kEvictFirst) {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
        :: "r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)), "l"(l2_policy<false>())
        : "memory");
  } else {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)) : "memory");
  }
}
// Waits until the barrier's phase `parity` has completed (its bytes are in shared memory).
// kClusterScope: acquire at cluster scope, for bytes other CTAs of the cluster pushed (st.async).
template <bool kClusterScope = false>
__device__ __forceinline__ void mbarrier_wait(u64* bar, u32 parity) {
  const u32 a = smem_addr(bar);
  u32 done = 0;
  do {
    if constexpr (kClusterScope) {
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
          : "=r"(done) : "r"(a), "r"(parity) : "memory");
    } else {
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(a), "r"(parity) : "memory");
    }
  } while (!done);
}

// ---- per-thread async copies into shared memory (sm_80+: cp.async) ------------------------
// A row staged by its own threads (KernelConfig::residency 4): each thread copies the 16-byte
// vectors it will read into shared memory (LDGSTS, cached in L2 only), one commit group a part,
// and waits on its own groups; no thread reads another's bytes, so no barrier is needed.
// kEvictFirst: an L2 evict-first hint for data read once.
template <bool kEvictFirst>
__device__ __forceinline__ void copy16_to_shared(void* dst, const void* src) {
  if constexpr (kEvictFirst) {
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;"
                 :: "r"(smem_addr(dst)), "l"(src), "l"(l2_policy<false>()) : "memory");
  } else {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem_addr(dst)), "l"(src) : "memory");
  }
}
// Closes this thread's group of copies issued since the last commit.
__device__ __forceinline__ void copies_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
// Waits until at most `pending` (0-3; a constant where the caller's loop over parts is unrolled)
// of this thread's committed groups are still in flight.
__device__ __forceinline__ void copies_wait(int pending) {
  if (pending <= 0) asm volatile("cp.async.wait_group 0;" ::: "memory");
  else if (pending == 1) asm volatile("cp.async.wait_group 1;" ::: "memory");
  else if (pending == 2) asm volatile("cp.async.wait_group 2;" ::: "memory");
  else asm volatile("cp.async.wait_group 3;" ::: "memory");
}

// Element offset of row `row` of a RowTensor (p: the launch's parameters). Per-head rows divide
// the row number by the heads as a multiply and a shift (NormParams::inner_mul: the host launches
// fewer than 2^31 such rows at a time). A 64-bit division had taken a call and ~40 instructions
// before each row's first load (sm_90a SASS of the strided per-head kernels, session 35).
template <bool k3D>
__device__ __forceinline__ i64 row_offset(const RowTensor& t, i64 row, const NormParams& p) {
  if constexpr (k3D) {
    const u32 r = u32(row);
    const u32 outer = u32((u64(r) * p.inner_mul) >> p.inner_shift);
    return i64(outer) * t.stride0 + i64(r - outer * u32(p.inner)) * t.stride1;
  } else {
    return row * t.stride0;
  }
}

}  // namespace normjit

// Kernel launch through cuLaunchKernelEx on the caller's stream, with PDL when asked for.
#pragma once
#include <algorithm>
#include <cstdint>

#include "cuda_driver.hpp"
#include "kernel_config.hpp"
#include "normjit/ops.hpp"
#include "params.cuh"

namespace normjit::detail {

// What cuLaunchKernelEx takes for one call, built the one way the library launches: the grid
// (clusters included), the attributes and the parameters. Not copyable: `config.attrs` and
// `args` point into the object itself. prepare_launch sets every field a launch reads, so a call
// does not zero-fill these 320 bytes first (a rep stos on every call).
struct LaunchArgs {
  CUlaunchConfig config;
  CUlaunchAttribute attrs[2];  // the first config.numAttrs
  NormParams params;
  void* args[1];
  LaunchArgs() = default;
  LaunchArgs(const LaunchArgs&) = delete;
  LaunchArgs& operator=(const LaunchArgs&) = delete;
};

// Whether a launch on `arch` uses programmatic dependent launch: where the arch has it
// (Arch::has_pdl), unless LaunchOptions::enable_pdl is set false.
inline bool uses_pdl(const LaunchOptions& o, Arch arch) { return arch.has_pdl() && o.enable_pdl.value_or(true); }

// Fills `out` for `c` over p.rows rows on `stream`; `pdl`: programmatic dependent launch (the
// caller checked sm_90+), `sm_count`: the device's SMs (a one-wave grid triggers its dependents
// early). Throws ValidationError when the grid is too large; launches nothing.
void prepare_launch(const KernelConfig& c, const NormParams& p, bool pdl, int sm_count, CUstream stream,
                    LaunchArgs* out);

// Per-head rows (KernelConfig::rank3) reach a kernel fewer than 2^31 a launch: row_offset
// (common.cuh) divides a row number by the heads in 32 bits, as a multiply and a shift.
constexpr std::int64_t kMaxRank3LaunchRows = (std::int64_t(1) << 31) - 1;

// row / inner == (row * mul) >> shift (64-bit product) for every 0 <= row < 2^31, for
// 1 <= inner < 2^31: shift = 31 + ceil(log2 inner), mul = ceil(2^shift / inner) < 2^32. The
// rounding error of mul adds less than row / 2^shift < 1 / inner to row / inner, too little to
// reach the next integer.
struct RowDivision {
  std::uint32_t mul = 0, shift = 0;
};
RowDivision row_division(std::int64_t inner);

// Whether per-head rows of `heads` heads a token, `in_stride1` and `out_stride1` elements apart,
// can be addressed by head blocks (KernelConfig::head_blocks): the grid's second dimension holds
// the heads' blocks (at most 65535, whatever the block's rows) and a head's offset from its
// token, (heads - 1) x stride, fits the kernel's 32 bits.
bool head_blocks_addressable(std::int64_t heads, std::int64_t in_stride1, std::int64_t out_stride1);

// Calls fn(part) for each launch a call over `p` makes: p itself, or for per-head rows of more
// than kMaxRank3LaunchRows, parts of whole outer indices (tokens) with their pointers advanced
// (and, for more than kMaxRank3LaunchRows heads a token, ranges of one token's heads).
template <class Fn>
void for_each_launch_part(const KernelConfig& c, const NormParams& p, Fn&& fn);

// Loads (or finds) the kernel for `c` and launches it over p.rows rows on `device`.
void launch_norm(const KernelConfig& c, const NormParams& p, const LaunchOptions& opts, int device);

// ---- implementation ----------------------------------------------------------------------

// `t`'s pointer advanced by `elements` of `bytes` each.
inline RowTensor advanced(const RowTensor& t, std::int64_t elements, int bytes) {
  RowTensor r = t;
  if (r.ptr) r.ptr = static_cast<char*>(r.ptr) + elements * bytes;
  return r;
}

template <class Fn>
void for_each_launch_part(const KernelConfig& c, const NormParams& p, Fn&& fn) {
  if (!c.rank3 || p.rows <= kMaxRank3LaunchRows) {
    fn(p);
    return;
  }
  const int in_bytes = dtype_size(c.input_dtype), out_bytes = dtype_size(c.output_dtype);
  // Rows of outer index o start at o * stride0, and head h of it at h * stride1 from there.
  auto part = [&](std::int64_t outer, std::int64_t head, std::int64_t rows, std::int64_t inner) {
    NormParams q = p;
    q.input = advanced(p.input, outer * p.input.stride0 + head * p.input.stride1, in_bytes);
    q.out = advanced(p.out, outer * p.out.stride0 + head * p.out.stride1, out_bytes);
    q.residual = advanced(p.residual, outer * p.residual.stride0 + head * p.residual.stride1, in_bytes);
    q.rows = rows;
    q.inner = inner;
    fn(q);
  };
  const std::int64_t outers = p.rows / p.inner;
  if (p.inner <= kMaxRank3LaunchRows) {
    const std::int64_t per = kMaxRank3LaunchRows / p.inner;  // whole outer indices a launch
    for (std::int64_t o = 0; o < outers; o += per) part(o, 0, std::min<std::int64_t>(per, outers - o) * p.inner, p.inner);
  } else {
    // One token's heads in ranges, each a part of one outer index (row / inner is 0 there).
    for (std::int64_t o = 0; o < outers; ++o)
      for (std::int64_t h = 0; h < p.inner; h += kMaxRank3LaunchRows) {
        const std::int64_t n = std::min<std::int64_t>(kMaxRank3LaunchRows, p.inner - h);
        part(o, h, n, n);
      }
  }
}

}  // namespace normjit::detail

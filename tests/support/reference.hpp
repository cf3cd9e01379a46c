// Host-side numerics for tests: bit-exact dtype conversions (RN-even) and float64 references
// that reproduce every rounding point of the op formulas (spec rmsnorm.md section 1).
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "normjit/dtype.hpp"

namespace njtest {

using normjit::DType;

float bf16_to_float(std::uint16_t b);
std::uint16_t float_to_bf16(float f);  // RN-even, NaN stays NaN, overflow -> inf
float f16_to_float(std::uint16_t h);
std::uint16_t float_to_f16(float f);   // RN-even incl. subnormals, overflow -> inf

// Element `i` of a buffer of `dt` as float (exact).
double get(DType dt, const void* base, std::int64_t i);
// Stores `v` rounded to `dt` (via fp32 first, as the kernels do).
void put(DType dt, void* base, std::int64_t i, double v);
// Rounds `v` to `dt` and back (through fp32).
double round_to(DType dt, double v);
// Spacing of `dt` values at |v| (one "step" of the spec's step criterion).
double ulp(DType dt, double v);

// Fills `n` elements of `dt` with fresh normal(mean, scale) values (never all zero). Up to
// kFillChunk elements come from `rng` itself; larger fills go in chunks of kFillChunk, each from
// a generator seeded by `rng` in chunk order, on up to `threads` threads (0: one per core), so
// the values depend on `rng` alone, never on the thread count. (One thread drew ~30 M normals a
// second: the GPU test of defaults spent most of its 226 s on fills and references of its
// widest rows, session 12.)
constexpr std::int64_t kFillChunk = std::int64_t(1) << 20;
void fill_random(DType dt, void* base, std::int64_t n, std::mt19937_64& rng, double scale = 1.0,
                 double mean = 0.0, int threads = 0);

// Worker threads for host-side checks: the cores, at most 32.
int worker_threads();

// Runs fn(begin, end, part) over [0, n) cut into `parts` contiguous ranges in order (part p
// covers the p-th), one thread each; for checks whose per-part results merge in part order.
template <class Fn>
void parallel_ranges(std::int64_t n, int parts, Fn&& fn) {
  parts = int(std::max<std::int64_t>(1, std::min<std::int64_t>(parts, n)));
  if (parts == 1) {
    fn(std::int64_t(0), n, 0);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(size_t(parts));
  for (int p = 0; p < parts; ++p)
    pool.emplace_back([&fn, n, parts, p] { fn(n * p / parts, n * (p + 1) / parts, p); });
  for (std::thread& t : pool) t.join();
}

// One RMSNorm row: y_j = (v_j * rstd) * (w_j + offset) in float64 with
// rstd = 1 / sqrt(sum(v^2) / H + fl(eps)). `v` are the fp32 values the kernel normalizes.
void rms_row(const std::vector<double>& v, const std::vector<double>& w, double offset, double eps,
             std::vector<double>* y);

// Result of comparing a kernel output with its reference.
struct Mismatch {
  std::int64_t count = 0;   // elements outside tolerance
  std::int64_t first = -1;  // first bad flat index
  double got = 0, want = 0;
  double max_steps = 0;     // worst |got - want| in steps of the output dtype
  std::string describe() const;
};

// Step criterion: |got - round_to(dt, want)| <= steps * ulp(dt, want) (fp32 outputs: a
// relative tolerance of `f32_rtol`). NaN/inf in `got` never passes.
bool within_steps(DType dt, double got, double want, double steps = 1.0, double f32_rtol = 2e-6);

}  // namespace njtest

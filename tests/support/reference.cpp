#include "support/reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace njtest {

float bf16_to_float(std::uint16_t b) {
  const std::uint32_t u = std::uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::uint16_t float_to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return std::uint16_t((u >> 16) | 0x40);  // quiet NaN
  const std::uint32_t lsb = (u >> 16) & 1;
  u += 0x7fff + lsb;
  return std::uint16_t(u >> 16);
}

float f16_to_float(std::uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v;
  if (exp == 0) v = std::ldexp(double(man), -24);
  else if (exp == 31) v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else v = std::ldexp(double(man | 0x400), exp - 25);
  return float(sign ? -v : v);
}

std::uint16_t float_to_f16(float f) {
  std::uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (std::isnan(f)) return 0x7e00;
  double a = std::fabs(double(f));
  if (a >= 65520.0) return sign | 0x7c00;  // rounds to inf
  if (a < std::ldexp(1.0, -14)) {          // subnormal: multiples of 2^-24
    const double q = std::nearbyint(a * std::ldexp(1.0, 24));  // RN-even (default mode)
    return sign | std::uint16_t(q);
  }
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const double scale = std::ldexp(1.0, 11 - e);  // 11 significant bits
  double q = std::nearbyint(a * scale);
  if (q >= 2048) {
    q /= 2;
    ++e;
  }
  const int exp_field = e - 1 + 15;
  if (exp_field >= 31) return sign | 0x7c00;
  return sign | std::uint16_t(exp_field << 10) | std::uint16_t(std::uint32_t(q) & 0x3ff);
}

double get(DType dt, const void* base, std::int64_t i) {
  switch (dt) {
    case DType::f32: return static_cast<const float*>(base)[i];
    case DType::bf16: return bf16_to_float(static_cast<const std::uint16_t*>(base)[i]);
    case DType::f16: return f16_to_float(static_cast<const std::uint16_t*>(base)[i]);
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}

void put(DType dt, void* base, std::int64_t i, double v) {
  const float f = float(v);
  switch (dt) {
    case DType::f32: static_cast<float*>(base)[i] = f; break;
    case DType::bf16: static_cast<std::uint16_t*>(base)[i] = float_to_bf16(f); break;
    case DType::f16: static_cast<std::uint16_t*>(base)[i] = float_to_f16(f); break;
    default: break;
  }
}

double round_to(DType dt, double v) {
  const float f = float(v);
  switch (dt) {
    case DType::f32: return f;
    case DType::bf16: return bf16_to_float(float_to_bf16(f));
    case DType::f16: return f16_to_float(float_to_f16(f));
    default: return v;
  }
}

double ulp(DType dt, double v) {
  const double a = std::fabs(v);
  int mant_bits = 24, min_exp = -126;
  if (dt == DType::bf16) mant_bits = 8;
  if (dt == DType::f16) { mant_bits = 11; min_exp = -14; }
  if (a == 0) return std::ldexp(1.0, min_exp - mant_bits + 1);
  int e;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  return std::ldexp(1.0, std::max(e - 1, min_exp) - mant_bits + 1);
}

int worker_threads() { return int(std::clamp(std::thread::hardware_concurrency(), 1u, 32u)); }

void fill_random(DType dt, void* base, std::int64_t n, std::mt19937_64& rng, double scale, double mean,
                 int threads) {
  if (n <= kFillChunk) {
    std::normal_distribution<double> dist(mean, scale);
    for (std::int64_t i = 0; i < n; ++i) put(dt, base, i, dist(rng));
    return;
  }
  const std::int64_t chunks = (n + kFillChunk - 1) / kFillChunk;
  std::vector<std::uint64_t> seeds(static_cast<size_t>(chunks));
  for (std::uint64_t& s : seeds) s = rng();
  parallel_ranges(chunks, threads > 0 ? threads : worker_threads(), [&](std::int64_t c0, std::int64_t c1, int) {
    for (std::int64_t c = c0; c < c1; ++c) {
      std::mt19937_64 gen(seeds[size_t(c)]);
      std::normal_distribution<double> dist(mean, scale);
      const std::int64_t end = std::min(n, (c + 1) * kFillChunk);
      for (std::int64_t i = c * kFillChunk; i < end; ++i) put(dt, base, i, dist(gen));
    }
  });
}

void rms_row(const std::vector<double>& v, const std::vector<double>& w, double offset, double eps,
             std::vector<double>* y) {
  double ss = 0;
  for (double x : v) ss += x * x;
  const double rstd = 1.0 / std::sqrt(ss / double(v.size()) + double(float(eps)));
  y->resize(v.size());
  for (size_t j = 0; j < v.size(); ++j) (*y)[j] = v[j] * rstd * (w[j] + offset);
}

bool within_steps(DType dt, double got, double want, double steps, double f32_rtol) {
  if (!std::isfinite(got)) return false;
  if (dt == DType::f32) return std::fabs(got - want) <= f32_rtol * std::fabs(want) + 1e-30;
  const double r = round_to(dt, want);
  return std::fabs(got - r) <= steps * ulp(dt, want) * (1 + 1e-12);
}

std::string Mismatch::describe() const {
  if (count == 0) return "all elements within tolerance";
  return fmt::format("{} elements outside tolerance; first at flat index {}: got {} want {} "
                     "(worst {:.2f} steps)",
                     count, first, got, want, max_steps);
}

}  // namespace njtest

// The host-side test helpers the GPU tests lean on: random fills that do not depend on the
// thread count, and the row-range splitter their checks merge in order.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "support/reference.hpp"

using namespace njtest;

TEST_CASE("large random fills are the same on any number of threads", "[reference]") {
  const std::int64_t n = 3 * kFillChunk + kFillChunk / 2;  // 3.5 chunks: a partial last chunk
  std::vector<float> one(static_cast<size_t>(n)), four(static_cast<size_t>(n)), many(static_cast<size_t>(n));
  std::mt19937_64 a(42), b(42), c(42);
  fill_random(DType::f32, one.data(), n, a, 2.0, 0.5, 1);
  fill_random(DType::f32, four.data(), n, b, 2.0, 0.5, 4);
  fill_random(DType::f32, many.data(), n, c, 2.0, 0.5, 0);
  CHECK(std::memcmp(one.data(), four.data(), one.size() * sizeof(float)) == 0);
  CHECK(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)) == 0);
  CHECK(a() == b());  // the caller's generator advanced the same way
  // Normal(0.5, 2) over every chunk, the partial one too: no chunk left unwritten or repeated.
  for (std::int64_t chunk = 0; chunk < 4; ++chunk) {
    double sum = 0, sq = 0;
    const std::int64_t begin = chunk * kFillChunk, end = std::min(n, begin + kFillChunk);
    for (std::int64_t i = begin; i < end; ++i) {
      sum += one[size_t(i)];
      sq += double(one[size_t(i)]) * one[size_t(i)];
    }
    const double count = double(end - begin), mean = sum / count;
    INFO("chunk " << chunk);
    CHECK(std::fabs(mean - 0.5) < 0.02);
    CHECK(std::fabs(std::sqrt(sq / count - mean * mean) - 2.0) < 0.02);
  }
  CHECK(std::memcmp(one.data(), one.data() + kFillChunk, 1024 * sizeof(float)) != 0);
}

TEST_CASE("small random fills draw from the caller's generator in order", "[reference]") {
  std::vector<std::uint16_t> got(1000);
  std::mt19937_64 a(7), b(7);
  fill_random(DType::bf16, got.data(), 1000, a, 1.0, 0.0);
  std::normal_distribution<double> dist(0.0, 1.0);
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == float_to_bf16(float(dist(b))));
}

TEST_CASE("parallel_ranges covers every index once, in ordered contiguous parts", "[reference]") {
  for (auto [n, parts] : {std::pair<std::int64_t, int>{1000, 7}, {3, 8}, {1, 1}, {64, 64}, {0, 4}}) {
    std::vector<int> owner(static_cast<size_t>(n), -1);
    std::vector<int> hits(static_cast<size_t>(n), 0);
    parallel_ranges(n, parts, [&](std::int64_t b, std::int64_t e, int part) {
      for (std::int64_t i = b; i < e; ++i) {
        owner[size_t(i)] = part;
        ++hits[size_t(i)];  // distinct indices per part: no two threads touch one element
      }
    });
    INFO("n " << n << " parts " << parts);
    for (std::int64_t i = 0; i < n; ++i) CHECK(hits[size_t(i)] == 1);
    for (std::int64_t i = 1; i < n; ++i) CHECK(owner[size_t(i)] >= owner[size_t(i - 1)]);
    if (n > 0) {
      CHECK(owner.front() == 0);
      CHECK(owner.back() == std::min<std::int64_t>(n, parts) - 1);
    }
  }
}

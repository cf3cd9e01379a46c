// Argument validation of the public ops and the C ABI. Tensors use fake device addresses:
// validation never dereferences them, and every bad call must fail before any GPU access (the
// CPU suite has no driver, so a call that got through would throw CudaError instead).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "cpu_test_util.hpp"
#include "support/fake_addresses.hpp"
#include "normjit/normjit.h"
#include "normjit/normjit.hpp"

using namespace normjit;
using cputest::contains;
using Kind = ValidationError::Kind;

namespace {

using njtest::kIn;
using njtest::kOut;
using njtest::kRes;
using njtest::kW;
using njtest::ptr;
constexpr std::int64_t kRows = 4;
constexpr std::int64_t kHidden = 4096;

RmsnormArgs good_rms() {
  RmsnormArgs a;
  a.input = make_tensor(ptr(kIn), DType::bf16, {kRows, kHidden});
  a.weight = make_tensor(ptr(kW), DType::bf16, {kHidden});
  a.eps = 1e-6;
  return a;
}

FusedAddRmsnormArgs good_fused() {
  FusedAddRmsnormArgs a;
  a.input = make_tensor(ptr(kIn), DType::bf16, {kRows, kHidden});
  a.residual = make_tensor(ptr(kRes), DType::bf16, {kRows, kHidden});
  a.weight = make_tensor(ptr(kW), DType::bf16, {kHidden});
  a.eps = 1e-6;
  return a;
}

// Runs `f`, which must throw ValidationError of `kind` whose message contains every needle.
void expect_rejected(const std::function<void()>& f, Kind kind,
                     const std::vector<std::string>& needles) {
  try {
    f();
    FAIL("no exception: the call was accepted");
  } catch (const ValidationError& e) {
    INFO("message: " << e.what());
    CHECK(e.kind() == kind);
    for (const std::string& n : needles) {
      INFO("expected the message to contain '" << n << "'");
      CHECK(contains(e.what(), n));
    }
  } catch (const CudaError& e) {
    FAIL("validation let the call through to the GPU: " << e.what());
  } catch (const std::exception& e) {
    FAIL("wrong exception type: " << e.what());
  }
}

// Runs `f`, which must pass validation: with no driver it then fails with CudaError.
void expect_reaches_driver(const std::function<void()>& f) {
  try {
    f();
    FAIL("no exception, but there is no driver to launch on");
  } catch (const CudaError& e) {
    CHECK(contains(e.what(), "driver"));
  } catch (const ValidationError& e) {
    FAIL("rejected a valid call: " << e.what());
  }
}

void rms(const RmsnormArgs& a) { rmsnorm(a); }
void fused(const FusedAddRmsnormArgs& a) { fused_add_rmsnorm(a); }

}  // namespace

TEST_CASE("validation: the baseline arguments are valid (they reach the missing driver)",
          "[validation]") {
  expect_reaches_driver([] { rms(good_rms()); });
  expect_reaches_driver([] { gemma_rmsnorm(good_rms()); });
  expect_reaches_driver([] { fused(good_fused()); });
  expect_reaches_driver([] { gemma_fused_add_rmsnorm(good_fused()); });
  // Explicit out, exact alias of the input, per-head 3-D input, f32 weight: all valid.
  expect_reaches_driver([] {
    RmsnormArgs a = good_rms();
    a.out = make_tensor(ptr(kOut), DType::bf16, {kRows, kHidden});
    rms(a);
  });
  expect_reaches_driver([] {
    RmsnormArgs a = good_rms();
    a.out = a.input;
    rms(a);
  });
  expect_reaches_driver([] {
    RmsnormArgs a = good_rms();
    a.input = make_tensor(ptr(kIn), DType::bf16, {2, 8, 128});
    a.weight = make_tensor(ptr(kW), DType::f32, {128});
    rms(a);
  });
}

TEST_CASE("validation: input dtype, rank and hidden size", "[validation]") {
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input.dtype = DType::i32;
        rms(a);
      },
      Kind::InvalidArgument,
      {"normjit.rmsnorm: input:", "expected dtype bf16 or f16 or f32", "got i32"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.input.dtype = DType::i32;
        a.residual.dtype = DType::i32;
        fused(a);
      },
      Kind::InvalidArgument, {"normjit.fused_add_rmsnorm: input:", "bf16 or f16 or f32", "got i32"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input = make_tensor(ptr(kIn), DType::bf16, {kHidden});
        rms(a);
      },
      Kind::InvalidArgument, {"input", "expected 2 or 3 dimensions", "got 1", "[4096]"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input = make_tensor(ptr(kIn), DType::bf16, {2, 2, 2, kHidden});
        rms(a);
      },
      Kind::InvalidArgument, {"input", "expected 2 or 3 dimensions", "got 4", "[2, 2, 2, 4096]"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.input = make_tensor(ptr(kIn), DType::bf16, {2, 2, kHidden});
        a.residual = make_tensor(ptr(kRes), DType::bf16, {2, 2, kHidden});
        fused(a);
      },
      Kind::InvalidArgument, {"input", "expected 2 dimensions", "got 3"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input = make_tensor(ptr(kIn), DType::bf16, {kRows, 0});
        rms(a);
      },
      Kind::InvalidArgument, {"input", "hidden size", ">= 1", "got 0"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input = make_tensor(ptr(kIn), DType::bf16, {kRows, 262145});
        a.weight = make_tensor(ptr(kW), DType::bf16, {262145});
        rms(a);
      },
      Kind::Unsupported, {"input", "262145", "262144"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.input = make_tensor(ptr(kIn), DType::bf16, {kRows, 262145});
        a.residual = make_tensor(ptr(kRes), DType::bf16, {kRows, 262145});
        a.weight = make_tensor(ptr(kW), DType::bf16, {262145});
        fused(a);
      },
      Kind::Unsupported, {"input", "262145", "262144"});
}

TEST_CASE("validation: weight shape, dtype and device", "[validation]") {
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.weight = make_tensor(ptr(kW), DType::bf16, {kHidden - 1});
        rms(a);
      },
      Kind::InvalidArgument, {"normjit.rmsnorm: weight:", "expected shape [4096]", "got [4095]"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.weight = make_tensor(ptr(kW), DType::bf16, {1, kHidden});
        rms(a);
      },
      Kind::InvalidArgument, {"weight", "expected shape [4096]", "got [1, 4096]"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.weight.dtype = DType::f16;
        rms(a);
      },
      Kind::InvalidArgument, {"weight", "bf16", "f32", "got f16"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.weight.dtype = DType::f16;
        gemma_fused_add_rmsnorm(a);
      },
      Kind::InvalidArgument, {"normjit.gemma_fused_add_rmsnorm: weight:", "bf16", "got f16"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.weight.device = 1;
        rms(a);
      },
      Kind::InvalidArgument, {"weight", "expected device 0", "got device 1"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.weight.device = 3;
        fused(a);
      },
      Kind::InvalidArgument, {"weight", "expected device 0", "got device 3"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.residual.device = 2;
        fused(a);
      },
      Kind::InvalidArgument, {"residual", "expected device 0", "got device 2"});
}

TEST_CASE("validation: strides, null and misaligned pointers", "[validation]") {
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input.stride[0] = 2 * kHidden;
        a.input.stride[1] = 2;
        rms(a);
      },
      Kind::InvalidArgument, {"input", "stride 1 in the last dimension", "[8192, 2]"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input.data = nullptr;
        rms(a);
      },
      Kind::InvalidArgument, {"input", "null", "[4, 4096]"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.weight.data = nullptr;
        rms(a);
      },
      Kind::InvalidArgument, {"weight", "null"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.residual.data = nullptr;
        fused(a);
      },
      Kind::InvalidArgument, {"residual", "null"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input.data = ptr(kIn + 1);  // odd address for a 2-byte dtype
        rms(a);
      },
      Kind::InvalidArgument, {"input", "aligned to 2 bytes", "0x7f0000000001"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input = make_tensor(ptr(kIn + 2), DType::f32, {kRows, kHidden});
        a.weight = make_tensor(ptr(kW), DType::f32, {kHidden});
        rms(a);
      },
      Kind::InvalidArgument, {"input", "aligned to 4 bytes", "0x7f0000000002"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.weight.data = ptr(kW + 1);
        rms(a);
      },
      Kind::InvalidArgument, {"weight", "aligned to 2 bytes", "0x7f1000000001"});
}

TEST_CASE("validation: out shape, dtype, device and overlap", "[validation]") {
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.out = make_tensor(ptr(kOut), DType::bf16, {2 * kRows, kHidden});
        rms(a);
      },
      Kind::InvalidArgument, {"out", "expected the shape of input [4, 4096]", "got [8, 4096]"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.out = make_tensor(ptr(kOut), DType::f16, {kRows, kHidden});
        rms(a);
      },
      Kind::InvalidArgument, {"out", "expected dtype bf16", "got f16"});
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.out = make_tensor(ptr(kOut), DType::bf16, {kRows, kHidden}, /*device=*/1);
        rms(a);
      },
      Kind::InvalidArgument, {"out", "expected device 0", "got device 1"});
  // out overlapping input partially: shifted by one row.
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.out = make_tensor(ptr(kIn + kHidden * 2), DType::bf16, {kRows, kHidden});
        rms(a);
      },
      Kind::InvalidArgument, {"out", "must not overlap input"});
  // Same pointer, different strides: not the identical view, so it overlaps.
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input.stride[0] = 2 * kHidden;
        a.out = make_tensor(ptr(kIn), DType::bf16, {kRows, kHidden});
        rms(a);
      },
      Kind::InvalidArgument, {"out", "must not overlap input"});
  // Written rows must not overlap each other (row stride smaller than a row).
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.input.stride[0] = kHidden / 2;
        rms(a);
      },
      Kind::InvalidArgument, {"input", "overlap"});
  // The weight must not overlap what is written.
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.weight.data = ptr(kIn + 2 * kHidden);
        rms(a);
      },
      Kind::InvalidArgument, {"weight", "overlap"});
}

TEST_CASE("validation: fused add residual must not overlap the input", "[validation]") {
  // In place: residual is the input itself.
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.residual.data = a.input.data;
        fused(a);
      },
      Kind::InvalidArgument, {"normjit.fused_add_rmsnorm: residual:", "must not overlap input"});
  // Partially: shifted by one row.
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.residual.data = ptr(kIn + kHidden * 2);
        gemma_fused_add_rmsnorm(a);
      },
      Kind::InvalidArgument, {"residual", "must not overlap input"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.residual = make_tensor(ptr(kRes), DType::bf16, {kRows + 1, kHidden});
        fused(a);
      },
      Kind::InvalidArgument, {"residual", "expected the shape of input [4, 4096]", "got [5, 4096]"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.residual.dtype = DType::f32;
        fused(a);
      },
      Kind::InvalidArgument, {"residual", "expected dtype bf16", "got f32"});
}

TEST_CASE("validation: eps must be finite and non-negative", "[validation]") {
  for (double eps : {-1.0, -1e-6}) {
    expect_rejected(
        [eps] {
          RmsnormArgs a = good_rms();
          a.eps = eps;
          rms(a);
        },
        Kind::InvalidArgument, {"eps", "expected a finite value >= 0", "got -"});
  }
  expect_rejected(
      [] {
        RmsnormArgs a = good_rms();
        a.eps = std::numeric_limits<double>::quiet_NaN();
        gemma_rmsnorm(a);
      },
      Kind::InvalidArgument, {"normjit.gemma_rmsnorm: eps:", "finite", "got nan"});
  expect_rejected(
      [] {
        FusedAddRmsnormArgs a = good_fused();
        a.eps = std::numeric_limits<double>::infinity();
        fused(a);
      },
      Kind::InvalidArgument, {"eps", "finite", "got inf"});
  // eps = 0 is allowed.
  expect_reaches_driver([] {
    RmsnormArgs a = good_rms();
    a.eps = 0;
    rms(a);
  });
}

TEST_CASE("validation: zero rows is a valid no-op that never touches the driver", "[validation]") {
  // With no driver, any GPU access would throw CudaError: returning normally proves none.
  RmsnormArgs a = good_rms();
  a.input = make_tensor(ptr(kIn), DType::bf16, {0, kHidden});
  CHECK_NOTHROW(rmsnorm(a));
  CHECK_NOTHROW(gemma_rmsnorm(a));
  a.out = make_tensor(ptr(kOut), DType::bf16, {0, kHidden});
  CHECK_NOTHROW(rmsnorm(a));
  RmsnormArgs heads = good_rms();
  heads.input = make_tensor(ptr(kIn), DType::bf16, {0, 8, 128});
  heads.weight = make_tensor(ptr(kW), DType::bf16, {128});
  CHECK_NOTHROW(rmsnorm(heads));
  FusedAddRmsnormArgs f = good_fused();
  f.input = make_tensor(ptr(kIn), DType::bf16, {0, kHidden});
  f.residual = make_tensor(ptr(kRes), DType::bf16, {0, kHidden});
  CHECK_NOTHROW(fused_add_rmsnorm(f));
  CHECK_NOTHROW(gemma_fused_add_rmsnorm(f));
  CHECK(runtime_stats().launches == 0);
  // Zero rows are still validated.
  a.eps = -1;
  CHECK_THROWS_AS(rmsnorm(a), ValidationError);
}

namespace {
normjit_tensor c_tensor(std::uintptr_t addr, normjit_dtype dt, std::vector<std::int64_t> shape) {
  normjit_tensor t{};
  t.data = ptr(addr);
  t.dtype = dt;
  t.ndim = int(shape.size());
  std::int64_t stride = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    t.shape[d] = shape[size_t(d)];
    t.stride[d] = stride;
    stride *= shape[size_t(d)];
  }
  t.device = 0;
  return t;
}
}  // namespace

TEST_CASE("C ABI: status codes and normjit_last_error", "[validation][c_api]") {
  const normjit_tensor w = c_tensor(kW, NORMJIT_BF16, {kHidden});
  const normjit_tensor good = c_tensor(kIn, NORMJIT_BF16, {1, kHidden});

  normjit_tensor bad = good;
  bad.dtype = NORMJIT_I32;
  CHECK(normjit_rmsnorm(&bad, &w, 1e-6, nullptr, nullptr, -1) == NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(normjit_last_error(), Catch::Contains("normjit.rmsnorm: input:") &&
                                       Catch::Contains("got i32"));

  normjit_tensor unknown = good;
  unknown.dtype = 42;
  CHECK(normjit_rmsnorm(&unknown, &w, 1e-6, nullptr, nullptr, -1) ==
        NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(normjit_last_error(), Catch::Contains("input") && Catch::Contains("42"));

  // Codes outside the enum must be rejected, not truncated to the 8-bit DType (258 -> bf16).
  for (std::int32_t code : {256 + NORMJIT_BF16, -254, 7, 1000}) {
    INFO("dtype code " << code);
    normjit_tensor wide = good;
    wide.dtype = code;
    CHECK(normjit_rmsnorm(&wide, &w, 1e-6, nullptr, nullptr, -1) == NORMJIT_ERROR_INVALID_ARGUMENT);
    CHECK_THAT(normjit_last_error(), Catch::Contains("input") &&
                                         Catch::Contains(std::to_string(code)));
    normjit_tensor wide_w = w;
    wide_w.dtype = code;
    CHECK(normjit_rmsnorm(&good, &wide_w, 1e-6, nullptr, nullptr, -1) ==
          NORMJIT_ERROR_INVALID_ARGUMENT);
    CHECK_THAT(normjit_last_error(), Catch::Contains("weight") &&
                                         Catch::Contains(std::to_string(code)));
  }

  normjit_tensor many = good;
  many.ndim = 9;
  CHECK(normjit_rmsnorm(&many, &w, 1e-6, nullptr, nullptr, -1) == NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(normjit_last_error(), Catch::Contains("got 9"));

  CHECK(normjit_rmsnorm(nullptr, &w, 1e-6, nullptr, nullptr, -1) == NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(normjit_last_error(), Catch::Contains("input") && Catch::Contains("NULL"));
  CHECK(normjit_gemma_rmsnorm(&good, nullptr, 1e-6, nullptr, nullptr, -1) ==
        NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(normjit_last_error(), Catch::Contains("weight") && Catch::Contains("NULL"));
  CHECK(normjit_fused_add_rmsnorm(&good, nullptr, &w, 1e-6, nullptr, -1) ==
        NORMJIT_ERROR_INVALID_ARGUMENT);
  CHECK_THAT(normjit_last_error(), Catch::Contains("residual") && Catch::Contains("NULL"));

  const normjit_tensor big = c_tensor(kIn, NORMJIT_BF16, {1, 262145});
  const normjit_tensor big_w = c_tensor(kW, NORMJIT_BF16, {262145});
  CHECK(normjit_rmsnorm(&big, &big_w, 1e-6, nullptr, nullptr, -1) == NORMJIT_ERROR_UNSUPPORTED);
  CHECK_THAT(normjit_last_error(), Catch::Contains("262145"));

  // Zero rows: success, and the last error is cleared.
  const normjit_tensor empty = c_tensor(kIn, NORMJIT_BF16, {0, kHidden});
  CHECK(normjit_rmsnorm(&empty, &w, 1e-6, nullptr, nullptr, -1) == NORMJIT_SUCCESS);
  CHECK(std::string(normjit_last_error()).empty());

  // A valid call gets through validation and then finds no driver.
  CHECK(normjit_rmsnorm(&good, &w, 1e-6, nullptr, nullptr, -1) == NORMJIT_ERROR_CUDA);
  CHECK_THAT(normjit_last_error(), Catch::Contains("driver"));
  const normjit_tensor res = c_tensor(kRes, NORMJIT_BF16, {1, kHidden});
  CHECK(normjit_fused_add_rmsnorm(&good, &res, &w, 1e-6, nullptr, 0) == NORMJIT_ERROR_CUDA);
  CHECK_THAT(normjit_last_error(), Catch::Contains("driver"));

  CHECK(std::string(normjit_version()) == NORMJIT_VERSION_STRING);
}

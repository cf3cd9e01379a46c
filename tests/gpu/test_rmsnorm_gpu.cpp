// RMSNorm family on the GPU against the float64 reference (spec rmsnorm.md; step criterion:
// every output within one step of the reference rounded to the output dtype, residual exact).
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <random>

#include "rms_case.hpp"
#include "support/gpu.hpp"
#include "heuristics.hpp"
#include "launch.hpp"
#include "op_registry.hpp"
#include "runtime.hpp"
#include "support/reference.hpp"

using namespace njtest;
using normjit::DType;
using normjit::Op;

namespace {

const std::int64_t kHidden[] = {1, 3, 64, 100, 111, 128, 2048, 3584, 4096, 5120, 7168, 8192, 16384, 32768, 65536, 131072, 262144};
const std::int64_t kRows[] = {0, 1, 7, 128, 1000, 4097};
const std::pair<DType, DType> kDtypes[] = {{DType::bf16, DType::bf16},
                                           {DType::bf16, DType::f32},
                                           {DType::f16, DType::f16},
                                           {DType::f16, DType::f32},
                                           {DType::f32, DType::f32}};

std::mt19937_64 fresh_rng() {
  const std::uint64_t seed = std::random_device{}() * 0x9E3779B97F4A7C15ull ^ std::random_device{}();
  UNSCOPED_INFO("seed " << seed);
  return std::mt19937_64(seed);
}

// A per-head [batch, heads, head_dim] case of `op`, its weight of the rows' type.
RmsCase per_head_case(Op op, DType dt, std::int64_t batch, std::int64_t heads, std::int64_t head_dim) {
  RmsCase c;
  c.op = op;
  c.dtype = c.weight_dtype = dt;
  c.rows = batch;
  c.heads = heads;
  c.hidden = head_dim;
  return c;
}

// A per-head case in the three forms every 3-D test checks: heads strided apart with PDL (the
// input a view of a wider tensor), flat, and strided in place.
void check_per_head(Op op, DType dt, std::int64_t batch, std::int64_t heads, std::int64_t head_dim,
                    std::mt19937_64& rng) {
  for (int variant = 0; variant < 3; ++variant) {
    RmsCase c = per_head_case(op, dt, batch, heads, head_dim);
    c.nonflat_input = variant != 1;
    c.form = variant == 2 ? OutForm::InPlace : OutForm::Separate;
    c.pdl = variant == 0;
    INFO(c.describe());
    CHECK(run_rms_case(c, rng) == "");
  }
}

// The full hidden x rows x dtype matrix for one op. Layout variants rotate with the case
// index so that every form, stride, alignment and PDL setting meets many shapes; the CPU
// reference is bounded by skipping rows x hidden above 2^24 elements.
void sweep(Op op) {
  use_device0();
  auto rng = fresh_rng();
  const bool fused = normjit::detail::op_info(op).residual;
  int index = 0, failures = 0, cases = 0;
  for (auto [dt, wdt] : kDtypes) {
    for (std::int64_t hidden : kHidden) {
      for (std::int64_t rows : kRows) {
        if (rows * hidden > (std::int64_t(1) << 24)) continue;
        RmsCase c;
        c.op = op;
        c.dtype = dt;
        c.weight_dtype = wdt;
        c.rows = rows;
        c.hidden = hidden;
        c.form = fused ? OutForm::InPlace : OutForm(index % 3);
        c.strided = index % 2 == 1;
        c.misaligned = index % 5 == 2;
        c.pdl = index % 3 == 0 ? std::optional<bool>() : std::optional<bool>(index % 3 == 1);
        c.static_weight = index % 4 < 2;
        c.eps = index % 4 == 3 ? 1e-5 : 1e-6;
        ++index;
        ++cases;
        const std::string err = run_rms_case(c, rng);
        if (!err.empty() && failures++ < 10) FAIL_CHECK(err);
      }
    }
  }
  INFO(fmt::format("{} cases", cases));
  CHECK(failures == 0);
}

// A case for the forced-config tests: dtypes, output form and strides vary with the row count,
// so that each forced config meets bf16 and f16 (odd rows > 1), an fp32 weight (one row),
// every output form, and strided rows (200 and more).
RmsCase varied_case(Op op, std::int64_t rows, std::int64_t hidden) {
  const bool fused = normjit::detail::op_info(op).residual;
  RmsCase c;
  c.op = op;
  c.dtype = rows > 1 && rows % 2 == 1 ? DType::f16 : DType::bf16;
  c.weight_dtype = rows == 1 ? DType::f32 : c.dtype;
  c.rows = rows;
  c.hidden = hidden;
  c.form = fused ? OutForm::InPlace : OutForm(rows % 3);
  c.strided = rows >= 200;
  return c;
}

}  // namespace

TEST_CASE("rmsnorm matches the float64 reference", "[gpu][rmsnorm]") { sweep(Op::rmsnorm); }
TEST_CASE("gemma_rmsnorm matches the float64 reference", "[gpu][rmsnorm]") { sweep(Op::gemma_rmsnorm); }
TEST_CASE("fused_add_rmsnorm matches the float64 reference", "[gpu][rmsnorm]") {
  sweep(Op::fused_add_rmsnorm);
}
TEST_CASE("gemma_fused_add_rmsnorm matches the float64 reference", "[gpu][rmsnorm]") {
  sweep(Op::gemma_fused_add_rmsnorm);
}

TEST_CASE("every layout form at a few shapes", "[gpu][rmsnorm]") {
  use_device0();
  auto rng = fresh_rng();
  for (Op op : normjit::all_ops()) {
    const bool fused = normjit::detail::op_info(op).residual;
    for (std::int64_t hidden : {111, 4096}) {
      for (int form = 0; form < (fused ? 1 : 3); ++form) {
        for (int bits = 0; bits < 8; ++bits) {
          RmsCase c;
          c.op = op;
          c.dtype = DType::bf16;
          c.weight_dtype = bits & 4 ? DType::f32 : DType::bf16;
          c.rows = bits & 1 ? 300 : 129;  // 300: from kPinWeightRows, the weight pinned where held
          c.hidden = hidden;
          c.form = fused ? OutForm::InPlace : OutForm(form);
          c.strided = bits & 1;
          c.misaligned = bits & 2;
          c.pdl = form == 1;
          const std::string err = run_rms_case(c, rng);
          CHECK(err == "");
        }
      }
    }
  }
}

TEST_CASE("per-head 3-D rmsnorm", "[gpu][rmsnorm][3d]") {
  use_device0();
  auto rng = fresh_rng();
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16, DType::f32}) {
      for (std::int64_t head_dim : {64, 128, 256, 512, 100}) {
        for (std::int64_t batch : {1, 19, 99})
          for (std::int64_t heads : {4, 7, 16}) check_per_head(op, dt, batch, heads, head_dim, rng);
      }
    }
  }
}

// Per-head rows of a transposed view, [tokens, heads, d] over memory laid out [heads, tokens, d]
// (a head's stride above the token's): the per-head addressing with the strides the other way
// round, by row and, where the heuristic takes them, by head blocks.
TEST_CASE("per-head rows from a transposed view (heads outermost in memory)", "[gpu][rmsnorm][3d]") {
  use_device0();
  auto rng = fresh_rng();
  int index = 0;
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f32}) {
      for (std::int64_t head_dim : {64, 128, 100}) {
        for (std::int64_t batch : {1, 7, 300}) {
          for (std::int64_t heads : {4, 16}) {
            RmsCase c = per_head_case(op, dt, batch, heads, head_dim);
            c.heads_outer = true;
            c.nonflat_input = false;
            c.form = OutForm(index % 3);
            c.strided = index % 2 == 1;
            c.pdl = index % 4 != 3;
            ++index;
            INFO(c.describe());
            CHECK(run_rms_case(c, rng) == "");
          }
        }
      }
    }
  }
}

TEST_CASE("several rows per thread: per-head rows, forced shapes and partial blocks", "[gpu][rmsnorm][3d][configs]") {
  use_device0();
  auto rng = fresh_rng();
  // The defaults for many per-head rows, in the three forms, the last block partly filled: head_dim
  // 128 and 256 two a thread from kBulkRowsRmsnorm (1031 x 8 = 8248 rows); head_dim 64 (8 lanes,
  // one vector each) and 128 (two) four a thread from kFourRowsPerThreadRows; head_dim 128 (four
  // rows a thread) and 256 (two) one vector a lane from kOneVectorLaneRows.
  namespace d = normjit::detail;
  const std::int64_t heads = 8;
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16}) {
      for (std::int64_t head_dim : {128, 256}) check_per_head(op, dt, 1031, heads, head_dim, rng);
      for (std::int64_t head_dim : {64, 128})
        check_per_head(op, dt, d::kFourRowsPerThreadRows / heads + 27, heads, head_dim, rng);
    }
  }
  for (const auto& [op, dt] : {std::pair{Op::rmsnorm, DType::bf16}, std::pair{Op::gemma_rmsnorm, DType::f16}}) {
    for (std::int64_t head_dim : {128, 256})
      check_per_head(op, dt, d::kOneVectorLaneRows / heads + 27, heads, head_dim, rng);
    // Strided rows on 8 lanes x 2 rows with the weight shared and the output reconverted: head_dim
    // 128 from kStridedSharedRows until kStridedSharedEndRows, 64 from kStridedSharedRows8 on.
    for (std::int64_t batch : {d::kStridedSharedRows / heads + 27, d::kStridedSharedEndRows / heads - 5,
                               d::kStridedSharedEndRows / heads + 27})
      check_per_head(op, dt, batch, heads, 128, rng);
    for (std::int64_t batch : {d::kStridedSharedRows8 / heads - 5, d::kStridedSharedRows8 / heads + 27,
                               d::kOneVectorLaneRows / heads - 5, d::kOneVectorLaneRows / heads + 27})
      check_per_head(op, dt, batch, heads, 64, rng);
  }
  // Forced on other shapes: 8-64 16-byte vectors, narrower vectors and partial items (100, 111),
  // every output form, strides, a float weight, row counts below, at and above one block's rows;
  // some with load policies 2 and 3, whose loads past the rows' ends are predicated
  // (common.cuh: load_chunk_if).
  struct Shape {
    int per, tpr, loads;
  };
  for (const Shape& sh : {Shape{2, 4, -1}, Shape{2, 16, -1}, Shape{2, 16, 3}, Shape{2, 32, -1}, Shape{4, 8, -1},
                          Shape{4, 8, 2}, Shape{4, 16, -1}, Shape{8, 16, -1}, Shape{8, 16, 3}}) {
    const int per = sh.per, tpr = sh.tpr;
    normjit::detail::ConfigOverride o;
    o.rows_per_thread = per;
    o.threads_per_row = tpr;
    o.residency = 0;
    o.loads = sh.loads;
    const normjit::detail::ScopedConfigOverride use_o(&o);
    for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
      for (std::int64_t hidden : {64, 100, 111, 128, 512}) {
        for (std::int64_t rows : {1, 7, 33, 1000, 3001}) {
          const RmsCase c = varied_case(op, rows, hidden);
          INFO(c.describe() << " rows_per_thread " << per << ", tpr " << tpr << ", loads " << sh.loads);
          CHECK(run_rms_case(c, rng) == "");
        }
      }
    }
  }
}

TEST_CASE("PDL chains: dependent launches on one stream stay ordered", "[gpu][pdl]") {
  use_device0();
  auto rng = fresh_rng();
  Stream s;
  // Many small back-to-back launches with PDL on; each case checks its own result, and the
  // in-place forms make each launch depend on the previous one's writes.
  for (int i = 0; i < 50; ++i) {
    RmsCase c;
    c.op = i % 2 ? Op::fused_add_rmsnorm : Op::rmsnorm;
    c.dtype = DType::bf16;
    c.weight_dtype = DType::bf16;
    c.rows = 1 + i % 9;
    c.hidden = 4096;
    c.form = OutForm::InPlace;
    c.pdl = true;
    c.static_weight = i % 4 < 2;  // the weight read before the wait, x and r after it
    c.stream = s.get();
    const std::string err = run_rms_case(c, rng);
    CHECK(err == "");
  }
}

TEST_CASE("forced configs: the PDL trigger early, auto and at the end", "[gpu][pdl][configs]") {
  use_device0();
  auto rng = fresh_rng();
  Stream s;
  // Back-to-back launches on one stream with PDL on (as in the chains above), every op, a held
  // row (4096) and one on 512+ threads or a cluster (16384), grids below and above one wave.
  for (int trigger : {0, 1, 2}) {
    normjit::detail::ConfigOverride o;
    o.trigger = trigger;
    const normjit::detail::ScopedConfigOverride use_o(&o);
    for (Op op : normjit::all_ops()) {
      for (std::int64_t hidden : {4096, 16384}) {
        for (std::int64_t rows : {1, 7, 128, 1000, 3000}) {
          RmsCase c = varied_case(op, rows, hidden);
          c.pdl = true;
          c.stream = s.get();
          INFO(c.describe() << " trigger " << trigger);
          CHECK(run_rms_case(c, rng) == "");
        }
      }
    }
  }
}

TEST_CASE("forced configs: weight or residual or input lines prefetched into L2 before the PDL wait", "[gpu][pdl][configs]") {
  use_device0();
  auto rng = fresh_rng();
  Stream s;
  // Back-to-back in-place launches with PDL on: each launch's prefetch runs while the previous
  // one may still write the lines it asks for (the residual, or a weight another case wrote).
  for (int prefetch : {1, 2, 4, 5, 6, 7}) {
    normjit::detail::ConfigOverride o;
    o.prefetch = prefetch;
    const normjit::detail::ScopedConfigOverride use_o(&o);
    for (Op op : normjit::all_ops()) {
      if ((prefetch & normjit::kPrefetchResidual) && !normjit::detail::op_info(op).residual) continue;
      for (std::int64_t hidden : {128, 2048, 4096, 8192, 16384, 65536}) {
        // 20000 rows of 128: two rows per thread (rmsnorm).
        for (std::int64_t rows : {1, 7, 128, 1000, hidden == 128 ? 20000 : 2}) {
          RmsCase c = varied_case(op, rows, hidden);
          c.pdl = true;
          c.form = OutForm::InPlace;
          c.stream = s.get();
          INFO(c.describe() << " prefetch " << prefetch);
          CHECK(run_rms_case(c, rng) == "");
        }
      }
    }
  }
}

TEST_CASE("large rows: 64-bit offsets (row stride >= 2^31 elements)", "[gpu][rmsnorm][int64]") {
  use_device0();
  // [2, 128] bf16 with row stride 2^31: the second row starts 4 GiB into the buffer.
  const std::int64_t stride = std::int64_t(1) << 31;
  const std::int64_t H = 128;
  DeviceBuffer buf(size_t(stride + H) * 2), out(size_t(2 * H) * 2), w(size_t(H) * 2);
  std::vector<std::uint16_t> rows(size_t(2 * H));
  std::vector<std::uint16_t> wh(static_cast<size_t>(H));
  auto rng = fresh_rng();
  fill_random(DType::bf16, rows.data(), 2 * H, rng);
  fill_random(DType::bf16, wh.data(), H, rng, 0.5, 1.0);
  buf.upload(rows.data(), size_t(H) * 2, 0);
  buf.upload(rows.data() + H, size_t(H) * 2, size_t(stride) * 2);
  w.upload(wh.data(), wh.size() * 2);
  out.fill(0xFF);
  normjit::RmsnormArgs a;
  a.input.data = buf.get();
  a.input.dtype = DType::bf16;
  a.input.ndim = 2;
  a.input.shape[0] = 2; a.input.shape[1] = H;
  a.input.stride[0] = stride; a.input.stride[1] = 1;
  a.weight = normjit::make_tensor(w.get(), DType::bf16, {H});
  a.out = normjit::make_tensor(out.get(), DType::bf16, {2, H});
  normjit::rmsnorm(a);
  check_cu(normjit::detail::driver().cuCtxSynchronize(), "sync");
  std::vector<std::uint16_t> got(size_t(2 * H));
  out.download(got.data(), got.size() * 2);
  std::vector<double> v(static_cast<size_t>(H)), wd(static_cast<size_t>(H)), y;
  for (std::int64_t j = 0; j < H; ++j) wd[size_t(j)] = get(DType::bf16, wh.data(), j);
  int bad = 0;
  for (int r = 0; r < 2; ++r) {
    for (std::int64_t j = 0; j < H; ++j) v[size_t(j)] = get(DType::bf16, rows.data(), r * H + j);
    rms_row(v, wd, 0.0, 1e-6, &y);
    for (std::int64_t j = 0; j < H; ++j)
      bad += !within_steps(DType::bf16, get(DType::bf16, got.data(), r * H + j), y[size_t(j)]);
  }
  CHECK(bad == 0);
}

TEST_CASE("per-head rows past 2^31 in one call: launched in parts of whole tokens", "[gpu][rmsnorm][int64][3d]") {
  use_device0();
  // q of a [T, 17, 2] bf16 tensor viewed as [T, 16, 2] (17 heads a token apart): 2^31 + 48
  // rows, 9.1 GB in and 8.6 GB out. The host launches 2^31 / 16 - 1 tokens, then the last 4
  // (launch.hpp: for_each_launch_part), each part's rows numbered from 0 for the kernel's 32-bit
  // division. The input repeats a pattern of kPattern random tokens; the first output chunk of
  // kPattern tokens is checked against the float64 reference, every other one (the part boundary
  // among them) must equal it bit for bit (a row's result depends only on its values).
  namespace d = normjit::detail;
  constexpr std::int64_t H = 2, N = 16, M = 17, kPattern = std::int64_t(1) << 20;
  const std::int64_t T = (std::int64_t(1) << 27) + 3, rows = T * N;
  REQUIRE(rows > d::kMaxRank3LaunchRows);
  auto rng = fresh_rng();
  std::vector<std::uint16_t> in(static_cast<size_t>(kPattern * M * H)), wh(static_cast<size_t>(H));
  fill_random(DType::bf16, in.data(), std::int64_t(in.size()), rng);
  fill_random(DType::bf16, wh.data(), H, rng, 0.5, 1.0);
  DeviceBuffer x(static_cast<size_t>(T * M * H) * 2), y(static_cast<size_t>(rows * H) * 2), w(static_cast<size_t>(H) * 2);
  for (std::int64_t t = 0; t < T; t += kPattern)
    x.upload(in.data(), size_t(std::min(kPattern, T - t) * M * H) * 2, size_t(t * M * H) * 2);
  w.upload(wh.data(), wh.size() * 2);
  y.fill(0xFF);
  normjit::RmsnormArgs a;
  a.input = normjit::make_tensor(x.get(), DType::bf16, {T, N, H});
  a.input.stride[0] = M * H;
  a.weight = normjit::make_tensor(w.get(), DType::bf16, {H});
  a.out = normjit::make_tensor(y.get(), DType::bf16, {T, N, H});
  const std::uint64_t launches = normjit::runtime_stats().launches;
  normjit::rmsnorm(a);
  check_cu(d::driver().cuCtxSynchronize(), "sync");
  CHECK(normjit::runtime_stats().launches == launches + 2);
  const size_t chunk = size_t(kPattern * N * H);
  std::vector<std::uint16_t> first(chunk), got(chunk);
  y.download(first.data(), chunk * 2);
  std::vector<double> v(static_cast<size_t>(H)), wd(static_cast<size_t>(H)), ref;
  for (std::int64_t j = 0; j < H; ++j) wd[size_t(j)] = get(DType::bf16, wh.data(), j);
  std::int64_t bad = 0;
  for (std::int64_t t = 0; t < kPattern; ++t)
    for (std::int64_t h = 0; h < N; ++h) {
      for (std::int64_t j = 0; j < H; ++j) v[size_t(j)] = get(DType::bf16, in.data(), (t * M + h) * H + j);
      rms_row(v, wd, 0.0, 1e-6, &ref);
      for (std::int64_t j = 0; j < H; ++j)
        bad += !within_steps(DType::bf16, get(DType::bf16, first.data(), (t * N + h) * H + j), ref[size_t(j)]);
    }
  CHECK(bad == 0);
  std::int64_t differing_chunks = 0;
  for (std::int64_t t = kPattern; t < T; t += kPattern) {
    const size_t n = size_t(std::min(kPattern, T - t) * N * H);
    y.download(got.data(), n * 2, size_t(t * N * H) * 2);
    differing_chunks += std::memcmp(got.data(), first.data(), n * 2) != 0;
  }
  CHECK(differing_chunks == 0);
}

TEST_CASE("forced configs: every residency with narrow and wide row groups", "[gpu][rmsnorm][configs]") {
  use_device0();
  auto rng = fresh_rng();
  for (Op op : normjit::all_ops()) {
    for (int residency = 0; residency <= 2; ++residency) {
      {
        for (int tpr : {32, 256}) {
          normjit::detail::ConfigOverride o;
          o.threads_per_row = tpr;
          o.residency = residency;
          const normjit::detail::ScopedConfigOverride use_o(&o);
          for (std::int64_t rows : {1, 7, 1000, 3000}) {
            RmsCase c;
            c.op = op;
            c.dtype = rows % 2 ? DType::f16 : DType::bf16;
            c.weight_dtype = rows == 7 ? DType::f32 : c.dtype;
            c.rows = rows;
            // 4000: rows that end inside a vector group (lanes past the end on the last item),
            // so the second pass's pairs (rms_norm.cuh: kPairs) meet a partial pair too.
            c.hidden = rows == 7 ? 4000 : 4096;
            const bool fused = normjit::detail::op_info(op).residual;
            c.form = fused ? OutForm::InPlace : OutForm(rows % 3);
            c.strided = rows == 1000;
            const std::string err = run_rms_case(c, rng);
            CHECK(err == "");
          }
        }
      }
    }
  }
}

TEST_CASE("forced configs: every load policy with held and re-read rows", "[gpu][rmsnorm][configs]") {
  use_device0();
  auto rng = fresh_rng();
  for (Op op : normjit::all_ops()) {
    for (int loads = 0; loads <= 3; ++loads) {
      for (int residency : {0, 2}) {
        normjit::detail::ConfigOverride o;
        o.loads = loads;
        o.residency = residency;
        const normjit::detail::ScopedConfigOverride use_o(&o);
        // 100, 1000 and 14336: a part-filled last item, and (100, 1000) several rows a block, whose
        // loads with policies 2 and 3 are predicated (common.cuh: load_chunk_if).
        for (std::int64_t hidden : {100, 1000, 4096, 8192, 14336}) {
          for (std::int64_t rows : {1, 7, 1000}) {
            const RmsCase c = varied_case(op, rows, hidden);
            INFO(c.describe() << " loads " << loads << " residency " << residency);
            CHECK(run_rms_case(c, rng) == "");
          }
        }
      }
    }
  }
}

TEST_CASE("forced configs: the fused add's residual store orders", "[gpu][rmsnorm][configs]") {
  use_device0();
  auto rng = fresh_rng();
  for (Op op : {Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm}) {
    for (int stores : {0, 1}) {
      for (int residency : {0, 1}) {
        normjit::detail::ConfigOverride o;
        o.stores = stores;
        o.residency = residency;
        const normjit::detail::ScopedConfigOverride use_o(&o);
        for (std::int64_t hidden : {4096, 5000}) {
          for (std::int64_t rows : {1, 7, 1000}) {
            const RmsCase c = varied_case(op, rows, hidden);
            INFO(c.describe() << " stores " << stores << " residency " << residency);
            CHECK(run_rms_case(c, rng) == "");
          }
        }
      }
    }
  }
}

TEST_CASE("forced configs: an fp32 fused add re-reading the sum it stored", "[gpu][rmsnorm][configs]") {
  // Re-read fp32 fused adds write the residual in the first pass and re-read only it
  // (rms_norm.cuh: kSumStored; loads 3 keeps the two-tensor re-read): every load policy,
  // part-filled last items (100, 1000, 5000), batches of four with a remainder (256 threads:
  // 5000 and 14336, 5 and 14 items), clusters on sm_90+; rows 200 strided.
  use_device0();
  auto rng = fresh_rng();
  const int cc = normjit::detail::Runtime::get().device_arch(0).cc;
  for (Op op : {Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm}) {
    for (int loads = 0; loads <= 3; ++loads) {
      for (int cluster : {1, 4}) {
        for (int tpr : {0, 256}) {
          if (cluster > 1 && cc < 90) continue;
          if (op == Op::gemma_fused_add_rmsnorm && loads != 1) continue;  // the weight offset alone
          normjit::detail::ConfigOverride o;
          o.loads = loads;
          o.residency = 2;
          o.cluster = cluster;
          o.threads_per_row = tpr;
          const normjit::detail::ScopedConfigOverride use_o(&o);
          for (std::int64_t hidden : {100, 1000, 5000, 14336, 32768}) {
            if (cluster > 1 && hidden % (4 * cluster) != 0) continue;
            for (std::int64_t rows : {1, 7, 200}) {
              RmsCase c = varied_case(op, rows, hidden);
              c.dtype = c.weight_dtype = DType::f32;
              INFO(c.describe() << " loads " << loads << " cluster " << cluster << " tpr " << tpr);
              CHECK(run_rms_case(c, rng) == "");
            }
          }
        }
      }
    }
  }
}

TEST_CASE("forced configs: the weight pinned on every item, on full items only, asked into L1, copied to shared "
          "memory, loaded after the warp's sum, or none of these", "[gpu][rmsnorm][configs]") {
  use_device0();
  auto rng = fresh_rng();
  for (Op op : normjit::all_ops()) {
    for (int pin : {0, 1, 2, 3, 4, 5}) {
      normjit::detail::ConfigOverride o;
      o.pin_weight = pin;
      o.residency = 0;  // where the pin applies: the row held with its weight
      if (pin == 4) {   // one CTA a row here (clusters of several rows: the column-share test)
        o.cluster = 1;
        o.split = 1;
        o.rows_per_block = 1;
      }
      const normjit::detail::ScopedConfigOverride use_o(&o);
      // Last items part-filled (1536, 2040 and 5376 on 128 threads, 1000 on 64) and not (4096).
      for (std::int64_t hidden : {1536, 2040, 5376, 1000, 4096, 768}) {
        for (std::int64_t rows : {300, 3001, 301}) {  // bf16, f16, fp32
          RmsCase c = varied_case(op, rows, hidden);
          if (rows == 301) c.dtype = c.weight_dtype = DType::f32;  // fp32 768: 1.5 items on 128 threads
          INFO(c.describe() << " pin_weight " << pin);
          CHECK(run_rms_case(c, rng) == "");
        }
      }
    }
  }
}

TEST_CASE("forced configs: a held 16-bit row converted again for its output or not", "[gpu][rmsnorm][configs]") {
  use_device0();
  auto rng = fresh_rng();
  // Rows held in registers with the weight (residency 0) and without it (1), on one CTA and, where
  // the heuristic splits them (8192 from few rows, sm_90+), over a cluster; whole and part-filled
  // items (1536, 5376 on 128 threads, 1000); 16-, 8- and 4-byte vectors (4096, 100, 98). Odd rows
  // are f16, even rows bf16 (varied_case).
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (int again : {0, 1}) {
      for (int res : {0, 1}) {
        normjit::detail::ConfigOverride o;
        o.reconvert = again;
        o.residency = res;
        const normjit::detail::ScopedConfigOverride use_o(&o);
        for (std::int64_t hidden : {4096, 8192, 1536, 5376, 1000, 100, 98}) {
          for (std::int64_t rows : {7, 300, 3001}) {
            const RmsCase c = varied_case(op, rows, hidden);
            INFO(c.describe() << " reconvert " << again << ", residency " << res);
            CHECK(run_rms_case(c, rng) == "");
          }
        }
      }
    }
  }
  // Several rows a thread (per-head rows: flat, strided and in place), both ways.
  for (int again : {0, 1}) {
    for (int per : {2, 4}) {
      normjit::detail::ConfigOverride o;
      o.reconvert = again;
      o.rows_per_thread = per;
      o.threads_per_row = 8;
      o.residency = 0;
      const normjit::detail::ScopedConfigOverride use_o(&o);
      for (DType dt : {DType::bf16, DType::f16}) {
        INFO("reconvert " << again << ", rows_per_thread " << per);
        for (std::int64_t head_dim : {64, 128, 100}) check_per_head(Op::rmsnorm, dt, 1031, 8, head_dim, rng);
        check_per_head(Op::gemma_rmsnorm, dt, 77, 16, 128, rng);
      }
    }
  }
}

namespace {

// A rows-per-thread layout forced on the cases below: rows_per_thread, threads_per_row,
// rows_per_block.
struct RowsLayout {
  int per, tpr, rpb;
};

// `o` with `layout`'s shape: rows several a thread, held with their weight.
normjit::detail::ConfigOverride with_layout(normjit::detail::ConfigOverride o, const RowsLayout& layout) {
  o.rows_per_thread = layout.per;
  o.threads_per_row = layout.tpr;
  o.rows_per_block = layout.rpb;
  o.residency = 0;
  return o;
}

// `o` with `layout`'s shape (row held with its weight), installed for rmsnorm and gemma cases of
// 16-, 8- and 4-byte vectors and part-filled items (hidden 64-256, 100, 111), row counts below, at
// and above one block's rows with the last block part-filled, every output form, bf16, f16 and (33
// rows) an fp32 weight (varied_case); rows strided only where `strided_ok` (dense rows need them
// not to be).
void check_forced_rows(normjit::detail::ConfigOverride o, const RowsLayout& layout, bool strided_ok,
                       const std::string& what, std::mt19937_64& rng) {
  o = with_layout(o, layout);
  const normjit::detail::ScopedConfigOverride use_o(&o);
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (std::int64_t hidden : {64, 100, 111, 128, 256}) {
      for (std::int64_t rows : {1, 7, 33, 1000, 3001, 65537}) {
        RmsCase c = varied_case(op, rows, hidden);
        if (!strided_ok) c.strided = false;
        if (rows == 33) c.weight_dtype = DType::f32;
        INFO(c.describe() << " " << what << ", rows_per_thread " << layout.per << ", tpr " << layout.tpr << ", rpb "
                          << layout.rpb);
        CHECK(run_rms_case(c, rng) == "");
      }
    }
  }
}

}  // namespace

TEST_CASE("forced configs: several rows a thread addressed from one base (dense rows)", "[gpu][rmsnorm][3d][configs]") {
  use_device0();
  auto rng = fresh_rng();
  // torch.compile's per-head layout (16 lanes x 8 rows), ours (8 lanes x 2, 4 and 8 rows) and 4 lanes
  // x 2, with and without reconvert.
  for (const RowsLayout& layout :
       {RowsLayout{8, 16, 4}, RowsLayout{8, 8, 8}, RowsLayout{2, 8, 16}, RowsLayout{4, 8, 8}, RowsLayout{2, 4, 32}}) {
    for (int again : {0, 1}) {
      normjit::detail::ConfigOverride o;
      o.reconvert = again;
      o.dense = 1;
      check_forced_rows(o, layout, false, fmt::format("dense, reconvert {}", again), rng);
    }
  }
}

TEST_CASE("forced configs: a block's rows sharing one weight read through shared memory", "[gpu][rmsnorm][3d][configs]") {
  use_device0();
  auto rng = fresh_rng();
  // Layouts of 2-32 row groups a block, one to four items a lane (head_dim 256 on 8 lanes): the
  // zeros past the row end go through shared memory too, and rows past the end still reach the
  // barrier. Dense and strided rows. Then the weight loaded before the PDL wait (weight_first,
  // static weight), and per-head rows.
  for (const RowsLayout& layout :
       {RowsLayout{8, 16, 4}, RowsLayout{2, 8, 16}, RowsLayout{4, 8, 8}, RowsLayout{2, 4, 32}, RowsLayout{2, 32, 2}}) {
    for (int dense : {0, 1}) {
      normjit::detail::ConfigOverride o;
      o.dense = dense;
      o.weight_shared = 1;
      check_forced_rows(o, layout, dense == 0, fmt::format("weight_shared, dense {}", dense), rng);
    }
  }
  normjit::detail::ConfigOverride o;
  o.rows_per_thread = 4;
  o.threads_per_row = 8;
  o.rows_per_block = 8;
  o.residency = 0;
  o.weight_first = 1;
  o.weight_shared = 1;
  const normjit::detail::ScopedConfigOverride use_o(&o);
  for (std::int64_t rows : {7, 1000, 3001}) {
    RmsCase c = varied_case(Op::rmsnorm, rows, 128);
    c.pdl = true;
    c.static_weight = true;
    INFO(c.describe() << " weight_shared, weight_first");
    CHECK(run_rms_case(c, rng) == "");
  }
  // Per-head rows (3-D, strided heads and flat).
  o.weight_first = -1;
  for (DType dt : {DType::bf16, DType::f16}) {
    for (std::int64_t head_dim : {64, 128, 100}) check_per_head(Op::rmsnorm, dt, 1031, 8, head_dim, rng);
  }
}

TEST_CASE("per-head rows by head blocks: the default for strided head_dim 64, and forced layouts", "[gpu][rmsnorm][3d][configs]") {
  use_device0();
  auto rng = fresh_rng();
  namespace d = normjit::detail;
  // The default: strided rows of 64 with 32 or 24 heads (one block of 32 or 24 rows a token) go
  // by head blocks from kStridedSharedRows8 rows; 64 and 48 heads keep the one-dimensional grid.
  normjit::ProblemSpec ps;
  ps.op = Op::rmsnorm;
  ps.hidden = 64;
  ps.rank3 = true;
  ps.rows = d::kStridedSharedRows8;
  for (std::int64_t heads : {32, 24}) {
    ps.heads = heads;
    REQUIRE(d::choose_config(ps, 0, d::Arch{90}).head_blocks);
  }
  for (const auto& [op, dt] : {std::pair{Op::rmsnorm, DType::bf16}, std::pair{Op::rmsnorm, DType::f16},
                               std::pair{Op::gemma_rmsnorm, DType::bf16}}) {
    for (std::int64_t heads : {32, 24, 64, 48}) {
      for (std::int64_t batch : {d::kStridedSharedRows8 / heads + 1, std::int64_t(4099)})
        check_per_head(op, dt, batch, heads, 64, rng);
    }
  }
  // Forced on other layouts (4 and 16 heads a block, one to four items a lane, partial items), the
  // heads one or three blocks a token (the grid's second dimension): every token's heads written,
  // none past them.
  for (const RowsLayout& layout : {RowsLayout{2, 8, 8}, RowsLayout{2, 16, 2}}) {
    normjit::detail::ConfigOverride o;
    o.head_blocks = 1;
    o = with_layout(o, layout);
    const normjit::detail::ScopedConfigOverride use_o(&o);
    const std::int64_t block_rows = std::int64_t(layout.per) * layout.rpb;
    for (std::int64_t head_dim : {64, 128, 100, 256}) {
      for (std::int64_t heads : {block_rows, 3 * block_rows}) {
        INFO("head_blocks forced, rows_per_thread " << layout.per << ", tpr " << layout.tpr << ", rpb " << layout.rpb);
        check_per_head(Op::rmsnorm, DType::bf16, 37, heads, head_dim, rng);
      }
    }
  }
}

TEST_CASE("forced configs: output stores with and without the L2 evict-last hint", "[gpu][rmsnorm][configs]") {
  use_device0();
  auto rng = fresh_rng();
  for (Op op : normjit::all_ops()) {
    // keep 2: the hint on the rows of the output's last MiB only (keep_tail 1), so that rows of
    // 4096 and 16384 elements are stored both ways in one launch.
    for (int keep : {0, 1, 2}) {
      normjit::detail::ConfigOverride o;
      o.keep_out = keep > 0;
      if (keep == 2) o.keep_tail = 1;
      const normjit::detail::ScopedConfigOverride use_o(&o);
      // 16-, 8-, 4- and 2-byte chunks (vectors of 8, 4, 2 and 1 16-bit elements).
      for (std::int64_t hidden : {4096, 100, 98, 111}) {
        for (std::int64_t rows : {1, 7, 1000, 3000}) {
          const RmsCase c = varied_case(op, rows, hidden);
          INFO(c.describe() << " keep_out " << keep);
          CHECK(run_rms_case(c, rng) == "");
        }
      }
      // Per-head rows several a thread (strided by head blocks at 32 heads of 64, the shared
      // weight, dense flat rows), which rmsnorm's rule gives the hint at many rows; they take no
      // keep_tail (one row a thread group only).
      if (!normjit::detail::op_info(op).residual) {
        INFO("keep_out " << keep);
        if (keep < 2) {
          check_per_head(op, DType::bf16, 4099, 32, 64, rng);
          check_per_head(op, DType::f16, 3001, 16, 128, rng);
        }
        // Re-read rows of 4-5 vectors a thread on 512 threads: with the hint, 16-bit rows store at
        // base + offset (store_vec_keep_at), a whole and a ragged last item.
        normjit::detail::ConfigOverride w = o;
        w.threads_per_row = 512;
        w.residency = 2;
        w.cluster = 1;
        const normjit::detail::ScopedConfigOverride use_w(&w);
        for (std::int64_t hidden : {16384, 16392}) {
          for (std::int64_t rows : {1, 7, 300, 1000}) {
            const RmsCase c = varied_case(op, rows, hidden);
            INFO(c.describe() << " keep_out " << keep << ", re-read on 512 threads");
            CHECK(run_rms_case(c, rng) == "");
          }
        }
      }
    }
  }
}

TEST_CASE("default configs: rmsnorm's output kept in L2 past its byte thresholds", "[gpu][rmsnorm][configs]") {
  use_device0();
  auto rng = fresh_rng();
  namespace d = normjit::detail;
  // Each case's kernel stores its output with the L2 evict-last hint (heuristics.cpp: kKeepOut*);
  // every element is checked against the float64 reference.
  auto kept = [](Op op, DType dt, std::int64_t rows, std::int64_t hidden, bool rank3, bool dense) {
    normjit::ProblemSpec ps;
    ps.op = op;
    ps.dtype = ps.weight_dtype = dt;
    ps.hidden = hidden;
    ps.rows = rows;
    ps.rank3 = rank3;
    ps.dense_rows = dense;
    return d::choose_config(ps, 0, d::Arch{90}).keep_out;
  };
  struct Case {
    Op op;
    DType dt;
    std::int64_t rows, hidden;
  };
  // Held rows from kKeepOutHeldBytes (2048: 96 MiB), re-read rows from kKeepOutRereadBytes (4096
  // and fp32 2048: 64 MiB; fp32 at 96), rows of 128 above kKeepOutShortBytes (48 MiB); re-read
  // rows on 512 and 1024 threads declared for the CTAs an SM holds (8192: 4, 20480: 2); re-read
  // rows of 4 vectors a thread read plainly (16-bit: the hinted store at base + offset,
  // store_vec_keep_at; fp32).
  for (const Case& k : {Case{Op::rmsnorm, DType::bf16, d::kKeepOutHeldBytes / 4096, 2048},
                        Case{Op::gemma_rmsnorm, DType::f16, d::kKeepOutHeldBytes / 4096 + 1, 2048},
                        Case{Op::rmsnorm, DType::bf16, d::kKeepOutRereadBytes / 8192, 4096},
                        Case{Op::rmsnorm, DType::f32, d::kKeepOutHeldBytes / 8192, 2048},
                        Case{Op::rmsnorm, DType::bf16, d::kKeepOutShortBytes / 256 + 1, 128},
                        Case{Op::rmsnorm, DType::bf16, 8192, 8192},
                        Case{Op::rmsnorm, DType::f16, 3000, 20480},
                        Case{Op::rmsnorm, DType::bf16, 1024, 32768},
                        Case{Op::rmsnorm, DType::bf16, d::kHintedWidePlainBytes / 65536, 32768},
                        Case{Op::rmsnorm, DType::f16, 1200, 28672},
                        Case{Op::rmsnorm, DType::f32, 1024, 16384}}) {
    RmsCase c;
    c.op = k.op;
    c.dtype = c.weight_dtype = k.dt;
    c.rows = k.rows;
    c.hidden = k.hidden;
    for (OutForm form : {OutForm::Separate, OutForm::InPlace}) {
      c.form = form;
      REQUIRE(kept(k.op, k.dt, k.rows, k.hidden, false, true));
      INFO(c.describe());
      CHECK(run_rms_case(c, rng) == "");
    }
  }
  // Per-head rows of 128 (target 4's [4608, 48, 128]) and 256, contiguous and strided views.
  REQUIRE(kept(Op::rmsnorm, DType::bf16, 4608 * 48, 128, true, false));
  check_per_head(Op::rmsnorm, DType::bf16, 4608, 48, 128, rng);
  REQUIRE(kept(Op::rmsnorm, DType::bf16, 8192 * 16, 256, true, false));
  check_per_head(Op::gemma_rmsnorm, DType::bf16, 8192, 16, 256, rng);
}

// Many rows select another kernel than few (heuristics.cpp: kFewRowsMax, kPinWeightRows, kBulkRows*,
// kStreamRowsFusedAdd, kPerItemStoreRows, kLateWeightRows, kKeepOutRows); both sides are
// checked here at the row counts that select them, with the default configs.
namespace {

constexpr std::int64_t kSwitchWideHidden = 32768;

struct Switch {
  Op op;
  std::int64_t hidden, rows;
  DType dtype = DType::bf16;
  DType weight = DType::bf16;  // the weight's dtype where the rows' are 16-bit: theirs, or f32
};

std::vector<Switch> switch_cases() {
  constexpr std::int64_t kFew = normjit::detail::kFewRowsMax + 1;
  return {Switch{Op::rmsnorm, 8192, kFew},
          Switch{Op::gemma_rmsnorm, 8192, kFew},
          Switch{Op::fused_add_rmsnorm, 16384, kFew},
          Switch{Op::gemma_fused_add_rmsnorm, 16384, kFew},
          Switch{Op::fused_add_rmsnorm, 32768, kFew},
          Switch{Op::rmsnorm, 32768, kFew},
          Switch{Op::rmsnorm, 16384, normjit::detail::kTinyRowsMax + 1},
          Switch{Op::fused_add_rmsnorm, 16384, normjit::detail::kTinyRowsMax + 1},
          Switch{Op::fused_add_rmsnorm, 4096, kFew},
          // the weight pinned ahead of the row's first use, in every dtype
          Switch{Op::rmsnorm, 2048, normjit::detail::kPinWeightRows},
          Switch{Op::rmsnorm, 4096, normjit::detail::kPinWeightRows, DType::f16},
          Switch{Op::gemma_rmsnorm, 8192, normjit::detail::kPinWeightRows},
          Switch{Op::fused_add_rmsnorm, 2048, normjit::detail::kPinWeightRows},
          Switch{Op::gemma_fused_add_rmsnorm, 8192, normjit::detail::kPinWeightRows},
          Switch{Op::fused_add_rmsnorm, 4096, normjit::detail::kPinWeightRows, DType::f32},
          Switch{Op::rmsnorm, 1000, normjit::detail::kPinWeightRows},
          Switch{Op::rmsnorm, 8192, normjit::detail::kBulkRowsRmsnorm},
          // two rows per thread (rows of 16-32 16-byte vectors)
          Switch{Op::rmsnorm, 128, normjit::detail::kBulkRowsRmsnorm},
          Switch{Op::gemma_rmsnorm, 256, normjit::detail::kBulkRowsRmsnorm, DType::f16},
          Switch{Op::rmsnorm, 192, normjit::detail::kBulkRowsRmsnorm},
          // four rows a thread, or eight for dense rows (these are; rows of 16 vectors until
          // kOneVectorLaneDenseRows, then one vector a lane); rows of 8 vectors alike, and four
          // a thread from kFourRowsPerThreadDenseRows
          Switch{Op::rmsnorm, 128, normjit::detail::kFourRowsPerThreadRows},
          Switch{Op::gemma_rmsnorm, 128, normjit::detail::kOneVectorLaneDenseRows, DType::f16},
          Switch{Op::rmsnorm, 64, normjit::detail::kFourRowsPerThreadRows, DType::f16},
          Switch{Op::gemma_rmsnorm, 64, normjit::detail::kFourRowsPerThreadDenseRows},
          // the weight read once a block: rows of 32 vectors from kWeightSharedRows; dense rows
          // of 16 and 8 vectors on 8 lanes x 16 row groups in their windows
          Switch{Op::rmsnorm, 256, normjit::detail::kWeightSharedRows},
          Switch{Op::gemma_rmsnorm, 256, normjit::detail::kOneVectorLaneRows, DType::f16},
          Switch{Op::rmsnorm, 128, normjit::detail::kDenseSharedRows16},
          Switch{Op::gemma_rmsnorm, 128, normjit::detail::kDenseSharedEndRows16, DType::f16},
          Switch{Op::rmsnorm, 64, normjit::detail::kDenseSharedRows8},
          Switch{Op::gemma_rmsnorm, 64, normjit::detail::kOneVectorLaneDenseRows, DType::f16},
          // rows of 65-96 vectors: 32 lanes, two rows a thread (2.25 and 3 items)
          Switch{Op::rmsnorm, 576, normjit::detail::kBulkRowsRmsnorm},
          Switch{Op::gemma_rmsnorm, 768, normjit::detail::kBulkRowsRmsnorm, DType::f16},
          Switch{Op::rmsnorm, 4096, kFew},
          // vector counts not a power of two: 128 threads holding rows of
          // 513-1023 vectors, 64 threads for rmsnorm's bulk rows of 257-511
          Switch{Op::rmsnorm, 5120, normjit::detail::kPinWeightRows},
          Switch{Op::gemma_fused_add_rmsnorm, 5376, normjit::detail::kPinWeightRows},
          Switch{Op::rmsnorm, 3584, normjit::detail::kBulkRowsRmsnorm},
          Switch{Op::gemma_rmsnorm, 2560, normjit::detail::kBulkRowsRmsnorm, DType::f16},
          // the fused add's 257-511 on 128 threads (residual stores after the
          // loads), its 1025-2047 on 512 threads declared for 2 CTAs; rmsnorm's
          // 1025-1280 on 256 threads, 1281-2047 re-read on 512; fp32 rows of
          // 513-1280 4-vectors alike
          Switch{Op::fused_add_rmsnorm, 2560, normjit::detail::kPinWeightRows},
          // the fused add's 16-bit rows of 129-255 vectors pin only the first
          // item's weight (1.1-2.0 items on 128 threads)
          Switch{Op::fused_add_rmsnorm, 1536, normjit::detail::kPinWeightRows},
          Switch{Op::gemma_fused_add_rmsnorm, 2040, normjit::detail::kLateWeightRows},
          Switch{Op::fused_add_rmsnorm, 1032, normjit::detail::kBulkRowsFusedAdd, DType::f16},
          // fp32 rows of 1.x items: the first item's weight pinned below kLateWeightRows, every
          // item's from it
          Switch{Op::fused_add_rmsnorm, 768, normjit::detail::kLateWeightRows, DType::f32},
          Switch{Op::gemma_fused_add_rmsnorm, 3584, normjit::detail::kPerItemStoreRows, DType::f16},
          Switch{Op::fused_add_rmsnorm, 12288, normjit::detail::kPinWeightRows},
          Switch{Op::fused_add_rmsnorm, 14336, normjit::detail::kKeepOutRows, DType::f16},
          Switch{Op::rmsnorm, 10240, normjit::detail::kPinWeightRows},
          Switch{Op::gemma_rmsnorm, 12288, normjit::detail::kPinWeightRows},
          Switch{Op::rmsnorm, 14336, normjit::detail::kHintedWideRows},  // weight late
          // re-read with a part-filled last item (predicated loads): 2.75 items on
          // 512 threads, 2.5 on the one-CTA 1024 of wide rows
          Switch{Op::rmsnorm, 11264, normjit::detail::kBulkRowsRmsnorm},
          Switch{Op::rmsnorm, 20480, normjit::detail::kHintedWideRows},
          // the fused add's part-filled third item on 1024 threads (2049-2944 vectors): held
          // (the last item's loads pinned: kPinLastRow), then re-read with the hints by pass
          // under a floor of 2
          Switch{Op::fused_add_rmsnorm, 20480, normjit::detail::kBulkRowsFusedAdd},
          Switch{Op::gemma_fused_add_rmsnorm, 17408, normjit::detail::kBulkRowsFusedAdd, DType::f16},
          Switch{Op::fused_add_rmsnorm, 23552, normjit::detail::kBulkRowsFusedAdd},
          Switch{Op::rmsnorm, 12288, normjit::detail::kBulkRowsRmsnorm, DType::f16},
          Switch{Op::rmsnorm, 2560, normjit::detail::kPinWeightRows, DType::f32},
          Switch{Op::rmsnorm, 5120, normjit::detail::kPinWeightRows, DType::f32},
          Switch{Op::fused_add_rmsnorm, 5120, normjit::detail::kPinWeightRows, DType::f32},
          // fp32 rows of 257-511 4-vectors on 128 threads, 1281-2047 as 16-bit
          // rows (rmsnorm from kHintedWideRows rows)
          Switch{Op::rmsnorm, 1536, normjit::detail::kPinWeightRows, DType::f32},
          Switch{Op::gemma_fused_add_rmsnorm, 1920, normjit::detail::kPinWeightRows, DType::f32},
          Switch{Op::rmsnorm, 6144, normjit::detail::kHintedWideRows, DType::f32},
          Switch{Op::rmsnorm, 7168, normjit::detail::kBulkRowsRmsnorm, DType::f32},
          Switch{Op::fused_add_rmsnorm, 7168, normjit::detail::kPinWeightRows, DType::f32},
          // rows of 896-1280 vectors re-read on 512 threads from kRereadNpotRows
          // (1.75 and 2.5 items, the last part-filled), in fp32 too
          Switch{Op::rmsnorm, 7168, normjit::detail::kRereadNpotRows},
          Switch{Op::gemma_rmsnorm, 10240, normjit::detail::kRereadNpotRows, DType::f16},
          Switch{Op::rmsnorm, 4608, normjit::detail::kRereadNpotRows, DType::f32},
          // 16-bit rmsnorm rows of 257-511 vectors: re-read from kRereadNpotRows on
          // 128 threads (2.25 items) or on 256 declared for 8 CTAs (1.75 items);
          // up to 384 vectors held on 128 threads from kPinWeightRows
          Switch{Op::rmsnorm, 2304, normjit::detail::kRereadNpotRows},
          Switch{Op::gemma_rmsnorm, 3584, normjit::detail::kRereadNpotRows, DType::f16},
          Switch{Op::rmsnorm, 3072, normjit::detail::kPinWeightRows, DType::f16},
          Switch{Op::rmsnorm, 4096, normjit::detail::kBulkRowsRmsnorm},
          Switch{Op::fused_add_rmsnorm, 8192, normjit::detail::kBulkRowsFusedAdd},
          Switch{Op::fused_add_rmsnorm, 4096, normjit::detail::kPerItemStoreRows},
          Switch{Op::fused_add_rmsnorm, 16384, normjit::detail::kStreamRowsFusedAdd},
          // fp32 rows of 4096 vectors re-read with the hints by pass from kBulkRowsFusedAdd (sm_90)
          Switch{Op::fused_add_rmsnorm, 16384, normjit::detail::kBulkRowsFusedAdd, DType::f32},
          Switch{Op::rmsnorm, 16384, normjit::detail::kLateWeightRows},
          Switch{Op::gemma_rmsnorm, 16384, normjit::detail::kLateWeightRows, DType::f16},
          Switch{Op::rmsnorm, 16384, normjit::detail::kBulkRowsRmsnorm},  // re-read, L1 hints
          Switch{Op::fused_add_rmsnorm, 8192, normjit::detail::kKeepOutRows},
          Switch{Op::gemma_fused_add_rmsnorm, 4096, normjit::detail::kKeepOutRows},
          Switch{Op::rmsnorm, 32768, normjit::detail::kBulkRowsWide},
          Switch{Op::gemma_rmsnorm, 32768, normjit::detail::kBulkRowsWide, DType::f16},
          // L1/L2 hints past kHintedWidePlainBytes (below: plain loads, the output hint)
          Switch{Op::rmsnorm, 32768, normjit::detail::kHintedWidePlainBytes / 65536 + 1},
          Switch{Op::rmsnorm, 131072, normjit::detail::kBulkRowsWide},
          // rows of 8192 vectors on 4 CTAs whose threads copy their own items (residency 4)
          Switch{Op::rmsnorm, 65536, normjit::detail::kBulkRowsWide},
          Switch{Op::gemma_rmsnorm, 65536, normjit::detail::kBulkRowsWide, DType::f16},
          Switch{Op::rmsnorm, 32768, normjit::detail::kBulkRowsWide, DType::f32},
          Switch{Op::fused_add_rmsnorm, 32768, normjit::detail::kBulkRowsWide},
          Switch{Op::fused_add_rmsnorm, 65536, normjit::detail::kBulkRowsWide},
          Switch{Op::fused_add_rmsnorm, 262144, normjit::detail::kBulkRowsWide},
          // 16-CTA clusters on sm_90 (kWideReadVectors), in both dtypes; the
          // fp32 fused add at 262144 stays re-read (kWideMaxShareBytes)
          Switch{Op::rmsnorm, 262144, normjit::detail::kBulkRowsWide},
          Switch{Op::gemma_fused_add_rmsnorm, 131072, normjit::detail::kBulkRowsWide},
          Switch{Op::fused_add_rmsnorm, 262144, normjit::detail::kBulkRowsWide, DType::f32},
          // fp32 16-CTA shares of 32 KiB under the shared-memory floor of 6
          Switch{Op::fused_add_rmsnorm, 65536, normjit::detail::kBulkRowsWide, DType::f32},
          Switch{Op::rmsnorm, 262144, normjit::detail::kBulkRowsWide, DType::f32},
          // staged shares of exactly 48 KiB, which need the shared-memory opt-in
          // as larger ones do (runtime.cpp: Runtime::load)
          Switch{Op::fused_add_rmsnorm, 196608, normjit::detail::kBulkRowsWide},
          Switch{Op::rmsnorm, 196608, normjit::detail::kBulkRowsWide, DType::f32},
          Switch{Op::fused_add_rmsnorm, 98304, normjit::detail::kBulkRowsWide, DType::f32},
          // fp32 fused add shares of whole items above kWideMaxShareBytes on 16 CTAs:
          // 68 KiB (3 CTAs an SM) and 88 KiB (2), kWideMaxShareBytesF32FusedAdd
          Switch{Op::fused_add_rmsnorm, 139264, normjit::detail::kBulkRowsWide, DType::f32},
          Switch{Op::fused_add_rmsnorm, 180224, normjit::detail::kBulkRowsWide, DType::f32},
          // rows of an odd vector count (no cluster split) take the one-CTA wide layouts
          Switch{Op::fused_add_rmsnorm, 25608, normjit::detail::kBulkRowsWide},
          Switch{Op::rmsnorm, 31752, normjit::detail::kBulkRowsWide},
          Switch{Op::fused_add_rmsnorm, 16392, normjit::detail::kBulkRowsFusedAdd},
          // the bf16 fused add's part-filled fourth item at register usage level 2: whole
          // 128-byte lines stop at kHintedWideRows, others keep it
          Switch{Op::gemma_fused_add_rmsnorm, 28672, normjit::detail::kHintedWideRows},
          Switch{Op::fused_add_rmsnorm, 30736, normjit::detail::kHintedWideRows},
          // f16 cluster shares of more than 1536 vectors load the weight late, no floor
          Switch{Op::fused_add_rmsnorm, 57344, normjit::detail::kBulkRowsWide, DType::f16},
          // the bf16 fused add's rows of 1025-2047 vectors on 1024 threads at level 2 between
          // kFewRowsMax and kPinWeightRows rows
          Switch{Op::gemma_fused_add_rmsnorm, 9216, kFew},
          Switch{Op::fused_add_rmsnorm, 12296, normjit::detail::kPinWeightRows},
          // the fused add's odd counts held on one CTA at few rows too (the early trigger to 32)
          Switch{Op::fused_add_rmsnorm, 31752, kFew}};
}

// An fp32 weight beside 16-bit rows, whose rules differ (heuristics.cpp: choose_residency,
// held_wide_row, the re-read floors, the fused add's rows of more than 3 items on 512 threads).
std::vector<Switch> f32_weight_switch_cases() {
  using namespace normjit::detail;
  return {Switch{Op::rmsnorm, 4096, kPinWeightRows, DType::bf16, DType::f32},       // held and pinned
          Switch{Op::rmsnorm, 8192, kFewRowsMax + 1, DType::f16, DType::f32},       // held, weight early
          Switch{Op::rmsnorm, 20480, kLateWeightRows, DType::bf16, DType::f32},     // held on 1024 threads
          Switch{Op::gemma_rmsnorm, 32768, kHeldWideF32WeightEndRows, DType::bf16, DType::f32},
          Switch{Op::rmsnorm, 14336, kBulkRowsRmsnorm, DType::bf16, DType::f32},    // re-read at 3 CTAs
          Switch{Op::fused_add_rmsnorm, 14336, kPinWeightRows, DType::bf16, DType::f32},  // weight late
          Switch{Op::fused_add_rmsnorm, 16384, kBulkRowsFusedAdd, DType::f16, DType::f32},
          // cluster shares of more than 1536 vectors: the weight late, no floor
          Switch{Op::fused_add_rmsnorm, 57344, kBulkRowsWide, DType::bf16, DType::f32},
          Switch{Op::gemma_fused_add_rmsnorm, 122880, kBulkRowsWide, DType::f16, DType::f32},
          // odd vector counts: held on one 1024-thread CTA (bf16 at level 2 past 3072 vectors)
          Switch{Op::fused_add_rmsnorm, 25608, kBulkRowsWide, DType::bf16, DType::f32},
          Switch{Op::fused_add_rmsnorm, 16392, kBulkRowsWide, DType::f16, DType::f32},
          // bf16 even counts past 3072 vectors held at level 2 (a 2-CTA cluster below)
          Switch{Op::gemma_fused_add_rmsnorm, 26640, kBulkRowsWide, DType::bf16, DType::f32}};
}

// Both sides of each switch: rows - 1 and rows, out of place and (rmsnorm) in place.
void check_switches(bool wide, const std::vector<Switch>& cases = switch_cases()) {
  use_device0();
  auto rng = fresh_rng();
  for (const Switch& sw : cases) {
    if ((sw.hidden >= kSwitchWideHidden) != wide) continue;
    const bool fused = normjit::detail::op_info(sw.op).residual;
    for (std::int64_t rows : {sw.rows - 1, sw.rows}) {
      RmsCase c;
      c.op = sw.op;
      c.dtype = c.weight_dtype = sw.dtype;
      if (sw.weight == DType::f32) c.weight_dtype = DType::f32;
      c.rows = rows;
      c.hidden = sw.hidden;
      c.form = fused ? OutForm::InPlace : OutForm::Separate;
      INFO(c.describe());
      CHECK(run_rms_case(c, rng) == "");
      if (!fused) {  // written in place too
        c.form = OutForm::InPlace;
        INFO(c.describe());
        CHECK(run_rms_case(c, rng) == "");
      }
    }
  }
}

}  // namespace

// Two test cases, so that ctest runs the wide rows' (most of the time: their float64 references)
// beside the rest; one took 160-195 s of the GPU suite's ~200 (session 29).
TEST_CASE("default configs at the row counts that switch kernels", "[gpu][rmsnorm]") { check_switches(false); }
TEST_CASE("default configs at the row counts that switch kernels: an fp32 weight beside 16-bit rows", "[gpu][rmsnorm]") {
  check_switches(false, f32_weight_switch_cases());
  check_switches(true, f32_weight_switch_cases());
}
TEST_CASE("default configs at the row counts that switch kernels: wide rows", "[gpu][rmsnorm]") {
  check_switches(true);
}

// Wide rows from kBulkRowsWide rows: 4097-5120 vectors held on 8 CTAs of 128 threads (weight
// pinned, 16-bit values reconverted), 16-bit 5121-6143 by one late-weight 512-thread CTA; both
// sides of the switch, out of place and in place.
TEST_CASE("default configs: wide rows held on 8-CTA clusters or by one 512-thread CTA", "[gpu][rmsnorm]") {
  use_device0();
  auto rng = fresh_rng();
  const normjit::detail::Arch arch = normjit::detail::Runtime::get().device_arch(0);
  struct Case {
    Op op;
    DType dtype;
    std::int64_t hidden;
    bool late;  // 5121-6143 vectors (gemma's to 6144): one 512-thread CTA, the weight late
  };
  // 8 x 128 held (rmsnorm fp32 too; gemma bf16 40960 keeps 8 bytes of stack), and the
  // late-weight rows, at 2048 rows with the output's evict-last hint too.
  const Case cases[] = {{Op::rmsnorm, DType::bf16, 36864, false},       {Op::rmsnorm, DType::f16, 40960, false},
                        {Op::rmsnorm, DType::bf16, 38912, false},       {Op::rmsnorm, DType::f16, 33280, false},
                        {Op::gemma_rmsnorm, DType::bf16, 40960, false}, {Op::rmsnorm, DType::bf16, 41984, true},
                        {Op::rmsnorm, DType::f16, 47104, true},         {Op::gemma_rmsnorm, DType::bf16, 49152, true},
                        {Op::rmsnorm, DType::f32, 18432, false},        {Op::rmsnorm, DType::f32, 20480, false}};
  for (const Case& k : cases) {
    for (std::int64_t rows : {normjit::detail::kBulkRowsWide - 1, normjit::detail::kBulkRowsWide, std::int64_t(1024),
                              std::int64_t(2048)}) {
      if (rows == 2048 && !k.late) continue;
      normjit::ProblemSpec p;
      p.op = k.op;
      p.dtype = p.weight_dtype = k.dtype;
      p.hidden = k.hidden;
      p.rows = rows;
      const normjit::detail::KernelConfig cfg = normjit::detail::choose_config(p, 0, arch);
      INFO(rows << " x " << k.hidden << " -> " << normjit::detail::slug(cfg));
      if (arch.cc == 90) {
        const bool wide_rule = rows >= normjit::detail::kBulkRowsWide;
        if (k.late) {
          CHECK((cfg.cluster == 1 && cfg.threads_per_row == 512 && cfg.residency == 1 && cfg.min_blocks == 2) ==
                wide_rule);
          if (rows == 2048) CHECK(cfg.keep_out);
        } else {
          CHECK((cfg.cluster == 8 && cfg.residency == 0 && cfg.pin_weight == 1) == wide_rule);
        }
      }
      for (OutForm form : {OutForm::Separate, OutForm::InPlace}) {
        RmsCase c;
        c.op = k.op;
        c.dtype = c.weight_dtype = k.dtype;
        c.rows = rows;
        c.hidden = k.hidden;
        c.form = form;
        INFO(c.describe());
        CHECK(run_rms_case(c, rng) == "");
      }
    }
  }
}

TEST_CASE("default configs at the edges of the SM-count window (rows of 2048 vectors, one wave)", "[gpu][rmsnorm]") {
  use_device0();
  auto rng = fresh_rng();
  namespace d = normjit::detail;
  const d::Arch arch = d::Runtime::get().device_arch(0);
  REQUIRE(arch.sms == d::Runtime::get().sm_count(0));
  const std::int64_t lo = d::kWaveRowsPerSmLow * arch.sms, hi = d::kWaveRowsPerSmHigh * arch.sms;
  struct Case {
    Op op;
    DType dtype;
  };
  for (const Case& k : {Case{Op::rmsnorm, DType::bf16}, Case{Op::gemma_rmsnorm, DType::f16}}) {
    for (std::int64_t rows : {lo, lo + 1, hi, hi + 1}) {
      normjit::ProblemSpec p;
      p.op = k.op;
      p.dtype = p.weight_dtype = k.dtype;
      p.hidden = 16384;
      p.rows = rows;
      const d::KernelConfig cfg = d::choose_config(p, 0, arch);
      INFO(rows << " rows on " << arch.sms << " SMs -> " << d::slug(cfg));
      // The window's kernel on sm_90 inside it, never outside it.
      CHECK((cfg.residency == 2 && cfg.min_blocks == 4) == (arch.cc == 90 && rows > lo && rows <= hi));
      for (OutForm form : {OutForm::Separate, OutForm::InPlace}) {
        RmsCase c;
        c.op = k.op;
        c.dtype = c.weight_dtype = k.dtype;
        c.rows = rows;
        c.hidden = 16384;
        c.form = form;
        c.strided = form == OutForm::Separate;
        INFO(c.describe());
        CHECK(run_rms_case(c, rng) == "");
      }
    }
  }
}

// NORMJIT_TEST_MAX_CLUSTER=N: the largest forced cluster the test below runs (default 16).
// scripts/gpu_sanitize.sh sets 8 for synccheck, which ends 16-CTA clusters that exchange through
// mbarriers in an illegal address from 8 clusters on; scripts/cluster_synccheck_probe.cu shows the
// same without normjit, while memcheck, racecheck and unsanitized runs pass (session 64).
static int max_forced_cluster() {
  const char* v = std::getenv("NORMJIT_TEST_MAX_CLUSTER");
  return v && *v ? std::atoi(v) : 16;
}

TEST_CASE("forced configs: rows split over thread-block clusters", "[gpu][rmsnorm][configs][cluster]") {
  use_device0();
  auto rng = fresh_rng();
  const int cc = normjit::detail::Runtime::get().device_arch(0).cc;
  const int max_cluster = max_forced_cluster();
  if (max_cluster < 16) WARN("clusters above " << max_cluster << " left out (NORMJIT_TEST_MAX_CLUSTER)");
  for (Op op : normjit::all_ops()) {
    const bool fused = normjit::detail::op_info(op).residual;
    for (int cluster : {2, 4, 8, 16}) {  // 16: non-portable
      if (cluster > max_cluster) continue;
      for (int residency : {-1, 2}) {
        normjit::detail::ConfigOverride o;
        o.cluster = cluster;
        o.residency = residency;
        const normjit::detail::ScopedConfigOverride use_o(&o);
        for (std::int64_t hidden : {2048, 16384, 65536}) {
          for (std::int64_t rows : {1, 5, 200}) {
            RmsCase c = varied_case(op, rows, hidden);
            if (!fused && rows == 5) c.heads = 3;  // per-head rows, non-flat input
            INFO(c.describe() << " cluster " << cluster << " residency " << residency);
            if (cc < 90) {
              // Clusters need sm_90+: a clear error, nothing launched.
              CHECK_THROWS_WITH(run_rms_case(c, rng), Catch::Contains("sm_90 or newer"));
            } else {
              CHECK(run_rms_case(c, rng) == "");
            }
          }
        }
      }
    }
  }
}

TEST_CASE("forced configs: clusters of several rows a block (column shares)", "[gpu][rmsnorm][configs][cluster]") {
  use_device0();
  auto rng = fresh_rng();
  const int cc = normjit::detail::Runtime::get().device_arch(0).cc;
  struct Tile {
    int cluster, rpb, tpr;
  };
  // A warp a row (no block barrier) and several warps a row, 2-8 CTAs, 2-8 rows a cluster; rows
  // that fill no cluster (1, 5: rows past the end in every CTA) and a part-filled last cluster
  // (130); shares of whole and part-filled items (2560 over 2 CTAs on 128 threads: 1.25 items,
  // over 8 on 64: 0.625).
  const Tile kTiles[] = {{4, 4, 32}, {8, 8, 32}, {2, 2, 128}, {8, 4, 64}};
  for (Op op : normjit::all_ops()) {
    const bool fused = normjit::detail::op_info(op).residual;
    for (const Tile& t : kTiles) {
      // Residency 0-3, and 0 with the weight copied into shared memory once a block (pin 4, -1 here).
      for (int residency : {0, 1, 2, 3, -1}) {
        normjit::detail::ConfigOverride o;
        o.cluster = t.cluster;
        o.rows_per_block = t.rpb;
        o.threads_per_row = t.tpr;
        o.residency = residency < 0 ? 0 : residency;
        if (residency < 0) o.pin_weight = 4;
        const normjit::detail::ScopedConfigOverride use_o(&o);
        for (std::int64_t hidden : {2560, 8192}) {
          for (std::int64_t rows : {1, 5, 130}) {
            if (rows == 1 && hidden == 8192) continue;
            RmsCase c = varied_case(op, rows, hidden);
            if (!fused && rows == 5) c.heads = 5;  // per-head rows, non-flat input
            if (residency < 0) c.weight_dtype = c.dtype;  // pin 4: 16-byte weight vectors
            INFO(c.describe() << " cluster " << t.cluster << " rpb " << t.rpb << " tpr " << t.tpr << " residency "
                              << residency);
            if (cc < 90) {
              CHECK_THROWS_WITH(run_rms_case(c, rng), Catch::Contains("sm_90 or newer"));
            } else {
              CHECK(run_rms_case(c, rng) == "");
            }
          }
        }
      }
    }
  }
}

TEST_CASE("forced configs: rows shared by independent CTAs (split)", "[gpu][rmsnorm][configs][split]") {
  use_device0();
  auto rng = fresh_rng();
  for (Op op : normjit::all_ops()) {
    const bool fused = normjit::detail::op_info(op).residual;
    for (int split : {2, 4, 8}) {
      for (int residency : {0, 1, 2}) {
        normjit::detail::ConfigOverride o;
        o.split = split;
        o.threads_per_row = 128;
        o.residency = residency;
        const normjit::detail::ScopedConfigOverride use_o(&o);
        // 256 vectors on 128 threads are 2 items (split 2 only), 1024 are 8, 2048 are 16.
        for (std::int64_t hidden : {2048, 8192, 16384}) {
          for (std::int64_t rows : {1, 5, 200}) {
            RmsCase c = varied_case(op, rows, hidden);
            if (!fused) {
              c.form = OutForm::Separate;
              if (rows == 5) c.heads = 3;  // per-head rows, non-flat input
            }
            INFO(c.describe() << " split " << split << " residency " << residency);
            if (fused) {
              CHECK_THROWS_WITH(run_rms_case(c, rng), Catch::Contains("the fused add overwrites"));
            } else if (hidden == 2048 && split > 2) {
              CHECK_THROWS_WITH(run_rms_case(c, rng), Catch::Contains("whole shares of items"));
            } else {
              CHECK(run_rms_case(c, rng) == "");
              // Written over its input, a row's other CTAs would read outputs: refused.
              c.form = OutForm::InPlace;
              c.heads = 0;
              CHECK_THROWS_WITH(run_rms_case(c, rng), Catch::Contains("in place"));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("forced configs: rows staged in shared memory (bulk and per-thread copies)", "[gpu][rmsnorm][configs][smem]") {
  use_device0();
  auto rng = fresh_rng();
  const int cc = normjit::detail::Runtime::get().device_arch(0).cc;
  struct Staged {
    int tpr, cluster, loads, rpb;
    std::vector<std::int64_t> hidden;
  };
  // One CTA per row (4 stages of 2 items at 4096 on 256 threads, 2 stages of 1 item at 32768 on
  // 1024), 2- and 8-CTA clusters with the evict-first hint (the fused add's 8 x 128 KiB shares at
  // 262144), several rows per block with 4-vector rows of fp32 (below; 48 KiB of shares exactly at
  // the fused add's 1536 and rmsnorm's 3072). Each by bulk copies (residency 3, sm_90+) and by
  // each thread's own copies (4), whose parts complete per thread. Shares that are not whole items
  // (the last part short, lanes past the share skipping their last item): 3.5 items in 4 parts
  // (14336 on 2 x 256), 0.375 and 4.25 items in one part (12288, 139264 on 4 x 1024; 16-bit types),
  // 5.5 items with several rows per block (1408 on 32), 4.5 (36864 on 4 x 256; by bulk copies the
  // second pass takes the whole items in a loop unrolled by 4, then the part-filled one).
  const Staged kStaged[] = {{256, 1, 0, 0, {4096, 16384, 32768}},
                            {1024, 1, 1, 0, {16384, 32768}},
                            {128, 2, 1, 0, {16384, 65536}},
                            {256, 8, 0, 0, {262144}},
                            {32, 1, 0, 4, {256, 1536, 3072, 4096}},
                            {256, 2, 0, 0, {14336}},
                            {1024, 4, 1, 0, {12288, 139264}},
                            {32, 1, 0, 4, {1408}},
                            {256, 4, 0, 0, {36864}}};
  for (Op op : normjit::all_ops()) {
    const bool fused = normjit::detail::op_info(op).residual;
    for (const Staged& st : kStaged) {
      for (int residency : {3, 4}) {
        normjit::detail::ConfigOverride o;
        o.residency = residency;
        o.threads_per_row = st.tpr;
        o.cluster = st.cluster;
        o.loads = st.loads;
        o.rows_per_block = st.rpb;
        const normjit::detail::ScopedConfigOverride use_o(&o);
        for (std::int64_t hidden : st.hidden) {
          for (std::int64_t rows : {1, 5, 40}) {
            RmsCase c = varied_case(op, rows, hidden);
            c.strided = rows == 40;
            if (!fused && rows == 5) c.heads = 3;  // per-head rows, non-flat input
            if (st.rpb && rows == 40) c.dtype = c.weight_dtype = DType::f32;
            INFO(c.describe() << " staged: residency " << residency << " tpr " << st.tpr << " cluster " << st.cluster
                              << " loads " << st.loads << " rpb " << st.rpb);
            if (cc < 90 && (residency == 3 || st.cluster > 1)) {
              CHECK_THROWS_WITH(run_rms_case(c, rng), Catch::Contains("sm_90 or newer"));
            } else {
              CHECK(run_rms_case(c, rng) == "");
            }
          }
        }
      }
    }
    if (cc < 90) continue;
    // What does not fit is refused before anything runs: a whole 262144-wide row in one CTA,
    // and a row whose pointers allow only narrower vectors than the copies' 16 bytes.
    for (int residency : {3, 4}) {
      normjit::detail::ConfigOverride o;
      o.residency = residency;
      o.threads_per_row = 1024;
      o.cluster = 1;
      const normjit::detail::ScopedConfigOverride use_o(&o);
      RmsCase wide = varied_case(op, 2, 262144);
      CHECK_THROWS_WITH(run_rms_case(wide, rng), Catch::Contains("bytes of shared memory"));
      RmsCase odd = varied_case(op, 2, 4096);
      odd.misaligned = true;
      CHECK_THROWS_WITH(run_rms_case(odd, rng), Catch::Contains("16-byte vectors"));
    }
  }
}

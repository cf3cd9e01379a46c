#include "heuristics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <limits>

#include "normjit/errors.hpp"

namespace normjit::detail {

int vector_width(std::int64_t hidden, int elem_bytes, int max_vec) {
  int limit = 16 / elem_bytes;
  if (max_vec > 0 && max_vec < limit) limit = max_vec;
  int v = 1;
  while (v * 2 <= limit && hidden % (v * 2) == 0) v *= 2;
  return v;
}

int threads_for(std::int64_t vectors) {
  // Two vectors per thread: `normjit bench --sweep` on the H200 (bf16, 2048 and 32768 tokens,
  // hidden 4096/8192, rmsnorm and fused add; docs/benchmarks.md) put 2 items per thread
  // within 1.5 % of the best threads-per-row at every shape, 4 items up to 3 % behind.
  constexpr std::int64_t kItemsPerThread = 2;
  int tpr = 1;
  while (tpr < 1024 && (vectors + tpr - 1) / tpr > kItemsPerThread) tpr *= 2;
  return tpr;
}

std::vector<std::int64_t> wave_row_classes(Arch arch) {
  const std::int64_t sms = arch.sms > 0 ? arch.sms : kProbeSms;
  return {kWaveRowsPerSmLow * sms + 1, kWaveRowsPerSmHigh * sms + 1};
}

std::vector<std::int64_t> keep_out_row_classes(const ProblemSpec& problem) {
  if (op_info(problem.op).residual || problem.hidden < 1) return {};
  const std::int64_t row_bytes = problem.hidden * dtype_size(problem.dtype);
  auto from = [&](std::int64_t bytes) { return (bytes + row_bytes - 1) / row_bytes; };  // rows >= bytes
  return {kKeepOutShortBytes / row_bytes + 1, from(kKeepOutHeldBytes), from(kKeepOutRereadBytes),
          kHintedWidePlainBytes / row_bytes + 1, from(kKeepTailBytes), from(kKeepOutRereadEndBytes)};
}

int wave_window_sms(std::int64_t rows) {
  return int(std::min<std::int64_t>((rows + kWaveRowsPerSmHigh - 1) / kWaveRowsPerSmHigh,
                                    std::numeric_limits<int>::max()));
}

int choose_min_blocks(const KernelConfig& c) {
  // A cluster CTA needs ~8 registers more than the same share of a row in a plain CTA (rank,
  // mapa, the cluster barrier): rmsnorm's 512-thread CTAs went from 64 to 72 registers, one CTA
  // per SM instead of two, and 1024 x 32768 ran at 54 % of copy (H200) where the plain CTA with
  // the same 2048 vectors runs at 97 %. Bound them to 64 registers (1024 threads per SM).
  // But no more CTAs than an SM's shared memory holds: the 16-CTA clusters of 128 threads whose
  // fused-add shares take 32-64 KiB (6 or 3 CTAs an SM) spilled under a floor of 8 (64
  // registers, STACK:8 in their SASS) that shared memory kept them from reaching. H200, 1024
  // rows, median us, interleaved in one process, floor 8 / none / by shared memory (session 24,
  // docs/results/h200-2026-12-01-s24, floor-smem-call1.txt): fused add bf16 131072 275.71 /
  // 276.51 / 269.66 (4096 rows 1080.06 / 1082.11 / 1058.53), 262144 582.94 / 616.83 / 582.85 (3
  // CTAs: 80 registers; without a floor ptxas takes more than 3 CTAs' share); f32 65536 273.15 /
  // 273.66 / 269.60, f32 131072 580.26 / 604.99 / 585.31; rmsnorm bf16 262144 (6 CTAs, no spill
  // either way) 281.28 / 313.09 / 279.62. And none for re-read shares (residency 2), which hold
  // no row: the f32 fused add's 262144 (8 x 256) ran 1686.82 under a floor of 4 (spilling), 1660.77
  // without (floor-smem-call1.txt; 1676.48 / 1657.09, 1677.02 / 1654.62 in wide262144-call2.txt).
  if (c.cluster > 1 && c.block_threads() <= 512 && c.residency != 2) {
    const int floor = 1024 / c.block_threads();
    const int smem_ctas = staged_ctas_per_sm(c);
    return smem_ctas > 0 ? std::min(floor, smem_ctas) : floor;
  }
  // Otherwise no floor: capping registers for full occupancy did not help where the row fits
  // and spilled where it does not (H200 sweep, docs/benchmarks.md). choose_rms_norm sets floors
  // of its own: the one-wave re-read (4 CTAs an SM), and three kernels declared for the 3 CTAs an
  // SM they already hold (the declaration changed ptxas's schedule, and measured faster).
  return 0;
}

int choose_residency(const KernelConfig& c, bool residual) {
  const int items = c.items_per_thread();
  auto words = [&](DType t) { return items * ((c.vec * dtype_size(t) + 3) / 4); };
  // Registers a thread spends holding its part of the row: packed storage words, or fp32
  // values for the fused add (the spec normalizes the unrounded sum).
  const int row = residual ? items * c.vec : words(c.input_dtype);
  // An fp32 weight beside 16-bit rows counts at the rows' width on CTAs of up to 512 threads
  // without a cluster (no floor: registers are plentiful; the cluster shares' floors of 2 were
  // not timed with it): held and pinned with rmsnorm's rows of 4 items a thread, as a
  // weight of the rows' type is, though its words are twice as many, it ran faster than loaded
  // after the reduction (residency 1). H200, bf16 rows, fp32 weight, median us, interleaved in
  // one process, two rounds (session 55, call 6, docs/results/h200-2026-12-04-s55,
  // few-r*/dec-r*-call6.txt), weight late / held: 2048 x 4096 (t128) 12.29, 12.42 / 11.36, 11.46;
  // 2048 x 8192 (t256) 19.20, 19.33 / 18.56, 18.69; 128 x 8192 5.86, 5.92 / 5.66, 5.73; 128 x
  // 16384 (t512) 6.94, 6.98 / 6.82, 6.75.
  const bool f32_weight_counted_narrow = dtype_size(c.input_dtype) == 2 && c.weight_dtype == DType::f32 &&
                                        c.cluster == 1 && c.block_threads() <= 512;
  const int weight = words(f32_weight_counted_narrow ? c.input_dtype : c.weight_dtype);
  // What a thread may spend on data: 32 registers keeps a thread near 64 registers in all
  // (ptxas on sm_90a: addressing and temporaries take about 30), so an SM holds at least 1024
  // threads. A 1024-thread block (64 registers a thread) keeps 20: fused add at hidden 16384
  // (t1024, 16 fp32 + 8 weight words) ran 1230 us holding the weight and 1065 us without it
  // (32768 rows, H200).
  const int budget = std::min(32, 65536 / c.block_threads() - 44);
  if (row + weight <= budget) return 0;
  if (row <= budget) return 1;
  return 2;
}

namespace {

// Re-read rows of more than 2.5 vectors a thread: their output hint pays only with plain loads
// (choose_rms_norm's end has the measurements), which the wide rows' load rule also follows.
bool over_keep_out_vectors(std::int64_t row_vectors, std::int64_t threads) { return 2 * row_vectors > 5 * threads; }

// 16-bit rows in 16-byte vectors with a weight of their own type: what the wide 1024-thread
// rules below were measured on.
bool own_weight_16bit_vectors(const KernelConfig& c) {
  return dtype_size(c.input_dtype) == 2 && c.weight_dtype == c.input_dtype && c.vec * dtype_size(c.input_dtype) == 16;
}

// 16-bit rows in 16-byte vectors with an fp32 weight.
bool f32_weight_16bit_vectors(const KernelConfig& c) {
  return dtype_size(c.input_dtype) == 2 && c.weight_dtype == DType::f32 && c.vec * dtype_size(c.input_dtype) == 16;
}

// rmsnorm's 16-bit rows of 2049-3072 16-byte vectors, or 3073-4096 from kLateWeightRows rows (a
// weight of their own type), on one 1024-thread CTA below kBulkRowsRmsnorm rows: held, not
// re-read, and hinted from 64 MiB of output (choose_rms_norm has the measurements). With an fp32
// weight, rows of up to 3072 vectors and of 4096 from kLateWeightRows below
// kHeldWideF32WeightEndRows rows (a part-filled fourth item, under the floor of 2, spills 24 bytes).
bool held_wide_row(const KernelConfig& c, const ProblemSpec& p, std::int64_t row_vectors) {
  if (op_info(p.op).residual || c.cluster != 1 || c.threads_per_row != 1024 || row_vectors <= 2048) return false;
  if (f32_weight_16bit_vectors(c))
    return (row_vectors <= 3072 || row_vectors == 4096) && p.rows >= kLateWeightRows &&
           p.rows < kHeldWideF32WeightEndRows;
  return own_weight_16bit_vectors(c) && p.rows >= kBulkRowsWide && p.rows < kBulkRowsRmsnorm &&
         (row_vectors <= 3072 || p.rows >= kLateWeightRows);
}

}  // namespace

KernelConfig choose_rms_norm(const ProblemSpec& p, int max_vec, Arch arch) {
  const OpInfo& info = op_info(p.op);
  if (p.hidden < 1 || p.hidden > kMaxRmsHidden) {
    throw ValidationError(ValidationError::Kind::Unsupported,
                          fmt::format("normjit: {}: hidden size {} is outside the supported range "
                                      "1..{}",
                                      info.name, p.hidden, kMaxRmsHidden));
  }
  KernelConfig c;
  c.op = p.op;
  c.input_dtype = p.dtype;
  c.weight_dtype = p.weight_dtype;
  c.output_dtype = p.dtype;
  c.rank3 = p.rank3;
  c.hidden = std::int32_t(p.hidden);
  c.arch = Arch{arch.cc};  // the SM count chooses below; the kernel and its key are the arch's
  // The occupancy floor that declares `n` CTAs an SM of c's shape, at most what an SM holds.
  auto declared_ctas = [&](int n) { return std::min(n, arch.max_threads_per_sm() / c.block_threads()); };
  c.vec = vector_width(p.hidden, dtype_size(p.dtype), max_vec);
  // Rows of more than 2048 vectors (1024 threads x 2) are split over a cluster on sm_90+, into
  // the fewest CTAs (at most 8) that bring each CTA's share to 2048 vectors or below: a
  // 2048-vector row in one CTA ran at 94-97 % of copy (hidden 16384, 32768 rows, H200).
  // A few rows (<= kFewRowsMax) of 512-4096 vectors go into clusters of at least 4 CTAs with
  // shares of at most 512 vectors, so that more SMs move each row. Since the CTAs exchange
  // their sums by one push each (reduce.cuh: cluster_sum), a cluster costs a CUDA graph node
  // little: H200, bf16, us per launch in a graph of 100 with PDL at 1 / 8 / 32 rows, default
  // of then / 4-CTA cluster, same run: rmsnorm 4096 1.106/1.063, 1.130/1.090, 1.172/1.152;
  // rmsnorm 8192 (then 2 CTAs sharing the row, split) 1.266/1.100, 1.308/1.132, 1.378/1.304;
  // rmsnorm 16384 1.869/1.269, 1.925/1.344, 2.011/1.718; fused add 4096 1.413/1.109,
  // 1.452/1.134, 1.479/1.268; fused add 8192 1.736/1.149, 1.798/1.185, 1.839/1.633. Isolated
  // with the L2 cleared, median us: fused add 8192 5.09/4.67, 4.99/4.74, 5.09/4.90; rmsnorm
  // 16384 5.18/4.77, 5.22/4.80, 5.47/5.28; the others within +-0.15. 2-CTA clusters gained less
  // in graphs; rows of 256 vectors (hidden 2048) lost (0.995/1.071 at 1 row, rmsnorm), and at
  // 128 rows every cluster lost (rmsnorm 128 x 8192 1.868/2.444). With the two-barrier exchange
  // before it, a cluster launch had cost ~0.5 us more per graph node (1 x 2048: 0.961/1.478),
  // so only rows of >= 2048 vectors were spread then (session 11, docs/results/
  // h200-2026-11-30-s11/few-rows-clusters.txt, latency-clusters.txt; session 6, wide-few-ab.txt).
  // Up to kTinyRowsMax rows the shares are 256 vectors, which puts rows of 2048 on 8 CTAs: per
  // graph launch, 4 / 8 CTAs, 1 and 8 rows: rmsnorm 16384 1.264/1.114, 1.335/1.190; fused add
  // 16384 1.390/1.304, 1.469/1.301; isolated within +-0.07 us. At 32 rows 8-CTA clusters lost
  // (rmsnorm 16384 1.720/1.981), and rows of 512-1024 vectors gained nothing from 8 (rmsnorm
  // 8192 1.078/1.074, 4096 1.045/1.063) (latency-c8.txt against the suite's latency.txt).
  const std::int64_t row_vectors = p.hidden / c.vec;
  c.cluster = 1;
  if (arch.cc >= 90) {
    const bool spread = p.rows <= kFewRowsMax && row_vectors >= 512 && row_vectors <= 8 * 512;
    const std::int64_t share = !spread ? 2048 : p.rows <= kTinyRowsMax ? 256 : 512;
    const int fewest = spread ? 4 : 1;
    while (c.cluster < kMaxCluster && (c.cluster < fewest || row_vectors / c.cluster > share) &&
           p.hidden % (c.vec * c.cluster * 2) == 0)
      c.cluster *= 2;
  }
  const std::int64_t vectors = row_vectors / c.cluster;
  int tpr = threads_for(vectors);
  // But for rmsnorm 512 threads with up to 4 items rather than 1024 with 2: at hidden 16384
  // (2048 vectors) it ran 529.7 vs 549.6 us at 32768 rows and 37.4 vs 38.4 us at 2048 rows. Not
  // for the fused add, whose fp32 sum then no longer fits next to the weight (1065 vs 1090 us).
  if (!info.residual && tpr == 1024 && vectors <= 512 * 4) tpr = 512;
  // And 4 items, 256 threads, for a few rows of 1024 vectors (hidden 8192), a latency-bound call
  // whose block reduction then spans 8 warps, not 16. H200, bf16, isolated calls (L2 cleared),
  // median us, t512 / t256, same run: 4.90/4.77 (1 row), 4.90/4.74 (8), 5.09/4.90 (32), 5.63/5.38
  // (128); t1024 and t128 were slower. At hidden 4096 and 16384 4 items made no difference
  // (session 5, docs/results/h200-2026-11-30-s5/small-ab.txt). Up to kBulkRowsRmsnorm rows, where
  // it also beat the re-read layout below: 7.87/8.00 us (512 rows), 11.81/12.35 (1024),
  // 18.56/19.62 (2048), 33.34/34.14 (4096), 65.66/65.18 (8192) (session 6, held-ab.txt).
  if (!info.residual && vectors == 1024 && p.rows < kBulkRowsRmsnorm) tpr = 256;
  // 4 items, 128 threads, for more than a few rows of 512 vectors (hidden 4096) below
  // kBulkRowsRmsnorm rows. H200, bf16, median us, re-read t256 / held t128, same run:
  // 6.27/6.27 (512 rows), 8.26/7.94 (1024), 12.00/11.65 (2048), 18.94/18.50 (4096), 33.02/33.22
  // (8192); held t256 ran 8.54 at 1024 rows (session 6, held-ab.txt). Below kPinWeightRows rows
  // 256 threads (2 items) keep the decode-latency choice: per launch in a CUDA graph with PDL,
  // t128 / t256, two processes each, 128 rows: 1.472, 1.469 / 1.402, 1.405 us; isolated, median
  // us, interleaved, two rounds: 4.74, 4.70 / 4.67, 4.67 (48 rows); 4.96, 4.96 / 4.86, 4.90
  // (128); 5.22, 5.18 / 5.18, 5.18 (200) (H200, bf16; twenty-first run, tpr256-iso.txt,
  // compare-tpr256.txt).
  if (!info.residual && vectors == 512 && p.rows >= kPinWeightRows && p.rows < kBulkRowsRmsnorm) tpr = 128;
  // And 8 items, 256 threads, for rows of 2048 vectors (hidden 16384) from kLateWeightRows to
  // kBulkRowsRmsnorm rows; the row then fills the data budget, so the weight is loaded after
  // the reduction (choose_residency gives residency 1). H200, bf16, median us, t512 held / this,
  // two runs each of sessions 7 and 8: 20.06/19.81, 20.10/19.68 (1024 rows); 35.17/34.40,
  // 35.23/34.37 (2048); 66.30/65.89, 66.85/65.66 (4096); 130.1/130.0 (8192) but 12.26/12.48 (512)
  // (docs/results/h200-2026-11-30-s8/ab-16384-t256lw.txt).
  if (!info.residual && vectors == 2048 && p.rows >= kLateWeightRows && p.rows < kBulkRowsRmsnorm) tpr = 256;
  // Rows of 256 vectors in one CTA (hidden 2048) below kPinWeightRows rows: one vector per
  // thread on 256 threads, not two on 128. The fused add: H200, bf16, isolated calls (L2 cleared),
  // median us, t128 / t256, two rounds in one run (fifteenth run, tpr-ab.txt): 4.74/4.42,
  // 4.77/4.38 (1 row); 4.80/4.48, 4.64/4.51 (8); 4.74/4.58, 4.77/4.58 (32); 5.06/4.80, 4.96/4.96
  // (128); even at 512 and 2048 rows (6.24/6.24, 11.46/11.36). Per launch in a CUDA graph with
  // PDL: 1.028/1.016, 1.081/1.050, 1.126/1.080, 1.582/1.599 (tpr-latency.txt). rmsnorm's rows of
  // 256 vectors too, for their decode graphs: isolated they gained little (fifteenth run: 4.35/4.32
  // at 1 row ... 8.00/8.35 at 2048 rows; twenty-first run, two rounds: 4.19, 4.22 / 4.13, 4.19
  // (1 row); 4.22, 4.29 / 4.22, 4.22 (8); 4.48, 4.48 / 4.35, 4.45 (32); 4.67, 4.61 / 4.64, 4.64
  // (128); 4.74, 4.74 / 4.77, 4.74 (200)), but per launch in a CUDA graph with PDL, two processes
  // each, us: 0.968, 0.970 / 0.960, 0.957 (1 row); 1.009, 1.009 / 0.996, 0.995 (8); 1.014, 1.013 /
  // 1.003, 1.003 (32); 1.147, 1.148 / 1.133, 1.129 (128) (H200, bf16; call 2,
  // tpr256-2048-iso.txt, compare-tpr-call2.txt).
  if (c.cluster == 1 && vectors == 256 && p.rows < kPinWeightRows) tpr = 256;
  c.threads_per_row = tpr;
  // Small rows share a block so that a block has at least 128 threads; rows of >= 128 threads
  // get a block each. More rows per block lost wherever timed (H200, bf16, 8192 / 32768 rows,
  // us): hidden 2048 rmsnorm t128 1 row 18.37 / 64.16, 2 rows 18.37 / 64.35, 4 rows 18.88 /
  // 66.14 (torch.compile max-autotune's shape there), 8 rows 24.80 / 89.38; hidden 4096 t256
  // re-read 1 row 32.61 / 125.09, 2 rows 40.00 / 152.99 (fourteenth run, rpb.txt).
  c.rows_per_block = tpr >= 128 || c.cluster > 1 ? 1 : 128 / tpr;
  // Without a cluster (sm_80; sm_90+ takes the 4-CTA cluster above), a few rows of 1024 vectors
  // (hidden 8192) written out of place: two CTAs share each row, each
  // reading the whole row (the second read hits L2) and writing half of it, so twice the SMs
  // move the weight and the output. In a CUDA graph with PDL (L2-hot data), H200, bf16, us per
  // launch, t256 alone / t256 split 2, same run: 1.391/1.240 (1 row), 1.473/1.321 (8),
  // 1.540/1.375 (32), 1.872/2.168 (128); isolated with the L2 cleared equal within 0.05 us up to
  // 32 rows. At hidden 4096 it lost in graphs (1.060/1.183, 1 row), at 16384 isolated it made no
  // difference; 4 CTAs of 128 threads ran 1.223 us at 1 row in graphs but 0.4 us slower isolated
  // (session 6, docs/results/h200-2026-11-30-s6/split-ab.txt, latency-split.txt).
  if (!info.residual && !p.out_aliases_input && c.cluster == 1 && vectors == 1024 && p.rows <= kFewRowsMax) {
    c.threads_per_row = 256;
    c.rows_per_block = 1;
    c.split = 2;
  }
  c.residency = choose_residency(c, info.residual);
  // Plain loads, except for the fused add with rows of >= 16384 elements, where each block holds
  // two 32+ KiB rows (x and r): there streaming loads ran 1065 us against 1263 us plain (32768
  // rows, H200) and 71.8 against 79.3 us at 2048 rows. Not for the few rows' 512-vector shares.
  c.loads = info.residual && p.hidden >= 16384 && vectors >= 2048 ? 1 : 0;
  // Except for fewer than kStreamRowsFusedAdd rows of 2048 vectors (hidden 16384): 512 threads
  // holding the sum and the weight, plain loads. H200, bf16, median us, t1024 streaming / this,
  // same run: 5.98/5.76 (1 row), 8.35/7.90 (128), 19.71/18.53 (512), 69.15/67.58 (2048),
  // 133.79/132.80 (4096), 263.84/264.03 (8192); 1 to 32 rows within +-0.15 (session 5).
  if (info.residual && c.cluster == 1 && vectors == 2048 && p.rows < kStreamRowsFusedAdd) {
    c.threads_per_row = 512;
    c.residency = 0;
    c.loads = 0;
  }
  // After the rule above, which may reshape the CTA; the wide-row rule below re-derives it.
  c.min_blocks = choose_min_blocks(c);
  // The late-weight bf16 rmsnorm rows of 2048 16-byte vectors on 256 threads (kLateWeightRows to
  // kBulkRowsRmsnorm, the rule above) are declared for the 3 CTAs an SM they hold (80 registers),
  // as the bulk re-read below (f16 rows take 48 registers, 5 CTAs, and were not timed declared):
  // H200, bf16, median us, unbounded / 3, interleaved, two rounds
  // (seventeenth run, mid16384-compare.txt): 32.61/32.29, 32.74/32.48 (2048 rows); 64.45/63.65,
  // 65.25/64.64 (4096); 18.82/18.94, 18.94/18.91 (1024). Other shapes there lost: t512 held
  // 1.6-2.2 %, t512 re-read at 3 CTAs 1.6-3.6 % (but 4096 rows 0.987), t1024 1.1-4.8 %.
  if (!info.residual && c.cluster == 1 && vectors == 2048 && c.threads_per_row == 256 && c.residency == 1 &&
      c.input_dtype == DType::bf16)
    c.min_blocks = declared_ctas(3);
  // Many rows of 4096-8192 elements: re-read the row from L2 (residency 2) with an evict-last
  // hint on the first read and evict-first on the second (loads 3), which is what
  // torch.compile's looped reduction does. H200, bf16, median us, default vs this, same run
  // (the rmsnorm defaults of then, t256 / t512 rows held; the held rows above now win below
  // kBulkRowsRmsnorm = 8192, and at 32768 rows the re-read still wins: 4096 130.18/126.59, 8192
  // 257.44/250.43):
  // rmsnorm 4096: 6.53/6.34 (512 rows), 12.13/11.87 (2048), 129.6/127.2 (32768); rmsnorm 8192:
  // 9.12/8.13, 19.87/19.46, 257.7/250.1 (100.4 % of copy); rmsnorm 16384: no gain (12.29/14.02
  // at 512 rows). Fused add 8192: 529.2/509.9 at 32768 rows, and in session 7 (held t512 /
  // re-read, two runs): 34.75/36.51 (2048 rows), 67.04/67.97 (4096), 132.13/130.18 (8192),
  // 262.34/254.85 (16384), hence kBulkRowsFusedAdd 8192; at 4096 slower at 512 and 2048 rows
  // (7.97/8.67, 18.40/19.84). Fused add 2048 (256 vectors), session 7 sweeps: held t128 with
  // per-item stores / re-read on one vector per thread (t256): 33.89/33.25 (8192 rows),
  // 128.90/126.24 (32768; t128 re-read 127.68) (docs/results/h200-2026-11-30-s7).
  // Fewer rows than kBulkRows* are latency-bound, where the second L2 trip would add to it.
  // Since the hinted loads carry L1 eviction priorities as well, rmsnorm rows of 2048 16-byte
  // vectors (hidden 16384 in 16-bit types) re-read on 512 threads (4 items each) beat holding
  // them: H200, bf16, median us, same run, held t512 130.59 / 509.34 (8192 / 32768 rows), re-read
  // t512 128.13 / 498.75, t1024 re-reading 2 items 133.73 / 522.37 (thirteenth run, forced.txt);
  // re-read t512 with the L2 hint alone 131.01 / 509.89 (weight-ab.txt). Since 1024-thread rows
  // reduce their warp sums by shuffles (reduce.cuh), t1024 runs 128.90 / 505.41 against t512's
  // 128.70 / 500.74 (fourteenth run, reduce-ab.txt): t512 stays. Declared for 3 CTAs an SM
  // (__launch_bounds__(512, 3)), which it held already (34 registers, allocated as 40): ptxas then
  // takes 40 and orders the prologue and address arithmetic differently (scripts/sass.sh), the
  // loads and stores stay in the same places. Why that is faster was not found; that it is, was
  // measured. H200, median us, interleaved in one process,
  // two rounds (seventeenth run, floor-compare.txt), unbounded / 3: bf16 128.06/126.27,
  // 128.16/126.34 (8192 rows); 189.98/188.42, 190.27/188.42 (12288); 251.49/250.11,
  // 252.03/250.37 (16384); 374.85/374.72, 375.42/374.85 (24576); 498.91/499.14, 498.91/499.52
  // (32768); f16 127.23/125.92, 127.30/125.92 (8192), 498.94/499.42, 498.40/499.17 (32768). 4
  // CTAs (32 registers) lost 1.8-4.1 % (bulk-compare.txt). fp32 rows of 2048 vectors were not
  // measured.
  const bool wide_reread = !info.residual && vectors == 2048 && dtype_size(c.input_dtype) == 2;
  // The fused add's 16-bit rows of 2048 vectors (hidden 16384) too, on the 1024 threads that
  // streamed them, declared for 2 CTAs an SM (32 registers). Found by a sweep of 8192 x 16384
  // (session 53, call 1). H200, median us, interleaved in one process, two rounds (call 2,
  // docs/results/h200-2026-12-04-s53, fa-r*-call2.txt), streamed (the default then) / this /
  // this without the floor: bf16 8192 rows 259.04, 258.34 / 254.56, 255.07 / 260.13, 260.06;
  // 16384 519.42, 518.85 / 504.45, 505.70 / 517.41, 518.08; 32768 1031.46, 1029.54 / 1001.82,
  // 1004.06 / 1024.38, 1025.09; f16 alike (8192 259.17, 259.23 / 254.62, 254.34; 32768 1031.52,
  // 1030.66 / 1002.21, 1004.45). 512 threads at 3 CTAs lost 4-10 %. Below kStreamRowsFusedAdd
  // rows the held 512 threads stay: 4096 rows 128.83, 128.80 against 130.18, 130.14 re-read. An
  // fp32 weight too (session 55, call 6, fbig-r*-call6.txt, bf16 rows, streamed / this): 8192
  // rows 262.24, 262.21 / 256.61, 256.96; 32768 1037.57, 1038.37 / 1011.87, 1010.11.
  const bool fused_wide_reread = info.residual && vectors == 2048 && dtype_size(c.input_dtype) == 2 &&
                                 (c.weight_dtype == c.input_dtype || c.weight_dtype == DType::f32) &&
                                 c.threads_per_row == 1024;
  const bool bulk = info.residual ? p.rows >= kBulkRowsFusedAdd && (vectors == 1024 || vectors == 256 || fused_wide_reread)
                                  : p.rows >= kBulkRowsRmsnorm && vectors > 256 && (vectors <= 1024 || wide_reread);
  if (bulk && c.cluster == 1 && c.threads_per_row * (wide_reread ? 4 : 2) >= vectors) {
    c.residency = 2;
    c.loads = 3;
    if (info.residual && vectors == 256) c.threads_per_row = 256;
    // Declared for 3 CTAs an SM (see above): rmsnorm rows of 2048 vectors, and the fused add's
    // rows of 1024 (hidden 8192), which held 3 already too (37 registers, allocated as 40): H200,
    // bf16, median us, unbounded / 3, interleaved, two rounds (seventeenth run, minb-compare.txt):
    // 130.50/128.51, 130.43/127.90 (8192 rows); 505.98/506.40, 507.04/506.43 (32768). Where a
    // kernel held 4 or more CTAs (32 registers: rmsnorm rows of 512-1024 vectors; the fused add's
    // per-item stores of 512 at 40) the declarations changed nothing or lost (same file).
    if (wide_reread || (info.residual && vectors == 1024))
      c.min_blocks = declared_ctas(3);
    if (fused_wide_reread) c.min_blocks = declared_ctas(2);
    // From kWideRereadTwoCtaRows rows, rmsnorm's (not gemma's) rows of 2048 vectors are declared
    // for 2 CTAs an SM instead (42 registers: 1024 threads an SM, not 1536). H200, median us, 3 / 2,
    // interleaved in one process, two rounds (session 51, calls 6-7, docs/results/
    // h200-2026-12-04-s51): bf16 32768 rows 500.80, 500.32 / 498.21, 498.14 (unbounded 510.62,
    // 511.65: 40 registers); f16 500.96, 500.64 / 497.06, 496.93; at 16384 rows bf16 251.55, 252.16 /
    // 250.62, 249.57 but f16 level (250.37, 250.66 / 251.07, 250.56), at 8192 level or behind
    // (f16 126.91, 126.34 / 127.74, 125.95); gemma level at 32768 (bf16 500.19, 500.06 / 499.97,
    // 499.90) and behind at 8192 (bf16 126.66, 126.37 / 127.23, 126.94). The output hint on the
    // tail added nothing under either floor (call 6: 498.56, 498.59 with it). Not with an fp32
    // weight, which keeps 3: bf16 rows, 32768 rows, 3 / 2 (session 55, call 6, big-r*-call6.txt)
    // 499.04, 498.88 / 522.02, 521.92 (1024 threads at 2 546.91, 256 at 4 578.59).
    if (wide_reread && !info.gemma && c.weight_dtype == c.input_dtype && p.rows >= kWideRereadTwoCtaRows)
      c.min_blocks = declared_ctas(2);
  }
  // Between kWaveRowsPerSmLow and kWaveRowsPerSmHigh rows an SM, rmsnorm rows of 2048 16-byte
  // vectors (hidden 16384) re-read on 512 threads at 4 CTAs an SM (32 registers; ptxas spills 8
  // bytes a thread, one store and one load, measured as is) with the hints by
  // pass: the whole call is then one wave, where the held rows' 2 CTAs an SM take two (what
  // torch.compile's kernel there does, sixteenth run, inductor-512x16384.txt). H200 (132 SMs),
  // bf16, median us, held t512 (the default before) / this, interleaved in one process
  // (seventeenth run, window-compare.txt): 8.58/8.38 (265 rows), 9.41/8.96 (320), 10.02/9.73
  // (384), 11.20/10.85 (448), 11.97/11.55 (512), 12.32/11.87 (528); gemma 512 12.22/11.68, f16
  // 512 11.97/11.78; but 7.78/8.42 (256, where the held rows fit one wave too), 12.32/12.19
  // (529), 14.18/14.98 (640), 16.03/16.19 (768). Beside the peers, 512 x 16384 went from 1.035
  // to 0.984 of torch.compile (peers-window.txt). Other SM counts scale the window (measured on
  // 132 only); other archs were not measured. Not the fused add (its fp32 sum re-read lost:
  // 18.50/23.49 at 512 rows).
  if (!info.residual && arch.cc == 90 && arch.sms > 0 && wide_reread && c.cluster == 1 &&
      p.rows > kWaveRowsPerSmLow * arch.sms && p.rows <= kWaveRowsPerSmHigh * arch.sms) {
    c.threads_per_row = 512;
    c.rows_per_block = 1;
    c.residency = 2;
    c.loads = 3;
    c.min_blocks = declared_ctas(4);
  }
  // Rows whose vector count is not a power of two (timed in 16-bit types; fp32 at the end of this
  // comment): the rules above round the threads up and leave the last item part-filled (hidden
  // 5120 on 512 threads: 1.25 items), and rmsnorm's bulk re-read was tuned on rows of 512 and
  // 1024 vectors. Fewer threads holding the row ran faster. H200, bf16, median us, interleaved in one process, default then / this
  // (session 24, docs/results/h200-2026-12-01-s24, npot-call6.txt, narrow-fused-call5.txt):
  // - rmsnorm rows of 513-1023 vectors (hidden 5120-7168) from kPinWeightRows rows, 128 threads,
  //   plain loads: 5120 x 256 5.73/5.57, 512 7.46/6.50, 2048 14.46/13.06, 8192 55.52/39.94 (re-read
  //   then), 32768 216.00/159.23; 5376 x 512 7.58/6.78, 32768 219.97/167.23; 6144 x 512 7.74/7.01,
  //   32768 231.17/191.04; 7168 x 512 8.03/7.36, 2048 16.99/16.70, 32768 253.89/223.74; even at 256
  //   rows (5376 5.73/5.76, 6144 5.92/5.89, 7168 6.08/6.14).
  // - rmsnorm rows of 257-511 vectors (hidden 2560-3584) from kBulkRowsRmsnorm rows, where the
  //   re-read took them: 64 threads, two rows a block, the re-read's load hints kept as timed:
  //   2560 x 8192 26.11/22.34, 32768 96.32/82.53; 3072 x 8192 28.99/25.95, 32768 104.90/98.69; 3584
  //   x 8192 32.74/30.30, 32768 117.44/115.04 (128 threads 0-2 % behind; below 8192 rows the held
  //   256 threads stay: 2048 x 3584 10.43, 10.40 on 64).
  // - The fused add's rows of 513-768 vectors (hidden 5120-6144) from kPinWeightRows rows, 128
  //   threads: 5120 x 256 6.72/6.43, 512 9.18/8.51, 1024 13.44/12.90, 2048 22.18/21.44, 4096
  //   42.40/39.62, 8192 83.71/79.68, 32768 331.39/318.46 (f16 332.90/318.50); 5376 x 512 9.47/8.77,
  //   32768 344.35/335.01; 6144 x 512 10.11/9.25, 8192 96.45/95.39, 32768 383.71/383.39. Not rows of
  //   896 (7168): 1024 rows 16.64/17.06, 32768 444.54/449.15 (the 2-CTA declaration below).
  // - The fused add's rows of 257-511 vectors (hidden 2560-3584) from kPinWeightRows rows, 128
  //   threads, residual stores after all loads (the per-item stores below were timed on rows of
  //   256 and 512 vectors; here they lost): H200, bf16, median us, interleaved, default then
  //   (256 threads, per-item stores from 8192 rows) / this (session 25,
  //   docs/results/h200-2026-12-01-s25, narrow-fused-call1.txt, narrow-dtypes-call1.txt): 2560 x
  //   512 6.46/6.37, 1024 9.31/8.35, 2048 13.70/13.25, 4096 22.78/21.47, 8192 43.20/39.52, 16384
  //   84.58/78.50, 32768 167.04/157.38 (f16 168.8/158.3, gemma 167.9/158.0); 3072 x 1024
  //   9.86/8.96, 8192 50.24/46.98, 32768 195.01/190.24; 3584 x 1024 10.53/9.98, 8192 57.89/55.20,
  //   32768 223.90/222.82. The bulk re-read on 256 threads ran 158.14 at 32768 x 2560 but lost
  //   2.8-7.5 % below 8192 rows.
  // - The fused add's rows of 1025-2047 vectors (hidden 10240-14336) from kPinWeightRows rows:
  //   512 threads holding the row (2.5-3.5 items) with its fp32 sum, declared for 2 CTAs an SM,
  //   not 1024 threads with the weight loaded late: 10240 x 256 9.22/8.51, 512 14.27/13.12, 2048
  //   44.96/40.61, 8192 171.30/160.19, 32768 674.21/639.10; 12288 x 256 9.82/9.34, 2048
  //   51.94/48.32, 8192 195.71/193.18, 32768 770.72/770.05; 14336 x 2048 58.05/56.42, 32768
  //   895.81/898.02 (mid-fused-call1.txt).
  // - rmsnorm rows of 1025-2047 vectors from kPinWeightRows rows, where 512 threads held the
  //   row: up to 1280 vectors (hidden 10240, 5 items) 256 threads holding it, 10240 x 512 even
  //   (9.38 and 8.96 in two rounds / 9.22), 1024 14.62/13.41 (call 2), 2048 24.22/22.08, 8192 89.44/78.91, 32768 349.73/316.61; wider, 512
  //   threads re-reading with the L1/L2 hints by pass: 12288 x 512 10.24/9.76, 1024 16.42/15.55
  //   (call 2), 2048 28.00/25.89, 8192 100.96/95.30, 32768 396.80/375.20 (101 % of copy); 14336 x
  //   512 11.33/11.20, 1024 18.05/17.76, 2048 31.26/31.42, 8192 113.92/112.26, 32768 446.62/440.54
  //   (mid-rms-call1.txt, mid-rms-call2.txt; 1024-thread re-reads lost 24-34 %; 128 threads at
  //   10240 no faster, t128-10240-call2.txt). Fewer than 512 rows were not measured. From
  //   kHintedWideRows to kBulkRowsRmsnorm rows the held row with the weight loaded after the
  //   reduction beat the re-read (call 4's sweep at 2048 x 14336: 29.66 against 31.52); re-read
  //   / this, interleaved (lw-rms-call5.txt): 12288 x 2048 25.89/25.60, 8192 95.26/95.39; 14336
  //   x 2048 31.30/29.09, 8192 112.13/111.26; but 512 rows 9.57/10.53 and 11.01/11.68, 32768
  //   375.33/384.42 and 439.01/446.02. At 10240 it made no difference (318.98/318.34 at 32768).
  // fp32 rows of 640 and 1280 4-vectors (hidden 2560 and 5120) gained from the same layouts (fp32,
  // median us, default then / this, f32-call2.txt): rmsnorm 2560 x 512 7.36/6.56, 8192
  // 51.42/38.75, 32768 201.34/158.62 (the re-read then); 5120 x 512 9.31/8.67, 8192 87.81/81.66,
  // 32768 344.22/321.57; the fused add 2560 x 512 8.96/8.67, 32768 318.62/320.35; 5120 x 512
  // 13.98/13.66, 32768 639.84/640.13. The other fp32 rows (session 26,
  // docs/results/h200-2026-12-01-s26, f32-narrow-*-call2.txt, f32-wide-*-call2.txt; fp32, median
  // us, interleaved in one process, default then / this):
  // - rmsnorm's rows of 257-511 4-vectors (hidden 1152-1920) from kPinWeightRows rows on 128
  //   threads holding the row, not bf16's 64 x 2 with the re-read's hints (1-3 % behind 128 at
  //   8192-32768 rows, 3-11 % at 2048): 1152 x 2048 8.54/8.16, 8192 23.14/19.94, 32768
  //   81.92/70.69; 1536 x 2048 9.57/9.34, 8192 27.68/24.70, 32768 101.50/94.62; 1920 x 2048
  //   10.88/10.66, 8192 32.80/30.24, 32768 120.16/118.91; 512 rows within +-1.1 %. The fused
  //   add's alike, as bf16's: 1152 x 2048 12.80/12.32, 32768 145.95/143.94; 1536 x 8192
  //   50.40/49.15; 1920 x 8192 62.18/61.38, but 512 rows 7.39/7.62.
  // - rows of 1281-2047 4-vectors (hidden 6144, 7168): the fused add as bf16's, within -1.5/+0.8 %
  //   (6144 x 512 15.26/15.04, 32768 773.50/770.82; 7168 x 512 16.67/16.80, 32768 901.50/900.48);
  //   rmsnorm held with the weight late from kHintedWideRows to kBulkRowsRmsnorm rows, as bf16's:
  //   6144 x 2048 25.18/24.93, 7168 x 2048 29.92/28.93. bf16's re-read elsewhere: at 512 rows it
  //   lost (6144 9.41/9.76), from 8192 rows mixed (6144 x 32768 384.99/375.74, 7168 x 32768
  //   438.46/439.78, and 448.22 with the predicated loads of the rule below), so fp32 keeps 512
  //   threads holding the row there.
  const bool fp32 = dtype_size(c.input_dtype) == 4;
  if (c.cluster == 1 && c.split == 1 && (row_vectors & (row_vectors - 1)) != 0) {
    auto hold = [&](int threads, int rows_per_block) {
      c.threads_per_row = threads;
      c.rows_per_block = rows_per_block;
      c.residency = 0;
      c.loads = 0;
      c.min_blocks = 0;
    };
    // One row a block on `threads` threads, read twice with the L1/L2 hints by pass.
    auto reread = [&](int threads) {
      hold(threads, 1);
      c.residency = 2;
      c.loads = 3;
    };
    if (row_vectors > 256 && row_vectors < 512) {
      // 16-bit rmsnorm (session 28, docs/results/h200-2026-12-01-s28; H200, median us,
      // interleaved in one process, default then / this):
      // - From kRereadNpotRows rows re-read with the hints by pass, on 128 threads where the last
      //   of 2 items would be less than half filled (rows of up to 383 vectors; 2.25-2.5 items
      //   on 128), else on 256 declared for 8 CTAs an SM (1.5-1.75 items), where 64 threads x 2
      //   rows held them (reread-r1-call5.txt, reread-gemma-call5.txt, reread3072-call4.txt):
      //   bf16 2304 x 16384 37.73/36.42, 32768 73.98/71.71; 2560 x 16384 41.60/40.26, 32768
      //   82.53/79.49; 3072 x 16384 49.54/47.84, 32768 98.24/94.18 (49.92/48.22, 98.37/94.34 in
      //   call 4); 3584 x 16384 58.05/56.45, 32768 114.85/109.73; f16 alike (2.6-4.4 %), gemma
      //   3072 3.8-4.4 %. With the rule (rule-check-call7.txt), held 64 x 2 / this: 2816 x 16384
      //   45.82/44.61, 32768 90.24/87.78; 3328 x 32768 106.85/102.40; gemma 2304-3328 1.1-3.9 %.
      //   The other thread count lost or gained less (256 at 2304-2816 1.2-9 % slower than 128;
      //   128 at 3072-3584 up to 1.9 % slower than 256, 0.5 % faster once, at 3328 x 16384); at
      //   8192 rows neither gained (128: 0.987-1.033, 256: 0.996-1.066).
      // - From kPinWeightRows rows, rows of up to 384 vectors (2304-3072) held on 128 threads,
      //   not 256 (t128-r*-call5.txt, t64-r*-call4.txt): bf16 1024 rows 0.922-0.983 of the
      //   default, 2048 0.957-0.993, 4096 0.974-0.994; f16 1024 rows 0.991-1.023, 2048
      //   0.952-0.993, 4096 0.985-1.002; 256-512 rows within +-2.5 % either way. Rows of 448
      //   (3584) gained nothing (0.979-1.036).
      if ((info.residual || fp32) && p.rows >= kPinWeightRows) {
        hold(128, 1);
      } else if (!info.residual && p.rows >= kRereadNpotRows) {
        reread(row_vectors < 384 ? 128 : 256);
        if (row_vectors >= 384) c.min_blocks = declared_ctas(8);
      } else if (!info.residual && p.rows >= kBulkRowsRmsnorm) {
        hold(64, 2);
        c.loads = 3;  // as timed: the re-read's hints (choose_rms_norm's bulk rule) kept
      } else if (!info.residual && row_vectors <= 384 && p.rows >= kPinWeightRows) {
        hold(128, 1);
      }
    } else if (row_vectors > 512 && row_vectors < 1024 && p.rows >= kPinWeightRows &&
               (!info.residual || row_vectors <= 768)) {
      hold(128, 1);
    } else if (row_vectors > 1024 && row_vectors < 2048 && p.rows >= kPinWeightRows) {
      // With an fp32 weight beside 16-bit rows of more than 3 items on 512 threads (hidden
      // 12296-16376) the fused add's held row spills under the floor of 2 (56-88 bytes): there the
      // weight is loaded after the reduction, without a floor. H200, bf16 rows, hidden 14336,
      // median us, one process (session 55, call 7, fspill-r1-call7.txt), floor 2 / no floor /
      // this / 1024 threads, weight late: 2048 rows 74.62 / 59.84 / 57.92 / 71.74; 8192 280.70 /
      // 229.79 / 225.95 / 289.31. As the rule (call 8, rule-r1-call8.txt), floor 2 / this: bf16 512
      // x 14336 20.99 / 17.34, 15360 22.14 / 18.11; 8192 x 14336 279.49 / 225.82, 15360 294.82 /
      // 241.86; f16 alike (8192 x 15360 301.02 / 241.70).
      const bool f32_weight = f32_weight_16bit_vectors(c);
      if (info.residual && f32_weight && row_vectors > 3 * 512) {
        hold(512, 1);
        c.residency = 1;
      } else if (info.residual) {
        hold(512, 1);
        c.min_blocks = declared_ctas(2);
      } else if (row_vectors <= 1280) {
        hold(256, 1);
      } else {
        // From kHintedWideRows to kBulkRowsRmsnorm rows held, the weight loaded after the
        // reduction (residency 1); re-read with the hints by pass otherwise (16-bit rows only).
        const bool late_weight = p.rows >= kHintedWideRows && p.rows < kBulkRowsRmsnorm;
        if (late_weight) {
          hold(512, 1);
          c.residency = 1;
        } else if (!fp32) {
          reread(512);
          // A re-read row of more than 3 items a thread (1537-2047 vectors) is declared for 4 CTAs
          // an SM: with its part-filled last item's load predicated (common.cuh: load_chunk_if),
          // all 4 of the first pass's loads are in flight at once, and ptxas then took 36 registers
          // (3 CTAs an SM) unless bounded to 32. H200, bf16, median us, the branched template
          // (8abe787) / predicated / predicated and declared, one process each (session 26,
          // docs/results/h200-2026-12-01-s26, pred-rms-mid-call3.txt, minb4-*-call4.txt): 14336 x
          // 512 11.20/12.61/11.07, 8192 112.22/117.66/112.35, 32768 440.35/454.82/439.39; 15360 x
          // 512 11.65/13.09/11.52, 32768 474.56/470.66/472.83; 13312 x 8192 104.16/113.38/104.80.
          // Where the predicate costs no occupancy it gained: 11264 x 512 9.82/9.34, 8192
          // 91.39/87.20 (2.75 items); the one-CTA re-read of 1024 threads, 20480 x 2048
          // 49.34/41.92, 8192 192.58/157.31, 28672 x 8192 225.50/222.75 (pred-rms-wide-call3.txt);
          // 3584 x 8192 on 64 threads x 2 rows 31.39/30.50. fp32 rows of 1792 4-vectors re-read
          // lost 1.3-2 % with it (439.62/448.22 at 32768 rows, declared or not), so fp32 keeps its
          // rows held there.
          // With an fp32 weight it spills 16 bytes there, and from kBulkRowsRmsnorm rows 3 CTAs
          // ran faster (bf16 rows, 14336, 4 / 3 / none, session 55, call 7, rspill-r1-call7.txt):
          // 8192 rows 120.64 / 111.84 / 118.11, 32768 464.38 / 435.94 / 453.82; but 512 rows 12.35
          // / 13.06 / 13.47. As the rule (call 8, rule2-r1-call8.txt), 4 / 3: 8192 x 13312 113.34 /
          // 104.35, 15360 128.77 / 119.74; 32768 x 13312 434.02 / 405.79, 15360 498.11 / 468.58.
          if (row_vectors > 3 * 512) c.min_blocks = declared_ctas(f32_weight && p.rows >= kBulkRowsRmsnorm ? 3 : 4);
        }
      }
    }
    // From kRereadNpotRows rows, rmsnorm rows of 896-1280 vectors (hidden 7168-10240 in 16-bit
    // types, 3584-5120 in fp32) re-read on 512 threads with the hints by pass, where they were held
    // on 128 or 256 threads: torch.compile's plan at 7168 (1.75 items a thread), which lost before
    // a part-filled item's hinted load was predicated (11f25a3) and now runs at its speed (ncu at
    // 32768 x 7168: compile's kernel 215.81 us, this one 217.31, the held one 225.38). H200, median
    // us, interleaved in one process, held / re-read (session 27, docs/results/h200-2026-12-01-s27,
    // npot-reread-*-call2.txt, reread-*-call3.txt, two rounds): bf16 7168 x 8192 55.65/57.89, 12288
    // 83.78/84.29, 16384 111.17/110.72, 32768 223.68/219.20; 9216 x 12288 107.39/106.53, 16384
    // 142.21/140.93, 32768 284.42/280.80; 10240 x 8192 79.42/80.06, 12288 119.55/118.18, 16384
    // 158.14/156.86, 32768 318.72/312.22; fp32 3584 x 8192 55.46/56.64, 16384 111.04/109.79, 32768
    // 223.87/218.08; 4608 x 16384 143.84/140.58, 32768 287.81/280.45; 5120 x 16384 160.16/157.02,
    // 32768 321.28/311.87. f16 and gemma alike at 8192-12288 rows (gemma bf16 7168 x 12288
    // 83.78/85.82). Not rows of 768 vectors or fewer (1.5 items or fewer): 6144 x 32768
    // 190.82/196.10, 5120 x 32768 159.01/177.12; nor 832 (6656) at 8192-12288 rows (51.58/53.89,
    // 77.50/80.00; more rows not timed). 256 threads re-reading ran within 1 % of the held row at
    // 5120-7168 and lost 2-4 % at 9216-10240 and in fp32.
    if (!info.residual && row_vectors >= 896 && row_vectors <= 1280 && p.rows >= kRereadNpotRows) reread(512);
  }
  // The fused add's bf16 rows of 1025-2047 vectors (hidden 8200-16376, a weight of their own
  // type, gemma too) held on 1024 threads with the weight loaded after the reduction, from
  // kFewRowsMax to kPinWeightRows rows on sm_90+, compile at ptxas's register usage level 2
  // (KernelConfig::reg_usage): at the default level ptxas issues the part-filled second item's
  // two row loads after the first item's data has arrived (scripts/late_loads.py over the sm_90a
  // SASS: two late at every width 8320-16376, none at level 2; 32 registers, no stack either
  // way; f16's kernel issues them together and gained nothing). H200, median us, interleaved in
  // one process, default / level 2, two rounds (session 57, call 1, docs/results/
  // h200-2026-12-04-s57, few-r*-call1.txt): 64 rows 9216 6.69, 6.59 / 6.14, 6.11; 10240 6.69,
  // 6.78 / 6.14, 6.27; 12288 6.88, 6.88 / 6.24, 6.40; 14336 6.88, 6.88 / 6.66, 6.62; 15360 6.91,
  // 6.98 / 6.72, 6.75; 128 rows 9216 7.49, 7.52 / 7.01, 6.98; 10240 7.55, 7.58 / 7.17, 7.20;
  // 12288 7.78, 7.84 / 7.68, 7.71; 14336 and 15360 level; gemma alike (64 x 12288 6.82, 6.85 /
  // 6.43, 6.46). At 200 rows within -3/+1.3 % (12288 9.06, 9.15 / 9.22, 9.15; 15360 9.98, 10.14
  // / 9.92, 9.86). Level 0 ran as level 2. The fp32 fused add's held rows of 9216-10240 gained
  // nothing from it (f32-r*-call1.txt), nor were sm_80's kernels or 32 rows and fewer timed.
  if (info.residual && arch.cc >= 90 && c.input_dtype == DType::bf16 && own_weight_16bit_vectors(c) &&
      c.cluster == 1 && c.threads_per_row == 1024 && c.residency == 1 && row_vectors > 1024 && row_vectors < 2048 &&
      p.rows > kFewRowsMax && p.rows < kPinWeightRows)
    c.reg_usage = 2;
  // Many rows wider than 2048 vectors (sm_90+, where the cluster split above applies). The
  // split into 512-1024-thread CTAs holding the row ran at 62-77 % of copy at 1024 rows; what ran
  // faster, H200, bf16, median us, default before / this, same run: rmsnorm, one CTA per row of
  // up to 4096 vectors re-read from L2: 43.9/35.9 (hidden 32768); wider, 2048-vector shares on
  // CTAs of 256 threads re-reading: 89.8/82.5 (65536), 194.7/162.0 (131072), 402.7/380.1
  // (262144). Fused add, a row of up to 4096 vectors on one 1024-thread CTA holding the fp32 sum,
  // the weight loaded after the reduction (residency 1), plain loads: 1024 x 32768 ~78.5/68.3
  // (92.0 % of copy; Liger 68.0), 8192 x 32768 573.2/522.4; the same held early (residency 0)
  // 69.8/523.6, re-read 78.2/627.4, on 2-CTA clusters of 1024 threads 80.7/611.2 (session 5,
  // docs/results/h200-2026-11-30-s5). Wider: shares of <= 2048 vectors held on 512 threads
  // with plain loads: 173.5/150.9 (65536), 374.6/308.6 (131072) (its 4096-vector shares spill
  // so: 1659 us at 262144), wider shares re-read on 256 threads: 914.8/832.2 (262144).
  bool held_share = false;  // rows held on 8 CTAs of 128 threads (below): pin the weight
  bool held_wide = false;   // rows held on one 1024-thread CTA (held_wide_row, below)
  bool fused_part_reread = false;  // the fused add's part-filled rows re-read on 1024 threads
  bool late_share = false;         // the fused add's cluster shares with the weight loaded late
  // Rows of an odd count of 2049-4095 vectors (hidden an odd multiple of the vector), which no
  // cluster splits into equal shares, take the one-CTA layouts below as the even counts do; they
  // had been left to the 1024-thread re-read of narrower rows, which ran the fused add at 58 % of
  // copy. H200, bf16, median us, interleaved in one process, two rounds (session 56, call 3,
  // docs/results/h200-2026-12-04-s56, al-r*-call3.txt), that re-read at the odd count / the held
  // row at the even count 8 elements narrower: 1024 rows 25608 84.64, 84.58 / 54.08, 54.11; 27656
  // 93.76, 93.25 / 59.01, 59.17; 31752 110.27, 109.70 / 67.14, 67.14; 8192 rows 25608 702.11,
  // 702.56 / 404.51, 404.61; 31752 903.84, 904.54 / 500.70, 500.42. As the rule, against that
  // re-read (call 4, odd*-r*-call4.txt), two rounds: the fused add 1024 rows 16392 36.74, 36.80 /
  // 48.35, 48.48; 20488 44.51, 44.80 / 64.99, 65.34; 25608 55.30, 55.52 / 84.93, 84.99; 31752
  // 67.97, 68.10 / 110.46, 110.21; 8192 rows 16392 271.49, 273.02 / 398.98, 401.02; 25608 409.82,
  // 409.54 / 700.77, 700.16; 31752 512.83, 512.54 / 902.21, 902.21; f16 and gemma alike. rmsnorm
  // against the held row it had (without the floor, the reconversion or, from kBulkRowsRmsnorm,
  // the re-read): 1024 rows 16392 20.77, 20.77 / 24.13, 24.16; 25608 28.64, 28.51 / 32.67, 32.54;
  // 31752 34.46, 34.34 / 37.47, 37.47; 8192 rows 16392 134.08, 134.05 / 180.64, 180.61; 25608
  // 205.57, 205.70 / 230.82, 230.94; 31752 248.38, 248.06 / 264.32, 264.35. Only what was
  // measured: 16-byte vectors of 16-bit rows with a weight of their type (not fp32 rows nor 8-byte
  // vectors of hidden 8196-16380), or the fused add's with an fp32 weight (below), on sm_90+.
  // The fused add's odd counts with an fp32 weight beside 16-bit rows too, held on the 1024-thread
  // CTA as their even counts are (bf16 rows with a part-filled fourth item at register usage level
  // 2, below). H200, median us, interleaved in one process, two rounds (session 57, call 1,
  // docs/results/h200-2026-12-04-s57, oddw-r*-call1.txt), the 1024-thread re-read they had / held
  // / held at level 2: bf16 rows 1024 x 16392 45.86, 49.25 / 37.38, 37.15 / 37.31, 36.96; 1024 x
  // 20488 66.24, 65.57 / 45.41, 45.44 / 45.31, 45.18; 1024 x 25608 89.92, 89.47 / 58.59, 58.30 /
  // 56.19, 56.22; 1024 x 31752 115.90, 116.06 / 74.46, 74.40 / 69.38, 69.31; 8192 x 16392 380.10,
  // 376.99 / 269.18, 269.06 / 268.26, 268.06; 8192 x 25608 725.41, 724.86 / 433.09, 433.06 /
  // 413.15, 412.90; 8192 x 31752 950.24, 944.22 / 563.46, 563.10 / 518.94, 518.50; f16 rows alike
  // (8192 x 31752 935.90 / 522.11 / 520.29, level 2 within 1 % either way). Even counts with an
  // fp32 weight, held at the default level, ran 56.22 (1024 x 25600) and 514.69 (8192 x 31744)
  // in the same call (evenw-r1-call1.txt). rmsnorm's odd counts with an fp32 weight are held on
  // that CTA already (the rules above), untimed against these layouts.
  // The fused add's odd counts take the held row below kBulkRowsWide rows as well, where they were
  // re-read too (the even counts are split over clusters there). Median us, interleaved in one
  // process, two rounds (call 2, oddfew-r*-call2.txt), re-read / held / held at level 2, bf16
  // rows: 1 row 16392 7.07, 7.14 / 6.21, 6.24 / 6.21, 6.18; 25608 8.00, 8.06 / 7.49, 7.55 / 7.04,
  // 7.14; 31752 8.32, 8.45 / 7.78, 7.78 / 7.46, 7.46; 32 rows 25608 8.80, 8.86 / 8.22, 8.26 / 7.78,
  // 7.84; 128 rows 16392 9.12, 9.12 / 8.64, 8.70 / 8.64, 8.61; 25608 11.65, 11.78 / 11.42, 11.46 /
  // 10.88, 10.88; 511 rows 16392 23.01, 23.10 / 20.38, 20.26 / 20.26, 20.32; 25608 40.80, 40.80 /
  // 30.82, 31.04 / 29.79, 29.89; 31752 53.57, 53.54 / 37.92, 38.02 / 36.29, 36.32; but 256 x 16392
  // 12.54, 12.58 / 12.86, 12.93 / 12.93, 13.02. An fp32 weight alike (256 x 16392 14.05, 13.98 /
  // 13.38, 13.44; 511 x 31752 56.38, 56.22 / 39.04, 39.04 / 37.12, 37.15), f16 too (oddfew16:
  // 8 x 25608 8.13 / 7.33, 511 x 25608 40.58 / 29.82). Isolated calls with the L2 cleared: the
  // decode sizes' CUDA graphs (hidden <= 8192) have no odd count of this width.
  const bool odd_wide = arch.cc >= 90 && c.cluster == 1 && row_vectors > 2048 && row_vectors < 4096 &&
                        (own_weight_16bit_vectors(c) || (info.residual && f32_weight_16bit_vectors(c)));
  if ((c.cluster > 1 || odd_wide) && (p.rows >= kBulkRowsWide || (odd_wide && info.residual))) {
    if (row_vectors <= 4096) c.cluster = 1;
    if (!info.residual) {
      c.threads_per_row = c.cluster == 1 ? 1024 : 256;
      c.residency = 2;
      // The one-CTA re-read of up to 4096 16-byte vectors takes the L1/L2 hints by pass from
      // kHintedWideRows rows. H200, bf16, hidden 32768, median us, plain / hinted, two rounds in
      // one run (fifteenth run, reread-32768.txt): 35.81/36.61, 35.87/36.93 (1024 rows);
      // 132.13/128.64, 132.10/129.38 (4096); 261.31/252.16, 261.02/252.38 (8192, 96.1 -> 99.7 %
      // of copy). But rows of more than 2.5 vectors a thread read plainly up to
      // kHintedWidePlainBytes of output: with the output hint (choose_rms_norm's end, which they
      // take only with plain loads) they ran faster there than with the hinted loads, and slower
      // beyond. bf16, median us, hinted loads / plain loads and the output hint / plain loads
      // alone, two rounds (docs/results/h200-2026-12-02-s41, call 6, h-*, h28-*): 2048 x 32768
      // (128 MiB) 68.0 / 66.8 / 69.5; 2048 x 28672 (112 MiB) 60.9 / 57.6 / 59.4; 2048 x 24576
      // (96 MiB) 50.3 / 49.8 / 50.9; 3072 x 32768 (192 MiB) 98.7 / 100.2 / 102.9; 4080 x 32768
      // 128.9 / 134.0 / 136.8; 4096 x 24576 96.6 / 97.3 / 98.9; 4096 x 28672 114.7 / 114.7 /
      // 116.8.
      const bool plain_kept = over_keep_out_vectors(row_vectors, c.block_threads()) &&
                              p.rows * p.hidden * dtype_size(c.output_dtype) <= kHintedWidePlainBytes;
      if (c.cluster == 1 && p.rows >= kHintedWideRows && dtype_size(c.input_dtype) == 2 && !plain_kept)
        c.loads = 3;
      // But below kBulkRowsRmsnorm rows, 16-bit rows (a weight of their own type) of 2049-4096
      // vectors (hidden 16400-32768, even vector counts, which reach this split) are held on that
      // CTA (held_wide_row), the weight loaded after the reduction (residency 1), plain loads,
      // their values kept in their type and converted again for the output (reconvert): 32
      // registers, 2 CTAs an SM up to 3 items a thread and at 4. A part-filled fourth item takes
      // 40-46 (one CTA an SM; 28672: 2048 rows 64.67 against the re-read's 58.08), so those rows
      // take a floor of 2 below. Found by a sweep of 1024 x 32768 (session
      // 53, call 1). H200, bf16, median us, interleaved in one process, two rounds (call 2,
      // docs/results/h200-2026-12-04-s53, held-r*-call2.txt), held with the output hint / held
      // without it / the re-read then: 1024 rows 20480 23.68, 23.68 / 23.17, 23.20 / 23.55, 23.58;
      // 24576 26.98, 27.55 / 26.53, 27.26 / 27.17, 27.94; 32768 33.41, 33.54 / 34.11, 34.18 /
      // 34.88, 34.69; 2048 rows 20480 41.22, 41.09 / 41.57, 41.57 / 42.18, 42.08; 24576 48.54,
      // 48.48 / 49.76, 49.50 / 50.11, 50.11; 32768 64.58, 64.38 / 66.21, 66.11 / 67.30, 67.30;
      // 4096 rows 20480 80.00, 80.16 / 81.31, 81.22 / 80.67, 80.42; 24576 95.74, 95.78 / 96.16,
      // 96.32 / 96.77, 96.61; 32768 128.00, 128.06 / 128.86, 128.74 / 129.54, 129.60; but 8192 rows
      // 1.0-1.6 % behind the re-read (32768 256.74 / 252.61). The hint from 64 MiB of output (the
      // end of choose_rms_norm: kKeepOutRereadBytes for these rows). As the rule, against the
      // re-read it replaced, two rounds (call 3, ab*-call3.txt), bf16 / f16: 512 rows 16896 12.32,
      // 12.29 / 12.64, 12.70 (f16 12.48, 12.42 / 12.70, 12.61); 20480 13.60, 13.70 / 14.08, 14.05;
      // 24576 15.71, 15.68 / 15.97, 15.97; 2048 rows 16896 36.29, 36.26 / 36.93, 37.22; 24576 48.48,
      // 48.80 / 50.43, 50.18; 32768 64.61, 64.70 / 66.78, 66.98 (f16 64.48, 64.67 / 66.85, 66.72);
      // 1024 x 32768 33.63, 33.44 / 34.75, 34.46 (f16 33.70, 33.66 / 34.53, 34.37); gemma bf16 2048
      // x 32768 64.74, 64.70 / 66.94, 66.98. Level (within 0.4 %) at 1024 x 16896-24576, 4096 x
      // 20480-24576 and gemma 1024 / 4096 x 24576. Not 4096 vectors at 512 rows (32768: 19.78,
      // 19.78 / 19.62, 19.58; f16 19.71, 19.71 / 19.74, 19.49). With an fp32 weight (held_wide_row:
      // from kLateWeightRows below kHeldWideF32WeightEndRows rows), bf16 rows, re-read / held
      // (session 55, call 6, held-r*-call6.txt; the held row timed with the re-read's load
      // policy at 2048 rows): 1024 rows 20480 25.47, 25.41 / 24.58, 24.51; 32768 42.53, 42.30 /
      // 40.54, 40.70; 2048 rows 20480 45.63, 45.60 / 44.38, 44.22; 32768 78.62, 78.62 / 75.26,
      // 75.23; but 4096 rows 20480 85.18, 85.28 / 84.99, 85.06 and 32768 135.52, 135.87 / 151.58,
      // 151.52. As the rule (call 7, held-r*-call7.txt), re-read (the default then) / held, bf16:
      // 1024 rows 20480 25.12, 25.12 / 24.22, 24.35; 24576 29.25, 29.47 / 28.06, 28.26; 32768
      // 42.34, 42.62 / 40.58, 40.93; 2048 rows 20480 44.96, 45.12 / 43.36, 43.39; 24576 52.86,
      // 53.22 / 50.75, 51.07; 32768 78.75, 78.85 / 75.52, 75.65; f16 alike. At 32768 the re-read
      // with the hints by pass under a floor of 2 and the output hint ran 1.3 % faster still
      // (40.06, 40.19; 2048 rows 74.53, 74.56), a config the end of choose_rms_norm does not
      // give (docs/benchmarks.md, open lead 11).
      held_wide = held_wide_row(c, p, row_vectors);
      if (held_wide) {
        c.residency = 1;
        c.loads = 0;
        c.reconvert = true;
      }
    } else if (c.cluster == 1) {
      c.threads_per_row = 1024;
      c.residency = 1;
      c.loads = 0;
      // But fp32 rows of 4096 vectors (hidden 16384) re-read with the hints by pass from
      // kBulkRowsFusedAdd rows. H200, median us, held / re-read, two rounds in one process each
      // (session 45, call 2, docs/results/h200-2026-12-02-s45, h4k-r*-call2.txt): 1024 rows 67.20 /
      // 71.58, 2048 131.36 / 134.43, 4096 260.19 / 259.36, 8192 521.63 / 509.70, 16384 1039.39 /
      // 1007.36, 32768 2077.82 / 2013.82; as the rule, interleaved, two rounds (call 3,
      // r16k-r*-call3.txt): 8192 518.59, 518.88 / 508.29, 508.83, 32768 2066.30, 2066.24 /
      // 2005.38, 2004.99. In bf16 (32768, the same bytes a row) the re-read lost 7-11 % at every
      // row count (h4kb-r*-call2.txt: 32768 rows 2059.17 / 2226.34). Rows of 2049-4095 vectors in
      // fp32 were not timed.
      if (fp32 && row_vectors == 4096 && p.rows >= kBulkRowsFusedAdd) {
        c.residency = 2;
        c.loads = 3;
      }
      // And 16-bit rows whose third item a thread is part-filled (2049-2944 vectors, hidden
      // 16400-23552, up to 7/8 of the item; a weight of their own type; even vector counts,
      // which reach this split) from kBulkRowsFusedAdd rows: re-read with the hints by pass
      // under a floor of 2 (fused_part_reread, below: 32 registers, 2 CTAs an SM) where held
      // takes 44 (one CTA an SM). H200, median us, interleaved in one process, two rounds
      // (session 54, docs/results/h200-2026-12-04-s54), held (with rms_norm.cuh's kPinLastRow) /
      // re-read: bf16 8192 rows (call 6, pin-r*) 17408 275.62, 275.78 / 269.86, 269.76; 20480
      // 326.50, 326.53 / 319.68, 319.87; 22528 360.86, 361.34 / 352.86, 353.09; gemma alike;
      // f16 (call 4, f16-r*, whose held kernel the pin leaves as it was) 16400 260.99, 261.22 /
      // 258.21, 258.30; 20480 323.36, 323.46 / 319.58, 319.71; 23552 371.20, 370.94 / 368.70,
      // 369.22; bf16 without the pin 23552 376.86, 376.80 / 369.82, 369.89 and 16400 265.76,
      // 265.82 / 259.62, 259.17 (call 3, rule-r*). Level at 4096 rows (bf16 20480 163.46, 163.30
      // / 162.94, 162.98), held faster at 2048 (bf16 20480 82.88, 83.01 / 84.80, 84.70; 17408
      // 70.88, 71.17 / 73.34, 73.47). Past 2944 vectors the re-read ties or loses (24560 424.93,
      // 425.12 held unpinned / 426.30, 426.72), and from 3072 (a full third item, 24576, or
      // part-filled fourth ones, 28672) it lost 1-12 % at every row count (fw-r*-call2.txt). The
      // output hint added nothing (322.85, 322.53 at 8192 x 20480). Before kPinLastRow, bf16's
      // held kernel issued the third item's loads late and ran 84-88 % of copy: then the re-read
      // won from 2048 rows (calls 2-4), 11-15 % at 8192-16384 rows. At the switch (session 55,
      // call 1, one round): 8191 x 20480 held 328.48, 8192 re-read 320.06 (bf16; f16 329.47 /
      // 320.13).
      fused_part_reread = own_weight_16bit_vectors(c) && row_vectors > 2048 && row_vectors <= 2944 &&
                          p.rows >= kBulkRowsFusedAdd;
      if (fused_part_reread) {
        c.residency = 2;
        c.loads = 3;
      }
      // bf16 rows held so with a part-filled fourth item a thread (3073-4095 vectors, a weight of
      // their own type) are compiled at ptxas's register usage level 2 (KernelConfig::reg_usage)
      // where their rows are not whole 128-byte lines (a vector count not a multiple of 8), and
      // below kHintedWideRows rows: at the default level ptxas issues that item's loads after the
      // first item's data has arrived (scripts/late_loads.py on the sm_90a SASS), f16's kernel
      // (and bf16's at level 2, 50 registers against 52) all row loads together. H200, median us,
      // interleaved in one process (session 56, docs/results/h200-2026-12-04-s56), default / level
      // 2, two rounds (call 2, ru-r*-call2.txt): 1024 rows 26640 60.26, 60.26 / 57.54, 57.63 (f16
      // 57.34); 30736 69.47, 69.50 / 65.86, 66.11; 2048 rows 26640 115.36, 115.49 / 110.59,
      // 110.82; 30736 133.95, 133.95 / 127.14, 127.33; 8192 rows 26640 446.34, 446.14 / 430.40,
      // 430.46; 30736 525.34, 525.44 / 498.91, 499.23; gemma alike; 24592 (two vectors in the
      // fourth item) within 0.5 %, gemma 1.4 % faster at 1024 rows. Whole lines, two rounds (calls
      // 2-3, al-r*-call3.txt): 1024 rows 25600 54.08, 54.11 / 53.41, 53.41; 27648 59.01, 59.17 /
      // 57.73, 58.08; 28672 61.47, 61.63 / 60.67, 60.42; 31744 67.14, 67.14 / 65.98, 66.27; but
      // 2048 x 28672 117.57, 117.63 / 117.66, 117.70 and 8192 rows 0-0.8 % slower (25600 404.51,
      // 404.61 / 406.40, 406.08; 28672 456.61, 456.48 / 460.45, 460.16). Odd vector counts (call
      // 4, odd-r*-call4.txt), level 2 / default: 1024 rows 25608 55.30, 55.52 / 57.34, 57.12; 29704
      // 64.26, 64.16 / 67.17, 67.36; 31752 67.97, 68.10 / 71.78, 71.68; 8192 rows 25608 409.82,
      // 409.54 / 423.58, 423.74; 29704 477.54, 477.06 / 504.26, 504.10; 31752 512.83, 512.54 /
      // 542.56, 542.53.
      // With an fp32 weight at every row count, whole lines too (session 57: odd counts in
      // odd_wide's comment above; even counts, call 2, evenw2-r1-call2.txt, default / level 2,
      // one round: 1024 rows 25600 55.81 / 54.85, 26640 61.95 / 58.53, 28672 63.30 / 61.25, 31744
      // 69.47 / 67.39; 2048 rows 25600 107.33 / 105.50, 26640 118.82 / 112.10, 31744 132.10 /
      // 129.15; 8192 rows 25600 418.24 / 409.63, 26640 458.30 / 429.54, 28672 469.54 / 459.87,
      // 31744 514.18 / 504.35; more rows not timed).
      const bool level_two = own_weight_16bit_vectors(c) ? row_vectors % 8 != 0 || p.rows < kHintedWideRows
                                                         : f32_weight_16bit_vectors(c);
      if (c.input_dtype == DType::bf16 && level_two && c.residency == 1 && row_vectors > 3072 && row_vectors < 4096)
        c.reg_usage = 2;
    } else if (vectors <= 2048) {
      c.threads_per_row = 512;
      c.residency = 0;
      c.loads = 0;
      // But shares of more than 1536 vectors (3.x-4 items) with an fp32 weight beside 16-bit rows,
      // or of f16 rows, load the weight after the reduction (residency 1) without the cluster
      // floor of 2 (below): held with the weight under it they spill (fp32 weight 96-112 bytes,
      // f16 24-56; bf16 none, and bf16 keeps it). H200, median us, interleaved in one process
      // (session 56, docs/results/h200-2026-12-04-s56), held under the floor / late without it /
      // late under it: bf16 rows, fp32 weight (call 3, f32c-r1-call3.txt): 1024 rows 57344 (4 x
      // 1792) 167.58 / 123.26 / 130.75, 114688 (8 x 1792) 329.86 / 246.75 / 267.10, 122880 (8 x
      // 1920) 350.30 / 260.03 / 283.84; 4096 rows 57344 646.11 / 479.84 / 505.70, 114688 1301.98 /
      // 973.50 / 1060.61, 122880 1373.06 / 1021.41 / 1116.51; f16 rows alike (f32cf16-r1), gemma
      // too. But not shares of up to 1536 (no spill, or 8 bytes), where the held share won: 1024
      // rows 36864 (4 x 1152) 79.65 / 83.14 / 81.89, 73728 (8 x 1152) 156.00 / 166.88 / 163.81,
      // 49152 (4 x 1536) 102.21 / 104.29 / 102.24, 98304 (8 x 1536) 205.38 / 210.50 / 203.17.
      // f16 rows, their own weight (samec-r1-call3.txt): 1024 rows 57344 121.89 / 119.39 /
      // 124.16, 114688 269.79 / 240.32 / 249.54; 4096 rows 57344 474.24 / 465.50 / 479.65, 114688
      // 1066.21 / 952.10 / 986.88; bf16 57344 119.65 / 120.29 / 121.06, 114688 234.85 / 240.86 /
      // 243.81. As the rule, against the held share under the floor (call 4, late*-r1-call4.txt):
      // fp32 weight 1024 rows 50176 (4 x 1568) 111.33 / 150.75, 53248 (4 x 1664) 116.51 / 157.57,
      // 106496 (8 x 1664) 232.26 / 311.26; 4096 rows 50176 432.32 / 573.06, 106496 915.97 /
      // 1216.45; f16 106496 227.33 / 253.22, 122880 253.34 / 287.58 (4096 rows 897.66 / 990.85,
      // 1003.39 / 1126.88), but f16 53248 level (112.54 / 112.90; 4096 rows 439.71 / 437.98).
      late_share = vectors > 1536 &&
                   (f32_weight_16bit_vectors(c) || (c.input_dtype == DType::f16 && own_weight_16bit_vectors(c)));
      if (late_share) c.residency = 1;
    } else {
      // fp32 shares re-read on 512 threads, which re-read only the residual the first pass wrote
      // (rms_norm.cuh: kSumStored; the fp32 fused add's rows too wide to stage). H200, fp32, 1024
      // x 262144, median us, two rounds (session 45, call 1, docs/results/h200-2026-12-02-s45,
      // fw-b-r*-call1.txt): 8 CTAs of 256 threads 1352.5, 1352.4; of 512 1226.2, 1226.1 (82.3 % of
      // copy); 16 of 256 1258.5, 4 of 1024 1250.5, 16 of 1024 1276.6. As the rule (call 3,
      // rw-r*-call3.txt), 256 / 512 threads: 245760 1279.2 / 1149.0, 262144 1346.6 / 1218.3.
      c.threads_per_row = fp32 ? 512 : 256;
      c.residency = 2;
    }
    c.rows_per_block = 1;
    c.min_blocks = late_share ? 0 : choose_min_blocks(c);
    // The held rows above with a part-filled fourth item a thread (3073-4095 vectors: 40-46
    // registers, one CTA an SM) are declared for 2 CTAs an SM: 32 registers and 8 bytes of stack
    // a thread, measured as is. H200, bf16, median us, interleaved in one process, two rounds
    // (session 53, call 5, p4-r*-call5.txt), held under the floor / the re-read then: 1024 rows
    // 26624 28.90, 28.86 / 29.25, 29.15; 28672 30.78, 30.66 / 31.17, 31.07; 30720 32.32, 32.19 /
    // 33.12, 32.96; 2048 rows 26624 53.86, 53.95 / 54.11, 53.82; 28672 58.02, 58.02 / 58.30, 57.76;
    // 30720 61.38, 61.25 / 62.34, 62.18; 4096 rows 26624 104.64, 104.61 / 110.98, 110.30; 28672
    // 112.93, 112.70 / 114.11, 114.34; 30720 120.54, 120.35 / 120.54, 120.51 (at 4096 rows without
    // the output hint, which the rule adds from 64 MiB; call 6 times the rule as it stands).
    if (held_wide && row_vectors > 3072 && row_vectors < 4096) c.min_blocks = declared_ctas(2);
    if (fused_part_reread) c.min_blocks = declared_ctas(2);
    // Rows of 8192 vectors and more (hidden >= 65536 in 16-bit types) are staged in shared
    // memory (residency 3) on clusters of 512-thread CTAs: rmsnorm in 4096-vector (64 KiB)
    // shares, the fused add in 2048-vector shares of x and r (64 KiB) up to 8 CTAs, 4096 at
    // 262144 (128 KiB, with evict-first copies). H200, bf16, 1024 rows, median us, the layouts
    // above / staged, same run: rmsnorm 82.46/75.81 (65536, 2 CTAs), 161.86/149.22 (131072, 4),
    // 380.61/307.36 (262144, 8); fused add 151.30/148.61 (65536, 4), 309.34/302.91 (131072, 8),
    // 832 (session 4)/683.30 (262144, 8); at 32768 staging lost (rmsnorm 36.22/38.56 on 512
    // threads, fused add 68.67/73.50 on 1024) (session 9, docs/results/h200-2026-11-30-s9/
    // wide-staged.txt). The copies need 16-byte vectors; narrower ones keep the layouts above.
    // So do fp32 rows of 262144 for the fused add (its 8 shares would need 256 KiB each). A
    // share's last item may be part-filled (session 43; before, such rows were re-read). With the
    // one-push cluster exchange (session 11, exchange-pull.txt / exchange-push-1.txt): rmsnorm
    // 75.62/72.64 (65536), 149.63/134.94 (131072), 307.62/291.97 (262144); fused add
    // 148.61/136.70, 304.29/289.60, 688.32/653.66. Register shares on clusters still lost at 32768
    // (few-rows-clusters.txt: rmsnorm 1024 rows 36.29 default, 36.13 on 4 CTAs of 256, 39.78 on 2
    // of 512).
    const std::int64_t share = info.residual ? 2048 : 4096;
    KernelConfig staged = c;
    staged.cluster = 1;  // the largest power of two up to 8 that leaves shares of >= `share`
    while (staged.cluster < kMaxCluster && row_vectors / (2 * staged.cluster) >= share) staged.cluster *= 2;
    staged.threads_per_row = 512;
    staged.residency = 3;
    staged.loads = row_vectors / staged.cluster > share ? 1 : 0;
    staged.min_blocks = 0;
    // But rmsnorm's rows of exactly 8192 vectors (hidden 65536 in 16-bit types, 32768 in fp32) go
    // in 2048-vector (32 KiB) shares over 4 CTAs of 256 threads, each thread copying its own items
    // (residency 4; floored at 4 CTAs an SM as cluster CTAs are). The same shape by bulk copies
    // gained nothing, and residency 4 lost on the other staged defaults' shapes (0.4-11 %, both
    // ops, bf16 and fp32; call 2) and on 256-thread shapes of them (3-13 %; call 5,
    // w-*-call5.txt). H200, median us, interleaved in one process, this rule's config
    // before / after, and the same shape by bulk copies (session 31, docs/results/h200-2026-12-01-s31,
    // lanes65536-call3.txt, lanes-f32-call3.txt, lanes65536-r2-call3.txt, lanes-wide-*-call2.txt):
    // bf16 1024 rows 71.97/69.09/73.06 (87.2 -> 90.9 % of the 1 GiB copy; 71.84/68.90 in a
    // second round), 2048 136.83/133.41/136.93, 4096 267.52/262.40/266.88; f16 alike; fp32 32768 x
    // 1024 71.81/68.58/71.71, 4096 267.23/261.06/264.19. 8 CTAs of 128 threads ran as fast at 1024
    // rows (68.48-69.18) but 1 % slower at 4096; one 1024-thread CTA a row 0.5 % faster at 4096,
    // 1.5 % slower at 1024. Wider rows kept residency 3 in call 2's sweeps (1024 x 131072: 8 x 256
    // by per-thread copies 149.63 against 135.65). Other architectures: not measured.
    // So do rmsnorm's rows of 4097-16383 vectors (hidden 32776-131064 in 16-bit types), in shares
    // that may end in a part-filled item, where the staged rule above gave 2-CTA shares of up to
    // 96 KiB (2 CTAs an SM) and re-reading shares left 4-CTA clusters at 73 %. H200, bf16, 1024
    // rows, median us, interleaved in one process, the rules before / this (session 43,
    // docs/results/h200-2026-12-02-s43, call 3, new-r.txt): 40960 53.57/46.78 (73.2 -> 83.8 % of
    // copy), 49152 64.74/54.50, 57344 66.50/61.76 (88.9 %), 81920 93.02/86.69 (90.5 %), 122880
    // 152.90/129.82 (90.6 %); 98304 111.36/110.66 (call 2).
    // Their floor of 4 CTAs an SM let ptxas take 48-68 registers, which held an SM to 4-5 CTAs
    // where shared memory fits 6-11. A floor of 8 (32 registers) spills nothing up to 5 items a
    // thread (<= 5120 vectors) but 24-56 bytes at whole item counts above; a floor of 6 (40
    // registers) nothing in 16-bit rows with a 16-bit weight but gemma's 6 items (8 bytes), 8-16
    // bytes with an fp32 weight at 6-8 items (which keeps the floor of 4 throughout), 8 bytes in
    // fp32 rows at 5, 7, 10 and 12 items (own_regs.cpp in the results folder). Past 9 items 8 CTAs
    // of 128 threads (floor 8, or what shared memory fits) beat both. bf16 (fp32 at half the
    // hidden size), 1024 rows unless said, median us, interleaved in one process, floor 4 / 8 / 6
    // / 8 x 128 (session 44, docs/results/h200-2026-12-02-s44, calls 1-2): 36864 42.66 / 40.35 /
    // 42.34 / 45.98 (4096 rows 162.82 / 151.26 / 158.91; 512 rows 23.62 / 22.66 / 23.42), 40960
    // 46.98 / 44.38 / 44.74 / 46.82, 45056 52.83 / 50.05 / 50.14 / 53.95, 49152 54.59 / 61.28 /
    // 52.42 / 54.08 (4096 rows 207.42 / 234.02 / 198.40), 53248 61.28 / 57.60 / 57.98, 57344 61.60
    // / 68.29 / 59.90 / 61.63, 61440 68.42 / 67.33 / 65.22, 69632 81.31 / 76.58 / 76.38, 73728
    // 78.34 / 79.01 / 77.28 / 78.72; 81920 85.89 / 97.47 / 88.00 / 84.86, 98304 101.57 / 123.23 /
    // 116.80 / 100.29, 114688 122.78 / 142.08 / 141.73 / 118.53, 122880 129.54 / 149.86 / 134.30 /
    // 125.57 (4096 rows 503.71 / 581.22 / 520.32 / 492.96); fp32 18432 41.92 / 40.83 / 41.73,
    // 24576 53.38 / 53.79 / 52.16, 28672 60.64 / 72.03 / 62.24 / 60.42, 40960 86.24 / 106.75 /
    // 88.19 / 84.80. But 65536 (8 whole items) lost under a floor of 6: 68.80 / 80.29 / 70.50 /
    // 68.83, so it keeps the rule above. This rule against the one above, two rounds (call 3):
    // 0.6-7 % faster at every width of 36864-122880, at 4096 rows, in f16, fp32 and gemma; 73728
    // declares the 5 CTAs shared memory holds: 77.63 / 78.72, and 78.05 / 78.27 against the floor
    // of 6 (n73-*-call3.txt).
    if (!info.residual && row_vectors > 4096 && row_vectors < 16384) {
      const bool narrow_ctas = row_vectors > 9216;
      staged.cluster = narrow_ctas ? 8 : 4;
      staged.threads_per_row = narrow_ctas ? 128 : 256;
      staged.residency = 4;
      staged.loads = 0;
      staged.min_blocks = choose_min_blocks(staged);
      // Above the cluster floor of 4: 8 up to 5 items, 6 past that in 16-bit rows (a weight of the
      // rows' own type; never 65536), bounded by what shared memory holds.
      const bool raised = !narrow_ctas && row_vectors != 8192 && c.weight_dtype == c.input_dtype &&
                          (row_vectors <= 5120 || dtype_size(c.input_dtype) == 2);
      if (raised) staged.min_blocks = std::min(row_vectors <= 5120 ? 8 : 6, staged_ctas_per_sm(staged));
      // But 16-bit rows of 4097-5120 vectors (hidden 32776-40960; 4.x-5 items of 128 threads), a
      // weight of their own type, are held in registers on 8 CTAs of 128 threads: floor 8, every
      // item of the weight pinned (pin_weight 1, set after the pin rule below), values kept in
      // their type and converted again for the output (reconvert). Found by a sweep of 1024 x
      // 36864 (session 47). H200, median us, interleaved in one process, two rounds (session 48,
      // call 3, docs/results/h200-2026-12-04-s48, pin-r*-call3.txt), this / the full items pinned
      // only (pin_weight 2) / the rule above: 1024 rows bf16 36864 38.85, 38.59 / 38.98, 38.82 /
      // 41.12, 41.12; 40960 42.08, 41.82 / 42.18, 41.73 / 45.09, 44.96; f16 36864 38.24, 38.08 /
      // 43.97, 43.97 / 41.60, 41.18 (pinned full items only, f16's part-filled item waited on its
      // weight); 38912 39.74, 40.10 / 45.60, 45.50 / 42.94, 43.17; 4096 rows bf16 36864 144.96 /
      // 144.93 / 151.14; f16 38912 153.12 / 162.72 / 158.94 (91-94 % of copy at 1024 rows, 98 % at
      // 4096). Narrower rows and gemma alike, this / the rule above, two rounds (session 49,
      // docs/results/h200-2026-12-04-s49, narrow-*-call1, edge-*, gheld-*-call2): bf16 33280
      // 20.38 / 20.90 (512 rows), 36.22 / 37.63 (1024), 133.86 / 138.34 (4096); 33792 36.45 /
      // 37.95, 133.82 / 138.14; 35840 37.98 / 39.78, 140.10 / 145.98; f16 33792 36.10 / 38.14;
      // 35840 37.47 / 40.10, 139.58 / 146.11 (2.5-6.5 %); gemma bf16 33792 20.67 / 21.18, 37.06 /
      // 38.18, 135.65 / 140.19; 40960 23.36 / 24.93, 42.56 / 45.12, 162.53 / 166.88 (its kernel
      // keeps 8 bytes of stack under the floor); gemma f16 36864 38.40 / 41.09, 144.06 / 151.14;
      // 40960 42.08 / 44.58, 160.83 / 164.77. A vector count that 8 shares do not split keeps the
      // rule above (or the one-CTA re-read, where 4 shares do not split it either). Not wider
      // (session 47, bf16, full items pinned, the rule above / this / one 512-thread CTA): 45056
      // 50.14 / 48.83 / 48.48, 49152 53.06 / 58.72 / 52.45, from 53248 on 16-60 % slower; 16 CTAs
      // of 128 lost at every width (36864 53.28).
      // fp32 rows of 4097-5120 4-vectors (hidden 16388-20480) alike, every item pinned, nothing
      // to reconvert: this / the rule above, two rounds (session 49, call 6, f32held-*-call6),
      // 1024 / 4096 rows: 16896 34.69 / 37.22, 131.33 / 136.29; 18432 37.18 / 40.00, 143.39 /
      // 148.86; 20480 41.06 / 43.81, 159.84 / 163.97 (93.8-96.0 % of copy at 1024 rows). Not
      // gemma's fp32 rows (its 20480 kernel keeps 16 bytes of stack under the floor; not timed),
      // nor an fp32 weight with 16-bit rows (not timed), nor other architectures (not measured).
      const bool held_types = c.weight_dtype == c.input_dtype && (!fp32 || !info.gemma);
      KernelConfig held = staged;
      held.cluster = 8;
      held.threads_per_row = 128;
      held.residency = 0;
      held.min_blocks = 8;
      held.reconvert = !fp32;
      if (held_types && row_vectors <= 5120 && staged_unsupported(held).empty()) {
        staged = held;
        held_share = true;
      }
      // And their rows of 5121-6143 vectors (hidden 40968-49144; gemma's to 6144) are held by one
      // CTA of 512 threads (10.x-12 items), the weight loaded after the reduction (residency 1),
      // reconverted, floored at 2 CTAs an SM: 64 registers, none spilled (f16 47104 took 66
      // without the floor, one CTA an SM, and ran 10-12 % slower than the rule above). H200,
      // median us, interleaved in one process, two rounds (session 49, calls 1-2, lw-*-call2,
      // lwg-*-call2), this / the rule above, 512 / 1024 / 4096 rows: bf16 41984 24.10 / 25.82,
      // 44.80 / 47.68, 167.58 / 177.02; 45056 25.95 / 27.07, 48.38 / 49.79, 181.28 / 186.69; 48128
      // 27.62 / 28.86, 51.71 / 52.96, 192.58 / 201.02; f16 44032 26.88 / 27.78, 47.14 / 48.77,
      // 176.03 / 183.71; 47104 26.94 / 28.32, 50.34 / 52.83, 188.86 / 197.06 (2-7 % at every
      // width and row count); gemma bf16 41984 44.74 / 47.87, 167.71 / 178.18; 47104 50.43 /
      // 53.02, 188.70 / 197.98; 49152 52.80 / 53.82, 197.89 / 201.95 (the rule above's gemma
      // kernel there keeps 8 bytes of stack). But not rmsnorm's 6144 (12 whole items): 27.84 /
      // 28.51, 52.83 / 52.54, 197.63 / 198.02. From 6145 vectors it spills (16 bytes at 6272).
      // fp32 rows there (hidden 20484-24572) not: one 512-thread CTA ran 1.2-3.2 % faster at 4096
      // rows but up to 2.3 % slower at 1024 (f32lw-*-call6). Nor 2-CTA clusters of it at
      // 6144-7680 16-bit vectors: within -2/+1 % of the rule above (c2lw-*-call6).
      const bool late_row = row_vectors > 5120 && (row_vectors < 6144 || (info.gemma && row_vectors == 6144));
      if (held_types && !fp32 && late_row) {
        staged.cluster = 1;
        staged.threads_per_row = 512;
        staged.residency = 1;
        staged.loads = 0;
        staged.min_blocks = 2;
        staged.reconvert = true;
      }
    }
    // The fused add's rows of 8193-16383 vectors are held (the layouts above: 8 CTAs of 512
    // threads, up to 4 items a thread), not staged: same run, bf16, 1024 rows, median us, staged
    // on 4 CTAs (evict-first copies) / held: 81920 176.58/165.25 (94.9 % of copy), 98304
    // 211.10/199.46, 114688 246.43/234.72 (16 CTAs of 128 staged: 231.78); held at 73728-122880
    // before this (call 1, deff.txt): 94.2, 95.5, 93.3, 94.0 % (73728, 90112, 106496, 122880).
    const bool held_between = info.residual && row_vectors > 8192 && row_vectors < 16384;
    const bool staged_ok = (row_vectors >= 8192 || (!info.residual && row_vectors > 4096)) && !held_between &&
                           staged_unsupported(staged).empty();
    // Rows whose CTAs read >= kWideReadVectors 16-byte vectors (x, and r for the fused add: 512
    // KiB; rmsnorm 262144, the fused add from 131072 in 16-bit types) go over 16 CTAs of 128
    // threads on sm_90 (a non-portable cluster size: runtime.cpp opts in), with evict-first
    // copies above that. H200, bf16, 1024 rows, median us, the staged rule above / 16 x 128, same
    // run: rmsnorm 262144 289.54/278.37 (90.3 % of copy); fused add 131072 286.34/274.50 (91.5 %),
    // 262144 648.74/578.85 (86.7 %; 4096 rows 2585.09/2305.12); fp32 (call 5): rmsnorm 131072
    // 294.94/276.51, 262144 650.66/629.31, fused add 131072 630.69/574.21. Not the
    // thread count alone: on the rule's cluster sizes 128 threads lost (rmsnorm 262144 307.68,
    // fused add 262144 690.59), and on 16 CTAs 256 threads gained less (598.21); where CTAs read
    // less, the rule above won (rmsnorm 131072 134.82, 139.23 on 8 x 128; fused add 65536 136.00,
    // 139.81 on 8 x 128) (session 12, docs/results/h200-2026-11-30-s12/wide-clusters.txt,
    // fused-262144.txt, staged-threads.txt). Other architectures: not measured. Shares of at most
    // kWideMaxShareBytes, so that three CTAs fit an SM and a cluster needs 6 SMs of one GPC: a
    // 16-CTA cluster of one CTA per SM needs 16, which not every sm_90 part or MIG instance has,
    // and a non-portable launch that cannot be placed fails. That leaves the fp32 fused add at
    // 262144 (128 KiB shares) re-read, though it ran 1470 us staged on 16 CTAs of the H200.
    // So do rmsnorm's rows of more than 16384 vectors whose 16 shares are whole items of 128
    // threads (hidden a multiple of 16384 in 16-bit types), where the rule above stages 4 shares of
    // up to 120 KiB: bf16, 1024 rows, median us, interleaved in one process, 4 x 512 / 16 x 128
    // (session 43, calls 1-3): 163840 177.38/171.39, 196608 213.92/203.81 (92.9 %), 245760
    // 279.87/252.48 (84.1 -> 93.2 %). Part-filled shares too since session 44's template (the
    // second pass's whole items unrolled without a check, the part-filled one after them), from 10
    // items a thread: 4 x 512 / 16 x 128 before / after that change, one process per template set,
    // two rounds (call 6, rb-*-call6.txt): 172032 (10.5 items) 187.30, 186.94 / 190.82, 190.21 ->
    // 186.08, 185.73 / 182.94, 183.04 (90.1 %); 204800 (12.5) 221.02, 220.83 / 274.78, 274.37 ->
    // 220.74, 221.12 / 215.68, 215.65 (91.0 %); but 139264 (8.5) 149.60, 149.66 / 150.62, 150.91.
    // fp32 rows (the same vector counts at half the hidden size): not timed.
    // And the fp32 fused add's shares of 68-88 KiB in whole items of 128 threads (hidden 139264-
    // 180224, a multiple of 8192), where the staged rule above gives 8 CTAs of 512 threads and
    // one CTA an SM (shares of 136-176 KiB); 2-3 CTAs of 128 threads an SM instead. H200, 1024
    // rows, median us, interleaved in one process, 8 x 512 staged / 8 x 512 re-reading the stored
    // sum / 16 x 128 (session 46, call 2, docs/results/h200-2026-12-03-s46, f32-wide-call2.txt):
    // 139264 683.4 / 664.9 / 599.1 (78.0 -> 89.0 % of copy), 147456 685.8 / 684.6 / 631.2,
    // 163840 762.1 / 749.1 / 709.9, 172032 817.5 / 815.0 / 768.2, 180224 831.9 / 839.4 / 806.6
    // (85.6 %); not above: 196608 905.4 / 915.1 / 891.2 (within the spread), 204800 956.8 / 1015.1
    // / 1012.0, 229376 (one CTA an SM) 1056.0 / 1064.1 / 1087.9. Shares of 76-88 KiB place two
    // CTAs an SM, so such a cluster needs 8 SMs of one GPC. Other row counts, part-filled shares
    // and other architectures: not timed.
    const std::int64_t read_vectors = row_vectors * (info.residual ? 2 : 1);
    KernelConfig wide = staged;
    wide.cluster = kMaxClusterNonPortable;
    wide.threads_per_row = 128;
    wide.residency = 3;
    wide.loads = read_vectors > kWideReadVectors ? 1 : 0;
    wide.min_blocks = choose_min_blocks(wide);
    const std::int64_t wide_share = row_vectors / wide.cluster;
    const bool wide_shares = !info.residual && row_vectors > 16384 &&
                            (wide_share % wide.threads_per_row == 0 || wide_share >= 10 * wide.threads_per_row);
    const bool fp32_fused_whole = info.residual && fp32 && wide_share % wide.threads_per_row == 0;
    const std::int64_t wide_cap = fp32_fused_whole ? kWideMaxShareBytesF32FusedAdd : kWideMaxShareBytes;
    // staged_unsupported also refuses a hidden size that 16 shares of whole vectors do not split.
    if (arch.cc == 90 && (read_vectors >= kWideReadVectors || wide_shares) && staged_unsupported(wide).empty() &&
        staged_smem_bytes(wide) <= wide_cap)
      c = wide;
    else if (staged_ok)
      c = staged;
  }
  // The fused add's residual stores: after every load of the row (stores 0) by default, item by
  // item (stores 1) for many rows of up to 512 vectors, where more loads in flight matter less
  // than the stores' earlier drain. H200, bf16, median us, stores 0 / 1, same run: hidden 4096:
  // 67.97/65.63 (8192 rows), 268.3/257.0 (32768); hidden 2048: 33.89/33.82, 128.8/129.3; but
  // 5.28/5.60 and 4.90/5.34 at 128 rows, and at hidden 16384 262.5/299.4 (8192 rows).
  // Rows of a power-of-two vector count only, as timed (rows of 257-511 lost, see above).
  if (info.residual && c.residency < 2 && p.rows >= kPerItemStoreRows && vectors <= 512 &&
      (vectors & (vectors - 1)) == 0)
    c.stores = 1;
  // A few rows whose caller promised a static weight (ProblemSpec::static_weight, PDL on): the
  // weight is loaded before the wait for the previous kernel, so that after it the row's SM
  // moves only activations. H200, bf16, us per launch in a CUDA graph of 100 with PDL, 1 / 8 /
  // 32 rows, default / weight first, same run: rmsnorm 8192 1.247/1.111, 1.316/1.176,
  // 1.389/1.239; rmsnorm 4096 1.057/1.033, 1.102/1.066, 1.148/1.120; fused add 4096
  // 1.294/1.127, 1.412/1.288, 1.465/1.354; fused add 8192 1.644/1.549, 1.787/1.648, 1.832/1.721.
  // (session 7, docs/results/h200-2026-11-30-s7/latency.txt). Below kPinWeightRows, rows (CTA
  // shares) of up to 512 vectors too: at 128 rows, us, default / weight first, buffers filled by
  // cuMemsetD8 (the process state a PyTorch process is in) and by a kernel (session 19, call 10,
  // latency-*-call10.txt): rmsnorm 2048 1.164/1.132 and 1.163/1.129, rmsnorm 4096 1.632/1.537 and
  // 1.388/1.398, fused add 2048 1.480/1.178 and 1.297/1.230, fused add 4096 1.816/1.785 and
  // 1.633/1.615. Wider rows lost there (rmsnorm 8192 1.853/1.884, fused add 8192 2.372/2.441,
  // fused add 16384 3.650/4.459), as 128 x 8192 had in session 7 (1.814/1.924).
  const bool weight_first_rows = p.rows <= kFewRowsMax || (p.rows < kPinWeightRows && vectors <= 512);
  c.weight_first = p.static_weight && arch.has_pdl() && c.residency == 0 && weight_first_rows;
  // The fused add's output stores carry an L2 evict-last hint from kKeepOutRows rows of 512-2048
  // vectors: the output (which the next GEMM reads) then outlasts the activations read around it
  // in L2, and less of its write-back competes with this kernel's reads. H200, bf16, median us,
  // default / keep_out, two runs (session 8, docs/results/h200-2026-11-30-s8/keep-out-ab.txt):
  // hidden 4096: 18.27/18.14, 18.24/18.27 (2048 rows); 66.08/64.45, 66.02/64.48 (8192);
  // 256.0/252.8, 255.9/252.8 (32768). Hidden 8192: 34.37/32.29, 34.24/32.48 (2048); 130.2/130.1,
  // 130.3/130.4 (8192); 506.2/505.4, 506.0/507.7 (32768). Hidden 16384: 67.23/64.86,
  // 67.17/64.93 (2048); 260.9/259.1, 261.0/259.3 (8192); 1040.3/1033.9, 1039.9/1032.4 (32768).
  // Not below: 11.84/12.10, 12.00/12.10 at 512 x 8192 and 18.59/18.75, 18.50/18.75 at 512 x
  // 16384, where the whole call fits in L2 anyway; not for rows of 256 vectors (32768 x 2048:
  // 125.95/127.17, 125.86/126.98). rmsnorm's output did not gain from it (8192 x 4096:
  // 33.12/33.44, 32768 x 4096: 125.6/130.2; store-keep-ab.txt).
  c.keep_out = info.residual && p.rows >= kKeepOutRows && row_vectors >= 512 && row_vectors <= 2048;
  // From kPinWeightRows rows a row held with its weight in one CTA pins the weight loads ahead of
  // the row's first use (KernelConfig::pin_weight): ptxas had scheduled them after the row's
  // arithmetic waited for the row (sm_90a SASS of the held kernels of hidden 2048-8192), or the
  // weight behind the row. H200, bf16, isolated calls (L2 cleared), median us, default / pinned,
  // separate processes in one run (fifteenth run, pin-ab.txt; a second default run within 1.6 %):
  // rmsnorm 2048 x 2048 8.32/7.65, 2048 x 4096 12.00/11.30, 512 x 4096 6.24/6.08, 2048 x 8192
  // 18.75/18.34, 512 x 16384 12.03/11.87, 2048 x 16384 34.11/33.50; fused add 2048 x 2048
  // 11.46/11.20, 512 x 8192 11.97/11.58; 8192-32768 rows within +-1 % (pin-bulk.txt). Not for
  // fewer rows: within +-2 % isolated at 1-128 rows, and slower per launch in CUDA graphs, where
  // the weight comes from L2 (128 rows, us: fused add 2048 1.53/1.63, rmsnorm 8192 1.87/1.94,
  // 16384 2.71/2.87; pin-latency.txt). Not the fused add's rows of 2048 vectors either (hidden
  // 16384, held on 512 threads with the fp32 sum): no gain (19.20/19.17 at 512 rows, 65.98/66.05
  // at 2048), and ptxas then takes 70 registers, not 64, which leaves one CTA per SM (bounded to
  // 64 it spills and issues the row's loads late). Nor its rows of 1025-2047 vectors (hidden
  // 10240-14336, 512 threads declared for 2 CTAs an SM), timed unpinned: pinned, the kernels of
  // 14336 with the kept output spill (64 registers; bf16 STACK:8, f16 STACK:32; unpinned none).
  // Clusters, split rows and several rows per block were not timed pinned.
  c.pin_weight = pin_weight_applies(c) && c.cluster == 1 && c.split == 1 && c.rows_per_block == 1 &&
                 p.rows >= kPinWeightRows && !(info.residual && vectors > 1024);
  // The held 8-CTA shares (the wide rows above) pin every item, the part-filled one too,
  // where the pin applies to the config they ended with.
  if (held_share && c.cluster == 8 && pin_weight_applies(c)) c.pin_weight = 1;
  // But the fused add's 16-bit rows of 129-255 vectors (hidden 1032-2040; 128 threads, the second
  // item part-filled) pin only the first item (pin_weight 2): pinned whole, the bf16 kernels
  // issued the second item's loads after the first item's adds had waited for its loads (sm_90a
  // SASS), a second round trip; unpinned they lost up to 3 % at 1024 rows. H200, median us,
  // interleaved in one process, this / every item pinned / none (session 29,
  // docs/results/h200-2026-12-01-s29, pin-fused-bf16-call4.txt, pin-gemma-bf16-call4.txt): bf16
  // 1152 x 256 5.02/5.50/4.93, 2048 8.32/9.47/8.35, 32768 73.92/75.52/74.08; 1536 x 256
  // 5.12/5.60/5.06, 1024 7.23/6.98/7.26, 2048 9.60/10.14/9.63; 2040 x 1024 7.78/8.45/8.03, 32768
  // 132.54/146.59/130.88; gemma 1280 x 2048 8.70/9.63/8.70. Up to 14 % ahead of every item pinned,
  // behind it at 1024 rows of 1536-1920 (0.965-0.987) and 1920 x 512 (0.995); unpinned within
  // -8/+3 %; f16 within +-1.1 % of every item pinned, -3.5/+3.4 % of none. Rows of 2.x-3.x
  // items (2560, 3584) gained nothing from it; rmsnorm 5376 lost 5-7 % at 512-1024 rows, where its
  // part-filled last item needs the pin (a template variant, pin-variant-rms-bf16-*-call3.txt).
  // The fp32 fused add's rows of 1.x items (129-255 4-vectors, hidden 516-1020) likewise, but
  // below kLateWeightRows rows only: there the first-item pin ran 4-11 % faster at 256 rows and
  // 1.5-4 % at 512, from it the full pin 2-5 % faster at 1024-2048 rows. H200, median us,
  // interleaved, every item pinned / none / first item, two rounds (session 30,
  // pin-fp32-narrow-r*-call5.txt): 640 x 256 5.25/4.90/4.70, 5.22/4.80/4.67; 768 x 256
  // 5.28/4.90/4.83, 5.25/4.90/4.77; 896 x 512 5.79/5.89/5.70, 5.73/5.76/5.73; 768 x 1024
  // 6.75/7.01/7.01; 640 x 2048 8.64/9.12/9.12. As the rule, this / every item (call 6,
  // pin-fp32-first-call6.txt): 1000 x 256 5.06/5.86, 768 x 256 5.02/5.47, 640 x 512 5.44/5.86.
  const bool fp32_first_item = c.input_dtype == DType::f32 && p.rows < kLateWeightRows;
  if (c.pin_weight && info.residual && (dtype_size(c.input_dtype) == 2 || fp32_first_item) &&
      c.threads_per_row == 128 && vectors > 128 && vectors < 256)
    c.pin_weight = 2;
  // And the bf16 fused add's rows of 2.x-4.x items on 128 threads (257-639 vectors, not a
  // multiple of 128: hidden 2056-5112) not at all: pinned, ptxas issued the part-filled last
  // item's loads after the earlier items' adds (at 4608 after three residual stores; sm_90a SASS,
  // scripts/late_loads.py); unpinned, every row load is issued up front and the weight's (from
  // L2) before the reduction. H200, median us, interleaved in one process, pinned / not (session
  // 30, docs/results/h200-2026-12-01-s30, pin-fused-bf16-call2.txt, pin-gemma-bf16-call2.txt):
  // 2304 x 256 5.76/5.28, 1024 8.45/8.16, 8192 38.27/37.92; 2560 x 256 5.79/5.41; 2816 x 256
  // 5.95/5.57; 3584 x 256-8192 -1.6/+0.7 %; 4608 x 256 6.78/6.37, 512 8.70/8.35, 1024
  // 12.90/12.64, 8192 72.42/71.84; gemma 2304 x 256 5.79/5.41, 4608 x 2048 20.26/19.81; 32768
  // rows within 0.3 % (call 1, lead2-fused-bf16-call1.txt). It loses at 2048 rows of 2.5-2.75
  // items (2560 13.31/13.47, 2816 13.92/14.11; call 1 14.05/14.27). Whole items keep the pin
  // (5120 x 1024 12.83/13.34, 3072 x 2048 14.53/14.91), and f16 keeps it (3584 x 1024
  // 10.40/11.14, pin-fused-f16-call2.txt).
  // Nor the fp32 fused add's rows of 513-1024 4-vectors (hidden 2052-4096; 128 threads up to
  // 768 vectors, 512 above): unpinned it ran 2-5 % faster at 1024 rows and within 1 % elsewhere
  // but 512 x 2304. H200, median us, interleaved, pinned / not, two rounds (session 30,
  // pin-fused-fp32-call2.txt, pin-fp32-r2-call3.txt): 1024 x 2304 12.45/12.13, 12.29/12.06; 2816
  // 14.56/13.86, 14.43/13.70; 3072 15.20/14.66, 15.10/14.46; 4096 18.53/18.11, 18.40/17.98; 512 x
  // 4096 11.62/11.26, 11.49/11.17; 512 x 2304 8.32/8.51, 8.38/8.48. Rows of 2048 (512 vectors)
  // keep it (pinned 0.7-1.3 % ahead at 512-4096 rows).
  const bool fused_unpinned =
      (c.input_dtype == DType::bf16 && c.threads_per_row == 128 && vectors > 256 && vectors < 640 &&
       vectors % 128 != 0) ||
      (c.input_dtype == DType::f32 && vectors > 512);
  if (c.pin_weight && info.residual && fused_unpinned) c.pin_weight = 0;
  // Nor rmsnorm's f16 rows of 896 vectors held on 128 threads (hidden 7168, 7 whole items):
  // pinned, ptxas issued one weight load after the row's arithmetic had begun (sm_90a SASS; over
  // rmsnorm and the fused add, 16-bit and fp32, hidden 256-16384 step 128 at 256-8192 rows,
  // scripts/late_loads.py listed no other kernel outside the fp32 fused add's full pins; gemma's
  // kernel has the same late load, not timed). bf16 has none and keeps the pin. H200, median us,
  // interleaved in one process, pinned / not (session 31, docs/results/h200-2026-12-01-s31,
  // pin-rms7168-call1.txt): f16 256 rows 6.18/6.08, 1024 11.46/11.10, 4096 29.86/29.18, 8192
  // 57.44/57.18; bf16 1024 10.72/11.10, 4096 29.15/29.47, 8192 56.58/57.63.
  if (c.pin_weight && !info.residual && c.input_dtype == DType::f16 && c.threads_per_row == 128 && vectors == 896)
    c.pin_weight = 0;
  // The fused add's rows of 513-1023 vectors (hidden 5120-7168) in 16-bit types, held on 512
  // threads two items a thread, the second partly filled: declared for 2 CTAs an SM. Since the
  // rule for rows that are not a power of two (above) puts rows of 513-768 vectors on 128 threads
  // from kPinWeightRows rows, this serves those below it and rows of 769-1023 (7168). Without a
  // floor ptxas fits the bf16 kernels with the kept output and the pinned weight into 40
  // registers for 3 CTAs an SM and spills a word across the reduction's barrier (STACK:8); with
  // it they take 48 (56 without the kept output). H200, median us, interleaved in one process,
  // declared / none, two rounds (session 24, docs/results/h200-2026-12-01-s24,
  // spill7168-call1.txt, b2-512-call2.txt): bf16 x 7168: 128 rows 6.18/6.21, 6.05/6.14; 512
  // 10.91/10.91, 10.91/11.10; 1024 16.54/17.31, 16.58/17.34; 2048 28.96/30.37, 29.06/30.30; 8192
  // 112.10/114.11, 112.22/113.89; 32768 444.38/448.70; bf16 x 5120: 2048 22.37/24.58, 22.27/24.74;
  // 8192 84.38/88.38; x 6144: 2048 25.41/27.36; 8192 97.34/100.54; gemma x 5376: 512 9.60/9.86;
  // 2048 22.98/25.41; 8192 87.46/91.94; 32768 348.61/356.93. f16 (42 registers, no spill) even:
  // 512 x 7168 11.20/11.07, 10.98/11.04; 8192 112.74/112.51; 32768 447.26/446.85. Not fp32 (rows
  // of 640-896 4-vectors, 40 registers, no spill), where it lost: 512 x 3072 10.08/9.86, 8192 x
  // 3072 96.70/96.19.
  if (info.residual && dtype_size(c.input_dtype) == 2 && c.cluster == 1 && c.threads_per_row == 512 &&
      c.rows_per_block == 1 && c.residency == 0 && vectors > 512 && vectors < 1024 && c.min_blocks == 0)
    c.min_blocks = declared_ctas(2);
  // Many rmsnorm rows of 16-32 vectors in 16-bit types (per-head norms of head_dim 128-256 with
  // 16-byte vectors, as measured; rows whose alignment or size allows only narrower vectors take
  // it at the same vector count, not measured) give each thread two rows
  // (KernelConfig::rows_per_thread): one weight load serves both, and both rows' loads are in
  // flight before the first reduction, as in torch.compile's per-head kernels. H200, bf16, median us, one / two rows per thread, the same CTA shape, two
  // rounds in one run (sixteenth run, rpt-call6.txt): 65536 x 128 11.78/11.30, 11.55/11.42;
  // 32768 x 256 11.55/11.23, 11.65/11.20; 131072 x 256 33.41/33.22, 33.31/33.09; 221184 x 128 and
  // 262144 x 128 within +-0.7 %; but 4096 rows 4.86/4.96, 4.86/5.02 (x 128), hence
  // kBulkRowsRmsnorm. Rows of 8 vectors (head_dim 64) did not gain (131072 x 64 on 4 threads per
  // row: 11.42/11.58, 11.58/11.42; rpt-call4.txt); fp32 rows were not measured.
  if (!info.residual && dtype_size(c.input_dtype) == 2 && row_vectors >= 16 && row_vectors <= 32 &&
      p.rows >= kBulkRowsRmsnorm) {
    KernelConfig two = c;
    two.rows_per_thread = 2;
    // From kFourRowsPerThreadRows rows, rows of 16 vectors (head_dim 128) four to a thread on
    // 64-thread blocks of 8 rows a pass, 32 rows a CTA: torch.compile's per-head program (XBLOCK
    // 32 on 2 warps). H200, bf16, median us, interleaved in one process, two (128 threads) / four
    // (session 20, calls 5 and 6, rpt4-128-call5.txt, rpt4-confirm-call6.txt): 221184 x 128
    // 28.54/28.45, 28.77/28.61; 262144 x 128 33.60/33.22, 33.70/33.50; but 65536 x 128 11.33/11.26,
    // 11.46/11.46, and 32768 x 128 7.84/8.00 (hence the threshold, between the two). Four rows on
    // 16 lanes (one vector each) did not gain (sixteenth run; call 5: 65536 x 128 11.68), nor rows
    // of 32 vectors four to a thread (32768 x 256 11.39/11.65).
    if (row_vectors == 16 && p.rows >= kFourRowsPerThreadRows) {
      two.rows_per_thread = 4;
      two.rows_per_block = 8;
    }
    // From kOneVectorLaneRows rows, rows of 16 and 32 vectors one vector a lane: 16 lanes x 4 rows
    // a thread on 64-thread blocks (head_dim 128), 32 lanes x 2 rows on 128-thread blocks (256).
    // H200, median us, interleaved in one process, the layouts above / this, two rounds (session
    // 23, docs/results/h200-2026-12-01-s23, onevec-call7-8.txt, rpt128-16lanes-call6.txt): bf16 x
    // 128: 327680 41.70, 41.50/40.93, 40.83; 393216 49.63, 49.82/48.99, 48.96; 524288 66.18,
    // 65.89/64.83, 64.74; 786432 97.86, 97.79/95.74, 95.74; 1048576 130.08, 130.05/126.91 (98.9 % of
    // copy); 2097152 258.30, 257.73/251.81, 251.71; f16 1048576 x 128 129.98, 130.14/126.88, 127.01;
    // bf16 x 256: 524288 129.60, 129.34/126.98, 127.07; 1048576 256.64, 256.32/251.58. Even at
    // 262144 (x 128 33.41, 33.44/33.34; x 256 65.18, 65.41/65.09, 64.86) and 221184 x 128, 1 %
    // slower at 131072 x 128 (18.50, 18.46/18.69). The same rows on 16 lanes in 128-thread blocks
    // ran like the default (1048576 x 128 129.60). With this rule (onevec-call9.txt), old / new:
    // 524288 x 128 65.98/64.74, 1048576 x 128 130.27/127.04, 1048576 x 256 257.41/252.16.
    // Dense calls (ProblemSpec::dense_rows) put rows of 16 vectors from kFourRowsPerThreadRows until
    // kOneVectorLaneDenseRows eight to a thread on 16 lanes x 4 rows a block (torch.compile's
    // per-head program at 4608 x 48 x 128), each row converted again for its output
    // (KernelConfig::reconvert) and all addressed from one base (KernelConfig::dense): 56
    // registers, where the same layout with 64-bit row addresses took 109. H200, median us,
    // interleaved in one process, 60 samples, default / this, two rounds in two processes
    // (session 33, docs/results/h200-2026-12-01-s33, dense-call3-128-r*.txt): bf16 131072 x 128
    // 18.56/18.53, 18.53/18.46; 221184 28.74/28.26, 28.54/28.13; 262144 33.50/33.18, 33.41/33.25;
    // f16 131072 18.72/18.46, 18.59/18.53; 221184 28.86/28.32, 28.83/28.06; 262144 33.50/32.99,
    // 33.41/32.90. From 393216 it was level or behind the lanes of one vector (bf16 49.02/49.31,
    // 49.02/49.22; 524288 64.99/65.47, 65.22/65.34; f16 ahead by 0-1 %), hence the threshold. The
    // same layout not dense lost (221184 x 128 28.74/28.86). Rows of 32 vectors gained nothing
    // from it (32768-262144 x 256 within +-1 %, dense-call2-256.txt). Below kDenseSharedEndRows16
    // the per-head rule further down (8 lanes x 16 row groups, the weight shared) replaces it.
    if (row_vectors == 16 && p.dense_rows && p.rows >= kFourRowsPerThreadRows && p.rows < kOneVectorLaneDenseRows) {
      two.threads_per_row = 16;
      two.rows_per_block = 4;
      two.rows_per_thread = 8;
      two.reconvert = true;
      two.dense = true;
    } else if ((row_vectors == 16 || row_vectors == 32) && p.rows >= kOneVectorLaneRows) {
      two.threads_per_row = int(row_vectors);
      two.rows_per_thread = row_vectors == 16 ? 4 : 2;
      two.rows_per_block = 4;
    }
    if (rows_per_thread_unsupported(two).empty()) c = two;
  }
  // Rows of 8 vectors (head_dim 64 in 16-bit types) from kFourRowsPerThreadRows rows: four to a
  // thread, one vector each on 8 lanes, in the 64-thread blocks of the rows of 16 above (two rows
  // a thread on the default 4 lanes had not gained, sixteenth run). H200, median us, interleaved
  // in one process, one row a thread on 4 lanes x 32 rows / this, this again (session 23,
  // docs/results/h200-2026-12-01-s23, rpt64-call5.txt, rpt64-f16-call5.txt): bf16 131072 x 64
  // 11.78/11.55, 11.58; 262144 x 64 18.82/18.50, 18.53; 524288 x 64 33.44/33.31, 33.31; 1048576 x
  // 64 65.09/64.64, 64.90; f16 131072 x 64 11.81/11.81, 11.65; 524288 x 64 33.60/33.34, 33.28;
  // the 3-D table's 4096 x 32 x 64 12.70 -> 12.62 (3d-call5.txt). Not from 32768 rows, where four
  // rows a thread lost (6.08/6.21 on 128-thread blocks, 6.14/6.27 on 64, compare64-call4.txt).
  // Dense calls (ProblemSpec::dense_rows) take the four rows from kFourRowsPerThreadDenseRows,
  // addressed from one base (KernelConfig::dense), and from kFourRowsPerThreadRows eight rows a
  // thread, each converted again for its output (KernelConfig::reconvert), as the rows of 16
  // above. H200, median us, interleaved, 60 samples, two rounds in two processes (session 33,
  // docs/results/h200-2026-12-01-s33), default / four dense / eight dense and reconverted
  // (below*-call8.txt): bf16 65536 x 64 7.84/7.71/7.81, 7.84/7.68/7.94; 98304 10.02/9.57/9.66,
  // 10.27/9.50/9.73; f16 65536 7.87/7.84/7.94, 7.94/7.71/7.94; 98304 10.14/9.92/9.70,
  // 10.11/9.92/9.66; but 49152 mixed (bf16 7.20/7.30, 6.91/7.10; f16 7.07/6.94, 6.98/6.85) and
  // 32768 behind, hence the threshold. Default / eight (dense-call3-64-*.txt): bf16 131072
  // 11.65/11.55, 11.71/11.68; 262144 18.59/18.43, 18.66/18.59; 524288 33.25/32.86, 33.50/33.06;
  // 1048576 65.18/65.02, 65.09/65.31; f16 131072 11.71/11.65, 11.87/11.78; 262144 18.59/18.53,
  // 18.91/18.72; 524288 33.47/32.83, 33.86/33.12; 1048576 65.31/65.15, 64.67/65.25. Eight without
  // the second conversion lost in f16 (131072 11.87, 12.03). From kDenseSharedRows8 until
  // kOneVectorLaneDenseRows the per-head rule further down replaces the dense layouts, and it
  // replaces this one for strided rows altogether (they take its layout from kStridedSharedRows8).
  if (!info.residual && dtype_size(c.input_dtype) == 2 && row_vectors == 8 &&
      p.rows >= (p.dense_rows ? kFourRowsPerThreadDenseRows : kFourRowsPerThreadRows)) {
    KernelConfig four = c;
    four.threads_per_row = 8;
    four.rows_per_block = 8;
    four.rows_per_thread = 4;
    if (p.dense_rows) {
      four.dense = true;
      if (p.rows >= kFourRowsPerThreadRows) {
        four.rows_per_thread = 8;
        four.reconvert = true;
      }
    }
    if (rows_per_thread_unsupported(four).empty()) c = four;
  }
  // Several rows a thread on several row groups a block read the weight once a block, through
  // shared memory (KernelConfig::weight_shared): rows of 32 vectors (head_dim 256, 16-bit) from
  // kWeightSharedRows (per-head rows of 8 and 16 vectors: below). H200, median us, interleaved in
  // one process, 60 samples, default / weight_shared, rounds in separate processes (session 34,
  // docs/results/h200-2026-12-01-s34, shared-call*.txt). Rows of 32 (16 lanes x 2 rows a thread,
  // 32 lanes from kOneVectorLaneRows):
  // bf16 x 256: 24576 9.63, 9.76, 9.82/9.66, 9.54, 9.57; 32768 11.39, 11.36, 11.46/11.26, 11.23,
  // 11.36; 49152 14.88, 14.82, 14.91/14.72, 14.66, 14.82; 65536 18.34, 18.40, 18.50/18.30, 18.30,
  // 18.40; 131072 33.38, 33.25, 33.41/33.09, 33.06, 33.18; 262144 64.83, 64.99, 65.02/64.45,
  // 64.03, 64.42; 524288 127.39, 127.65, 127.65/126.88, 127.10, 127.04; f16 the same way (0-1.3
  // %); but 16384 7.68, 7.87, 7.94/7.87, 8.03, 8.06 (f16 1.3 % behind too), hence the threshold.
  // Rows of 32 narrower vectors (an input whose alignment allows only 8- or 4-byte vectors) take
  // the rules here and below at the same vector count, not measured.
  if (weight_shared_applies(c) && row_vectors == 32 && p.rows >= kWeightSharedRows)
    c.weight_shared = true;
  // Rows of 32 vectors on 16 lanes (two items a lane, kBulkRowsRmsnorm until kOneVectorLaneRows)
  // are converted again for their output (KernelConfig::reconvert) and, in dense calls, addressed
  // from one base (KernelConfig::dense): 40 registers where 52-56 held the fp32 copies (12 CTAs
  // an SM, not 9). Median us, interleaved, 60 samples, two rounds in two processes (calls 5-6,
  // plans256-call5-*.txt, rc256-call6-*.txt), with the shared weight, alone / with reconvert /
  // with both: bf16 32768 x 256 11.20, 11.36/11.17, 11.26/11.07, 11.23; 131072 33.22,
  // 33.38/32.90, 33.06/32.80, 33.02; f16 32768 11.23, 11.49/11.10, 11.30/11.10, 11.30; 131072
  // 33.34, 33.44/32.99, 33.12/33.06, 33.18; without it, default / both: bf16 24576 9.66,
  // 9.79/9.31, 9.57; f16 9.63, 9.73/9.34, 9.60 (dense alone 4 % behind there). This rule against
  // the kernels before it (call 9, rc256-call9-*.txt), old / new: bf16 8192 6.40, 6.43/6.34, 6.37;
  // 16384 7.81, 7.81/7.81, 7.78; 20480 8.70, 8.67/8.61, 8.64; 24576 9.79, 9.66/9.54, 9.47; f16
  // 16384 7.84, 7.94/7.74, 7.87; 24576 9.76, 9.70/9.47, 9.50; never behind by more than 0.6 %
  // (12288 and f16 8192 within it). The 32 lanes from kOneVectorLaneRows gained nothing from either (262144
  // and 524288 within +-0.5 %). torch.compile's plan at head_dim 256 (32 lanes, four rows a
  // thread, one warp a CTA) ran 0.3-3.4 % behind the shared weight alone in our template (up to
  // 2.2 % dense and reconverted).
  if (c.rows_per_thread > 1 && row_vectors == 32 && c.threads_per_row * 2 == row_vectors) {
    c.reconvert = true;
    c.dense = p.dense_rows && dense_applies(c);
  }
  // Per-head rows of 8 and 16 vectors (head_dim 64 and 128 in 16-bit types) go 8 lanes x 16 row
  // groups, read the weight once a block (KernelConfig::weight_shared) and convert each row again
  // for its output (KernelConfig::reconvert), in these windows:
  // - strided rows (ProblemSpec::rank3: q or k viewed in a fused qkv tensor, whose rows the
  //   kernels address from two strides), two a thread: rows of 16 vectors from kStridedSharedRows
  //   until kStridedSharedEndRows, rows of 8 (one vector a lane) from kStridedSharedRows8 on;
  // - dense rows (ProblemSpec::dense_rows, addressed from one base: KernelConfig::dense): rows of
  //   16 two a thread from kDenseSharedRows16 until kDenseSharedEndRows16, rows of 8 four a thread
  //   from kDenseSharedRows8 until kOneVectorLaneDenseRows.
  // H200, median us, interleaved in one process, 60 samples, rounds in separate processes.
  // Strided, [tokens, 32, D] viewed in [tokens, 48, D]. Rows of 16, the kernels of 9e88edb
  // (session 35, docs/results/h200-2026-12-01-s35, strided-call3-*.txt), default / this: bf16
  // 2048 tokens (65536 rows) 11.46, 11.52/11.33, 11.36; 4096 18.75, 18.66/18.34, 18.27; 8192
  // 33.54, 33.60/33.02, 33.12; f16 2048 11.74, 11.78/11.36, 11.42; 4096 18.82, 18.94/18.34, 18.43;
  // 8192 33.60, 33.54/33.15, 33.15; the layout outside the window (16 lanes x 4 rows) / this
  // (session 36, docs/results/h200-2026-12-01-s36, window128-call1-*.txt): bf16 10240 41.38,
  // 41.31/41.12, 41.12; 12288 49.41, 49.28/48.99, 49.02; 14336 57.66, 57.34/57.02, 57.76; f16
  // 10240-14336 level (+-0.4 %); but 1024 (32768 rows) 8.00, 8.00/8.13, 8.13 and 16384 (524288)
  // level (65.18, 65.28/65.15, 65.15), hence the window. Rows of 8, three rounds (session 36,
  // strided64-call3-*.txt), the four-rows layout (8 lanes x 8 row groups, reconverted with the
  // shared weight below kOneVectorLaneRows) / this: bf16 4096 tokens (131072 rows) 11.71, 11.71,
  // 11.52/11.58, 11.49, 11.49; 6144 15.20, 15.17, 15.07/15.04, 15.04, 14.91; 8192 18.88, 18.85,
  // 18.72/18.62, 18.62, 18.46; 12288 25.98, 25.76, 25.66/25.82, 25.63, 25.47; 16384 33.63, 33.63,
  // 33.41/33.15, 33.38, 33.12; 32768 65.34, 65.34, 65.31/64.96, 65.12, 64.93 (0.5-1.3 % in the
  // mean of the rounds); f16 0.4-1.7 %; k (8 heads of 48) at 16384-65536 tokens 0.8-1.8 %; gemma
  // at 4096 and 8192 tokens 1.4-2.0 %. Without the second conversion: mixed, -0.6 to +0.9 %.
  // Below, against one row a thread on 4 lanes (strided64-call10-*.txt, three rounds, mean of
  // the rounds): 3072 tokens (98304 rows) bf16 10.25 -> 0.955, f16 10.23 -> 0.957; two rounds
  // (strided64-call11-*.txt): 2560 (81920 rows) bf16 9.50, 9.57/8.99, 9.06, f16 9.50, 9.63/9.06,
  // 9.09; 2816 (90112) bf16 9.92, 10.11/9.41, 9.50, f16 9.95, 10.02/9.54, 9.54; but 2048 (65536)
  // 0.995 and 1.006, hence kStridedSharedRows8 (65537-81919 rows not measured).
  // Dense, three rounds (session 36, dense-call5-*.txt), default / this. Rows of 16 (8 lanes x 2
  // rows below kFourRowsPerThreadRows, 16 lanes x 8 rows reconverted and dense from it): bf16
  // 49152 9.70, 9.66, 9.76/9.38, 9.38, 9.54; 65536 11.33, 11.46, 11.55/11.10, 11.20, 11.42; 98304
  // level; 131072 18.46, 18.50, 18.59/18.05, 18.08, 18.27; 163840 level; 196608 25.44, 25.34,
  // 25.44/25.06, 25.12, 25.18; f16 49152 2.8 %, 65536 1.7 %, 131072 1.9 % ahead, 98304-196608
  // level (-0.6 to +0.3 %); but 221184 f16 28.13, 28.13, 28.38/28.45, 28.54, 28.58 and 262144 f16
  // 32.77, 32.93, 32.99/33.34, 33.38, 33.41 (bf16 level at both), hence the window. Rows of 8
  // (8 lanes x 8 rows, four a thread with the shared weight, dense, below kFourRowsPerThreadRows;
  // eight a thread reconverted from it): bf16 98304 9.60, 9.47, 9.66/9.50, 9.44, 9.38; 131072
  // 11.39, 11.26, 11.52/11.30, 11.17, 11.36; 196608 15.30, 15.33, 15.42/14.78, 14.78, 14.91;
  // 262144 18.53, 18.50, 18.53/18.30, 18.05, 18.30; f16 1.3-2.2 % ahead at 98304-262144; but 65536
  // bf16 1.3 % behind, and 393216 and 524288 level (within 0.6 %), hence the window. Gemma bf16
  // (dense-call5-gemma.txt, one round): 131072 x 128 0.978, 196608 x 128 0.991, 131072 x 64 0.972,
  // 196608 x 64 0.967 of the default. Rows of 8 two a thread: 1.4-2.0 % behind four at
  // 98304-131072. The weight shared alone on the other layouts went either way for rows of 16
  // (session 34) and gained for rows of 8 only at 98304-131071 (session 34's window, which this
  // replaces).
  if (!info.residual && dtype_size(c.input_dtype) == 2 && (p.rank3 || p.dense_rows)) {
    const bool sixteen = row_vectors == 16 && (p.rank3 ? p.rows >= kStridedSharedRows && p.rows < kStridedSharedEndRows
                                                       : p.rows >= kDenseSharedRows16 && p.rows < kDenseSharedEndRows16);
    const bool eight = row_vectors == 8 && (p.rank3 ? p.rows >= kStridedSharedRows8
                                                    : p.rows >= kDenseSharedRows8 && p.rows < kOneVectorLaneDenseRows);
    KernelConfig s = c;
    s.threads_per_row = 8;
    s.rows_per_block = 16;
    s.rows_per_thread = eight && p.dense_rows ? 4 : 2;
    s.reconvert = true;
    s.weight_shared = true;
    s.dense = p.dense_rows && dense_applies(s);
    if ((sixteen || eight) && rows_per_thread_unsupported(s).empty() && weight_shared_applies(s)) c = s;
  }
  // 16-bit rmsnorm rows of 65-96 vectors (hidden 520-768) from kBulkRowsRmsnorm rows: 32 lanes x
  // 4 rows a block, two rows a thread (2.25-3 items each), where 64 threads x 2 rows held them
  // (1.1-1.5 items, the second part-filled). H200, median us, interleaved in one process, default
  // / this, two rounds (session 29, docs/results/h200-2026-12-01-s29, rows65-*-call6.txt): bf16
  // 576 x 8192 8.96/8.45, 8.96/8.38; 32768 21.41/20.35, 21.28/20.32; 131072 78.05/73.06,
  // 78.11/73.02; 640 x 8192 9.28/8.74, 9.22/8.70; 131072 83.94/80.70, 83.78/80.67; 704 x 8192
  // 9.60/9.12, 9.66/9.18; 768 x 8192 9.98/9.57, 10.02/9.54; 32768 25.92/25.31, 25.86/25.09; 131072
  // 96.10/95.87, 96.00/95.84; gemma 640 x 8192 9.15/8.61; f16 640 and 768 x 8192-32768 1.9-2.1 %
  // ahead, 131072 within +-0.5 %. Not below kBulkRowsRmsnorm (+-3 %, up to
  // 5 % slower at 256-1024 rows), nor rows of 104-120 vectors (832-960: -3/+5 %); one row a thread
  // on the same lanes gained less (576-768 x 8192 0.95-0.99), 8 rows a block alike. Rows of 65-71
  // vectors (520-568) take it unmeasured; fp32 rows and other architectures were not measured.
  if (!info.residual && dtype_size(c.input_dtype) == 2 && c.cluster == 1 && row_vectors > 64 && row_vectors <= 96 &&
      p.rows >= kBulkRowsRmsnorm) {
    KernelConfig two = c;
    two.threads_per_row = 32;
    two.rows_per_block = 4;
    two.rows_per_thread = 2;
    two.residency = 0;
    two.min_blocks = 0;
    two.loads = 0;
    two.pin_weight = 0;
    if (rows_per_thread_unsupported(two).empty()) c = two;
  }
  // A few rows (<= kFewRowsMax) on sm_90+ let the next kernel launch right after the PDL wait by
  // the kernel's code (KernelConfig::trigger 1), not by the launch's kFlagEarlyTrigger. Without
  // the flag's branch the decode kernels ran faster: H200, bf16, us per launch in a CUDA graph of
  // 100 with PDL, default (auto) / early, two default runs on the same host (session 19, call 1,
  // latency*.txt): rmsnorm 1 x 2048 0.969-0.971/0.952, 32 x 4096 1.178-1.182/1.166, 8 x 8192
  // 1.158-1.163/1.140, 32 x 8192 1.366-1.370/1.341, 8 x 16384 1.251-1.252/1.213; fused add
  // 32 x 2048 1.091-1.092/1.068, 1 x 4096 1.118-1.119/1.093, 32 x 4096 1.290-1.291/1.265; 21 of
  // the 24 sizes of 1-32 rows faster than both default runs (by 0.004-0.038 us), three slower by
  // 0.002-0.016. At 128 rows it went either way by up to 0.03 us (rmsnorm 128 x 2048 faster,
  // 128 x 8192 slower), so larger grids keep the flag. The grids here have at most 128 CTAs, one
  // wave on the H200; on a GPU with fewer SMs the early trigger stays correct (the next kernel
  // launches once every CTA has triggered or exited) but was not timed. The SM count does not
  // enter, so that prewarm without the GPU builds the same kernel.
  if (arch.has_pdl() && p.rows <= kFewRowsMax) c.trigger = 1;
  // Below kPinWeightRows on sm_90+, the lines a decode-size call reads are asked of the L2 before
  // the PDL wait (KernelConfig::prefetch), so that after it they come from L2, not DRAM: rmsnorm
  // its input at up to kFewRowsMax rows and its weight above; the fused add its residual and
  // input where a CTA's share of the row is at most 4096 elements. H200, bf16, us per launch in a
  // CUDA graph of 100 with PDL, buffers filled by cuMemsetD8 (the state a PyTorch process is in),
  // default / forced, one process each, one run (session 20, call 2, latency-*-call2.txt; a second
  // default run within 0.03): rmsnorm input 32 x 4096 1.162/1.131, 32 x 8192 1.351/1.237, 8 x
  // 16384 1.204/1.165, 32 x 16384 1.723/1.687 (1-32 rows of 2048 within 0.006); its weight at 128
  // rows 2048 1.163/1.139, 4096 1.621/1.477, 8192 1.846/1.850, 16384 2.799/2.769 (but 1-32 rows of
  // 2048 0.02-0.03 slower; the input at 128 rows of 8192-16384 0.04-0.08 slower). Fused add
  // residual and input: 32 x 2048 1.061/1.024, 128 x 2048 1.487/1.220, 32 x 4096 1.246/1.195,
  // 128 x 4096 1.820/1.753, 32 x 8192 1.634/1.483, 1 x 16384 1.281/1.182, 32 x 16384 2.077/1.973
  // (1 x 2048 0.972/0.980, the rest of 1-32 rows 0.001-0.1 faster); not rows of 8192-16384 on one
  // CTA (128 x 8192 2.370/2.342 here but 2.349/2.380 in kernel-filled buffers, 128 x 16384
  // 3.666/3.967). In kernel-filled buffers the same choices were as fast or faster at every other
  // size (compare-kfill-call2.txt). A weight prefetch by every CTA (call 1) cost up to 0.2 us at
  // 128 rows: hence one CTA asks for it (rms_norm.cuh). Up to kFewRowsMax rows split over a
  // cluster (hidden 4096-16384) ask for the weight too: with `bench --latency --weights 100`
  // (each launch reads its own weight from HBM, as a model's layers do; call 7,
  // compare-weights-call7.txt), input / weight + input: rmsnorm 1 x 4096 1.124/1.080, 32 x 4096
  // 1.278/1.194, 8 x 8192 1.271/1.185, 32 x 8192 1.372/1.270, 1 x 16384 1.365/1.227; fused add,
  // residual + input / all three: 8 x 4096 1.191/1.142, 8 x 8192 1.289/1.216, 32 x 8192
  // 1.510/1.472, 8 x 16384 1.372/1.279; with one warm weight (call 2) within +-0.025 either way.
  // Not the rows of 2048 on one CTA (warm: 0.02-0.03 us slower with the weight, cold: even).
  // Only where timed: rows of up to 16384 elements (wider ones ask for shares of 4096-32768
  // elements a CTA, and the fused add's 16384-element shares lost), one row per CTA (or cluster)
  // held in registers; not the short rows several to a CTA (per-head norms), and not a re-read
  // row, which below kPinWeightRows is the SM-count window's kernel on a GPU of under 64 SMs (that
  // window keeps its one kernel).
  if (arch.has_pdl() && p.rows < kPinWeightRows && p.hidden <= 16384 && c.residency < 2 && c.rows_per_block == 1) {
    const bool few = p.rows <= kFewRowsMax;
    if (!info.residual) c.prefetch = few ? kPrefetchInput : kPrefetchWeight;
    else if (p.hidden / c.cluster <= 4096) c.prefetch = kPrefetchResidual | kPrefetchInput;
    if (few && c.cluster > 1) c.prefetch |= kPrefetchWeight;
    c.prefetch = prefetch_needed(c);
  }
  // Strided rows of 8 vectors on the shared-weight layout above (two a thread) go by head blocks
  // (KernelConfig::head_blocks) where the call has kHeadBlockHeads heads a token (32: q of many
  // models; 24: q and k of SD3), on heads / 2 row groups a block: block t takes token t's heads,
  // without the row division and the row bounds. H200, median us, interleaved in one process,
  // 60 samples, rounds in separate processes, head_blocks=0 / this. 32 heads, q of [tokens, 48,
  // 64] (session 37, docs/results/h200-2026-12-01-s37, q64-*-call5.txt): bf16 2560 tokens 8.96,
  // 9.06/8.61, 8.77; 4096 11.52, 11.49/11.26, 11.46; 8192 18.53, 18.62/18.37, 18.43; 16384 33.25,
  // 33.38/33.12, 33.15; f16 2560 8.90, 9.02/8.61, 8.70; 4096 11.42, 11.52/11.23, 11.42; 8192
  // 18.59, 18.56/18.43, 18.53; 16384 33.34, 33.47/33.02, 33.22. 24 heads, q of [tokens, 72, 64],
  // 12 row groups a block against the layout's 16 (session 39, docs/results/h200-2026-12-02-s39,
  // three calls, hb24*, l24*, v24*): bf16 4096 9.92, 9.82/9.86, 9.66; 8192 15.10, 15.07, 15.20,
  // 15.17, 15.10, 14.98/15.14, 14.94, 15.10, 15.07, 15.04, 15.04; 16384 26.08, 25.79, 26.62,
  // 25.82, 25.82, 25.79/25.95, 25.63, 26.08, 25.66, 25.70, 25.73; f16 4096 9.82/9.70, 8192
  // 15.01/14.85, 16384 25.82/25.76 (13 of 15 ahead, 0.7 % in the mean). But 64 heads of
  // [tokens, 96, 64] (two blocks a token, the grid's second dimension, which the GPU schedules
  // after the first: every token's first 32 heads, then every token's second) ran slower: 2048
  // tokens 11.39/11.46, 4096 18.40/18.66, 8192 33.22/34.21 (q64x64-r1-call5.txt), so only calls
  // whose heads are one block; with a token's two blocks adjacent in dispatch order they ran level
  // with head_blocks=0, no gain to take (session 38, docs/results/h200-2026-12-02-s38,
  // h64*-call1.txt). For k of 8 and 16 heads, whole tokens a block without bounds (a template
  // variant) moved nothing beyond the spread between processes (session 38, h8-*,
  // h16-*-call5.txt). Without the bounds alone, the dense rows of 8 and the strided rows of 16 ran
  // 3-4.5 % slower (ptxas issued later rows' loads after the first rows' arithmetic; q128-*,
  // d64-*-call2.txt), so only these rows.
  const bool head_block_heads =
      std::find(std::begin(kHeadBlockHeads), std::end(kHeadBlockHeads), p.heads) != std::end(kHeadBlockHeads);
  if (row_vectors == 8 && c.weight_shared && c.rows_per_thread == 2 && head_block_heads) {
    KernelConfig b = c;
    b.rows_per_block = int(p.heads / 2);
    b.head_blocks = true;
    if (head_blocks_fit(b, p.heads)) c = b;  // fit: per-head (rank3) rows, no prefetch
  }
  // rmsnorm's output stores carry the L2 evict-last hint (KernelConfig::keep_out) where the output
  // outgrows the L2: the written lines then outlast the input lines read around them, as the fused
  // add's do from kKeepOutRows. H200, bf16 unless noted, median us, interleaved in one process,
  // default / keep_out, two rounds in separate processes (session 39, docs/results/
  // h200-2026-12-02-s39, calls 5-8), here as keep / default averaged over the rounds, by output
  // bytes. Held rows (residency 0-1): hidden 2048 at 32, 48, 64, 96, 128, 256, 512 MiB 1.010,
  // 1.001, 0.991, 0.978, 0.979, 0.988, 0.994 (32768 rows 63.33-63.90/62.21-62.56; gemma 0.979, f16
  // 0.977 at 128 MiB); 5120 and 6144 at 64, 96, 128, 256 MiB 0.993, 0.967, 0.973, 0.987 and 0.998,
  // 0.968, 0.975, 0.988; 8192 at 64 and 96 MiB 0.991, 0.968; 512 and 1024 at 48 MiB 1.034, 1.031,
  // at 64 MiB 1.016, 1.013, at 96-256 MiB 0.985-0.995; 1536 (rows of 192 vectors) 1.000-1.010 at
  // 48-256 MiB; 16384 (late weight) at 48, 64, 96 MiB 1.030, 1.008, 0.978; 2560 and 3072 (hinted
  // loads) at 48 and 64 MiB 0.990, 0.975 and 0.987, 0.977; fp32 1024 at 64, 128, 256 MiB 0.991,
  // 0.975, 0.989. Rows of at most 512 bytes gain from less: hidden 64 (dense) at 96-256 MiB
  // 0.963-0.986; 128 at 48 MiB 1.000, at 64-128 MiB 0.973-0.987; 256 at 48 MiB 1.001, at 64-128 MiB
  // 0.964-0.993; per-head [4608, 48, 128] (54 MiB) 0.986, [8192, 32, 128] 0.989, [8192, 16, 256]
  // 0.995, [16384, 32, 64] 0.992, [32768, 32, 64] 0.971; strided q views of a qkv tensor: [8192,
  // 32 of 48, 128] 0.991, [16384, 32 of 48, 128] 0.986, [16384, 32 of 48, 64] 0.994, [32768, 32 of
  // 48, 64] 0.978; but [8192, 32, 64] (32 MiB) 1.006 and strided rows of 64 at 24-48 MiB 1.001.
  // Re-read rows (residency 2, read evict-first the second time already): hidden 4096 at 64, 96,
  // 128, 256, 512 MiB 0.987, 0.980, 0.984, 1.001, 1.013; 8192 at 128, 256, 512 MiB 0.981, 0.995,
  // 1.002; 2560 at 96, 128, 256 MiB 0.965, 0.979, 0.996; 3072 at 96-192 MiB 0.986-0.992, at 256 and
  // 384 MiB 0.993, 0.996; fp32 2048 at 64, 128, 256 MiB 0.988, 0.986, 1.003, fp32 4096 at 128 and
  // 256 MiB 0.984, 0.997: hence the window. Clusters, split rows and rows staged in shared memory
  // were not timed with it; other architectures (other L2 sizes) were not measured.
  // Where the hint's stores cost registers they cost CTAs an SM, and then the hint loses (sm_90a
  // SASS of every such kernel with and without it: docs/results/h200-2026-12-02-s40,
  // keep-registers*.txt; H200, bf16, median us, no hint / the hint / the hint under a floor, two
  // rounds in separate processes: session 40, calls 4-5, w32-*, w12-*, g-*):
  // - Re-read rows of more than 2.5 vectors a thread whose first pass reads with the evict-last
  //   hint (loads 3): none. Without a floor ptxas took 129 of the 232 such kernels in the window
  //   past 32 registers (16-bit rows of 12288-16128 on 512 threads 38-40, of 24832-32768 on 1024
  //   threads 34-42), and under one (the heuristic's own from 12544 on 512 threads, or one for
  //   the CTAs an SM holds) they spill 8-16 bytes a thread. bf16 32768 (4 vectors a thread): 2048
  //   rows 68.3 / 90.8 / 75.7, 4080 rows 129.3 / 180.2 / 144.8. Where the template's store at
  //   base + offset (store_vec_keep_at) keeps them at 32 registers the two hints still lose
  //   together: 2048 x 28672 60.5 / 61.3, 2048 x 32768 (38 registers) 67.8 / 87.8
  //   (docs/results/h200-2026-12-02-s41, call 2, b28-*, b32-*).
  // - The same rows read plainly (loads 0: wide 16-bit rows up to kHintedWidePlainBytes, fp32
  //   rows of more than 10240 to 16384) take it. They do so at 32 registers without a floor
  //   (16-bit rows of 4 vectors a thread by store_vec_keep_at: 42 -> 32 at 32768, 34 -> 32 for f16
  //   24832-32512; regs-at2.txt), and the hint gains as on the other rows: bf16 1024 x 32768 35.3
  //   / 34.8 (38.0 with the hinted store's address register), fp32 16384 1024 rows 35.2 / 34.4,
  //   2048 rows 69.1 / 66.9 (call 2); the other shapes timed (calls 3 and 5: 16-bit 24576-32768
  //   at 1024-2040 rows, gemma, fp32 10752-14336 at 2048 and 4096 rows) level to 4.5 % faster.
  //   No floor: these were timed without one, and a floor changes the SASS of 48 of their 120
  //   kernels.
  // - Re-read rows of at most 2.5 vectors a thread fit 32 registers with the hint. On 256 and 512
  //   threads their kernels are declared for the CTAs an SM holds (the floor changed ptxas's
  //   schedule, not the registers): 8192 x 4096 33.25 / 33.05 / 32.65, 8192 x 8192 64.63 / 63.41 /
  //   63.05 (no hint here: under the same floor). Rows on 128 threads (2304-2816) keep session
  //   39's kernels (no floor).
  // - Held 16-bit rows of 1537-2047 vectors on 512 threads (weight loaded late): 40 registers
  //   without the hint, 44 with it, 2 CTAs an SM instead of 3: 14336 at 4096 rows (112 MiB) 57.0
  //   without, 59.0 with (12288, 1536 vectors at 40 registers either way: 48.9 / 47.4).
  // - The hint on the tail (KernelConfig::keep_tail): short re-read rows past the window, where
  //   hinting every row lost, and from 128 MiB on 128-256 threads, hint only the rows of the
  //   output's last kKeepTailMib = 16 MiB, so the kernel ends with them in L2 rather than with
  //   lines that evicted one another. H200, median us, interleaved in one process, two rounds
  //   (session 51, call 2, docs/results/h200-2026-12-04-s51): no hint (no floor) / every row / the
  //   last 16 / 32 / 64 MiB: bf16 32768 x 4096 126.02, 125.41 / 126.62, 126.14 / 124.96, 124.32 /
  //   125.22, 124.67 / 125.60, 124.93; 65536 x 4096 249.95, 249.63 / 252.45, 252.48 / 248.51,
  //   248.77; 32768 x 8192 248.42, 248.54 / 249.28, 249.44 / 247.90, 247.20; 65536 x 8192 495.68,
  //   495.14 / 499.81, 499.52 / 493.89, 494.18; gemma 32768 x 4096 125.54, 125.28 / 125.76, 125.66
  //   / 124.45, 124.42, x 8192 248.64, 248.99 / 249.25, 249.41 / 247.68, 247.55; 65536 x 2560 (128
  //   threads) 157.09, 158.02 / 157.92, 157.50 / 156.10, 155.84; 65536 x 3584 217.73, 217.76 /
  //   217.70, 217.73 / 216.83, 216.93; fp32 32768 x 2048 125.47, 125.28 / 126.18, 126.50 / 124.77,
  //   124.80; fp32 16384 x 4096 125.12, 125.09 / 125.44, 125.57 / 124.22, 124.26. Inside the window,
  //   every row / the last 16 MiB: 32768 x 2560 79.23, 79.33 / 78.59, 78.43; 32768 x 3584 109.34,
  //   109.66 / 108.99, 108.96; f16 16384 x 4096 63.39, 63.55 / 62.91, 62.72; fp32 16384 x 2048 63.26,
  //   63.17 / 63.04, 63.01 (f16 12288 x 4096, 96 MiB: level). Not where it lost or was level: 512
  //   threads with part-filled items (32768 x 7168 218.21, 217.98 without / 219.55, 219.26; 65536 x
  //   7168 432.64, 432.32 / 434.75, 434.59), 1024 threads (f16 16384 x 18432 279.94, 280.10 /
  //   280.10, 280.16), held rows (fp32 16384 x 8192 every row 252.45, 252.54 / the tail 253.89,
  //   253.41), and the fused add (session 51, call 1: every row 0.5-0.8 % ahead of the tail at 8192 x
  //   16384 and 32768 x 4096). 512 threads with whole items inside the window (8192 x 8192) were not
  //   timed with it and keep the hint on every row.
  if (!info.residual && c.cluster == 1 && c.split == 1 && c.residency <= 2) {
    const std::int64_t row_bytes = p.hidden * dtype_size(c.output_dtype);
    const std::int64_t out_bytes = p.rows * row_bytes;
    const std::int64_t threads = c.block_threads();
    if (c.residency == 2) {
      const bool short_row = !over_keep_out_vectors(row_vectors, threads);
      const bool tail = short_row && ((threads <= 256 && out_bytes >= kKeepTailBytes) ||
                                      (threads == 512 && row_vectors % threads == 0 &&
                                       out_bytes >= kKeepOutRereadEndBytes));
      c.keep_out = tail || (out_bytes >= kKeepOutRereadBytes && out_bytes < kKeepOutRereadEndBytes &&
                            (short_row || c.loads == 0));
      if (tail) c.keep_tail = kKeepTailMib;
      if (c.keep_out && short_row && c.min_blocks == 0 && threads >= 256)
        c.min_blocks = int(arch.max_threads_per_sm() / threads);
    } else {
      const bool costs_ctas = dtype_size(c.input_dtype) == 2 && threads == 512 && row_vectors > 1536 &&
                              row_vectors < 2048;
      const std::int64_t held_bytes = held_wide ? kKeepOutRereadBytes : kKeepOutHeldBytes;
      c.keep_out = !costs_ctas && (out_bytes >= held_bytes ||
                                   (row_bytes <= kKeepOutShortRowBytes && out_bytes > kKeepOutShortBytes));
    }
  }
  return c;
}

}  // namespace normjit::detail

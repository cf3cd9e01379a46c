// Kernel-shape heuristics, pure functions of (problem, arch); thresholds cite measurements.
#pragma once
#include "op_registry.hpp"

#include <vector>

namespace normjit::detail {

// Widest row the RMSNorm family takes (spec rmsnorm.md: MUST 65536, SHOULD 262144). Rows wider
// than one block holds well are split over a thread-block cluster on sm_90+ and re-read from L2
// (residency 2) elsewhere.
constexpr std::int64_t kMaxRmsHidden = 262144;
// Most CTAs a row may be split over by the heuristics but for the widest rows (the portable
// cluster size limit).
constexpr int kMaxCluster = 8;
// Most CTAs of a cluster on sm_90 (the widest staged rows, and forced clusters): sizes above
// kMaxCluster are non-portable, the kernel opts in at load (runtime.cpp); Hopper schedules 16.
constexpr int kMaxClusterNonPortable = 16;
// 16-byte vectors a staged row's CTAs read (x, and r for the fused add) from which the row goes
// over kMaxClusterNonPortable CTAs on sm_90 (choose_rms_norm).
constexpr std::int64_t kWideReadVectors = 32768;
// Largest staged share (bytes of x, and r for the fused add) a CTA of such a 16-CTA cluster holds.
constexpr std::int64_t kWideMaxShareBytes = 64 * 1024;
// The same for the fp32 fused add's shares of whole items (choose_rms_norm): 2-3 CTAs an SM.
constexpr std::int64_t kWideMaxShareBytesF32FusedAdd = 88 * 1024;
// Most CTAs that may share a row without a cluster (KernelConfig::split).
constexpr int kMaxSplit = 8;
// Most rows of a call whose rows are spread over more SMs than one per row (choose_rms_norm:
// rows of 512-4096 vectors over 4-8-CTA clusters on sm_90+, hidden-8192 rmsnorm rows shared by
// two CTAs before).
constexpr std::int64_t kFewRowsMax = 32;
// Most rows whose cluster shares are 256 vectors rather than 512 (choose_rms_norm).
constexpr std::int64_t kTinyRowsMax = 8;
// Row count from which rmsnorm rows of 2048 vectors (hidden 16384, 16-bit) sit on 256 threads
// with the weight loaded after the reduction, until kBulkRowsRmsnorm (choose_rms_norm).
constexpr std::int64_t kLateWeightRows = 1024;
// Row count from which the fused add's output stores carry an L2 evict-last hint
// (KernelConfig::keep_out; rows of 512-2048 vectors, choose_rms_norm).
constexpr std::int64_t kKeepOutRows = 2048;
// rmsnorm's output stores carry the same hint where its output outgrows the L2 by these bytes
// (choose_rms_norm): held rows (residency 0 or 1) from kKeepOutHeldBytes, or above
// kKeepOutShortBytes for rows of at most kKeepOutShortRowBytes; re-read rows (residency 2) from
// kKeepOutRereadBytes until kKeepOutRereadEndBytes. Short re-read rows take it on the rows of the
// output's last kKeepTailMib MiB only (KernelConfig::keep_tail): on 128-256 threads from
// kKeepTailBytes, on 512 threads with whole items from kKeepOutRereadEndBytes (choose_rms_norm's
// end). keep_out_row_classes gives the row counts at these bytes, which prewarm adds for a problem
// of unknown rows.
constexpr std::int64_t kKeepOutHeldBytes = std::int64_t(96) << 20;
constexpr std::int64_t kKeepOutShortBytes = std::int64_t(48) << 20;
constexpr std::int64_t kKeepOutShortRowBytes = 512;
constexpr std::int64_t kKeepOutRereadBytes = std::int64_t(64) << 20;
constexpr std::int64_t kKeepOutRereadEndBytes = std::int64_t(256) << 20;
constexpr std::int64_t kKeepTailBytes = std::int64_t(128) << 20;
constexpr int kKeepTailMib = 16;
// Row count from which a row held in registers with its weight, one row per CTA and no cluster,
// pins the weight loads ahead of the row's first use (KernelConfig::pin_weight, choose_rms_norm).
constexpr std::int64_t kPinWeightRows = 256;
// Row count from which rmsnorm rows of 2049-4096 16-byte vectors, re-read by one 1024-thread CTA,
// load with the L1/L2 hints by pass (loads 3, choose_rms_norm). The row class of kKeepOutRows.
constexpr std::int64_t kHintedWideRows = 2048;
// Output bytes up to which those rows, where they have more than 2.5 vectors a thread, read
// plainly and store with the L2 evict-last hint instead (choose_rms_norm).
constexpr std::int64_t kHintedWidePlainBytes = std::int64_t(128) << 20;
// Row counts from which the re-read layout below wins (H200 measurements in heuristics.cpp).
constexpr std::int64_t kBulkRowsRmsnorm = 8192;
// Row count from which rmsnorm's re-read rows of 2048 16-byte vectors (hidden 16384 in 16-bit
// types) on 512 threads are declared for 2 CTAs an SM, not 3 (choose_rms_norm).
constexpr std::int64_t kWideRereadTwoCtaRows = 32768;
// Row count from which rmsnorm rows of 896-1280 16-byte vectors (hidden 7168-10240 in 16-bit
// types) are re-read on 512 threads rather than held on 128-256 (choose_rms_norm).
constexpr std::int64_t kRereadNpotRows = 16384;
// Row count from which rmsnorm rows of 16 16-byte vectors (head_dim 128) go four to a thread
// (choose_rms_norm), two from kBulkRowsRmsnorm; rows of 8 (head_dim 64) four, one below.
constexpr std::int64_t kFourRowsPerThreadRows = 131072;
// Row count from which dense rmsnorm rows of 8 16-byte vectors (ProblemSpec::dense_rows) go four
// to a thread, eight from kFourRowsPerThreadRows (choose_rms_norm).
constexpr std::int64_t kFourRowsPerThreadDenseRows = 65536;
// Row count from which rmsnorm rows of 16 and 32 16-byte vectors (head_dim 128 and 256) put one
// vector on each lane (choose_rms_norm).
constexpr std::int64_t kOneVectorLaneRows = 262144;
// Row count from which dense rmsnorm rows of 16 16-byte vectors (ProblemSpec::dense_rows), eight
// to a thread from kFourRowsPerThreadRows, go one vector a lane as above (choose_rms_norm).
constexpr std::int64_t kOneVectorLaneDenseRows = 393216;
// Row count from which rmsnorm rows of 32 16-byte vectors (head_dim 256) several to a thread read
// the weight once a block through shared memory (KernelConfig::weight_shared; choose_rms_norm).
constexpr std::int64_t kWeightSharedRows = 32768;
// Per-head rmsnorm rows of 8 and 16 16-byte vectors (head_dim 64 and 128) go 8 lanes x 16 row
// groups with the weight shared and the output reconverted (choose_rms_norm): strided ones
// (ProblemSpec::rank3) of 16 vectors from kStridedSharedRows until kStridedSharedEndRows, of 8
// from kStridedSharedRows8 on; dense ones (ProblemSpec::dense_rows) of 16 vectors from
// kDenseSharedRows16 until kDenseSharedEndRows16, of 8 from kDenseSharedRows8 until
// kOneVectorLaneDenseRows.
constexpr std::int64_t kStridedSharedRows = 65536;
constexpr std::int64_t kStridedSharedEndRows = 524288;
constexpr std::int64_t kDenseSharedRows16 = 49152;
constexpr std::int64_t kDenseSharedEndRows16 = 221184;
constexpr std::int64_t kDenseSharedRows8 = 98304;
constexpr std::int64_t kStridedSharedRows8 = 81920;
// Strided per-head rows of 8 vectors on that layout go by head blocks (KernelConfig::head_blocks)
// where a call has one of these heads a token, a block of heads / 2 row groups holding exactly one
// token's heads (choose_rms_norm). The same list selects every head-blocks kernel the heuristics
// build, for prewarming a per-head problem whose heads are not known (op_registry.cpp: configs_for).
constexpr std::int64_t kHeadBlockHeads[] = {24, 32};
constexpr std::int64_t kBulkRowsFusedAdd = 8192;
// Row count from which rows of more than 2048 vectors take the many-rows layouts of
// choose_rms_norm (measured at 1024 rows; fewer rows keep the row in a cluster's registers).
constexpr std::int64_t kBulkRowsWide = 512;
// Row count up to which (from kLateWeightRows) rmsnorm's 16-bit rows of 2049-4096 vectors with
// an fp32 weight are held on their 1024-thread CTA as rows with a weight of their own type are
// (choose_rms_norm: held_wide_row); from here they are re-read.
constexpr std::int64_t kHeldWideF32WeightEndRows = 4096;
// Row counts that pick every kernel the heuristics may choose for one problem (prewarm builds
// one per entry for a problem of unknown rows, ProblemSpec::rows 0, without repeats). A choice
// changes only at kTinyRowsMax + 1, kFewRowsMax + 1, kPinWeightRows, kLateWeightRows,
// kKeepOutRows (= kHintedWideRows), kBulkRowsRmsnorm, kRereadNpotRows, kFourRowsPerThreadRows (rmsnorm rows of
// 16 vectors: two rows a thread, then four, or eight when dense; of 8: one, then four, or eight
// when dense), kFourRowsPerThreadDenseRows (dense rows of 8: four), kOneVectorLaneRows,
// kOneVectorLaneDenseRows, kWeightSharedRows, kStridedSharedRows (= kFourRowsPerThreadDenseRows),
// kStridedSharedEndRows, kStridedSharedRows8, kDenseSharedRows16, kDenseSharedEndRows16,
// kDenseSharedRows8, kWideRereadTwoCtaRows, kBulkRowsWide, kHeldWideF32WeightEndRows and the
// thresholds below, which are all >= 8192. Rows of more than 2048
// vectors take their many-rows layouts there (on sm_90+ they do not switch at kPinWeightRows);
// rmsnorm's 16-bit rows of 4096 vectors switch again at kLateWeightRows (held from there), its rows
// of 2049-4096 vectors at kHintedWideRows. Rows of 2048 vectors on sm_90 switch at SM-count multiples too
// (wave_row_classes, which prewarm adds). A CPU test checks that any row count's kernel is one of
// these.
static_assert(kHintedWideRows == kKeepOutRows, "kRowClasses reaches kHintedWideRows through kKeepOutRows");
constexpr std::int64_t kRowClasses[] = {1, kTinyRowsMax + 1, kFewRowsMax + 1, kPinWeightRows, kBulkRowsWide, kLateWeightRows,
                                         kKeepOutRows, kBulkRowsRmsnorm, kRereadNpotRows, kWeightSharedRows,
                                         kDenseSharedRows16, kFourRowsPerThreadDenseRows, kStridedSharedRows8,
                                         kDenseSharedRows8, kFourRowsPerThreadRows, kDenseSharedEndRows16,
                                         kOneVectorLaneRows, kOneVectorLaneDenseRows, kStridedSharedEndRows,
                                         kWideRereadTwoCtaRows, kHeldWideF32WeightEndRows, std::int64_t(1) << 40};
static_assert(kStridedSharedRows == kFourRowsPerThreadDenseRows, "kRowClasses reaches kStridedSharedRows there");
// Rows per SM of the window in which rmsnorm rows of 2048 16-byte vectors (hidden 16384, 16-bit)
// re-read on 4 CTAs an SM (choose_rms_norm, sm_90): more rows than kWaveRowsPerSmLow per SM (two
// waves of the held row's 2 CTAs an SM) and at most kWaveRowsPerSmHigh (one wave of the re-read).
constexpr std::int64_t kWaveRowsPerSmLow = 2;
constexpr std::int64_t kWaveRowsPerSmHigh = 4;
// The SM count prewarm assumes for an arch named without its GPU (Arch::sms 0) when it probes the
// row window above: the window's kernel is the same for every SM count, only its rows move.
constexpr int kProbeSms = 132;
// Row counts that pick every kernel the wave-window rule may choose on `arch` (with kProbeSms
// when arch.sms is 0): the window's first row count and the one after it.
std::vector<std::int64_t> wave_row_classes(Arch arch);
// Row counts at which rmsnorm's evict-last output stores switch on or off for `problem`'s rows
// (kKeepOut*Bytes over its row bytes); none for the fused add, whose rule counts rows.
std::vector<std::int64_t> keep_out_row_classes(const ProblemSpec& problem);
// An SM count whose window holds `rows` (rows / kWaveRowsPerSmHigh, rounded up): what prewarm of
// given rows for an arch named without its GPU also builds for.
int wave_window_sms(std::int64_t rows);
// Row count from which the fused add's rows of 2048 vectors go to 1024 threads (fp32 streamed,
// 16-bit re-read with the hints by pass); fewer rows are held on 512 (choose_rms_norm).
constexpr std::int64_t kStreamRowsFusedAdd = 8192;
// Row count from which the fused add stores its residual item by item (rows of up to 512 vectors,
// a power of two, where the re-read above never applies: still one switch per problem).
constexpr std::int64_t kPerItemStoreRows = 8192;
// Threads per row for `vectors` vectors: two per thread, at most 1024 threads.
int threads_for(std::int64_t vectors);

KernelConfig choose_rms_norm(const ProblemSpec& problem, int max_vec, Arch arch);

// Register residency of a row (KernelConfig::residency) for a chosen shape.
int choose_residency(const KernelConfig& c, bool residual);

// Occupancy floor (KernelConfig::min_blocks) for a chosen shape: 0 except for cluster CTAs.
int choose_min_blocks(const KernelConfig& c);

// Widest power-of-two vector (elements) that divides `hidden` and is <= min(max_vec, 16 bytes).
int vector_width(std::int64_t hidden, int elem_bytes, int max_vec);

}  // namespace normjit::detail

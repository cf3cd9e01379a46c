// RMSNorm family: rmsnorm (2-D and per-head 3-D), gemma_rmsnorm, fused_add_rmsnorm,
// gemma_fused_add_rmsnorm (spec: rmsnorm.md sections 1-5).
//
// One row is owned by kThreadsPerRow threads; a block holds kRowsPerBlock rows; each thread
// handles kItems vectors of kVec elements. With kCluster > 1 (sm_90+, one row per block) a row
// is split over the kCluster CTAs of a thread-block cluster, each owning kHidden / kCluster
// contiguous elements; their partial sums of squares meet through distributed shared memory.
// With kSplit > 1 (rmsnorm out of place, few rows) kSplit independent CTAs share a row without
// talking: each reads the whole row for its sum of squares (the repeats hit L2) and reads the
// weight for, and writes, only its kItems / kSplit items. The output then leaves kSplit SMs,
// not one, which is what a latency-bound call of a few wide rows waits for.
// Where the row lives between the reduction and the output is Cfg::kResidency:
//   0  registers, with the weight loaded alongside the row so its latency overlaps the row's;
//   1  registers, the weight loaded after the reduction (fewer registers for wide rows);
//   2  not kept: the row is re-read (from L2) after the reduction, for rows too wide for the
//      register file. The fused add then writes the residual in the second pass, after the
//      re-read, so in-place updates stay correct; in fp32, where the residual written is the
//      exact sum, the first pass writes it and the second re-reads it alone (kSumStored).
//   3  shared memory (sm_90+): the row's share (x, and r for the fused add) arrives by bulk
//      copies (cp.async.bulk) in kStages parts, each on its own mbarrier, so the reduction of
//      one part overlaps the transfer of the next; both passes then read shared memory, and the
//      second writes the residual and the output as residency 2 does. The host sizes the
//      dynamic shared memory (kernel_config: staged_smem_bytes).
//   4  shared memory, as 3, but each thread copies the vectors it will read itself (cp.async,
//      16 bytes each, one commit group a part) and waits on its own groups: no copy engine, no
//      mbarriers, and sm_80+.
// Activations stay packed in their storage type until used; the fused add keeps the fp32 sum,
// which the spec normalizes unrounded. Cfg provides:
//   In, Weight                       element types (Weight = In or float)
//   kHidden, kVec, kThreadsPerRow, kRowsPerBlock, kCluster, kSplit, kResidency, kLoads (common.cuh:
//   load_chunk), kStores (fused add: residual stores after all loads, or per item)
//   kMinBlocks (the occupancy floor, __launch_bounds__' second argument; 0: none)
//   kResidual (fused add), kGemma (weight offset 1), k3D (per-head rows), kPdl (sm_90+),
//   kWeightFirst (residency 0: the weight is loaded before the PDL wait; the host picks it only
//   when the caller promised that nothing in flight writes the weight)
//   kKeepOut (output stores with an L2 evict-last hint)
//   kKeepTailBytes (with kKeepOut: the hint only on the rows of the output's last bytes; 0: every
//   row. rms_norm_row only)
//   kPinWeight (residency 0: the weight loads are issued before the row's data is used; 2: not
//   the part-filled last item's; 3: the weight's lines asked into L1 after the row's loads; 4: the
//   weight copied into shared memory after them; 5: every weight load issued after the warp's
//   shuffles. KernelConfig::pin_weight)
//   kRowsPerThread (1, or 2, 4 or 8 for short rows: rms_norm_rows)
//   kTrigger (0: the PDL trigger early where the launch sets kFlagEarlyTrigger, else at the end
//   of large blocks; 1: always early; 2: never early; early_trigger / end_trigger below)
//   kPrefetch (a mask of params.cuh's kPrefetchWeight, kPrefetchResidual and kPrefetchInput: lines
//   asked of the L2 before the PDL wait)
//   kReconvert (a row held in registers, 16-bit, no residual: the output pass converts the packed
//   row again (Packed::again) rather than keeping the reduction's fp32 copies; same bits)
//   kDense (rows_per_thread > 1: rows kHidden elements apart in every tensor; rms_norm_rows)
//   kWeightShared (rows_per_thread > 1: the weight read by the block's first row group and handed
//   to the others through shared memory; rms_norm_rows)
//   kHeadBlocks (rows_per_thread > 1, per-head rows: block (t, b) holds heads b * rows-a-block ...
//   of token t, every one of them present; rms_norm_rows)
#pragma once
#include "reduce.cuh"

namespace normjit {

// The steps both row layouts share, each in one place.
// One weight vector of a row held with its weight (residency 0). With Cfg::kWeightFirst it is
// loaded before the PDL wait, with a plain load: the compiler sank read-only (ld.global.nc) loads
// past griddepcontrol.wait, whose memory clobber holds ordinary loads.
template <class Cfg, class W, int kVec>
__device__ __forceinline__ void load_held_weight(Packed<W, kVec>& dst, const W* src) {
  if constexpr (Cfg::kWeightFirst) dst.template load_act<0>(src);
  else dst.load_cached(src);
}

// 1 / rms from the fp32 sum of squares (spec rmsnorm.md: the mean rounded, then eps added).
// For a power-of-two hidden size rmsnorm's mean is a multiply by 2^-k, which scales exactly and so
// gives DIV_RN's bits (ftz flushes a subnormal quotient either way) without the division's range
// check and slow-path branch between the reduction and the output. That shortens the chain a
// latency-bound call waits on: per launch in a CUDA graph with PDL, 128 rows, us, divide /
// multiply: rmsnorm 4096 1.425/1.386, 2048 1.146/1.122 (H200, bf16, session 18,
// anatomy-rounds.txt); beside the peers rmsnorm 2048 x 4096 11.60 -> 11.26 us, the other rows
// within +-1 % (peers-table-call10.txt). The fused add only where a CTA's share of the row is at
// most 2048 elements (hidden <= 16384): with whole rows of 8192-16384 on a CTA ptxas hoisted the
// loads across the reduction without the branch, the held rows of 16384 took 72 registers, not 64
// (one CTA per SM), and those rows ran 2-5 % slower from 512 rows on (same table); per launch in
// the graph, us, divide / multiply, the multiply for every share in session 18's call 10: 128 x
// 2048 1.561-1.618/1.476, 32 x 4096 (4-CTA cluster) 1.281-1.291/1.255, 1 x 8192 (4-CTA cluster)
// 1.139-1.149/1.112, 1 x 16384 (8-CTA cluster) 1.330-1.347/1.296; but shares of 4096 lost (128 x
// 4096 1.818-1.832/1.867, 128 x 16384 3.631-3.652/4.086) (latency-call10.txt against call 11's
// and session 19's call 1). Beside the peers (isolated calls), the fused add's rows of 2048 from
// 512 rows on were within +-1.1 % either way (6.26/6.30 us at 512 rows, 125.26/125.33 at 32768).
template <class Cfg> __device__ __forceinline__ float row_rstd(float sum_squares, float eps) {
  constexpr bool kPow2 = (Cfg::kHidden & (Cfg::kHidden - 1)) == 0;
  constexpr bool kByMultiply =
      kPow2 && (!Cfg::kResidual || (Cfg::kHidden <= 16384 && Cfg::kHidden / Cfg::kCluster <= 2048));
  const float mean = kByMultiply ? mul_rn(sum_squares, 1.f / float(Cfg::kHidden)) : div_rn(sum_squares, float(Cfg::kHidden));
  return rsqrt_approx(add_rn(mean, eps));
}

// Lines asked of the L2 before the PDL wait (Cfg::kPrefetch; KernelConfig::prefetch says why that
// is safe): the weight's where `weight_ahead` (one thread group per share of the row asks: every
// CTA reads the same lines), and the residual's and input's of this thread's rows rows[0..kPer)
// where live(r), by the threads that will read them. col_of, in_row and owned are the row
// layout's (rms_norm_rows, rms_norm_row).
template <class Cfg, int kItems, int kPer, class ColOf, class InRow, class Owned, class Live>
__device__ __forceinline__ void prefetch_lines(const NormParams& p, bool weight_ahead, const i64 (&rows)[kPer],
                                               ColOf col_of, InRow in_row, Owned owned, Live live) {
  typedef typename Cfg::In T;
  const typename Cfg::Weight* w = static_cast<const typename Cfg::Weight*>(p.weight);
  const T* r_ahead[kPer];
  const T* x_ahead[kPer];
#pragma unroll
  for (int r = 0; r < kPer; ++r) {
    r_ahead[r] = static_cast<const T*>(p.residual.ptr) + row_offset<Cfg::k3D>(p.residual, rows[r], p);
    x_ahead[r] = static_cast<const T*>(p.input.ptr) + row_offset<Cfg::k3D>(p.input, rows[r], p);
  }
#pragma unroll
  for (int it = 0; it < kItems; ++it) {
    if (!in_row(it)) continue;
    if (weight_ahead && owned(it)) prefetch_l2(w + col_of(it));
#pragma unroll
    for (int r = 0; r < kPer; ++r) {
      if ((Cfg::kPrefetch & kPrefetchResidual) && live(r)) prefetch_l2(r_ahead[r] + col_of(it));
      if ((Cfg::kPrefetch & kPrefetchInput) && live(r)) prefetch_l2(x_ahead[r] + col_of(it));
    }
  }
}

// Whether this block lets the next kernel launch right after its PDL wait (Cfg::kTrigger, and the
// launch's kFlagEarlyTrigger for auto), and whether it does so at its end instead (blocks of
// >= 512 threads and cluster CTAs; smaller blocks leave it to their exit: rms_norm_row).
template <class Cfg> __device__ __forceinline__ bool early_trigger(const NormParams& p) {
  return Cfg::kTrigger == 1 || (Cfg::kTrigger == 0 && (p.flags & kFlagEarlyTrigger));
}
template <class Cfg> __device__ __forceinline__ bool end_trigger(const NormParams& p, bool large_block) {
  return large_block && (Cfg::kTrigger == 2 || (Cfg::kTrigger == 0 && !(p.flags & kFlagEarlyTrigger)));
}

// One output vector: (x * rstd) * w, each product rounded to fp32 (gemma: w + 1 first). X is
// float[kVec] or a Packed vector (converted on use).
template <class Cfg, class X, class W, int kVec>
__device__ __forceinline__ void normalize_vec(const X& x, float rstd, const Packed<W, kVec>& w, float (&y)[kVec]) {
#pragma unroll
  for (int j = 0; j < kVec; ++j) {
    const float wj = Cfg::kGemma ? add_rn(w[j], 1.f) : w[j];
    y[j] = mul_rn(mul_rn(float(x[j]), rstd), wj);
  }
}

// The second pass's store of one output vector at element `col` of the row; with Cfg::kKeepOut
// hinted where `hinted` (the row is in the tail Cfg::kKeepTailBytes names: keep_tail_row), plain
// elsewhere. Hinted 16-bit stores of rows not held in registers (kKeep false) of 4+ vectors a
// thread: base + offset inside the asm (registers). Not for held rows: their kernels took it up or
// down by 2-10 registers.
template <class Cfg, bool kKeep, int kItems, class T, int kVec>
__device__ __forceinline__ void store_out_vec(T* row, int col, const float (&y)[kVec], bool hinted) {
  if (Cfg::kKeepOut && !hinted)
    store_vec<T, kVec, false>(row + col, y);
  else if constexpr (Cfg::kKeepOut && !kKeep && sizeof(T) == 2 && kVec * sizeof(T) == 16 && kItems >= 4)
    store_vec_keep_at<T, kVec>(row, (long long)col * (long long)sizeof(T), y);
  else
    store_vec<T, kVec, Cfg::kKeepOut>(row + col, y);
}

// Whether `row` is one whose output takes the hint under Cfg::kKeepTailBytes: one of the rows of
// the output's last kKeepTailBytes (at least the last row), every row when it is 0 (a constant
// true then). Blocks are dispatched in grid order, so these rows are written last and their lines
// are the ones the L2 still holds when the kernel ends.
template <class Cfg>
__device__ __forceinline__ bool keep_tail_row(i64 row, i64 rows) {
  if constexpr (Cfg::kKeepTailBytes == 0) {
    return true;
  } else {
    constexpr i64 kRowBytes = i64(Cfg::kHidden) * i64(sizeof(typename Cfg::Out));
    constexpr i64 kTailRows = Cfg::kKeepTailBytes / kRowBytes > 0 ? Cfg::kKeepTailBytes / kRowBytes : 1;
    return row >= rows - kTailRows;
  }
}

// Short rows (a row's threads within one warp) with kRowsPerThread > 1: each thread owns the same
// columns of several rows, kRowsPerBlock apart, so it loads its weight once for all of them and
// has every row's loads in flight before the first reduction. The registers the weight would
// take per row go to more threads per SM instead; torch.compile's per-head kernels have the same
// shape (16 lanes x 2 rows for head_dim 128). Rows are ordered as for one row per thread, so each
// row's arithmetic, and its bits, are those of rms_norm_row.
template <class Cfg>
__device__ __forceinline__ void rms_norm_rows(const NormParams& p) {
  typedef typename Cfg::In T;
  typedef typename Cfg::Weight W;
  constexpr int kVec = Cfg::kVec;
  constexpr int kGroup = Cfg::kThreadsPerRow;
  constexpr int kRows = Cfg::kRowsPerBlock;
  constexpr int kPer = Cfg::kRowsPerThread;
  constexpr int kVectors = Cfg::kHidden / kVec;
  constexpr int kItems = (kVectors + kGroup - 1) / kGroup;
  constexpr bool kExact = kVectors % kGroup == 0;
  static_assert(kGroup <= 32 && Cfg::kCluster == 1 && Cfg::kSplit == 1 && Cfg::kResidency == 0 &&
                    !Cfg::kResidual && !Cfg::kPinWeight,
                "rows per thread: a row within one warp, held with its weight, rmsnorm only");
  static_assert(!Cfg::kWeightShared || kRows > 1, "a weight shared by the block's row groups: several of them");
  static_assert(Cfg::kKeepTailBytes == 0, "keep_tail: rows one a thread group (rms_norm_row)");
  static_assert(!Cfg::kHeadBlocks || (Cfg::k3D && !Cfg::kDense && Cfg::kPrefetch == 0),
                "head blocks: per-head rows, addressed by token and head, no prefetch");

  const int lane = threadIdx.x % kGroup;
  // This thread's first row. Dense rows (Cfg::kDense, below) number fewer than 2^30 (the host
  // checks), so their row numbers are 32-bit; first32 and rows32 are theirs alone.
  const int first32 = Cfg::kDense ? int(blockIdx.x) * (kRows * kPer) + int(threadIdx.x / kGroup) : 0;
  const int rows32 = Cfg::kDense ? int(p.rows) : 0;
  const i64 first = Cfg::kDense ? i64(first32) : i64(blockIdx.x) * (kRows * kPer) + threadIdx.x / kGroup;
  auto col_of = [&](int it) { return (it * kGroup + lane) * kVec; };
  auto in_row = [&](int it) { return kExact || (it * kGroup + lane) * kVec < Cfg::kHidden; };
  const W* w = static_cast<const W*>(p.weight);
  Packed<W, kVec> ws[kItems];
  // Cfg::kWeightShared: the first row group's lanes load the weight (zeros past the row end) and
  // store it to shared memory; after the barrier every other row group reads its columns there.
  // Every thread reaches the barrier: rows past the end are masked, not returned from.
  __shared__ __align__(16) unsigned char w_shared_bytes[Cfg::kWeightShared ? kItems * kGroup * kVec * sizeof(W) : 1];
  W* const w_shared = reinterpret_cast<W*>(w_shared_bytes);
  auto load_weight = [&] {
    const bool from_global = !Cfg::kWeightShared || threadIdx.x < kGroup;
    if (from_global) {
#pragma unroll
      for (int it = 0; it < kItems; ++it) {
        if (!in_row(it)) ws[it].zero();
        else load_held_weight<Cfg>(ws[it], w + col_of(it));
        if constexpr (Cfg::kWeightShared) ws[it].store_shared(w_shared + col_of(it));
      }
    }
    if constexpr (Cfg::kWeightShared) {
      __syncthreads();
      if (!from_global) {
#pragma unroll
        for (int it = 0; it < kItems; ++it) ws[it].load_shared(w_shared + col_of(it));
      }
    }
  };
  if constexpr (Cfg::kWeightFirst) load_weight();
  // The weight asked of the L2 by the grid's first row of threads only.
  if constexpr (Cfg::kPrefetch != 0) {
    i64 rows[kPer];
#pragma unroll
    for (int r = 0; r < kPer; ++r) rows[r] = first + r * kRows;
    prefetch_lines<Cfg, kItems>(
        p, (Cfg::kPrefetch & kPrefetchWeight) && !Cfg::kWeightFirst && blockIdx.x == 0 && threadIdx.x < kGroup, rows,
        col_of, in_row, [](int) { return true; }, [&](int r) { return rows[r] < p.rows; });
  }
  pdl_wait<Cfg::kPdl>();
  if (early_trigger<Cfg>(p)) pdl_launch_dependents<Cfg::kPdl>();

  // Row r of this thread: whether it exists, and where it starts in the input and the output.
  // Dense rows (Cfg::kDense: every tensor's rows kHidden elements apart, fewer than 2^30 rows; the
  // host checks both) are one base address a tensor and compile-time offsets from it, with 32-bit
  // row numbers. Head blocks (Cfg::kHeadBlocks) take the token from blockIdx.x and the heads from
  // blockIdx.y: a token's base from the 64-bit stride, a head's offset in 32 bits (heads x stride1
  // stays within one token's span, which the host checks), and every row exists. Otherwise each
  // row's address comes from the run-time strides, 64-bit.
  const u32 head0 = Cfg::kHeadBlocks ? blockIdx.y * u32(kRows * kPer) + threadIdx.x / kGroup : 0;
  auto live = [&](int r) {
    if constexpr (Cfg::kHeadBlocks) return true;
    else if constexpr (Cfg::kDense) return first32 + r * kRows < rows32;
    else return first + r * kRows < p.rows;
  };
  const T* const x_base = static_cast<const T*>(p.input.ptr) +
                          (Cfg::kDense        ? i64(first32) * Cfg::kHidden
                           : Cfg::kHeadBlocks ? i64(blockIdx.x) * p.input.stride0
                                              : 0);
  T* const y_base = static_cast<T*>(p.out.ptr) + (Cfg::kDense        ? i64(first32) * Cfg::kHidden
                                                  : Cfg::kHeadBlocks ? i64(blockIdx.x) * p.out.stride0
                                                                     : 0);
  auto x_row_of = [&](int r) {
    if constexpr (Cfg::kDense) return x_base + r * kRows * Cfg::kHidden;
    else if constexpr (Cfg::kHeadBlocks) return x_base + (head0 + u32(r * kRows)) * u32(p.input.stride1);
    else return x_base + row_offset<Cfg::k3D>(p.input, first + r * kRows, p);
  };
  auto y_row_of = [&](int r) {
    if constexpr (Cfg::kDense) return y_base + r * kRows * Cfg::kHidden;
    else if constexpr (Cfg::kHeadBlocks) return y_base + (head0 + u32(r * kRows)) * u32(p.out.stride1);
    else return y_base + row_offset<Cfg::k3D>(p.out, first + r * kRows, p);
  };

  Packed<T, kVec> xs[kPer][kItems];
#pragma unroll
  for (int r = 0; r < kPer; ++r) {
    const T* x_row = x_row_of(r);
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      if constexpr (Cfg::kLoads >= 2) {  // a predicated load, not a branch (common.cuh: load_chunk_if)
        xs[r][it].template load_act_if<Cfg::kLoads>(x_row + col_of(it), live(r) && in_row(it));
      } else {
        if (live(r) && in_row(it)) xs[r][it].template load_act<Cfg::kLoads>(x_row + col_of(it));
        else xs[r][it].zero();
      }
    }
  }
  if constexpr (!Cfg::kWeightFirst) load_weight();

  float rstd[kPer];
#pragma unroll
  for (int r = 0; r < kPer; ++r) {
    float ss = 0.f;
#pragma unroll
    for (int it = 0; it < kItems; ++it)
#pragma unroll
      for (int j = 0; j < kVec; ++j) ss = fma_rn(float(xs[r][it][j]), float(xs[r][it][j]), ss);
    ss = warp_group_sum<kGroup>(ss);
    rstd[r] = row_rstd<Cfg>(ss, p.eps);
  }
#pragma unroll
  for (int r = 0; r < kPer; ++r) {
    if (!live(r)) continue;
    T* y_row = y_row_of(r);
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      if (!in_row(it)) continue;
      float y[kVec];
      float xv[kVec];
#pragma unroll
      for (int j = 0; j < kVec; ++j) xv[j] = xs[r][it].template held<Cfg::kReconvert>(j);
      normalize_vec<Cfg>(xv, rstd[r], ws[it], y);
      store_vec<T, kVec, Cfg::kKeepOut, Cfg::k3D>(y_row + col_of(it), y);
    }
  }
  // No trigger at the end: the block's exit is one (rms_norm_row explains why).
}

// One row per thread group: every other layout.
template <class Cfg>
__device__ __forceinline__ void rms_norm_row(const NormParams& p) {
  typedef typename Cfg::In T;
  typedef typename Cfg::Weight W;
  constexpr int kVec = Cfg::kVec;
  constexpr int kGroup = Cfg::kThreadsPerRow;
  constexpr int kRows = Cfg::kRowsPerBlock;
  constexpr int kCluster = Cfg::kCluster;
  constexpr int kSpan = Cfg::kHidden / kCluster;  // elements of a row one CTA owns
  constexpr int kVectors = kSpan / kVec;
  constexpr int kItems = (kVectors + kGroup - 1) / kGroup;
  constexpr bool kExact = kVectors % kGroup == 0;  // no lane runs past the row end
  constexpr bool kKeep = Cfg::kResidency < 2;       // row held in registers
  constexpr bool kEarlyWeight = Cfg::kResidency == 0;
  static_assert(Cfg::kHidden % (kVec * kCluster) == 0, "hidden must split into whole vectors per CTA");
  constexpr int kSplit = Cfg::kSplit;
  static_assert(kSplit == 1 || (kCluster == 1 && kRows == 1 && !Cfg::kResidual && kExact && kItems % kSplit == 0),
                "a split row: one row per CTA, no cluster, no residual, whole items per CTA");
  constexpr int kCtasPerRow = kCluster * kSplit;
  constexpr bool kStaged = Cfg::kResidency >= 3;
  constexpr bool kBulkCopies = Cfg::kResidency == 3;  // else each thread copies its own items (4)
  // Whether a staged row's second pass goes over all of a thread's items in one unrolled sweep
  // (the rule and its measurements: at kSecondUnroll below); kPreWeight depends on it too.
  constexpr bool kOneSweep = kStaged && (sizeof(T) == 2 || Cfg::kResidual) &&
                             (Cfg::kMinBlocks > 0 ? 65536 / (Cfg::kMinBlocks * kGroup * kRows) : 255) >= 96;
  constexpr int kStagedElems = kSpan * (Cfg::kResidual ? 2 : 1);  // a row's staged share: x, then r
  static_assert(!kStaged || (kSplit == 1 && sizeof(T) * kVec == 16), "a staged row: 16-byte vectors, no split");
  // Parts of a staged share: whole items of every lane, so a lane's items of part s are in
  // shared memory once barrier s completes. Up to 4 parts, of kItems / kStages items, the
  // remainder spread over the later ones (5 items: 1, 1, 1, 2), so the reduction of one part
  // overlaps the transfer of the next at every item count. Where the share is not whole items
  // (!kExact) the last part is short: it ends with the share, and the lanes past it skip their
  // last item (in_row). Every part holds at least one vector ((kItems - 1) * kGroup < kVectors).
  constexpr int kStages = !kStaged ? 1 : kItems < 4 ? kItems : 4;
  // First item of part s (s = kStages: kItems), and the part's first element and element count.
  auto stage_item = [](int s) { return s * kItems / kStages; };
  auto stage_start = [&](int s) { return stage_item(s) * kGroup * kVec; };
  auto stage_elems = [&](int s) { return (s == kStages - 1 ? kSpan : stage_start(s + 1)) - stage_start(s); };

  __shared__ float red[RowReduceSmem<kGroup, kRows>::kFloats];
  // Residency 3-4: each row of the block stages its share (x, then r) in dynamic shared memory.
  extern __shared__ __align__(16) unsigned char staged_smem[];
  __shared__ __align__(8) u64 staged_bar[kBulkCopies ? kRows * kStages : 1];

  const int lane = threadIdx.x % kGroup;
  const int row_in_block = threadIdx.x / kGroup;
  T* const x_stage = reinterpret_cast<T*>(staged_smem) + row_in_block * kStagedElems;
  T* const r_stage = x_stage + kSpan;
  u64* const bars = staged_bar + (kBulkCopies ? row_in_block * kStages : 0);
  // The grid is rows / kRows * kCtasPerRow CTAs along x and clusters are (kCluster, 1, 1), so a
  // CTA's rank in its cluster (or its part of a split row) is blockIdx.x % kCtasPerRow. A cluster
  // of several rows a block gives each CTA the same column share of each of the cluster's rows,
  // so each CTA reads only its share of the weight: at 128 rows a block a row, every CTA read the
  // whole weight, as much L2 traffic as the rows themselves.
  const i64 row = kCtasPerRow == 1 ? i64(blockIdx.x) * kRows + row_in_block
                  : kRows == 1     ? i64(blockIdx.x / kCtasPerRow)
                                   : i64(blockIdx.x / kCtasPerRow) * kRows + row_in_block;
  const int first = kCluster == 1 ? 0 : int(blockIdx.x % kCluster) * kSpan;
  const int part = kSplit == 1 ? 0 : int(blockIdx.x % kSplit);
  // Items whose weight this CTA reads and whose output it writes (all of them unless split).
  auto owned = [&](int it) { return kSplit == 1 || it / (kItems / kSplit) == part; };
  // A one-row block is never past the end: the grid has exactly one block per row.
  const bool active = kRows == 1 || row < p.rows;
  const bool hinted = keep_tail_row<Cfg>(row, p.rows);
  auto col_of = [&](int it) { return first + (it * kGroup + lane) * kVec; };
  auto in_row = [&](int it) { return kExact || (it * kGroup + lane) * kVec < kSpan; };
  // Item `it`'s column within the share (shared-memory offsets). col_of and in_row keep the
  // expression written out: through this lambda ptxas scheduled a staged cluster kernel differently.
  auto at_of = [&](int it) { return (it * kGroup + lane) * kVec; };

  const W* w = static_cast<const W*>(p.weight);
  // Registers that hold the row (residency 0/1): packed input, or the fp32 sum for fused add.
  constexpr int kHeld = kKeep ? kItems : 1;
  Packed<T, kVec> xs[kHeld];
  Packed<T, kVec> rs[Cfg::kResidual ? kHeld : 1];
  float hs[Cfg::kResidual ? kHeld : 1][kVec];
  Packed<W, kVec> ws[kEarlyWeight ? kItems : 1];
  // Item `it` of the weight into ws (zero where this CTA has none), for residency 0: alongside the
  // row, or before the PDL wait (Cfg::kWeightFirst; load_held_weight). Weight-first is a kernel of
  // its own rather than a run-time branch: with both paths in one body, ptxas gave the default
  // path more registers (62 -> 66 for hidden 4096 on 128 threads, fewer blocks per SM) and a
  // fused-add schedule with a residual load behind a residual store (sm_90a SASS).
  static_assert(!Cfg::kWeightFirst || Cfg::kResidency == 0, "weight first: a weight held in registers");
  static_assert(!Cfg::kPinWeight || (kEarlyWeight && !Cfg::kWeightFirst && !(Cfg::kResidual && Cfg::kStores == 1)),
                "pin weight: the weight loaded with a held row, every load before the first residual store");
  // kPinWeight 4: the weight copied into shared memory by cp.async right after the row's loads (no
  // register waits for it, so ptxas cannot hold the copy back for register reuse) and read there
  // after the reduction. With one row a block each thread reads only the vectors it copied, so no
  // barrier is needed; with several (a cluster's column shares) the first row's threads copy the
  // block's share once for all its rows, and a block barrier after the reduction publishes it.
  constexpr bool kSharedWeight = Cfg::kPinWeight == 4;
  // kPinWeight 5: the weight asked for only once the warp has its sum of squares (row_sum below).
  constexpr bool kWeightAfterSum = Cfg::kPinWeight == 5;
  static_assert(!kSharedWeight || (kSplit == 1 && kVec * sizeof(W) == 16), "pin weight 4: no split, 16-byte weight vectors");
  __shared__ __align__(16) unsigned char w_copy_bytes[kSharedWeight ? kItems * kGroup * kVec * sizeof(W) : 16];
  W* const w_copy = reinterpret_cast<W*>(w_copy_bytes);
  // `tie`: 0 at run time, added to the address (kPinWeight 5: a value the loads must wait for).
  auto load_weight = [&](int it, u32 tie = 0) {
    if constexpr (kSharedWeight) {
      if (in_row(it) && (kRows == 1 || row_in_block == 0)) copy16_to_shared<false>(w_copy + at_of(it), w + col_of(it));
    } else {
      if (!in_row(it) || !owned(it)) ws[it].zero();
      else load_held_weight<Cfg>(ws[it], w + col_of(it) + tie);
    }
  };
  if constexpr (Cfg::kWeightFirst) {
#pragma unroll
    for (int it = 0; it < kItems; ++it) load_weight(it);
  }
  // The weight asked of the L2 by the first CTA of each share only.
  if constexpr (Cfg::kPrefetch != 0) {
    const i64 rows[1] = {row};
    prefetch_lines<Cfg, kItems>(
        p, (Cfg::kPrefetch & kPrefetchWeight) && !Cfg::kWeightFirst && blockIdx.x < kCtasPerRow && row_in_block == 0,
        rows, col_of, in_row, owned, [&](int) { return active; });
  }
  // Before the PDL wait: the barriers do not depend on the previous kernel.
  __shared__ ClusterSlots<kCluster, kRows> cluster_slots;
  cluster_prepare(cluster_slots);
  if constexpr (kBulkCopies) {
    if (threadIdx.x == 0) {
#pragma unroll
      for (int i = 0; i < kRows * kStages; ++i) mbarrier_init(staged_bar + i);
      mbarrier_init_fence();
    }
    __syncthreads();
  }

  pdl_wait<Cfg::kPdl>();
  if (early_trigger<Cfg>(p)) pdl_launch_dependents<Cfg::kPdl>();

  const T* x_row = static_cast<const T*>(p.input.ptr) + row_offset<Cfg::k3D>(p.input, row, p);
  T* y_row = static_cast<T*>(p.out.ptr) + row_offset<Cfg::k3D>(p.out, row, p);
  T* r_row = static_cast<T*>(p.residual.ptr) + row_offset<Cfg::k3D>(p.residual, row, p);

  if constexpr (kBulkCopies) {
    // One lane per row issues every copy of the share; loads = 1 adds an L2 evict-first hint.
    if (lane == 0 && active) {
#pragma unroll
      for (int s = 0; s < kStages; ++s) {
        const u32 bytes = u32(stage_elems(s) * sizeof(T));
        const int at = stage_start(s);
        mbarrier_expect_bytes(bars + s, Cfg::kResidual ? 2 * bytes : bytes);
        bulk_copy_to_shared<Cfg::kLoads == 1>(x_stage + at, x_row + first + at, bytes, bars + s);
        if constexpr (Cfg::kResidual)
          bulk_copy_to_shared<Cfg::kLoads == 1>(r_stage + at, r_row + first + at, bytes, bars + s);
      }
    }
  } else if constexpr (kStaged) {
    // Each thread copies the items it will read, a commit group per part (loads = 1: evict-first).
#pragma unroll
    for (int s = 0; s < kStages; ++s) {
      if (active) {
#pragma unroll
        for (int it = stage_item(s); it < stage_item(s + 1); ++it) {
          const int at = at_of(it);
          if (!in_row(it)) continue;
          copy16_to_shared<Cfg::kLoads == 1>(x_stage + at, x_row + col_of(it));
          if constexpr (Cfg::kResidual) copy16_to_shared<Cfg::kLoads == 1>(r_stage + at, r_row + col_of(it));
        }
      }
      copies_commit();
    }
  }
  // A staged row whose second pass is one unrolled sweep asks for its first items' weight as soon
  // as its copies are out: the loads land during the first pass, so the second pass does not open
  // on an L2 round trip for them (its later items' loads are issued while earlier ones store).
  // Only where the registers they hold cost no CTA an SM: under an occupancy floor (ptxas keeps
  // to it), or where the staged share leaves room for one CTA an SM anyway (over half of the
  // 227 KiB an SM's CTAs may take). Eight items: the bf16 fused add 163840-262144 at 1024 and
  // 4096 rows ran 0.6-1.3 % faster than without, four 0.4-1.0 %, in two rotated rounds (H100,
  // docs/results/h100-2026-12-05-s62).
  constexpr bool kPreWeightFree = Cfg::kMinBlocks > 0 || kStagedElems * int(sizeof(T)) > 227 * 1024 / 2;
  constexpr int kPreWeight = kOneSweep && kPreWeightFree ? (kItems < 8 ? kItems : 8) : 0;
  Packed<W, kVec> pre_w[kPreWeight > 0 ? kPreWeight : 1];
  if constexpr (kPreWeight > 0) {
#pragma unroll
    for (int it = 0; it < kPreWeight; ++it)
      if (active && in_row(it) && owned(it)) pre_w[it].load_cached(w + col_of(it));
  }

  // Load policies (common.cuh: load_chunk) for a row read once, read first of two times, and
  // re-read; they differ only for loads = 3.
  constexpr int kOnce = Cfg::kLoads == 3 ? 4 : Cfg::kLoads;
  constexpr int kFirst = Cfg::kLoads == 3 ? 3 : Cfg::kLoads;
  // Loads whose lanes may fall outside the row (a part-filled last item, rows past the end) with
  // policies 2-4 are predicated, not branched around (common.cuh: load_chunk_if); plain and
  // streaming ones keep `if`, which the compiler predicates.
  constexpr bool kPredicated = Cfg::kLoads >= 2 && !kStaged && !(kExact && kRows == 1);
  // One vector of x or r with the pass's policy; `again`: the row will be read again (first pass
  // of residency 2).
  auto load_part = [&](Packed<T, kVec>& dst, const T* src, bool again) {
    if (kFirst != kOnce && again) dst.template load_act<kFirst>(src);
    else dst.template load_act<kOnce>(src);
  };
  // The same where `live`, zero elsewhere, predicated.
  auto load_part_if = [&](Packed<T, kVec>& dst, const T* src, bool again, bool live) {
    if constexpr (kPredicated) {
      if (kFirst != kOnce && again) dst.template load_act_if<kFirst>(src, live);
      else dst.template load_act_if<kOnce>(src, live);
    }
  };
  // A re-read fp32 fused add (residency 2) writes the residual in the first pass and re-reads
  // only it: cvt_T(h) is h itself in fp32, the value the norm sees, and the residual never
  // overlaps the input (the output). So the second pass reads one tensor, not two, and the L2
  // holds half the bytes between the passes. The residual store carries the L2 evict-last hint
  // (store_chunk) for the re-read, and its asm's memory clobber keeps the second pass's loads
  // behind it. 16-bit types cannot: the norm sees the unrounded sum, not the rounded residual.
  // Not with the hints by pass (loads 3). H200, fp32, median us, before / this, one process per
  // template set, two rounds (session 45, docs/results/h200-2026-12-02-s45, f*-call1.txt): 1024
  // x 262144 on 8 x 256 (streaming loads, the default) 1663 / 1352, on 8 x 512 1627 / 1226 (61
  // -> 82 % of copy); plain loads, one 1024-thread CTA, 32768 rows: 16384 2148 / 2089, 8192 1088
  // / 1033, 2048 on 256 threads 295 / 260; but the hinted defaults 4096 x 32768 506 / 536, 1024 x
  // 32768 126.4 / 129.0, hinted 16384 x 32768 2012 / 2106 (x and r evict-first on their only
  // read; skipping L1 allocation instead, variant-loads3.diff, h-*-call4.txt: 2007 / 2090).
  constexpr bool kSumStored = Cfg::kResidual && Cfg::kResidency == 2 && sizeof(T) == 4 && Cfg::kLoads != 3;
  // The fp32 values the norm sees of item `it` as loaded (x, and r for the fused add): x, or
  // h = x + r; with `store_residual` the fused add also writes cvt_T(h) back to the residual.
  auto item_values = [&](int it, const Packed<T, kVec>& x, const Packed<T, kVec>& r, float (&v)[kVec],
                         bool store_residual) {
    if constexpr (Cfg::kResidual) {
#pragma unroll
      for (int j = 0; j < kVec; ++j) v[j] = add_rn(x[j], r[j]);
      if (store_residual && active && in_row(it)) store_vec<T, kVec>(r_row + col_of(it), v);
    } else {
#pragma unroll
      for (int j = 0; j < kVec; ++j) v[j] = x[j];
    }
  };
  // Loads item `it` and gives its values (item_values); a staged row (residency 3-4) reads both
  // passes from shared memory.
  auto load_item = [&](int it, float (&v)[kVec], bool store_residual, bool again) {
    const int at = at_of(it);
    Packed<T, kVec> x, r;
    if constexpr (kPredicated) {
      load_part_if(x, x_row + col_of(it), again, active && in_row(it));
      if constexpr (Cfg::kResidual) load_part_if(r, r_row + col_of(it), again, active && in_row(it));
    } else {
      if (!active || !in_row(it)) x.zero();
      else if constexpr (kStaged) x.load_shared(x_stage + at);
      else load_part(x, x_row + col_of(it), again);
      if constexpr (Cfg::kResidual) {
        if (!active || !in_row(it)) r.zero();
        else if constexpr (kStaged) r.load_shared(r_stage + at);
        else load_part(r, r_row + col_of(it), again);
      }
    }
    item_values(it, x, r, v, store_residual);
  };

  float ss = 0.f;
  if constexpr (kKeep) {
    // kStores 0: every load of the row is issued before the first residual store: the compiler
    // may not move a load of x or r past a store to r (it cannot prove they do not alias), so
    // storing item by item costs one memory round trip per item (SASS of the fused add on
    // sm_90a) -- which a latency-bound call pays, while a bandwidth-bound one may prefer the
    // fewer loads in flight of kStores 1 (per item).
    constexpr bool kPerItem = Cfg::kResidual && Cfg::kStores == 1;
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      if constexpr (kPredicated) {
        xs[it].template load_act_if<kOnce>(x_row + col_of(it), active && in_row(it));
        if constexpr (Cfg::kResidual) rs[it].template load_act_if<kOnce>(r_row + col_of(it), active && in_row(it));
      } else {
        if (active && in_row(it)) xs[it].template load_act<kOnce>(x_row + col_of(it));
        else xs[it].zero();
        if constexpr (Cfg::kResidual) {
          if (active && in_row(it)) rs[it].template load_act<kOnce>(r_row + col_of(it));
          else rs[it].zero();
        }
      }
      // kPinWeight 3: the weight's lines asked into L1 with the row's (a prefetch has no register
      // to reuse, so ptxas issues it here; the weight's loads below then find it on the way).
      if constexpr (Cfg::kPinWeight == 3)
        if (in_row(it) && owned(it)) prefetch_l1(w + col_of(it));
      if constexpr (kEarlyWeight && !Cfg::kWeightFirst && !kWeightAfterSum) load_weight(it);
      if constexpr (kPerItem) {
#pragma unroll
        for (int j = 0; j < kVec; ++j) hs[it][j] = add_rn(xs[it][j], rs[it][j]);
        if (active && in_row(it)) store_vec<T, kVec>(r_row + col_of(it), hs[it]);
      }
    }
    if constexpr (kSharedWeight) copies_commit();  // the weight's copies: one group, waited for after the reduction
    // kPinWeight: each item's first word takes `| (weight word & 0)` with a zero the compiler
    // cannot fold, so its use waits for the weight as well as the row. Without it ptxas moved
    // read-only weight loads after instructions that wait for the row (sm_90a SASS of the held
    // kernels of hidden 2048-8192: the weight then left DRAM a round trip late), and the pinned
    // kernels ran up to 8 % faster at 512-2048 rows (heuristics.cpp: pin_weight). kPinWeight 2
    // leaves a part-filled last item unpinned: pinned, ptxas (bf16 fused add, rows of 1.x items)
    // issued that item's loads after the first item's arithmetic, a second round trip.
    if constexpr (Cfg::kPinWeight == 1 || Cfg::kPinWeight == 2) {
      const u32 zero = u32(p.flags) & u32(kFlagNeverSet);
      constexpr int kPinned = Cfg::kPinWeight == 2 && !kExact ? kItems - 1 : kItems;
#pragma unroll
      for (int it = 0; it < kPinned; ++it) xs[it].u.w[0] |= ws[it].u.w[0] & zero;
    }
    // kPinLastRow: the fused add's bf16 rows held on 1024 threads with a part-filled third item
    // (2049-3071 16-byte vectors) tie that item's first words of x and r into the first item's,
    // as kPinWeight does for the weight. Without it ptxas (sm_90a) issued the third item's loads
    // after the first items' adds, into their registers, a round trip late; f16's kernel issues
    // all six together. Pinned, bf16 ran as f16 does: 2-10 % faster at 512-2048 rows
    // (heuristics.cpp: fused_part_reread has the measurements; at 1024 rows, session 55, median
    // us, two rounds, unpinned / pinned: 16400 36.77, 36.93 / 36.45, 36.61; 23552 52.06, 52.00 /
    // 49.89, 49.98; 24560 56.19, 56.03 / 52.42, 52.51). Pinned f16 kernels ran 0.2-1.4 % slower
    // at 5 of 9 shapes (and 3.5 % faster at one), fp32 was not timed: both stay as they were.
    // A part-filled fourth item (3073-4095 vectors, 52 registers) has the same late loads in
    // bf16 (3-5 % slower than f16 at 26640), but no pin tried moved them: pinned, ptxas delays
    // another item's loads instead (docs/benchmarks.md, open lead 10).
    constexpr bool kPinLastRow = Cfg::kResidual && is_bf16<T>::value && !kPerItem && kCluster == 1 && kGroup == 1024 &&
                                 kItems == 3 && !kExact && Cfg::kPinWeight == 0;
    if constexpr (kPinLastRow) {
      const u32 zero = u32(p.flags) & u32(kFlagNeverSet);
      xs[0].u.w[0] |= xs[kItems - 1].u.w[0] & zero;
      rs[0].u.w[0] |= rs[kItems - 1].u.w[0] & zero;
    }
    if constexpr (Cfg::kResidual && !kPerItem) {
#pragma unroll
      for (int it = 0; it < kItems; ++it) {
#pragma unroll
        for (int j = 0; j < kVec; ++j) hs[it][j] = add_rn(xs[it][j], rs[it][j]);
        if (active && in_row(it)) store_vec<T, kVec>(r_row + col_of(it), hs[it]);
      }
    }
#pragma unroll
    for (int it = 0; it < kItems; ++it)
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const float v = Cfg::kResidual ? hs[it][j] : xs[it][j];
        ss = fma_rn(v, v, ss);
      }
  } else if constexpr (kStaged) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) {
      if constexpr (kBulkCopies) {
        if (active) mbarrier_wait(bars + s, 0);
      } else {
        copies_wait(kStages - 1 - s);  // this thread's parts 0..s are in
      }
#pragma unroll 4
      for (int it = stage_item(s); it < stage_item(s + 1); ++it) {
        float v[kVec];
        load_item(it, v, false, true);
#pragma unroll
        for (int j = 0; j < kVec; ++j) ss = fma_rn(v[j], v[j], ss);
      }
    }
  } else if constexpr (kSumStored) {
    // x and r are read once here. Four items' loads go out before their residual stores: no
    // load may pass a store to r (the compiler cannot rule out that they alias), so item by
    // item each load would wait for the store before it.
    constexpr int kBatch = kItems < 4 ? kItems : 4;
#pragma unroll 1
    for (int it0 = 0; it0 < kItems; it0 += kBatch) {
      float v[kBatch][kVec];
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        if (kItems % kBatch == 0 || it0 + b < kItems) load_item(it0 + b, v[b], false, false);
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        if (kItems % kBatch != 0 && it0 + b >= kItems) continue;
        if (active && in_row(it0 + b)) store_vec<T, kVec, true>(r_row + col_of(it0 + b), v[b]);
#pragma unroll
        for (int j = 0; j < kVec; ++j) ss = fma_rn(v[b][j], v[b][j], ss);
      }
    }
  } else {
#pragma unroll 4
    for (int it = 0; it < kItems; ++it) {
      float v[kVec];
      load_item(it, v, false, true);
#pragma unroll
      for (int j = 0; j < kVec; ++j) ss = fma_rn(v[j], v[j], ss);
    }
  }
  ss = row_sum<kGroup, kRows>(ss, red, [&](float warp_sum) {
    if constexpr (kWeightAfterSum) {
      // Every weight load of the thread, together, once the warp's shuffles are done: the warp's
      // sum's bits & a zero the compiler cannot fold go into the address, so ptxas can neither
      // hoist the loads among the row's arithmetic and shuffles nor sink them past the output
      // stores (a store may alias).
      const u32 zero = __float_as_uint(warp_sum) & u32(p.flags) & u32(kFlagNeverSet);
#pragma unroll
      for (int it = 0; it < kItems; ++it) load_weight(it, zero);
    }
  });
  ss = cluster_sum(ss, cluster_slots, row_in_block, lane == 0);

  const float rstd = row_rstd<Cfg>(ss, p.eps);
  if constexpr (kSharedWeight && kRows > 1) {
    copies_wait(0);
    __syncthreads();  // the first row's copies of the block's weight share, for every row
  }

  // Second-pass loads in pairs. No load may pass an earlier store (the compiler cannot rule out
  // that they alias; out may alias x), so item by item every load of the second pass waits for
  // the store before it: one L2 round trip per item. Where the weight is read after the
  // reduction (residency 1) with 4 or more items a thread, and where a row of 4 or more items is
  // re-read with plain loads (residency 2, loads 0: rmsnorm 32768 on t1024 below 2048 rows), both
  // items' loads are issued before the pair's stores. H200, bf16, median us, one by one / pairs,
  // one process each, two rounds (session 22, docs/results/h200-2026-12-01-s22: fused-lw-call2.txt,
  // lw16384-call2.txt, reload32768-call2.txt, pairs32768-call3.txt): fused add 32768 (t1024 residency
  // 1, 4 items) 69.63, 69.60 / 68.06, 68.45 (1024 rows), 263.10, 263.10 / 260.32, 260.32 (4096);
  // rmsnorm 16384 (t256 residency 1, 8 items) 18.98, 18.85 / 18.94, 18.75 (1024), 33.66, 33.47 /
  // 33.57, 33.28 (2048), 66.50, 65.98 / 66.08, 66.08 (4096); rmsnorm 32768 re-read (t1024)
  // 35.74, 35.84 / 35.14, 35.26 (1024 rows, loads 0). Not elsewhere: with the hinted loads of
  // more rows pairs lost (rmsnorm 32768 at 4096 rows 129.12, 129.34 / 131.33, 130.98), on rows
  // of 2 items they cost occupancy (rmsnorm 8192, t512: 32 -> 40 registers, 7 % slower), staged
  // rows (residency 3) lost up to 2.8 %, and fours and eights lost at residency 1 (1.1-13 %).
  constexpr bool kPairs = kItems >= 4 && kItems % 2 == 0 &&
                          (Cfg::kResidency == 1 || (Cfg::kResidency == 2 && Cfg::kLoads == 0));
  // A row held in registers on one CTA (residency 1) reads the weight after the reduction
  // evict-last in L1 and L2: rmsnorm 2048 x 16384 33.57 against 34.59 us (H200, same run;
  // thirteenth run, weight-ab.txt). Only there: it cost 4-15 % on cluster rows and 5 % on the
  // fused add holding the weight (512 x 16384), and changed nothing on re-read rows.
  auto late_weight = [&](Packed<W, kVec>& dst, int it) {
    if constexpr (Cfg::kResidency == 1 && kCluster == 1) dst.template load_act<3>(w + col_of(it));
    else dst.load_cached(w + col_of(it));
  };
  // The second pass's weight of item `it`: loaded during the first pass where kPreWeight asks.
  auto second_weight = [&](Packed<W, kVec>& dst, int it) {
    if constexpr (kPreWeight > 0) {
      if (it < kPreWeight) {
        dst = pre_w[it];
        return;
      }
    }
    late_weight(dst, it);
  };
  constexpr bool kReadPairs = kPairs && !kKeep;
  Packed<W, kVec> pair_w[kPairs ? 2 : 1];
  Packed<T, kVec> pair_x[kReadPairs ? 2 : 1];
  Packed<T, kVec> pair_r[kReadPairs && Cfg::kResidual ? 2 : 1];
  // A staged row's second pass takes all of a thread's items in one unrolled sweep where the
  // occupancy floor leaves registers for it (>= 96 a thread: floors of 3-4 CTAs of 128 threads, or
  // none), so every weight load of the pass (from L2) is in flight at once rather than four at a
  // time. 1024 rows, bf16, median us, four at a time / this rule, one process each, two rounds
  // (H200, session 42, call 7, docs/results/h200-2026-12-02-s42): fused add 262144 (3 CTAs) 582.4,
  // 582.8 / 572.8, 572.2 (4096 rows 2283 / 2244, call 6), 196608 (4 CTAs) 427.6, 428.0 / 419.6,
  // 420.1; fp32 fused add 98304 425.6 / 420.9, 131072 584.4 / 569.6; 512 threads without a floor
  // 0-1 % faster (rmsnorm 131072 135.5 / 134.7). Under floors of 6 CTAs (85 registers) the sweep
  // gained at rmsnorm 262144 (278.2 / 271.5, call 6) but spilled in its gemma and fp32-weight
  // kernels (8-24 bytes of stack, sm_90a; eight at a time spilled there too) and ran level at the
  // fused add 131072, so they keep four at a time; so does fp32 rmsnorm, which spilled under 4
  // CTAs (196608: 24 bytes). CPU test: "staged kernels whose second pass goes in one sweep ...".
  constexpr int kSecondUnroll = kKeep || kOneSweep ? kItems : 4;
  if constexpr (kBulkCopies && !kExact) {
    // A share copied in bulk that ends in a part-filled item: the whole items first, unchecked,
    // then the last one. With in_row on each item of a loop unrolled by 4, ptxas branched around
    // every item, so no item's loads could be issued before the previous item's store (sm_90a SASS
    // of rmsnorm 204800 on 16 x 128). H200, bf16, 1024 rows, median us, before / after, one process
    // per template set, two rounds (session 44, call 6, docs/results/h200-2026-12-02-s44): fused
    // add 139264 (16 x 128, floor 6) 303.39, 303.58 / 293.25, 293.44; rmsnorm on 16 x 128 172032
    // 190.82, 190.21 / 182.94, 183.04, 204800 274.78, 274.37 / 215.68, 215.65; 4 x 512 (one
    // sweep, no loop) within 0.6 %. Not for rows copied by their own threads (residency 4): their
    // defaults ran level (36864: 41.02, 40.99 / 40.96, 40.48) and some spilled under their floors
    // this way (8-16 bytes at 61440 and fp32 18432). Staged rows read x (and r) from shared memory
    // and the weight late, and are never split.
    auto staged_item = [&](int it) {
      float v[kVec];
      load_item(it, v, true, false);
      Packed<W, kVec> wl;
      second_weight(wl, it);
      float y[kVec];
      normalize_vec<Cfg>(v, rstd, wl, y);
      store_out_vec<Cfg, kKeep, kItems>(y_row, col_of(it), y, hinted);
    };
    if (active) {
#pragma unroll(kSecondUnroll)
      for (int it = 0; it < kItems - 1; ++it) staged_item(it);
      if (in_row(kItems - 1)) staged_item(kItems - 1);
    }
  } else if (active) {
    if constexpr (kSharedWeight && kRows == 1) copies_wait(0);
#pragma unroll(kSecondUnroll)
    for (int it = 0; it < kItems; ++it) {
      if constexpr (kPairs) {
        if (it % 2 == 0) {
#pragma unroll
          for (int i = 0; i < 2; ++i) {
            if (!in_row(it + i) || !owned(it + i)) continue;
            if constexpr (kReadPairs) {
              if constexpr (!kSumStored) load_part(pair_x[i], x_row + col_of(it + i), false);
              if constexpr (Cfg::kResidual) load_part(pair_r[i], r_row + col_of(it + i), false);
            }
            late_weight(pair_w[i], it + i);
          }
        }
      }
      if (!in_row(it) || !owned(it)) continue;
      float v[kVec];
      if constexpr (kKeep) {
#pragma unroll
        for (int j = 0; j < kVec; ++j)
          v[j] = Cfg::kResidual ? hs[it][j] : xs[it].template held<Cfg::kReconvert>(j);
      } else if constexpr (kSumStored) {
        Packed<T, kVec> h;  // the sum the first pass stored
        if constexpr (kReadPairs) h = pair_r[it % 2];
        else load_part(h, r_row + col_of(it), false);
#pragma unroll
        for (int j = 0; j < kVec; ++j) v[j] = h[j];
      } else if constexpr (kReadPairs) {
        item_values(it, pair_x[it % 2], pair_r[Cfg::kResidual ? it % 2 : 0], v, true);
      } else {
        load_item(it, v, true, false);  // second pass: re-read, then write the residual
      }
      Packed<W, kVec> wl;
      if constexpr (kSharedWeight) wl.load_shared(w_copy + at_of(it));
      else if constexpr (kEarlyWeight) wl = ws[it];
      else if constexpr (kPairs) wl = pair_w[it % 2];
      else second_weight(wl, it);
      float y[kVec];
      normalize_vec<Cfg>(v, rstd, wl, y);
      store_out_vec<Cfg, kKeep, kItems>(y_row, col_of(it), y, hinted);
    }
  }

  // A block's exit triggers its dependents as an explicit trigger would; so below 512 threads a
  // block leaves it at that. There the instruction cost more than it gave: 64-thread blocks of
  // 65536 x 128 ran 24.2 us with it, 14.3 without; per launch in CUDA graphs with PDL, us, with /
  // without, two rounds: 2048 x 2048 3.80/3.52, 3.81/3.47; 65536 x 128 6.49/5.88, 6.57/5.80;
  // 4096 x 256 1.83/1.72, 1.88/1.68. Blocks of 512-1024 threads kept gaining from it (fused add
  // 16384, t1024: 258.0/264.0 us at 8192 rows, 1030/1056 at 32768; 1024 x 65536 rmsnorm
  // 71.6/72.4) (H200, bf16; sixteenth run, trigger-*.txt). Cluster CTAs keep it too (it precedes
  // their wait on the cluster barrier); they were not timed without it.
  if (end_trigger<Cfg>(p, kGroup * kRows >= 512 || kCluster > 1)) pdl_launch_dependents<Cfg::kPdl>();
  cluster_finish<kCluster>();
}

template <class Cfg>
__device__ __forceinline__ void rms_norm(const NormParams& p) {
  if constexpr (Cfg::kRowsPerThread > 1) rms_norm_rows<Cfg>(p);
  else rms_norm_row<Cfg>(p);
}

}  // namespace normjit

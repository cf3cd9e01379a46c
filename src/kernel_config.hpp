// KernelConfig: every compile-time parameter of one kernel. Its canonical serialization (JSON
// with sorted keys) is hashed with XXH3-128 into the disk-cache key; a readable slug names it
// in logs and file names. Run-time values (rows, strides, eps, pointers) are never part of it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "arch.hpp"
#include "normjit/dtype.hpp"
#include "normjit/runtime.hpp"
#include "params.cuh"

namespace normjit::detail {

// The largest KernelConfig::keep_tail (MiB): 64 GiB of output.
constexpr int kMaxKeepTailMib = 65536;

struct KernelConfig {
  Op op = Op::rmsnorm;
  DType input_dtype = DType::bf16;
  DType weight_dtype = DType::bf16;
  DType output_dtype = DType::bf16;
  bool rank3 = false;            // per-head rows: (row / inner) * stride0 + (row % inner) * stride1
  std::int32_t hidden = 0;       // row length (head_dim for per-head norms)
  std::int32_t vec = 1;          // elements per vector access
  std::int32_t threads_per_row = 1;
  std::int32_t rows_per_block = 1;
  // CTAs cooperating on a row (1: none), each owning hidden / cluster of its columns. With
  // rows_per_block > 1 a cluster holds that many rows and each CTA the same column share of each,
  // so a CTA reads 1/cluster of the weight (forced configs only: slower than one CTA a row at 128
  // rows of 4096-8192 in graphs, docs/benchmarks.md "Session 68").
  std::int32_t cluster = 1;
  // CTAs sharing one row without communicating (1: none): each reads the whole row for the sum
  // of squares and writes 1/split of the output. Out-of-place rmsnorm only.
  std::int32_t split = 1;
  // Where a row lives between the reduction and the output: 0 registers (weight loaded with
  // the row), 1 registers (weight loaded after the reduction, fewer registers), 2 nowhere
  // (re-read from global memory / L2 after the reduction; for rows too wide for registers),
  // 3 shared memory (sm_90+: the row arrives by bulk copies; staged_smem_bytes below), 4 shared
  // memory, each thread copying the vectors it reads (cp.async, sm_80+; no copy engine).
  std::int32_t residency = 0;
  // Resident blocks per SM the compiler must allow (the second __launch_bounds__ argument: it
  // caps registers per thread at 64K / (min_blocks * block)); 0 leaves registers to ptxas.
  std::int32_t min_blocks = 0;
  // Cache policy of activation loads: 0 plain, 1 streaming (.cs), 2 L2 only (L1::no_allocate),
  // 3 L2 hints by pass (evict-last where the row is re-read, evict-first on its last read).
  std::int32_t loads = 0;
  // Fused add with the row in registers (residency 0/1): 0 issues every load of the row before
  // the first residual store; 1 stores each item's residual right after its add (fewer loads
  // in flight per thread, stores spread over the row).
  std::int32_t stores = 0;
  // The weight is loaded before the PDL wait for the previous kernel, so that its bytes leave
  // the critical path of a latency-bound call; only with the caller's promise that nothing in
  // flight writes it (LaunchOptions::static_weight) and a row held in registers (residency 0).
  bool weight_first = false;
  // Output stores carry an L2 evict-last hint: the normalized rows, which the next kernel
  // (typically a GEMM) reads, outlast the input lines in L2, and their write-back to HBM need
  // not happen while this kernel still streams its inputs.
  bool keep_out = false;
  // With keep_out: only the rows of the last keep_tail MiB of output (in the grid's row order,
  // which is the order the GPU dispatches blocks in) take the hint; 0: every row. Where the
  // output is several times the L2, hinting every row fills the L2 with hinted lines that
  // evict one another (and a re-read row's input) long before the kernel ends; hinting the
  // tail leaves the last of the output in L2, unwritten to HBM, when the kernel ends, and as
  // much of it for the next kernel to read (heuristics.cpp: choose_rms_norm's end). Rows one
  // a thread group (rows_per_thread 1) only: keep_tail_unsupported.
  std::int32_t keep_tail = 0;
  // A row held in registers with its weight (residency 0, stores after all loads): the row's
  // first word takes `| (weight word & 0)`, with a zero ptxas cannot fold, so that every weight
  // load is issued before the row's data is used. Left alone, ptxas schedules read-only weight
  // loads after the row's arithmetic has waited for its loads (rms_norm.cuh). 0: not pinned; 1:
  // every item pinned; 2: only the items every lane fills, the part-filled last item of a row
  // whose vectors its threads do not divide left unpinned (heuristics.cpp: the fused add's rows of
  // 129-255 vectors). Two ways that ask for the weight with the row without tying the row's sum
  // to its arrival: 3: each weight line asked into the SM's L1 (prefetch.global.L1) right after
  // the row's loads, the register loads left where ptxas puts them; 4: the weight copied into
  // shared memory (cp.async, 16-byte vectors) after the row's loads, read there after the
  // reduction (with several rows a block, copied once by the first row's threads). And the other
  // way: 5: every weight load of a thread issued together once its warp's shuffles have summed
  // the squares (the address tied to that sum), before the first output store, so that the
  // weight's loads do not queue among the row's arithmetic and the shuffles.
  std::int32_t pin_weight = 0;
  // Rows each thread normalizes (1, 2, 4 or 8): its columns of rows kRowsPerBlock apart, so a block
  // covers rows_per_block * rows_per_thread rows and loads its weight once for all of them. For
  // short rows (a row's threads within one warp) held in registers, rmsnorm only
  // (rows_per_thread_unsupported).
  std::int32_t rows_per_thread = 1;
  // When the kernel lets the next kernel of the stream launch (programmatic dependent launch,
  // sm_90+): 0 auto, early (right after the PDL wait) where the launch sets kFlagEarlyTrigger
  // (grids of at most one block per SM), else at the end of blocks of >= 512 threads or in
  // cluster CTAs; 1 always early; 2 never early (the flag is ignored). The heuristics choose 1
  // for a few rows (choose_rms_norm); `normjit bench --config trigger=...` forces any.
  std::int32_t trigger = 0;
  // What the kernel asks the L2 for before the PDL wait (sm_90+; prefetch.global.L2, no
  // registers), a mask of kPrefetchWeight (the weight lines its row share reads, asked by the
  // first CTA of the grid for all), kPrefetchResidual (its rows' residual lines, fused add) and
  // kPrefetchInput (its rows' input lines). Safe whatever the previous kernel writes: the L2 is
  // where every write lands, so a line fetched early is updated in place, and nothing is read
  // into a register or L1 before the wait. It takes the DRAM round trip of operands off the path
  // after the wait, without the caller's static_weight promise that weight_first needs.
  std::int32_t prefetch = 0;
  // A 16-bit row held in registers without a residual (residency 0 or 1; reconvert_applies): its
  // output pass converts the packed row to fp32 again instead of reusing the conversions its sum
  // of squares made. Left alone, the compiler keeps those fp32 copies across the reduction: twice
  // the registers of the packed row (rmsnorm 65536 x 128 on 4 rows a thread: 95 registers, 64
  // with it). The bits are the same either way.
  bool reconvert = false;
  // Several rows a thread (rows_per_thread > 1) of a call whose rows are `hidden` elements apart
  // in every tensor (ProblemSpec::dense_rows): the kernel addresses its rows from one base at
  // compile-time offsets instead of one 64-bit address a row from the run-time strides (fewer
  // registers: torch.compile's 16 lanes x 8 rows at head_dim 128 took 109 without it, 56 with it
  // and reconvert; session 32, call 9). dense_applies; the call must be dense to use it.
  bool dense = false;
  // Several rows a thread (rows_per_thread > 1) on several row groups a block: the block's first
  // row group loads the weight and hands it to the others through shared memory, so each block
  // asks L1 and L2 for the weight's lines once, not once a warp (torch.compile's per-head kernels
  // read their weight so). weight_shared_applies.
  bool weight_shared = false;
  // Per-head rows several a thread (head_blocks_applies) of a call whose heads a token are a
  // multiple of rows_per_cta() (ProblemSpec::heads): a block holds rows_per_cta() heads of one
  // token, on a grid of tokens x (heads / rows_per_cta()) blocks. The kernel then needs no row
  // division (token and head come from the block's coordinates), no row bounds (every row it
  // names exists) and a head's offset in 32 bits: ptxas issues the first row load as the 29th
  // instruction, not the 57th (the strided head_dim-64 kernel, sm_90a), as torch.compile's
  // per-head kernels do from compile-time strides. With more than one block a token the GPU runs
  // the grid's second dimension after its first (every token's first heads, then its next):
  // correct, but slower where measured, so the heuristic takes it for one block a token
  // (choose_rms_norm).
  bool head_blocks = false;
  // ptxas's --register-usage-level (0-10) for this kernel; -1: not passed (ptxas's default, 5).
  // Lower levels inhibit optimizations that raise register use, and with them ptxas's choice to
  // issue a row's last loads after the first items' arithmetic: the bf16 fused add's held rows
  // with a part-filled fourth item on 1024 threads (hidden 24592-32760, sm_90a, nvcc 13.0) issue
  // all their row loads together at levels 0-2 (50 registers), two of them late at 5-10 (52)
  // (docs/benchmarks.md, open lead 10). A compile option, not a template constant; the heuristics
  // set 2 where a held row's part-filled last item loads late at the default level
  // (choose_rms_norm: the bf16 fused add's second items at 33-255 rows and its fourth items, with
  // either weight) and leave -1 elsewhere (`normjit bench --config reg_usage=N` forces it). Kernels
  // compiled to PTX for a GPU newer than NVRTC (the driver's JIT) do not take it, nor does an
  // NVRTC that refuses the option (compile(): a warning, then the default level).
  std::int32_t reg_usage = -1;
  Arch arch;

  int block_threads() const { return threads_per_row * rows_per_block; }
  // Vectors a thread holds of one row: its CTA's share (hidden / cluster) over threads_per_row,
  // the last item part-filled where they do not divide.
  int items_per_thread() const { return (hidden / cluster / vec + threads_per_row - 1) / threads_per_row; }
  // The grid for `rows` rows: a row split over a cluster takes `cluster` CTAs, a split row
  // `split`; otherwise a CTA covers rows_per_cta() rows.
  std::int64_t grid_blocks(std::int64_t rows) const {
    return (rows + rows_per_cta() - 1) / rows_per_cta() * cluster * split;
  }
  // (With head_blocks the same count, laid out as tokens x heads / rows_per_cta(): launch.cpp.)
  // Rows one block covers (the grid has one block, or one cluster / split group, per this many).
  int rows_per_cta() const { return rows_per_block * rows_per_thread; }

  bool operator==(const KernelConfig& o) const;
  bool operator!=(const KernelConfig& o) const { return !(*this == o); }
};

// Cheap in-process hash for the memory cache (no allocation, no formatting).
struct KernelConfigHasher {
  std::size_t operator()(const KernelConfig& c) const noexcept;
};

// 128-bit disk-cache key.
struct CacheKey {
  std::uint64_t hi = 0, lo = 0;
  std::string hex() const;  // 32 lowercase hex digits
  bool operator==(const CacheKey& o) const { return hi == o.hi && lo == o.lo; }
};

// Whether KernelConfig::pin_weight can apply to `c`: the weight loaded with a row held in
// registers (residency 0, not weight_first) and every load issued before the first residual
// store (stores 0).
bool pin_weight_applies(const KernelConfig& c);
// Why pin_weight 4 (the weight copied into shared memory) cannot apply to `c`, empty if it can: rows
// not split between CTAs (split 1), 16-byte weight vectors, and at most 32 KiB of weight a CTA (its
// share of a cluster's rows).
std::string shared_weight_unsupported(const KernelConfig& c);

// Whether KernelConfig::reconvert can apply to `c`: a 16-bit input row held in registers (residency
// 0 or 1) of an op without a residual (the fused add normalizes its fp32 sum, held as such).
bool reconvert_applies(const KernelConfig& c);

// Whether KernelConfig::dense can apply to `c`: several rows a thread of 2-D rows.
bool dense_applies(const KernelConfig& c);

// Whether KernelConfig::weight_shared can apply to `c`: several rows a thread, more than one row
// group a block.
bool weight_shared_applies(const KernelConfig& c);

// Whether KernelConfig::head_blocks can apply to `c`: several per-head rows a thread (rank3,
// rows_per_thread > 1) whose kernel asks the L2 for nothing before its PDL wait (prefetch 0: the
// prefetch numbers rows as the one-dimensional grid does). The call's heads must also be a
// multiple of c.rows_per_cta() (head_blocks_fit).
bool head_blocks_applies(const KernelConfig& c);
// Whether a call of `heads` heads a token (ProblemSpec::heads; 0: not known) can take `c` with
// head_blocks: head_blocks_applies and heads a positive multiple of c.rows_per_cta().
bool head_blocks_fit(const KernelConfig& c, std::int64_t heads);

// Why `c` cannot give each thread several rows (KernelConfig::rows_per_thread > 1), "" when it
// can: a row within one warp (threads_per_row <= 32) held with its weight in registers (residency
// 0) of one CTA (no cluster, no split), no fused add, no pinned weight. Checked for overrides and
// by the heuristic alike.
std::string rows_per_thread_unsupported(const KernelConfig& c);

// Whether KernelConfig::keep_tail can apply to `c`: the output hint (keep_out) on rows one a
// thread group (rows_per_thread 1: rms_norm_row numbers them in grid order).
bool keep_tail_applies(const KernelConfig& c);

const char* residency_name(int residency);       // "row+weight", "row", "reload", "smem", "smem_lanes"
const char* trigger_name(int trigger);           // "auto", "early", "end"
const char* pin_weight_name(int pin_weight);     // "none", "every_item", "full_items", "l1_prefetch", "shared_copy",
                                                 // "after_warp_sum"
// "none", or the parts joined by '+' ("weight", "residual", "input"; e.g. "weight+residual").
std::string prefetch_name(int prefetch);
// The mask a name of prefetch_name's form (or a number) stands for; -1 when it is neither.
int parse_prefetch(const std::string& text);
// Why `c` cannot prefetch what KernelConfig::prefetch names, "" when it can: a mask of the three
// bits, a PDL wait to prefetch ahead of (sm_90+), and a residual (fused add) for its bit.
std::string prefetch_unsupported(const KernelConfig& c);
// c.prefetch less what the kernel loads before the PDL wait anyway: the weight with weight_first.
// Applied wherever a config's prefetch or weight_first is set, so that one kernel has one key.
int prefetch_needed(const KernelConfig& c);
// Whether `c` stages its rows in shared memory: residency 3 (bulk copies) or 4 (per thread).
inline bool staged(const KernelConfig& c) { return c.residency == 3 || c.residency == 4; }
// Dynamic shared memory a block of `c` takes: its rows' staged shares (x, and r for the fused
// add) with residency 3 or 4, else 0.
std::int64_t staged_smem_bytes(const KernelConfig& c);
// The most staged_smem_bytes a block may take on `arch`: the opt-in limit less 2 KiB for the
// kernel's static shared memory (the reduction's <= 32 floats, <= 32 rows x 4 barriers of 8
// bytes, the cluster's partial sum: under 1.2 KiB).
std::int64_t staged_smem_limit(Arch arch);
// Blocks of `c` an SM's shared memory holds at once: its staged shares, the kernel's static
// shared memory (< 2 KiB, as above) and the 1 KiB the system reserves a block; 0 when `c`
// stages nothing (then shared memory does not bound it).
int staged_ctas_per_sm(const KernelConfig& c);
// Why `c` cannot stage its rows in shared memory (residency 3 or 4), "" when it can: the bulk
// copies need sm_90+ (the per-thread copies run on every supported GPU), both need 16-byte
// vectors, shares of whole vectors (a thread's last item may be part-filled) and no split, and
// the shares must fit staged_smem_limit. Checked for overrides and by the heuristic alike.
std::string staged_unsupported(const KernelConfig& c);
const char* loads_name(int loads);               // "plain", "stream", "l2", "hinted"
const char* stores_name(int stores);             // "after_loads", "per_item"
std::string canonical_json(const KernelConfig& c);  // stable; golden-tested
CacheKey cache_key(const KernelConfig& c);          // XXH3-128 of canonical_json
std::string slug(const KernelConfig& c);            // e.g. rmsnorm-bf16-wbf16-h4096-v8-t128-r1-sm90a
// The slug's tags for fields away from their defaults: cluster, split, residency, occupancy floor,
// load policy, store order, weight-first, kept output, pinned weight and rows per thread, e.g.
// "-c4-lw-b2-ldstream" or "-x2" ("" when all are default).
std::string tuning_tags(const KernelConfig& c);
// The CLI command that would put this config in the cache (offline-mode errors quote it).
std::string prewarm_command(const KernelConfig& c);

}  // namespace normjit::detail

#include "op_registry.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "heuristics.hpp"
#include "normjit/errors.hpp"

namespace normjit {
namespace detail {

namespace {
constexpr OpInfo kOps[] = {
    {Op::rmsnorm, "rmsnorm", "rms_norm.cuh", "rms_norm", false, false, true, choose_rms_norm},
    {Op::gemma_rmsnorm, "gemma_rmsnorm", "rms_norm.cuh", "rms_norm", false, true, true,
     choose_rms_norm},
    {Op::fused_add_rmsnorm, "fused_add_rmsnorm", "rms_norm.cuh", "rms_norm", true, false, false,
     choose_rms_norm},
    {Op::gemma_fused_add_rmsnorm, "gemma_fused_add_rmsnorm", "rms_norm.cuh", "rms_norm", true,
     true, false, choose_rms_norm},
};
}  // namespace

const OpInfo& op_info(Op op) { return kOps[static_cast<int>(op)]; }

namespace {
std::atomic<const ConfigOverride*> g_override{nullptr};
}

const ConfigOverride* set_config_override(const ConfigOverride* o) { return g_override.exchange(o); }

std::vector<KernelConfig> configs_for(const ProblemSpec& problem, Arch arch) {
  std::vector<KernelConfig> out;
  auto add = [&](const ProblemSpec& p, Arch a) {
    // Calls may or may not write over their input, their rows may or may not be dense
    // (ProblemSpec::dense_rows, 2-D rows only), and a per-head problem that names no heads may be
    // called with heads that the heuristics give head blocks or not (ProblemSpec::heads;
    // kHeadBlockHeads select every such kernel); every kind is built.
    std::vector<std::int64_t> heads{p.heads};
    if (p.rank3 && p.heads == 0) heads.insert(heads.end(), std::begin(kHeadBlockHeads), std::end(kHeadBlockHeads));
    for (bool aliased : {false, true}) {
      for (bool dense : {false, true}) {
        if (dense && p.rank3) continue;
        for (std::int64_t h : heads) {
          ProblemSpec q = p;
          q.out_aliases_input = aliased;
          q.dense_rows = dense;
          q.heads = h;
          KernelConfig c = choose_config(q, q.max_vec, a);
          if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
        }
      }
    }
  };
  if (problem.rows > 0) {
    add(problem, arch);
    // An arch named without its GPU (SM count unknown): also what a GPU whose SM count puts these
    // rows in the wave window would run. Every other count picks the kernel above.
    if (arch.sms == 0) add(problem, Arch{arch.cc, wave_window_sms(problem.rows)});
    return out;
  }
  auto add_rows = [&](std::int64_t rows, Arch a) {
    ProblemSpec p = problem;
    p.rows = rows;
    add(p, a);
  };
  for (std::int64_t rows : kRowClasses) add_rows(rows, arch);
  // The rows at which rmsnorm's output stores take the L2 evict-last hint (by output bytes, so
  // at row counts of the problem's own).
  for (std::int64_t rows : keep_out_row_classes(problem)) add_rows(rows, arch);
  // The rows whose kernel depends on the SM count: an arch named without its GPU gets the
  // window's kernel of a probe count (the same kernel for every count).
  const Arch counted{arch.cc, arch.sms > 0 ? arch.sms : kProbeSms};
  for (std::int64_t rows : wave_row_classes(arch)) add_rows(rows, counted);
  return out;
}

namespace {
// Every field of ProblemSpec; the size check below fails when one is added without it.
bool same_problem(const ProblemSpec& a, const ProblemSpec& b) {
  static_assert(sizeof(ProblemSpec) == 48, "same_problem must compare every ProblemSpec field");
  return a.op == b.op && a.dtype == b.dtype && a.weight_dtype == b.weight_dtype && a.hidden == b.hidden &&
         a.rank3 == b.rank3 && a.max_vec == b.max_vec && a.rows == b.rows &&
         a.out_aliases_input == b.out_aliases_input && a.static_weight == b.static_weight &&
         a.dense_rows == b.dense_rows && a.heads == b.heads;
}

// The heuristic's config with the override's fields forced over it, checked.
KernelConfig with_override(const ProblemSpec& problem, int max_vec, Arch arch, const ConfigOverride* o) {
  const OpInfo& info = op_info(problem.op);
  KernelConfig c = info.choose(problem, max_vec, arch);
  auto bad = [&](const std::string& what) {
    throw ValidationError(ValidationError::Kind::Unsupported,
                          fmt::format("normjit: config override for {}: {}", slug(c), what));
  };
  if (o->vec) {
    if (o->vec > c.vec || c.hidden % o->vec != 0 || (o->vec & (o->vec - 1)))
      bad(fmt::format("vec {} must be a power of two <= {} dividing hidden", o->vec, c.vec));
    c.vec = o->vec;
  }
  // Residency and occupancy floor follow an overridden shape, and the heuristic's split (made for
  // the heuristic's shape) is dropped; with the heuristic's shape they stay the heuristic's (which
  // may depend on the row count), unless overridden themselves.
  // A forced split takes the place of the heuristic's cluster (a row is shared one way or the
  // other), which then reshapes the CTA as a forced cluster of 1 would.
  const bool split_for_cluster = o->split > 1 && !o->cluster && c.cluster > 1;
  const bool reshaped = o->vec || o->cluster || o->threads_per_row || o->rows_per_block || split_for_cluster;
  if (split_for_cluster) {
    c.cluster = 1;
    if (!o->threads_per_row) c.threads_per_row = threads_for(c.hidden / c.vec);
  }
  if (o->split) {
    const int n = o->split;
    if (n < 1 || n > kMaxSplit || (n & (n - 1)))
      bad(fmt::format("split {}: expected a power of two in 1..{}", n, kMaxSplit));
    c.split = n;
  } else if (reshaped) {
    c.split = 1;
  }
  if (o->cluster) {
    const int n = o->cluster;
    if (n < 1 || n > kMaxClusterNonPortable || (n & (n - 1)))
      bad(fmt::format("cluster {}: expected a power of two in 1..{} (above {}: a non-portable cluster size)", n,
                      kMaxClusterNonPortable, kMaxCluster));
    if (n > 1 && arch.cc < 90)
      bad(fmt::format("cluster {}: thread-block clusters need sm_90 or newer, the GPU is {}", n, arch.target()));
    if (c.hidden % (c.vec * n) != 0)
      bad(fmt::format("cluster {}: hidden {} does not split into whole {}-element vectors per CTA", n, c.hidden,
                      c.vec));
    c.cluster = n;
    // One row per block, so at least a warp.
    if (!o->threads_per_row) c.threads_per_row = std::max(32, threads_for(c.hidden / c.cluster / c.vec));
    c.rows_per_block = 1;
  }
  if (o->threads_per_row) c.threads_per_row = o->threads_per_row;
  if (o->rows_per_block) c.rows_per_block = o->rows_per_block;
  else if (o->threads_per_row || c.split > 1)
    c.rows_per_block = c.cluster > 1 || c.split > 1 ? 1 : std::max(1, 128 / c.threads_per_row);
  const int tpr = c.threads_per_row, block = c.block_threads();
  if (tpr < 1 || tpr > 1024 || (tpr & (tpr - 1))) bad(fmt::format("threads_per_row {}", tpr));
  if (block < 32 || block > 1024) bad(fmt::format("block of {} threads", block));
  const int items = c.items_per_thread();
  if (c.split > 1) {
    // Each CTA reads the whole row and writes its share: nothing may write what another still
    // reads, and the shares are whole items of every thread.
    const int n = c.split;
    if (info.residual)
      bad(fmt::format("split {}: the fused add overwrites the input and residual that the row's other CTAs read", n));
    if (problem.out_aliases_input)
      bad(fmt::format("split {}: the output overwrites the input (in place), which the row's other CTAs read", n));
    if (c.cluster > 1) bad(fmt::format("split {} with cluster {}", n, c.cluster));
    if (c.rows_per_block != 1) bad(fmt::format("split {} with rows_per_block {}", n, c.rows_per_block));
    if ((c.hidden / c.vec) % tpr != 0 || items % n != 0)
      bad(fmt::format("split {}: a row of {} vectors on {} threads is not {} whole shares of items", n,
                      c.hidden / c.vec, tpr, n));
  }
  if (o->residency >= 0) c.residency = o->residency;
  else if (reshaped) c.residency = choose_residency(c, info.residual);
  if (c.residency > 4)
    bad(fmt::format("residency {}: expected 0 (row+weight), 1 (row), 2 (reload), 3 (smem) or 4 (smem_lanes)",
                    c.residency));
  // A row held in registers is unrolled into them.
  if (c.residency < 2 && items * c.vec > 256) bad(fmt::format("{} values per thread", items * c.vec));
  if (staged(c)) {
    if (const std::string why = staged_unsupported(c); !why.empty()) bad(fmt::format("residency {}: {}", c.residency, why));
  }
  if (o->min_blocks >= 0) c.min_blocks = o->min_blocks;
  else if (reshaped) c.min_blocks = choose_min_blocks(c);
  if (o->loads >= 0) c.loads = o->loads;
  else if (staged(c) && c.loads > 1) c.loads = 0;  // the heuristic's hints were for loads
  if (c.loads > 3)
    bad(fmt::format("loads {}: expected 0 (plain), 1 (stream), 2 (l2) or 3 (hinted)", c.loads));
  if (staged(c) && c.loads > 1)
    bad(fmt::format("loads {}: a staged row's copies take 0 (plain) or 1 (evict-first)", c.loads));
  if (o->stores >= 0) {
    if (o->stores > 1) bad(fmt::format("stores {}: expected 0 (after loads) or 1 (per item)", o->stores));
    if (o->stores && !info.residual) bad(fmt::format("stores {}: only the fused add stores a residual", o->stores));
    if (o->stores && c.residency >= 2)
      bad(fmt::format("stores {}: a row that is re-read or staged (residency {}) writes its residual in the second "
                      "pass; the store order applies to rows held in registers (residency 0 or 1)",
                      o->stores, c.residency));
    c.stores = o->stores;
  } else if (c.residency >= 2) {
    c.stores = 0;  // a re-read or staged row stores its residual in the second pass either way
  }
  if (o->weight_first >= 0) {
    if (o->weight_first > 1) bad(fmt::format("weight_first {}: expected 0 or 1", o->weight_first));
    if (o->weight_first == 1) {
      if (!arch.has_pdl())
        bad(fmt::format("weight_first 1: there is no PDL wait to load ahead of before sm_90, the GPU is {}",
                        arch.target()));
      if (!problem.static_weight)
        bad("weight_first 1: the call did not promise a static weight (LaunchOptions::static_weight, with PDL)");
      if (c.residency != 0)
        bad(fmt::format("weight_first 1 needs the weight held in registers (residency 0), not residency {}",
                        c.residency));
    }
    c.weight_first = o->weight_first == 1;
  } else if (c.residency != 0) {
    c.weight_first = false;
  }
  if (o->keep_out >= 0) {
    if (o->keep_out > 1) bad(fmt::format("keep_out {}: expected 0 or 1", o->keep_out));
    c.keep_out = o->keep_out == 1;
  }
  if (o->pin_weight >= 0) {
    if (o->pin_weight > 5) bad(fmt::format("pin_weight {}: expected 0-5", o->pin_weight));
    if (o->pin_weight != 0 && !pin_weight_applies(c)) {
      // The first condition that fails (kernel_config.hpp: pin_weight_applies).
      const std::string why = c.residency != 0 ? fmt::format("residency 0, not {}", c.residency)
                              : c.weight_first ? std::string("no weight_first (the weight loaded before the PDL wait)")
                                               : fmt::format("stores after all loads (stores 0, not {})", c.stores);
      bad(fmt::format("pin_weight {} needs the weight loaded with a row held in registers: {}", o->pin_weight, why));
    }
    if (o->pin_weight == 4) {
      if (const std::string why = shared_weight_unsupported(c); !why.empty()) bad(fmt::format("pin_weight 4 {}", why));
    }
    c.pin_weight = o->pin_weight;
  } else if (!pin_weight_applies(c)) {
    c.pin_weight = 0;
  }
  if (o->rows_per_thread) {
    if (o->rows_per_thread != 1 && o->rows_per_thread != 2 && o->rows_per_thread != 4 && o->rows_per_thread != 8)
      bad(fmt::format("rows_per_thread {}: expected 1, 2, 4 or 8", o->rows_per_thread));
    c.rows_per_thread = o->rows_per_thread;
    if (c.rows_per_thread > 1) {
      if (const std::string why = rows_per_thread_unsupported(c); !why.empty())
        bad(fmt::format("rows_per_thread {}: {}", c.rows_per_thread, why));
    }
  } else if (!rows_per_thread_unsupported(c).empty()) {
    c.rows_per_thread = 1;
  }
  if (o->keep_tail >= 0) {
    if (o->keep_tail > kMaxKeepTailMib)
      bad(fmt::format("keep_tail {}: expected 0 (every row) to {} MiB", o->keep_tail, kMaxKeepTailMib));
    if (o->keep_tail > 0 && !keep_tail_applies(c))
      bad(!c.keep_out ? fmt::format("keep_tail {} needs the output hint (keep_out 1, not 0)", o->keep_tail)
                      : fmt::format("keep_tail {} needs one row a thread group (rows_per_thread 1, not {})",
                                    o->keep_tail, c.rows_per_thread));
    c.keep_tail = o->keep_tail;
  } else if (!keep_tail_applies(c)) {
    c.keep_tail = 0;
  }
  if (o->trigger >= 0) {
    if (o->trigger > 2) bad(fmt::format("trigger {}: expected 0 (auto), 1 (early) or 2 (end)", o->trigger));
    if (o->trigger != 0 && !arch.has_pdl())
      bad(fmt::format("trigger {}: programmatic dependent launch needs sm_90 or newer, the GPU is {}",
                      trigger_name(o->trigger), arch.target()));
    c.trigger = o->trigger;
  }
  if (o->prefetch >= 0) {
    c.prefetch = o->prefetch;
    if (const std::string why = prefetch_unsupported(c); !why.empty()) bad(fmt::format("prefetch {}: {}", o->prefetch, why));
  }
  c.prefetch = prefetch_needed(c);
  // A 0/1 field the override forces (`forced` 0 or 1) or leaves to the heuristic (-1). Forced on
  // where it cannot apply is an error ("NAME 1 needs " + `needs`); left to the heuristic, it is
  // dropped there.
  auto flag = [&](const char* name, int forced, bool applies, bool& field, const std::string& needs) {
    if (forced >= 0) {
      if (forced > 1) bad(fmt::format("{} {}: expected 0 or 1", name, forced));
      if (forced == 1 && !applies) bad(fmt::format("{} 1 needs {}", name, needs));
      field = forced == 1;
    } else if (!applies) {
      field = false;
    }
  };
  flag("reconvert", o->reconvert, reconvert_applies(c), c.reconvert,
       fmt::format("a 16-bit row held in registers (residency 0 or 1, not {}; input {}) without a residual",
                   c.residency, dtype_name(c.input_dtype)));
  flag("dense", o->dense, dense_applies(c) && problem.dense_rows, c.dense,
       !dense_applies(c) ? fmt::format("several rows a thread (rows_per_thread {}) of 2-D rows (rank3 {})",
                                       c.rows_per_thread, c.rank3)
                         : "a call whose rows are hidden elements apart in every tensor (ProblemSpec::dense_rows)");
  flag("weight_shared", o->weight_shared, weight_shared_applies(c), c.weight_shared,
       fmt::format("several rows a thread (rows_per_thread {}) and several row groups a block (rows_per_block {})",
                   c.rows_per_thread, c.rows_per_block));
  flag("head_blocks", o->head_blocks, head_blocks_fit(c, problem.heads), c.head_blocks,
       !head_blocks_applies(c)
           ? fmt::format("several per-head rows a thread (rank3 {}, rows_per_thread {}) and no prefetch ({})",
                         c.rank3, c.rows_per_thread, prefetch_name(c.prefetch))
           : fmt::format("a call whose heads a token ({}; 0: not known) are a multiple of the block's {} rows "
                         "(ProblemSpec::heads)",
                         problem.heads, c.rows_per_cta()));
  if (o->reg_usage != -2) {
    if (o->reg_usage < -1 || o->reg_usage > 10)
      bad(fmt::format("reg_usage {}: expected -1 (ptxas's default) or a register usage level 0-10", o->reg_usage));
    c.reg_usage = o->reg_usage;
  }
  if (c.min_blocks * block > arch.max_threads_per_sm())
    bad(fmt::format("min_blocks {}: {} blocks of {} threads exceed the {} threads an SM holds", c.min_blocks,
                    c.min_blocks, block, arch.max_threads_per_sm()));
  return c;
}

// Every field of ConfigOverride, as bytes: plain ints without padding.
static_assert(std::has_unique_object_representations_v<ConfigOverride>, "ConfigOverride is compared as bytes");
bool same_override(const ConfigOverride& a, const ConfigOverride& b) {
  return std::memcmp(&a, &b, sizeof(ConfigOverride)) == 0;
}
}  // namespace

KernelConfig choose_config(const ProblemSpec& problem, int max_vec, Arch arch) {
  const ConfigOverride* o = g_override.load(std::memory_order_relaxed);
  // The heuristics are pure functions of (problem, max_vec, arch), and a serving loop repeats
  // its shapes: this thread's recent answers stand for the same questions. The library's own
  // path per call, stand-in driver, 2-core build machine: 152 -> 128 ns warm, 336-366 ->
  // 236-271 ns with the caches flushed (tests/fake_driver "[.hostcost]", session 11). Four of
  // them, as a decoder layer makes several different calls in turn (a fused add, then q's and
  // k's per-head norms): with the last answer alone each of those missed, 159 ns a call against
  // 117 for one call repeated (session 58, "host cost of a decoder layer's calls in turn").
  // A forced config (bench --config) is remembered with the override's fields: checked anew on
  // every call, it added 0.4 us a call with the stand-in driver on the build machine and 1-2 us
  // on the H200's host to `bench --latency`'s host cost, which then did not measure the kernel's
  // call (session 69).
  struct Recent {
    struct Entry {
      bool valid = false;
      bool overridden = false;
      ProblemSpec problem;
      int max_vec = 0;
      Arch arch{};
      ConfigOverride override_fields;
      KernelConfig config;
    };
    Entry entries[4];
    unsigned last = 0;  // the entry that answered last: looked at first (a repeated call reads one)
    unsigned next = 0;  // the next to replace
  };
  thread_local Recent recent;
  auto same = [&](const Recent::Entry& e) {
    return e.valid && e.overridden == (o != nullptr) && e.max_vec == max_vec && e.arch.same_device(arch) &&
           same_problem(e.problem, problem) && (!o || same_override(e.override_fields, *o));
  };
  if (same(recent.entries[recent.last])) return recent.entries[recent.last].config;
  for (unsigned i = 0; i < 4; ++i)
    if (i != recent.last && same(recent.entries[i])) {
      recent.last = i;
      return recent.entries[i].config;
    }
  // A refused problem or override throws here and is not remembered.
  KernelConfig c = o ? with_override(problem, max_vec, arch, o) : op_info(problem.op).choose(problem, max_vec, arch);
  recent.last = recent.next++ % 4;
  recent.entries[recent.last] = Recent::Entry{true, o != nullptr, problem, max_vec, arch, o ? *o : ConfigOverride{}, c};
  return c;
}

}  // namespace detail

std::string_view op_name(Op op) noexcept { return detail::op_info(op).name; }

bool parse_op(std::string_view name, Op* out) noexcept {
  for (const detail::OpInfo& i : detail::kOps) {
    if (i.name == name) {
      *out = i.op;
      return true;
    }
  }
  return false;
}

std::vector<Op> all_ops() {
  std::vector<Op> ops;
  for (const detail::OpInfo& i : detail::kOps) ops.push_back(i.op);
  return ops;
}

}  // namespace normjit

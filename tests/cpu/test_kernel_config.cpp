// KernelConfig serialization (goldens), cache-key sensitivity, slug, hasher, the shape heuristic
// over the whole supported hidden range, and Arch::parse.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <iterator>
#include <random>
#include <regex>
#include <set>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <unordered_set>
#include <vector>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "arch.hpp"
#include "config_override.hpp"
#include "heuristics.hpp"
#include "kernel_config.hpp"
#include "launch.hpp"
#include "normjit/errors.hpp"
#include "op_registry.hpp"
#include "prelude.hpp"

using namespace normjit;
using namespace normjit::detail;

namespace {

// `c` without rmsnorm's evict-last output stores, which go by output bytes (the keep_out test
// below): for comparing the kernels of two row counts in everything else.
KernelConfig without_keep(KernelConfig c) {
  c.keep_out = false;
  c.keep_tail = 0;
  return c;
}

// rmsnorm, bf16 everywhere, hidden 4096, 8-wide vectors, 128 threads per row, sm_90.
KernelConfig golden_config() {
  KernelConfig c;
  c.op = Op::rmsnorm;
  c.input_dtype = DType::bf16;
  c.weight_dtype = DType::bf16;
  c.output_dtype = DType::bf16;
  c.rank3 = false;
  c.hidden = 4096;
  c.vec = 8;
  c.threads_per_row = 128;
  c.rows_per_block = 1;
  c.cluster = 1;
  c.residency = 0;
  c.arch = Arch{90};
  return c;
}

// A second golden that exercises the non-default branches of the slug and JSON.
KernelConfig golden_config_2() {
  KernelConfig c;
  c.op = Op::gemma_rmsnorm;
  c.input_dtype = DType::f16;
  c.weight_dtype = DType::f32;
  c.output_dtype = DType::f16;
  c.rank3 = true;
  c.hidden = 111;
  c.vec = 1;
  c.threads_per_row = 32;
  c.rows_per_block = 4;
  c.cluster = 1;
  c.residency = 2;
  c.min_blocks = 2;
  c.loads = 1;
  c.keep_out = true;
  c.rows_per_thread = 2;
  c.trigger = 1;
  c.prefetch = 1;
  c.arch = Arch{100};
  return c;
}

std::string file_name(const KernelConfig& c) { return slug(c) + "-" + cache_key(c).hex(); }

// Detects a member named `rows` (rows must never be a compile-time parameter).
template <class T, class = void>
struct has_rows : std::false_type {};
template <class T>
struct has_rows<T, std::void_t<decltype(&T::rows)>> : std::true_type {};

constexpr const char* kGoldenNote =
    "canonical_json / cache_key are the on-disk cache contract: a change silently invalidates "
    "every existing cache. If the change is intentional, bump \"schema\" in canonical_json (and "
    "the cache format notes), then update this golden.";

// The config of `p` on `arch` under the override `o`.
KernelConfig choose_with_override(const ConfigOverride& o, const ProblemSpec& p, Arch arch) {
  const ScopedConfigOverride use_o(&o);
  return choose_config(p, 0, arch);
}

// The config of `p` (its other fields as the caller left them) on `rows` rows of `hidden` on sm_90
// under the override `text` (the `--config` syntax), as a sweep forces it.
KernelConfig choose_forced(ProblemSpec& p, std::int64_t hidden, std::int64_t rows, const char* text) {
  p.hidden = hidden;
  p.rows = rows;
  return choose_with_override(parse_config_override(text), p, Arch{90});
}

// The config of `p` (its other fields as the caller left them) for `op` on rows of `hidden`
// elements of `dt` (the weight too), `rows` of them, on sm_`cc`: what the heuristics tests pick.
KernelConfig choose_for(ProblemSpec& p, Op op, std::int64_t hidden, std::int64_t rows, DType dt, int cc) {
  p.op = op;
  p.hidden = hidden;
  p.rows = rows;
  p.dtype = p.weight_dtype = dt;
  return choose_config(p, 0, Arch{cc});
}

}  // namespace

TEST_CASE("canonical_json of a fixed config matches the golden string", "[config]") {
  INFO(kGoldenNote);
  CHECK(canonical_json(golden_config()) ==
        R"({"arch":"sm_90a","cluster":1,"dense":false,"head_blocks":false,"hidden":4096,"input_dtype":"bf16","keep_out":false,"keep_tail":0,"loads":"plain",)"
        R"("min_blocks":0,)"
        R"("op":"rmsnorm","output_dtype":"bf16","pin_weight":"none","prefetch":"none","rank3":false,)"
        R"("reconvert":false,"residency":"row+weight","rows_per_block":1,"rows_per_thread":1,"schema":16,"split":1,"stores":"after_loads",)"
        R"("threads_per_row":128,"trigger":"auto","vec":8,"weight_dtype":"bf16","weight_first":false,"weight_shared":false})");
  CHECK(canonical_json(golden_config_2()) ==
        R"({"arch":"sm_100a","cluster":1,"dense":false,"head_blocks":false,"hidden":111,"input_dtype":"f16","keep_out":true,"keep_tail":0,"loads":"stream",)"
        R"("min_blocks":2,)"
        R"("op":"gemma_rmsnorm","output_dtype":"f16","pin_weight":"none","prefetch":"weight","rank3":true,)"
        R"("reconvert":false,"residency":"reload","rows_per_block":4,"rows_per_thread":2,"schema":16,"split":1,"stores":"after_loads",)"
        R"("threads_per_row":32,"trigger":"early","vec":1,"weight_dtype":"f32","weight_first":false,"weight_shared":false})");
  // Stable: the same config always serializes the same way.
  CHECK(canonical_json(golden_config()) == canonical_json(golden_config()));
}

TEST_CASE("cache_key hex of a fixed config matches the golden and is XXH3-128 of the JSON",
          "[config]") {
  INFO(kGoldenNote);
  const CacheKey k = cache_key(golden_config());
  CHECK(k.hex() == "ee6a6201c74dcfdb6b85f446548d6093");
  CHECK(k.hex().size() == 32);
  CHECK(std::regex_match(k.hex(), std::regex("[0-9a-f]{32}")));

  // Independent recomputation from the documented definition (XXH3-128 of canonical_json, high
  // word first).
  for (const KernelConfig& c : {golden_config(), golden_config_2()}) {
    const std::string j = canonical_json(c);
    const XXH128_hash_t h = XXH3_128bits(j.data(), j.size());
    const CacheKey kk = cache_key(c);
    CHECK(kk.hi == h.high64);
    CHECK(kk.lo == h.low64);
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)h.high64,
                  (unsigned long long)h.low64);
    CHECK(kk.hex() == buf);
  }
  CHECK(cache_key(golden_config_2()).hex() != k.hex());
}

TEST_CASE("slug is readable, file-name safe and golden", "[config]") {
  CHECK(slug(golden_config()) == "rmsnorm-bf16-h4096-v8-t128-r1-sm_90a");
  CHECK(slug(golden_config_2()) == "gemma_rmsnorm3d-f16-wf32-h111-v1-t32-r4-reload-b2-ldstream-keep-x2-pdlearly-pfw-sm_100a");
  KernelConfig c = golden_config();
  c.output_dtype = DType::f32;
  c.cluster = 2;
  c.residency = 1;
  c.arch = Arch{80};
  CHECK(slug(c) == "rmsnorm-bf16-of32-h4096-v8-t128-r1-c2-lw-sm_80");
  KernelConfig shared = golden_config();
  shared.split = 4;
  CHECK(slug(shared) == "rmsnorm-bf16-h4096-v8-t128-r1-s4-sm_90a");
  for (const KernelConfig& k : {golden_config(), golden_config_2(), c}) {
    const std::string s = slug(k);
    INFO(s);
    CHECK(std::regex_match(s, std::regex("[a-z0-9_][a-z0-9_.-]*")));
    CHECK(s.find(std::string(op_name(k.op))) == 0);
    CHECK(s.find("-h" + std::to_string(k.hidden) + "-") != std::string::npos);
    CHECK(s.find(k.arch.target()) != std::string::npos);
  }
}

TEST_CASE("changing any single KernelConfig field changes the key, the file name and equality",
          "[config]") {
  const KernelConfig base = golden_config();
  struct Mutation {
    const char* name;
    void (*apply)(KernelConfig&);
  };
  const std::vector<Mutation> mutations = {
      {"op=gemma_rmsnorm", [](KernelConfig& c) { c.op = Op::gemma_rmsnorm; }},
      {"op=fused_add_rmsnorm", [](KernelConfig& c) { c.op = Op::fused_add_rmsnorm; }},
      {"op=gemma_fused_add_rmsnorm", [](KernelConfig& c) { c.op = Op::gemma_fused_add_rmsnorm; }},
      {"input_dtype=f16", [](KernelConfig& c) { c.input_dtype = DType::f16; }},
      {"input_dtype=f32", [](KernelConfig& c) { c.input_dtype = DType::f32; }},
      {"weight_dtype=f32", [](KernelConfig& c) { c.weight_dtype = DType::f32; }},
      {"weight_dtype=f16", [](KernelConfig& c) { c.weight_dtype = DType::f16; }},
      {"output_dtype=f32", [](KernelConfig& c) { c.output_dtype = DType::f32; }},
      {"output_dtype=f16", [](KernelConfig& c) { c.output_dtype = DType::f16; }},
      {"rank3=true", [](KernelConfig& c) { c.rank3 = true; }},
      {"hidden=4095", [](KernelConfig& c) { c.hidden = 4095; }},
      {"hidden=8192", [](KernelConfig& c) { c.hidden = 8192; }},
      {"vec=4", [](KernelConfig& c) { c.vec = 4; }},
      {"vec=2", [](KernelConfig& c) { c.vec = 2; }},
      {"threads_per_row=256", [](KernelConfig& c) { c.threads_per_row = 256; }},
      {"threads_per_row=64", [](KernelConfig& c) { c.threads_per_row = 64; }},
      {"rows_per_block=2", [](KernelConfig& c) { c.rows_per_block = 2; }},
      {"cluster=2", [](KernelConfig& c) { c.cluster = 2; }},
      {"split=2", [](KernelConfig& c) { c.split = 2; }},
      {"split=4", [](KernelConfig& c) { c.split = 4; }},
      {"residency=1", [](KernelConfig& c) { c.residency = 1; }},
      {"residency=2", [](KernelConfig& c) { c.residency = 2; }},
      {"min_blocks=2", [](KernelConfig& c) { c.min_blocks = 2; }},
      {"loads=1", [](KernelConfig& c) { c.loads = 1; }},
      {"loads=2", [](KernelConfig& c) { c.loads = 2; }},
      {"stores=1", [](KernelConfig& c) { c.stores = 1; }},
      {"weight_first=true", [](KernelConfig& c) { c.weight_first = true; }},
      {"keep_out=true", [](KernelConfig& c) { c.keep_out = true; }},
      {"pin_weight=true", [](KernelConfig& c) { c.pin_weight = true; }},
      {"rows_per_thread=2", [](KernelConfig& c) { c.rows_per_thread = 2; }},
      {"trigger=early", [](KernelConfig& c) { c.trigger = 1; }},
      {"trigger=end", [](KernelConfig& c) { c.trigger = 2; }},
      {"prefetch=weight", [](KernelConfig& c) { c.prefetch = 1; }},
      {"prefetch=residual", [](KernelConfig& c) { c.prefetch = 2; }},
      {"prefetch=input", [](KernelConfig& c) { c.prefetch = 4; }},
      {"prefetch=weight+residual+input", [](KernelConfig& c) { c.prefetch = 7; }},
      {"reconvert=true", [](KernelConfig& c) { c.reconvert = true; }},
      {"dense=true", [](KernelConfig& c) { c.dense = true; }},
      {"weight_shared=true", [](KernelConfig& c) { c.weight_shared = true; }},
      {"head_blocks=true", [](KernelConfig& c) { c.head_blocks = true; }},
      {"arch=80", [](KernelConfig& c) { c.arch = Arch{80}; }},
      {"arch=86", [](KernelConfig& c) { c.arch = Arch{86}; }},
      {"arch=100", [](KernelConfig& c) { c.arch = Arch{100}; }},
  };
  const KernelConfigHasher hasher;
  std::set<std::string> keys = {cache_key(base).hex()};
  std::set<std::string> names = {file_name(base)};
  std::set<std::string> jsons = {canonical_json(base)};
  std::set<std::size_t> hashes = {hasher(base)};
  std::unordered_set<KernelConfig, KernelConfigHasher> configs = {base};
  for (const Mutation& m : mutations) {
    KernelConfig c = base;
    m.apply(c);
    INFO("mutation " << m.name << ": " << canonical_json(c));
    CHECK_FALSE(c == base);
    CHECK(c != base);
    CHECK(cache_key(c).hex() != cache_key(base).hex());
    CHECK_FALSE(cache_key(c) == cache_key(base));
    CHECK(file_name(c) != file_name(base));
    CHECK(canonical_json(c) != canonical_json(base));
    // Every mutation is distinct from every other one, too.
    CHECK(keys.insert(cache_key(c).hex()).second);
    CHECK(names.insert(file_name(c)).second);
    CHECK(jsons.insert(canonical_json(c)).second);
    CHECK(configs.insert(c).second);
    // The memory-cache hash separates these neighbours (collisions would be legal, but a hash
    // that ignores a field would make the memory cache a linear scan for that field).
    CHECK(hashes.insert(hasher(c)).second);
    // Hasher / operator== consistency: an equal copy hashes equal.
    const KernelConfig copy = c;
    CHECK(copy == c);
    CHECK(hasher(copy) == hasher(c));
    CHECK(cache_key(copy) == cache_key(c));
  }
  CHECK(configs.size() == mutations.size() + 1);
  CHECK(configs.count(golden_config()) == 1);
}

TEST_CASE("rows are not a compile-time parameter (by design)", "[config]") {
  // ProblemSpec::rows only selects among kernels (few rows vs many); no kernel depends on it.
  static_assert(!has_rows<KernelConfig>::value, "KernelConfig must not carry rows");
  // The serialized config holds exactly these fields: no run-time value leaks into the key.
  const nlohmann::json j = nlohmann::json::parse(canonical_json(golden_config()));
  std::set<std::string> fields;
  for (const auto& [k, v] : j.items()) fields.insert(k);
  CHECK(fields == std::set<std::string>{"arch", "cluster", "dense", "head_blocks", "hidden", "input_dtype", "keep_out", "keep_tail", "loads", "min_blocks", "op",
                                        "output_dtype", "pin_weight", "prefetch", "rank3", "reconvert", "residency", "rows_per_block", "rows_per_thread", "schema",
                                        "split", "stores", "threads_per_row", "trigger", "vec", "weight_dtype",
                                        "weight_first", "weight_shared"});
}

namespace {

struct DtypePair {
  DType act, weight;
};
const DtypePair kDtypePairs[] = {{DType::bf16, DType::bf16},
                                 {DType::bf16, DType::f32},
                                 {DType::f16, DType::f16},
                                 {DType::f16, DType::f32},
                                 {DType::f32, DType::f32}};
const int kArchs[] = {80, 90, 100};

// Empty when `c` is a valid choice for the problem; otherwise what is wrong.
std::string check_choice(const KernelConfig& c, const ProblemSpec& p, int max_vec, Arch arch) {
  const int elem = dtype_size(p.dtype);
  const int tpr = c.threads_per_row;
  const int block = c.block_threads();
  if (c.op != p.op) return "op not propagated";
  if (c.input_dtype != p.dtype || c.output_dtype != p.dtype) return "activation dtype not propagated";
  if (c.weight_dtype != p.weight_dtype) return "weight dtype not propagated";
  if (c.rank3 != p.rank3) return "rank3 not propagated";
  if (c.hidden != p.hidden) return "hidden not propagated";
  if (!(c.arch == arch)) return "arch not propagated";
  if (c.vec < 1 || (c.vec & (c.vec - 1)) != 0) return "vec is not a power of two";
  if (p.hidden % c.vec != 0) return "vec does not divide hidden";
  if (c.vec * elem > 16) return "vector wider than 16 bytes";
  if (max_vec > 0 && c.vec > max_vec) return "vec above max_vec";
  if (tpr < 1 || tpr > 1024 || (tpr & (tpr - 1)) != 0) return "threads_per_row not a power of two <= 1024";
  if (c.rows_per_block < 1) return "rows_per_block < 1";
  if (block < 32 || block > 1024) return "block threads outside 32..1024";
  if (c.cluster < 1 || c.cluster > kMaxClusterNonPortable || (c.cluster & (c.cluster - 1)) != 0)
    return "cluster not a power of two <= 16";
  // The fp32 fused add's shares of whole items may take up to kWideMaxShareBytesF32FusedAdd.
  const bool f32_fused = p.dtype == DType::f32 && op_info(p.op).residual;
  const std::int64_t share_cap = f32_fused ? kWideMaxShareBytesF32FusedAdd : kWideMaxShareBytes;
  if (c.cluster > kMaxCluster && (arch.cc != 90 || !staged(c) || staged_smem_bytes(c) > share_cap))
    return "a non-portable cluster other than a staged row of <= 64 KiB shares (88 KiB for the fp32 fused add) on sm_90";
  if (c.cluster > 1 && arch.cc < 90) return "cluster below sm_90";
  if (c.cluster > 1 && c.rows_per_block != 1) return "cluster with several rows per block";
  if (p.hidden % (c.vec * c.cluster) != 0) return "cluster does not split hidden into whole vectors";
  const std::int64_t vectors = p.hidden / c.vec / c.cluster;
  const std::int64_t items = (vectors + tpr - 1) / tpr;
  // Held rows must fit registers: 64 fp32 values, or 64 words of 16-bit values kept in their
  // type (reconvert); a reloaded row (residency 2) is only a loop count.
  const std::int64_t held_words = c.reconvert ? (items * c.vec * elem + 3) / 4 : items * c.vec;
  if (c.residency < 2 && held_words > 64) return "more than 64 registers' worth of values per thread held";
  if (items * c.vec > 512) return "more than 512 values per thread";
  if (c.residency < 0 || c.residency > 4) return "residency outside 0..4";
  if (staged(c)) {
    // A staged row: the copies' constraints (op_registry.cpp checks the same for overrides).
    if (c.residency == 3 && arch.cc < 90) return "bulk copies below sm_90";
    if (c.vec * elem != 16) return "staged row without 16-byte vectors";
    if (c.split != 1) return "staged row with split";
    if (staged_smem_bytes(c) > staged_smem_limit(arch)) return "staged share exceeds shared memory";
  }
  return {};
}

}  // namespace

TEST_CASE("heuristic choices are deterministic and valid for every hidden size 1..262144",
          "[config][heuristics]") {
  const std::vector<std::int64_t> listed = {1,    2,    3,    7,    64,   100,   111,   127,  128,
                                            129,  2048, 3584, 4095, 4096, 5120,  7168,  8192, 16384,
                                            65535, 65536, 65537, 131072, 200000, 262143, 262144};
  const int max_vecs[] = {0, 1, 2, 4, 8};
  std::int64_t checked = 0, bad = 0;
  std::string first_bad;
  for (Op op : all_ops()) {
    const OpInfo& info = op_info(op);
    for (const DtypePair& dp : kDtypePairs) {
      for (int cc : kArchs) {
        for (bool rank3 : {false, true}) {
          if (rank3 && !info.allows_rank3) continue;
          for (int max_vec : max_vecs) {
            ProblemSpec p;
            p.op = op;
            p.dtype = dp.act;
            p.weight_dtype = dp.weight;
            p.rank3 = rank3;
            p.max_vec = max_vec;
            // Exhaustive up to 65536, then every multiple of 64 and every 37th size (the listed
            // sizes cover the ends); and for many rows, where wide rows are staged in shared
            // memory (kBulkRowsWide), every multiple of 64 from 32768.
            for (std::int64_t rows : {std::int64_t(0), kBulkRowsWide}) {
              p.rows = rows;
              for (std::int64_t h = rows ? 32768 : 1; h <= kMaxRmsHidden; h += rows ? 64 : 1) {
                if (h > 65536 && h % 64 != 0 && h % 37 != 0) continue;
                p.hidden = h;
                const KernelConfig a = info.choose(p, max_vec, Arch{cc});
                const KernelConfig b = info.choose(p, max_vec, Arch{cc});
                std::string why = check_choice(a, p, max_vec, Arch{cc});
                if (why.empty() && !(a == b)) why = "not deterministic";
                ++checked;
                if (!why.empty() && bad++ == 0)
                  first_bad = why + " for " + canonical_json(a) + " (max_vec " + std::to_string(max_vec) +
                              ", rows " + std::to_string(rows) + ")";
              }
            }
          }
        }
      }
    }
  }
  INFO("first violation: " << first_bad);
  CHECK(bad == 0);
  CHECK(checked > 10'000'000);

  // The listed sizes, checked with individual assertions for readable reports.
  for (Op op : all_ops()) {
    for (const DtypePair& dp : kDtypePairs) {
      for (int cc : kArchs) {
        for (std::int64_t h : listed) {
          ProblemSpec p;
          p.op = op;
          p.dtype = dp.act;
          p.weight_dtype = dp.weight;
          p.hidden = h;
          const KernelConfig a = op_info(op).choose(p, 0, Arch{cc});
          INFO(canonical_json(a));
          CHECK(check_choice(a, p, 0, Arch{cc}) == "");
          CHECK(a == op_info(op).choose(p, 0, Arch{cc}));
          CHECK(cache_key(a) == cache_key(op_info(op).choose(p, 0, Arch{cc})));
          // Without a config override, what the ops use is the heuristic's choice.
          CHECK(choose_config(p, 0, Arch{cc}) == a);
        }
      }
    }
  }
}

TEST_CASE("heuristic picks the widest 16-byte vector for aligned tensors", "[config][heuristics]") {
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.hidden = 4096;
  p.dtype = DType::bf16;
  CHECK(choose_rms_norm(p, 0, Arch{90}).vec == 8);
  p.dtype = DType::f32;
  p.weight_dtype = DType::f32;
  CHECK(choose_rms_norm(p, 0, Arch{90}).vec == 4);
  CHECK(choose_rms_norm(p, 2, Arch{90}).vec == 2);
  p.hidden = 4095;
  CHECK(choose_rms_norm(p, 0, Arch{90}).vec == 1);
}

TEST_CASE("the row count's choices: re-read, per-item stores, late weight, kept output", "[config][heuristics]") {
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.hidden = 8192;
  auto pick = [&](std::int64_t rows, Arch arch = Arch{90}) {
    p.rows = rows;
    return choose_rms_norm(p, 0, arch);
  };
  CHECK(pick(1).residency == 0);
  CHECK(pick(kBulkRowsRmsnorm - 1).residency == 0);
  CHECK(pick(kBulkRowsRmsnorm).residency == 2);
  CHECK(pick(kBulkRowsRmsnorm).loads == 3);
  CHECK(pick(0).residency == 0);  // unknown rows: the latency-bound choice
  // Few rows of 1024 vectors: 4 items on 256 threads; many: 2 items on 512, re-read.
  CHECK(pick(kBulkRowsRmsnorm - 1).threads_per_row == 256);
  CHECK(pick(kBulkRowsRmsnorm).threads_per_row == 512);
  // Rows of 512 vectors: a 4-CTA cluster of 64 threads for a few, 2 items on 256 threads below
  // kPinWeightRows, 4 items on 128 threads from there up to the re-read.
  p.hidden = 4096;
  CHECK(pick(kFewRowsMax).cluster == 4);
  CHECK(pick(kFewRowsMax).threads_per_row == 64);
  CHECK(pick(kFewRowsMax + 1).cluster == 1);
  CHECK(pick(kFewRowsMax + 1).threads_per_row == 256);
  CHECK(pick(kPinWeightRows - 1).threads_per_row == 256);
  CHECK(pick(kPinWeightRows).threads_per_row == 128);
  CHECK(pick(kBulkRowsRmsnorm - 1).threads_per_row == 128);
  CHECK(pick(kBulkRowsRmsnorm - 1).residency == 0);
  CHECK(pick(kBulkRowsRmsnorm).threads_per_row == 256);
  CHECK(pick(kBulkRowsRmsnorm).residency == 2);
  // Rows of 2048 vectors in a 16-bit type: late weight on 256 threads below kBulkRowsRmsnorm,
  // re-read on 512 threads (4 items) from there; fp32 rows of 2048 vectors are not re-read.
  p.hidden = 16384;
  CHECK(pick(kBulkRowsRmsnorm - 1).residency == 1);
  CHECK(pick(kBulkRowsRmsnorm - 1).threads_per_row == 256);
  CHECK(pick(kBulkRowsRmsnorm).residency == 2);
  CHECK(pick(kBulkRowsRmsnorm).loads == 3);
  CHECK(pick(kBulkRowsRmsnorm).threads_per_row == 512);
  CHECK(pick(1 << 20).residency == 2);
  p.dtype = DType::f32;
  p.hidden = 8192;
  CHECK(pick(1 << 20).residency != 2);
  p.dtype = DType::bf16;
  p.hidden = 16384;
  p.op = Op::fused_add_rmsnorm;
  // Rows of 2048 vectors: held on 512 threads with plain loads below kStreamRowsFusedAdd rows,
  // from there on 1024 threads: 16-bit rows re-read with the hints by pass at 2 CTAs an SM (with
  // an fp32 weight too), fp32 rows (hidden 8192) streamed.
  CHECK(pick(kStreamRowsFusedAdd - 1).threads_per_row == 512);
  CHECK(pick(kStreamRowsFusedAdd - 1).residency == 0);
  CHECK(pick(kStreamRowsFusedAdd - 1).loads == 0);
  CHECK(pick(kStreamRowsFusedAdd).threads_per_row == 1024);
  CHECK(pick(kStreamRowsFusedAdd).residency == 2);
  CHECK(pick(kStreamRowsFusedAdd).loads == 3);
  CHECK(pick(kStreamRowsFusedAdd).min_blocks == 2);
  CHECK(pick(kStreamRowsFusedAdd).keep_out);
  p.weight_dtype = DType::f32;
  CHECK(pick(kStreamRowsFusedAdd).residency == 2);
  CHECK(pick(kStreamRowsFusedAdd).loads == 3);
  CHECK(pick(kStreamRowsFusedAdd).min_blocks == 2);
  p.weight_dtype = DType::bf16;
  // 16-bit rows with a part-filled third item on 1024 threads (2049-2944 vectors): held below
  // kBulkRowsFusedAdd rows, re-read with the hints by pass at 2 CTAs an SM from there, in every
  // 16-bit op with a weight of the row's type; a fuller third item, a full one (3072) and
  // part-filled fourth ones stay held, as does an fp32 weight.
  auto reread = [&](std::int64_t rows) {
    const KernelConfig c = pick(rows);
    return c.threads_per_row == 1024 && c.residency == 2 && c.loads == 3 && c.min_blocks == 2 && !c.keep_out;
  };
  auto held = [&](std::int64_t rows) {
    const KernelConfig c = pick(rows);
    return c.threads_per_row == 1024 && c.residency == 1 && c.min_blocks == 0;
  };
  for (std::int64_t h : {16400, 17408, 20480, 22528, 23552}) {
    p.hidden = h;
    INFO("hidden " << h);
    CHECK(held(kBulkRowsFusedAdd - 1));
    CHECK(reread(kBulkRowsFusedAdd));
    CHECK(reread(1 << 20));
  }
  for (std::int64_t h : {24560, 24576, 28672, 32768}) {
    p.hidden = h;
    INFO("hidden " << h);
    CHECK(held(kBulkRowsFusedAdd));
    CHECK(held(1 << 20));
  }
  p.hidden = 20480;
  p.op = Op::gemma_fused_add_rmsnorm;
  p.dtype = p.weight_dtype = DType::f16;
  CHECK(held(kBulkRowsFusedAdd - 1));
  CHECK(reread(kBulkRowsFusedAdd));
  p.weight_dtype = DType::f32;
  CHECK(pick(kBulkRowsFusedAdd).residency == 1);
  p.op = Op::fused_add_rmsnorm;
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 8192;
  CHECK(pick(kBulkRowsFusedAdd - 1).loads != 3);
  CHECK(pick(kBulkRowsFusedAdd).residency == 2);
  p.hidden = 2048;  // 256 vectors: re-read on one vector per thread
  CHECK(pick(kBulkRowsFusedAdd - 1).residency == 0);
  CHECK(pick(kBulkRowsFusedAdd - 1).threads_per_row == 128);
  CHECK(pick(kBulkRowsFusedAdd).residency == 2);
  CHECK(pick(kBulkRowsFusedAdd).loads == 3);
  CHECK(pick(kBulkRowsFusedAdd).threads_per_row == 256);
  CHECK(pick(kBulkRowsFusedAdd).stores == 0);
  p.hidden = 4096;  // slower at 512 and 2048 rows
  CHECK(pick(kBulkRowsFusedAdd).residency != 2);
  // Per-item residual stores for many rows of up to 512 vectors only.
  CHECK(pick(kPerItemStoreRows - 1).stores == 0);
  CHECK(pick(kPerItemStoreRows).stores == 1);
  CHECK(slug(pick(kPerItemStoreRows)).find("-stitem") != std::string::npos);
  p.hidden = 8192;
  CHECK(pick(kPerItemStoreRows).stores == 0);
  CHECK(pick(kBulkRowsFusedAdd).stores == 0);
  p.hidden = 16384;
  CHECK(pick(1 << 20).stores == 0);
  // An override of the load policy alone keeps the heuristic's row-count choices.
  p.hidden = 8192;
  p.rows = kBulkRowsFusedAdd;
  ConfigOverride o;
  o.loads = 2;
  const KernelConfig forced = choose_with_override(o, p, Arch{90});
  CHECK(forced.residency == 2);
  CHECK(forced.loads == 2);
  // Many wide rows (sm_90+): at 32768, rmsnorm re-reads a row on one 1024-thread CTA and the
  // fused add holds it there; from 65536 (8192 vectors) the rows are staged in shared memory on
  // clusters of 512-thread CTAs: rmsnorm in 4096-vector shares, the fused add in 2048-vector
  // shares (x and r) up to 8 CTAs, with evict-first copies where the share is wider.
  p.op = Op::rmsnorm;
  p.hidden = 32768;
  CHECK(pick(kBulkRowsWide - 1).cluster == 2);
  CHECK(pick(kBulkRowsWide).cluster == 1);
  CHECK(pick(kBulkRowsWide).residency == 2);
  CHECK(pick(kBulkRowsWide).threads_per_row == 1024);
  // ... with plain loads; 16-bit rows of 4096 vectors held there (weight late, reconverted) from
  // kLateWeightRows to kBulkRowsRmsnorm rows, with the output hint from 64 MiB of output; re-read
  // with the L1/L2 hints by pass from kBulkRowsRmsnorm rows.
  CHECK(pick(kLateWeightRows - 1).loads == 0);
  for (std::int64_t rows : {kLateWeightRows, kHintedWideRows, kBulkRowsRmsnorm - 1}) {
    const KernelConfig held = pick(rows);
    INFO(slug(held));
    CHECK(held.residency == 1);
    CHECK(held.loads == 0);
    CHECK(held.reconvert);
    CHECK(held.keep_out);
    CHECK(held.threads_per_row == 1024);
  }
  CHECK_FALSE(pick(kLateWeightRows - 1).keep_out);
  CHECK(pick(kBulkRowsRmsnorm).loads == 3);
  CHECK(pick(kBulkRowsRmsnorm).residency == 2);
  CHECK_FALSE(pick(kBulkRowsRmsnorm).keep_out);
  CHECK(pick(1 << 20).loads == 3);
  // Rows of 2049-3072 vectors are held from kBulkRowsWide rows, the hint from 64 MiB (20480:
  // 1639 rows); rows with a part-filled fourth item a thread (28672) from kLateWeightRows, under
  // a floor of 2 CTAs an SM.
  p.hidden = 20480;
  CHECK(pick(kBulkRowsWide).residency == 1);
  CHECK(pick(kBulkRowsWide).min_blocks == 0);
  CHECK_FALSE(pick(kKeepOutRereadBytes / 40960 - 1).keep_out);
  CHECK(pick(kKeepOutRereadBytes / 40960 + 1).keep_out);
  p.hidden = 28672;
  CHECK(pick(kLateWeightRows - 1).residency == 2);
  CHECK(pick(kLateWeightRows).residency == 1);
  CHECK(pick(kLateWeightRows).min_blocks == 2);
  CHECK(pick(kHintedWideRows).residency == 1);
  CHECK(pick(kBulkRowsRmsnorm).residency == 2);
  p.dtype = p.weight_dtype = DType::f16;
  p.hidden = 24576;
  CHECK(pick(kHintedWideRows).residency == 1);
  p.weight_dtype = DType::f32;  // held from kLateWeightRows below kHeldWideF32WeightEndRows
  CHECK(pick(kHintedWideRows).residency == 1);
  CHECK(pick(kHeldWideF32WeightEndRows).residency == 2);
  p.dtype = p.weight_dtype = DType::f32;
  p.hidden = 16384;  // 4096 fp32 vectors: the same layout, not measured with hints
  CHECK(pick(1 << 20).residency == 2);
  CHECK(pick(1 << 20).loads == 0);
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 32768;
  // Rows whose CTAs read 32768 vectors or more (kWideReadVectors) go over 16 CTAs of 128 threads
  // on sm_90, with evict-first copies above that; 8 CTAs of 512 elsewhere. Rows of 8192 vectors
  // go over 4 CTAs of 256 threads that copy their own items (residency 4).
  for (auto [hidden, cluster] : {std::pair<std::int64_t, int>{65536, 4}, {131072, 4}, {262144, 16}}) {
    p.hidden = hidden;
    INFO("rmsnorm hidden " << hidden);
    const bool wide = cluster == 16;
    const bool lanes = hidden == 65536;
    CHECK_FALSE(staged(pick(kBulkRowsWide - 1)));
    CHECK(pick(kBulkRowsWide).cluster == cluster);
    CHECK(pick(kBulkRowsWide).threads_per_row == (wide ? 128 : lanes ? 256 : 512));
    // 16-CTA shares of 32 KiB: the occupancy floor is the 6 CTAs an SM's shared memory holds;
    // 256-thread cluster CTAs take the 4 of 64 registers.
    CHECK(pick(kBulkRowsWide).min_blocks == (wide ? 6 : lanes ? 4 : 0));
    CHECK(pick(kBulkRowsWide).residency == (lanes ? 4 : 3));
    CHECK(pick(kBulkRowsWide).loads == 0);
    CHECK(staged_smem_bytes(pick(kBulkRowsWide)) == (wide || lanes ? 32768 : 65536));
    CHECK(slug(pick(kBulkRowsWide)).find(lanes ? "-smeml" : "-smem-") != std::string::npos);
    CHECK(pick(1 << 20) == pick(kBulkRowsWide));
  }
  // fp32 rows of 8192 vectors (hidden 32768) alike; the fused add's not.
  p.dtype = p.weight_dtype = DType::f32;
  p.hidden = 32768;
  CHECK(slug(pick(kBulkRowsWide)) == "rmsnorm-f32-h32768-v4-t256-r1-c4-smeml-b4-sm_90a");
  p.op = Op::gemma_rmsnorm;
  CHECK(pick(kBulkRowsWide).residency == 4);
  p.op = Op::fused_add_rmsnorm;
  CHECK(pick(kBulkRowsWide).residency == 3);
  // The fp32 fused add: rows too wide to stage (245760-262144) re-read on 8 CTAs of 512 threads
  // (the sum the first pass stored: rms_norm.cuh, kSumStored); rows of 4096 vectors (16384) held
  // on one 1024-thread CTA, re-read with the hints by pass from kBulkRowsFusedAdd rows.
  for (std::int64_t hidden : {245760, 262144}) {
    p.hidden = hidden;
    INFO("fp32 fused add hidden " << hidden);
    CHECK(pick(kBulkRowsWide).cluster == 8);
    CHECK(pick(kBulkRowsWide).threads_per_row == 512);
    CHECK(pick(kBulkRowsWide).residency == 2);
    CHECK(pick(kBulkRowsWide).loads != 3);
  }
  p.hidden = 16384;
  CHECK(pick(kBulkRowsFusedAdd - 1).residency == 1);
  CHECK(pick(kBulkRowsFusedAdd - 1).threads_per_row == 1024);
  CHECK(pick(kBulkRowsFusedAdd).residency == 2);
  CHECK(pick(kBulkRowsFusedAdd).loads == 3);
  CHECK(pick(kBulkRowsFusedAdd).threads_per_row == 1024);
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 32768;  // the same bytes a row in bf16: held at every row count
  CHECK(pick(1 << 20).residency == 1);
  p.op = Op::rmsnorm;
  p.hidden = 65536;
  CHECK(pick(kBulkRowsWide, Arch{100}).residency == 4);
  p.hidden = 262144;
  CHECK(pick(kBulkRowsWide, Arch{100}).cluster == 8);
  CHECK(pick(kBulkRowsWide, Arch{100}).threads_per_row == 512);
  p.op = Op::fused_add_rmsnorm;
  p.hidden = 32768;
  CHECK(pick(kBulkRowsWide - 1).cluster == 2);
  CHECK(pick(kBulkRowsWide).cluster == 1);
  CHECK(pick(kBulkRowsWide).threads_per_row == 1024);
  CHECK(pick(kBulkRowsWide).residency == 1);
  CHECK(pick(kBulkRowsWide).loads == 0);
  CHECK(pick(kBulkRowsWide).min_blocks == 0);
  for (auto [hidden, cluster] : {std::pair<std::int64_t, int>{65536, 4}, {131072, 16}, {262144, 16}}) {
    p.hidden = hidden;
    INFO("fused add hidden " << hidden);
    const bool wide = cluster == 16;
    CHECK(pick(kBulkRowsWide).cluster == cluster);
    CHECK(pick(kBulkRowsWide).threads_per_row == (wide ? 128 : 512));
    CHECK(pick(kBulkRowsWide).residency == 3);
    CHECK(pick(kBulkRowsWide).loads == (hidden == 262144 ? 1 : 0));
    CHECK(staged_smem_bytes(pick(kBulkRowsWide)) == (hidden == 262144 ? 65536 : hidden == 131072 ? 32768 : 65536));
    // Floors of 8 CTAs of 128 threads bounded by what shared memory holds: 6 of 32 KiB, 3 of 64.
    CHECK(pick(kBulkRowsWide).min_blocks == (hidden == 262144 ? 3 : hidden == 131072 ? 6 : 0));
    CHECK(pick(kBulkRowsWide).min_blocks <= staged_ctas_per_sm(pick(kBulkRowsWide)));
    // Elsewhere 8 CTAs of 512 threads, 128 KiB shares at 262144.
    CHECK(pick(kBulkRowsWide, Arch{100}).cluster == (hidden == 65536 ? 4 : 8));
    CHECK(pick(kBulkRowsWide, Arch{100}).threads_per_row == 512);
    CHECK(staged_smem_bytes(pick(kBulkRowsWide, Arch{100})) == (hidden == 262144 ? 131072 : 65536));
  }
  // Rows between the powers of two (sessions 43-44): rmsnorm's and gemma's 16-bit rows of
  // 4097-5120 vectors held in registers on 8 CTAs of 128 threads (sessions 47-49; 4100 vectors,
  // which 8 shares do not split: 4 CTAs), those of 5121-6143 (gemma: 6144) by one 512-thread CTA
  // with the weight late, floor 2 (session 49), the others of 4097-9216 vectors on 4
  // CTAs of 256 threads copying their own items (the last one part-filled where a share is not whole
  // items: 36864, 4.5 items) under a floor of 8 CTAs an SM up to 5 items, 6 past that (but 65536:
  // 4; 73728: the 5 that shared memory holds), 9217-16383 on 8 CTAs of 128; wider ones on 16 CTAs
  // of 128 threads where those shares are whole items or at least 10 (sm_90; 204800: 12.5), else
  // on 4 of 512 (139264: 8.5); the fused add's
  // of 8193-16383 vectors held on 8 CTAs of 512, wider ones on 16 of 128 (part-filled at 139264:
  // 8.5 items).
  struct Between {
    Op op;
    std::int64_t hidden;
    int cluster, threads, residency, loads, min_blocks;  // min_blocks -1: the heuristic's floor
  };
  const Op rms = Op::rmsnorm, fused = Op::fused_add_rmsnorm, gemma = Op::gemma_rmsnorm;
  const Between between[] = {{rms, 32800, 4, 256, 4, 0, 8},        {rms, 33280, 8, 128, 0, 0, 8},
                             {rms, 36864, 8, 128, 0, 0, 8},        {rms, 40960, 8, 128, 0, 0, 8},
                             {rms, 41984, 1, 512, 1, 0, 2},        {rms, 47104, 1, 512, 1, 0, 2},
                             {gemma, 33792, 8, 128, 0, 0, 8},      {gemma, 40960, 8, 128, 0, 0, 8},
                             {gemma, 45056, 1, 512, 1, 0, 2},      {gemma, 49152, 1, 512, 1, 0, 2},
                             {rms, 49152, 4, 256, 4, 0, 6},        {rms, 57344, 4, 256, 4, 0, 6},
                             {rms, 65536, 4, 256, 4, 0, 4},        {rms, 73728, 4, 256, 4, 0, 5},
                             {rms, 81920, 8, 128, 4, 0, 8},        {rms, 98304, 8, 128, 4, 0, 8},
                             {rms, 122880, 8, 128, 4, 0, 6},       {rms, 139264, 4, 512, 3, 1, 0},
                             {rms, 163840, 16, 128, 3, 0, -1},     {rms, 172032, 16, 128, 3, 0, 8},
                             {rms, 196608, 16, 128, 3, 0, -1},     {rms, 204800, 16, 128, 3, 0, 8},
                             {rms, 245760, 16, 128, 3, 0, -1},
                             {fused, 73728, 8, 512, 0, 0, 2},      {fused, 81920, 8, 512, 0, 0, 2},
                             {fused, 98304, 8, 512, 0, 0, 2},      {fused, 114688, 8, 512, 0, 0, 2},
                             {fused, 122880, 8, 512, 0, 0, 2},     {fused, 139264, 16, 128, 3, 1, -1},
                             {fused, 237568, 16, 128, 3, 1, -1}};
  for (const Between& w : between) {
    p.op = w.op;
    p.hidden = w.hidden;
    INFO(op_name(w.op) << " hidden " << w.hidden);
    const KernelConfig c = pick(kBulkRowsWide);
    CHECK(c.cluster == w.cluster);
    CHECK(c.threads_per_row == w.threads);
    CHECK(c.residency == w.residency);
    CHECK(c.loads == w.loads);
    if (w.min_blocks >= 0) CHECK(c.min_blocks == w.min_blocks);
    if (staged(c)) CHECK(staged_unsupported(c).empty());
    // Held 8-CTA shares pin every item of the weight and convert the output again (sessions
    // 47-49); the late-weight 512-thread rows convert again, unpinned (session 49).
    const bool held8 = w.op != fused && w.residency == 0 && w.cluster == 8;
    CHECK(c.pin_weight == (held8 ? 1 : 0));
    CHECK(c.reconvert == (held8 || w.residency == 1));
    // Elsewhere the same rules but the 16-CTA clusters (sm_90 only): 4 CTAs of 512 there.
    if (w.cluster != 16) {
      KernelConfig d = c;
      d.arch = Arch{100};
      CHECK(pick(kBulkRowsWide, Arch{100}) == d);
    } else if (w.op == rms) {
      CHECK(pick(kBulkRowsWide, Arch{100}).cluster == 4);
    }
  }
  // The floors by dtype: fp32 rows (vectors of 4) take 8 up to 5 items (held there since session
  // 49), else 4; an fp32 weight with 16-bit rows keeps 4 throughout (it spilled under 6 and 8).
  p.op = Op::rmsnorm;
  p.dtype = p.weight_dtype = DType::f32;
  p.hidden = 18432;  // 4608 4-vectors: held on 8 x 128 as the 16-bit rows (session 49), not reconverted
  CHECK(pick(kBulkRowsWide).min_blocks == 8);
  CHECK(pick(kBulkRowsWide).cluster == 8);
  CHECK(pick(kBulkRowsWide).residency == 0);
  CHECK(pick(kBulkRowsWide).pin_weight == 1);
  CHECK_FALSE(pick(kBulkRowsWide).reconvert);
  p.hidden = 22528;  // 5632: not the late-weight 512-thread CTA of the 16-bit rows
  CHECK(pick(kBulkRowsWide).residency == 4);
  p.hidden = 24576;
  CHECK(pick(kBulkRowsWide).min_blocks == 4);
  p.hidden = 40960;
  CHECK(pick(kBulkRowsWide).cluster == 8);
  p.dtype = DType::bf16;
  for (std::int64_t hidden : {36864, 49152}) {
    p.hidden = hidden;
    CHECK(pick(kBulkRowsWide).cluster == 4);
    CHECK(pick(kBulkRowsWide).min_blocks == 4);
  }
  p.weight_dtype = DType::bf16;
  p.op = Op::fused_add_rmsnorm;
  // Not staged: sm_80, vectors narrower than 16 bytes, and an fp32 fused add of 262144, whose
  // 8 shares would need 256 KiB each and whose 16 (128 KiB) would need 16 SMs of one GPC.
  p.hidden = 65536;
  CHECK(choose_config(p, 0, Arch{80}).residency == 2);
  CHECK(choose_config(p, 4, Arch{90}).residency != 3);
  p.hidden = 262144;
  p.dtype = p.weight_dtype = DType::f32;
  CHECK(pick(kBulkRowsWide, Arch{100}).residency == 2);
  CHECK(pick(kBulkRowsWide).residency == 2);
  CHECK(pick(kBulkRowsWide).cluster <= kMaxCluster);
  CHECK(pick(kBulkRowsWide).min_blocks == 0);  // re-read cluster CTAs hold no row: no floor
  p.op = Op::rmsnorm;  // fp32 rmsnorm 262144: 64 KiB shares on 16 CTAs
  CHECK(pick(kBulkRowsWide).cluster == 16);
  CHECK(staged_smem_bytes(pick(kBulkRowsWide)) == 65536);
  CHECK(pick(kBulkRowsWide).min_blocks == 3);
  p.op = Op::fused_add_rmsnorm;
  p.hidden = 65536;  // fp32: 16 CTAs of 32 KiB shares, 6 an SM
  CHECK(pick(kBulkRowsWide).cluster == 16);
  CHECK(pick(kBulkRowsWide).min_blocks == 6);
  p.hidden = 131072;
  CHECK(pick(kBulkRowsWide, Arch{100}).residency == 3);
  CHECK(staged_smem_bytes(pick(kBulkRowsWide, Arch{100})) == 131072);
  CHECK(pick(kBulkRowsWide).cluster == 16);
  CHECK(staged_smem_bytes(pick(kBulkRowsWide)) == 65536);
  // fp32 fused add rows of 139264-180224 (shares of 17-22 whole items, 68-88 KiB) on 16 CTAs of
  // 128 threads, 3 an SM up to 72 KiB, else 2; part-filled shares (143360: 17.5 items) and shares
  // above 88 KiB (196608, 204800) on 8 of 512 as before; elsewhere 8 of 512 throughout.
  struct F32Fused {
    std::int64_t hidden;
    int cluster, threads, min_blocks;
  };
  for (const F32Fused& w : {F32Fused{139264, 16, 128, 3}, F32Fused{147456, 16, 128, 3}, F32Fused{155648, 16, 128, 2},
                            F32Fused{180224, 16, 128, 2}, F32Fused{143360, 8, 512, -1},
                            F32Fused{196608, 8, 512, -1}, F32Fused{204800, 8, 512, -1}}) {
    p.hidden = w.hidden;
    INFO("fp32 fused add hidden " << w.hidden);
    const KernelConfig c = pick(kBulkRowsWide);
    CHECK(c.cluster == w.cluster);
    CHECK(c.threads_per_row == w.threads);
    CHECK(c.residency == 3);
    if (w.min_blocks >= 0) {
      CHECK(c.min_blocks == w.min_blocks);
      CHECK(c.loads == 1);
      CHECK(staged_smem_bytes(c) <= kWideMaxShareBytesF32FusedAdd);
    }
    CHECK(pick(kBulkRowsWide, Arch{100}).cluster == 8);
    CHECK(pick(kBulkRowsWide, Arch{100}).threads_per_row == 512);
  }
  p.dtype = p.weight_dtype = DType::bf16;
  // rmsnorm rows of 2048 vectors: 8 items on 256 threads with the weight loaded late from
  // kLateWeightRows rows to the bulk, 4 on 512 holding it around them.
  p.op = Op::rmsnorm;
  p.hidden = 16384;
  CHECK(pick(kLateWeightRows - 1).threads_per_row == 512);
  CHECK(pick(kLateWeightRows - 1).residency == 0);
  CHECK(pick(kLateWeightRows).threads_per_row == 256);
  CHECK(pick(kLateWeightRows).residency == 1);
  CHECK(pick(kBulkRowsRmsnorm - 1).threads_per_row == 256);
  CHECK(pick(kBulkRowsRmsnorm).threads_per_row == 512);
  // The fused add keeps its output in L2 from kKeepOutRows rows of 512-2048 vectors, rows of 256
  // vectors never (rmsnorm goes by output bytes: the next test).
  p.op = Op::fused_add_rmsnorm;
  for (std::int64_t h : {2048, 4096, 8192, 16384, 32768}) {
    p.hidden = h;
    INFO("hidden " << h);
    CHECK_FALSE(pick(kKeepOutRows - 1).keep_out);
    CHECK(pick(kKeepOutRows).keep_out == (h >= 4096 && h <= 16384));
    CHECK(pick(1 << 20).keep_out == (h >= 4096 && h <= 16384));
  }
  p.hidden = 8192;
  CHECK(slug(pick(kKeepOutRows)).find("-keep") != std::string::npos);
  p.op = Op::gemma_fused_add_rmsnorm;
  CHECK(pick(kKeepOutRows).keep_out);
  // rmsnorm's rows of 8192 (1024 vectors on 512 threads) hint only their output's tail there.
  p.op = Op::rmsnorm;
  CHECK(pick(1 << 20).keep_out);
  CHECK(pick(1 << 20).keep_tail == kKeepTailMib);
}

TEST_CASE("rmsnorm keeps its output in L2 by output bytes: held rows, short rows, re-read rows in a window",
          "[config][heuristics]") {
  ProblemSpec p;
  auto pick = [&](Op op, std::int64_t hidden, std::int64_t rows, DType dt = DType::bf16, bool rank3 = false) {
    p.rank3 = rank3;
    return choose_for(p, op, hidden, rows, dt, 90);
  };
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16, DType::f32}) {
      INFO(op_name(op) << " " << dtype_name(dt));
      const std::int64_t es = dtype_size(dt);
      // Held rows of 2048 16-bit elements (4 KiB, fp32 8 KiB) from kKeepOutHeldBytes of output;
      // only the hint differs from the kernel below it.
      const std::int64_t at = kKeepOutHeldBytes / (2048 * es);
      const KernelConfig below = pick(op, 2048, at - 1, dt), from = pick(op, 2048, at, dt);
      INFO(slug(below) << " / " << slug(from));
      if (from.residency < 2) {
        CHECK_FALSE(below.keep_out);
        CHECK(from.keep_out);
        CHECK(without_keep(from) == below);
        CHECK(slug(from).find("-keep") != std::string::npos);
      }
      // Re-read rows of 8 KiB (hidden 4096, fp32 2048: 2 vectors a thread on 256 threads; re-read
      // from kBulkRowsRmsnorm rows): every row hinted from kKeepOutRereadBytes of output, the rows
      // of the last kKeepTailMib MiB only from kKeepTailBytes, at any size past it.
      const std::int64_t rh = 8192 / es, row = rh * es;
      const KernelConfig before = pick(op, rh, kKeepOutRereadBytes / row - 1, dt);
      const KernelConfig first = pick(op, rh, kKeepOutRereadBytes / row, dt);
      const KernelConfig last = pick(op, rh, kKeepTailBytes / row - 1, dt);
      const KernelConfig tail = pick(op, rh, kKeepTailBytes / row, dt);
      const KernelConfig huge = pick(op, rh, (std::int64_t(1) << 31) / row, dt);
      INFO(slug(before) << " / " << slug(first) << " / " << slug(last) << " / " << slug(tail) << " / " << slug(huge));
      CHECK(first.residency == 2);
      CHECK(first.block_threads() == 256);
      CHECK_FALSE(before.keep_out);
      CHECK(first.keep_out);
      CHECK(first.keep_tail == 0);
      CHECK(last.keep_out);
      CHECK(last.keep_tail == 0);
      CHECK(tail.keep_out);
      CHECK(tail.keep_tail == kKeepTailMib);
      CHECK(slug(tail).find("-keep-kt" + std::to_string(kKeepTailMib)) != std::string::npos);
      // Only the hint's extent differs, and the hinted kernels are declared for the CTAs an SM
      // holds without the hint (8 of 256 threads; below kBulkRowsRmsnorm rows the row is held).
      KernelConfig full = tail;
      full.keep_tail = 0;
      CHECK(full == last);
      CHECK(huge == tail);
      CHECK(before.residency < 2);
      CHECK(first.min_blocks == 2048 / first.block_threads());
      // Rows of 16 KiB (hidden 8192, fp32 4096: 2 vectors a thread on 512 threads): every row
      // hinted up to kKeepOutRereadEndBytes, the tail from there.
      const std::int64_t rh2 = 2 * rh;
      const KernelConfig in_window = pick(op, rh2, kKeepOutRereadEndBytes / (2 * row) - 1, dt);
      const KernelConfig past = pick(op, rh2, kKeepOutRereadEndBytes / (2 * row), dt);
      INFO(slug(in_window) << " / " << slug(past));
      CHECK(in_window.block_threads() == 512);
      CHECK(in_window.keep_out);
      CHECK(in_window.keep_tail == 0);
      CHECK(past.keep_out);
      CHECK(past.keep_tail == kKeepTailMib);
      if (dt != DType::f32) {
        // 16-bit rows of 7168 (896 vectors: part-filled items on 512 threads): every row in the
        // window, none past it.
        CHECK(pick(op, 7168, kKeepOutRereadEndBytes / (7168 * es) - 1, dt).keep_out);
        CHECK_FALSE(pick(op, 7168, kKeepOutRereadEndBytes / (7168 * es) + 1, dt).keep_out);
        // 18432 on 1024 threads: held below kBulkRowsRmsnorm rows, hinted from
        // kKeepOutRereadBytes with no end (past the window at 7283 rows); re-read from
        // kBulkRowsRmsnorm rows (288 MiB, past the window: no hint).
        const KernelConfig held_past = pick(op, 18432, kKeepOutRereadEndBytes / (18432 * es) + 1, dt);
        INFO(slug(held_past));
        CHECK(held_past.residency == 1);
        CHECK(held_past.keep_out);
        CHECK_FALSE(pick(op, 18432, kKeepOutRereadBytes / (18432 * es) - 1, dt).keep_out);
        CHECK(pick(op, 18432, kKeepOutRereadBytes / (18432 * es) + 1, dt).keep_out);
        CHECK(pick(op, 18432, kBulkRowsRmsnorm, dt).residency == 2);
        CHECK_FALSE(pick(op, 18432, kBulkRowsRmsnorm, dt).keep_out);
      }
    }
    // Rows of at most kKeepOutShortRowBytes above kKeepOutShortBytes: hidden 128 and 256 (2-D and
    // per-head), the per-head [4608, 48, 128] of target 4; not at or below it.
    for (bool rank3 : {false, true}) {
      for (std::int64_t h : {128, 256}) {
        const std::int64_t edge = kKeepOutShortBytes / (h * 2);
        INFO(h << (rank3 ? " per head" : " 2-D"));
        CHECK_FALSE(pick(op, h, edge, DType::bf16, rank3).keep_out);
        CHECK(pick(op, h, edge + 1, DType::bf16, rank3).keep_out);
      }
    }
    CHECK(pick(op, 128, 4608 * 48, DType::bf16, true).keep_out);
    CHECK_FALSE(pick(op, 64, 8192 * 32, DType::bf16, true).keep_out);  // 32 MiB
    // Rows wider than that wait for kKeepOutHeldBytes: hidden 1024 at 64 MiB (slower with the hint).
    CHECK_FALSE(pick(op, 1024, (std::int64_t(64) << 20) / 2048).keep_out);
    CHECK(pick(op, 1024, kKeepOutHeldBytes / 2048).keep_out);
  }
  // Not the fused add (its own rule, by rows), nor rows split over clusters or staged in shared
  // memory.
  CHECK_FALSE(pick(Op::fused_add_rmsnorm, 2048, 1 << 20).keep_out);
  const KernelConfig wide = pick(Op::rmsnorm, 65536, 1024);
  INFO(slug(wide));
  CHECK((wide.cluster > 1 || wide.residency > 2));
  CHECK_FALSE(wide.keep_out);
  // Re-read rows of more than 2.5 vectors a thread: not where the first pass reads with the
  // evict-last hint (16-bit 28672 and 32768 from kBulkRowsRmsnorm rows, where the output
  // outgrows kHintedWidePlainBytes); where it reads plainly (fp32 16384), without a floor. Held
  // 16-bit rows of 1537-2047 vectors on 512 threads (14336) take none: it would cost registers
  // and CTAs an SM. Re-read rows of at most 2.5 on 256, 512 and 1024 threads are declared for the
  // CTAs an SM holds.
  for (const KernelConfig& c : {pick(Op::rmsnorm, 28672, kBulkRowsRmsnorm), pick(Op::rmsnorm, 32768, kBulkRowsRmsnorm)}) {
    INFO(slug(c));
    CHECK(c.residency == 2);
    CHECK(2 * c.hidden / c.vec > 5 * c.block_threads());
    CHECK(c.loads == 3);
    CHECK_FALSE(c.keep_out);
  }
  for (const KernelConfig& c : {pick(Op::rmsnorm, 16384, 1024, DType::f32), pick(Op::rmsnorm, 16384, 2048, DType::f32)}) {
    INFO(slug(c));
    CHECK(c.residency == 2);
    CHECK(2 * c.hidden / c.vec > 5 * c.block_threads());
    CHECK(c.loads == 0);
    CHECK(c.keep_out);
    CHECK(c.min_blocks == 0);
  }
  CHECK_FALSE(pick(Op::rmsnorm, 32768, 1023).keep_out);  // 64 MiB less a row
  const KernelConfig held = pick(Op::rmsnorm, 14336, 4096), held12 = pick(Op::rmsnorm, 12288, 4096);
  INFO(slug(held) << " / " << slug(held12));
  CHECK(held.residency < 2);
  CHECK(held.block_threads() == 512);
  CHECK_FALSE(held.keep_out);
  CHECK(held12.residency < 2);
  CHECK(held12.keep_out);
  for (auto [h, rows, threads] :
       {std::tuple{4096, 8192, 256}, std::tuple{8192, 8192, 512}, std::tuple{10240, 3000, 1024}}) {
    const KernelConfig c = pick(Op::rmsnorm, h, rows, h == 10240 ? DType::f32 : DType::bf16);
    INFO(slug(c));
    CHECK(c.residency == 2);
    CHECK(c.keep_out);
    CHECK(c.block_threads() == threads);
    CHECK(c.min_blocks == 2048 / threads);
  }
  const KernelConfig t128 = pick(Op::rmsnorm, 2560, (std::int64_t(96) << 20) / 5120);
  INFO(slug(t128));
  CHECK(t128.residency == 2);
  CHECK(t128.keep_out);
  CHECK(t128.block_threads() == 128);
  CHECK(t128.min_blocks == 0);
  // Prewarm of unknown rows builds both forms.
  p.rows = 0;
  p.rank3 = false;
  p.op = Op::rmsnorm;
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 2048;
  int kept = 0, plain_many = 0;
  for (const KernelConfig& c : configs_for(p, Arch{90})) {
    if (c.keep_out) ++kept;
    else if (c.pin_weight) ++plain_many;
  }
  CHECK(kept == 1);
  CHECK(plain_many == 1);
}

TEST_CASE("kRowClasses reach every kernel any row count selects", "[config][heuristics]") {
  // Prewarm builds configs_for's kernels (one per row class, and the SM-count window's) for a
  // problem of unknown rows; a call of any row count must find its kernel among them, on a GPU of
  // any SM count. Row counts: every count up to 64, each threshold and its neighbours (the
  // window's edges for each SM count too), powers of two to 2^24.
  std::set<std::int64_t> counts;
  for (std::int64_t r = 1; r <= 64; ++r) counts.insert(r);
  for (std::int64_t t : {kFewRowsMax, kLateWeightRows, kKeepOutRows, kBulkRowsRmsnorm, kFourRowsPerThreadRows, kFourRowsPerThreadDenseRows, kOneVectorLaneRows, kOneVectorLaneDenseRows, kBulkRowsFusedAdd,
                         kBulkRowsWide, kStreamRowsFusedAdd, kPerItemStoreRows, kStridedSharedRows, kStridedSharedEndRows})
    for (std::int64_t d : {-1, 0, 1}) counts.insert(t + d);
  for (std::int64_t r = 128; r <= (1 << 24); r *= 2) counts.insert(r);
  const int sm_counts[] = {0, 78, 114, 132};
  for (int sms : sm_counts)
    for (std::int64_t t : {kWaveRowsPerSmLow * sms, kWaveRowsPerSmHigh * sms})
      for (std::int64_t d : {-1, 0, 1}) counts.insert(std::max<std::int64_t>(1, t + d));
  for (Op op : normjit::all_ops()) {
    for (std::int64_t hidden : {64, 128, 256, 2048, 4096, 5120, 8192, 16384, 32768, 65536, 262144}) {
      for (bool aliases : {false, true}) {
        for (int cc : {80, 90}) {
          for (int sms : sm_counts)
          for (bool rank3 : {false, true}) {
            if (rank3 && normjit::detail::op_info(op).residual) continue;  // per-head rows: rmsnorm only
            ProblemSpec p;
            p.op = op;
            p.hidden = hidden;
            p.rank3 = rank3;
            p.out_aliases_input = aliases;
            const std::vector<KernelConfig> classes = configs_for(p, Arch{cc});  // as prewarm --arch
            const std::vector<KernelConfig> own = configs_for(p, Arch{cc, sms});  // prewarm on the GPU
            // And the problem's own thresholds: rmsnorm's evict-last output stores by output bytes.
            std::set<std::int64_t> rows_here = counts;
            for (std::int64_t t : keep_out_row_classes(p))
              for (std::int64_t d : {-1, 0, 1}) rows_here.insert(std::max<std::int64_t>(1, t + d));
            for (std::int64_t rows : rows_here) {
              // Calls with dense rows and without (ProblemSpec::dense_rows; configs_for builds both).
              for (bool dense : {false, true}) {
                if (dense && rank3) continue;
                p.rows = rows;
                p.dense_rows = dense;
                const KernelConfig c = choose_rms_norm(p, 0, Arch{cc, sms});
                INFO(op_name(op) << " hidden " << hidden << " rows " << rows << " dense " << dense << " rank3 " << rank3 << " sm_" << cc
                                 << " with " << sms << " SMs -> " << slug(c));
                CHECK(std::find(classes.begin(), classes.end(), c) != classes.end());
                CHECK(std::find(own.begin(), own.end(), c) != own.end());
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("rmsnorm rows of 2048 vectors re-read on 4 CTAs an SM where the call is one such wave", "[config][heuristics]") {
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.hidden = 16384;
  auto pick = [&](std::int64_t rows, Arch a) {
    p.rows = rows;
    return choose_rms_norm(p, 0, a);
  };
  for (int sms : {114, 132}) {
    const Arch h{90, sms};
    for (std::int64_t rows : {2 * sms + 1, 3 * sms, 4 * sms}) {
      const KernelConfig c = pick(rows, h);
      INFO(sms << " SMs, " << rows << " rows -> " << slug(c));
      CHECK(c.threads_per_row == 512);
      CHECK(c.residency == 2);
      CHECK(c.loads == 3);
      CHECK(c.min_blocks == 4);
      CHECK(c.cluster == 1);
      CHECK(c.arch.sms == 0);  // not part of the kernel
      CHECK(c == pick(rows, h));
    }
    // Outside the window: the held rows below, the late-weight rows above.
    CHECK(pick(2 * sms, h).residency == 0);
    CHECK(pick(4 * sms + 1, h).residency != 2);
  }
  // Unknown SM count (an arch named for prewarm): the held rows. Other archs, fp32 rows (4096
  // vectors), other widths, the fused add: what they choose without an SM count.
  CHECK(pick(512, Arch{90}).residency == 0);
  CHECK(pick(512, Arch{80, 108}) == pick(512, Arch{80}));
  CHECK(pick(512, Arch{100, 148}) == pick(512, Arch{100}));
  p.dtype = p.weight_dtype = DType::f32;
  CHECK(pick(512, Arch{90, 132}) == pick(512, Arch{90}));
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 8192;
  CHECK(pick(512, Arch{90, 132}) == pick(512, Arch{90}));
  p.hidden = 16384;
  p.op = Op::fused_add_rmsnorm;
  CHECK(pick(512, Arch{90, 132}) == pick(512, Arch{90}));
  p.op = Op::gemma_rmsnorm;
  CHECK(pick(512, Arch{90, 132}).residency == 2);

  // prewarm --rows: on the GPU, the kernel its SM count picks; for a named arch, both kernels an
  // SM count may pick for those rows.
  p.op = Op::rmsnorm;
  p.rows = 512;
  auto has = [](const std::vector<KernelConfig>& v, bool window) {
    return std::any_of(v.begin(), v.end(), [&](const KernelConfig& c) { return (c.min_blocks == 4) == window; });
  };
  const std::vector<KernelConfig> named = configs_for(p, Arch{90});
  CHECK(has(named, true));
  CHECK(has(named, false));
  const std::vector<KernelConfig> on_gpu = configs_for(p, Arch{90, 132});
  CHECK(has(on_gpu, true));
  CHECK_FALSE(has(on_gpu, false));
  CHECK_FALSE(has(configs_for(p, Arch{90, 100}), true));  // 512 rows are more than 4 an SM there
  p.hidden = 8192;  // no window: one kernel (and its in-place twin) either way
  CHECK(configs_for(p, Arch{90}) == configs_for(p, Arch{90, 132}));
}

TEST_CASE("a few rows of 512-4096 vectors go over clusters of >= 4 CTAs in shares of <= 512 (<= 256) vectors", "[config][heuristics]") {
  ProblemSpec p;
  auto pick = [&](Op op, std::int64_t hidden, std::int64_t rows, int cc = 90) {
    p.op = op;
    p.hidden = hidden;
    p.rows = rows;
    return choose_rms_norm(p, 0, Arch{cc});
  };
  struct Want {
    Op op;
    std::int64_t hidden;
    int tiny_cluster, tiny_threads;  // at <= kTinyRowsMax rows (2 items a thread)
    int cluster, threads;            // at <= kFewRowsMax rows
    int many_cluster;                // just above
  };
  for (const Want& w : {Want{Op::fused_add_rmsnorm, 4096, 4, 64, 4, 64, 1}, Want{Op::fused_add_rmsnorm, 8192, 4, 128, 4, 128, 1},
                        Want{Op::fused_add_rmsnorm, 16384, 8, 128, 4, 256, 1}, Want{Op::fused_add_rmsnorm, 32768, 8, 256, 8, 256, 2},
                        Want{Op::rmsnorm, 4096, 4, 64, 4, 64, 1}, Want{Op::rmsnorm, 8192, 4, 128, 4, 128, 1},
                        Want{Op::rmsnorm, 16384, 8, 128, 4, 256, 1}, Want{Op::rmsnorm, 32768, 8, 256, 8, 256, 2},
                        Want{Op::gemma_fused_add_rmsnorm, 16384, 8, 128, 4, 256, 1},
                        Want{Op::gemma_rmsnorm, 8192, 4, 128, 4, 128, 1}}) {
    for (std::int64_t rows : {std::int64_t(1), kTinyRowsMax, kTinyRowsMax + 1, kFewRowsMax}) {
      const KernelConfig c = pick(w.op, w.hidden, rows);
      const bool tiny = rows <= kTinyRowsMax;
      INFO(slug(c));
      CHECK(c.cluster == (tiny ? w.tiny_cluster : w.cluster));
      CHECK(c.threads_per_row == (tiny ? w.tiny_threads : w.threads));
      CHECK(c.rows_per_block == 1);
      CHECK(c.split == 1);
      CHECK(c.min_blocks == 1024 / c.threads_per_row);
      CHECK(c.residency == 0);
      CHECK(c.loads == 0);
      CHECK(pick(w.op, w.hidden, rows, 80).cluster == 1);  // no clusters before sm_90
    }
    CHECK(pick(w.op, w.hidden, kFewRowsMax + 1).cluster == w.many_cluster);
  }
  // Not rows of 256 vectors (they lost in graphs), nor rows wider than 4096 vectors.
  CHECK(pick(Op::rmsnorm, 2048, 1).cluster == 1);
  CHECK(pick(Op::fused_add_rmsnorm, 2048, 1).cluster == 1);
  CHECK(pick(Op::rmsnorm, 65536, 1).cluster == 4);
  CHECK(pick(Op::fused_add_rmsnorm, 65536, 1).cluster == 4);
  // fp32 rows of 2048 have 512 vectors of 4.
  p.dtype = p.weight_dtype = DType::f32;
  CHECK(pick(Op::rmsnorm, 2048, 1).cluster == 4);
}

TEST_CASE("a few rows of hidden 8192 written out of place are shared by two CTAs (sm_80)", "[config][heuristics]") {
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.hidden = 8192;
  // sm_90+ puts these rows on a 4-CTA cluster instead (the test above).
  auto pick = [&](std::int64_t rows, bool aliased) {
    p.rows = rows;
    p.out_aliases_input = aliased;
    return choose_config(p, 0, Arch{80});
  };
  CHECK(choose_config(p, 0, Arch{90}).split == 1);
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    p.op = op;
    for (std::int64_t rows : {std::int64_t(1), kFewRowsMax}) {
      const KernelConfig c = pick(rows, false);
      CHECK(c.split == 2);
      CHECK(c.threads_per_row == 256);
      CHECK(c.rows_per_block == 1);
      CHECK(c.residency == 0);
      CHECK(slug(c).find("-s2-") != std::string::npos);
      // Written over its input: one CTA per row.
      CHECK(pick(rows, true).split == 1);
      CHECK(pick(rows, true).threads_per_row == 256);
    }
    CHECK(pick(kFewRowsMax + 1, false).split == 1);
  }
  // The fused add never shares a row (it writes over both of its inputs); nor do other widths.
  p.op = Op::fused_add_rmsnorm;
  CHECK(pick(1, true).split == 1);
  p.op = Op::rmsnorm;
  for (std::int64_t h : {2048, 4096, 16384, 32768}) {
    p.hidden = h;
    CHECK(pick(1, false).split == 1);
  }
  // An fp32 row of 4096 has 1024 vectors too.
  p.hidden = 4096;
  p.dtype = p.weight_dtype = DType::f32;
  CHECK(pick(1, false).split == 2);
  // A reshaping override drops the heuristic's split; a split override is checked.
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 8192;
  ConfigOverride o;
  o.threads_per_row = 512;
  const ScopedConfigOverride use_o(&o);
  CHECK(pick(1, false).split == 1);
  o = ConfigOverride{};
  o.split = 3;
  CHECK_THROWS_WITH(pick(1, false), Catch::Contains("split 3: expected a power of two in 1..8"));
  o.split = 8;  // 4 items per thread do not make 8 shares
  CHECK_THROWS_WITH(pick(1, false), Catch::Contains("not 8 whole shares of items"));
  o.split = 2;
  CHECK_THROWS_WITH(pick(1, true), Catch::Contains("in place"));
  p.op = Op::fused_add_rmsnorm;
  CHECK_THROWS_WITH(pick(1, true), Catch::Contains("the fused add overwrites"));
  p.op = Op::rmsnorm;
  o.cluster = 2;
  p.out_aliases_input = false;
  CHECK_THROWS_WITH(choose_config(p, 0, Arch{90}), Catch::Contains("split 2 with cluster 2"));
  // A split alone replaces the heuristic's cluster (sm_90+ puts these rows on 4 CTAs).
  o = ConfigOverride{};
  o.split = 2;
  const KernelConfig c90 = choose_config(p, 0, Arch{90});
  CHECK(c90.cluster == 1);
  CHECK(c90.split == 2);
  CHECK(c90.threads_per_row == 512);
  CHECK(c90.min_blocks == 0);
  // The GPU test's forced splits (tests/gpu: split x residency on 128 threads) at every row count.
  for (int n : {2, 4, 8}) {
    for (int residency : {0, 1, 2}) {
      o = ConfigOverride{};
      o.split = n;
      o.threads_per_row = 128;
      o.residency = residency;
      for (std::int64_t h : {8192, 16384}) {
        for (std::int64_t rows : {1, 5, 200}) {
          p.hidden = h;
          p.rows = rows;
          INFO("split " << n << " residency " << residency << " hidden " << h << " rows " << rows);
          CHECK_NOTHROW(choose_config(p, 0, Arch{90}));
        }
      }
    }
  }
}

TEST_CASE("a few rows whose caller promised a static weight load it before the PDL wait", "[config][heuristics]") {
  ProblemSpec p;
  p.hidden = 8192;
  auto pick = [&](Op op, std::int64_t rows, bool static_weight, int cc = 90) {
    p.op = op;
    p.rows = rows;
    p.static_weight = static_weight;
    return choose_config(p, 0, Arch{cc});
  };
  for (Op op : all_ops()) {
    INFO(op_name(op));
    for (std::int64_t rows : {std::int64_t(1), kFewRowsMax}) {
      const KernelConfig c = pick(op, rows, true);
      CHECK(c.weight_first);
      CHECK(c.residency == 0);
      CHECK(slug(c).find("-wf") != std::string::npos);
      // The promise changes nothing else (but the weight's prefetch, which it makes moot), and
      // nothing without it.
      KernelConfig plain = pick(op, rows, false);
      CHECK_FALSE(plain.weight_first);
      CHECK((plain.prefetch & kPrefetchWeight) != 0);  // rows of 8192 over a cluster
      CHECK((c.prefetch & kPrefetchWeight) == 0);
      plain.weight_first = true;
      plain.prefetch &= ~kPrefetchWeight;
      CHECK(plain == c);
    }
    // Many rows are bandwidth-bound; before sm_90 there is no wait to load ahead of.
    CHECK_FALSE(pick(op, kFewRowsMax + 1, true).weight_first);
    CHECK_FALSE(pick(op, 1, true, 80).weight_first);
  }
  // Only a weight held in registers: not where the heuristic re-reads or loads it late.
  p.hidden = 32768;
  CHECK(pick(Op::fused_add_rmsnorm, 1024, true).residency != 0);
  CHECK_FALSE(pick(Op::fused_add_rmsnorm, 1024, true).weight_first);
  // Overrides: forced on only with the promise and residency 0; a reshaped residency drops it.
  p.hidden = 4096;
  ConfigOverride o;
  o.weight_first = 1;
  const ScopedConfigOverride use_o(&o);
  CHECK(pick(Op::rmsnorm, 100, true).weight_first);
  CHECK_THROWS_WITH(pick(Op::rmsnorm, 1, false), Catch::Contains("did not promise a static weight"));
  CHECK_THROWS_WITH(pick(Op::rmsnorm, 1, true, 80), Catch::Contains("before sm_90"));
  o.residency = 2;
  CHECK_THROWS_WITH(pick(Op::rmsnorm, 1, true), Catch::Contains("residency 0"));
  o.weight_first = 2;
  CHECK_THROWS_WITH(pick(Op::rmsnorm, 1, true), Catch::Contains("weight_first 2: expected 0 or 1"));
  o = ConfigOverride{};
  o.residency = 1;
  CHECK_FALSE(pick(Op::rmsnorm, 1, true).weight_first);
  o = ConfigOverride{};
  o.weight_first = 0;
  CHECK_FALSE(pick(Op::rmsnorm, 1, true).weight_first);
}

TEST_CASE("from kPinWeightRows rows a held row pins its weight loads ahead of its first use", "[config][heuristics]") {
  ProblemSpec p;
  auto pick = [&](Op op, std::int64_t hidden, std::int64_t rows, int cc = 90, DType dt = DType::bf16) {
    return choose_for(p, op, hidden, rows, dt, cc);
  };
  for (Op op : all_ops()) {
    for (std::int64_t h : {1536, 2048, 3000, 4096, 8192, 16384, 32768}) {
      for (int cc : {80, 90}) {
        INFO(op_name(op) << " hidden " << h << " sm_" << cc);
        // Below the threshold never; from it exactly where it applies to a one-row CTA.
        CHECK_FALSE(pick(op, h, kPinWeightRows - 1, cc).pin_weight);
        for (std::int64_t rows : {kPinWeightRows, kLateWeightRows, std::int64_t(1) << 20}) {
          const KernelConfig c = pick(op, h, rows, cc);
          INFO(slug(c));
          const bool fused_wide = op_info(op).residual && c.hidden / c.vec > 1024;
          // Nor the bf16 fused add's rows of 2.x-4.x items on 128 threads (hidden 3000: 375 vectors).
          const bool fused_part = op_info(op).residual && c.input_dtype == DType::bf16 && h == 3000 &&
                                  c.threads_per_row == 128;
          CHECK((c.pin_weight != 0) == (c.residency == 0 && c.stores == 0 && !c.weight_first && c.cluster == 1 &&
                                        c.split == 1 && c.rows_per_block == 1 && !fused_wide && !fused_part));
          CHECK((slug(c).find("-pw") != std::string::npos) == (c.pin_weight != 0));
          // Only the first item pinned (2) for the fused add's 16-bit rows of 129-255 vectors.
          const bool first_item = op_info(op).residual && dtype_size(c.input_dtype) == 2 && h == 1536;
          if (c.pin_weight) CHECK(c.pin_weight == (first_item ? 2 : 1));
          if (c.pin_weight) {
            // It changes nothing else (but rows of 256 vectors, rmsnorm's of 512, the fused add's
            // of 257-511 and 16-bit rmsnorm's of 257-384 (hidden 3000) sit on 256 threads below
            // kPinWeightRows, on 128 from it; and rmsnorm's output hint goes by output bytes).
            KernelConfig plain = op_info(op).residual ? c : without_keep(c);
            plain.pin_weight = 0;
            KernelConfig below = pick(op, h, kPinWeightRows - 1, cc);
            below.prefetch = 0;  // decode sizes prefetch (the prefetch test below)
            const int vectors = c.hidden / c.vec;
            const bool fused_narrow = vectors > 256 && vectors < 512 && (op_info(op).residual || vectors <= 384);
            if (vectors == 256 || (vectors == 512 && !op_info(op).residual) || fused_narrow) {
              CHECK(below.threads_per_row == 256);
              CHECK(c.threads_per_row == 128);
              below.threads_per_row = c.threads_per_row;
            }
            CHECK(plain == below);
          }
        }
      }
    }
  }
  // Where the heuristic pins: rows of 256-2048 vectors held in one CTA.
  CHECK(pick(Op::rmsnorm, 2048, 2048).pin_weight);
  CHECK(pick(Op::rmsnorm, 4096, 2048).pin_weight);
  CHECK(pick(Op::fused_add_rmsnorm, 8192, 512).pin_weight);
  // The fused add's part-filled rows of 2.x-4.x items: bf16 unpinned, f16 pinned; whole items pinned.
  for (std::int64_t h : {2304, 2560, 2816, 3584, 4608, 4864}) {
    INFO("hidden " << h);
    CHECK(pick(Op::fused_add_rmsnorm, h, 1024).threads_per_row == 128);
    CHECK(pick(Op::fused_add_rmsnorm, h, 1024).pin_weight == 0);
    CHECK(pick(Op::gemma_fused_add_rmsnorm, h, 2048).pin_weight == 0);
    CHECK(pick(Op::rmsnorm, h, 1024).pin_weight != 0);
    CHECK(pick(Op::fused_add_rmsnorm, h, 1024, 90, DType::f16).pin_weight == 1);
  }
  for (std::int64_t h : {3072, 5120, 6144}) CHECK(pick(Op::fused_add_rmsnorm, h, 1024).pin_weight == 1);
  // fp32: rows of more than 512 4-vectors unpinned, of 512 (hidden 2048) pinned.
  const DType f32 = DType::f32;
  for (std::int64_t h : {2304, 3072, 3584, 4096}) CHECK(pick(Op::fused_add_rmsnorm, h, 1024, 90, f32).pin_weight == 0);
  CHECK(pick(Op::fused_add_rmsnorm, 2048, 1024, 90, f32).pin_weight == 1);
  CHECK(pick(Op::rmsnorm, 3072, 1024, 90, f32).pin_weight == 1);
  // and its rows of 1.x items (129-255 vectors) pin the first item below kLateWeightRows rows.
  for (std::int64_t h : {640, 768, 1000}) {
    CHECK(pick(Op::fused_add_rmsnorm, h, kPinWeightRows, 90, f32).pin_weight == 2);
    CHECK(pick(Op::fused_add_rmsnorm, h, kLateWeightRows - 1, 90, f32).pin_weight == 2);
    CHECK(pick(Op::fused_add_rmsnorm, h, kLateWeightRows, 90, f32).pin_weight == 1);
    CHECK(pick(Op::rmsnorm, h, kPinWeightRows, 90, f32).pin_weight != 2);
  }
  // rmsnorm's f16 rows of 896 vectors held on 128 threads (hidden 7168) unpinned, bf16 pinned.
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (std::int64_t rows : {kPinWeightRows, std::int64_t(1024), std::int64_t(8192)}) {
      INFO(op_name(op) << " rows " << rows);
      REQUIRE(pick(op, 7168, rows, 90, DType::f16).threads_per_row == 128);
      REQUIRE(pick(op, 7168, rows, 90, DType::f16).residency == 0);
      CHECK(pick(op, 7168, rows, 90, DType::f16).pin_weight == 0);
      CHECK(pick(op, 7168, rows, 90).pin_weight == 1);
    }
  }
  CHECK(pick(Op::fused_add_rmsnorm, 7168, 1024, 90, DType::f16).pin_weight != 0);
  // Not a re-read row, nor one of several rows per block (hidden 512: 4 rows of 32 threads).
  CHECK_FALSE(pick(Op::rmsnorm, 8192, 1 << 20).pin_weight);
  CHECK_FALSE(pick(Op::rmsnorm, 512, 2048).pin_weight);
  // Nor the fused add's rows of 2048 vectors (hidden 16384), held at the register limit.
  CHECK(pick(Op::fused_add_rmsnorm, 16384, 512).residency == 0);
  CHECK_FALSE(pick(Op::fused_add_rmsnorm, 16384, 512).pin_weight);
  // Overrides: on or off where it applies; forced on elsewhere is an error naming the reason.
  ConfigOverride o;
  o.pin_weight = 1;
  const ScopedConfigOverride use_o(&o);
  CHECK(pick(Op::rmsnorm, 4096, 1).pin_weight);
  o.residency = 2;
  CHECK_THROWS_WITH(pick(Op::rmsnorm, 4096, 1), Catch::Contains("residency 0, not 2"));
  o = ConfigOverride{};
  o.pin_weight = 1;
  o.stores = 1;
  CHECK_THROWS_WITH(pick(Op::fused_add_rmsnorm, 4096, 1), Catch::Contains("stores 0, not 1"));
  o = ConfigOverride{};
  o.pin_weight = 2;  // the first items only: forced on any held row
  CHECK(pick(Op::rmsnorm, 4096, 1).pin_weight == 2);
  CHECK(slug(pick(Op::rmsnorm, 4096, 1)).find("-pwf-") != std::string::npos);
  o.pin_weight = 6;
  CHECK_THROWS_WITH(pick(Op::rmsnorm, 4096, 1), Catch::Contains("pin_weight 6: expected 0-5"));
  o = ConfigOverride{};
  o.pin_weight = 0;
  CHECK_FALSE(pick(Op::rmsnorm, 4096, 2048).pin_weight);
  o = ConfigOverride{};
  o.residency = 2;  // a reshaped residency drops the heuristic's pin
  CHECK_FALSE(pick(Op::rmsnorm, 4096, 2048).pin_weight);
}

TEST_CASE("the PDL trigger is early for a few rows on sm_90+, else auto, and forced only where PDL exists",
          "[config]") {
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.hidden = 4096;
  auto pick = [&](std::int64_t rows, int cc) {
    p.rows = rows;
    return choose_config(p, 0, Arch{cc});
  };
  for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm, Op::gemma_rmsnorm})
    for (std::int64_t hidden : {128, 2048, 4096, 8192, 16384, 65536}) {
      p.op = op;
      p.hidden = hidden;
      for (std::int64_t rows : {std::int64_t(1), kTinyRowsMax, kFewRowsMax}) {
        INFO(op_name(op) << " hidden " << hidden << " rows " << rows);
        CHECK(pick(rows, 90).trigger == 1);
        CHECK(slug(pick(rows, 90)).find("-pdlearly") != std::string::npos);
        CHECK(pick(rows, 80).trigger == 0);
      }
      for (std::int64_t rows : {kFewRowsMax + 1, std::int64_t(128), std::int64_t(2048), std::int64_t(32768)}) {
        INFO(op_name(op) << " hidden " << hidden << " rows " << rows);
        CHECK(pick(rows, 90).trigger == 0);
        CHECK(slug(pick(rows, 90)).find("-pdl") == std::string::npos);
      }
    }
  p.op = Op::rmsnorm;
  p.hidden = 4096;
  ConfigOverride o;
  const ScopedConfigOverride use_o(&o);
  for (int t : {0, 1, 2}) {
    o.trigger = t;
    const KernelConfig c = pick(128, 90);
    CHECK(c.trigger == t);
    CHECK((slug(c).find(std::string("-pdl") + trigger_name(t)) != std::string::npos) == (t != 0));
    CHECK(canonical_json(c).find(std::string("\"trigger\":\"") + trigger_name(t) + "\"") != std::string::npos);
  }
  o.trigger = 3;
  CHECK_THROWS_WITH(pick(128, 90), Catch::Contains("trigger 3: expected 0 (auto), 1 (early) or 2 (end)"));
  o.trigger = 1;
  CHECK_THROWS_WITH(pick(128, 80), Catch::Contains("trigger early: programmatic dependent launch needs sm_90"));
  o.trigger = 0;  // auto is every arch's
  CHECK(pick(128, 80).trigger == 0);
}

TEST_CASE("prefetch: a mask of weight, residual and input, by name or number", "[config]") {
  CHECK(prefetch_name(0) == "none");
  CHECK(prefetch_name(kPrefetchWeight) == "weight");
  CHECK(prefetch_name(kPrefetchResidual | kPrefetchInput) == "residual+input");
  CHECK(prefetch_name(7) == "weight+residual+input");
  CHECK(prefetch_name(8) == "invalid");
  for (int m = 0; m < 8; ++m) {
    CHECK(parse_prefetch(prefetch_name(m)) == m);
    CHECK(parse_prefetch(std::to_string(m)) == m);
  }
  CHECK(parse_prefetch("input+weight") == 5);
  for (const char* bad : {"", "weights", "weight+", "+weight", "weight+weight", "none+input", "123", "w"})
    CHECK(parse_prefetch(bad) == -1);
}

TEST_CASE("prefetch is forced only where there is a PDL wait, and a residual for its bit", "[config]") {
  ProblemSpec p;
  p.hidden = 4096;
  auto pick = [&](Op op, std::int64_t rows, int cc, bool static_weight = false) {
    p.op = op;
    p.rows = rows;
    p.static_weight = static_weight;
    return choose_config(p, 0, Arch{cc});
  };
  {
    ConfigOverride o;
    const ScopedConfigOverride use_o(&o);
    for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm})
      for (int pf = 0; pf < 8; ++pf) {
        if ((pf & kPrefetchResidual) && !op_info(op).residual) continue;
        o.prefetch = pf;
        for (std::int64_t rows : {1, 128, 4096, 1 << 20}) {
          INFO(op_name(op) << " prefetch " << pf << " rows " << rows);
          const KernelConfig c = pick(op, rows, 90);
          CHECK(c.prefetch == pf);
          CHECK(canonical_json(c).find("\"prefetch\":\"" + prefetch_name(pf) + "\"") != std::string::npos);
          CHECK((slug(c).find("-pf") != std::string::npos) == (pf != 0));
        }
      }
    o.prefetch = kPrefetchResidual;
    CHECK_THROWS_WITH(pick(Op::rmsnorm, 128, 90), Catch::Contains("prefetch 2: only the fused add has a residual"));
    o.prefetch = 8;
    CHECK_THROWS_WITH(pick(Op::fused_add_rmsnorm, 128, 90),
                      Catch::Contains("prefetch 8: expected a mask of 1 (weight), 2 (residual) and 4 (input)"));
    o.prefetch = kPrefetchWeight;
    CHECK_THROWS_WITH(pick(Op::rmsnorm, 128, 80), Catch::Contains("prefetch 1: prefetches run ahead of the PDL wait"));
    // A weight loaded before the wait (static_weight's weight_first) needs no prefetch of it.
    o.prefetch = kPrefetchWeight | kPrefetchInput;
    const KernelConfig wf = pick(Op::rmsnorm, 8, 90, true);
    CHECK(wf.weight_first);
    CHECK(wf.prefetch == kPrefetchInput);
    o.prefetch = 0;
    CHECK(pick(Op::rmsnorm, 128, 80).prefetch == 0);
  }
  // The heuristic prefetches nothing on sm_80 (no PDL wait).
  for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm})
    for (std::int64_t rows : {1, 128, 32768}) CHECK(pick(op, rows, 80).prefetch == 0);
  // On sm_90, below kPinWeightRows rows of up to 16384 elements: rmsnorm its input up to
  // kFewRowsMax rows (and the weight where a cluster shares the row), its weight above; the fused
  // add its residual and input for shares of <= 4096 elements (and the weight where a cluster
  // shares the row up to kFewRowsMax). Wider rows nothing.
  struct Want {
    Op op;
    std::int64_t hidden, rows;
    int prefetch;
  };
  const int kWRX = kPrefetchWeight | kPrefetchResidual | kPrefetchInput;
  for (const Want& w : {Want{Op::rmsnorm, 2048, 1, kPrefetchInput}, Want{Op::rmsnorm, 2048, kFewRowsMax, kPrefetchInput},
                        Want{Op::rmsnorm, 4096, 8, kPrefetchWeight | kPrefetchInput},
                        Want{Op::rmsnorm, 16384, kFewRowsMax, kPrefetchWeight | kPrefetchInput},
                        Want{Op::rmsnorm, 4096, kFewRowsMax + 1, kPrefetchWeight},
                        Want{Op::rmsnorm, 16384, kPinWeightRows - 1, kPrefetchWeight},
                        Want{Op::rmsnorm, 4096, kPinWeightRows, 0}, Want{Op::rmsnorm, 128, 8, 0},
                        Want{Op::fused_add_rmsnorm, 2048, 1, kPrefetchResidual | kPrefetchInput},
                        Want{Op::fused_add_rmsnorm, 8192, 8, kWRX}, Want{Op::fused_add_rmsnorm, 16384, kFewRowsMax, kWRX},
                        Want{Op::fused_add_rmsnorm, 4096, 128, kPrefetchResidual | kPrefetchInput},
                        Want{Op::fused_add_rmsnorm, 8192, 128, 0}, Want{Op::fused_add_rmsnorm, 2048, kPinWeightRows, 0},
                        Want{Op::rmsnorm, 32768, 1, 0}, Want{Op::rmsnorm, 262144, 128, 0},
                        Want{Op::fused_add_rmsnorm, 65536, 8, 0}}) {
    p.hidden = w.hidden;
    const KernelConfig c = pick(w.op, w.rows, 90);
    INFO(op_name(w.op) << " " << w.rows << " x " << w.hidden << ": " << slug(c));
    CHECK(c.prefetch == w.prefetch);
  }
}

TEST_CASE("per-head rows of 16 and 8 vectors, strided or dense, go 8 lanes x 16 row groups, share the weight and reconvert in their windows",
          "[config][heuristics]") {
  ProblemSpec p;
  p.rank3 = true;
  auto pick = [&](std::int64_t hidden, std::int64_t rows, DType dt, int cc, Op op = Op::rmsnorm) {
    return choose_for(p, op, hidden, rows, dt, cc);
  };
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16}) {
      for (int cc : {80, 90, 100}) {
        INFO(op_name(op) << " " << dtype_name(dt) << " sm_" << cc);
        // 8 lanes x 2 rows a thread, 16 rows a pass: head_dim 128 in [kStridedSharedRows,
        // kStridedSharedEndRows), head_dim 64 from kStridedSharedRows8 on; outside, the layouts
        // of 2-D rows that are not dense.
        struct Window { std::int64_t hidden; std::vector<std::int64_t> in, out; };
        const Window windows[] = {
            {128, {kStridedSharedRows, kFourRowsPerThreadRows, kOneVectorLaneRows, kStridedSharedEndRows - 1},
             {kStridedSharedRows - 1, kStridedSharedEndRows, std::int64_t(1) << 24}},
            {64, {kStridedSharedRows8, kFourRowsPerThreadRows - 1, kFourRowsPerThreadRows, kOneVectorLaneRows,
                  kStridedSharedEndRows, std::int64_t(1) << 30},
             {1, 8192, kStridedSharedRows8 - 1}}};
        for (const Window& w : windows) {
          for (std::int64_t rows : w.in) {
            const KernelConfig c = pick(w.hidden, rows, dt, cc, op);
            INFO(w.hidden << " x " << rows << " rows: " << slug(c));
            CHECK(c.rank3);
            CHECK(c.threads_per_row == 8);
            CHECK(c.rows_per_block == 16);
            CHECK(c.rows_per_thread == 2);
            CHECK(c.reconvert);
            CHECK(c.weight_shared);
            CHECK_FALSE(c.dense);
          }
          for (std::int64_t rows : w.out) {
            KernelConfig c = pick(w.hidden, rows, dt, cc, op);
            INFO(w.hidden << " x " << rows << " rows: " << slug(c));
            CHECK_FALSE(c.weight_shared);
            CHECK_FALSE(c.reconvert);
            p.rank3 = false;
            KernelConfig flat = pick(w.hidden, rows, dt, cc, op);
            p.rank3 = true;
            flat.rank3 = true;
            CHECK(c == flat);
          }
        }
      }
    }
  }
  // Dense rows (ProblemSpec::dense_rows): the same layout, addressed from one base, rows of 16
  // two a thread in [kDenseSharedRows16, kDenseSharedEndRows16), rows of 8 four a thread in
  // [kDenseSharedRows8, kOneVectorLaneDenseRows); outside, layouts without the shared weight.
  p.rank3 = false;
  p.dense_rows = true;
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16}) {
      for (int cc : {80, 90, 100}) {
        INFO(op_name(op) << " " << dtype_name(dt) << " sm_" << cc << " dense");
        struct Window { std::int64_t hidden, from, to; int rows_per_thread; };
        for (const Window& w : {Window{128, kDenseSharedRows16, kDenseSharedEndRows16, 2},
                                Window{64, kDenseSharedRows8, kOneVectorLaneDenseRows, 4}}) {
          for (std::int64_t rows : {w.from, kFourRowsPerThreadRows - 1, kFourRowsPerThreadRows, w.to - 1}) {
            const KernelConfig c = pick(w.hidden, rows, dt, cc, op);
            INFO(w.hidden << " x " << rows << " rows: " << slug(c));
            CHECK(c.threads_per_row == 8);
            CHECK(c.rows_per_block == 16);
            CHECK(c.rows_per_thread == w.rows_per_thread);
            CHECK(c.reconvert);
            CHECK(c.weight_shared);
            CHECK(c.dense);
          }
          for (std::int64_t rows : {kBulkRowsRmsnorm, w.from - 1, w.to, std::int64_t(1) << 24}) {
            const KernelConfig c = pick(w.hidden, rows, dt, cc, op);
            INFO(w.hidden << " x " << rows << " rows: " << slug(c));
            CHECK_FALSE(c.weight_shared);
          }
        }
      }
    }
  }
  p.dense_rows = false;
  // Not fp32 rows.
  CHECK_FALSE(pick(128, kFourRowsPerThreadRows, DType::f32, 90).weight_shared);
  CHECK_FALSE(pick(64, kFourRowsPerThreadRows, DType::f32, 90).weight_shared);
}

TEST_CASE("strided per-head rows of 8 vectors go by head blocks where the call's heads are one block",
          "[config][heuristics]") {
  CHECK(std::vector<std::int64_t>(std::begin(kHeadBlockHeads), std::end(kHeadBlockHeads)) ==
        std::vector<std::int64_t>{24, 32});
  ProblemSpec p;
  p.rank3 = true;
  auto pick = [&](std::int64_t hidden, std::int64_t rows, std::int64_t heads, DType dt, int cc, Op op = Op::rmsnorm) {
    p.heads = heads;
    return choose_for(p, op, hidden, rows, dt, cc);
  };
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16}) {
      for (int cc : {80, 90, 100}) {
        for (std::int64_t rows : {kStridedSharedRows8, kFourRowsPerThreadRows, std::int64_t(1) << 24}) {
          INFO(op_name(op) << " " << dtype_name(dt) << " sm_" << cc << ", " << rows << " rows");
          const KernelConfig any = pick(64, rows, 0, dt, cc, op);
          REQUIRE(any.weight_shared);
          CHECK_FALSE(any.head_blocks);
          // 32 heads, the block's rows: the same kernel by head blocks; 24 heads, the same on 12
          // row groups a block. Not two or three blocks a token (slower where measured), nor
          // heads that were not measured.
          for (std::int64_t heads : {32, 24}) {
            KernelConfig c = pick(64, rows, heads, dt, cc, op);
            INFO(heads << " heads: " << slug(c));
            CHECK(c.head_blocks);
            CHECK(c.rows_per_cta() == heads);
            c.head_blocks = false;
            c.rows_per_block = any.rows_per_block;
            CHECK(c == any);
          }
          for (std::int64_t heads : {8, 16, 12, 48, 40, 64, 96}) CHECK_FALSE(pick(64, rows, heads, dt, cc, op).head_blocks);
        }
        // Not below the layout's window (one row a thread), nor rows of 16 vectors (head_dim
        // 128: the bounds-free kernel issued its second row's loads late there).
        CHECK_FALSE(pick(64, kStridedSharedRows8 - 1, 32, dt, cc, op).head_blocks);
        CHECK_FALSE(pick(128, kFourRowsPerThreadRows, 32, dt, cc, op).head_blocks);
      }
    }
  }
  // Not fp32 rows (rows of 16 vectors of 4), nor dense rows.
  CHECK_FALSE(pick(64, kFourRowsPerThreadRows, 32, DType::f32, 90).head_blocks);
  p.rank3 = false;
  p.dense_rows = true;
  CHECK_FALSE(pick(64, kFourRowsPerThreadRows, 32, DType::bf16, 90).head_blocks);
  p.dense_rows = false;
  // Prewarming a per-head problem whose heads are not named builds all three kernels (24 and 32
  // heads by head blocks); a problem that names other heads, only the one-dimensional grid's.
  p.rank3 = true;
  p.rows = 0;
  p.hidden = 64;
  p.heads = 0;
  auto with_blocks = [](const std::vector<KernelConfig>& v) {
    return std::count_if(v.begin(), v.end(), [](const KernelConfig& c) { return c.head_blocks; });
  };
  const std::vector<KernelConfig> any = configs_for(p, Arch{90});
  CHECK(with_blocks(any) >= 2);
  p.heads = 48;
  CHECK(with_blocks(configs_for(p, Arch{90})) == 0);
  p.heads = 32;
  const auto blocks32 = with_blocks(configs_for(p, Arch{90}));
  p.heads = 24;
  const auto blocks24 = with_blocks(configs_for(p, Arch{90}));
  CHECK(blocks32 >= 1);
  CHECK(blocks24 >= 1);
  CHECK(blocks32 + blocks24 == with_blocks(any));
  p.heads = 0;
  p.hidden = 128;
  CHECK(with_blocks(configs_for(p, Arch{90})) == 0);
}

TEST_CASE("rows of 32 vectors from kWeightSharedRows read the weight once a block",
          "[config][heuristics]") {
  ProblemSpec p;
  auto pick = [&](Op op, std::int64_t hidden, std::int64_t rows, DType dt, bool dense, int cc) {
    p.dense_rows = dense;
    return choose_for(p, op, hidden, rows, dt, cc);
  };
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16}) {
      for (int cc : {80, 90, 100}) {
        for (bool dense : {false, true}) {
          INFO(op_name(op) << " " << dtype_name(dt) << " sm_" << cc << (dense ? " dense" : ""));
          // Rows of 32 vectors: from kWeightSharedRows on, on both of their layouts (16 lanes x 2
          // rows a thread, 32 lanes from kOneVectorLaneRows); the kernel is otherwise the one below.
          // The 16 lanes, from kBulkRowsRmsnorm, convert the row again for its output and, in a
          // dense call, address it from one base.
          KernelConfig before = pick(op, 256, kWeightSharedRows - 1, dt, dense, cc);
          const KernelConfig from = pick(op, 256, kWeightSharedRows, dt, dense, cc);
          INFO(slug(from));
          CHECK_FALSE(before.weight_shared);
          CHECK(from.weight_shared);
          CHECK(weight_shared_applies(from));
          CHECK(slug(from).find("-wsh") != std::string::npos);
          before.weight_shared = true;
          CHECK(before == from);
          for (std::int64_t rows : {kBulkRowsRmsnorm, kWeightSharedRows, kOneVectorLaneRows - 1}) {
            const KernelConfig c = pick(op, 256, rows, dt, dense, cc);
            INFO(slug(c));
            CHECK(c.threads_per_row == 16);
            CHECK(c.reconvert);
            CHECK(c.dense == dense);
          }
          CHECK_FALSE(pick(op, 256, kBulkRowsRmsnorm - 1, dt, dense, cc).reconvert);
          CHECK(without_keep(pick(op, 256, kOneVectorLaneRows - 1, dt, dense, cc)) == from);
          const KernelConfig lanes = pick(op, 256, kOneVectorLaneRows, dt, dense, cc);
          INFO(slug(lanes));
          CHECK(lanes.weight_shared);
          CHECK(lanes.threads_per_row == 32);
          CHECK_FALSE(lanes.reconvert);
          CHECK_FALSE(lanes.dense);
          CHECK(pick(op, 256, 1 << 24, dt, dense, cc) == lanes);
          // Rows of 8 and 16 vectors: the per-head layouts' test above.
        }
      }
    }
  }
  // Not fp32 rows (no rows per thread there), nor the fused add.
  CHECK_FALSE(pick(Op::rmsnorm, 256, 1 << 20, DType::f32, true, 90).weight_shared);
  CHECK_FALSE(pick(Op::fused_add_rmsnorm, 256, 1 << 20, DType::bf16, true, 90).weight_shared);
}

TEST_CASE("many rmsnorm rows of 8-32 and 65-96 16-byte vectors take two or four rows per thread", "[config][heuristics]") {
  ProblemSpec p;
  // The layouts of several row counts compared, without the output hint (by output bytes).
  auto pick = [&](Op op, std::int64_t hidden, std::int64_t rows, DType dt = DType::bf16, bool rank3 = false,
                  int cc = 90) {
    p.rank3 = rank3;
    return without_keep(choose_for(p, op, hidden, rows, dt, cc));
  };
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (std::int64_t h : {128, 192, 256}) {
      for (bool rank3 : {false, true}) {
        if (rank3 && h == 128) continue;  // strided rows of 16 vectors have a window of their own (above)
        for (int cc : {80, 90, 100}) {
          INFO(op_name(op) << " hidden " << h << (rank3 ? " 3-D" : "") << " sm_" << cc);
          const KernelConfig many = pick(op, h, kFourRowsPerThreadRows, DType::bf16, rank3, cc);
          INFO(slug(many));
          // Rows of 16 vectors: four to a thread on 64-thread blocks from kFourRowsPerThreadRows,
          // two below; other rows two.
          const int per = h == 128 ? 4 : 2;
          const KernelConfig two = pick(op, h, kFourRowsPerThreadRows - 1, DType::bf16, rank3, cc);
          CHECK(two.rows_per_thread == 2);
          // The same at kBulkRowsRmsnorm but for the weight read once a block and the row
          // converted again, which rows of 32 vectors take from kWeightSharedRows (the test above).
          KernelConfig bulk = pick(op, h, kBulkRowsRmsnorm, DType::bf16, rank3, cc);
          CHECK_FALSE(bulk.weight_shared);
          CHECK(two.weight_shared == (h == 256));
          bulk.weight_shared = two.weight_shared;
          bulk.reconvert = two.reconvert;
          CHECK(bulk == two);
          CHECK(many.rows_per_thread == per);
          CHECK(many.rows_per_cta() == per * many.rows_per_block);
          CHECK(rows_per_thread_unsupported(many).empty());
          CHECK(slug(many).find(per == 4 ? "-x4-" : "-x2-") != std::string::npos);
          if (per == 4) CHECK(many.block_threads() == 64);
          // Fewer rows: the same kernel but for the rows per thread (and the block of 8 rows).
          KernelConfig fewer = pick(op, h, kBulkRowsRmsnorm - 1, DType::bf16, rank3, cc);
          CHECK(fewer.rows_per_thread == 1);
          fewer.rows_per_thread = per;
          if (per == 4) fewer.rows_per_block = 8;
          fewer.weight_shared = many.weight_shared;
          fewer.reconvert = many.reconvert;
          CHECK(fewer == many);
          // From kOneVectorLaneRows rows of 16 or 32 vectors: one vector a lane, four rows a thread
          // on 64-thread blocks (16 lanes) or two on 128-thread blocks (32 lanes).
          const KernelConfig lanes = pick(op, h, kOneVectorLaneRows, DType::bf16, rank3, cc);
          INFO(slug(lanes));
          CHECK(pick(op, h, kOneVectorLaneRows - 1, DType::bf16, rank3, cc) == many);
          if (h == 192) {
            CHECK(lanes == many);
          } else {
            CHECK(lanes.threads_per_row == h / 8);
            CHECK(lanes.rows_per_thread == (h == 128 ? 4 : 2));
            CHECK(lanes.block_threads() == (h == 128 ? 64 : 128));
            CHECK(rows_per_thread_unsupported(lanes).empty());
            CHECK(pick(op, h, 1 << 24, DType::bf16, rank3, cc) == lanes);
          }
        }
      }
    }
  }
  // Rows of 8 vectors that are not dense: four to a thread on 8 lanes (one vector each) in
  // 64-thread blocks from kFourRowsPerThreadRows, one below (strided per-head rows have a layout
  // of their own there: the test above).
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (bool rank3 : {false, true}) {
      for (int cc : {80, 90, 100}) {
        INFO(op_name(op) << " hidden 64" << (rank3 ? " 3-D" : "") << " sm_" << cc);
        if (!rank3) {
          const KernelConfig four = pick(op, 64, kFourRowsPerThreadRows, DType::bf16, rank3, cc);
          INFO(slug(four));
          CHECK(four.rows_per_thread == 4);
          CHECK(four.threads_per_row == 8);
          CHECK(four.block_threads() == 64);
          CHECK(four.rows_per_cta() == 32);
          CHECK(rows_per_thread_unsupported(four).empty());
          CHECK_FALSE(four.weight_shared);
          CHECK_FALSE(four.reconvert);
          CHECK(pick(op, 64, 1 << 20, DType::bf16, rank3, cc) == four);
        }
        const KernelConfig fewer =
            pick(op, 64, (rank3 ? kStridedSharedRows8 : kFourRowsPerThreadRows) - 1, DType::bf16, rank3, cc);
        CHECK(fewer.rows_per_thread == 1);
        CHECK(fewer.threads_per_row == 4);
      }
    }
  }
  // Dense calls (ProblemSpec::dense_rows): rows of 16 vectors eight to a thread on 16 lanes x 4
  // rows, converted again for their output and addressed from one base, from
  // kFourRowsPerThreadRows until kOneVectorLaneDenseRows; rows of 8 four to a thread from
  // kFourRowsPerThreadDenseRows, eight from kFourRowsPerThreadRows. Elsewhere a dense call runs
  // what any other would.
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16}) {
      for (int cc : {80, 90, 100}) {
        INFO(op_name(op) << " " << dtype_name(dt) << " sm_" << cc);
        auto dense = [&](std::int64_t hidden, std::int64_t rows) {
          p.dense_rows = true;
          const KernelConfig c = pick(op, hidden, rows, dt, false, cc);
          p.dense_rows = false;
          return c;
        };
        auto other = [&](std::int64_t hidden, std::int64_t rows) { return pick(op, hidden, rows, dt, false, cc); };
        // (Rows of 16 from kDenseSharedEndRows16, rows of 8 from kOneVectorLaneDenseRows: past the
        // windows of the per-head layouts with the shared weight, tested above.)
        const KernelConfig eight = dense(128, kDenseSharedEndRows16);
        INFO(slug(eight));
        CHECK(eight.rows_per_thread == 8);
        CHECK(eight.threads_per_row == 16);
        CHECK(eight.rows_per_block == 4);
        CHECK(eight.reconvert);
        CHECK(eight.dense);
        CHECK(rows_per_thread_unsupported(eight).empty());
        CHECK(dense(128, kOneVectorLaneRows) == eight);
        CHECK(dense(128, kOneVectorLaneDenseRows - 1) == eight);
        CHECK(other(128, kFourRowsPerThreadRows).rows_per_thread == 4);
        CHECK_FALSE(other(128, kFourRowsPerThreadRows).dense);
        CHECK(dense(128, kDenseSharedRows16 - 1) == other(128, kDenseSharedRows16 - 1));
        CHECK(dense(128, kOneVectorLaneDenseRows) == other(128, kOneVectorLaneDenseRows));
        CHECK(dense(256, kOneVectorLaneRows) == other(256, kOneVectorLaneRows));
        const KernelConfig eight64 = dense(64, kOneVectorLaneDenseRows);
        INFO(slug(eight64));
        CHECK(eight64.rows_per_thread == 8);
        CHECK(eight64.threads_per_row == 8);
        CHECK(eight64.reconvert);
        CHECK(eight64.dense);
        CHECK(rows_per_thread_unsupported(eight64).empty());
        CHECK(dense(64, 1 << 24) == eight64);
        CHECK(other(64, kFourRowsPerThreadRows).rows_per_thread == 4);
        // ... and four, addressed from one base, from kFourRowsPerThreadDenseRows.
        const KernelConfig four64 = dense(64, kFourRowsPerThreadDenseRows);
        INFO(slug(four64));
        CHECK(four64.rows_per_thread == 4);
        CHECK(four64.threads_per_row == 8);
        CHECK(four64.dense);
        CHECK_FALSE(four64.reconvert);
        CHECK(rows_per_thread_unsupported(four64).empty());
        CHECK(dense(64, kDenseSharedRows8 - 1) == four64);
        CHECK(other(64, kFourRowsPerThreadRows - 1).rows_per_thread == 1);
        CHECK(dense(64, kFourRowsPerThreadDenseRows - 1) == other(64, kFourRowsPerThreadDenseRows - 1));
      }
    }
  }
  CHECK(pick(Op::rmsnorm, 64, 1 << 20, DType::f32).rows_per_thread == 1);  // 16 4-byte vectors
  // Not for rows of 64 vectors, the fused add, fp32 rows, or narrow vectors.
  CHECK(pick(Op::rmsnorm, 512, 1 << 20).rows_per_thread == 1);
  CHECK(pick(Op::fused_add_rmsnorm, 128, 1 << 20).rows_per_thread == 1);
  CHECK(pick(Op::rmsnorm, 128, 1 << 20, DType::f32).rows_per_thread == 1);
  pick(Op::rmsnorm, 128, 1 << 20);
  CHECK(choose_config(p, /*max_vec=*/2, Arch{90}).rows_per_thread == 1);  // 64 4-byte vectors

  // 16-bit rows of 65-96 vectors (hidden 520-768) from kBulkRowsRmsnorm rows: 32 lanes x 4 rows
  // a block, two rows a thread, where 64 threads x 2 rows held them below.
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
    for (DType dt : {DType::bf16, DType::f16}) {
      for (std::int64_t h : {520, 576, 640, 768}) {
        for (int cc : {80, 90, 100}) {
          INFO(op_name(op) << " " << dtype_name(dt) << " hidden " << h << " sm_" << cc);
          const KernelConfig two = pick(op, h, kBulkRowsRmsnorm, dt, false, cc);
          INFO(slug(two));
          CHECK(two.threads_per_row == 32);
          CHECK(two.rows_per_block == 4);
          CHECK(two.rows_per_thread == 2);
          CHECK(two.residency == 0);
          CHECK(rows_per_thread_unsupported(two).empty());
          CHECK(pick(op, h, 1 << 24, dt, false, cc) == two);
          const KernelConfig below = pick(op, h, kBulkRowsRmsnorm - 1, dt, false, cc);
          CHECK(below.threads_per_row == 64);
          CHECK(below.rows_per_block == 2);
          CHECK(below.rows_per_thread == 1);
        }
      }
    }
  }
  // Not rows of 64 or 97+ vectors, the fused add, or fp32 rows.
  for (std::int64_t h : {512, 776, 896}) CHECK(pick(Op::rmsnorm, h, 1 << 20).rows_per_thread == 1);
  CHECK(pick(Op::fused_add_rmsnorm, 768, 1 << 20).rows_per_thread == 1);
  CHECK(pick(Op::rmsnorm, 768, 1 << 20, DType::f32).rows_per_thread == 1);

  // Overrides: forced on where it applies; elsewhere an error naming the reason; a reshape that
  // no longer fits drops the heuristic's.
  {
    ConfigOverride o;
    const ScopedConfigOverride use_o(&o);
    o.rows_per_thread = 2;
    CHECK(pick(Op::rmsnorm, 128, 1).rows_per_thread == 2);
    CHECK(pick(Op::rmsnorm, 64, 1 << 20).rows_per_thread == 2);
    CHECK_THROWS_WITH(pick(Op::rmsnorm, 4096, 1 << 20), Catch::Contains("rows_per_thread 2: a row's threads"));
    CHECK_THROWS_WITH(pick(Op::fused_add_rmsnorm, 128, 1), Catch::Contains("the fused add keeps one row"));
    o.residency = 1;
    CHECK_THROWS_WITH(pick(Op::rmsnorm, 128, 1), Catch::Contains("residency 0), not residency 1"));
    o = ConfigOverride{};
    o.rows_per_thread = 3;
    CHECK_THROWS_WITH(pick(Op::rmsnorm, 128, 1), Catch::Contains("rows_per_thread 3: expected 1, 2, 4 or 8"));
    o = ConfigOverride{};
    o.rows_per_thread = 1;
    CHECK(pick(Op::rmsnorm, 128, 1 << 20).rows_per_thread == 1);
    o = ConfigOverride{};
    o.threads_per_row = 64;
    o.rows_per_block = 2;
    CHECK(pick(Op::rmsnorm, 256, 1 << 20).rows_per_thread == 1);
  }

  // The grid: one block per rows_per_cta rows, the last one partly filled.
  KernelConfig c = pick(Op::rmsnorm, 128, kFourRowsPerThreadRows);
  REQUIRE(c.rows_per_cta() == 32);
  NormParams np{};
  np.rows = 1000;
  LaunchArgs la;
  prepare_launch(c, np, /*pdl=*/true, 132, nullptr, &la);
  CHECK(la.config.gridDimX == 32);  // ceil(1000 / 32)
  CHECK(la.config.blockDimX == unsigned(c.block_threads()));
}

TEST_CASE("rows of 256 vectors take one vector per thread below kPinWeightRows rows", "[config][heuristics]") {
  ProblemSpec p;
  p.hidden = 2048;
  auto pick = [&](Op op, std::int64_t rows, int cc = 90) {
    p.op = op;
    p.rows = rows;
    return choose_config(p, 0, Arch{cc});
  };
  for (int cc : {80, 90}) {
    for (Op op : all_ops()) {
      INFO(op_name(op) << " sm_" << cc);
      for (std::int64_t rows : {std::int64_t(1), kFewRowsMax, kPinWeightRows - 1}) {
        CHECK(pick(op, rows, cc).threads_per_row == 256);
        CHECK(pick(op, rows, cc).residency == 0);
      }
      CHECK(pick(op, kPinWeightRows, cc).threads_per_row == 128);
    }
  }
  // Shares of 256 vectors on a cluster keep their thread count (hidden 8192 over 4 CTAs).
  p.hidden = 8192;
  const KernelConfig c = pick(Op::fused_add_rmsnorm, 1);
  REQUIRE(c.cluster == 4);
  CHECK(c.threads_per_row == 128);
}

TEST_CASE("cluster CTAs of up to 512 threads are bounded to 64 registers", "[config][heuristics]") {
  ProblemSpec p;
  for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm}) {
    p.op = op;
    for (DType dt : {DType::bf16, DType::f32}) {
      p.dtype = p.weight_dtype = dt;
      for (std::int64_t rows : {std::int64_t(1), kBulkRowsWide}) {
        p.rows = rows;
        for (std::int64_t h : {24576, 32768, 65536, 131072, 262144}) {
          p.hidden = h;
          const KernelConfig c = choose_rms_norm(p, 0, Arch{90});
          INFO(slug(c));
          if (c.cluster == 1) continue;  // many rows of 32768 take one CTA
          // Held or staged shares: 1024 threads an SM, or as many CTAs as shared memory holds
          // where that is fewer; re-read shares hold no row and take no floor, nor do the staged
          // shares of 512 threads (measured so, heuristics.cpp).
          const int floor = c.block_threads() <= 512 ? 1024 / c.block_threads() : 0;
          const int smem = staged_ctas_per_sm(c);
          const bool none = c.residency == 2 || (c.residency == 3 && c.threads_per_row == 512);
          CHECK(c.min_blocks == (none ? 0 : smem > 0 ? std::min(floor, smem) : floor));
          CHECK(staged_ctas_per_sm(c) == (staged(c) ? int(228 * 1024 / (staged_smem_bytes(c) + 3072)) : 0));
        }
      }
    }
  }
  p.op = Op::rmsnorm;
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 16384;  // one CTA per row (more than a few rows): no floor
  p.rows = kFewRowsMax + 1;
  CHECK(choose_rms_norm(p, 0, Arch{90}).min_blocks == 0);
}

TEST_CASE("rows of a vector count that is not a power of two: fewer threads holding the row, or 2 CTAs declared", "[config][heuristics]") {
  ProblemSpec p;
  for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm, Op::fused_add_rmsnorm, Op::gemma_fused_add_rmsnorm}) {
    p.op = op;
    const bool fused = op_info(op).residual;
    for (DType dt : {DType::bf16, DType::f16, DType::f32}) {
      p.dtype = p.weight_dtype = dt;
      for (std::int64_t h : {1152, 1536, 1920, 2048, 2304, 2560, 2816, 3072, 3328, 3584, 4096, 4608, 5120, 5376, 6144,
                             6656, 7168, 8192, 9216, 10240, 12288, 14336, 16384}) {
        p.hidden = h;
        for (std::int64_t rows : {kFewRowsMax + 1, kPinWeightRows - 1, kPinWeightRows, kHintedWideRows - 1, kKeepOutRows,
                                  kBulkRowsRmsnorm - 1, kBulkRowsRmsnorm, kRereadNpotRows - 1, kRereadNpotRows,
                                  std::int64_t(1) << 20}) {
          p.rows = rows;
          const KernelConfig c = choose_config(p, 0, Arch{90});
          INFO(slug(c));
          const std::int64_t v = c.hidden / c.vec;
          const bool npot = (v & (v - 1)) != 0;
          const bool fp32 = dtype_size(dt) == 4;
          const bool pinned = rows >= kPinWeightRows;
          // From kPinWeightRows rows: 513-1023 vectors (the fused add up to 768) and the fused
          // add's (and fp32 rmsnorm's) 257-511 on 128 threads; rmsnorm's 1025-1280 on 256; all
          // holding the row.
          // rmsnorm's 896-1280 vectors re-read on 512 threads from kRereadNpotRows rows instead.
          const bool npot_reread = npot && !fused && v >= 896 && v <= 1280 && rows >= kRereadNpotRows;
          // 16-bit rmsnorm's 257-511 vectors: from kRereadNpotRows re-read on 128 threads (fewer
          // than 384 vectors) or on 256 declared for 8 CTAs an SM; from kBulkRowsRmsnorm rows 64
          // threads x 2 rows held (short_bulk below); below that, up to 384 vectors on 128 threads.
          const bool short_reread = npot && !fused && !fp32 && v > 256 && v < 512 && rows >= kRereadNpotRows;
          const bool short_bulk = npot && !fused && !fp32 && v > 256 && v < 512 && rows >= kBulkRowsRmsnorm &&
                                  !short_reread;
          const bool t128 = npot && pinned && !npot_reread &&
                            ((v > 512 && v < 1024 && (!fused || v <= 768)) || ((fused || fp32) && v > 256 && v < 512) ||
                             (!fused && !fp32 && v > 256 && v <= 384 && rows < kBulkRowsRmsnorm));
          const bool t256 = npot && pinned && !npot_reread && !fused && v > 1024 && v <= 1280;
          // rmsnorm's 1281-2047 vectors re-read on 512 threads, but from kHintedWideRows to
          // kBulkRowsRmsnorm rows held with the weight late (fp32 only there).
          const bool late = rows >= kHintedWideRows && rows < kBulkRowsRmsnorm;
          const bool reread = npot && pinned && !fused && v > 1280 && v < 2048 && (!fp32 || late);
          // The fused add's 1025-2047 vectors held on 512 threads, declared for 2 CTAs an SM.
          const bool wide_held = npot && pinned && fused && v > 1024 && v < 2048;
          // The fused add's other 16-bit rows of 513-1023 vectors stay on 512 threads, 2 CTAs an SM.
          const bool declared = fused && dtype_size(dt) == 2 && v > 512 && v < 1024 && !t128;
          // A re-read row's kernel with rmsnorm's output hint on 256 or more threads is declared for
          // the CTAs an SM holds (2048 threads) where no floor of its own is set.
          auto floor_of = [&](int own) {
            return c.keep_out && c.residency == 2 && own == 0 && c.block_threads() >= 256 ? 2048 / c.block_threads() : own;
          };
          if (t128 || t256) {
            CHECK(c.threads_per_row == (t128 ? 128 : 256));
            CHECK(c.rows_per_block == 1);
            CHECK(c.residency == 0);
            CHECK(c.loads == 0);
            CHECK(c.stores == 0);
            CHECK(c.min_blocks == 0);
            // pinned but the bf16 fused add's part-filled 2.x-4.x items on 128 threads, the fp32
            // fused add's rows of more than 512 vectors and rmsnorm's f16 rows of 896 vectors
            const bool unpinned = fused ? (dt == DType::bf16 && v > 256 && v < 640 && v % 128 != 0) ||
                                              (dt == DType::f32 && v > 512)
                                        : dt == DType::f16 && v == 896;
            CHECK((c.pin_weight != 0) == !unpinned);
          } else if (npot_reread) {
            CHECK(c.threads_per_row == 512);
            CHECK(c.rows_per_block == 1);
            CHECK(c.residency == 2);
            CHECK(c.loads == 3);
            CHECK(c.min_blocks == floor_of(0));
            CHECK_FALSE(c.pin_weight);
          } else if (short_reread) {
            CHECK(c.threads_per_row == (v < 384 ? 128 : 256));
            CHECK(c.rows_per_block == 1);
            CHECK(c.residency == 2);
            CHECK(c.loads == 3);
            CHECK(c.min_blocks == floor_of(v < 384 ? 0 : 8));
            CHECK_FALSE(c.pin_weight);
          } else if (reread) {
            CHECK(c.threads_per_row == 512);
            CHECK(c.residency == (late ? 1 : 2));
            CHECK(c.loads == (late ? 0 : 3));
            // declared for 4 CTAs an SM where a thread re-reads more than 3 items
            CHECK(c.min_blocks == (late ? 0 : floor_of(v > 1536 ? 4 : 0)));
            CHECK_FALSE(c.pin_weight);
          } else if (wide_held) {
            CHECK(c.threads_per_row == 512);
            CHECK(c.residency == 0);
            CHECK(c.loads == 0);
            CHECK(c.min_blocks == 2);
            CHECK_FALSE(c.pin_weight);
          } else if (short_bulk) {
            CHECK(c.threads_per_row == 64);
            CHECK(c.rows_per_block == 2);
            CHECK(c.residency == 0);
            CHECK(c.min_blocks == 0);
          } else if (declared) {
            CHECK(c.threads_per_row == 512);
            CHECK(c.residency == 0);
            CHECK(c.min_blocks == 2);
          } else if (c.cluster == 1) {
            // 1024-thread re-read rows under the hint: 2; so are rmsnorm's 16-bit rows of 2048
            // vectors from kWideRereadTwoCtaRows (their own test).
            const bool two_ctas = op == Op::rmsnorm && !fp32 && v == 2048 && rows >= kWideRereadTwoCtaRows;
            if (floor_of(0) != 2 && !two_ctas) CHECK(c.min_blocks != 2);
          }
          // Per-item residual stores only on rows of a power-of-two vector count.
          if (c.stores == 1) CHECK_FALSE(npot);
        }
      }
    }
  }
}

TEST_CASE("hidden sizes outside 1..262144 are Unsupported", "[config][heuristics]") {
  for (Op op : all_ops()) {
    for (std::int64_t h : {std::int64_t(0), std::int64_t(262145), std::int64_t(-1),
                           std::int64_t(1) << 40}) {
      ProblemSpec p;
      p.op = op;
      p.hidden = h;
      INFO(op_name(op) << " hidden " << h);
      try {
        op_info(op).choose(p, 0, Arch{90});
        FAIL("no exception");
      } catch (const ValidationError& e) {
        CHECK(e.kind() == ValidationError::Kind::Unsupported);
        CHECK_THAT(e.what(), Catch::Contains(std::to_string(h)));
        CHECK_THAT(e.what(), Catch::Contains(std::string(op_name(op))));
      }
    }
  }
}

TEST_CASE("Arch::parse accepts the documented spellings", "[config][arch]") {
  for (const char* s : {"sm_90", "sm_90a", "90", "9.0", "compute_90"}) {
    INFO(s);
    const Arch a = Arch::parse(s);
    CHECK(a.cc == 90);
    CHECK(a.target() == "sm_90a");
  }
  CHECK(Arch::parse("sm_100").cc == 100);
  CHECK(Arch::parse("sm_100").target() == "sm_100a");
  CHECK(Arch::parse("sm_100a").target() == "sm_100a");
  CHECK(Arch::parse("10.0").target() == "sm_100a");
  CHECK(Arch::parse("sm_80").cc == 80);
  CHECK(Arch::parse("sm_80").target() == "sm_80");
  CHECK(Arch::parse("8.0").target() == "sm_80");
  CHECK(Arch::parse("sm_86").cc == 86);
  CHECK(Arch::parse("sm_86").target() == "sm_86");
  CHECK(Arch::parse("sm_120").target() == "sm_120");
}

TEST_CASE("Arch::parse rejects old and malformed architectures", "[config][arch]") {
  for (const char* s : {"sm_75", "", "foo", "7.5", "sm_", "sm_9", "9.", "9.0.1", "sm_90b"}) {
    INFO("'" << s << "'");
    try {
      Arch::parse(s);
      FAIL("accepted");
    } catch (const ValidationError& e) {
      CHECK(e.kind() == ValidationError::Kind::InvalidArgument);
      CHECK_THAT(e.what(), Catch::Contains("'" + std::string(s) + "'"));
    }
  }
}

TEST_CASE("Arch::parse rejects out-of-range numbers with ValidationError", "[config][arch]") {
  // Documented: "throws ValidationError otherwise" -- also for numbers too large for an int,
  // which the CLI would otherwise report as a bare "stoi" error.
  for (const char* s : {"sm_99999999999", "99999999999", "99999999999.0", "compute_123456789012"}) {
    INFO("'" << s << "'");
    try {
      Arch::parse(s);
      FAIL("accepted");
    } catch (const ValidationError& e) {
      CHECK(e.kind() == ValidationError::Kind::InvalidArgument);
      CHECK_THAT(e.what(), Catch::Contains(s));
    } catch (const std::exception& e) {
      FAIL("threw " << typeid(e).name() << " instead of ValidationError: " << e.what());
    }
  }
}

TEST_CASE("config overrides are validated (clusters, load policy, occupancy floor, store order, staged rows)", "[config]") {
  ProblemSpec p;
  p.op = Op::fused_add_rmsnorm;
  p.dtype = DType::bf16;
  p.weight_dtype = DType::bf16;
  p.hidden = 16384;
  auto choose_with = [&](const ConfigOverride& o, int cc) { return choose_with_override(o, p, Arch{cc}); };
  auto rejects = [&](const ConfigOverride& o, int cc, const char* what) {
    INFO(what);
    try {
      choose_with(o, cc);
      FAIL("accepted");
    } catch (const ValidationError& e) {
      CHECK(e.kind() == ValidationError::Kind::Unsupported);
      CHECK_THAT(e.what(), Catch::Contains(what));
    }
  };
  ConfigOverride o;
  o.cluster = 4;
  const KernelConfig c = choose_with(o, 90);
  CHECK(c.cluster == 4);
  CHECK(c.rows_per_block == 1);
  CHECK(c.threads_per_row == threads_for(16384 / 4 / 8));
  CHECK(slug(c).find("-c4-") != std::string::npos);
  // The occupancy floor follows the overridden shape: the heuristic's floor is for its own CTA
  // size and kept as is could exceed an SM with the override's larger CTAs (found on the H200).
  CHECK(c.min_blocks == choose_min_blocks(c));
  CHECK(c.min_blocks * c.block_threads() <= 1024);
  o.cluster = 2;
  CHECK(choose_with(o, 90).min_blocks * choose_with(o, 90).block_threads() <= 1024);
  o.cluster = 1;
  CHECK(choose_with(o, 90).min_blocks == 0);
  o.cluster = 4;
  rejects(o, 80, "need sm_90 or newer");
  o.cluster = 3;
  rejects(o, 90, "power of two");
  o.cluster = 32;
  rejects(o, 90, "power of two in 1..16");
  o.cluster = 16;  // non-portable: taken when forced (the kernel opts in at load)
  CHECK(choose_with(o, 90).cluster == 16);
  CHECK(slug(choose_with(o, 90)).find("-c16-") != std::string::npos);
  o.cluster = 8;
  p.hidden = 8200;  // 1025 vectors: not a whole number per CTA
  rejects(o, 90, "does not split");
  p.hidden = 16384;
  // Several rows a block over a cluster: each CTA a column share of each of its cluster's rows.
  o.rows_per_block = 2;
  CHECK(choose_with(o, 90).rows_per_block == 2);
  CHECK(choose_with(o, 90).cluster == 8);
  CHECK(choose_with(o, 90).grid_blocks(5) == 3 * 8);
  ConfigOverride l;
  l.loads = 4;
  rejects(l, 90, "loads 4");
  ConfigOverride m;
  p.rows = kStreamRowsFusedAdd;  // many rows of 2048 vectors: 1024-thread CTAs
  m.min_blocks = 4;              // 4 x 1024 threads
  rejects(m, 90, "exceed the 2048 threads");
  m.min_blocks = 2;
  CHECK(choose_with(m, 90).min_blocks == 2);
  rejects(m, 89, "exceed the 1536 threads");
  ConfigOverride st;
  st.stores = 1;
  st.residency = 1;  // held (the default re-reads these rows, which store in their second pass)
  CHECK(choose_with(st, 90).stores == 1);
  CHECK(slug(choose_with(st, 90)).find("-stitem") != std::string::npos);
  st.stores = 2;
  rejects(st, 90, "stores 2");
  st.stores = 1;
  p.op = Op::rmsnorm;
  rejects(st, 90, "only the fused add");
  p.op = Op::fused_add_rmsnorm;
  // Rows staged in shared memory: sized, and refused where the bulk copies cannot work.
  ConfigOverride sm;
  sm.residency = 3;
  sm.threads_per_row = 256;
  const KernelConfig staged = choose_with(sm, 90);
  CHECK(staged.residency == 3);
  CHECK(staged.stores == 0);  // written in the second pass
  CHECK(staged_smem_bytes(staged) == 2 * 16384 * 2);  // x and r
  CHECK(slug(staged).find("-smem") != std::string::npos);
  CHECK(staged_unsupported(staged).empty());
  // No store order for rows written in the second pass (it would only duplicate the kernel).
  sm.stores = 1;
  rejects(sm, 90, "writes its residual in the second pass");
  sm.residency = 2;
  rejects(sm, 90, "(residency 2) writes its residual");
  sm.residency = 3;
  sm.stores = -1;
  rejects(sm, 80, "need sm_90 or newer");
  sm.loads = 3;
  rejects(sm, 90, "copies take 0 (plain) or 1");
  sm.loads = -1;
  sm.vec = 4;
  rejects(sm, 90, "needs 16-byte vectors");
  sm.vec = 0;
  sm.threads_per_row = 1024;  // 2048 vectors: 2 items on 1024 threads, 1.5 at hidden 12288
  p.hidden = 12288;           // part-filled last items stage too
  CHECK(staged_smem_bytes(choose_with(sm, 90)) == 12288 * 2 * 2);
  p.hidden = 12296;  // 1537 vectors: no whole vectors a CTA of 2
  sm.cluster = 2;
  rejects(sm, 90, "does not split into whole");
  sm.cluster = 0;
  p.hidden = 65536;  // 256 KiB of x and r in one CTA
  sm.cluster = 1;
  rejects(sm, 90, "bytes of shared memory");
  sm.cluster = 2;
  CHECK(staged_smem_bytes(choose_with(sm, 90)) == 131072);
  // Each thread's own copies (residency 4): the same shares and limits, on sm_80 too.
  sm.residency = 4;
  const KernelConfig lanes = choose_with(sm, 90);
  CHECK(lanes.residency == 4);
  CHECK(staged_smem_bytes(lanes) == 131072);
  CHECK(slug(lanes).find("-smeml") != std::string::npos);
  ConfigOverride bulk = sm;
  bulk.residency = 3;
  CHECK_FALSE(cache_key(lanes) == cache_key(choose_with(bulk, 90)));
  sm.cluster = 1;
  rejects(sm, 90, "residency 4: 262144 bytes of shared memory");
  p.hidden = 16384;
  CHECK(choose_with(sm, 80).residency == 4);
  sm.stores = 1;
  rejects(sm, 90, "(residency 4) writes its residual");
  sm.stores = -1;
  sm.residency = 5;
  rejects(sm, 90, "residency 5: expected 0 (row+weight), 1 (row), 2 (reload), 3 (smem) or 4 (smem_lanes)");
  // A held 16-bit row converted again for its output: rmsnorm and gemma rows in registers only.
  ConfigOverride rc;
  rc.reconvert = 1;
  rc.residency = 0;
  p.hidden = 4096;
  rejects(rc, 90, "reconvert 1 needs a 16-bit row held in registers");  // the fused add
  p.op = Op::gemma_rmsnorm;
  for (int res : {0, 1}) {
    rc.residency = res;
    const KernelConfig again = choose_with(rc, 80);
    CHECK(again.reconvert);
    CHECK(slug(again).find("-rc") != std::string::npos);
    rc.reconvert = 0;
    CHECK_FALSE(cache_key(again) == cache_key(choose_with(rc, 80)));
    rc.reconvert = 1;
  }
  rc.residency = 2;
  rejects(rc, 90, "residency 0 or 1, not 2");
  rc.residency = 0;
  p.dtype = p.weight_dtype = DType::f32;
  rejects(rc, 90, "input f32");
  rc.reconvert = 2;
  rejects(rc, 90, "reconvert 2: expected 0 or 1");
  // Not asked for, it is dropped where it does not apply.
  p.dtype = p.weight_dtype = DType::bf16;
  ConfigOverride reread;
  reread.residency = 2;
  CHECK_FALSE(choose_with(reread, 90).reconvert);
  // Rows addressed from one base (dense): several rows a thread of a call whose rows are dense.
  p.op = Op::rmsnorm;
  p.hidden = 128;
  p.rows = 1 << 20;
  // Several rows a thread held with their weight: `per` a thread on `tpr` lanes, `rpb` row groups
  // (0: the heuristic's).
  auto rows_layout = [](int per, int tpr, int rpb) {
    ConfigOverride o;
    o.rows_per_thread = per;
    o.threads_per_row = tpr;
    o.rows_per_block = rpb;
    o.residency = 0;
    return o;
  };
  ConfigOverride dn = rows_layout(8, 16, 0);
  dn.dense = 1;
  rejects(dn, 90, "dense 1 needs a call whose rows are hidden elements apart");  // p.dense_rows false
  p.dense_rows = true;
  const KernelConfig dense = choose_with(dn, 90);
  CHECK(dense.dense);
  CHECK(slug(dense).find("-dn") != std::string::npos);
  dn.dense = 0;
  CHECK_FALSE(cache_key(dense) == cache_key(choose_with(dn, 90)));
  dn.dense = 1;
  dn.rows_per_thread = 1;
  rejects(dn, 90, "dense 1 needs several rows a thread (rows_per_thread 1)");
  p.rank3 = true;
  dn.rows_per_thread = 2;
  rejects(dn, 90, "of 2-D rows (rank3 true)");
  p.rank3 = false;
  dn.dense = 3;
  rejects(dn, 90, "dense 3: expected 0 or 1");
  // Not asked for, it is dropped where the call is not dense.
  dn.dense = -1;
  CHECK_FALSE(choose_with(dn, 90).dense);
  p.dense_rows = false;
  // The weight read once a block (weight_shared): several rows a thread on several row groups.
  ConfigOverride wsh = rows_layout(4, 8, 8);
  wsh.weight_shared = 1;
  // A 0/1 flag forced on where it applies: set, tagged in the slug, on any arch, part of the key.
  auto forced_on = [&](ConfigOverride o, int ConfigOverride::*forced, bool KernelConfig::*field, const char* tag) {
    INFO(tag);
    const KernelConfig on = choose_with(o, 90);
    CHECK(on.*field);
    CHECK(slug(on).find(tag) != std::string::npos);
    CHECK(choose_with(o, 80).*field);
    o.*forced = 0;
    CHECK_FALSE(cache_key(on) == cache_key(choose_with(o, 90)));
  };
  forced_on(wsh, &ConfigOverride::weight_shared, &KernelConfig::weight_shared, "-wsh");
  wsh.rows_per_block = 1;
  wsh.threads_per_row = 32;
  rejects(wsh, 90, "several row groups a block (rows_per_block 1)");
  wsh.rows_per_block = 8;
  wsh.threads_per_row = 8;
  wsh.rows_per_thread = 1;
  rejects(wsh, 90, "weight_shared 1 needs several rows a thread (rows_per_thread 1)");
  wsh.rows_per_thread = 4;
  wsh.weight_shared = 2;
  rejects(wsh, 90, "weight_shared 2: expected 0 or 1");
  // Not asked for, it is dropped where it does not apply (a reshape to one row a thread).
  wsh.weight_shared = -1;
  wsh.rows_per_thread = 1;
  CHECK_FALSE(choose_with(wsh, 90).weight_shared);
  // Per-head rows by head blocks: several a thread of a call whose heads fill the block's rows.
  p.rank3 = true;
  p.hidden = 128;
  p.rows = 1 << 20;
  ConfigOverride hb = rows_layout(4, 16, 4);
  hb.head_blocks = 1;
  rejects(hb, 90, "head_blocks 1 needs a call whose heads a token (0; 0: not known) are a multiple of the block's 16 rows");
  p.heads = 48;
  forced_on(hb, &ConfigOverride::head_blocks, &KernelConfig::head_blocks, "-hb");
  hb.rows_per_block = 8;  // 32 rows a block: 48 heads do not fill them
  rejects(hb, 90, "are a multiple of the block's 32 rows");
  hb.rows_per_block = 4;
  hb.rows_per_thread = 1;
  rejects(hb, 90, "head_blocks 1 needs several per-head rows a thread (rank3 true, rows_per_thread 1)");
  hb.rows_per_thread = 4;
  p.rank3 = false;
  rejects(hb, 90, "(rank3 false, rows_per_thread 4)");
  p.rank3 = true;
  hb.head_blocks = 2;
  rejects(hb, 90, "head_blocks 2: expected 0 or 1");
  // Not asked for, it is dropped where the heads do not fit.
  hb.head_blocks = -1;
  hb.rows_per_block = 8;
  CHECK_FALSE(choose_with(hb, 90).head_blocks);
  p.heads = 0;
  p.rank3 = false;
}

TEST_CASE("choose_config answers a repeated problem from its per-thread memo, and only then", "[config][heuristics]") {
  // Problems that differ from the first in one field each (most change the heuristic's answer):
  // the memo must not return the previous problem's config for any of them.
  ProblemSpec base;
  base.op = Op::rmsnorm;
  base.hidden = 8192;
  base.rows = 1;
  std::vector<std::pair<ProblemSpec, int>> cases;  // (problem, max_vec)
  cases.push_back({base, 8});
  ProblemSpec p = base;
  p.rows = kBulkRowsRmsnorm;  // re-read
  cases.push_back({p, 8});
  p = base;
  p.op = Op::fused_add_rmsnorm;
  cases.push_back({p, 8});
  p = base;
  p.dtype = p.weight_dtype = DType::f32;
  cases.push_back({p, 4});
  p = base;
  p.weight_dtype = DType::f32;
  cases.push_back({p, 8});
  p = base;
  p.hidden = 2048;
  cases.push_back({p, 8});
  p = base;
  p.rank3 = true;
  cases.push_back({p, 8});
  cases.push_back({base, 2});  // narrower vectors (an unaligned tensor)
  p = base;
  p.static_weight = true;
  p.hidden = 4096;
  cases.push_back({p, 8});
  p.static_weight = false;
  cases.push_back({p, 8});
  p = base;
  p.hidden = 128;
  p.rows = kFourRowsPerThreadRows;
  cases.push_back({p, 8});
  p.dense_rows = true;  // eight rows a thread instead of four
  cases.push_back({p, 8});
  for (Arch arch : {Arch{90}, Arch{80}}) {
    for (int round = 0; round < 2; ++round) {
      for (const auto& [q, mv] : cases) {
        const KernelConfig want = op_info(q.op).choose(q, mv, arch);
        INFO(slug(want));
        CHECK(choose_config(q, mv, arch) == want);
        CHECK(choose_config(q, mv, arch) == want);  // the memo's answer
      }
    }
  }
  // An override is remembered with its fields: never answered for other contents or for no
  // override, nor its config answered once it is gone; a refused one throws every time.
  CHECK(choose_config(base, 8, Arch{90}).threads_per_row != 1024);
  {
    ConfigOverride o;
    o.threads_per_row = 1024;
    const ScopedConfigOverride use_o(&o);
    CHECK(choose_config(base, 8, Arch{90}).threads_per_row == 1024);
    CHECK(choose_config(base, 8, Arch{90}).threads_per_row == 1024);  // the memo's answer
    o.threads_per_row = 512;  // same override object, new contents
    CHECK(choose_config(base, 8, Arch{90}).threads_per_row == 512);
    o.threads_per_row = 1024;  // back: the remembered answer for these contents
    CHECK(choose_config(base, 8, Arch{90}).threads_per_row == 1024);
    o.threads_per_row = 3;  // refused, twice: a throw leaves nothing in the memo
    CHECK_THROWS_AS(choose_config(base, 8, Arch{90}), ValidationError);
    CHECK_THROWS_AS(choose_config(base, 8, Arch{90}), ValidationError);
    o.threads_per_row = 0;
    o.residency = 2;  // another field
    CHECK(choose_config(base, 8, Arch{90}).residency == 2);
  }
  CHECK(choose_config(base, 8, Arch{90}) == op_info(base.op).choose(base, 8, Arch{90}));
}

TEST_CASE("a config's override text gives the config back", "[config][override]") {
  // What `bench --sweep` prints as its best's --config: every field, so that forcing it reproduces
  // the config whatever the heuristic would pick.
  ProblemSpec p;
  int n = 0;
  auto round_trip = [&](const KernelConfig& c) {
    const std::string text = config_override_text(c);
    INFO(slug(c) << " <- " << text);
    const ConfigOverride o = parse_config_override(text);
    KernelConfig back;
    try {
      back = choose_with_override(o, p, c.arch);
    } catch (const std::exception& e) {
      FAIL(e.what());
    }
    CHECK(back == c);
    CHECK(slug(back) == slug(c));
    ++n;
  };
  for (Op op : all_ops()) {
    p.op = op;
    for (DType dt : {DType::bf16, DType::f32}) {
      p.dtype = p.weight_dtype = dt;
      for (std::int64_t h : {64, 128, 1000, 2048, 3072, 4096, 7168, 16384, 65536, 262144}) {
        p.hidden = h;
        for (std::int64_t rows : {std::int64_t(1), kPinWeightRows, kBulkRowsRmsnorm, kRereadNpotRows}) {
          p.rows = rows;
          for (bool stat : {false, true}) {
            p.static_weight = stat;
            for (int cc : {80, 90, 100}) round_trip(choose_config(p, 0, Arch{cc}));
          }
        }
      }
    }
  }
  p.static_weight = false;
  // Configs no heuristic picks here, as a sweep forces them.
  p.op = Op::rmsnorm;
  p.dtype = p.weight_dtype = DType::bf16;
  auto forced_config = [&](std::int64_t hidden, std::int64_t rows, const char* forced) {
    return choose_forced(p, hidden, rows, forced);
  };
  for (const char* forced : {"tpr=32,rpb=4", "cluster=4", "split=2,tpr=128", "residency=2,loads=3,minb=4,tpr=512",
                             "trigger=early,prefetch=weight", "keep_out=1,pin_weight=0", "keep_out=1,keep_tail=24", "vec=4",
                             "residency=0,reconvert=1", "residency=1,reconvert=1"})
    round_trip(forced_config(8192, 4096, forced));
  for (const char* forced : {"residency=3,cluster=2,tpr=256", "residency=3,cluster=4,tpr=128,loads=1",
                             "residency=4,cluster=4,tpr=128,loads=1"})
    round_trip(forced_config(65536, 4096, forced));
  const KernelConfig c8 = forced_config(128, 1 << 20, "rpt=8,tpr=16");
  CHECK(c8.rows_per_thread == 8);
  round_trip(c8);
  const KernelConfig c4 = forced_config(128, 1 << 20, "rpt=4,tpr=8,reconvert=1");
  CHECK(c4.reconvert);
  round_trip(c4);
  p.dense_rows = true;
  const KernelConfig cd = forced_config(128, 1 << 20, "rpt=8,tpr=16,reconvert=1,dense=1");
  CHECK(cd.dense);
  round_trip(cd);
  const KernelConfig cw = forced_config(128, 1 << 20, "rpt=8,tpr=16,rpb=4,dense=1,weight_shared=1");
  CHECK(cw.weight_shared);
  round_trip(cw);
  p.dense_rows = false;
  CHECK(n > 1000);
  // Names for trigger and prefetch, numbers for the rest; a bad pair is named.
  const ConfigOverride o = parse_config_override("trigger=end,prefetch=residual+input,tpr=64");
  CHECK(o.trigger == 2);
  CHECK(o.prefetch == 6);
  CHECK(o.threads_per_row == 64);
  CHECK(o.residency == -1);  // not given: the heuristic's
  CHECK_THROWS_WITH(parse_config_override("tpr=64,rpb"), Catch::Contains("expected key=value, got rpb"));
  CHECK_THROWS_WITH(parse_config_override("minb=two"), Catch::Contains("minb=two: expected an integer value"));
  CHECK_THROWS_AS(parse_config_override("colour=3"), std::invalid_argument);
}

TEST_CASE("row_division: row / inner as a multiply and a shift for every row below 2^31", "[launch]") {
  std::mt19937_64 rng(std::random_device{}());
  std::vector<std::int64_t> divisors;
  for (std::int64_t d = 1; d <= 4100; ++d) divisors.push_back(d);
  for (std::int64_t d : std::initializer_list<std::int64_t>{65535, 65536, 65537, 1 << 20, (1 << 20) + 7, 1 << 30,
                                                            (1 << 30) + 1, kMaxRank3LaunchRows - 1,
                                                            kMaxRank3LaunchRows})
    divisors.push_back(d);
  for (int i = 0; i < 2000; ++i) divisors.push_back(std::int64_t(rng() % std::uint64_t(kMaxRank3LaunchRows)) + 1);
  std::size_t wrong = 0;
  for (const std::int64_t d : divisors) {
    const RowDivision q = row_division(d);
    // Where the rounding error of the multiplier is largest: the rows just below each multiple
    // of d near 2^31, and the largest row; then random rows.
    std::vector<std::uint32_t> rows = {0, 1, std::uint32_t(kMaxRank3LaunchRows)};
    const std::int64_t top = kMaxRank3LaunchRows / d * d;
    for (std::int64_t k = 0; k < 64 && top - k * d >= 0; ++k)
      for (std::int64_t delta : {std::int64_t(-1), std::int64_t(0), d - 1})
        if (top - k * d + delta >= 0 && top - k * d + delta <= kMaxRank3LaunchRows)
          rows.push_back(std::uint32_t(top - k * d + delta));
    for (int i = 0; i < 64; ++i) rows.push_back(std::uint32_t(rng() % (std::uint64_t(kMaxRank3LaunchRows) + 1)));
    for (const std::uint32_t row : rows) {
      // common.cuh's row_offset, on the host.
      const std::uint32_t got = std::uint32_t((std::uint64_t(row) * q.mul) >> q.shift);
      if (got != std::uint32_t(std::int64_t(row) / d)) {
        if (++wrong <= 5) UNSCOPED_INFO("inner " << d << " row " << row << ": " << got);
      }
    }
  }
  CHECK(wrong == 0);
  CHECK_THROWS_AS(row_division(0), std::logic_error);
  CHECK_THROWS_AS(row_division(std::int64_t(kMaxRank3LaunchRows) + 1), std::logic_error);
}

TEST_CASE("per-head rows launch in parts below 2^31 rows, each part's pointers advanced", "[launch]") {
  KernelConfig c;
  c.rank3 = true;
  c.input_dtype = c.output_dtype = DType::bf16;
  c.threads_per_row = 16;
  c.rows_per_block = 8;
  NormParams p{};
  p.input = {reinterpret_cast<void*>(std::uintptr_t(1) << 40), 48 * 128, 128};  // q of a qkv view
  p.out = {reinterpret_cast<void*>(std::uintptr_t(2) << 40), 32 * 128, 128};
  p.inner = 32;
  struct Part {
    std::uintptr_t in, out;
    std::int64_t rows, inner;
  };
  auto parts_of = [&](const KernelConfig& k, const NormParams& q) {
    std::vector<Part> v;
    for_each_launch_part(k, q, [&](const NormParams& part) {
      v.push_back({reinterpret_cast<std::uintptr_t>(part.input.ptr), reinterpret_cast<std::uintptr_t>(part.out.ptr),
                   part.rows, part.inner});
    });
    return v;
  };
  // Up to 2^31 - 1 rows: the call itself.
  p.rows = kMaxRank3LaunchRows / 32 * 32;
  REQUIRE(parts_of(c, p).size() == 1);
  // More: parts of whole tokens (2^31 / 32 - 1 of them a part), the last holding the rest.
  const std::int64_t tokens = std::int64_t(3) << 26;  // 3 * 2^31 rows
  p.rows = tokens * 32;
  const std::vector<Part> parts = parts_of(c, p);
  const std::int64_t per = kMaxRank3LaunchRows / 32;
  REQUIRE(parts.size() == std::size_t((tokens + per - 1) / per));
  std::int64_t token = 0;
  for (const Part& part : parts) {
    CHECK(part.inner == 32);
    CHECK(part.rows <= kMaxRank3LaunchRows);
    CHECK(part.rows % 32 == 0);
    CHECK(part.in == (std::uintptr_t(1) << 40) + std::uintptr_t(token * 48 * 128 * 2));
    CHECK(part.out == (std::uintptr_t(2) << 40) + std::uintptr_t(token * 32 * 128 * 2));
    token += part.rows / 32;
  }
  CHECK(token == tokens);
  // 2-D rows are never split: their kernels address rows in 64 bits.
  KernelConfig flat = c;
  flat.rank3 = false;
  CHECK(parts_of(flat, p).size() == 1);
  // More heads a token than a part holds: ranges of one token's heads, each its own outer index.
  NormParams wide = p;
  wide.inner = kMaxRank3LaunchRows + 5;
  wide.rows = wide.inner * 2;
  wide.out.stride0 = wide.inner * 128;
  const std::vector<Part> ranges = parts_of(c, wide);
  REQUIRE(ranges.size() == 4);
  CHECK(ranges[0].rows == kMaxRank3LaunchRows);
  CHECK(ranges[1].rows == 5);
  CHECK(ranges[1].in == (std::uintptr_t(1) << 40) + std::uintptr_t(kMaxRank3LaunchRows * 128 * 2));
  CHECK(ranges[2].in == (std::uintptr_t(1) << 40) + std::uintptr_t(48 * 128 * 2));
  CHECK(ranges[3].out == (std::uintptr_t(2) << 40) + std::uintptr_t((wide.inner + kMaxRank3LaunchRows) * 128 * 2));
  for (const Part& r : ranges) CHECK(r.inner == r.rows);
  // The launch itself carries the division's constants, and refuses a part it was not given.
  LaunchArgs la;
  NormParams one = p;
  one.rows = 1000 * 32;
  prepare_launch(c, one, /*pdl=*/true, 132, nullptr, &la);
  CHECK(la.params.inner_mul == row_division(32).mul);
  CHECK(la.params.inner_shift == row_division(32).shift);
  CHECK_THROWS_AS(prepare_launch(c, p, true, 132, nullptr, &la), std::logic_error);
}

TEST_CASE("head blocks launch tokens x the heads' blocks, for calls whose heads fill them", "[launch]") {
  // A head's offset from its token in 32 bits, at most 65535 blocks of heads.
  CHECK(head_blocks_addressable(32, 64, 64));
  CHECK(head_blocks_addressable(65535, 64, 64));
  CHECK_FALSE(head_blocks_addressable(65536, 64, 64));
  CHECK_FALSE(head_blocks_addressable(0, 64, 64));
  CHECK(head_blocks_addressable(2, std::int64_t(1) << 31, 64));
  CHECK_FALSE(head_blocks_addressable(3, std::int64_t(1) << 31, 64));
  CHECK_FALSE(head_blocks_addressable(3, 64, std::int64_t(1) << 31));
  CHECK_FALSE(head_blocks_addressable(2, -64, 64));
  KernelConfig c;
  c.rank3 = true;
  c.input_dtype = c.output_dtype = DType::bf16;
  c.threads_per_row = 8;
  c.rows_per_block = 16;
  c.rows_per_thread = 2;
  c.head_blocks = true;
  NormParams p{};
  p.input = {reinterpret_cast<void*>(std::uintptr_t(1) << 40), 48 * 64, 64};  // q of a qkv view
  p.out = {reinterpret_cast<void*>(std::uintptr_t(2) << 40), 32 * 64, 64};
  p.inner = 32;
  p.rows = 1000 * 32;
  LaunchArgs la;
  prepare_launch(c, p, /*pdl=*/true, 132, nullptr, &la);
  CHECK(la.config.gridDimX == 1000);
  CHECK(la.config.gridDimY == 1);
  CHECK(la.config.blockDimX == 128);
  p.inner = 64;
  p.out.stride0 = 64 * 64;
  p.rows = 1000 * 64;
  prepare_launch(c, p, true, 132, nullptr, &la);
  CHECK(la.config.gridDimX == 1000);
  CHECK(la.config.gridDimY == 2);
  // Heads that do not fill the blocks, rows that are not whole tokens, or heads too far apart for
  // 32-bit offsets: the heuristic never picks head blocks there, so the launch refuses.
  p.inner = 48;
  p.rows = 1000 * 48;
  CHECK_THROWS_AS(prepare_launch(c, p, true, 132, nullptr, &la), std::logic_error);
  p.inner = 32;
  p.rows = 1000 * 32 + 16;
  CHECK_THROWS_AS(prepare_launch(c, p, true, 132, nullptr, &la), std::logic_error);
  p.rows = 1000 * 32;
  p.input.stride1 = std::int64_t(1) << 28;
  CHECK_THROWS_AS(prepare_launch(c, p, true, 132, nullptr, &la), std::logic_error);
}

TEST_CASE("keep_tail: forced on the output hint of rows one a thread group, refused elsewhere", "[config][override]") {
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.dtype = p.weight_dtype = DType::bf16;
  auto forced = [&](std::int64_t hidden, std::int64_t rows, const char* text) { return choose_forced(p, hidden, rows, text); };
  const KernelConfig c = forced(4096, 4096, "keep_out=1,keep_tail=8");
  CHECK(c.keep_out);
  CHECK(c.keep_tail == 8);
  CHECK(slug(c).find("-keep-kt8") != std::string::npos);
  CHECK(prelude(c).find("kKeepTailBytes = 8LL << 20;") != std::string::npos);
  CHECK(forced(4096, 4096, "keep_out=1,keep_tail=0").keep_tail == 0);
  // Dropped with the hint when not forced.
  CHECK(forced(4096, 1 << 20, "keep_out=0").keep_tail == 0);
  CHECK_THROWS_WITH(forced(4096, 4096, "keep_out=0,keep_tail=8"),
                    Catch::Contains("keep_tail 8 needs the output hint (keep_out 1, not 0)"));
  CHECK_THROWS_WITH(forced(128, 1 << 20, "keep_out=1,keep_tail=8,rpt=4,tpr=8"),
                    Catch::Contains("keep_tail 8 needs one row a thread group (rows_per_thread 1, not 4)"));
  CHECK_THROWS_WITH(forced(4096, 4096, "keep_out=1,keep_tail=70000"),
                    Catch::Contains("keep_tail 70000: expected 0 (every row) to 65536 MiB"));
  // The override text gives it back.
  CHECK(config_override_text(c).find("keep_out=1,keep_tail=8,") != std::string::npos);
}

TEST_CASE("rmsnorm's re-read rows of 2048 vectors: declared for 3 CTAs an SM, for 2 from kWideRereadTwoCtaRows",
          "[config][heuristics]") {
  ProblemSpec p;
  for (DType dt : {DType::bf16, DType::f16}) {
    for (Op op : {Op::rmsnorm, Op::gemma_rmsnorm}) {
      INFO(op_name(op) << " " << dtype_name(dt));
      const KernelConfig before = choose_for(p, op, 16384, kWideRereadTwoCtaRows - 1, dt, 90);
      const KernelConfig from = choose_for(p, op, 16384, kWideRereadTwoCtaRows, dt, 90);
      const KernelConfig huge = choose_for(p, op, 16384, std::int64_t(1) << 20, dt, 90);
      INFO(slug(before) << " / " << slug(from));
      CHECK(before.residency == 2);
      CHECK(before.block_threads() == 512);
      CHECK(before.min_blocks == 3);
      // Only the floor differs, for rmsnorm; gemma keeps 3 (level at 32768 rows, behind at 8192).
      KernelConfig same = from;
      same.min_blocks = before.min_blocks;
      CHECK(same == before);
      CHECK(from.min_blocks == (op == Op::rmsnorm ? 2 : 3));
      CHECK(huge == from);
    }
  }
  // Not fp32 rows of 2048 vectors (hidden 8192), which were not timed with it.
  CHECK(choose_for(p, Op::rmsnorm, 8192, kWideRereadTwoCtaRows, DType::f32, 90).min_blocks != 2);
}

TEST_CASE("an fp32 weight beside 16-bit rows: its own rules", "[heuristics]") {
  // heuristics.cpp: choose_residency counts the weight at the rows' width on CTAs of up to 512
  // threads without a cluster; held_wide_row; the re-read floors; the fused add's rows of more
  // than 3 items on 512 threads. Measured on the H200 in session 55 (calls 6-8).
  const Arch h200{90, 132};
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.dtype = DType::bf16;
  p.weight_dtype = DType::f32;
  auto pick = [&](std::int64_t hidden, std::int64_t rows) {
    p.hidden = hidden;
    p.rows = rows;
    return choose_config(p, 8, h200);
  };
  for (DType dt : {DType::bf16, DType::f16}) {
    p.dtype = dt;
    INFO(dtype_name(dt));
    // held with the weight and pinned, as with a weight of the rows' type
    for (std::int64_t rows : {kPinWeightRows, std::int64_t(2048), std::int64_t(4096)}) {
      CHECK(pick(4096, rows).residency == 0);
      CHECK(pick(4096, rows).pin_weight == 1);
      CHECK(pick(8192, rows).residency == 0);
    }
    CHECK(pick(16384, 128).residency == 0);
    CHECK(pick(16384, 128).pin_weight == 0);  // few rows: not pinned
    // 1024-thread rows of 2049-3072 vectors and of 4096 held from kLateWeightRows rows
    for (std::int64_t h : {20480, 24576, 32768}) {
      INFO("hidden " << h);
      CHECK(pick(h, kLateWeightRows - 1).residency == 2);
      CHECK(pick(h, kLateWeightRows).residency == 1);
      CHECK(pick(h, kLateWeightRows).reconvert);
      CHECK(pick(h, kHeldWideF32WeightEndRows - 1).residency == 1);
      CHECK(pick(h, kHeldWideF32WeightEndRows).residency == 2);
    }
    CHECK(pick(28672, 2048).residency == 2);  // a part-filled fourth item spills: re-read
    // re-read floors: 3 CTAs for rows of 2048 vectors from kWideRereadTwoCtaRows, and for
    // 1537-2047 from kBulkRowsRmsnorm
    CHECK(pick(16384, kWideRereadTwoCtaRows).min_blocks == 3);
    CHECK(pick(14336, kBulkRowsRmsnorm).min_blocks == 3);
    CHECK(pick(14336, kBulkRowsRmsnorm).residency == 2);
    CHECK(pick(14336, 512).min_blocks == 4);
  }
  p.dtype = DType::bf16;
  // a cluster's shares keep the weight late
  CHECK(pick(32768, 128).cluster == 2);
  CHECK(pick(32768, 128).residency == 1);
  // the fused add: rows of more than 3 items on 512 threads load the weight late, no floor
  p.op = Op::fused_add_rmsnorm;
  for (std::int64_t h : {14336, 16376}) {
    INFO("hidden " << h);
    CHECK(pick(h, 2048).threads_per_row == 512);
    CHECK(pick(h, 2048).residency == 1);
    CHECK(pick(h, 2048).min_blocks == 0);
  }
  CHECK(pick(12288, 2048).residency == 0);  // 3 items: held with the floor of 2, as before
  CHECK(pick(12288, 2048).min_blocks == 2);
  // and a weight of the rows' type is untouched by these rules
  p.op = Op::rmsnorm;
  p.weight_dtype = DType::bf16;
  CHECK(pick(16384, kWideRereadTwoCtaRows).min_blocks == 2);
  CHECK(pick(14336, kBulkRowsRmsnorm).min_blocks == 4);
  CHECK(pick(20480, 4096).residency == 1);
}

// Session 56's rules (heuristics.cpp, choose_rms_norm; measured on the H200): rows of an odd
// count of 2049-4095 16-byte vectors take the one-CTA wide layouts of the even counts; the bf16
// fused add's part-filled fourth item compiles at register usage level 2 where its rows are not
// whole 128-byte lines or below kHintedWideRows rows; the fused add's cluster shares of more than
// 1536 vectors with an fp32 weight or of f16 rows load the weight late without a floor.
TEST_CASE("rules for odd vector counts and register usage level 2 and late-weight cluster shares", "[config][heuristics]") {
  ProblemSpec p;
  p.dtype = p.weight_dtype = DType::bf16;
  auto pick = [&](Op op, std::int64_t hidden, std::int64_t rows) {
    p.op = op;
    p.hidden = hidden;
    p.rows = rows;
    return choose_config(p, 0, Arch{90, 132});
  };
  // odd counts: the fused add held on 1024 threads (then re-read at 2049-2944 from
  // kBulkRowsFusedAdd rows), rmsnorm held below kBulkRowsRmsnorm rows, re-read from there
  for (std::int64_t h : {16392, 25608, 31752}) {
    INFO(h);
    const KernelConfig f = pick(Op::fused_add_rmsnorm, h, 1024);
    CHECK((f.cluster == 1 && f.threads_per_row == 1024 && f.residency == 1 && f.loads == 0));
    CHECK(pick(Op::fused_add_rmsnorm, h, kBulkRowsFusedAdd).residency == (h == 16392 ? 2 : 1));
    const KernelConfig r = pick(Op::rmsnorm, h, 1024);
    CHECK((r.cluster == 1 && r.threads_per_row == 1024 && r.residency == 1 && r.reconvert));
    CHECK(pick(Op::rmsnorm, h, kBulkRowsRmsnorm).residency == 2);
    CHECK(!pick(Op::rmsnorm, h, kBulkRowsWide - 1).reconvert);  // few rows keep their layout
  }
  // not on sm_80, whose rows of 2049-4096 vectors were not measured so
  p.op = Op::fused_add_rmsnorm;
  p.hidden = 25608;
  p.rows = 1024;
  CHECK(choose_config(p, 0, Arch{80, 108}).residency == 2);
  // nor fp32 rows of an odd count of 4-vectors (not measured): rmsnorm keeps the held row
  p.op = Op::rmsnorm;
  p.dtype = p.weight_dtype = DType::f32;
  p.hidden = 12292;
  CHECK(choose_config(p, 0, Arch{90, 132}).residency == 1);
  p.dtype = p.weight_dtype = DType::bf16;
  // nor 8-byte vectors (hidden 4 mod 8: an odd count of 4-element vectors)
  p.hidden = 12292;
  CHECK(choose_config(p, 0, Arch{90, 132}).residency == 0);
  p.op = Op::fused_add_rmsnorm;
  // register usage level 2: bf16, a part-filled fourth item (3073-4095 vectors)
  CHECK(pick(Op::fused_add_rmsnorm, 26640, 8192).reg_usage == 2);         // not whole lines
  CHECK(pick(Op::gemma_fused_add_rmsnorm, 30736, 32768).reg_usage == 2);
  CHECK(pick(Op::fused_add_rmsnorm, 28672, kHintedWideRows - 1).reg_usage == 2);  // whole lines
  CHECK(pick(Op::fused_add_rmsnorm, 28672, kHintedWideRows).reg_usage == -1);
  CHECK(pick(Op::fused_add_rmsnorm, 24576, 1024).reg_usage == -1);  // three whole items
  CHECK(pick(Op::fused_add_rmsnorm, 32768, 1024).reg_usage == -1);  // four
  CHECK(pick(Op::rmsnorm, 26640, 1024).reg_usage == -1);
  p.dtype = p.weight_dtype = DType::f16;
  CHECK(pick(Op::fused_add_rmsnorm, 26640, 1024).reg_usage == -1);  // f16 issues its loads together
  // late-weight cluster shares: f16 rows and an fp32 weight above 1536 vectors a share
  for (std::int64_t h : {53248, 57344, 114688, 122880}) {
    INFO(h);
    const KernelConfig f = pick(Op::fused_add_rmsnorm, h, 1024);
    CHECK((f.cluster > 1 && f.threads_per_row == 512 && f.residency == 1 && f.min_blocks == 0));
  }
  CHECK(pick(Op::fused_add_rmsnorm, 49152, 1024).residency == 0);  // 4 x 1536: held, floor 2
  CHECK(pick(Op::fused_add_rmsnorm, 49152, 1024).min_blocks == 2);
  p.dtype = DType::bf16;
  p.weight_dtype = DType::f32;
  CHECK(pick(Op::gemma_fused_add_rmsnorm, 106496, 4096).residency == 1);
  CHECK(pick(Op::fused_add_rmsnorm, 98304, 1024).residency == 0);  // 8 x 1536
  p.weight_dtype = DType::bf16;  // bf16 rows, their own weight: held under the floor
  const KernelConfig held = pick(Op::fused_add_rmsnorm, 57344, 1024);
  CHECK((held.cluster == 4 && held.residency == 0 && held.min_blocks == 2));
}

// Session 57's rules (heuristics.cpp, choose_rms_norm; measured on the H200): the fused add's odd
// counts of 2049-4095 vectors, with their own weight or an fp32 one, are held on one 1024-thread
// CTA at every row count (bf16 rows with a part-filled fourth item at register usage level 2,
// which bf16 rows with an fp32 weight take at even counts too); the bf16 fused add's rows of
// 1025-2047 vectors held on 1024 threads between kFewRowsMax and kPinWeightRows rows compile at
// level 2.
TEST_CASE("rules for the fused add's odd counts with an fp32 weight and level 2 on few rows", "[config][heuristics]") {
  ProblemSpec p;
  p.op = Op::fused_add_rmsnorm;
  p.dtype = DType::bf16;
  p.weight_dtype = DType::f32;
  auto pick = [&](std::int64_t hidden, std::int64_t rows, Arch arch = Arch{90, 132}) {
    p.hidden = hidden;
    p.rows = rows;
    return choose_config(p, 0, arch);
  };
  for (std::int64_t h : {16392, 20488, 25608, 31752}) {
    INFO(h);
    for (std::int64_t rows : {kBulkRowsWide, std::int64_t(8192), std::int64_t(32768)}) {
      const KernelConfig c = pick(h, rows);
      CHECK((c.cluster == 1 && c.threads_per_row == 1024 && c.residency == 1 && c.loads == 0));
      CHECK(c.reg_usage == (h > 3072 * 8 ? 2 : -1));  // a part-filled fourth item
    }
    for (std::int64_t rows : {std::int64_t(1), kFewRowsMax, std::int64_t(128), kBulkRowsWide - 1}) {
      INFO(rows);  // fewer rows too, own weight or fp32
      const KernelConfig c = pick(h, rows);
      CHECK((c.cluster == 1 && c.threads_per_row == 1024 && c.residency == 1 && c.loads == 0));
      CHECK(c.reg_usage == (h > 3072 * 8 ? 2 : -1));
      p.weight_dtype = DType::bf16;
      const KernelConfig own = pick(h, rows);
      CHECK((own.cluster == 1 && own.residency == 1 && own.reg_usage == c.reg_usage));
      p.weight_dtype = DType::f32;
    }
  }
  CHECK(pick(25608, 1024, Arch{80, 108}).residency == 2);  // not on sm_80
  p.dtype = DType::f16;
  const KernelConfig f16 = pick(31752, 8192);
  CHECK((f16.residency == 1 && f16.reg_usage == -1));  // f16: level 2 within 1 %, not taken
  CHECK(pick(25608, 1).residency == 1);
  // bf16 even counts with an fp32 weight past 3072 vectors at level 2 too, whole lines included
  p.dtype = DType::bf16;
  for (std::int64_t h : {25600, 26640, 28672, 31744}) {
    INFO(h);
    CHECK(pick(h, 1024).reg_usage == 2);
    CHECK(pick(h, 8192).reg_usage == 2);
  }
  CHECK(pick(24576, 1024).reg_usage == -1);  // three whole items
  // rmsnorm's odd counts with an fp32 weight keep the held row they had (128 rows too)
  p.op = Op::rmsnorm;
  CHECK(pick(25608, 1024).reg_usage == -1);
  CHECK(pick(25608, 1024).reconvert == false);
  CHECK(pick(25608, 128).cluster == 1);

  // level 2 for the bf16 fused add's rows of 1025-2047 vectors held on 1024 threads, few rows
  p.op = Op::fused_add_rmsnorm;
  p.weight_dtype = DType::bf16;
  for (std::int64_t h : {8200, 9216, 12288, 15360, 16376}) {
    INFO(h);
    for (std::int64_t rows : {kFewRowsMax + 1, std::int64_t(128), kPinWeightRows - 1}) {
      const KernelConfig c = pick(h, rows);
      CHECK((c.cluster == 1 && c.threads_per_row == 1024 && c.residency == 1 && c.reg_usage == 2));
    }
    CHECK(pick(h, kPinWeightRows).reg_usage == -1);
    CHECK(pick(h, kFewRowsMax).reg_usage == -1);
    CHECK(pick(h, 128, Arch{80, 108}).reg_usage == -1);  // sm_80 not timed
  }
  CHECK(pick(8192, 128).reg_usage == -1);   // 1024 vectors: one whole item a thread
  CHECK(pick(16384, 128).reg_usage == -1);  // 2048: two
  p.op = Op::gemma_fused_add_rmsnorm;
  CHECK(pick(12288, 64).reg_usage == 2);
  p.dtype = p.weight_dtype = DType::f16;  // f16 issues its loads together
  CHECK(pick(12288, 64).reg_usage == -1);
  p.dtype = p.weight_dtype = DType::f32;  // fp32 gained nothing
  CHECK(pick(9216, 128).reg_usage == -1);
  p.dtype = DType::bf16;  // nor with an fp32 weight (not timed)
  CHECK(pick(12288, 128).reg_usage == -1);
  p.op = Op::rmsnorm;
  p.weight_dtype = DType::bf16;
  CHECK(pick(12288, 128).reg_usage == -1);
}

TEST_CASE("the ptxas register usage level: forced by an override, in the key only where set", "[config][override]") {
  ProblemSpec p;
  p.op = Op::fused_add_rmsnorm;
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 28672;  // whole 128-byte lines from kHintedWideRows rows: ptxas's default level
  p.rows = 8192;
  const KernelConfig def = choose_config(p, 0, Arch{90});
  CHECK(def.reg_usage == -1);  // the heuristics leave ptxas's default
  CHECK(canonical_json(def).find("reg_usage") == std::string::npos);  // keys of configs without it unchanged
  const ConfigOverride o = parse_config_override("reg_usage=2");
  const KernelConfig c = choose_with_override(o, p, Arch{90});
  CHECK(c.reg_usage == 2);
  CHECK(canonical_json(c).find("\"reg_usage\":2") != std::string::npos);
  CHECK(cache_key(c).hex() != cache_key(def).hex());
  CHECK(slug(c) == slug(def).substr(0, slug(def).size() - std::string("-sm_90a").size()) + "-ru2-sm_90a");
  CHECK(config_override_text(c).find("reg_usage=2") != std::string::npos);
  CHECK(choose_with_override(parse_config_override(config_override_text(def)), p, Arch{90}) == def);
  CHECK(choose_with_override(parse_config_override("reg_usage=-1"), p, Arch{90}) == def);
  for (const char* bad : {"reg_usage=11", "reg_usage=-2"}) {
    INFO(bad);
    try {
      choose_with_override(parse_config_override(bad), p, Arch{90});
      FAIL("accepted");
    } catch (const std::exception& e) {  // ValidationError for 11, std::invalid_argument for -2
      CHECK_THAT(e.what(), Catch::Contains("reg_usage"));
    }
  }
}

TEST_CASE("choose_config's memory of recent problems answers as the heuristic does for calls in turn",
          "[config][heuristics]") {
  // choose_config remembers a thread's last four answers (op_registry.cpp); problems taken in
  // turn, more of them than it keeps and some differing in one field only, must each get the
  // heuristic's own answer, whichever entry answers or is replaced.
  std::vector<ProblemSpec> problems;
  for (Op op : {Op::rmsnorm, Op::fused_add_rmsnorm, Op::gemma_rmsnorm})
    for (std::int64_t rows : {1, 128, 4096}) {
      ProblemSpec p;
      p.op = op;
      p.hidden = 4096;
      p.rows = rows;
      problems.push_back(p);
      p.out_aliases_input = true;  // one field apart
      problems.push_back(p);
    }
  ProblemSpec heads;
  heads.hidden = 128;
  heads.rows = 32;
  heads.rank3 = true;
  heads.heads = 32;
  problems.push_back(heads);
  std::mt19937 rng(58);
  for (int round = 0; round < 400; ++round) {
    // In turn (a layer's calls), then at random.
    const ProblemSpec& p = round < 200 ? problems[size_t(round) % 3] : problems[rng() % problems.size()];
    for (int cc : {90, 80}) {
      const Arch arch{cc, 132};
      for (int max_vec : {8, 4}) {
        INFO("round " << round << " cc " << cc << " max_vec " << max_vec);
        CHECK(choose_config(p, max_vec, arch) == op_info(p.op).choose(p, max_vec, arch));
      }
    }
  }
}

TEST_CASE("pin_weight 3 (weight lines into L1) and 4 (weight copied to shared memory): forced where they apply, "
          "refused with the reason where not", "[config][override]") {
  // The shapes the GPU test of forced pins runs ("forced configs: the weight pinned ..."): each
  // must take the override, not refuse it.
  for (Op op : all_ops()) {
    for (int pin : {3, 4, 5}) {
      for (std::int64_t hidden : {1536, 2040, 5376, 1000, 4096, 768}) {
        for (std::int64_t rows : {300, 3001, 301}) {
          ProblemSpec p;
          p.op = op;
          p.dtype = p.weight_dtype = rows == 301 ? DType::f32 : rows % 2 == 1 ? DType::f16 : DType::bf16;
          p.hidden = hidden;
          p.rows = rows;
          std::string text = fmt::format("pin_weight={},residency=0", pin);
          if (pin == 4) text += ",cluster=1,split=1,rows_per_block=1";
          INFO(op_info(op).name << " " << hidden << " x " << rows << " " << text);
          const KernelConfig c = choose_with_override(parse_config_override(text), p, Arch{90});
          CHECK(c.pin_weight == pin);
          CHECK(slug(c).find(pin == 3 ? "-pwl1-" : pin == 4 ? "-pws-" : "-pwr-") != std::string::npos);
          CHECK(canonical_json(c).find(pin == 3   ? "\"l1_prefetch\""
                                       : pin == 4 ? "\"shared_copy\""
                                                  : "\"after_warp_sum\"") != std::string::npos);
        }
      }
    }
  }
  ProblemSpec p;
  p.op = Op::rmsnorm;
  p.dtype = p.weight_dtype = DType::bf16;
  p.hidden = 4096;
  p.rows = 128;
  const KernelConfig def = choose_config(p, 0, Arch{90});
  for (int pin : {3, 4, 5}) {
    const KernelConfig c = choose_with_override(parse_config_override(fmt::format("pin_weight={}", pin)), p, Arch{90});
    CHECK(cache_key(c).hex() != cache_key(def).hex());
  }
  const std::pair<const char*, const char*> refused[] = {
      {"pin_weight=4,split=2,tpr=128", "pin_weight 4 needs rows not split between CTAs (split 2)"},
      {"pin_weight=6", "expected 0-5"},
      {"pin_weight=3,residency=2", "residency 0, not 2"},
  };
  for (const auto& [text, why] : refused) {
    INFO(text);
    try {
      choose_with_override(parse_config_override(text), p, Arch{90});
      FAIL("accepted");
    } catch (const ValidationError& e) {
      CHECK_THAT(e.what(), Catch::Contains(why));
    }
  }
  p.static_weight = true;  // weight_first allowed: the pin is not
  try {
    choose_with_override(parse_config_override("pin_weight=3,weight_first=1"), p, Arch{90});
    FAIL("accepted");
  } catch (const ValidationError& e) {
    CHECK_THAT(e.what(), Catch::Contains("pin_weight 3 needs the weight loaded with a row held in registers: no weight_first"));
  }
  p.static_weight = false;
  // A cluster's column shares, several rows a block: the block's share copied once for its rows.
  const KernelConfig tile = choose_with_override(parse_config_override("pin_weight=4,cluster=4,rpb=4,tpr=32"), p, Arch{90});
  CHECK(tile.pin_weight == 4);
  CHECK(tile.cluster == 4);
  CHECK(tile.rows_per_block == 4);
  p.weight_dtype = DType::f32;  // 32-byte weight vectors beside bf16's 16-byte ones
  try {
    choose_with_override(parse_config_override("pin_weight=4,cluster=1"), p, Arch{90});
    FAIL("accepted");
  } catch (const ValidationError& e) {
    CHECK_THAT(e.what(), Catch::Contains("16-byte weight vectors, got 32 bytes"));
  }
}

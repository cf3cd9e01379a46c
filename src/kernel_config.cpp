#include "kernel_config.hpp"

#include <fmt/format.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <nlohmann/json.hpp>

#include "op_registry.hpp"

namespace normjit::detail {

bool KernelConfig::operator==(const KernelConfig& o) const {
  return op == o.op && input_dtype == o.input_dtype && weight_dtype == o.weight_dtype &&
         output_dtype == o.output_dtype && rank3 == o.rank3 && hidden == o.hidden &&
         vec == o.vec && threads_per_row == o.threads_per_row &&
         rows_per_block == o.rows_per_block && cluster == o.cluster && split == o.split &&
         residency == o.residency && min_blocks == o.min_blocks && loads == o.loads &&
         stores == o.stores && weight_first == o.weight_first && keep_out == o.keep_out &&
         keep_tail == o.keep_tail &&
         pin_weight == o.pin_weight && rows_per_thread == o.rows_per_thread && trigger == o.trigger &&
         prefetch == o.prefetch && reconvert == o.reconvert && dense == o.dense &&
         weight_shared == o.weight_shared && head_blocks == o.head_blocks && reg_usage == o.reg_usage &&
         arch == o.arch;
}

std::size_t KernelConfigHasher::operator()(const KernelConfig& c) const noexcept {
  // Pack the small fields into two words and mix them; collisions only cost a compare.
  const std::uint64_t a = std::uint64_t(c.op) | std::uint64_t(c.input_dtype) << 8 |
                          std::uint64_t(c.weight_dtype) << 16 | std::uint64_t(c.output_dtype) << 24 |
                          std::uint64_t(c.rank3) << 32 | std::uint64_t(c.weight_first) << 33 |
                          std::uint64_t(c.keep_out) << 34 | std::uint64_t(c.pin_weight & 1) << 35 |
                          std::uint64_t(c.residency) << 36 | std::uint64_t(c.trigger & 0x3) << 38 |
                          std::uint64_t(c.prefetch & 0x7) << 41 |
                          std::uint64_t(c.arch.cc) << 44 | std::uint64_t(c.min_blocks & 0xff) << 52 |
                          std::uint64_t(c.loads & 0xf) << 60 | std::uint64_t(c.pin_weight >> 1 & 1) << 40 |
                          std::uint64_t(c.pin_weight >> 2 & 1) << 39;
  const std::uint64_t b = std::uint64_t(std::uint32_t(c.hidden)) |
                          ((std::uint64_t(c.vec) << 32) ^ (std::uint64_t(c.threads_per_row) << 40) ^
                           (std::uint64_t(c.rows_per_block) << 52) ^ (std::uint64_t(c.cluster) << 60) ^
                           (std::uint64_t(c.stores) << 63) ^ (std::uint64_t(c.split) << 48) ^
                           (std::uint64_t(c.rows_per_thread) << 56) ^ (std::uint64_t(c.reconvert) << 62) ^
                           (std::uint64_t(c.dense) << 61) ^ (std::uint64_t(c.weight_shared) << 31) ^
                           (std::uint64_t(c.head_blocks) << 30) ^ (std::uint64_t(std::uint32_t(c.keep_tail)) << 20) ^
                           (std::uint64_t(c.reg_usage + 1) << 24));  // hidden < 2^30
  std::uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return std::size_t(h ^ (h >> 29));
}

bool pin_weight_applies(const KernelConfig& c) {
  return c.residency == 0 && !c.weight_first && c.stores == 0;
}

std::string shared_weight_unsupported(const KernelConfig& c) {
  if (c.split != 1) return fmt::format("needs rows not split between CTAs (split {})", c.split);
  const int vec_bytes = c.vec * int(dtype_size(c.weight_dtype));
  if (vec_bytes != 16) return fmt::format("needs 16-byte weight vectors, got {} bytes", vec_bytes);
  const std::int64_t bytes = std::int64_t(c.items_per_thread()) * c.threads_per_row * vec_bytes;
  if (bytes > 32768) return fmt::format("needs at most 32768 bytes of weight a CTA, got {}", bytes);
  return {};
}

bool reconvert_applies(const KernelConfig& c) {
  return c.residency < 2 && !op_info(c.op).residual && dtype_size(c.input_dtype) == 2;
}

bool dense_applies(const KernelConfig& c) { return c.rows_per_thread > 1 && !c.rank3; }

bool weight_shared_applies(const KernelConfig& c) { return c.rows_per_thread > 1 && c.rows_per_block > 1; }

bool keep_tail_applies(const KernelConfig& c) { return c.keep_out && c.rows_per_thread == 1; }

bool head_blocks_applies(const KernelConfig& c) { return c.rank3 && c.rows_per_thread > 1 && c.prefetch == 0; }

bool head_blocks_fit(const KernelConfig& c, std::int64_t heads) {
  return head_blocks_applies(c) && heads > 0 && heads % c.rows_per_cta() == 0;
}

std::string rows_per_thread_unsupported(const KernelConfig& c) {
  if (c.threads_per_row > 32)
    return fmt::format("a row's threads must be one warp or fewer, got {} threads per row", c.threads_per_row);
  if (op_info(c.op).residual) return "the fused add keeps one row per thread";
  if (c.residency != 0)
    return fmt::format("needs the row held with its weight in registers (residency 0), not residency {}", c.residency);
  if (c.cluster != 1 || c.split != 1)
    return fmt::format("needs one CTA per row (cluster {}, split {})", c.cluster, c.split);
  if (c.pin_weight) return "not with pin_weight";
  return {};
}

std::string CacheKey::hex() const { return fmt::format("{:016x}{:016x}", hi, lo); }

std::string canonical_json(const KernelConfig& c) {
  // nlohmann::json objects are std::map-backed: keys come out sorted, so dump() is canonical.
  // Bump "schema" whenever a field's meaning changes.
  nlohmann::json j = {
      {"schema", 16},
      {"op", op_name(c.op)},
      {"input_dtype", dtype_name(c.input_dtype)},
      {"weight_dtype", dtype_name(c.weight_dtype)},
      {"output_dtype", dtype_name(c.output_dtype)},
      {"rank3", c.rank3},
      {"hidden", c.hidden},
      {"vec", c.vec},
      {"threads_per_row", c.threads_per_row},
      {"rows_per_block", c.rows_per_block},
      {"cluster", c.cluster},
      {"split", c.split},
      {"residency", residency_name(c.residency)},
      {"min_blocks", c.min_blocks},
      {"loads", loads_name(c.loads)},
      {"stores", stores_name(c.stores)},
      {"weight_first", c.weight_first},
      {"keep_out", c.keep_out},
      {"keep_tail", c.keep_tail},
      {"pin_weight", pin_weight_name(c.pin_weight)},
      {"rows_per_thread", c.rows_per_thread},
      {"trigger", trigger_name(c.trigger)},
      {"prefetch", prefetch_name(c.prefetch)},
      {"reconvert", c.reconvert},
      {"dense", c.dense},
      {"weight_shared", c.weight_shared},
      {"head_blocks", c.head_blocks},
      {"arch", c.arch.target()},
  };
  // Only where set: the keys of every config without it stay what they were.
  if (c.reg_usage >= 0) j["reg_usage"] = c.reg_usage;
  return j.dump();
}

CacheKey cache_key(const KernelConfig& c) {
  const std::string s = canonical_json(c);
  const XXH128_hash_t h = XXH3_128bits(s.data(), s.size());
  return CacheKey{h.high64, h.low64};
}

const char* residency_name(int r) {
  switch (r) {
    case 0: return "row+weight";
    case 1: return "row";
    case 2: return "reload";
    case 3: return "smem";
    case 4: return "smem_lanes";
    default: return "invalid";
  }
}

const char* trigger_name(int t) {
  switch (t) {
    case 0: return "auto";
    case 1: return "early";
    case 2: return "end";
    default: return "invalid";
  }
}

namespace {
constexpr const char* kPrefetchParts[] = {"weight", "residual", "input"};  // bit i
static_assert(kPrefetchWeight == 1 << 0 && kPrefetchResidual == 1 << 1 && kPrefetchInput == 1 << 2,
              "kPrefetchParts and tuning_tags' letters are in bit order");
}  // namespace

std::string prefetch_name(int p) {
  if (p == 0) return "none";
  if (p < 0 || p > 7) return "invalid";
  std::string s;
  for (int i = 0; i < 3; ++i)
    if (p & (1 << i)) s += (s.empty() ? "" : "+") + std::string(kPrefetchParts[i]);
  return s;
}

int parse_prefetch(const std::string& text) {
  if (text.empty()) return -1;
  if (text.find_first_not_of("0123456789") == std::string::npos) return text.size() > 2 ? -1 : std::stoi(text);
  if (text == "none") return 0;
  int mask = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('+', at), text.size());
    const std::string part = text.substr(at, end - at);
    int bit = -1;
    for (int i = 0; i < 3; ++i)
      if (part == kPrefetchParts[i]) bit = 1 << i;
    if (bit < 0 || (mask & bit)) return -1;
    mask |= bit;
    at = end + 1;
  }
  return mask;
}

std::string prefetch_unsupported(const KernelConfig& c) {
  if (c.prefetch < 0 || c.prefetch > 7)
    return fmt::format("expected a mask of 1 (weight), 2 (residual) and 4 (input), got {}", c.prefetch);
  if (c.prefetch != 0 && !c.arch.has_pdl())
    return fmt::format("prefetches run ahead of the PDL wait, which needs sm_90 or newer, the GPU is {}",
                       c.arch.target());
  if ((c.prefetch & kPrefetchResidual) && !op_info(c.op).residual)
    return "only the fused add has a residual to prefetch";
  return {};
}

int prefetch_needed(const KernelConfig& c) { return c.weight_first ? c.prefetch & ~kPrefetchWeight : c.prefetch; }

const char* loads_name(int l) {
  switch (l) {
    case 0: return "plain";
    case 1: return "stream";
    case 2: return "l2";
    case 3: return "hinted";
    default: return "invalid";
  }
}

const char* pin_weight_name(int p) {
  switch (p) {
    case 0: return "none";
    case 1: return "every_item";
    case 2: return "full_items";
    case 3: return "l1_prefetch";
    case 4: return "shared_copy";
    case 5: return "after_warp_sum";
    default: return "invalid";
  }
}

const char* stores_name(int s) {
  switch (s) {
    case 0: return "after_loads";
    case 1: return "per_item";
    default: return "invalid";
  }
}

namespace {
// Bytes of one block's row shares (x, and r for the fused add), whatever c's residency.
std::int64_t share_bytes(const KernelConfig& c) {
  const std::int64_t share = std::int64_t(c.hidden / c.cluster) * dtype_size(c.input_dtype);
  return share * (op_info(c.op).residual ? 2 : 1) * c.rows_per_block;
}
// What a block takes of shared memory beside its staged shares: the kernel's static shared
// memory, bounded (kernel_config.hpp: staged_smem_limit), and the system's reserve.
constexpr std::int64_t kStaticSmemBound = 2048;
constexpr std::int64_t kSystemSmemPerBlock = 1024;
}  // namespace

std::int64_t staged_smem_bytes(const KernelConfig& c) { return staged(c) ? share_bytes(c) : 0; }

std::int64_t staged_smem_limit(Arch arch) { return arch.max_smem_per_block() - kStaticSmemBound; }

int staged_ctas_per_sm(const KernelConfig& c) {
  const std::int64_t smem = staged_smem_bytes(c);
  return smem == 0 ? 0 : int(c.arch.max_smem_per_sm() / (smem + kStaticSmemBound + kSystemSmemPerBlock));
}

std::string staged_unsupported(const KernelConfig& c) {
  if (c.residency == 3 && c.arch.cc < 90)
    return fmt::format("bulk copies into shared memory need sm_90 or newer, the GPU is {}", c.arch.target());
  if (c.vec * dtype_size(c.input_dtype) != 16)
    return fmt::format("needs 16-byte vectors, got {} x {} bytes", c.vec, dtype_size(c.input_dtype));
  if (c.hidden % (c.cluster * c.vec) != 0)
    return fmt::format("a share of {} / {} elements is not whole vectors of {}", c.hidden, c.cluster, c.vec);
  if (c.split != 1) return fmt::format("cannot share a row between CTAs without a cluster (split {})", c.split);
  if (const std::int64_t smem = share_bytes(c); smem > staged_smem_limit(c.arch))
    return fmt::format("{} bytes of shared memory for the staged rows, above the {} a block may use on {} (use a "
                       "larger cluster or fewer rows per block)",
                       smem, staged_smem_limit(c.arch), c.arch.target());
  return {};
}

std::string slug(const KernelConfig& c) {
  std::string s = fmt::format("{}{}-{}", op_name(c.op), c.rank3 ? "3d" : "", dtype_name(c.input_dtype));
  if (c.weight_dtype != c.input_dtype) s += fmt::format("-w{}", dtype_name(c.weight_dtype));
  if (c.output_dtype != c.input_dtype) s += fmt::format("-o{}", dtype_name(c.output_dtype));
  s += fmt::format("-h{}-v{}-t{}-r{}", c.hidden, c.vec, c.threads_per_row, c.rows_per_block);
  s += tuning_tags(c);
  s += fmt::format("-{}", c.arch.target());
  return s;
}

std::string tuning_tags(const KernelConfig& c) {
  std::string s;
  if (c.cluster != 1) s += fmt::format("-c{}", c.cluster);
  if (c.split != 1) s += fmt::format("-s{}", c.split);
  if (c.residency != 0)
    s += c.residency == 1 ? "-lw" : c.residency == 2 ? "-reload" : c.residency == 3 ? "-smem" : "-smeml";
  if (c.min_blocks != 0) s += fmt::format("-b{}", c.min_blocks);
  if (c.loads != 0) s += fmt::format("-ld{}", loads_name(c.loads));
  if (c.stores != 0) s += "-stitem";
  if (c.weight_first) s += "-wf";
  if (c.keep_out) s += "-keep";
  if (c.keep_tail != 0) s += fmt::format("-kt{}", c.keep_tail);
  if (c.pin_weight)
    s += c.pin_weight == 1   ? "-pw"
         : c.pin_weight == 2 ? "-pwf"
         : c.pin_weight == 3 ? "-pwl1"
         : c.pin_weight == 4 ? "-pws"
                             : "-pwr";
  if (c.rows_per_thread != 1) s += fmt::format("-x{}", c.rows_per_thread);
  if (c.trigger != 0) s += fmt::format("-pdl{}", trigger_name(c.trigger));
  if (c.prefetch != 0) {
    s += "-pf";
    for (int i = 0; i < 3; ++i)
      if (c.prefetch & (1 << i)) s += "wrx"[i];
  }
  if (c.reconvert) s += "-rc";
  if (c.dense) s += "-dn";
  if (c.weight_shared) s += "-wsh";
  if (c.head_blocks) s += "-hb";
  if (c.reg_usage >= 0) s += fmt::format("-ru{}", c.reg_usage);
  return s;
}

std::string prewarm_command(const KernelConfig& c) {
  std::string cmd = fmt::format("normjit prewarm --arch {} --op {} --dtype {} --weight-dtype {} --hidden {}",
                                c.arch.target(), op_name(c.op), dtype_name(c.input_dtype),
                                dtype_name(c.weight_dtype), c.hidden);
  if (c.rank3) cmd += " --rank3";
  // A narrower vector than the dtype allows came from the call's alignment: ask for it.
  if (c.vec < 16 / dtype_size(c.input_dtype)) cmd += fmt::format(" --max-vec {}", c.vec);
  if (c.weight_first) cmd += " --static-weight";
  return cmd;
}

}  // namespace normjit::detail

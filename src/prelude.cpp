#include "prelude.hpp"

#include <fmt/format.h>

#include "op_registry.hpp"

namespace normjit::detail {
namespace {

const char* device_type(DType t) {
  switch (t) {
    case DType::f32: return "float";
    case DType::f16: return "normjit::f16";
    case DType::bf16: return "normjit::bf16";
    default: return "void";  // rejected by the static_asserts below
  }
}

}  // namespace

std::string prelude(const KernelConfig& c) {
  const OpInfo& op = op_info(c.op);
  const bool pdl = c.arch.has_pdl();
  const std::string bounds = c.min_blocks > 0 ? fmt::format("{}, {}", c.block_threads(), c.min_blocks)
                                              : fmt::format("{}", c.block_threads());
  return fmt::format(
      R"(// normjit prelude v1: generated, do not edit. slug={slug}
#include "{file}"
struct Cfg {{
  typedef {in} In;
  typedef {w} Weight;
  typedef {out} Out;
  static constexpr int kHidden = {hidden};
  static constexpr int kVec = {vec};
  static constexpr int kThreadsPerRow = {tpr};
  static constexpr int kRowsPerBlock = {rpb};
  static constexpr int kCluster = {cluster};
  static constexpr int kSplit = {split};
  static constexpr int kResidency = {residency};
  static constexpr int kMinBlocks = {min_blocks};
  static constexpr int kLoads = {loads};
  static constexpr int kStores = {stores};
  static constexpr bool kResidual = {residual};
  static constexpr bool kGemma = {gemma};
  static constexpr bool k3D = {rank3};
  static constexpr bool kPdl = {pdl};
  static constexpr bool kWeightFirst = {weight_first};
  static constexpr bool kKeepOut = {keep_out};
  static constexpr long long kKeepTailBytes = {keep_tail}LL << 20;
  static constexpr int kPinWeight = {pin_weight};
  static constexpr int kRowsPerThread = {rpt};
  static constexpr int kTrigger = {trigger};
  static constexpr int kPrefetch = {prefetch};
  static constexpr bool kReconvert = {reconvert};
  static constexpr bool kDense = {dense};
  static constexpr bool kWeightShared = {weight_shared};
  static constexpr bool kHeadBlocks = {head_blocks};
}};
static_assert((Cfg::kThreadsPerRow & (Cfg::kThreadsPerRow - 1)) == 0, "threads per row: power of two");
static_assert(Cfg::kThreadsPerRow * Cfg::kRowsPerBlock >= 32 && Cfg::kThreadsPerRow * Cfg::kRowsPerBlock <= 1024, "block size");
static_assert((Cfg::kVec & (Cfg::kVec - 1)) == 0 && Cfg::kHidden % Cfg::kVec == 0, "vector width");
static_assert(sizeof(Cfg::In) * Cfg::kVec <= 16, "vector wider than 16 bytes");
extern "C" __global__ void __launch_bounds__({bounds}) {entry}(const normjit::NormParams p) {{
  normjit::{fn}<Cfg>(p);
}}
)",
      fmt::arg("slug", slug(c)), fmt::arg("file", op.template_file),
      fmt::arg("in", device_type(c.input_dtype)), fmt::arg("w", device_type(c.weight_dtype)),
      fmt::arg("out", device_type(c.output_dtype)), fmt::arg("hidden", c.hidden),
      fmt::arg("vec", c.vec), fmt::arg("tpr", c.threads_per_row),
      fmt::arg("rpb", c.rows_per_block), fmt::arg("cluster", c.cluster), fmt::arg("split", c.split),
      fmt::arg("residency", c.residency), fmt::arg("min_blocks", c.min_blocks),
      fmt::arg("loads", c.loads), fmt::arg("stores", c.stores),
      fmt::arg("residual", op.residual), fmt::arg("gemma", op.gemma),
      fmt::arg("rank3", c.rank3), fmt::arg("pdl", pdl), fmt::arg("weight_first", c.weight_first),
      fmt::arg("keep_out", c.keep_out), fmt::arg("keep_tail", c.keep_tail), fmt::arg("pin_weight", c.pin_weight), fmt::arg("rpt", c.rows_per_thread),
      fmt::arg("trigger", c.trigger), fmt::arg("prefetch", c.prefetch), fmt::arg("reconvert", c.reconvert),
      fmt::arg("dense", c.dense), fmt::arg("weight_shared", c.weight_shared), fmt::arg("head_blocks", c.head_blocks),
      fmt::arg("bounds", bounds),
      fmt::arg("entry", kEntryName), fmt::arg("fn", op.device_fn));
}

}  // namespace normjit::detail

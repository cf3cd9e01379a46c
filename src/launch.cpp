#include "launch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "cuda_driver.hpp"
#include "normjit/errors.hpp"
#include "runtime.hpp"

namespace normjit::detail {

static_assert(std::is_trivially_copyable_v<NormParams>, "kernel parameters are copied bytewise");
static_assert(sizeof(RowTensor) == 24 && sizeof(NormParams) == 112, "host/device params layout");

RowDivision row_division(std::int64_t inner) {
  if (inner < 1 || inner > kMaxRank3LaunchRows)
    throw std::logic_error(fmt::format("normjit: row_division: inner {} outside [1, 2^31)", inner));
  std::uint32_t log2_ceil = 0;
  while ((std::int64_t(1) << log2_ceil) < inner) ++log2_ceil;
  RowDivision d;
  d.shift = 31 + log2_ceil;
  d.mul = std::uint32_t(((std::uint64_t(1) << d.shift) + std::uint64_t(inner) - 1) / std::uint64_t(inner));
  return d;
}

bool head_blocks_addressable(std::int64_t heads, std::int64_t in_stride1, std::int64_t out_stride1) {
  constexpr std::int64_t kOffsets = std::int64_t(1) << 32;
  auto fits = [&](std::int64_t stride) { return stride >= 0 && (heads - 1) * stride < kOffsets; };
  return heads >= 1 && heads <= 65535 && fits(in_stride1) && fits(out_stride1);
}

void prepare_launch(const KernelConfig& c, const NormParams& p, bool pdl, int sm_count, CUstream stream,
                    LaunchArgs* out) {
  const std::int64_t blocks = c.grid_blocks(p.rows);
  if (blocks > 0x7fffffff) {
    throw ValidationError(ValidationError::Kind::Unsupported,
                          fmt::format("normjit: {} rows need {} blocks, above the grid limit 2^31-1",
                                      p.rows, blocks));
  }
  CUlaunchConfig& lc = out->config;
  lc = CUlaunchConfig{};
  lc.gridDimX = unsigned(blocks);
  lc.gridDimY = lc.gridDimZ = 1;
  if (c.head_blocks) {
    // Tokens x the heads' blocks; the heuristic chose head_blocks only for such calls
    // (ProblemSpec::heads), so a mismatch is the library's bug.
    if (!head_blocks_fit(c, p.inner) || p.rows % p.inner != 0 ||
        !head_blocks_addressable(p.inner, p.input.stride1, p.out.stride1))
      throw std::logic_error(fmt::format("normjit: {} on {} rows of {} heads (strides {}, {})", slug(c), p.rows,
                                         p.inner, p.input.stride1, p.out.stride1));
    lc.gridDimX = unsigned(p.rows / p.inner);
    lc.gridDimY = unsigned(p.inner / c.rows_per_cta());
  }
  lc.blockDimX = unsigned(c.block_threads());
  lc.blockDimY = lc.blockDimZ = 1;
  lc.sharedMemBytes = unsigned(staged_smem_bytes(c));
  lc.hStream = stream;
  lc.attrs = out->attrs;
  lc.numAttrs = 0;
  if (pdl) {
    CUlaunchAttribute& a = out->attrs[lc.numAttrs++];
    a = CUlaunchAttribute{};
    a.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    a.value.programmaticStreamSerializationAllowed = 1;
  }
  if (c.cluster > 1) {
    CUlaunchAttribute& a = out->attrs[lc.numAttrs++];
    a = CUlaunchAttribute{};
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = unsigned(c.cluster);
    a.value.clusterDim.y = a.value.clusterDim.z = 1;
  }
  out->params = p;
  if (c.rank3) {
    if (p.rows > kMaxRank3LaunchRows)  // launch_norm splits such calls (for_each_launch_part)
      throw std::logic_error(fmt::format("normjit: {} per-head rows in one launch, above 2^31-1", p.rows));
    const RowDivision d = row_division(p.inner);
    out->params.inner_mul = d.mul;
    out->params.inner_shift = d.shift;
  }
  static_assert((kFlagEarlyTrigger & kFlagNeverSet) == 0, "kFlagNeverSet must stay clear");
  if (pdl && blocks <= sm_count) out->params.flags |= kFlagEarlyTrigger;
  out->args[0] = &out->params;
}

void launch_norm(const KernelConfig& c, const NormParams& p, const LaunchOptions& opts, int device) {
  Runtime& rt = Runtime::get();
  const bool pdl = uses_pdl(opts, c.arch);
  ScopedDeviceContext ctx(device);
  const LoadedKernel* k = nullptr;
  for_each_launch_part(c, p, [&](const NormParams& part) {
    LaunchArgs la;
    prepare_launch(c, part, pdl, rt.sm_count(device), reinterpret_cast<CUstream>(opts.stream), &la);
    if (!k) k = &rt.kernel(c, la.config.hStream);
    check(driver().cuLaunchKernelEx(&la.config, reinterpret_cast<CUfunction>(k->kernel), la.args, nullptr),
          "cuLaunchKernelEx");
    rt.count_launch();
  });
}

}  // namespace normjit::detail

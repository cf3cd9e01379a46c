#include "launch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>

#include "cuda_driver.hpp"
#include "normjit/errors.hpp"
#include "runtime.hpp"

namespace normjit::detail {

static_assert(std::is_trivially_copyable_v<NormParams>, "kernel parameters are copied bytewise");
static_assert(sizeof(RowTensor) == 24 && sizeof(NormParams) == 104, "host/device params layout");

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
  lc.blockDimX = unsigned(c.block_threads());
  lc.blockDimY = lc.blockDimZ = 1;
  lc.sharedMemBytes = unsigned(staged_smem_bytes(c));
  lc.hStream = stream;
  lc.attrs = out->attrs;
  lc.numAttrs = 0;
  if (pdl) {
    CUlaunchAttribute& a = out->attrs[lc.numAttrs++];
    a.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    a.value.programmaticStreamSerializationAllowed = 1;
  }
  if (c.cluster > 1) {
    CUlaunchAttribute& a = out->attrs[lc.numAttrs++];
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = unsigned(c.cluster);
    a.value.clusterDim.y = a.value.clusterDim.z = 1;
  }
  out->params = p;
  static_assert((kFlagEarlyTrigger & kFlagNeverSet) == 0, "kFlagNeverSet must stay clear");
  if (pdl && blocks <= sm_count) out->params.flags |= kFlagEarlyTrigger;
  out->args[0] = &out->params;
}

void launch_norm(const KernelConfig& c, const NormParams& p, const LaunchOptions& opts, int device) {
  Runtime& rt = Runtime::get();
  const bool pdl = uses_pdl(opts, c.arch);
  LaunchArgs la;
  prepare_launch(c, p, pdl, rt.sm_count(device), reinterpret_cast<CUstream>(opts.stream), &la);
  ScopedDeviceContext ctx(device);
  const LoadedKernel& k = rt.kernel(c, la.config.hStream);
  check(driver().cuLaunchKernelEx(&la.config, reinterpret_cast<CUfunction>(k.kernel), la.args, nullptr),
        "cuLaunchKernelEx");
  rt.count_launch();
}

}  // namespace normjit::detail

#include "heuristics.hpp"

#include <fmt/format.h>

#include "normjit/errors.hpp"

namespace normjit::detail {

int vector_width(std::int64_t hidden, int elem_bytes, int max_vec) {
  int limit = 16 / elem_bytes;
  if (max_vec > 0 && max_vec < limit) limit = max_vec;
  int v = 1;
  while (v * 2 <= limit && hidden % (v * 2) == 0) v *= 2;
  return v;
}

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
  c.arch = arch;
  c.vec = vector_width(p.hidden, dtype_size(p.dtype), max_vec);
  const std::int64_t vectors = p.hidden / c.vec;
  // About 4 vectors per thread keeps several 16-byte loads in flight per thread while a row
  // stays in registers (<= 64 fp32 values per thread at 1024 threads).
  constexpr std::int64_t kItemsPerThread = 4;
  int tpr = 1;
  while (tpr < 1024 && (vectors + tpr - 1) / tpr > kItemsPerThread) tpr *= 2;
  c.threads_per_row = tpr;
  // Small rows share a block so that a block has at least 128 threads.
  c.rows_per_block = tpr >= 128 ? 1 : 128 / tpr;
  c.cluster = 1;
  return c;
}

}  // namespace normjit::detail

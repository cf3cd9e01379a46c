#include "op_registry.hpp"

#include <string>
#include <vector>

#include "heuristics.hpp"

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

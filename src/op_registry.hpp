// The one table that maps each op to its kernel template, its fusion flags and its heuristic.
#pragma once
#include <string_view>

#include "arch.hpp"
#include "kernel_config.hpp"
#include "normjit/runtime.hpp"

namespace normjit::detail {

// Picks the kernel config for a problem on a GPU. `max_vec` is the widest vector (in elements)
// the call's pointers and strides allow. Pure function; throws ValidationError(Unsupported)
// when the problem is outside what the template supports.
using Heuristic = KernelConfig (*)(const ProblemSpec& problem, int max_vec, Arch arch);

struct OpInfo {
  Op op;
  std::string_view name;           // public name (flashinfer's)
  std::string_view template_file;  // in kernel_templates/
  std::string_view device_fn;      // template function taking <Cfg>(const NormParams&)
  bool residual;                   // fused residual add
  bool gemma;                      // weight offset 1
  bool allows_rank3;               // per-head [batch, heads, head_dim] form
  Heuristic choose;
};

const OpInfo& op_info(Op op);

}  // namespace normjit::detail

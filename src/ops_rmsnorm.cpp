// rmsnorm, gemma_rmsnorm, fused_add_rmsnorm, gemma_fused_add_rmsnorm: validation, problem ->
// config, parameter packing (spec: rmsnorm.md).
#include <fmt/format.h>

#include <cstdint>

#include "heuristics.hpp"
#include "launch.hpp"
#include "ops_rmsnorm.hpp"
#include "normjit/ops.hpp"
#include "op_registry.hpp"
#include "runtime.hpp"
#include "validate.hpp"

namespace normjit {
namespace detail {
namespace {

using Kind = ValidationError::Kind;

// A 3-D [B, N, D] view whose rows are equally spaced is addressed like 2-D with that spacing.
bool flat_rows(const TensorView& t, std::int64_t* row_stride) {
  if (t.ndim == 2) {
    *row_stride = t.stride[0];
    return true;
  }
  if (t.shape[0] == 1 || t.stride[0] == t.stride[1] * t.shape[1]) {
    *row_stride = t.shape[1] == 1 ? t.stride[0] : t.stride[1];
    return true;
  }
  if (t.shape[1] == 1) {
    *row_stride = t.stride[0];
    return true;
  }
  return false;
}

// Every field of `p` (a field added to NormParams must be set here too: its size is checked).
static_assert(sizeof(NormParams) == 112, "set_params sets each of NormParams' fields");
void set_params(NormParams* p, const RowTensor& input, const RowTensor& out, const RowTensor& residual,
                const void* weight, std::int64_t rows, std::int64_t inner, double eps) {
  p->input = input;
  p->out = out;
  p->residual = residual;
  p->weight = weight;
  p->rows = rows;
  p->inner = inner;
  p->eps = float(eps);
  p->flags = 0;  // prepare_launch sets the launch's flags and the per-head row division
  p->inner_mul = 0;
  p->inner_shift = 0;
}

// Problem -> config for the tensors' device (vector width limited by every tensor's alignment).
// Everything here runs after validation.
void choose(Op op, const TensorView& in, const TensorView& weight, bool rank3,
            std::initializer_list<const TensorView*> tensors, const LaunchOptions& o, PreparedCall* call) {
  const NormParams& p = call->p;
  ProblemSpec ps;
  ps.op = op;
  ps.dtype = in.dtype;
  ps.weight_dtype = weight.dtype;
  ps.hidden = in.shape[in.ndim - 1];
  ps.rank3 = rank3;
  ps.rows = p.rows;
  // Validation lets an output overlap its input only as the very same view.
  ps.out_aliases_input = p.out.ptr == p.input.ptr;
  const Arch arch = Runtime::get().device_arch(in.device);
  // The promise matters only where the kernel waits for its predecessor (PDL).
  ps.static_weight = o.static_weight && uses_pdl(o, arch);
  // Dense rows (KernelConfig::dense): also fewer than 2^30 of them, which such kernels number in
  // 32 bits (a row number plus a block's rows stays below 2^31).
  ps.dense_rows = !rank3 && p.rows < (std::int64_t(1) << 30) && p.input.stride0 == ps.hidden &&
                  p.out.stride0 == ps.hidden && (!op_info(op).residual || p.residual.stride0 == ps.hidden);
  // Per-head rows whose heads a kernel can address by block (KernelConfig::head_blocks; only
  // rmsnorm and gemma_rmsnorm pass rank3).
  if (rank3 && head_blocks_addressable(p.inner, p.input.stride1, p.out.stride1)) ps.heads = p.inner;
  call->config = choose_config(ps, max_vector(in.dtype, tensors), arch);
  call->device = in.device;
}

void check_hidden(const Validator& v, std::int64_t hidden) {
  if (hidden < 1)
    v.fail(Kind::InvalidArgument, "input", "expected a hidden size (last dimension) >= 1, got {}",
           hidden);
  if (hidden > kMaxRmsHidden)
    v.fail(Kind::Unsupported, "input", "hidden size {} is above the supported maximum {}", hidden,
           kMaxRmsHidden);
}

}  // namespace

PreparedCall prepare_rmsnorm(Op op, const RmsnormArgs& a, const LaunchOptions& o) {
  const Validator v(op_info(op).name.data());
  const TensorView& in = a.input;
  v.tensor("input", in);
  v.ndim("input", in, {2, 3});
  v.dtype("input", in, {DType::bf16, DType::f16, DType::f32});
  const std::int64_t hidden = in.shape[in.ndim - 1];
  check_hidden(v, hidden);
  v.weight("weight", a.weight, hidden, in.dtype);
  v.same_device("weight", a.weight, in);
  const TensorView& out = a.out ? *a.out : in;
  const char* out_arg = a.out ? "out" : "input (written in place)";
  if (a.out) {
    v.tensor("out", out);
    v.same_shape("out", out, "input", in);
    v.dtype("out", out, {in.dtype});
    v.same_device("out", out, in);
    v.no_overlap("out", out, "input", in, /*allow_exact_alias=*/true);
  }
  v.rows_disjoint(out_arg, out);
  v.no_overlap(out_arg, out, "weight", a.weight);
  v.eps(a.eps);

  // The leading dimensions' product rather than numel / hidden, a division on every call.
  const std::int64_t rows = in.ndim == 2 ? in.shape[0] : in.shape[0] * in.shape[1];
  if (rows == 0) return PreparedCall{};

  PreparedCall call;
  std::int64_t in_rs = 0, out_rs = 0;
  const bool flat = flat_rows(in, &in_rs) && flat_rows(out, &out_rs);
  const RowTensor none{nullptr, 0, 0};
  if (flat)
    set_params(&call.p, {in.data, in_rs, 0}, {out.data, out_rs, 0}, none, a.weight.data, rows, 1, a.eps);
  else
    set_params(&call.p, {in.data, in.stride[0], in.stride[1]}, {out.data, out.stride[0], out.stride[1]}, none,
               a.weight.data, rows, in.shape[1], a.eps);

  choose(op, in, a.weight, /*rank3=*/!flat, {&in, &out, &a.weight}, o, &call);
  return call;
}

PreparedCall prepare_fused_add(Op op, const FusedAddRmsnormArgs& a, const LaunchOptions& o) {
  const Validator v(op_info(op).name.data());
  const TensorView& in = a.input;
  const TensorView& res = a.residual;
  v.tensor("input", in);
  v.ndim("input", in, {2});
  v.dtype("input", in, {DType::bf16, DType::f16, DType::f32});
  const std::int64_t hidden = in.shape[1];
  check_hidden(v, hidden);
  v.tensor("residual", res);
  v.same_shape("residual", res, "input", in);
  v.dtype("residual", res, {in.dtype});
  v.same_device("residual", res, in);
  v.weight("weight", a.weight, hidden, in.dtype);
  v.same_device("weight", a.weight, in);
  v.rows_disjoint("input", in);
  v.rows_disjoint("residual", res);
  v.no_overlap("residual", res, "input", in);
  v.no_overlap("input", in, "weight", a.weight);
  v.no_overlap("residual", res, "weight", a.weight);
  v.eps(a.eps);

  const std::int64_t rows = in.shape[0];
  if (rows == 0) return PreparedCall{};

  PreparedCall call;
  const RowTensor x{in.data, in.stride[0], 0};  // the normalized result replaces the input
  set_params(&call.p, x, x, {res.data, res.stride[0], 0}, a.weight.data, rows, 1, a.eps);

  choose(op, in, a.weight, /*rank3=*/false, {&in, &res, &a.weight}, o, &call);
  return call;
}

namespace {

void run(const PreparedCall& call, const LaunchOptions& o) {
  if (call.p.rows > 0) launch_norm(call.config, call.p, o, call.device);
}

}  // namespace
}  // namespace detail

void rmsnorm(const RmsnormArgs& args, const LaunchOptions& opts) {
  detail::run(detail::prepare_rmsnorm(Op::rmsnorm, args, opts), opts);
}
void gemma_rmsnorm(const RmsnormArgs& args, const LaunchOptions& opts) {
  detail::run(detail::prepare_rmsnorm(Op::gemma_rmsnorm, args, opts), opts);
}
void fused_add_rmsnorm(const FusedAddRmsnormArgs& args, const LaunchOptions& opts) {
  detail::run(detail::prepare_fused_add(Op::fused_add_rmsnorm, args, opts), opts);
}
void gemma_fused_add_rmsnorm(const FusedAddRmsnormArgs& args, const LaunchOptions& opts) {
  detail::run(detail::prepare_fused_add(Op::gemma_fused_add_rmsnorm, args, opts), opts);
}

}  // namespace normjit

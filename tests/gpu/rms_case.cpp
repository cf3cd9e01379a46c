#include "rms_case.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "op_registry.hpp"
#include "support/gpu.hpp"
#include "support/reference.hpp"

namespace njtest {
using normjit::DType;
using normjit::Op;

std::string RmsCase::describe() const {
  const char* forms[] = {"out", "aliased-out", "in-place"};
  return fmt::format("{} {} w={} rows={} hidden={}{} {}{}{} pdl={}{} eps={}",
                     normjit::op_name(op), normjit::dtype_name(dtype),
                     normjit::dtype_name(weight_dtype), rows, hidden,
                     heads ? fmt::format(" heads={} ({})", heads,
                                         heads_outer ? "input heads-outermost" : nonflat_input ? "input non-flat" : "out non-flat")
                           : "",
                     forms[int(form)], strided ? " strided" : "", misaligned ? " misaligned" : "",
                     pdl ? (*pdl ? "on" : "off") : "unset", static_weight ? " static-weight" : "", eps);
}

namespace {

// A host mirror of one device tensor laid out with arbitrary row strides inside a buffer.
struct Layout {
  std::int64_t offset = 0;               // elements before the first one
  std::int64_t s0 = 0, s1 = 0;           // strides of dims 0 and 1 (3-D: batch, head)
  std::int64_t d0 = 0, d1 = 1;           // sizes of the row dims (d1 = heads or 1)
  std::int64_t elements = 0;             // buffer size in elements
  std::int64_t row_start(std::int64_t r) const { return offset + (r / d1) * s0 + (r % d1) * s1; }
};

// NORMJIT_TEST_TIGHT_BUFFERS=1 (scripts/gpu_sanitize.sh): each buffer ends where its last row
// does, so that compute-sanitizer's memcheck sees any access past it. By default a row of slack
// follows, which the check below finds untouched if a kernel wrote past the end.
bool tight_buffers() {
  static const bool tight = [] {
    const char* v = std::getenv("NORMJIT_TEST_TIGHT_BUFFERS");
    return v && std::string(v) == "1";
  }();
  return tight;
}

Layout make_layout(std::int64_t d0, std::int64_t d1, std::int64_t hidden, std::int64_t pad,
                   bool nonflat, bool misaligned, bool heads_outer = false) {
  Layout l;
  l.offset = misaligned ? 1 : 0;
  l.d0 = d0;
  l.d1 = d1;
  const std::int64_t row = hidden + pad;
  if (heads_outer) {  // [d1, d0, row] in memory: a head's rows of every token, then the next head
    l.s0 = row;
    l.s1 = row * std::max<std::int64_t>(d0, 1);
    const std::int64_t end = l.offset + (std::max<std::int64_t>(d0, 1) - 1) * l.s0 + (d1 - 1) * l.s1 + hidden;
    l.elements = tight_buffers() ? end : end - hidden + 2 * row;  // else a row of slack, as below
    return l;
  }
  l.s1 = row;
  l.s0 = row * d1 * (nonflat ? 2 : 1);
  l.elements = tight_buffers() ? l.offset + (std::max<std::int64_t>(d0, 1) - 1) * l.s0 + (d1 - 1) * l.s1 + hidden
                               : l.offset + std::max<std::int64_t>(d0, 1) * l.s0 + row;
  return l;
}

normjit::TensorView view(void* base, DType dt, const Layout& l, std::int64_t hidden, bool rank3,
                         int device) {
  normjit::TensorView t;
  t.device = device;
  t.data = static_cast<char*>(base) + l.offset * normjit::dtype_size(dt);
  t.dtype = dt;
  if (rank3) {
    t.ndim = 3;
    t.shape[0] = l.d0; t.shape[1] = l.d1; t.shape[2] = hidden;
    t.stride[0] = l.s0; t.stride[1] = l.s1; t.stride[2] = 1;
  } else {
    t.ndim = 2;
    t.shape[0] = l.d0; t.shape[1] = hidden;
    t.stride[0] = l.s0; t.stride[1] = 1;
  }
  return t;
}

}  // namespace

std::string run_rms_case(const RmsCase& c, std::mt19937_64& rng) {
  const bool fused = normjit::detail::op_info(c.op).residual;
  const bool gemma = normjit::detail::op_info(c.op).gemma;
  const bool rank3 = c.heads > 0;
  const std::int64_t d1 = rank3 ? c.heads : 1;
  const std::int64_t nrows = c.rows * d1;
  const std::int64_t H = c.hidden;
  const int es = normjit::dtype_size(c.dtype);

  const Layout in_l = make_layout(c.rows, d1, H, c.strided ? 8 : 0, rank3 && c.nonflat_input, c.misaligned,
                                  rank3 && c.heads_outer);
  const bool separate = !fused && c.form == OutForm::Separate;
  const Layout out_l = separate ? make_layout(c.rows, d1, H, c.strided ? 24 : 0,
                                              rank3 && !c.nonflat_input, false)
                                : in_l;
  const Layout res_l = make_layout(c.rows, 1, H, c.strided ? 40 : 0, false, false);

  // Host data: every byte random (padding too), so untouched bytes can be checked.
  std::vector<unsigned char> in_h(size_t(in_l.elements * es)), w_h(size_t(H * normjit::dtype_size(c.weight_dtype)));
  std::vector<unsigned char> res_h(fused ? size_t(res_l.elements * es) : 0);
  fill_random(c.dtype, in_h.data(), in_l.elements, rng, 1.0, 0.0);
  fill_random(c.weight_dtype, w_h.data(), H, rng, 0.5, gemma ? 0.0 : 1.0);
  if (fused) fill_random(c.dtype, res_h.data(), res_l.elements, rng, 1.0, 0.0);

  DeviceBuffer in_d(in_h.size(), c.device), w_d(w_h.size(), c.device),
      out_d(separate ? size_t(out_l.elements * es) : 0, c.device), res_d(res_h.size(), c.device);
  in_d.upload(in_h.data(), in_h.size());
  w_d.upload(w_h.data(), w_h.size());
  if (fused) res_d.upload(res_h.data(), res_h.size());
  if (separate) out_d.fill(0xFF);  // NaN everywhere: unwritten elements cannot pass

  normjit::LaunchOptions o;
  o.stream = static_cast<normjit::Stream>(c.stream);
  o.enable_pdl = c.pdl;
  o.static_weight = c.static_weight;
  normjit::TensorView in_v = view(in_d.get(), c.dtype, in_l, H, rank3, c.device);
  normjit::TensorView w_v = normjit::make_tensor(w_d.get(), c.weight_dtype, {H}, c.device);
  if (fused) {
    normjit::FusedAddRmsnormArgs a;
    a.input = in_v;
    a.residual = view(res_d.get(), c.dtype, res_l, H, false, c.device);
    a.weight = w_v;
    a.eps = c.eps;
    (c.op == Op::fused_add_rmsnorm ? normjit::fused_add_rmsnorm : normjit::gemma_fused_add_rmsnorm)(a, o);
  } else {
    normjit::RmsnormArgs a;
    a.input = in_v;
    a.weight = w_v;
    a.eps = c.eps;
    if (c.form == OutForm::Separate) a.out = view(out_d.get(), c.dtype, out_l, H, rank3, c.device);
    if (c.form == OutForm::Aliased) a.out = in_v;
    (c.op == Op::rmsnorm ? normjit::rmsnorm : normjit::gemma_rmsnorm)(a, o);
  }
  check_cu(normjit::detail::driver().cuCtxSynchronize(), "cuCtxSynchronize after the op");

  std::vector<unsigned char> out_got(separate ? out_d.bytes() : in_h.size());
  (separate ? out_d : in_d).download(out_got.data(), out_got.size());
  std::vector<unsigned char> res_got(res_h.size());
  if (fused) res_d.download(res_got.data(), res_got.size());

  // Every row against the float64 reference, rows split over the host's cores (the widest
  // cases hold 10^8 elements). Each part counts its failures and keeps its first; the parts
  // merge in row order, so the message names the first failing row as a single pass would.
  // Rows never share elements, so the parts' marks of written elements touch distinct bytes.
  std::vector<char> written(size_t(out_got.size() / size_t(es)), 0);
  std::vector<char> res_written(size_t(res_h.size() / size_t(es) + 1), 0);
  std::vector<double> w(static_cast<size_t>(H));
  for (std::int64_t j = 0; j < H; ++j) w[size_t(j)] = get(c.weight_dtype, w_h.data(), j);
  const double offset = gemma ? 1.0 : 0.0;
  struct Part {
    std::int64_t bad = 0;
    std::string first;
  };
  const int parts = nrows * H >= (std::int64_t(1) << 20) ? worker_threads() : 1;
  std::vector<Part> results(static_cast<size_t>(parts));
  parallel_ranges(nrows, parts, [&](std::int64_t r0, std::int64_t r1, int part) {
    Part& out = results[size_t(part)];
    std::vector<double> v(static_cast<size_t>(H)), y;
    for (std::int64_t r = r0; r < r1; ++r) {
      const std::int64_t is = in_l.row_start(r), os = out_l.row_start(r), rs = res_l.row_start(r);
      for (std::int64_t j = 0; j < H; ++j) {
        const double x = get(c.dtype, in_h.data(), is + j);
        if (fused) {
          const float h = float(x) + float(get(c.dtype, res_h.data(), rs + j));  // fp32 add, RN
          v[size_t(j)] = h;
          const double got_r = get(c.dtype, res_got.data(), rs + j);
          res_written[size_t(rs + j)] = 1;
          if (got_r != round_to(c.dtype, h) && !(std::isnan(got_r) && std::isnan(h))) {
            if (!out.bad++)
              out.first = fmt::format("residual row {} col {}: got {} want {}", r, j, got_r, round_to(c.dtype, h));
          }
        } else {
          v[size_t(j)] = x;
        }
      }
      rms_row(v, w, offset, c.eps, &y);
      for (std::int64_t j = 0; j < H; ++j) {
        const double got = get(c.dtype, out_got.data(), os + j);
        written[size_t(os + j)] = 1;
        if (!within_steps(c.dtype, got, y[size_t(j)])) {
          if (!out.bad++)
            out.first = fmt::format("out row {} col {}: got {} want {} (ref rounded {})", r, j, got, y[size_t(j)],
                                    round_to(c.dtype, y[size_t(j)]));
        }
      }
    }
  });
  std::int64_t bad = 0;
  std::string first;
  for (const Part& part : results) {
    if (first.empty()) first = part.first;
    bad += part.bad;
  }
  // Bytes outside the rows must be exactly as before (poison for `out`, data otherwise).
  const std::vector<unsigned char>& before_out = in_h;
  for (size_t e = 0; e < written.size(); ++e) {
    if (written[e]) continue;
    const bool same = separate ? (out_got[e * size_t(es)] == 0xFF && out_got[e * size_t(es) + size_t(es) - 1] == 0xFF)
                               : std::memcmp(&out_got[e * size_t(es)], &before_out[e * size_t(es)], size_t(es)) == 0;
    if (!same) {
      if (!bad++) first = fmt::format("element {} outside the rows was modified", e);
    }
  }
  if (fused) {
    for (size_t e = 0; e + 1 < res_written.size(); ++e) {
      if (res_written[e]) continue;
      if (std::memcmp(&res_got[e * size_t(es)], &res_h[e * size_t(es)], size_t(es)) != 0) {
        if (!bad++) first = fmt::format("residual element {} outside the rows was modified", e);
      }
    }
  }
  if (separate) {  // a separate `out` leaves the input untouched
    std::vector<unsigned char> in_after(in_h.size());
    in_d.download(in_after.data(), in_after.size());
    if (in_after != in_h && !bad++) first = "input was modified although out was separate";
  }
  if (!bad) return "";
  return fmt::format("{}: {} bad elements; first: {}", c.describe(), bad, first);
}

}  // namespace njtest

#include "validate.hpp"

#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace normjit::detail {
using Kind = ValidationError::Kind;

std::int64_t numel(const TensorView& t) {
  std::int64_t n = 1;
  for (int i = 0; i < t.ndim; ++i) n *= t.shape[i];
  return n;
}

std::string shape_str(const TensorView& t) {
  return fmt::format("[{}]", fmt::join(t.shape, t.shape + std::max(0, std::min(t.ndim, kMaxDims)), ", "));
}

static std::string stride_str(const TensorView& t) {
  return fmt::format("[{}]", fmt::join(t.stride, t.stride + std::max(0, std::min(t.ndim, kMaxDims)), ", "));
}

void Validator::tensor(const char* arg, const TensorView& t, bool contiguous_last) const {
  if (t.ndim < 1 || t.ndim > kMaxDims)
    fail(Kind::InvalidArgument, arg, "expected 1 to {} dimensions, got {}", kMaxDims, t.ndim);
  if (dtype_size(t.dtype) == 0)
    fail(Kind::InvalidArgument, arg, "unknown dtype code {}", int(t.dtype));
  for (int i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0)
      fail(Kind::InvalidArgument, arg, "expected non-negative sizes, got shape {}", shape_str(t));
    if (t.stride[i] < 0)
      fail(Kind::InvalidArgument, arg, "expected non-negative strides, got strides {}", stride_str(t));
  }
  if (t.device < 0)
    fail(Kind::InvalidArgument, arg, "expected a CUDA device ordinal >= 0, got {}", t.device);
  if (numel(t) == 0) return;
  if (t.data == nullptr)
    fail(Kind::InvalidArgument, arg, "expected a device pointer, got null (shape {})", shape_str(t));
  const auto addr = reinterpret_cast<std::uintptr_t>(t.data);
  if (addr % std::uintptr_t(dtype_size(t.dtype)) != 0)
    fail(Kind::InvalidArgument, arg, "expected an address aligned to {} bytes ({}), got {:#x}",
         dtype_size(t.dtype), dtype_name(t.dtype), addr);
  if (contiguous_last && t.shape[t.ndim - 1] > 1 && t.stride[t.ndim - 1] != 1)
    fail(Kind::InvalidArgument, arg, "expected stride 1 in the last dimension, got strides {}",
         stride_str(t));
}

void Validator::ndim(const char* arg, const TensorView& t, std::initializer_list<int> allowed) const {
  if (std::find(allowed.begin(), allowed.end(), t.ndim) == allowed.end())
    fail(Kind::InvalidArgument, arg, "expected {} dimensions, got {} (shape {})",
         fmt::join(allowed, " or "), t.ndim, shape_str(t));
}

void Validator::dtype(const char* arg, const TensorView& t, std::initializer_list<DType> allowed) const {
  if (std::find(allowed.begin(), allowed.end(), t.dtype) != allowed.end()) return;
  std::vector<std::string_view> names;
  for (DType d : allowed) names.push_back(dtype_name(d));
  fail(Kind::InvalidArgument, arg, "expected dtype {}, got {}", fmt::join(names, " or "),
       dtype_name(t.dtype));
}

void Validator::same_shape(const char* arg, const TensorView& t, const char* ref_arg,
                           const TensorView& ref) const {
  bool same = t.ndim == ref.ndim;
  for (int i = 0; same && i < t.ndim; ++i) same = t.shape[i] == ref.shape[i];
  if (!same)
    fail(Kind::InvalidArgument, arg, "expected the shape of {} {}, got {}", ref_arg,
         shape_str(ref), shape_str(t));
}

void Validator::same_device(const char* arg, const TensorView& t, const TensorView& ref) const {
  if (t.device != ref.device)
    fail(Kind::InvalidArgument, arg, "expected device {} (that of input), got device {}",
         ref.device, t.device);
}

void Validator::weight(const char* arg, const TensorView& w, std::int64_t hidden, DType act) const {
  tensor(arg, w);
  if (w.ndim != 1 || w.shape[0] != hidden)
    fail(Kind::InvalidArgument, arg, "expected shape [{}], got {}", hidden, shape_str(w));
  if (w.dtype != act && w.dtype != DType::f32)
    fail(Kind::InvalidArgument, arg, "expected dtype {} (the input's) or f32, got {}",
         dtype_name(act), dtype_name(w.dtype));
}

void Validator::rows_disjoint(const char* arg, const TensorView& t) const {
  // Sort the non-trivial dims by stride; each stride must step over everything the faster
  // dims cover, which is exactly "no two elements share an address".
  // On the stack and left uninitialized past n: this runs on every call, where a heap vector
  // cost a malloc and a free and zeroing the array (std::pair's constructor) a rep stos.
  struct Dim {
    std::int64_t stride, size;
  };
  Dim dims[kMaxDims];
  int n = 0;
  for (int i = 0; i < t.ndim; ++i)
    if (t.shape[i] > 1) dims[n++] = {t.stride[i], t.shape[i]};
  auto before = [](const Dim& a, const Dim& b) { return a.stride < b.stride || (a.stride == b.stride && a.size < b.size); };
  for (int i = 1; i < n; ++i)  // insertion sort: at most kMaxDims entries
    for (int j = i; j > 0 && before(dims[j], dims[j - 1]); --j) std::swap(dims[j], dims[j - 1]);
  std::int64_t extent = 1;
  for (int i = 0; i < n; ++i) {
    const auto [stride, size] = dims[i];
    if (stride < extent)
      fail(Kind::InvalidArgument, arg,
           "expected a layout whose elements do not overlap (it is written), got shape {} with "
           "strides {}",
           shape_str(t), stride_str(t));
    extent = stride * (size - 1) + extent;
  }
}

namespace {
struct Span {
  std::uintptr_t begin, end;
};
Span span(const TensorView& t) {
  std::int64_t last = 0;
  for (int i = 0; i < t.ndim; ++i) last += (t.shape[i] - 1) * t.stride[i];
  const auto b = reinterpret_cast<std::uintptr_t>(t.data);
  return {b, b + std::uintptr_t(last + 1) * std::uintptr_t(dtype_size(t.dtype))};
}
bool identical(const TensorView& a, const TensorView& b) {
  if (a.data != b.data || a.dtype != b.dtype || a.ndim != b.ndim) return false;
  for (int i = 0; i < a.ndim; ++i)
    if (a.shape[i] != b.shape[i] || (a.shape[i] > 1 && a.stride[i] != b.stride[i])) return false;
  return true;
}
}  // namespace

void Validator::no_overlap(const char* a_arg, const TensorView& a, const char* b_arg,
                           const TensorView& b, bool allow_exact_alias) const {
  if (numel(a) == 0 || numel(b) == 0) return;
  if (allow_exact_alias && identical(a, b)) return;
  const Span x = span(a), y = span(b);
  if (x.begin < y.end && y.begin < x.end) {
    fail(Kind::InvalidArgument, a_arg, "must not overlap {}{} (memory {:#x}..{:#x} vs {:#x}..{:#x})",
         b_arg, allow_exact_alias ? " except as the identical view (same pointer and strides)" : "",
         x.begin, x.end, y.begin, y.end);
  }
}

void Validator::eps(double eps) const {
  if (!std::isfinite(eps) || eps < 0)
    fail(Kind::InvalidArgument, "eps", "expected a finite value >= 0, got {}", eps);
}

int max_vector(DType act, std::initializer_list<const TensorView*> tensors) {
  int v = 16 / dtype_size(act);
  // Alignment to min(16, vec x element) bytes, a power of two, by mask: this runs on every call,
  // and a modulo by a run-time value is a division.
  auto ok = [&](int vec) {
    for (const TensorView* t : tensors) {
      const std::int64_t e = dtype_size(t->dtype);
      const std::uint64_t mask = std::uint64_t(std::min<std::int64_t>(16, vec * e)) - 1;
      if ((reinterpret_cast<std::uintptr_t>(t->data) & mask) != 0) return false;
      for (int i = 0; i + 1 < t->ndim; ++i)
        if (t->shape[i] > 1 && (std::uint64_t(t->stride[i] * e) & mask) != 0) return false;
    }
    return true;
  };
  while (v > 1 && !ok(v)) v /= 2;
  return v;
}

}  // namespace normjit::detail

// Argument checks shared by every op. Each failure throws ValidationError whose message names
// the op, the argument, the expected property and the actual value. Nothing here touches the
// GPU, so every check runs before anything is launched.
#pragma once
#include <fmt/format.h>

#include <initializer_list>
#include <string>

#include "normjit/dtype.hpp"
#include "normjit/errors.hpp"

namespace normjit::detail {

class Validator {
 public:
  explicit Validator(const char* op) : op_(op) {}

  template <class... Args>
  [[noreturn]] void fail(ValidationError::Kind kind, const char* arg,
                         fmt::format_string<Args...> f, Args&&... args) const {
    throw ValidationError(kind, fmt::format("normjit.{}: {}: {}", op_, arg,
                                            fmt::format(f, std::forward<Args>(args)...)));
  }

  // Shape/stride sanity, non-null data, element alignment of the base address, last-dim
  // stride 1 when `contiguous_last`.
  void tensor(const char* arg, const TensorView& t, bool contiguous_last = true) const;
  void ndim(const char* arg, const TensorView& t, std::initializer_list<int> allowed) const;
  void dtype(const char* arg, const TensorView& t, std::initializer_list<DType> allowed) const;
  void same_shape(const char* arg, const TensorView& t, const char* ref_arg,
                  const TensorView& ref) const;
  void same_device(const char* arg, const TensorView& t, const TensorView& ref) const;
  // 1-D [hidden], contiguous; dtype = activation dtype or f32.
  void weight(const char* arg, const TensorView& w, std::int64_t hidden, DType act) const;
  // A written tensor must not have rows that overlap each other.
  void rows_disjoint(const char* arg, const TensorView& t) const;
  // `a` and `b` must not share memory (unless `allow_exact_alias` and they are identical views).
  void no_overlap(const char* a_arg, const TensorView& a, const char* b_arg, const TensorView& b,
                  bool allow_exact_alias = false) const;
  void eps(double eps) const;

 private:
  const char* op_;
};

std::int64_t numel(const TensorView& t);
std::string shape_str(const TensorView& t);
// Widest vector (elements of the activation dtype) every tensor's address and strides allow.
int max_vector(DType act, std::initializer_list<const TensorView*> tensors);

}  // namespace normjit::detail

#include <string>

#include "normjit/dtype.hpp"

namespace normjit {

std::string_view dtype_name(DType t) noexcept {
  switch (t) {
    case DType::f32: return "f32";
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
    case DType::fp8_e4m3: return "fp8_e4m3";
    case DType::fp8_e5m2: return "fp8_e5m2";
    case DType::u8: return "u8";
    case DType::i32: return "i32";
  }
  return "invalid";
}

int dtype_size(DType t) noexcept {
  switch (t) {
    case DType::f32: case DType::i32: return 4;
    case DType::f16: case DType::bf16: return 2;
    case DType::fp8_e4m3: case DType::fp8_e5m2: case DType::u8: return 1;
  }
  return 0;
}

bool parse_dtype(std::string_view n, DType* out) noexcept {
  struct Alias { std::string_view name; DType t; };
  static constexpr Alias kAliases[] = {
      {"f32", DType::f32},       {"fp32", DType::f32},          {"float32", DType::f32},
      {"float", DType::f32},     {"f16", DType::f16},           {"fp16", DType::f16},
      {"float16", DType::f16},   {"half", DType::f16},          {"bf16", DType::bf16},
      {"bfloat16", DType::bf16}, {"fp8_e4m3", DType::fp8_e4m3}, {"e4m3", DType::fp8_e4m3},
      {"fp8_e5m2", DType::fp8_e5m2}, {"e5m2", DType::fp8_e5m2}, {"u8", DType::u8},
      {"uint8", DType::u8},      {"i32", DType::i32},           {"int32", DType::i32},
  };
  for (const Alias& a : kAliases) {
    if (a.name == n) {
      *out = a.t;
      return true;
    }
  }
  return false;
}

TensorView make_tensor(void* data, DType dtype, std::initializer_list<std::int64_t> shape,
                       int device) {
  TensorView t;
  t.data = data;
  t.dtype = dtype;
  t.ndim = int(shape.size());
  t.device = device;
  int i = 0;
  for (std::int64_t s : shape) t.shape[i++] = s;
  std::int64_t stride = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    t.stride[d] = stride;
    stride *= t.shape[d];
  }
  return t;
}

}  // namespace normjit

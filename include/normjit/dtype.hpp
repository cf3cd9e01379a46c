// Element types and the non-owning tensor view every op takes.
#pragma once
#include <cstdint>
#include <string_view>

namespace normjit {

enum class DType : std::uint8_t { f32 = 0, f16 = 1, bf16 = 2, fp8_e4m3 = 3, fp8_e5m2 = 4, u8 = 5, i32 = 6 };

constexpr int kMaxDims = 8;

// Strides are in elements. `device` is the CUDA device ordinal the memory lives on.
struct TensorView {
  void* data = nullptr;
  DType dtype = DType::f32;
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t stride[kMaxDims] = {};
  int device = 0;
};

std::string_view dtype_name(DType t) noexcept;  // "bf16", "f16", "f32", ...
int dtype_size(DType t) noexcept;                // bytes per element
bool parse_dtype(std::string_view name, DType* out) noexcept;  // accepts "fp16"/"float16" etc.

// Builds a contiguous row-major view (strides derived from the shape).
TensorView make_tensor(void* data, DType dtype, std::initializer_list<std::int64_t> shape,
                       int device = 0);

}  // namespace normjit

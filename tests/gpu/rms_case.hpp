// One RMSNorm-family GPU check: build inputs with fresh random data in the requested layout,
// poison every output byte, run the op, and compare every element (and every untouched
// padding byte) with the float64 reference.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "normjit/normjit.hpp"

namespace njtest {

enum class OutForm { Separate, Aliased, InPlace };

struct RmsCase {
  normjit::Op op = normjit::Op::rmsnorm;
  normjit::DType dtype = normjit::DType::bf16;
  normjit::DType weight_dtype = normjit::DType::bf16;
  std::int64_t rows = 1;      // 2-D rows, or batch for 3-D
  std::int64_t hidden = 1;
  std::int64_t heads = 0;     // > 0: 3-D [rows, heads, hidden]
  bool nonflat_input = true;  // 3-D: input is a [B, 2N, D][:, :N] view (else out is)
  bool heads_outer = false;   // 3-D: the input's memory is [N, B, D] (a transposed view; out as
                              // the input when in place, else token-major)
  OutForm form = OutForm::Separate;
  bool strided = false;       // row strides > hidden (different for each tensor)
  bool misaligned = false;    // base address off by one element: scalar path
  std::optional<bool> pdl;
  bool static_weight = false; // LaunchOptions::static_weight (the weight read before the PDL wait)
  double eps = 1e-6;
  void* stream = nullptr;
  int device = 0;             // where the buffers live (the op follows its tensors)

  std::string describe() const;
};

// Returns "" on success, else a description of the first problem.
std::string run_rms_case(const RmsCase& c, std::mt19937_64& rng);

}  // namespace njtest

// KernelConfig -> the only generated device text: a Cfg struct, static_asserts that re-check
// what the heuristic promised, and one extern "C" entry calling the op's template function.
#pragma once
#include <string>

#include "kernel_config.hpp"

namespace normjit::detail {

constexpr const char* kEntryName = "normjit_entry";

std::string prelude(const KernelConfig& c);

}  // namespace normjit::detail

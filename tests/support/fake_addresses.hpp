// Fake device addresses for tests that build tensors without a GPU: far apart (64 GiB) and
// 256-byte aligned, never dereferenced (validation only looks at them; the fake driver records
// them).
#pragma once
#include <cstdint>

namespace njtest {

constexpr std::uintptr_t kIn = 0x7f0000000000;
constexpr std::uintptr_t kW = 0x7f1000000000;
constexpr std::uintptr_t kOut = 0x7f2000000000;
constexpr std::uintptr_t kRes = 0x7f3000000000;

inline void* ptr(std::uintptr_t a) { return reinterpret_cast<void*>(a); }

}  // namespace njtest

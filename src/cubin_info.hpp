// Resource use of a kernel in a cubin (registers a thread, stack bytes a thread), read from the
// ELF file's .nv.info attributes: the figures `cuobjdump --dump-resource-usage` prints, without
// the CUDA binary utilities and without a GPU. Heuristics that trade occupancy against a hint
// (choose_rms_norm's output hint) rest on these numbers; tests check them through this reader,
// and `normjit cache ls` shows them.
#pragma once
#include <optional>
#include <string_view>

namespace normjit::detail {

struct KernelResources {
  int registers = 0;    // per thread (EIATTR_REGCOUNT)
  int stack_bytes = 0;  // per thread, spills and local arrays (EIATTR_MIN_STACK_SIZE)
};

// The resources of `kernel` in `cubin` (an ELF64 cubin; a cache entry's payload). nullopt where
// the bytes are not such a cubin, the kernel is not in it, or it carries no register count.
// Every offset is bounds-checked: foreign or truncated bytes give nullopt, never a bad read.
std::optional<KernelResources> kernel_resources(std::string_view cubin, std::string_view kernel);

}  // namespace normjit::detail

// NVRTC, loaded at run time (libnvrtc.so.13 / .12 / NORMJIT_NVRTC_LIBRARY), compiling a
// KernelConfig straight to SASS for its arch, or to PTX when NVRTC is older than the GPU.
#pragma once
#include <string>
#include <vector>

#include "kernel_config.hpp"

namespace normjit::detail {

struct Binary {
  enum class Kind : std::uint32_t { Cubin = 1, Ptx = 2 };
  Kind kind = Kind::Cubin;
  std::string bytes;
  std::string target;   // e.g. "sm_90a" or "compute_120"
  std::string log;      // NVRTC log (warnings), may be empty
  double millis = 0;    // compile time
};

// "13.0"; throws Error when NVRTC cannot be loaded.
std::string nvrtc_version();
// The options every compile uses besides -arch (part of the cache fingerprint).
const std::vector<std::string>& base_compile_options();
// Compiles prelude(c) with the templates as headers. Throws CompileError with the log.
Binary compile(const KernelConfig& c);
// Compiles any self-contained source for `arch` with the base options (tools use this for
// helper kernels). `name` labels the program in errors.
Binary compile_source(const std::string& source, const std::string& name, Arch arch);
// Architectures NVRTC can emit SASS for (e.g. 80, 86, 90, 100).
std::vector<int> nvrtc_supported_archs();
// True when NVRTC can be loaded (never throws).
bool nvrtc_available() noexcept;

}  // namespace normjit::detail

// A stand-in for an NVRTC whose ptxas predates --register-usage-level: loaded through
// NORMJIT_NVRTC_LIBRARY, it refuses any compile that passes that option (as such an NVRTC does,
// with NVRTC_ERROR_INVALID_OPTION) and hands every other call to the real NVRTC, which it links
// (dlsym on this library's handle searches its dependencies for the other entry points).
#include <dlfcn.h>
#include <nvrtc.h>

#include <cstring>

extern "C" nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int num_options, const char* const* options) {
  for (int i = 0; i < num_options; ++i)
    if (std::strstr(options[i], "register-usage-level")) return NVRTC_ERROR_INVALID_OPTION;
  using Fn = nvrtcResult (*)(nvrtcProgram, int, const char* const*);
  static const Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "nvrtcCompileProgram"));
  return real ? real(prog, num_options, options) : NVRTC_ERROR_INTERNAL_ERROR;
}

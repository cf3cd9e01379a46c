#include "nvrtc_compiler.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>

#include "log.hpp"
#include "normjit/errors.hpp"
#include "prelude.hpp"
#include "template_store.hpp"

namespace normjit::detail {
namespace {

struct NvrtcApi {
  const char* (*GetErrorString)(nvrtcResult);
  nvrtcResult (*Version)(int*, int*);
  nvrtcResult (*GetNumSupportedArchs)(int*);
  nvrtcResult (*GetSupportedArchs)(int*);
  nvrtcResult (*CreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                               const char* const*);
  nvrtcResult (*DestroyProgram)(nvrtcProgram*);
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char* const*);
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t*);
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char*);
  nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t*);
  nvrtcResult (*GetCUBIN)(nvrtcProgram, char*);
  nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t*);
  nvrtcResult (*GetPTX)(nvrtcProgram, char*);
  std::string version;
  std::vector<int> archs;  // supported sm numbers, ascending
};

struct Loaded {
  NvrtcApi api{};
  std::string error;
};

Loaded load_nvrtc() {
  Loaded l;
  std::vector<std::string> candidates;
  if (const char* p = std::getenv("NORMJIT_NVRTC_LIBRARY"); p && *p) {
    candidates.push_back(p);
  } else {
    candidates = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
#ifdef NORMJIT_NVRTC_FALLBACK
    candidates.push_back(NORMJIT_NVRTC_FALLBACK);  // the toolkit found at configure time
#endif
  }
  void* h = nullptr;
  std::string tried;
  for (const std::string& c : candidates) {
    h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h) break;
    const char* e = dlerror();
    tried += fmt::format("\n  {}: {}", c, e ? e : "?");
  }
  if (!h) {
    l.error = "normjit: cannot load NVRTC (set NORMJIT_NVRTC_LIBRARY):" + tried;
    return l;
  }
  bool ok = true;
  auto sym = [&](const char* name, auto* fn) {
    void* p = dlsym(h, name);
    if (!p && ok) {
      ok = false;
      l.error = fmt::format("normjit: NVRTC library lacks {}", name);
    }
    *fn = reinterpret_cast<std::remove_pointer_t<decltype(fn)>>(p);
  };
  NvrtcApi& a = l.api;
  sym("nvrtcGetErrorString", &a.GetErrorString);
  sym("nvrtcVersion", &a.Version);
  sym("nvrtcGetNumSupportedArchs", &a.GetNumSupportedArchs);
  sym("nvrtcGetSupportedArchs", &a.GetSupportedArchs);
  sym("nvrtcCreateProgram", &a.CreateProgram);
  sym("nvrtcDestroyProgram", &a.DestroyProgram);
  sym("nvrtcCompileProgram", &a.CompileProgram);
  sym("nvrtcGetProgramLogSize", &a.GetProgramLogSize);
  sym("nvrtcGetProgramLog", &a.GetProgramLog);
  sym("nvrtcGetCUBINSize", &a.GetCUBINSize);
  sym("nvrtcGetCUBIN", &a.GetCUBIN);
  sym("nvrtcGetPTXSize", &a.GetPTXSize);
  sym("nvrtcGetPTX", &a.GetPTX);
  if (!ok) return l;
  int major = 0, minor = 0;
  a.Version(&major, &minor);
  a.version = fmt::format("{}.{}", major, minor);
  int n = 0;
  a.GetNumSupportedArchs(&n);
  a.archs.resize(size_t(n));
  if (n > 0) a.GetSupportedArchs(a.archs.data());
  std::sort(a.archs.begin(), a.archs.end());
  return l;
}

const NvrtcApi& api() {
  static const Loaded l = load_nvrtc();
  if (!l.error.empty()) throw Error(l.error);
  return l.api;
}

void check(const NvrtcApi& a, nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS)
    throw Error(fmt::format("normjit: {} failed: {}", what, a.GetErrorString(r)));
}

struct ProgramDeleter {
  const NvrtcApi* a;
  void operator()(nvrtcProgram p) const { a->DestroyProgram(&p); }
};

}  // namespace

std::string nvrtc_version() { return api().version; }

std::vector<int> nvrtc_supported_archs() { return api().archs; }

bool nvrtc_available() noexcept {
  try {
    api();
    return true;
  } catch (...) {
    return false;
  }
}

const std::vector<std::string>& base_compile_options() {
  // Inference ops are specified with FTZ; divisions and square roots the spec names exactly are
  // written as explicit PTX in the templates, so -prec-* only guard incidental math.
  static const std::vector<std::string> opts = {"-std=c++17", "-ftz=true", "-prec-div=true",
                                                "-prec-sqrt=true", "-fmad=true",
                                                "-default-device"};
  return opts;
}

namespace {

bool contains_text(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

Binary compile_program(const std::string& source, const std::string& name, Arch arch,
                       const std::vector<TemplateFile>& headers, const std::string& config,
                       const std::vector<std::string>& cubin_options = {}) {
  const NvrtcApi& a = api();
  const auto t0 = std::chrono::steady_clock::now();
  Binary bin;
  if (std::binary_search(a.archs.begin(), a.archs.end(), arch.cc)) {
    bin.kind = Binary::Kind::Cubin;
    bin.target = arch.target();
  } else {
    // NVRTC predates this GPU: PTX for the newest arch it knows, JIT-compiled by the driver.
    auto it = std::upper_bound(a.archs.begin(), a.archs.end(), arch.cc);
    if (it == a.archs.begin()) {
      throw Error(fmt::format("normjit: NVRTC {} supports no architecture at or below sm_{}",
                              a.version, arch.cc));
    }
    bin.kind = Binary::Kind::Ptx;
    bin.target = fmt::format("compute_{}", *(it - 1));
  }
  std::vector<const char*> header_text, header_names;
  for (const TemplateFile& f : headers) {
    header_text.push_back(f.text.c_str());
    header_names.push_back(f.name.c_str());
  }
  nvrtcProgram raw = nullptr;
  check(a, a.CreateProgram(&raw, source.c_str(), name.c_str(), int(header_text.size()),
                           header_text.data(), header_names.data()),
        "nvrtcCreateProgram");
  std::unique_ptr<_nvrtcProgram, ProgramDeleter> prog(raw, ProgramDeleter{&a});

  std::vector<std::string> options = base_compile_options();
  options.push_back("-arch=" + bin.target);
  if (bin.kind == Binary::Kind::Cubin) options.insert(options.end(), cubin_options.begin(), cubin_options.end());
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult r = a.CompileProgram(raw, int(argv.size()), argv.data());
  size_t log_size = 0;
  a.GetProgramLogSize(raw, &log_size);
  bin.log.resize(log_size);
  if (log_size) a.GetProgramLog(raw, bin.log.data());
  while (!bin.log.empty() && (bin.log.back() == '\0' || bin.log.back() == '\n')) bin.log.pop_back();

  if (const char* dump = std::getenv("NORMJIT_DUMP_SOURCE"); dump && *dump) {
    std::ofstream(std::string(dump) + "/" + name) << source;
  }
  if (r != NVRTC_SUCCESS) {
    throw CompileError(fmt::format("normjit: NVRTC failed to compile {} for {}: {}\n{}", name,
                                   bin.target, a.GetErrorString(r), bin.log),
                       bin.log, fmt::format("{}", fmt::join(options, " ")), config);
  }
  size_t size = 0;
  if (bin.kind == Binary::Kind::Cubin) {
    check(a, a.GetCUBINSize(raw, &size), "nvrtcGetCUBINSize");
    bin.bytes.resize(size);
    check(a, a.GetCUBIN(raw, bin.bytes.data()), "nvrtcGetCUBIN");
  } else {
    check(a, a.GetPTXSize(raw, &size), "nvrtcGetPTXSize");
    bin.bytes.resize(size);
    check(a, a.GetPTX(raw, bin.bytes.data()), "nvrtcGetPTX");
  }
  bin.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  log_debug("compiled {} for {} in {:.1f} ms ({} bytes)", name, bin.target, bin.millis, size);
  return bin;
}

}  // namespace

Binary compile(const KernelConfig& c) {
  const std::string source = prelude(c), name = slug(c) + ".cu", config = canonical_json(c);
  if (c.reg_usage < 0) return compile_program(source, name, c.arch, templates().files, config);
  // KernelConfig::reg_usage only steers ptxas's register allocation and schedule. An NVRTC whose
  // ptxas lacks --register-usage-level refuses it; the kernel is then built at ptxas's default
  // level, which computes the same, with a warning. (The cache key holds NVRTC's version, so such
  // a cubin is never served to another NVRTC.)
  try {
    return compile_program(source, name, c.arch, templates().files, config,
                           {fmt::format("--ptxas-options=--register-usage-level={}", c.reg_usage)});
  } catch (const CompileError& e) {
    const bool refused = contains_text(e.log(), "register-usage-level") ||
                         contains_text(e.what(), "NVRTC_ERROR_INVALID_OPTION");
    if (!refused) throw;
    warn_once("register-usage-level",
              fmt::format("NVRTC {} refused ptxas's --register-usage-level (first for {}); kernels that ask "
                          "for it compile at ptxas's default level",
                          api().version, name));
    return compile_program(source, name, c.arch, templates().files, config);
  }
}

Binary compile_source(const std::string& source, const std::string& name, Arch arch) {
  return compile_program(source, name, arch, {}, "");
}

}  // namespace normjit::detail

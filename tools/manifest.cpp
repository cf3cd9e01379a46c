#include "manifest.hpp"

#include <filesystem>

namespace normjit::tools {
namespace fs = std::filesystem;

std::vector<std::string> cli_manifest_dirs() {
  std::vector<std::string> dirs;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back((exe.parent_path().parent_path() / "share" / "normjit" / "manifests").string());
#ifdef NORMJIT_SOURCE_MANIFESTS
  dirs.push_back(NORMJIT_SOURCE_MANIFESTS);
#endif
  return dirs;
}

Manifest load_manifest(const std::string& spec) { return normjit::load_manifest(spec, cli_manifest_dirs()); }

std::vector<std::string> bundled_manifests() { return normjit::bundled_manifests(cli_manifest_dirs()); }

std::vector<ProblemSpec> expand(const std::vector<Op>& ops, const std::vector<DType>& dts,
                                const std::vector<DType>& wdts,
                                const std::vector<std::int64_t>& hidden, bool rank3, int max_vec) {
  std::vector<ProblemSpec> out;
  for (Op op : ops)
    for (DType d : dts)
      for (DType w : (wdts.empty() ? std::vector<DType>{d} : wdts))
        for (std::int64_t h : hidden) {
          ProblemSpec p;
          p.op = op;
          p.dtype = d;
          p.weight_dtype = w;
          p.hidden = h;
          p.rank3 = rank3;
          p.max_vec = max_vec;
          out.push_back(p);
        }
  return out;
}

}  // namespace normjit::tools

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

}  // namespace normjit::tools

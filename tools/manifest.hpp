// Prewarm manifests for the CLI: the library's manifest parser (normjit::load_manifest) plus the
// places only the tool knows (format: cache/README.md).
#pragma once
#include <string>
#include <vector>

#include "normjit/runtime.hpp"

namespace normjit::tools {

using normjit::Manifest;

// Directories the CLI adds to the library's search path: share/normjit/manifests next to the
// executable's prefix, and the source tree's cache/manifests (a build-tree binary).
std::vector<std::string> cli_manifest_dirs();
// `spec`: a file, a bundled manifest name, or inline JSON; throws ValidationError naming the
// file and field for unknown ops, dtypes, keys or bad values.
Manifest load_manifest(const std::string& spec);
// Names of the bundled manifests found.
std::vector<std::string> bundled_manifests();

}  // namespace normjit::tools

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

// Cross product of lists (the CLI's --op/--dtype/--hidden form).
std::vector<ProblemSpec> expand(const std::vector<Op>& ops, const std::vector<DType>& dtypes,
                                const std::vector<DType>& weight_dtypes,
                                const std::vector<std::int64_t>& hidden, bool rank3, int max_vec);

}  // namespace normjit::tools

// Prewarm manifests: JSON lists of the problems a model needs (format: cache/README.md).
#pragma once
#include <string>
#include <vector>

#include "normjit/runtime.hpp"

namespace normjit::tools {

struct Manifest {
  std::string name;
  std::string description;
  std::vector<ProblemSpec> problems;
};

// Parses manifest text; throws std::runtime_error naming the field for unknown ops, dtypes,
// keys or bad values. `origin` names the file in messages.
Manifest parse_manifest(const std::string& text, const std::string& origin);
// `name_or_path`: an existing file, or the name of a bundled manifest (searched in
// $NORMJIT_MANIFEST_DIR, <prefix>/share/normjit/manifests, the source tree's cache/manifests).
Manifest load_manifest(const std::string& name_or_path);
// Names of the bundled manifests found.
std::vector<std::string> bundled_manifests();

// Cross product of lists (the CLI's --op/--dtype/--hidden form).
std::vector<ProblemSpec> expand(const std::vector<Op>& ops, const std::vector<DType>& dtypes,
                                const std::vector<DType>& weight_dtypes,
                                const std::vector<std::int64_t>& hidden, bool rank3, int max_vec);

}  // namespace normjit::tools

// Kernel template sources. They are embedded at build time (cmake/embed_templates.cmake);
// NORMJIT_TEMPLATE_DIR points at a folder of .cuh files to use instead, for development.
#pragma once
#include <string>
#include <vector>

namespace normjit::detail {

struct TemplateFile {
  std::string name;  // e.g. "rms_norm.cuh"
  std::string text;
};

struct TemplateSet {
  std::vector<TemplateFile> files;  // sorted by name
  std::string hash;                 // 16 hex digits over names and bytes
  std::string origin;               // "embedded" or the override directory
};

// Loaded once per process (thread-safe). Throws Error when the override folder is unreadable.
const TemplateSet& templates();

}  // namespace normjit::detail

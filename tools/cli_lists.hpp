// Comma lists of command-line values (--op rmsnorm,gemma_rmsnorm --hidden 4096,8192), shared by
// `normjit prewarm` and `normjit bench`.
#pragma once
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace normjit::tools {

// The items of every `args` entry split at ',' (empty items skipped), each parsed by
// `parse(item, &value)`; an item it refuses is a CLI::ValidationError naming the option `what`.
// A parser may also throw its own, more specific error.
template <class T, class Parse>
std::vector<T> split_list(const std::vector<std::string>& args, const char* what, Parse parse) {
  std::vector<T> out;
  for (const std::string& a : args) {
    std::stringstream ss(a);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (item.empty()) continue;
      T v;
      if (!parse(item, &v)) throw CLI::ValidationError(fmt::format("--{}: unknown value '{}'", what, item));
      out.push_back(v);
    }
  }
  return out;
}

// A whole positive decimal number that fits 64 bits (a --hidden, --rows or --tokens item).
inline bool parse_positive(const std::string& s, std::int64_t* v) {
  char* end = nullptr;
  errno = 0;
  *v = std::strtoll(s.c_str(), &end, 10);
  return end && *end == '\0' && errno != ERANGE && *v > 0;
}

}  // namespace normjit::tools

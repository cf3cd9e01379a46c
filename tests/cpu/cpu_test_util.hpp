// Small helpers shared by the CPU test files: temp directories, file I/O, CLI environment.
#pragma once
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace cputest {
namespace fs = std::filesystem;

// A fresh directory from njtest::make_temp_dir, removed (with everything under it) at scope exit.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) : path_(njtest::make_temp_dir(tag)) {}
  ~TempDir() {
    std::error_code ec;
    // Make everything writable again first (tests chmod parts of their trees read-only).
    for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      if (it->is_directory(ec)) ::chmod(it->path().c_str(), 0755);
    }
    ::chmod(path_.c_str(), 0755);
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& str() const { return path_; }
  fs::path path() const { return path_; }

 private:
  std::string path_;
};

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

// Every regular file under `root` (relative path -> bytes). Missing root: empty map.
inline std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(root, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_regular_file(ec)) out[fs::relative(it->path(), root).string()] = read_file(it->path());
  }
  return out;
}

// Paths (relative to `root`) of files whose name contains `needle`.
inline std::vector<std::string> files_containing(const fs::path& root, const std::string& needle) {
  std::vector<std::string> out;
  for (const auto& [rel, bytes] : snapshot(root))
    if (fs::path(rel).filename().string().find(needle) != std::string::npos) out.push_back(rel);
  return out;
}

inline std::vector<std::string> files_with_extension(const fs::path& root, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& [rel, bytes] : snapshot(root))
    if (fs::path(rel).extension() == ext) out.push_back(rel);
  return out;
}

// Lines of `text` that start with `prefix`.
inline std::vector<std::string> lines_starting_with(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream ss(text);
  std::string line;
  while (std::getline(ss, line))
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

inline std::string cli_path() { return NORMJIT_CLI_PATH; }

// Environment for a CLI child: the given cache root, and none of the user's normjit settings.
inline njtest::EnvList cli_env(const std::string& cache_dir) {
  return {{"NORMJIT_CACHE_DIR", cache_dir}, {"NORMJIT_OFFLINE", ""},
          {"NORMJIT_TEMPLATE_DIR", ""},     {"NORMJIT_LOG", ""},
          {"NORMJIT_MANIFEST_DIR", ""},     {"NORMJIT_LOCK_TIMEOUT_MS", ""}};
}

}  // namespace cputest

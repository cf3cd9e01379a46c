// `normjit cache ls|verify|prune|clear|path`: the CLI over src/cache_admin.hpp.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace normjit::tools {

class CacheCommand {
 public:
  // Adds `cache` and its subcommands to `app`; each takes --cache-dir into `cache_dir`.
  CacheCommand(CLI::App& app, std::string* cache_dir);
  bool parsed() const;
  // Runs the parsed subcommand (after --cache-dir was applied); returns the exit code.
  int run();

 private:
  CLI::App* cache_ = nullptr;
  CLI::App *ls_ = nullptr, *verify_ = nullptr, *prune_ = nullptr, *clear_ = nullptr, *path_ = nullptr;
  std::string op_, arch_, fingerprint_, max_size_, older_than_;
  bool fix_ = false, dry_run_ = false, json_ = false;
};

}  // namespace normjit::tools

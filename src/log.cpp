#include "log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

namespace normjit::detail {

LogLevel log_level() noexcept {
  static const LogLevel level = [] {
    const char* v = std::getenv("NORMJIT_LOG");
    if (!v) return LogLevel::Warn;
    if (!std::strcmp(v, "debug")) return LogLevel::Debug;
    if (!std::strcmp(v, "info")) return LogLevel::Info;
    if (!std::strcmp(v, "error")) return LogLevel::Error;
    if (!std::strcmp(v, "off")) return LogLevel::Off;
    return LogLevel::Warn;
  }();
  return level;
}

void log_write(LogLevel level, const std::string& msg) noexcept {
  static const char* const kNames[] = {"debug", "info", "warning", "error", ""};
  std::fprintf(stderr, "normjit %s: %s\n", kNames[int(level)], msg.c_str());
}

void warn_once(const std::string& tag, const std::string& msg) noexcept {
  static std::mutex mu;
  static std::set<std::string> seen;
  try {
    std::lock_guard<std::mutex> lock(mu);
    if (!seen.insert(tag).second) return;
  } catch (...) {
    return;
  }
  if (log_level() <= LogLevel::Warn) log_write(LogLevel::Warn, msg);
}

}  // namespace normjit::detail

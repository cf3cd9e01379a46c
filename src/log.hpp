// Logging to stderr, level from NORMJIT_LOG (debug, info, warn [default], error, off).
#pragma once
#include <fmt/format.h>

#include <string>

namespace normjit::detail {

enum class LogLevel { Debug = 0, Info = 1, Warn = 2, Error = 3, Off = 4 };

LogLevel log_level() noexcept;
void log_write(LogLevel level, const std::string& msg) noexcept;
// Emits `msg` at warn level once per process for each distinct `tag`.
void warn_once(const std::string& tag, const std::string& msg) noexcept;

template <class... Args>
void log_debug(fmt::format_string<Args...> f, Args&&... args) {
  if (log_level() <= LogLevel::Debug) log_write(LogLevel::Debug, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void log_info(fmt::format_string<Args...> f, Args&&... args) {
  if (log_level() <= LogLevel::Info) log_write(LogLevel::Info, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void log_warn(fmt::format_string<Args...> f, Args&&... args) {
  if (log_level() <= LogLevel::Warn) log_write(LogLevel::Warn, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace normjit::detail

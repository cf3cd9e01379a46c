// Typed errors thrown by the C++ API; the C ABI maps each to a status code.
#pragma once
#include <stdexcept>
#include <string>

namespace normjit {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An argument problem found before anything was launched.
class ValidationError : public Error {
 public:
  enum class Kind { InvalidArgument, Unsupported };
  ValidationError(Kind kind, const std::string& msg) : Error(msg), kind_(kind) {}
  Kind kind() const noexcept { return kind_; }

 private:
  Kind kind_;
};

// A CUDA driver call failed, or no driver / GPU is available.
class CudaError : public Error {
 public:
  CudaError(int code, const std::string& msg) : Error(msg), code_(code) {}
  int code() const noexcept { return code_; }  // CUresult, or -1 when the driver is missing

 private:
  int code_;
};

// NVRTC rejected a generated program; carries everything needed to reproduce it.
class CompileError : public Error {
 public:
  CompileError(const std::string& msg, std::string log, std::string options, std::string config)
      : Error(msg), log_(std::move(log)), options_(std::move(options)), config_(std::move(config)) {}
  const std::string& log() const noexcept { return log_; }
  const std::string& options() const noexcept { return options_; }
  const std::string& config() const noexcept { return config_; }

 private:
  std::string log_, options_, config_;
};

// Offline mode (NORMJIT_OFFLINE=1) met a config that is not in the disk cache.
class CacheMissError : public Error {
 public:
  CacheMissError(const std::string& msg, std::string slug, std::string prewarm_command)
      : Error(msg), slug_(std::move(slug)), command_(std::move(prewarm_command)) {}
  const std::string& slug() const noexcept { return slug_; }
  const std::string& prewarm_command() const noexcept { return command_; }

 private:
  std::string slug_, command_;
};

}  // namespace normjit

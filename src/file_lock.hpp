// Advisory per-key lock between processes (flock on a lock file). The kernel drops the lock
// when its holder dies, so a killed process never leaves a stale lock behind. Lock files are
// never deleted while the cache is live (deleting one would let two holders coexist).
#pragma once
#include <chrono>
#include <string>

namespace normjit::detail {

class FileLock {
 public:
  // Waits up to `timeout` for an exclusive lock on `path` (created if missing). On failure
  // (timeout, unwritable directory) locked() is false and `error` says why; callers then
  // proceed without the lock, which stays correct because entries are published by rename.
  FileLock(const std::string& path, std::chrono::milliseconds timeout);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool locked() const { return fd_ >= 0; }
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  std::string error_;
};

}  // namespace normjit::detail

// Advisory per-key lock between processes (flock on a lock file). The kernel drops the lock
// when its holder dies, so a killed process never leaves a stale lock behind.
//
// Lock files may be deleted (cache prune / clear), but only by a holder of the lock: a waiter
// that then acquires the deleted file's lock notices that the path now names another file (or
// none) and locks the path again, so two holders never coexist.
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
  // Deletes the lock file while holding it (see above); the lock is released at destruction.
  void remove_file();

 private:
  int fd_ = -1;
  std::string path_;
  std::string error_;
};

}  // namespace normjit::detail

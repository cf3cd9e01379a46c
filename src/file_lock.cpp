#include "file_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace normjit::detail {

namespace {

// True when `fd` is still the file at `path` (it was not deleted or replaced by a lock holder).
bool still_linked(int fd, const std::string& path) {
  struct stat held {}, named {};
  if (::fstat(fd, &held) != 0 || ::stat(path.c_str(), &named) != 0) return false;
  return held.st_ino == named.st_ino && held.st_dev == named.st_dev;
}

}  // namespace

FileLock::FileLock(const std::string& path, std::chrono::milliseconds timeout) : path_(path) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      error_ = fmt::format("cannot open lock file {}: {}", path, std::strerror(errno));
      return;
    }
    for (;;) {
      if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
        if (still_linked(fd, path)) {
          fd_ = fd;
          return;
        }
        break;  // the holder we waited for deleted it: lock the path's current file
      }
      if (errno != EWOULDBLOCK && errno != EINTR) {
        error_ = fmt::format("flock({}) failed: {}", path, std::strerror(errno));
        ::close(fd);
        return;
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        error_ = fmt::format("timed out after {} ms waiting for {}", timeout.count(), path);
        ::close(fd);
        return;
      }
      std::this_thread::sleep_for(pause);
      if (pause < std::chrono::milliseconds(50)) pause *= 2;
    }
    ::close(fd);
  }
}

void FileLock::remove_file() {
  if (fd_ >= 0) ::unlink(path_.c_str());
}

FileLock::~FileLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

}  // namespace normjit::detail

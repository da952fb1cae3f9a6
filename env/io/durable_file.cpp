#include "env/io/durable_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "env/error.h"

namespace morne::env {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
  throw IoError("cannot " + what + " " + path + ": " + std::strerror(error));
}

// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
int writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EIO;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

std::string folderOf(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

}  // namespace

void syncFolder(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("open folder", dir, errno);
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0 && error != EINVAL) fail("sync folder", dir, error);  // EINVAL: not supported
}

void syncFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("open", path, errno);
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0) fail("sync", path, error);
}

void renameDurably(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) fail("rename " + from + " to", to, errno);
  syncFolder(folderOf(to));
}

void removeDurably(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail("remove", path, errno);
  syncFolder(folderOf(path));
}

void writeFileDurably(const std::string& path, std::string_view bytes) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("create", tmp, errno);
  int error = writeAll(fd, bytes);
  if (!error && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (error) {
    ::unlink(tmp.c_str());
    fail("write", tmp, error);
  }
  try {
    renameDurably(tmp, path);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
}

bool isLockedByAnotherProcess(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return locked;
}

std::unique_ptr<FileLock> FileLock::tryLock(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) fail("open", path, errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) return nullptr;
    fail("lock", path, error);
  }
  return std::unique_ptr<FileLock>(new FileLock(path, fd));
}

FileLock::~FileLock() { ::close(fd_); }

bool FileLock::stillNamed() const {
  struct stat held {
  }, named{};
  return ::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 &&
         held.st_ino == named.st_ino && held.st_dev == named.st_dev;
}

AppendOnlyFile::AppendOnlyFile(const std::string& path, bool truncate, bool lock) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("open", path, errno);
  if (lock && ::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK) throw IoError("cannot open " + path + ": another process writes it");
    fail("lock", path, error);
  }
  if (truncate && ::ftruncate(fd_, 0) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    fail("empty", path, error);
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    fail("open", path, error);
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

AppendOnlyFile::~AppendOnlyFile() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendOnlyFile::append(std::string_view record) {
  if (fd_ < 0) throw IoError("cannot write " + path_ + ": the file is closed");
  const int error = writeAll(fd_, record);
  if (error) {
    std::string note;  // a partial record that stays is caught by the readers' checks
    if (::ftruncate(fd_, static_cast<off_t>(size_)) != 0)
      note =
          " (the partial record could not be cut back: " + std::string(std::strerror(errno)) + ")";
    throw IoError("cannot write " + path_ + ": " + std::strerror(error) + note);
  }
  size_ += record.size();
}

void AppendOnlyFile::renameTo(const std::string& to) {
  renameDurably(path_, to);
  path_ = to;
}

void AppendOnlyFile::sync() {
  if (fd_ >= 0 && ::fsync(fd_) != 0) fail("sync", path_, errno);
}

void AppendOnlyFile::close() {
  if (fd_ < 0) return;
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) fail("close", path_, errno);
}

}  // namespace morne::env

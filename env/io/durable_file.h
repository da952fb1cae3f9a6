#pragma once
// File writes that either complete or fail loudly, and that survive a crash once they return:
// every write is checked (a full disk is an IoError with the system's reason, never a torn or
// silently short file), files are fsynced before they are renamed into place and their folder
// after, so a power cut leaves either the old state or the new one.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace morne::env {

// Writes `bytes` to `path` through "PATH.tmp": write, fsync, rename, fsync the folder. On any
// failure the temporary file is removed and IoError names the path and the reason.
void writeFileDurably(const std::string& path, std::string_view bytes);

// Fsyncs a file another writer has closed (a library that writes files itself). Throws
// IoError.
void syncFile(const std::string& path);

// Renames `from` to `to` and fsyncs the folder of `to`. Throws IoError.
void renameDurably(const std::string& from, const std::string& to);

// Removes `path` (when present) and fsyncs its folder. Throws IoError.
void removeDurably(const std::string& path);

// Fsyncs a folder, so that the names created, renamed or removed in it are durable.
void syncFolder(const std::string& dir);

// True when a live process holds a FileLock on `path` (which is left as it is).
bool isLockedByAnotherProcess(const std::string& path);

// An exclusive advisory lock (flock) on a file, held until destroyed or the process dies:
// how a run folder's processes tell a live writer from a dead one (a worker's identity, a
// journal being written). On NFS v4, flock is a byte-range lock the server keeps.
class FileLock {
 public:
  // Locks `path` (created when absent) without waiting; null when another process holds it.
  // Throws IoError when the file cannot be opened.
  static std::unique_ptr<FileLock> tryLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  // True while `path` still names the locked file (no one removed or replaced it).
  bool stillNamed() const;

 private:
  FileLock(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_;
};

// A file written by appending whole records. A record is written completely or not at all:
// when a write fails (a full disk) the file is cut back to its previous end, so it never ends
// with a torn record, and IoError says why. Records reach the kernel at once (a killed process
// loses none); sync() makes them survive a power cut.
class AppendOnlyFile {
 public:
  // Opens `path` for appending, creating it when absent. With `truncate`, starts it empty.
  // With `lock`, holds an exclusive advisory lock on it until closed (or the process dies),
  // and throws IoError when another process holds one.
  AppendOnlyFile(const std::string& path, bool truncate, bool lock = false);
  ~AppendOnlyFile();
  AppendOnlyFile(const AppendOnlyFile&) = delete;
  AppendOnlyFile& operator=(const AppendOnlyFile&) = delete;

  void append(std::string_view record);
  void sync();
  // Renames the file to `to` (durably), keeping it open and locked.
  void renameTo(const std::string& to);
  // Closes the file, checking that the close succeeded.
  void close();

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace morne::env

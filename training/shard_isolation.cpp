#include "training/shard_isolation.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <new>
#include <thread>

#include "env/error.h"

namespace morne::training {

namespace {

// The first byte of the child's report: what `read` did.
constexpr char kReturned = 'R';
constexpr char kConfigError = 'C';
constexpr char kIoError = 'I';
constexpr char kOtherError = 'E';

// Writes all of `bytes` to `fd` (the child's end of the pipe); false when the parent is gone.
bool writeAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

[[noreturn]] void runChild(int fd, const std::function<std::string()>& read) {
  // The parent forked holding hdf5Mutex(), which glibc marks as held by the parent's thread id:
  // this process's one thread has another, so the mutex is made anew (no thread of the parent
  // exists here to hold it).
  new (&hdf5Mutex()) std::recursive_mutex;
  // A crash inside the library ends this process: no handler of the parent's (a sanitizer's,
  // a fuzzer's, the interrupt handler) runs here.
  for (const int s : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGSYS, SIGTRAP})
    std::signal(s, SIG_DFL);
  std::signal(SIGINT, SIG_IGN);  // the parent decides what an interrupt stops
  std::signal(SIGPIPE, SIG_IGN);
  std::string report;
  try {
    report = kReturned + read();
  } catch (const ConfigError& e) {
    report = std::string(1, kConfigError) + e.what();
  } catch (const IoError& e) {
    report = std::string(1, kIoError) + e.what();
  } catch (const std::exception& e) {
    report = std::string(1, kOtherError) + e.what();
  }
  const uint64_t size = report.size();
  const bool sent = writeAll(fd, std::string(reinterpret_cast<const char*>(&size), sizeof size)) &&
                    writeAll(fd, report);
  ::_exit(sent ? 0 : 1);
}

}  // namespace

std::recursive_mutex& hdf5Mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

double isolatedReadSeconds(uint64_t bytes) {
  return 60.0 + static_cast<double>(bytes) / static_cast<double>(1 << 20);
}

std::string readIsolated(const std::string& path, const std::function<std::string()>& read,
                         double seconds) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw IoError(path + ": cannot make a pipe to read it apart: " + std::strerror(errno));
  pid_t child = -1;
  {
    const std::lock_guard lock(hdf5Mutex());
    child = ::fork();
  }
  if (child < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw IoError(path + ": cannot start a process to read it apart: " + std::strerror(error));
  }
  if (child == 0) {
    ::close(fds[0]);
    // Only the report's pipe stays open: another reading child forked meanwhile by another
    // thread must not hold this pipe open past this child's end.
    if (fds[1] > 3) ::close_range(3, static_cast<unsigned>(fds[1]) - 1, 0);
    ::close_range(static_cast<unsigned>(fds[1]) + 1, ~0u, 0);
    runChild(fds[1], read);
  }
  ::close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto left_ms = [&] {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    return static_cast<int>(std::max<int64_t>(0, std::min<int64_t>(left.count(), 1000)));
  };
  std::string report;
  bool timed_out = false;
  char buffer[65536];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, left_ms());
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        timed_out = true;
        break;
      }
      continue;
    }
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    report.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    throw ConfigError(path + ": damaged: the HDF5 library was still reading it after " +
                      std::to_string(static_cast<int>(seconds)) +
                      " s (stuck in a loop on damaged metadata)");
  }
  if (WIFSIGNALED(status)) {
    throw ConfigError(path + ": damaged: the HDF5 library crashed reading it (signal " +
                      std::to_string(WTERMSIG(status)) + ", " + ::strsignal(WTERMSIG(status)) +
                      ")");
  }
  uint64_t size = 0;
  if (report.size() >= sizeof size) std::memcpy(&size, report.data(), sizeof size);
  if (report.size() < sizeof size + 1 || report.size() - sizeof size != size) {
    throw ConfigError(path + ": damaged: reading it failed inside the HDF5 library (the reading " +
                      "process ended with status " +
                      std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                      " without its report)");
  }
  const char kind = report[sizeof size];
  std::string text = report.substr(sizeof size + 1);
  if (kind == kReturned) return text;
  if (kind == kIoError) throw IoError(text);
  if (kind == kConfigError) throw ConfigError(text);
  throw ConfigError(path + ": damaged: reading it failed: " + text);
}

}  // namespace morne::training

#include "training/shard_isolation.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>

#include "core/number_text.h"
#include "env/error.h"

namespace morne::training {

namespace {

// The first byte of readIsolated()'s message: what `read` did.
constexpr char kReturned = 'R';
constexpr char kConfigError = 'C';
constexpr char kIoError = 'I';

// Writes all of `bytes` to `fd` (the child's end of the pipe); false when the parent is gone.
bool writeAll(int fd, const char* bytes, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, bytes + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

[[noreturn]] void runChild(int fd, const std::function<void(const SendToParent&)>& read) {
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
  // What the library (or a sanitizer watching it) would print about a damaged file is said by
  // the parent, once: this process's own output goes nowhere.
  const int nowhere = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (nowhere >= 0) {
    ::dup2(nowhere, STDOUT_FILENO);
    ::dup2(nowhere, STDERR_FILENO);
    ::close(nowhere);
  }
  bool sent = true;
  const SendToParent send = [&](const std::string& message) {
    const uint64_t size = message.size();
    sent = sent && writeAll(fd, reinterpret_cast<const char*>(&size), sizeof size) &&
           writeAll(fd, message.data(), message.size());
  };
  int status = 0;
  try {
    read(send);
  } catch (const std::exception& e) {
    // Said as the end's reason: a message of its own after the others.
    send(std::string(1, '\0') + e.what());
    status = 3;
  }
  ::_exit(sent ? status : 1);
}

// Splits the complete messages off the front of `buffer`, passing each to `received`.
void takeMessages(std::string& buffer, const std::function<void(const std::string&)>& received,
                  std::string& thrown) {
  size_t at = 0;
  for (;;) {
    uint64_t size = 0;
    if (buffer.size() - at < sizeof size) break;
    std::memcpy(&size, buffer.data() + at, sizeof size);
    if (buffer.size() - at - sizeof size < size) break;
    std::string message = buffer.substr(at + sizeof size, static_cast<size_t>(size));
    at += sizeof size + static_cast<size_t>(size);
    if (!message.empty() && message[0] == '\0') {
      thrown = message.substr(1);
    } else {
      received(message);
    }
  }
  buffer.erase(0, at);
}

}  // namespace

std::recursive_mutex& hdf5Mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

double isolatedReadSeconds(uint64_t bytes) {
  return 60.0 + static_cast<double>(bytes) / static_cast<double>(1 << 20);
}

std::string runIsolated(const std::function<void(const SendToParent& send)>& read,
                        const std::function<void(const std::string& message)>& received,
                        double idle_seconds) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw IoError(std::string("cannot make a pipe to read apart: ") + std::strerror(errno));
  // What this process has buffered is written now: a child that ends through a handler that
  // flushes (a sanitizer's) must not write it a second time.
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  pid_t child = -1;
  {
    const std::lock_guard lock(hdf5Mutex());
    child = ::fork();
  }
  if (child < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw IoError(std::string("cannot start a process to read apart: ") + std::strerror(error));
  }
  if (child == 0) {
    // A parent killed meanwhile (kill -9) takes the child with it: one looping in libhdf5
    // would otherwise spin for good. (The forking thread waits for the child, so it outlives it.)
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    ::close(fds[0]);
    // Only the pipe stays open: another reading child forked meanwhile by another thread must
    // not hold this pipe open past this child's end.
    if (fds[1] > 3) ::close_range(3, static_cast<unsigned>(fds[1]) - 1, 0);
    ::close_range(static_cast<unsigned>(fds[1]) + 1, ~0u, 0);
    runChild(fds[1], read);
  }
  ::close(fds[1]);
  using Clock = std::chrono::steady_clock;
  const auto idle = std::chrono::duration<double>(idle_seconds);
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(idle);
  std::string buffer, thrown;
  bool timed_out = false;
  char block[65536];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::clamp<int64_t>(left, 0, 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (Clock::now() >= deadline) {
        timed_out = true;
        break;
      }
      continue;
    }
    const ssize_t n = ::read(fds[0], block, sizeof block);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buffer.append(block, static_cast<size_t>(n));
    takeMessages(buffer, received, thrown);
    deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(idle);
  }
  ::close(fds[0]);
  if (timed_out) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    return "the HDF5 library was still reading it after " + core::shortText(idle_seconds) +
           " s (stuck in a loop on damaged metadata)";
  }
  if (WIFSIGNALED(status)) {
    return "the HDF5 library crashed reading it (signal " + std::to_string(WTERMSIG(status)) +
           ", " + ::strsignal(WTERMSIG(status)) + ")";
  }
  if (!thrown.empty()) return "reading it failed: " + thrown;
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code != 0 || !buffer.empty()) {
    return "reading it failed inside the HDF5 library (the reading process ended with status " +
           std::to_string(code) + " before its report was whole)";
  }
  return "";
}

std::string readIsolated(const std::string& path, const std::function<std::string()>& read,
                         double idle_seconds) {
  std::string report;
  const std::string end = runIsolated(
      [&read](const SendToParent& send) {
        try {
          send(kReturned + read());
        } catch (const ConfigError& e) {
          send(std::string(1, kConfigError) + e.what());
        } catch (const IoError& e) {
          send(std::string(1, kIoError) + e.what());
        }
      },
      [&report](const std::string& message) { report = message; }, idle_seconds);
  if (!end.empty()) throw ConfigError(path + ": damaged: " + end);
  if (report.empty()) throw ConfigError(path + ": damaged: the reading process sent no report");
  std::string text = report.substr(1);
  if (report[0] == kIoError) throw IoError(text);
  if (report[0] == kConfigError) throw ConfigError(text);
  return text;
}

}  // namespace morne::training

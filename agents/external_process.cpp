#include "agents/external_process.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

#include "env/error.h"

extern char** environ;

namespace morne::agents {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string systemError(const std::string& what, int error) {
  return what + ": " + std::strerror(error);
}

}  // namespace

ExternalProcess::ExternalProcess(const std::vector<std::string>& words)
    : name_(words.empty() ? "" : words.front()) {
  if (words.empty()) throw IoError("external agent: no program to run");
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw IoError(systemError("cannot start " + name_, errno));
  std::vector<char*> argv;
  for (const std::string& w : words) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
  ::posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO);
  ::posix_spawnattr_init(&attributes);
  ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  ::posix_spawnattr_setpgroup(&attributes, 0);
  const int error = ::posix_spawnp(&pid_, argv[0], &actions, &attributes, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::posix_spawnattr_destroy(&attributes);
  ::close(ends[1]);
  socket_ = ends[0];
  if (error != 0) {
    ::close(socket_);
    pid_ = -1;
    throw IoError(systemError("cannot start " + name_, error));
  }
  group_ = pid_;
}

ExternalProcess::~ExternalProcess() {
  ::shutdown(socket_, SHUT_WR);  // the end of its input: it should exit
  if (pid_ > 0 && endText(1000) == "still running") {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  // What it started goes with it: the program leads a process group of its own (setpgroup), and
  // the group's number stays taken while any member lives.
  if (group_ > 0) ::kill(-group_, SIGKILL);
  ::close(socket_);
}

std::string ExternalProcess::endText(double wait_ms) {
  const Clock::time_point start = Clock::now();
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (done < 0 && errno != EINTR) return "ended";
    if (msSince(start) >= wait_ms) return "still running";
    ::usleep(2000);
  }
  pid_ = -1;
  return WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                           : "signal " + std::to_string(WTERMSIG(status));
}

void ExternalProcess::sendLine(const std::string& line) {
  const std::string out = line + "\n";
  size_t sent = 0;
  while (sent < out.size()) {
    const ssize_t n = ::send(socket_, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw IoError(name_ + " ended before it read the request (" +
                    (pid_ > 0 ? endText(200) : std::string("ended")) + ")");
    }
    sent += static_cast<size_t>(n);
  }
}

std::string ExternalProcess::readLine(double timeout_ms, size_t max_bytes) {
  const Clock::time_point start = Clock::now();
  for (;;) {
    const size_t newline = pending_.find('\n');
    if (newline != std::string::npos) {
      std::string line = pending_.substr(0, newline);
      pending_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (pending_.size() > max_bytes) {
      throw IoError(name_ + " wrote a line longer than " + std::to_string(max_bytes) + " bytes");
    }
    const double left = timeout_ms - msSince(start);
    if (left <= 0) {
      throw IoError(name_ + " gave no reply within " + std::to_string(std::lround(timeout_ms)) +
                    " ms");
    }
    pollfd watch{socket_, POLLIN, 0};
    const int ready = ::poll(&watch, 1, static_cast<int>(std::min(left, 1e9)) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buffer[65536];
    const ssize_t n = ::recv(socket_, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw IoError(name_ + " ended before it replied (" +
                    (pid_ > 0 ? endText(1000) : std::string("ended")) + ")");
    }
    pending_.append(buffer, static_cast<size_t>(n));
  }
}

}  // namespace morne::agents

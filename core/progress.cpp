#include "core/progress.h"

#include <unistd.h>

#include <cstdio>

namespace morne::core {

std::string clockText(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

Progress::Progress(int total, std::string unit, bool enabled)
    : total_(total), unit_(std::move(unit)), enabled_(enabled), tty_(isatty(fileno(stderr)) != 0) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::update(int done, const std::string& note, double eta_seconds) {
  if (!enabled_) return;
  const int percent = total_ ? 100 * done / total_ : 100;
  if (!tty_ && percent / 10 == last_decile_ && done != total_) return;
  last_decile_ = percent / 10;
  constexpr int kWidth = 30;
  const int filled = total_ ? kWidth * done / total_ : kWidth;
  const double seconds = elapsed();
  const bool known = eta_seconds >= 0 || done > 0;
  const double eta = eta_seconds >= 0 ? eta_seconds : done ? seconds / done * (total_ - done) : 0;
  std::fprintf(stderr, "%s[%s%s] %d/%d %s %3d%%  elapsed %s  ETA %s%s%s%s", tty_ ? "\r" : "",
               std::string(static_cast<size_t>(filled), '#').c_str(),
               std::string(static_cast<size_t>(kWidth - filled), '.').c_str(), done, total_,
               unit_.c_str(), percent, clockText(seconds).c_str(),
               known ? clockText(eta).c_str() : "?", note.empty() ? "" : "  ", note.c_str(),
               tty_ && done != total_ ? "" : "\n");
  std::fflush(stderr);
}

}  // namespace morne::core

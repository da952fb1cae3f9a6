#include "core/interrupt.h"

#include <csignal>

namespace morne::core {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void onInterrupt(int) {
  g_stop = true;
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C kills at once
  std::signal(SIGTERM, SIG_DFL);
}

}  // namespace

InterruptFlag::InterruptFlag() {
  g_stop = false;
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
}

InterruptFlag::~InterruptFlag() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

const std::atomic<bool>* InterruptFlag::flag() const { return &g_stop; }

}  // namespace morne::core

#pragma once
// The first event of a type in a log, for tests that check what an action reported.

#include "env/events.h"

namespace morne::test {

// The first event of `type` (about `unit`, when one is given) in `log`; nullptr when none.
inline const env::Event* findEvent(const env::EventLog& log, env::EventType type, int unit = -1) {
  for (const env::Event& e : log) {
    if (e.type == type && (unit < 0 || e.unit == unit)) return &e;
  }
  return nullptr;
}

}  // namespace morne::test

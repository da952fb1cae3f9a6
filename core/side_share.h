#pragma once

#include <string>
// Blue's share of the decisive games of a set of games, with its 95% Wilson interval: how the
// balance of a scenario is stated wherever it is measured or shown.

namespace morne::core {

struct SideShare {
  int blue = 0, orange = 0, draws = 0;  // wins of each side, and draws (left out of the share)
  double share = 0.5, low = 0, high = 1;
};

// Blue's share of `blue` + `orange` decisive games with Wilson's score interval (z = 1.96);
// with no decisive game, 0.5 in [0, 1].
SideShare sideShare(int blue, int orange, int draws);

// The share as the project states it: "75.0% [30.1, 95.4] of 4 decisive games"; with none,
// "no decisive game". Draws are the caller's to add.
std::string sideShareText(const SideShare& s);

}  // namespace morne::core

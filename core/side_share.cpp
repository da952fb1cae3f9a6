#include "core/side_share.h"

#include <algorithm>
#include <cmath>

#include "core/number_text.h"

namespace morne::core {

SideShare sideShare(int blue, int orange, int draws) {
  SideShare s{blue, orange, draws};
  const double n = blue + orange;
  if (n == 0) return s;
  constexpr double z = 1.959963984540054;
  const double p = blue / n;
  const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  s.share = p;
  s.low = std::max(0.0, centre - half);
  s.high = std::min(1.0, centre + half);
  return s;
}

std::string sideShareText(const SideShare& s) {
  if (s.blue + s.orange == 0) return "no decisive game";
  return fixedText(100 * s.share, 1) + "% [" + fixedText(100 * s.low, 1) + ", " +
         fixedText(100 * s.high, 1) + "] of " + std::to_string(s.blue + s.orange) +
         " decisive games";
}

}  // namespace morne::core

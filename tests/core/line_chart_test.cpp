// Line charts (core/line_chart.h): every panel draws, whatever its values.

#include "core/line_chart.h"

#include <gtest/gtest.h>

#include <cmath>

namespace morne::test {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(LineChart, RangesThatDifferByRoundingAloneStillGetAFewTicks) {
  // Two Elo ratings of a ladder that differ in the last bits (as in a Debug build) once made the
  // tick step vanish against the values and the tick loop never end.
  const double elo = -293.0;
  for (const double other : {elo, std::nextafter(elo, 0.0), elo + 1e-12}) {
    core::ChartPanel panel{"Elo", "generation", {{"net", {{1, elo}, {2, other}}}}};
    const std::string svg = core::lineChartSvg({panel});
    EXPECT_LE(count(svg, "<line"), 20u) << other;
    EXPECT_GE(count(svg, "<line"), 2u) << other;
  }
}

TEST(LineChart, APanelWithoutPointsSaysSo) {
  const std::string svg = core::lineChartSvg({core::ChartPanel{"loss", "step", {}}});
  EXPECT_NE(svg.find("no data yet"), std::string::npos);
}

}  // namespace
}  // namespace morne::test

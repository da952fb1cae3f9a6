// elo.svg of an arena folder: the ratings with their intervals as a chart (docs/arena.md).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "arena/report_forms.h"
#include "core/line_chart.h"
#include "core/number_text.h"

namespace morne::arena {

using arena::ArenaLineup;
using arena::ArenaStats;
using arena::WinDrawLoss;

// A horizontal interval chart: one panel per scope, one row per agent, the rating as a dot and
// its 95% interval as a line (an arrow where it is open), a dashed line at 0 (the anchor), and
// an axis with ticks and a grid every 50, 100, 200 or 500 Elo. Value labels sit in a column of
// their own to the right of the plot, so they never cross the lines.
std::string eloSvg(const ArenaLineup& lineup, const std::vector<ArenaStats>& scopes) {
  double lo = -50, hi = 50;
  auto clampFinite = [](double v, double fallback) { return std::isinf(v) ? fallback : v; };
  for (const ArenaStats& st : scopes) {
    if (!hasElo(st)) continue;
    for (size_t a = 0; a < lineup.agents.size(); ++a) {
      lo = std::min({lo, st.elo.rating[a], clampFinite(st.elo.low[a], st.elo.rating[a])});
      hi = std::max({hi, st.elo.rating[a], clampFinite(st.elo.high[a], st.elo.rating[a])});
    }
  }
  double tick = 50;
  for (double t : {50.0, 100.0, 200.0, 500.0, 1000.0}) {
    tick = t;
    if ((hi - lo) / t <= 8) break;
  }
  lo = std::floor(lo / tick) * tick;
  hi = std::ceil(hi / tick) * tick;
  const int label_w = 260, plot_w = 460, row_h = 22, value_w = 170;
  const int width = label_w + plot_w + 20 + value_w;
  auto x = [&](double elo) {
    return label_w + (std::clamp(elo, lo, hi) - lo) / (hi - lo) * plot_w;
  };
  std::ostringstream body;
  int y = 30;
  for (const ArenaStats& st : scopes) {
    if (!hasElo(st)) continue;
    body << "<text x=\"10\" y=\"" << y << "\" font-weight=\"bold\">" << core::xmlEscape(st.scope)
         << " (" << st.games << " games, side advantage " << core::fixedText(st.elo.side, 0) << " "
         << intervalText(st.elo.side_low, st.elo.side_high, 0) << ")</text>\n";
    y += 8;
    const int top = y;
    const int bottom = top + row_h * static_cast<int>(lineup.agents.size()) + 10;
    for (double t = lo; t <= hi + 1e-9; t += tick) {  // grid and ticks
      body << "<line x1=\"" << core::fixedText(x(t), 1) << "\" y1=\"" << top << "\" x2=\""
           << core::fixedText(x(t), 1) << "\" y2=\"" << bottom << "\" stroke=\"#e4e4e4\"/>\n"
           << "<text x=\"" << core::fixedText(x(t), 1) << "\" y=\"" << bottom + 14
           << "\" font-size=\"10\" fill=\"#555\" text-anchor=\"middle\">" << core::fixedText(t, 0)
           << "</text>\n";
    }
    body << "<line x1=\"" << label_w << "\" y1=\"" << bottom << "\" x2=\"" << label_w + plot_w
         << "\" y2=\"" << bottom << "\" stroke=\"#555\"/>\n"
         << "<line x1=\"" << core::fixedText(x(0), 1) << "\" y1=\"" << top << "\" x2=\""
         << core::fixedText(x(0), 1) << "\" y2=\"" << bottom
         << "\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n";
    for (size_t a = 0; a < lineup.agents.size(); ++a) {
      y += row_h;
      const double r = st.elo.rating[a], l = st.elo.low[a], h = st.elo.high[a];
      body << "<text x=\"10\" y=\"" << y + 4 << "\">" << core::xmlEscape(lineup.agents[a])
           << "</text>\n"
           << "<line x1=\"" << core::fixedText(x(l), 1) << "\" y1=\"" << y << "\" x2=\""
           << core::fixedText(x(h), 1) << "\" y2=\"" << y
           << "\" stroke=\"#4a6fa5\" stroke-width=\"3\"/>\n";
      for (double end : {l, h}) {
        if (!std::isinf(end) && end >= lo && end <= hi) continue;
        const double tip = x(end), back = end > r ? tip - 8 : tip + 8;  // open or off the axis
        body << "<polygon points=\"" << core::fixedText(tip, 1) << "," << y << " "
             << core::fixedText(back, 1) << "," << y - 5 << " " << core::fixedText(back, 1) << ","
             << y + 5 << "\" fill=\"#4a6fa5\"/>\n";
      }
      body << "<circle cx=\"" << core::fixedText(x(r), 1) << "\" cy=\"" << y
           << "\" r=\"5\" fill=\"#1d3557\"/>\n"
           << "<text x=\"" << label_w + plot_w + 20 << "\" y=\"" << y + 4 << "\" font-size=\"11\">"
           << (a == 0 ? std::string("0 (anchor)")
                      : core::fixedText(r, 0) + " " + intervalText(l, h, 0))
           << "</text>\n";
    }
    y = bottom + 44;
  }
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y
      << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"16\" font-size=\"11\" fill=\"#555\">Elo relative to "
      << core::xmlEscape(lineup.agents[0])
      << ", 95% profile-likelihood intervals (arrows: open or beyond the axis)</text>\n"
      << body.str() << "</svg>\n";
  return svg.str();
}

}  // namespace morne::arena

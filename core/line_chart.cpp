#include "core/line_chart.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/number_text.h"

namespace morne::core {

namespace {

// A "nice" step (1, 2 or 5 times a power of ten) giving about `count` ticks over `span`.
double tickStep(double span, int count) {
  const double raw = span / count;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

// Widens a range too narrow for ticks (equal values, or values that differ by rounding alone,
// where a step would vanish against the values) to one unit: from `lo` (`centred`: around it).
void widenNarrowRange(double& lo, double& hi, bool centred) {
  const double scale = std::max({1.0, std::abs(lo), std::abs(hi)});
  if (hi - lo > 1e-9 * scale) return;
  const double mid = centred ? (lo + hi) / 2 : lo;
  lo = centred ? mid - 0.5 : mid;
  hi = centred ? mid + 0.5 : mid + 1;
}

}  // namespace

std::string xmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string lineChartSvg(const std::vector<ChartPanel>& panels) {
  const int left = 70, plot_w = 560, legend_w = 220, plot_h = 200, top = 34, bottom = 44;
  const int panel_h = top + plot_h + bottom;
  const int width = left + plot_w + 20 + legend_w;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << panel_h * static_cast<int>(panels.size()) << "\" font-family=\"sans-serif\" "
      << "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (size_t k = 0; k < panels.size(); ++k) {
    const ChartPanel& panel = panels[k];
    const int y0 = static_cast<int>(k) * panel_h;
    svg << "<text x=\"" << left << "\" y=\"" << y0 + 20 << "\" font-size=\"14\">"
        << xmlEscape(panel.title) << "</text>\n";
    double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
    for (const ChartSeries& s : panel.series) {
      for (const auto& [x, y] : s.points) {
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        x_lo = std::min(x_lo, x);
        x_hi = std::max(x_hi, x);
        y_lo = std::min(y_lo, y);
        y_hi = std::max(y_hi, y);
      }
    }
    if (!std::isfinite(x_lo)) {
      svg << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << y0 + top + plot_h / 2
          << "\" text-anchor=\"middle\" fill=\"#888\">no data yet</text>\n";
      continue;
    }
    widenNarrowRange(x_lo, x_hi, false);
    widenNarrowRange(y_lo, y_hi, true);
    const double y_step = tickStep(y_hi - y_lo, 5), x_step = tickStep(x_hi - x_lo, 6);
    y_lo = std::floor(y_lo / y_step) * y_step;
    y_hi = std::ceil(y_hi / y_step) * y_step;
    auto px = [&](double x) { return left + (x - x_lo) / (x_hi - x_lo) * plot_w; };
    auto py = [&](double y) { return y0 + top + plot_h - (y - y_lo) / (y_hi - y_lo) * plot_h; };
    svg << "<rect x=\"" << left << "\" y=\"" << y0 + top << "\" width=\"" << plot_w
        << "\" height=\"" << plot_h << "\" fill=\"none\" stroke=\"#444\"/>\n";
    for (double y = y_lo; y <= y_hi + y_step / 2; y += y_step) {
      svg << "<line x1=\"" << left << "\" x2=\"" << left + plot_w << "\" y1=\"" << py(y)
          << "\" y2=\"" << py(y) << "\" stroke=\"#ddd\"/><text x=\"" << left - 6 << "\" y=\""
          << py(y) + 4 << "\" text-anchor=\"end\">" << shortText(std::round(y / y_step) * y_step)
          << "</text>\n";
    }
    for (double x = std::ceil(x_lo / x_step) * x_step; x <= x_hi + x_step / 2; x += x_step) {
      if (x > x_hi) break;
      svg << "<line x1=\"" << px(x) << "\" x2=\"" << px(x) << "\" y1=\"" << y0 + top << "\" y2=\""
          << y0 + top + plot_h << "\" stroke=\"#eee\"/><text x=\"" << px(x) << "\" y=\""
          << y0 + top + plot_h + 16 << "\" text-anchor=\"middle\">"
          << shortText(std::round(x / x_step) * x_step) << "</text>\n";
    }
    svg << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << y0 + top + plot_h + 34
        << "\" text-anchor=\"middle\">" << xmlEscape(panel.x_label) << "</text>\n";
    for (size_t i = 0; i < panel.series.size(); ++i) {
      const ChartSeries& s = panel.series[i];
      std::string path;
      for (const auto& [x, y] : s.points) {
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        path += (path.empty() ? "" : " ") + fixedText(px(x), 1) + "," + fixedText(py(y), 1);
      }
      if (!path.empty()) {
        svg << "<polyline fill=\"none\" stroke=\"" << s.color << "\" stroke-width=\"1.5\""
            << (s.dashed ? " stroke-dasharray=\"5,4\"" : "") << " points=\"" << path << "\"/>\n";
      }
      const int ly = y0 + top + 14 + static_cast<int>(i) * 18;
      const int lx = left + plot_w + 20;
      svg << "<line x1=\"" << lx << "\" x2=\"" << lx + 24 << "\" y1=\"" << ly - 4 << "\" y2=\""
          << ly - 4 << "\" stroke=\"" << s.color << "\" stroke-width=\"2\""
          << (s.dashed ? " stroke-dasharray=\"5,4\"" : "") << "/><text x=\"" << lx + 30 << "\" y=\""
          << ly << "\">" << xmlEscape(s.name) << "</text>\n";
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace morne::core

#pragma once
// Line charts as SVG, for the curves of long runs (training metrics, a learning loop's Elo):
// panels stacked vertically, each with its own y axis, sharing one kind of x axis.

#include <string>
#include <utility>
#include <vector>

namespace morne::core {

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), x rising
  std::string color = "#1f77b4";
  bool dashed = false;  // baselines and references
};

struct ChartPanel {
  std::string title;
  std::string x_label;
  std::vector<ChartSeries> series;
};

// The panels as one SVG document: axes with ticks, a grid, and a legend per panel. A panel
// without points shows "no data yet".
std::string lineChartSvg(const std::vector<ChartPanel>& panels);

// `text` with the five XML special characters escaped.
std::string xmlEscape(const std::string& text);

}  // namespace morne::core

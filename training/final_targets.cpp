#include "training/final_targets.h"

#include <cmath>
#include <vector>

namespace morne::training {

void finalControl(const env::GameState& end, const nn::ObservationEncoder& encoder,
                  std::span<float> grid) {
  std::fill(grid.begin(), grid.end(), 0.0f);
  const env::Scenario& sc = *end.scenario;
  auto sign = [](int side) { return side == 0 ? 1.0f : side == 1 ? -1.0f : 0.0f; };
  auto at = [&](env::CellId c) -> float& {
    return grid[static_cast<size_t>(encoder.gridIndex(c))];
  };
  for (size_t t = 0; t < sc.trackedCells().size(); ++t)
    at(sc.trackedCells()[t]) = sign(end.owner[t]);
  for (size_t f = 0; f < sc.fortCells().size(); ++f)
    at(sc.fortCells()[f]) = sign(end.fort_control[f]);
  for (int u = 0; u < end.num_units; ++u)
    if (end.onMap(u)) at(end.unit(u).cell) = sign(end.sideOf(u));
}

void shortTermValues(std::span<const DecisionValue> decisions, float blue_result, int horizon,
                     std::span<float> out) {
  const float keep = 1.0f - 1.0f / static_cast<float>(horizon);
  float later = blue_result;
  for (size_t t = decisions.size(); t-- > 0;) {
    const DecisionValue& d = decisions[t];
    if (!std::isnan(d.value)) {
      const float blue = d.side == 0 ? d.value : -d.value;
      later = (1.0f - keep) * blue + keep * later;
    }
    out[t] = later;
  }
}

void fillFinalTargets(const env::GameState& end, std::span<const DecisionValue> decisions,
                      const nn::ObservationEncoder& encoder, GameData& g) {
  const auto rows = static_cast<size_t>(g.rows);
  const nn::ObservationShape shape = encoder.shape();
  const size_t area = static_cast<size_t>(shape.height) * static_cast<size_t>(shape.width);
  std::vector<float> blue_control(area);
  finalControl(end, encoder, blue_control);
  const float blue_result = g.winner == 0 ? 1.0f : g.winner == 1 ? -1.0f : 0.0f;
  std::vector<float> blue_short[kShortValueHorizons.size()];
  for (size_t h = 0; h < kShortValueHorizons.size(); ++h) {
    blue_short[h].resize(decisions.size());
    shortTermValues(decisions, blue_result, kShortValueHorizons[h], blue_short[h]);
  }
  g.margin.clear();
  g.control.clear();
  g.short_value.clear();
  for (size_t r = 0; r < rows; ++r) {
    const float mine = g.side[r] == 0 ? 1.0f : -1.0f;
    g.margin.push_back(mine * finalMargin(g));
    for (float c : blue_control) g.control.push_back(mine * c);
    const auto t = static_cast<size_t>(g.move[r]);
    for (const std::vector<float>& values : blue_short)
      g.short_value.push_back(t < values.size() ? mine * values[t] : mine * blue_result);
  }
}

}  // namespace morne::training

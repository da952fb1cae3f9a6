#pragma once
// The observation a neural network sees: planes over the map (the scenario's offset grid,
// height x width, row-major) and a vector of global features, both from the point of view of
// the side to move ("mine" / "theirs"), so one network plays either side. The channels are
// listed in planeNames() / globalNames() and documented in docs/training-data.md; any change to
// them bumps kEncoderVersion. NN-free: no LibTorch here.

#include <span>
#include <string_view>
#include <vector>

#include "env/game_state.h"

namespace morne::nn {

inline constexpr int kEncoderVersion = 3;

// The plane that is 1 on the map's hexes and 0 on the grid's other cells (planeNames()[0]).
inline constexpr int kOnMapPlane = 0;

struct ObservationShape {
  int planes = 0;
  int height = 0;
  int width = 0;
  int globals = 0;
  int planeSize() const { return planes * height * width; }
};

class ObservationEncoder {
 public:
  // Precomputes the static planes (terrain, hexsides) of `sc`, which must outlive the encoder.
  explicit ObservationEncoder(const env::Scenario& sc);

  ObservationShape shape() const { return shape_; }

  // Writes the observation of `s` (a state of the encoder's scenario) into `planes`
  // (shape().planeSize() floats, plane-major then row-major) and `globals`
  // (shape().globals floats). Every value is finite and within [-1, 1]. Allocates nothing.
  void encode(const env::GameState& s, std::span<float> planes, std::span<float> globals) const;

  // Grid position of a cell: row * width + column.
  int gridIndex(env::CellId c) const { return grid_of_cell_[static_cast<size_t>(c)]; }

  // One name per channel, in order ("terrain_woods", "mine_vc", ...).
  static std::span<const std::string_view> planeNames();
  static std::span<const std::string_view> globalNames();

 private:
  const env::Scenario* sc_;
  ObservationShape shape_;
  std::vector<int> grid_of_cell_;
  std::vector<float> static_planes_;  // the scenario-only planes, copied in by encode()
};

}  // namespace morne::nn

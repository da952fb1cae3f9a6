#pragma once
// What self-play records (docs/training-data.md has the file format). One GameData holds every
// recorded position of one game, row after row, in the layout of the HDF5 datasets:
//
//   planes   float32 [rows, planes, height, width]  the observation (nn/observation.h)
//   globals  float32 [rows, globals]                its global features
//   policy   float32 [rows, policy size]            the search's visit distribution over the
//                                                   policy entries (nn/policy_layout.h);
//                                                   one-hot on the move played by agents that
//                                                   do not search
//   legal    uint8   [rows, policy size]            1 at the legal actions
//   value    float32 [rows]                         the final result for the side to move at
//                                                   that position: +1 win, 0 draw, -1 loss
//   search_value float32 [rows]                     the search's root value there, for the
//                                                   side to move (empty: as `value`)
//   teacher_value float32 [rows]                    a teacher search's root value there
//                                                   (--value-teacher; NaN: none)
//   margin   float32 [rows]                         the final victory-point difference, side
//                                                   to move's minus the other's
//   control  float32 [rows, height, width]          the final control of each square, +1 the
//                                                   side to move's, -1 the other's, 0 neither
//   short_value float32 [rows, horizons]            the short-term values, one per horizon of
//                                                   kShortValueHorizons (training/final_targets.h)
//   move     int32   [rows]                         the decision's number in the game (from 0)
//   phase    uint8   [rows]                         env::Phase
//   side     uint8   [rows]                         side to move (0 blue, 1 orange)
//
// plus the game's own record (id, seed, result, how it ended, length).

#include <array>
#include <cstdint>
#include <vector>

namespace morne::training {

// How a game ended (GameData::end).
inline constexpr uint8_t kEndRules = 0;     // the rules ended it (last turn, or a side gone)
inline constexpr uint8_t kEndResigned = 1;  // the loser resigned (self-play option)
inline constexpr uint8_t kEndAdjudicated =
    2;  // stopped after a number of decisions, scored as it stood

// The horizons of the short-term value targets, in decisions: each target is an exponential
// average of the root values of the decisions to come, the game's result after the last
// (KataGo's short-term value targets, 6/16/50 turns on 19x19 Go, whose games run about 250
// moves; duel games of the search agent run 37-105 decisions, 67 on average).
inline constexpr std::array<int, 3> kShortValueHorizons = {6, 16, 50};

// A decision's root value, for the side that made it (NaN: it made none); self-play keeps one
// for every decision, recorded or not, for the short-term value targets.
struct DecisionValue {
  uint8_t side = 0;
  float value = 0;
};

struct GameData {
  uint64_t id = 0;
  uint64_t seed = 0;
  int8_t winner = -1;  // 0 blue, 1 orange, -1 draw
  int16_t vp_blue = 0;
  int16_t vp_orange = 0;
  int8_t handicap_half = 0;  // the game's handicap in half VP, + to blue, - to orange
  int8_t level = 0;          // victory level (V-LEVEL-1); 0 for a resigned game
  uint8_t end = kEndRules;
  int32_t plies = 0;  // decisions and chance outcomes
  int32_t decisions = 0;

  int32_t rows = 0;
  std::vector<float> planes;
  std::vector<float> globals;
  std::vector<float> policy;
  std::vector<uint8_t> legal;
  std::vector<float> value;
  std::vector<float> search_value;  // empty when the game has none: the shard then holds `value`
  // The value teacher's root value of each row for the side to move (SelfPlayConfig::
  // value_teacher), NaN where it did not search; empty without a teacher: NaN in the shard.
  std::vector<float> teacher_value;
  // The auxiliary targets (training/final_targets.h); empty when the game has none: the shard
  // then holds NaN, "unknown", which the learner leaves out.
  std::vector<float> margin;
  std::vector<float> control;
  std::vector<float> short_value;
  std::vector<int32_t> move;
  std::vector<uint8_t> phase;
  std::vector<uint8_t> side;
};

// The game's final score difference, blue's minus orange's: its victory points from the map
// and the game's handicap. The margin target of its rows, for the side to move.
inline float finalMargin(const GameData& g) {
  return static_cast<float>(g.vp_blue - g.vp_orange) + 0.5f * static_cast<float>(g.handicap_half);
}

// The sizes of one row, fixed for a run (one scenario, one encoder).
struct RowShape {
  int planes = 0;
  int height = 0;
  int width = 0;
  int globals = 0;
  int policy = 0;
  int planeSize() const { return planes * height * width; }
  int area() const { return height * width; }
};

}  // namespace morne::training

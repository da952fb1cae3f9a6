#pragma once
// The result of a game (§8): victory points of objectives, zones and forts, and the victory
// level (V-LEVEL-1), computed from a position. env/rules.h includes it for its users.

#include <array>
#include <string>

#include "env/game_state.h"

namespace morne::env {

// Victory points and victory level (V-LEVEL-1), computed from the current position; final
// once s.isTerminal(). A side's score is its VP from the map plus the game's handicap;
// Δ = score(blue) - score(orange); a half point of Δ is a minor victory.
struct GameResult {
  std::array<int, kNumSides> vp = {};  // from objectives, zones and forts
  std::array<int, kNumSides> handicap_half =
      {};                // the game's handicap (GameState::handicap_half), in half VP
  int winner = kNoSide;  // side ahead, kNoSide on a draw
  int level = 0;         // 0 draw, 1 minor, 2 tactical, 3 major, 4 total victory

  // A side's score in half victory points: 2 x VP + handicap.
  int scoreHalf(int side) const {
    return 2 * vp[static_cast<size_t>(side)] + handicap_half[static_cast<size_t>(side)];
  }
  // Δ in half victory points, from blue's point of view.
  int marginHalf() const { return scoreHalf(0) - scoreHalf(1); }
};
GameResult gameResult(const GameState& s);

// The side that holds objective o now (V-HEX-1..3), kNoSide if none; its VP count for that
// side in gameResult.
int objectiveHolder(const GameState& s, const Objective& o);

// Whether each side scores zone z now (V-ZONE-1); a scoring side gets the zone's VP in
// gameResult.
std::array<bool, kNumSides> zoneScorers(const GameState& s, const Zone& z);

// The victory level of a margin of `margin_half` half VP (V-LEVEL-1): 0 for none, else the
// whole VP of |Δ| between 1 and 4.
int victoryLevel(int margin_half);

// A number of half victory points as text: "3", "1.5", "-0.5".
std::string halfVpText(int half_vp);

// Name of a victory level ("draw", "minor victory", ...).
const char* victoryLevelName(int level);

}  // namespace morne::env

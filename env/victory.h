#pragma once
// The result of a game (§8): victory points of objectives, zones and forts, and the victory
// level (V-LEVEL-1), computed from a position. env/rules.h includes it for its users.

#include <array>

#include "env/game_state.h"

namespace morne::env {

// Victory points and victory level (V-LEVEL-1), computed from the current position; final
// once s.isTerminal().
struct GameResult {
  std::array<int, kNumSides> vp = {};
  int winner = kNoSide;  // side ahead, kNoSide on a draw
  int level = 0;         // 0 draw, 1 minor, 2 tactical, 3 major, 4 total victory
};
GameResult gameResult(const GameState& s);

// The side that holds objective o now (V-HEX-1..3), kNoSide if none; its VP count for that
// side in gameResult.
int objectiveHolder(const GameState& s, const Objective& o);

// Whether each side scores zone z now (V-ZONE-1); a scoring side gets the zone's VP in
// gameResult.
std::array<bool, kNumSides> zoneScorers(const GameState& s, const Zone& z);

// Name of a victory level ("draw", "minor victory", ...).
const char* victoryLevelName(int level);

}  // namespace morne::env

#pragma once
// What a morale result does under the failed_test module (V-ROUT-*), the ancient pursuit
// (V-PUR-*), and the tests these cause outside combat: units passed through by routers, rally
// of routers, stop of pursuers. docs/variants.md states the rules. Internal to env/.

#include "env/events.h"
#include "env/fixed_vector.h"
#include "env/game_state.h"
#include "env/morale_model.h"

namespace morne::env {

// The hexes a rout runs through, in order (V-ROUT-3). The last one is empty and is where the
// router ends, unless it leaves the map by its home edge.
struct RoutPath {
  FixedVector<CellId, 32> cells;
  bool leaves_map = false;
};

// Seed 002's distance of `paces` in hexes of `paces_per_hex` paces, rounded to the nearest
// hex, at least one (V-ROUT-6).
int gradedRunHexes(int paces, int paces_per_hex);

// The path unit u would run now: `budget` movement points (or hexes when `count_hexes`), by
// the priorities of V-ROUT-3, away from the unit at `responsible_cell` on ties.
RoutPath routPath(const GameState& s, int u, int budget, bool count_hexes, CellId responsible_cell);

// Applies test result `o` to unit u, caused by `responsible` standing at `responsible_cell`
// (V-ROUT-1): nothing, a halt, a retreat, a rout or a flight, by the failed_test module. When
// `path` is given it receives the rout's path (empty for anything else). Returns whether the
// unit left its hex or the map.
bool applyMoraleOutcome(GameState& s, int u, MoraleOutcome o, int responsible,
                        CellId responsible_cell, RoutPath* path, EventLog* log);

// V-PUR-2: whether `winner` pursues the routed `router` after their combat (only the
// attacker unless `defender_pursues`).
bool pursues(const GameState& s, int winner, int router);

// V-PUR-3, V-PUR-4: `pursuer` follows `router` into the hex it left, `router_from`, then along
// its path; leaves its free attack pending when it ends in contact with the router and no
// other die is pending.
void pursue(GameState& s, int pursuer, int router, CellId router_from, const RoutPath& path,
            EventLog* log);

// Resolves the pending free attack with the d6 face `value` (V-PUR-4).
void resolveFreeAttack(GameState& s, int value, EventLog* log);

// Resolves the pending morale check (passed through, rally, stop pursuit) with `value`.
void resolveMoraleCheck(GameState& s, int value, EventLog* log);

// Leaves the next queued test of a unit passed through by routers pending (V-ROUT-4).
// Returns whether a test is now pending.
bool startQueuedTest(GameState& s);

// The rally step of the variant modules (V-ROUT-5, V-PUR-5, V-MEL-3), run before Morne
// Plaine's rally; re-entered after each die it rolls. Returns whether a die is pending (the
// phase then reads "rally").
bool variantRallyStep(GameState& s, EventLog* log);

}  // namespace morne::env

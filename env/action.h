#pragma once
// Actions: the atomic decisions of the phasing player (ENG-1). Each is "a unit, then a click on
// a hex", the way a player uses the client:
//
//   kind      cell (where the click starts)   arg                  meaning
//   end       -                               -                    end the current phase
//   hold      -                               -                    do not charge (see below)
//   place     the hex to place on             -                    place the next unit (S-2)
//   move      the moving unit's hex           direction 0..5       one movement step (MV-GEN-2)
//   charge    the cavalry's hex               direction 0..5       charge the adjacent enemy
//   attack    the attacker's hex              direction 0..5       attack the adjacent enemy
//   fire      the gun's hex                   target offset index  bombard a unit in range
//
// "hold" exists only at one decision point: after a cavalry step that triggers enemy reaction
// fire, the player decides whether that cavalry charges before the guns fire (F-REACT-6);
// "hold" declines. Because every action but "end" and "hold" is anchored on a hex, the action space
// is a stack of planes over the map (one plane per kind and argument) plus one "end" action: a
// spatial policy head maps onto it directly. docs/actions.md gives the layout and its size per
// scenario.

#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "env/fixed_vector.h"
#include "env/scenario.h"

namespace morne::env {

enum class ActionKind : uint8_t { kEnd, kHold, kPlace, kMove, kCharge, kAttack, kFire };
inline constexpr int kNumActionKinds = 7;

struct Action {
  ActionKind kind = ActionKind::kEnd;
  uint8_t arg = 0;
  CellId cell = kNoCell;

  static constexpr Action end() { return {ActionKind::kEnd, 0, kNoCell}; }
  static constexpr Action hold() { return {ActionKind::kHold, 0, kNoCell}; }
  static constexpr Action place(CellId c) { return {ActionKind::kPlace, 0, c}; }
  static constexpr Action move(CellId from, int dir) {
    return {ActionKind::kMove, static_cast<uint8_t>(dir), from};
  }
  static constexpr Action charge(CellId from, int dir) {
    return {ActionKind::kCharge, static_cast<uint8_t>(dir), from};
  }
  static constexpr Action attack(CellId from, int dir) {
    return {ActionKind::kAttack, static_cast<uint8_t>(dir), from};
  }
  static constexpr Action fire(CellId from, int offset_index) {
    return {ActionKind::kFire, static_cast<uint8_t>(offset_index), from};
  }

  // Canonical order key: by kind, then cell, then argument. Legal lists are sorted by it.
  constexpr uint32_t key() const {
    return static_cast<uint32_t>(kind) << 24 | static_cast<uint32_t>(cell + 1) << 8 | arg;
  }
  friend constexpr bool operator==(Action a, Action b) { return a.key() == b.key(); }
  friend constexpr auto operator<=>(Action a, Action b) { return a.key() <=> b.key(); }
};

// Upper bound of legal actions at one decision: 64 units x 6 steps + 64 x 6 charges + end,
// or one placement per hex.
inline constexpr size_t kMaxLegalActions = 1024;
using ActionList = FixedVector<Action, kMaxLegalActions>;

std::string_view actionKindName(ActionKind k);
std::optional<ActionKind> parseActionKindName(std::string_view name);

// --- spatial policy index (docs/actions.md) ---

// Relative hex offsets a gun may target, ring by ring out to `range`, each ring starting east
// and turning counter-clockwise. Index i of this list is the fire action's argument.
// Precondition: range <= 5 (the scenario loader's limit).
std::span<const Hex> fireOffsets(int range);

// Number of planes: 6 move + 6 charge + 6 attack + one per fire offset + 1 place.
int actionPlanes(const Scenario& sc);
// The number of planes of a scenario whose guns fire at most `range` hexes.
int actionPlanesForRange(int range);
// Size of the flat action space: planes x cells + 2 (end, hold).
int actionSpaceSize(const Scenario& sc);
// Flat index of an action (plane * numCells + cell; then end, then hold).
int actionIndex(const Scenario& sc, Action a);
// Inverse of actionIndex; nullopt for an index out of range.
std::optional<Action> actionFromIndex(const Scenario& sc, int index);

}  // namespace morne::env

#pragma once
// GameState: one complete position of a game, as a flat, fixed-capacity, trivially copyable
// value. Search copies it (copy-make); nothing in it lives on the heap, and advancing it never
// allocates. Everything that never changes stays in the shared Scenario.
//
// Layout (kMaxUnits = 64, kMaxCells = 512 by default):
//
//   header   scenario pointer, Zobrist hash, turn, phasing side, phase, what is being
//            resolved (the pending chance event, reaction fire, the combat in progress), and
//            the victory-point handicap
//   units    UnitState[kMaxUnits]   8 bytes each: cell, VC, MO, MP left, flags
//   unit_at  int8_t[kMaxCells]      unit index on each cell, -1 if empty (U-STACK-1)
//   owners   int8_t[kMaxTracked]    side owning each tracked (passing) hex (V-HEX-2)
//   forts    int8_t[kMaxForts]      side controlling each fort (M-FORT-1)
//   morale   MoraleStatus[kMaxUnits] 4 bytes each: routs, pursuits, fatigue of the variant
//            modules (docs/variants.md); all zero under the Morne Plaine rules
//
// The hash covers every field that matters to the rules (unit_at is derived from units); it is
// kept up to date by the mutators below, which are the only way rule code changes a state.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "env/scenario.h"
#include "env/zobrist.h"

namespace morne::env {

// Per-unit status flags (G-TURN-4 bookkeeping and unit states).
namespace unit_flag {
inline constexpr uint16_t kEliminated = 1u << 0;     // removed from the map (U-ELIM-1)
inline constexpr uint16_t kAwaitingSetup = 1u << 1;  // off map until placed (S-2)
inline constexpr uint16_t kInCommand = 1u << 2;      // result of this player-turn's check (CMD-2)
inline constexpr uint16_t kMoved = 1u << 3;          // moved this player-turn by any means
inline constexpr uint16_t kStepped = 1u << 4;        // made a movement step this phase (MV-CHG-5)
inline constexpr uint16_t kHalted = 1u << 5;         // its movement is over this phase
inline constexpr uint16_t kStuck = 1u << 6;          // stuck in a marsh (MV-MARSH-1)
inline constexpr uint16_t kRoadFree = 1u << 7;       // next road step is free (MV-ROAD-2)
inline constexpr uint16_t kFired = 1u << 8;          // fired in this bombardment phase (F-GEN-1)
inline constexpr uint16_t kAttacked = 1u << 9;       // made its attack this combat phase (C-GEN-1)
inline constexpr uint16_t kDefended = 1u << 10;      // was attacked this combat phase (C-GEN-1)
inline constexpr uint16_t kCharged = 1u << 11;       // charged this player-turn (MV-CHG-5)
inline constexpr uint16_t kVictorious = 1u << 12;    // victorious unit (C-VIC-1)
inline constexpr uint16_t kReactionUsed = 1u
                                          << 13;  // reaction fire used this game turn (F-REACT-1)
inline constexpr uint16_t kStuckHeld = 1u << 14;  // cannot move next movement phase (switch)
inline constexpr int kCount = 15;
// Name of flag bit i ("eliminated", "in_command", ...), used in JSON and logs.
const char* name(int bit);
}  // namespace unit_flag

// Mutable state of one unit.
struct UnitState {
  CellId cell = kNoCell;  // kNoCell when eliminated or awaiting set-up
  int8_t vc = 0;          // current combat value (U-ATTR-1)
  int8_t mo = 0;          // current morale; always 0 for generals (U-ATTR-3)
  int8_t mp = 0;          // movement points left in this movement phase
  uint8_t trail = 0;      // its last two steps this player-turn (step_trail below)
  uint16_t flags = 0;     // unit_flag bits
  friend bool operator==(const UnitState&, const UnitState&) = default;
};
static_assert(sizeof(UnitState) == 8);

// Per-unit state of the variant modules (docs/variants.md). Zero under the Morne Plaine rules,
// where it adds nothing to the hash.
namespace morale_bit {
inline constexpr uint16_t kRouted = 1u << 0;        // routed until it rallies (V-ROUT-2)
inline constexpr uint16_t kPursuing = 1u << 1;      // pursuing unit `pursued - 1` (V-PUR-3)
inline constexpr uint16_t kRoutedBefore = 1u << 2;  // has routed in this game (V-MOR-5)
inline constexpr uint16_t kMustTest = 1u << 3;      // passed through by friendly routers (V-ROUT-4)
inline constexpr uint16_t kFellBack = 1u << 4;  // retreated or routed this combat phase (V-MEL-2)
inline constexpr uint16_t kRallyTested = 1u << 5;      // took its rally-step test (V-ROUT-5)
inline constexpr uint16_t kFought = 1u << 6;           // fought a combat this player-turn (V-MEL-3)
inline constexpr uint16_t kHaltHeld = 1u << 7;         // halt result: no move next movement phase
inline constexpr uint16_t kFoughtBefore = 1u << 8;     // has fought a combat: not fresh (V-MEL-2)
inline constexpr uint16_t kSawFormedFriend = 1u << 9;  // a router that passed a formed friend
                                                       // this player-turn (V-ROUT-5)
inline constexpr int kCount = 10;
// Name of bit i ("routed", "pursuing", ...), used in JSON.
const char* name(int bit);
}  // namespace morale_bit

struct MoraleStatus {
  uint16_t bits = 0;    // morale_bit values
  uint8_t fatigue = 0;  // fatigue points (V-MEL-3)
  uint8_t pursued = 0;  // 1 + the unit it pursues, 0 if none (V-PUR-3)
  // The hash key: the first eight bits, the fatigue, the pursued unit, then the later bits.
  uint32_t packed() const {
    return static_cast<uint32_t>(bits & 0xFF) | static_cast<uint32_t>(fatigue) << 8 |
           static_cast<uint32_t>(pursued) << 16 | static_cast<uint32_t>(bits >> 8) << 24;
  }
  friend bool operator==(const MoraleStatus&, const MoraleStatus&) = default;
};
static_assert(sizeof(MoraleStatus) == 4);

// The directions of a unit's last two movement steps in this player-turn, packed in one byte:
// bits 0-2 hold the latest step's direction + 1, bits 3-5 the step before it (0: none). Agents
// read it to avoid stepping a unit back into a hex it has just left (env/agent_actions.h); the
// rules never do. Moving a unit by any other means (retreat, advance, set-up) clears it.
namespace step_trail {
// The trail after one more step in direction `dir`.
constexpr uint8_t push(uint8_t trail, int dir) {
  return static_cast<uint8_t>((trail & 7u) << 3 | static_cast<unsigned>(dir + 1));
}
// Direction of the latest step (back = 0) or of the one before it (back = 1); -1 if none.
constexpr int direction(uint8_t trail, int back) { return (trail >> (3 * back) & 7) - 1; }
}  // namespace step_trail

// The kinds of pending random events (ENG-2). A state with a pending event is a chance node:
// no player acts until the outcome is applied (env/rules.h: chanceOutcomes, applyChance).
// Every die is its own event, so search can branch on each.
enum class ChanceKind : uint8_t {
  kNone,
  kMarshTest,    // d4 for `unit` after it entered a marsh hex (MV-MARSH-1)
  kChargeTest,   // d9 morale test of `target`, charged by cavalry `unit` (MV-CHG-5)
  kFireDie,      // d4 of gun `unit` firing at `target` (F-RES-1)
  kFireCoin,     // coin: the next loss point(s) of `target` go to MO (1) or VC (2) (F-LOSS-1)
  kCombatDie,    // d6 of the combat in `combat` (C-DIE-1)
  kMoraleTest,   // morale test of `unit`, a combatant of `combat` (C-MOR-1, V-MOR-1)
  kMoraleCheck,  // variant test of `unit` outside a combat; flags: its TestOccasion (V-MOR-6)
  kFreeAttack,   // d6 of pursuer `unit`'s free attack on the router `target` (V-PUR-4)
};

// "marsh_test", "charge_test", "fire_die", "fire_coin", "combat_die", "morale_test",
// "morale_check", "free_attack" ("none").
std::string_view chanceKindName(ChanceKind k);
std::optional<ChanceKind> parseChanceKindName(std::string_view name);

namespace pending_flag {
inline constexpr uint8_t kReaction = 1u << 0;    // the fire is reaction fire (F-REACT-8)
inline constexpr uint8_t kSingleCoin = 1u << 1;  // one coin decides all points (switch)
}  // namespace pending_flag

struct Pending {
  ChanceKind kind = ChanceKind::kNone;
  int8_t unit = -1;
  int8_t target = -1;
  int8_t count = 0;   // fire coins: loss points still to split
  uint8_t flags = 0;  // pending_flag bits
  friend bool operator==(const Pending&, const Pending&) = default;
};

namespace combat_flag {
inline constexpr uint8_t kAttackerTests = 1u << 0;  // the CRT cell gave the attacker a test
inline constexpr uint8_t kDefenderTests = 1u << 1;
inline constexpr uint8_t kAttackerTested = 1u << 2;  // its test is resolved
inline constexpr uint8_t kDefenderTested = 1u << 3;
inline constexpr uint8_t kAttackerFailed = 1u << 4;  // it failed and must retreat (C-MOR-2)
inline constexpr uint8_t kDefenderFailed = 1u << 5;
}  // namespace combat_flag

// The combat being resolved (C-RES-1), from its declaration to the advance after combat.
struct CombatRecord {
  int8_t attacker = -1;
  int8_t defender = -1;
  CellId attacker_cell = kNoCell;  // hexes at declaration: retreats go away from them and
  CellId defender_cell = kNoCell;  // advances go into them
  int8_t column = 0;               // odds column, -7 (1:8) .. 0 (1:1) .. +7 (8:1)
  int8_t die_modifier = 0;         // sum of the die modifiers (C-DRM-*)
  uint8_t flags = 0;               // combat_flag bits
  uint8_t outcomes = 0;  // variant tests: MoraleOutcome of the defender (bits 0-3), attacker (4-7)
  bool active() const { return attacker >= 0; }
  friend bool operator==(const CombatRecord&, const CombatRecord&) = default;
};

struct GameState {
  const Scenario* scenario = nullptr;  // non-owning; the owner keeps the shared_ptr alive
  uint64_t hash = 0;
  int16_t turn = 1;  // game turn, 1..scenario->turns()
  uint8_t side = 0;  // phasing side (G-TURN-1)
  Phase phase = Phase::kMovement;
  uint8_t num_units = 0;
  Pending pending;            // the chance event awaited, if any
  int8_t reacting_to = -1;    // unit whose step triggered the reaction fire in progress
  int8_t charge_window = -1;  // cavalry deciding whether to charge before reaction fire
  CombatRecord combat;        // the combat being resolved, if any
  // The victory-point handicap in half points, + to blue, - to orange (V-LEVEL-1): the
  // scenario's, or one self-play draws per game (training/selfplay_game.h; setHandicap).
  int8_t handicap_half = 0;
  uint8_t reserved[5] = {};
  std::array<UnitState, kMaxUnits> units;
  std::array<int8_t, kMaxCells> unit_at;
  std::array<int8_t, kMaxTracked> owner;
  std::array<int8_t, kMaxForts> fort_control;
  std::array<MoraleStatus, kMaxUnits> morale;

  friend bool operator==(const GameState&, const GameState&) = default;

  const Scenario& sc() const { return *scenario; }
  const UnitState& unit(int u) const { return units[static_cast<size_t>(u)]; }
  // Unit index at a cell, or -1.
  int unitAt(CellId c) const { return unit_at[static_cast<size_t>(c)]; }
  bool has(int u, uint16_t flag) const { return (unit(u).flags & flag) != 0; }
  bool onMap(int u) const { return unit(u).cell != kNoCell; }
  int sideOf(int u) const { return scenario->unit(u).side; }
  UnitType typeOf(int u) const { return scenario->unit(u).type; }
  // MO = 0 on a unit that has morale (U-DEM-1). Generals are never demoralised.
  bool demoralised(int u) const { return unit(u).mo == 0 && !isGeneral(typeOf(u)); }
  const MoraleStatus& moraleOf(int u) const { return morale[static_cast<size_t>(u)]; }
  bool hasMorale(int u, uint16_t bit) const { return (moraleOf(u).bits & bit) != 0; }
  bool routed(int u) const { return hasMorale(u, morale_bit::kRouted); }
  bool pursuing(int u) const { return hasMorale(u, morale_bit::kPursuing); }
  // Routed or pursuing: the unit takes no voluntary action (V-ROUT-2, V-PUR-3).
  bool outOfControl(int u) const {
    return hasMorale(u, morale_bit::kRouted | morale_bit::kPursuing);
  }
  bool isChanceNode() const { return pending.kind != ChanceKind::kNone; }
  bool isTerminal() const { return phase == Phase::kGameOver; }
};

static_assert(std::is_trivially_copyable_v<GameState>, "GameState must copy like memcpy");
static_assert(sizeof(GameState) <= 2048, "GameState grew; check the copy cost in bench env");

// A state of `sc` with no unit on the map, no owners and a zero hash: the starting point of
// the constructors (newGame, stateFromJson), which then place units and compute the hash.
inline GameState emptyState(const Scenario& sc) {
  GameState s;
  s.scenario = &sc;
  s.handicap_half = static_cast<int8_t>(sc.balance().signedHalf());
  s.num_units = static_cast<uint8_t>(sc.numUnits());
  s.unit_at.fill(-1);
  s.owner.fill(kNoSide);
  s.fort_control.fill(kNoSide);
  s.morale.fill({});
  return s;
}

// The phasing side's units on the map, ordered by cell (generated actions then come out
// sorted). Returns their number.
inline int phasingUnitsByCell(const GameState& s, std::array<int8_t, kMaxUnits>& out) {
  int n = 0;
  for (int u = 0; u < s.num_units; ++u) {
    if (s.sideOf(u) != s.side || !s.onMap(u)) continue;
    int i = n++;
    while (i > 0 && s.unit(out[static_cast<size_t>(i - 1)]).cell > s.unit(u).cell) {
      out[static_cast<size_t>(i)] = out[static_cast<size_t>(i - 1)];
      --i;
    }
    out[static_cast<size_t>(i)] = static_cast<int8_t>(u);
  }
  return n;
}

// --- mutators that keep the hash in step (the only writers of a state) ---

// Gives the game the handicap `signed_half` (half VP, + to blue, - to orange) instead of the
// one it has; the hash tells it from the scenario's own. Precondition: |signed_half| <= 127.
inline void setHandicap(GameState& s, int signed_half) {
  const int own = s.sc().balance().signedHalf();
  s.hash ^= zobrist::handicap(s.handicap_half - own) ^ zobrist::handicap(signed_half - own);
  s.handicap_half = static_cast<int8_t>(signed_half);
}

inline void setUnitTrail(GameState& s, int u, uint8_t trail) {
  UnitState& us = s.units[static_cast<size_t>(u)];
  s.hash ^= zobrist::unitTrail(u, us.trail) ^ zobrist::unitTrail(u, trail);
  us.trail = trail;
}

// Moves unit u (and clears its step trail: a movement step sets it again afterwards).
inline void setUnitCell(GameState& s, int u, CellId cell) {
  UnitState& us = s.units[static_cast<size_t>(u)];
  if (us.trail != 0) setUnitTrail(s, u, 0);
  s.hash ^= zobrist::unitCell(u, us.cell) ^ zobrist::unitCell(u, cell);
  if (us.cell != kNoCell) s.unit_at[static_cast<size_t>(us.cell)] = -1;
  if (cell != kNoCell) s.unit_at[static_cast<size_t>(cell)] = static_cast<int8_t>(u);
  us.cell = cell;
}

inline void setUnitVc(GameState& s, int u, int vc) {
  UnitState& us = s.units[static_cast<size_t>(u)];
  s.hash ^= zobrist::unitVc(u, us.vc) ^ zobrist::unitVc(u, vc);
  us.vc = static_cast<int8_t>(vc);
}

inline void setUnitMo(GameState& s, int u, int mo) {
  UnitState& us = s.units[static_cast<size_t>(u)];
  s.hash ^= zobrist::unitMo(u, us.mo) ^ zobrist::unitMo(u, mo);
  us.mo = static_cast<int8_t>(mo);
}

inline void setUnitMp(GameState& s, int u, int mp) {
  UnitState& us = s.units[static_cast<size_t>(u)];
  s.hash ^= zobrist::unitMp(u, us.mp) ^ zobrist::unitMp(u, mp);
  us.mp = static_cast<int8_t>(mp);
}

inline void setUnitFlags(GameState& s, int u, uint16_t flags) {
  UnitState& us = s.units[static_cast<size_t>(u)];
  s.hash ^= zobrist::unitFlags(u, us.flags ^ flags);
  us.flags = flags;
}
inline void addUnitFlags(GameState& s, int u, uint16_t f) {
  setUnitFlags(s, u, static_cast<uint16_t>(s.unit(u).flags | f));
}
inline void clearUnitFlags(GameState& s, int u, uint16_t f) {
  setUnitFlags(s, u, static_cast<uint16_t>(s.unit(u).flags & ~f));
}

inline void setMoraleStatus(GameState& s, int u, MoraleStatus m) {
  MoraleStatus& ms = s.morale[static_cast<size_t>(u)];
  s.hash ^= zobrist::moraleStatus(u, ms.packed()) ^ zobrist::moraleStatus(u, m.packed());
  ms = m;
}
inline void addMoraleBits(GameState& s, int u, uint16_t bits) {
  MoraleStatus m = s.moraleOf(u);
  m.bits = static_cast<uint16_t>(m.bits | bits);
  setMoraleStatus(s, u, m);
}
inline void clearMoraleBits(GameState& s, int u, uint16_t bits) {
  MoraleStatus m = s.moraleOf(u);
  m.bits = static_cast<uint16_t>(m.bits & ~bits);
  setMoraleStatus(s, u, m);
}

inline void setOwner(GameState& s, int tracked, int side) {
  int8_t& owner = s.owner[static_cast<size_t>(tracked)];
  s.hash ^= zobrist::owner(tracked, owner) ^ zobrist::owner(tracked, side);
  owner = static_cast<int8_t>(side);
}

inline void setFortControl(GameState& s, int fort, int side) {
  int8_t& ctl = s.fort_control[static_cast<size_t>(fort)];
  s.hash ^= zobrist::fortControl(fort, ctl) ^ zobrist::fortControl(fort, side);
  ctl = static_cast<int8_t>(side);
}

// Turn, side and phase hash together as one "header" key.
inline void setHeader(GameState& s, int turn, int side, Phase phase) {
  s.hash ^= zobrist::header(s.turn, s.side, s.phase) ^ zobrist::header(turn, side, phase);
  s.turn = static_cast<int16_t>(turn);
  s.side = static_cast<uint8_t>(side);
  s.phase = phase;
}
inline void setPhase(GameState& s, Phase phase) { setHeader(s, s.turn, s.side, phase); }

// The key of everything being resolved (pending event, reaction fire, combat).
inline uint64_t resolutionKey(const GameState& s) {
  const auto b = [](auto v) { return static_cast<uint64_t>(static_cast<uint8_t>(v)); };
  const auto w = [](CellId c) { return static_cast<uint64_t>(static_cast<uint16_t>(c)); };
  const Pending& p = s.pending;
  const CombatRecord& c = s.combat;
  const uint64_t first = b(p.kind) | b(p.unit) << 8 | b(p.target) << 16 | b(p.count) << 24 |
                         b(p.flags) << 32 | b(s.reacting_to) << 40 | b(s.charge_window) << 48;
  const uint64_t second = b(c.attacker) | b(c.defender) << 8 | w(c.attacker_cell) << 16 |
                          w(c.defender_cell) << 32 | b(c.column) << 48 | b(c.die_modifier) << 56;
  return zobrist::mix(first ^ 0x5265736F6C76ull ^ b(c.outcomes) << 56) ^
         zobrist::mix(second + b(c.flags));
}

inline void setPending(GameState& s, Pending p) {
  s.hash ^= resolutionKey(s);
  s.pending = p;
  s.hash ^= resolutionKey(s);
}
inline void setReaction(GameState& s, int reacting_to, int charge_window) {
  s.hash ^= resolutionKey(s);
  s.reacting_to = static_cast<int8_t>(reacting_to);
  s.charge_window = static_cast<int8_t>(charge_window);
  s.hash ^= resolutionKey(s);
}
inline void setCombat(GameState& s, CombatRecord c) {
  s.hash ^= resolutionKey(s);
  s.combat = c;
  s.hash ^= resolutionKey(s);
}

// The hash of a state recomputed from scratch (the oracle for the incremental one).
uint64_t computeHash(const GameState& s);

}  // namespace morne::env

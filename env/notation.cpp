#include "env/notation.h"

#include <nlohmann/json.hpp>

#include "env/control.h"
#include "env/movement.h"
#include "env/rules.h"

namespace morne::env {

using nlohmann::json;

namespace {

// The hex a directional action points at, or kNoCell.
CellId targetCell(const Scenario& sc, Action a) {
  if (a.cell == kNoCell || a.arg >= kNumDirections) return kNoCell;
  return sc.neighbor(a.cell, a.arg);
}

std::string unitId(const GameState& s, int u) { return u >= 0 ? s.sc().unit(u).id : "?"; }

// Parses "FROM>TO" or "FROM DIR" into a directional action of `kind`.
std::optional<Action> parseDirectional(const Scenario& sc, ActionKind kind, std::string_view rest,
                                       std::string* error) {
  std::string_view from_text;
  std::string_view to_text;
  if (auto gt = rest.find('>'); gt != std::string_view::npos) {
    from_text = rest.substr(0, gt);
    to_text = rest.substr(gt + 1);
  } else if (auto sp = rest.find(' '); sp != std::string_view::npos) {
    from_text = rest.substr(0, sp);
    to_text = rest.substr(sp + 1);
  } else {
    *error =
        "expected FROM>TO or FROM DIRECTION after \"" + std::string(actionKindName(kind)) + "\"";
    return std::nullopt;
  }
  const CellId from = sc.cellOfLabel(from_text);
  if (from == kNoCell) {
    *error = "\"" + std::string(from_text) + "\" is not a hex of this map";
    return std::nullopt;
  }
  std::optional<int> dir = parseDirection(to_text);
  if (!dir) {
    const CellId to = sc.cellOfLabel(to_text);
    if (to == kNoCell) {
      *error = "\"" + std::string(to_text) + "\" is neither a hex of this map nor a direction";
      return std::nullopt;
    }
    dir = directionBetween(sc.hexOf(from), sc.hexOf(to));
    if (!dir) {
      *error = "hexes " + sc.label(from) + " and " + sc.label(to) + " are not adjacent";
      return std::nullopt;
    }
  }
  return Action{kind, static_cast<uint8_t>(*dir), from};
}

std::string explainMove(const GameState& s, Action a) {
  const Scenario& sc = s.sc();
  const int u = s.unitAt(a.cell);
  const std::string id = unitId(s, u);
  const UnitState& us = s.unit(u);
  if (us.flags & unit_flag::kStuck) return id + " is stuck in a marsh for this phase (MV-MARSH-1)";
  if (us.flags & unit_flag::kCharged) return id + " charged; its movement is over (MV-CHG-5)";
  if (us.flags & unit_flag::kHalted) {
    return id + " entered an enemy-controlled hex; its movement is over (MV-ZOC-2)";
  }
  if (us.mp <= 0) return id + " has no movement points left (MV-GEN-3)";
  const Hexside& h = sc.side(a.cell, a.arg);
  if (h.neighbor == kNoCell) return "that step leaves the map (M-HEX-3)";
  const std::string to = sc.label(h.neighbor);
  if (!h.movable) {
    if (h.isCliff()) return "hexside " + sc.label(a.cell) + "-" + to + " is a cliff (MV-COST-4)";
    return "hexside " + sc.label(a.cell) + "-" + to + " is a " + std::string(waterName(h.water)) +
           " without bridge or ford (MV-COST-2)";
  }
  if (const int v = s.unitAt(h.neighbor); v >= 0) {
    return to + " holds " + unitId(s, v) + "; no stacking or passing through (U-STACK-1)";
  }
  if (s.demoralised(u) && enemyControlled(s, h.neighbor, s.sideOf(u))) {
    return id + " is demoralised and may not enter enemy-controlled " + to + " (MV-ZOC-4)";
  }
  GameState probe = s;  // cost as stepCost computes it, ignoring the points left
  setUnitMp(probe, u, 31);
  const int cost = stepCost(probe, u, a.arg, nullptr);
  return "entering " + to + " costs " + std::to_string(cost) + " movement points; " + id + " has " +
         std::to_string(us.mp) + " (MV-COST-1..5, MV-ROAD-2)";
}

std::string explainCharge(const GameState& s, Action a) {
  const Scenario& sc = s.sc();
  const int u = s.unitAt(a.cell);
  const std::string id = unitId(s, u);
  if (s.typeOf(u) != UnitType::kCavalry)
    return id + " is not cavalry; only cavalry charges (MV-CHG-1)";
  if (s.has(u, unit_flag::kCharged)) return id + " has already charged this turn (MV-CHG-5)";
  if (s.demoralised(u)) return id + " is demoralised and may not charge (U-DEM-1)";
  if (sc.rules().charge_requires_move && !s.has(u, unit_flag::kStepped)) {
    return id + " has not moved this phase; a charge follows a move (MV-CHG-5)";
  }
  const Hexside& h = sc.side(a.cell, a.arg);
  const int v = h.neighbor == kNoCell ? -1 : s.unitAt(h.neighbor);
  if (v < 0 || s.sideOf(v) == s.sideOf(u)) return "no enemy unit in that direction";
  if (!h.contact) return id + " is not in contact with " + unitId(s, v) + " (M-CONTACT-1)";
  if (isGeneral(s.typeOf(v)))
    return unitId(s, v) + " is a general; generals are immune to charges (MV-CHG-5)";
  return {};
}

}  // namespace

std::string actionText(const GameState& s, Action a) {
  const Scenario& sc = s.sc();
  const std::string kind(actionKindName(a.kind));
  switch (a.kind) {
    case ActionKind::kEnd:
      return kind;
    case ActionKind::kPlace:
      return kind + " " + sc.label(a.cell);
    case ActionKind::kMove:
    case ActionKind::kCharge:
    case ActionKind::kAttack:
      return kind + " " + sc.label(a.cell) + ">" + sc.label(targetCell(sc, a));
    case ActionKind::kFire: {
      const Hex off = fireOffsets(sc.maxRange())[a.arg];
      const CellId t = sc.cellAt(sc.hexOf(a.cell) + off);
      return kind + " " + sc.label(a.cell) + ">" + (t == kNoCell ? "?" : sc.label(t));
    }
  }
  return kind;
}

json actionJson(const GameState& s, Action a) {
  const Scenario& sc = s.sc();
  json j;
  j["type"] = actionKindName(a.kind);
  switch (a.kind) {
    case ActionKind::kEnd:
      j["phase"] = phaseName(s.phase);
      break;
    case ActionKind::kPlace:
      j["unit"] = unitId(s, nextUnitToPlace(s));
      j["to"] = sc.label(a.cell);
      break;
    case ActionKind::kMove:
    case ActionKind::kCharge:
    case ActionKind::kAttack: {
      const CellId to = targetCell(sc, a);
      j["unit"] = unitId(s, s.unitAt(a.cell));
      j["from"] = sc.label(a.cell);
      j["to"] = to == kNoCell ? "" : sc.label(to);
      if (a.kind != ActionKind::kMove) j["target"] = unitId(s, to == kNoCell ? -1 : s.unitAt(to));
      break;
    }
    case ActionKind::kFire:
      j["unit"] = unitId(s, s.unitAt(a.cell));
      j["from"] = sc.label(a.cell);
      break;
  }
  return j;
}

std::optional<Action> parseActionText(const GameState& s, std::string_view text,
                                      std::string* error) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  const auto sp = text.find(' ');
  const std::string_view word = text.substr(0, sp);
  const std::string_view rest = sp == std::string_view::npos ? "" : text.substr(sp + 1);
  const auto kind = parseActionKindName(word);
  if (!kind) {
    *error = "unknown action \"" + std::string(word) + "\" (expected end, place, move or charge)";
    return std::nullopt;
  }
  switch (*kind) {
    case ActionKind::kEnd:
      if (!rest.empty()) {
        *error = "\"end\" takes no argument";
        return std::nullopt;
      }
      return Action::end();
    case ActionKind::kPlace: {
      const CellId c = s.sc().cellOfLabel(rest);
      if (c == kNoCell) {
        *error = "\"" + std::string(rest) + "\" is not a hex of this map";
        return std::nullopt;
      }
      return Action::place(c);
    }
    case ActionKind::kMove:
    case ActionKind::kCharge:
      return parseDirectional(s.sc(), *kind, rest, error);
    case ActionKind::kAttack:
    case ActionKind::kFire:
      break;
  }
  *error = "\"" + std::string(word) + "\" actions are not part of this rules version yet";
  return std::nullopt;
}

std::optional<Action> parseActionJson(const GameState& s, const json& value, std::string* error) {
  const Scenario& sc = s.sc();
  if (!value.is_object()) {
    *error = ": an action must be a JSON object";
    return std::nullopt;
  }
  auto field = [&](const char* key, bool required) -> std::optional<std::string> {
    auto it = value.find(key);
    if (it == value.end()) {
      if (required) *error = std::string(": missing \"") + key + "\"";
      return std::nullopt;
    }
    if (!it->is_string()) {
      *error = std::string("/") + key + ": expected a string";
      return std::nullopt;
    }
    return it->get<std::string>();
  };
  auto cell = [&](const char* key) -> CellId {
    auto text = field(key, true);
    if (!text) return kNoCell;
    const CellId c = sc.cellOfLabel(*text);
    if (c == kNoCell)
      *error = std::string("/") + key + ": \"" + *text + "\" is not a hex of this map";
    return c;
  };
  for (auto it = value.begin(); it != value.end(); ++it) {
    static constexpr const char* kKeys[] = {"type", "unit", "from", "to", "target", "phase"};
    bool known = false;
    for (const char* k : kKeys) known = known || it.key() == k;
    if (!known) {
      *error = "/" + it.key() + ": unknown key";
      return std::nullopt;
    }
  }
  const auto type = field("type", true);
  if (!type) return std::nullopt;
  const auto kind = parseActionKindName(*type);
  if (!kind || *kind == ActionKind::kAttack || *kind == ActionKind::kFire) {
    *error = "/type: unknown action type \"" + *type + "\" (expected end, place, move or charge)";
    return std::nullopt;
  }
  if (*kind == ActionKind::kEnd) return Action::end();
  if (*kind == ActionKind::kPlace) {
    const CellId to = cell("to");
    if (to == kNoCell) return std::nullopt;
    if (auto unit = field("unit", false); unit && *unit != unitId(s, nextUnitToPlace(s))) {
      *error =
          "/unit: the next unit to place is " + unitId(s, nextUnitToPlace(s)) + ", not " + *unit;
      return std::nullopt;
    }
    return Action::place(to);
  }
  const CellId from = cell("from");
  if (from == kNoCell) return std::nullopt;
  const CellId to = cell("to");
  if (to == kNoCell) return std::nullopt;
  const auto dir = directionBetween(sc.hexOf(from), sc.hexOf(to));
  if (!dir) {
    *error = "/to: " + sc.label(to) + " is not adjacent to " + sc.label(from);
    return std::nullopt;
  }
  if (auto unit = field("unit", false); unit && *unit != unitId(s, s.unitAt(from))) {
    *error = "/unit: " + sc.label(from) + " holds " +
             (s.unitAt(from) >= 0 ? unitId(s, s.unitAt(from)) : std::string("no unit")) + ", not " +
             *unit;
    return std::nullopt;
  }
  return Action{*kind, static_cast<uint8_t>(*dir), from};
}

std::string explainIllegal(const GameState& s, Action a) {
  if (isLegal(s, a)) return {};
  if (s.isTerminal()) return "the game is over";
  if (s.isChanceNode()) return "a chance event is pending; apply one of its outcomes first";
  const std::string phase(phaseName(s.phase));
  const Scenario& sc = s.sc();
  switch (a.kind) {
    case ActionKind::kEnd:
      return s.phase == Phase::kSetup ? "set-up ends when every unit is placed (S-2)"
                                      : "\"end\" is not available now";
    case ActionKind::kPlace:
      if (s.phase != Phase::kSetup) return "units are placed only in the set-up phase (S-2)";
      if (!sc.inSetupZone(s.side, a.cell)) {
        return sc.label(a.cell) + " is outside " + std::string(sideColor(s.side)) +
               "'s set-up zone (S-3)";
      }
      return sc.label(a.cell) + " is occupied (S-3)";
    case ActionKind::kMove:
    case ActionKind::kCharge: {
      if (s.phase != Phase::kMovement)
        return "units move and charge only in the movement phase, this is the " + phase + " phase";
      const int u = s.unitAt(a.cell);
      if (u < 0) return "no unit at " + sc.label(a.cell);
      if (s.sideOf(u) != s.side) {
        return unitId(s, u) + " belongs to " + std::string(sideColor(s.sideOf(u))) + "; " +
               std::string(sideColor(s.side)) + " is to act";
      }
      const std::string why = a.kind == ActionKind::kMove ? explainMove(s, a) : explainCharge(s, a);
      return why.empty() ? "not legal here" : why;
    }
    case ActionKind::kAttack:
    case ActionKind::kFire:
      break;
  }
  return "\"" + std::string(actionKindName(a.kind)) +
         "\" actions are not part of this rules version yet";
}

}  // namespace morne::env

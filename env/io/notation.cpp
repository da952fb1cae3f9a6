#include "env/io/notation.h"

#include <nlohmann/json.hpp>

#include "env/rules.h"

namespace morne::env {

using nlohmann::json;

namespace {

std::string unitId(const GameState& s, int u) { return u >= 0 ? s.sc().unit(u).id : "?"; }

bool isDirectional(ActionKind k) {
  return k == ActionKind::kMove || k == ActionKind::kCharge || k == ActionKind::kAttack;
}

// The hex an action points at: the neighbour for directional actions, the target hex for fire,
// the hex itself for place; kNoCell when it leaves the map.
CellId pointedCell(const Scenario& sc, Action a) {
  if (a.cell == kNoCell) return kNoCell;
  if (isDirectional(a.kind)) return a.arg < kNumDirections ? sc.neighbor(a.cell, a.arg) : kNoCell;
  if (a.kind == ActionKind::kFire) {
    const auto offsets = fireOffsets(sc.maxRange());
    return a.arg < offsets.size() ? sc.cellAt(sc.hexOf(a.cell) + offsets[a.arg]) : kNoCell;
  }
  return a.cell;
}

// The action of `kind` from `from` to `to`, or nullopt with the reason, which the rules give
// (*refusal, when asked for): the hexes are not adjacent, or beyond every gun's range.
std::optional<Action> actionBetween(const Scenario& sc, ActionKind kind, CellId from, CellId to,
                                    std::string* error, std::optional<Refusal>* refusal) {
  Refusal why;
  if (kind == ActionKind::kFire) {
    const auto offsets = fireOffsets(sc.maxRange());
    const Hex off = sc.hexOf(to) - sc.hexOf(from);
    for (size_t i = 0; i < offsets.size(); ++i) {
      if (offsets[i] == off) return Action::fire(from, static_cast<int>(i));
    }
    why = {RefusalReason::kOutOfRange, "F-GEN-3",
           sc.label(to) + " is beyond the longest artillery range of this scenario (" +
               std::to_string(sc.maxRange()) + ") from " + sc.label(from)};
  } else if (const auto dir = directionBetween(sc.hexOf(from), sc.hexOf(to))) {
    return Action{kind, static_cast<uint8_t>(*dir), from};
  } else {
    why = {RefusalReason::kNotAdjacent, kind == ActionKind::kAttack ? "C-GEN-2" : "MV-GEN-2",
           sc.label(to) + " is not adjacent to " + sc.label(from)};
  }
  *error = why.message;
  if (refusal) *refusal = std::move(why);
  return std::nullopt;
}

// Parses "FROM>TO" (or "FROM DIRECTION" for directional kinds).
std::optional<Action> parseFromTo(const Scenario& sc, ActionKind kind, std::string_view rest,
                                  std::string* error, std::optional<Refusal>* refusal) {
  const auto sep = rest.find_first_of("> ");
  if (sep == std::string_view::npos) {
    *error = "expected FROM>TO after \"" + std::string(actionKindName(kind)) + "\"";
    return std::nullopt;
  }
  const std::string_view from_text = rest.substr(0, sep);
  const std::string_view to_text = rest.substr(sep + 1);
  const CellId from = sc.cellOfLabel(from_text);
  if (from == kNoCell) {
    *error = "\"" + std::string(from_text) + "\" is not a hex of this map";
    return std::nullopt;
  }
  if (isDirectional(kind)) {
    if (const auto dir = parseDirection(to_text))
      return Action{kind, static_cast<uint8_t>(*dir), from};
  }
  const CellId to = sc.cellOfLabel(to_text);
  if (to == kNoCell) {
    *error = "\"" + std::string(to_text) + "\" is not a hex of this map";
    return std::nullopt;
  }
  return actionBetween(sc, kind, from, to, error, refusal);
}

}  // namespace

std::string actionText(const GameState& s, Action a) {
  const Scenario& sc = s.sc();
  const std::string kind(actionKindName(a.kind));
  if (a.kind == ActionKind::kEnd || a.kind == ActionKind::kHold) return kind;
  if (a.kind == ActionKind::kPlace) return kind + " " + sc.label(a.cell);
  const CellId to = pointedCell(sc, a);
  return kind + " " + sc.label(a.cell) + ">" + (to == kNoCell ? "?" : sc.label(to));
}

json actionJson(const GameState& s, Action a) {
  const Scenario& sc = s.sc();
  json j;
  j["type"] = actionKindName(a.kind);
  switch (a.kind) {
    case ActionKind::kEnd:
      j["phase"] = phaseName(s.phase);
      return j;
    case ActionKind::kHold:
      j["unit"] = unitId(s, s.charge_window);
      return j;
    case ActionKind::kPlace:
      j["unit"] = unitId(s, nextUnitToPlace(s));
      j["to"] = sc.label(a.cell);
      return j;
    case ActionKind::kMove:
    case ActionKind::kCharge:
    case ActionKind::kAttack:
    case ActionKind::kFire:
      break;
  }
  const CellId to = pointedCell(sc, a);
  j["unit"] = unitId(s, s.unitAt(a.cell));
  j["from"] = sc.label(a.cell);
  j["to"] = to == kNoCell ? "" : sc.label(to);
  if (a.kind != ActionKind::kMove) j["target"] = unitId(s, to == kNoCell ? -1 : s.unitAt(to));
  return j;
}

std::optional<Action> parseActionText(const GameState& s, std::string_view text, std::string* error,
                                      std::optional<Refusal>* refusal) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  const auto sp = text.find(' ');
  const std::string_view word = text.substr(0, sp);
  const std::string_view rest = sp == std::string_view::npos ? "" : text.substr(sp + 1);
  const auto kind = parseActionKindName(word);
  if (!kind) {
    *error = "unknown action \"" + std::string(word) +
             "\" (expected end, hold, place, move, charge, attack or fire)";
    return std::nullopt;
  }
  if (*kind == ActionKind::kEnd || *kind == ActionKind::kHold) {
    if (!rest.empty()) {
      *error = "\"" + std::string(word) + "\" takes no argument";
      return std::nullopt;
    }
    return *kind == ActionKind::kEnd ? Action::end() : Action::hold();
  }
  if (*kind == ActionKind::kPlace) {
    const CellId c = s.sc().cellOfLabel(rest);
    if (c == kNoCell) {
      *error = "\"" + std::string(rest) + "\" is not a hex of this map";
      return std::nullopt;
    }
    return Action::place(c);
  }
  return parseFromTo(s.sc(), *kind, rest, error, refusal);
}

std::optional<Action> parseActionJson(const GameState& s, const json& value, std::string* error,
                                      std::optional<Refusal>* refusal) {
  const Scenario& sc = s.sc();
  if (!value.is_object()) {
    *error = ": an action must be a JSON object";
    return std::nullopt;
  }
  for (auto it = value.begin(); it != value.end(); ++it) {
    static constexpr const char* kKeys[] = {"type", "unit", "from", "to", "target", "phase"};
    bool known = false;
    for (const char* k : kKeys) known = known || it.key() == k;
    if (!known) {
      *error = "/" + it.key() + ": unknown key";
      return std::nullopt;
    }
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
  // Optional "unit" and "target" must name what the hexes hold.
  auto check = [&](const char* key, int expected) {
    auto given = field(key, false);
    if (!given || *given == unitId(s, expected)) return true;
    *error = std::string("/") + key + ": the action concerns " +
             (expected >= 0 ? unitId(s, expected) : std::string("no unit")) + ", not " + *given;
    return false;
  };
  const auto type = field("type", true);
  if (!type) return std::nullopt;
  const auto kind = parseActionKindName(*type);
  if (!kind) {
    *error = "/type: unknown action type \"" + *type + "\"";
    return std::nullopt;
  }
  if (*kind == ActionKind::kEnd) return Action::end();
  if (*kind == ActionKind::kHold)
    return check("unit", s.charge_window) ? std::optional(Action::hold()) : std::nullopt;
  if (*kind == ActionKind::kPlace) {
    const CellId to = cell("to");
    if (to == kNoCell || !check("unit", nextUnitToPlace(s))) return std::nullopt;
    return Action::place(to);
  }
  const CellId from = cell("from");
  if (from == kNoCell) return std::nullopt;
  const CellId to = cell("to");
  if (to == kNoCell) return std::nullopt;
  std::string why;
  const auto action = actionBetween(sc, *kind, from, to, &why, refusal);
  if (!action) {
    *error = "/to: " + why;
    return std::nullopt;
  }
  if (!check("unit", s.unitAt(from)) || !check("target", s.unitAt(to))) return std::nullopt;
  return action;
}

}  // namespace morne::env

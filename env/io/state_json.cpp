#include "env/io/state_json.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "env/io/json_reader.h"
#include "env/io/state_resolution_json.h"
#include "env/io/text_file.h"
#include "env/rules.h"

namespace morne::env {

using nlohmann::json;

namespace {

std::string hashText(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

json sideOrNull(int side) { return side == kNoSide ? json(nullptr) : json(sideColor(side)); }

class StateReader {
 public:
  StateReader(const Scenario& sc, std::vector<Problem>& problems) : sc_(sc), in_(problems) {}

  GameState read(const json& j) {
    GameState s = emptyState(sc_);
    if (!in_.expectObject(j, "",
                          {"format", "scenario", "turn", "side", "phase", "pending", "reacting_to",
                           "charge_window", "combat", "units", "owners", "forts", "hash"})) {
      return s;
    }
    readHeader(j, s);
    if (const json* u = in_.required(j, "", "units")) readUnits(*u, s);
    if (const json* o = JsonReader::optional(j, "owners")) {
      readHexSides(
          *o, "/owners", "owner", [&](CellId c) { return sc_.trackedIndex(c); },
          "a passing objective or passing-zone hex", s.owner);
    }
    if (const json* f = JsonReader::optional(j, "forts")) {
      readHexSides(
          *f, "/forts", "control", [&](CellId c) { return sc_.fortIndex(c); }, "a fort",
          s.fort_control);
    }
    if (in_.ok()) checkUnits(s);
    if (in_.ok()) readResolution(in_, j, s);
    s.hash = computeHash(s);
    if (in_.ok() && !s.isTerminal() && !s.isChanceNode()) {
      ActionList legal;
      legalActions(s, legal);
      if (legal.empty()) {
        in_.fail("", "no legal action in this position and the game is not over (in the " +
                         std::string(phaseName(s.phase)) + " phase, " +
                         std::string(sideColor(s.side)) + " has nothing to do)");
      }
    }
    if (const json* h = JsonReader::optional(j, "hash"); h && in_.ok()) {
      auto text = in_.string(*h, "/hash");
      if (text && *text != hashText(s.hash)) {
        in_.fail("/hash", "does not match the state (" + hashText(s.hash) +
                              "); remove \"hash\" to load an edited state");
      }
    }
    return s;
  }

 private:
  void readHeader(const json& j, GameState& s) {
    if (const json* f = in_.required(j, "", "format")) {
      if (auto v = in_.string(*f, "/format"); v && *v != kStateFormat) {
        in_.fail("/format", "unsupported format \"" + *v + "\" (expected " + kStateFormat + ")");
      }
    }
    if (const json* n = JsonReader::optional(j, "scenario")) {
      if (auto v = in_.string(*n, "/scenario"); v && *v != sc_.name()) {
        in_.fail("/scenario",
                 "state of scenario \"" + *v + "\", but \"" + sc_.name() + "\" is loaded");
      }
    }
    if (const json* t = in_.required(j, "", "turn")) {
      s.turn = static_cast<int16_t>(in_.integer(*t, "/turn", 1, sc_.turns()).value_or(1));
    }
    if (const json* sd = in_.required(j, "", "side")) {
      auto v = in_.string(*sd, "/side");
      if (v && parseSideColor(*v)) {
        s.side = static_cast<uint8_t>(*parseSideColor(*v));
      } else if (v) {
        in_.fail("/side", "unknown side \"" + *v + "\" (blue or orange)");
      }
    }
    if (const json* p = in_.required(j, "", "phase")) {
      auto v = in_.string(*p, "/phase");
      if (v && parsePhaseName(*v)) {
        s.phase = *parsePhaseName(*v);
      } else if (v) {
        in_.fail("/phase", "unknown phase \"" + *v +
                               "\" (setup, bombardment, movement, combat, game_over, rally)");
      }
    }
  }

  void readUnits(const json& units, GameState& s) {
    if (!in_.expectArray(units, "/units")) return;
    std::vector<bool> seen(static_cast<size_t>(sc_.numUnits()), false);
    for (size_t i = 0; i < units.size(); ++i) {
      const std::string p = JsonReader::child("/units", i);
      const json& v = units[i];
      if (!in_.expectObject(v, p, {"id", "hex", "vc", "mo", "mp", "flags", "trail", "morale"}))
        continue;
      const json* id = in_.required(v, p, "id");
      auto text = id ? in_.string(*id, p + "/id") : std::nullopt;
      if (!text) continue;
      const int u = sc_.unitIndex(*text);
      if (u < 0) {
        in_.fail(p + "/id", "no unit \"" + *text + "\" in scenario " + sc_.name());
        continue;
      }
      if (seen[static_cast<size_t>(u)]) {
        in_.fail(p + "/id", "unit \"" + *text + "\" is listed twice");
        continue;
      }
      seen[static_cast<size_t>(u)] = true;
      readUnit(v, p, u, s);
    }
    for (int u = 0; u < sc_.numUnits(); ++u) {
      if (!seen[static_cast<size_t>(u)])
        in_.fail("/units", "unit \"" + sc_.unit(u).id + "\" is missing");
    }
  }

  // A list of bit names ("moved", "routed", ...) as a bit set: `name(b)` names bit b of
  // `count`; an unknown name is reported as an unknown `what`.
  unsigned readBitNames(const json& list, const std::string& p, int count, const char* (*name)(int),
                        const std::string& what) {
    unsigned bits = 0;
    if (!in_.expectArray(list, p)) return bits;
    for (size_t k = 0; k < list.size(); ++k) {
      auto text = in_.string(list[k], JsonReader::child(p, k));
      if (!text) continue;
      int bit = -1;
      for (int b = 0; b < count; ++b) {
        if (*text == name(b)) bit = b;
      }
      if (bit < 0) {
        in_.fail(JsonReader::child(p, k), "unknown " + what + " \"" + *text + "\"");
      } else {
        bits |= 1u << bit;
      }
    }
    return bits;
  }

  void readUnit(const json& v, const std::string& p, int u, GameState& s) {
    const UnitInfo& info = sc_.unit(u);
    UnitState& us = s.units[static_cast<size_t>(u)];
    if (const json* f = in_.required(v, p, "flags")) {
      us.flags = static_cast<uint16_t>(
          readBitNames(*f, p + "/flags", unit_flag::kCount, unit_flag::name, "flag"));
    }
    const bool off_map = (us.flags & (unit_flag::kEliminated | unit_flag::kAwaitingSetup)) != 0;
    if (const json* h = in_.required(v, p, "hex")) {
      if (h->is_null()) {
        if (!off_map) in_.fail(p + "/hex", "null hex needs the flag eliminated or awaiting_setup");
      } else if (auto label = in_.string(*h, p + "/hex")) {
        const CellId c = sc_.cellOfLabel(*label);
        if (c == kNoCell) {
          in_.fail(p + "/hex", "hex \"" + *label + "\" is not on the map");
        } else if (off_map) {
          in_.fail(p + "/hex", "an eliminated or unplaced unit has hex null");
        } else if (s.unit_at[static_cast<size_t>(c)] >= 0) {
          in_.fail(p + "/hex", "hex " + *label + " already holds " +
                                   sc_.unit(s.unit_at[static_cast<size_t>(c)]).id + " (U-STACK-1)");
        } else {
          us.cell = c;
          s.unit_at[static_cast<size_t>(c)] = static_cast<int8_t>(u);
        }
      }
    }
    const int min_vc = off_map ? 0 : 1;
    if (const json* x = in_.required(v, p, "vc")) {
      us.vc = static_cast<int8_t>(in_.integer(*x, p + "/vc", min_vc, info.vc).value_or(info.vc));
    }
    if (const json* x = in_.required(v, p, "mo")) {
      us.mo = static_cast<int8_t>(in_.integer(*x, p + "/mo", 0, info.mo).value_or(0));
    }
    if (const json* x = in_.required(v, p, "mp")) {
      us.mp =
          static_cast<int8_t>(in_.integer(*x, p + "/mp", 0, zobrist::kMaxValue - 1).value_or(0));
    }
    if (auto it = v.find("trail"); it != v.end()) readTrail(*it, p + "/trail", us);
    if (auto it = v.find("morale"); it != v.end()) readMorale(*it, p + "/morale", u, s);
  }

  // The optional variant morale status (docs/variants.md): {"status": [...], "fatigue": n,
  // "pursues": "unit id"}.
  void readMorale(const json& v, const std::string& p, int u, GameState& s) {
    if (!sc_.rules().anyVariant()) {
      in_.fail(p,
               "a morale status needs a variant module in the scenario's rules "
               "(docs/variants.md)");
      return;
    }
    if (!in_.expectObject(v, p, {"status", "fatigue", "pursues"})) return;
    MoraleStatus m;
    if (const json* st = JsonReader::optional(v, "status")) {
      m.bits = static_cast<uint16_t>(
          readBitNames(*st, p + "/status", morale_bit::kCount, morale_bit::name, "morale status"));
    }
    if (const json* f = JsonReader::optional(v, "fatigue")) {
      m.fatigue = static_cast<uint8_t>(
          in_.integer(*f, p + "/fatigue", 0, sc_.rules().fatigue_cap).value_or(0));
    }
    if (const json* t = JsonReader::optional(v, "pursues")) {
      if (auto id = in_.string(*t, p + "/pursues")) {
        const int target = sc_.unitIndex(*id);
        if (target < 0 || sc_.unit(target).side == sc_.unit(u).side) {
          in_.fail(p + "/pursues", "\"" + *id + "\" is not an enemy unit of this scenario");
        } else {
          m.pursued = static_cast<uint8_t>(target + 1);
        }
      }
    }
    const bool pursuing = (m.bits & morale_bit::kPursuing) != 0;
    if (pursuing != (m.pursued != 0)) {
      in_.fail(p, "status \"pursuing\" and \"pursues\" go together");
    }
    if ((m.bits & morale_bit::kRouted) && pursuing) {
      in_.fail(p + "/status", "a unit cannot be routed and pursuing at once");
    }
    s.morale[static_cast<size_t>(u)] = m;
  }

  // The optional step trail: the directions of the unit's last steps this player-turn, oldest
  // first, at most two, on a unit that is on the map.
  void readTrail(const json& list, const std::string& p, UnitState& us) {
    if (!in_.expectArray(list, p)) return;
    if (list.size() > 2) {
      in_.fail(p, "a trail holds at most the last 2 steps, found " + std::to_string(list.size()));
      return;
    }
    if (!list.empty() && us.cell == kNoCell) {
      in_.fail(p, "a unit off the map has no trail");
      return;
    }
    for (size_t k = 0; k < list.size(); ++k) {
      auto name = in_.string(list[k], JsonReader::child(p, k));
      if (!name) continue;
      const auto dir = parseDirection(*name);
      if (!dir) {
        in_.fail(JsonReader::child(p, k),
                 "\"" + *name + "\" is not a direction (E, NE, NW, W, SW, SE)");
        continue;
      }
      us.trail = step_trail::push(us.trail, *dir);
    }
  }

  // What the rules leave behind for every unit, beyond the ranges checked while reading.
  void checkUnits(const GameState& s) {
    for (int u = 0; u < sc_.numUnits(); ++u) {
      const UnitState& us = s.unit(u);
      const std::string p = "/units/" + std::to_string(u);
      const std::string& id = sc_.unit(u).id;
      const bool eliminated = (us.flags & unit_flag::kEliminated) != 0;
      const bool awaiting = (us.flags & unit_flag::kAwaitingSetup) != 0;
      if (eliminated && (us.flags != unit_flag::kEliminated || us.mp != 0)) {
        in_.fail(p, id + ": an eliminated unit has no other flag and mp 0 (U-ELIM-1)");
      }
      if (awaiting) {
        // Blue places its units in its first player-turn, orange in its own (S-2): a unit
        // waits only in turn 1, and only in its side's set-up phase or before its side's turn.
        const int side = sc_.unit(u).side;
        const bool own_setup = side == s.side && s.phase == Phase::kSetup;
        const bool before_own_turn = side == 1 && s.side == 0;
        if (s.turn != 1 || !(own_setup || before_own_turn)) {
          in_.fail(p, id + ": a unit awaits set-up only in turn 1, in its side's set-up phase or "
                           "before its side's first player-turn (S-2)");
        }
        if (eliminated || us.mp != 0 || us.flags != unit_flag::kAwaitingSetup ||
            us.vc != sc_.unit(u).vc || us.mo != sc_.unit(u).mo) {
          in_.fail(p, id + ": a unit awaiting set-up is at full strength with no other flag");
        }
      }
    }
  }

  // Reads a list of {"hex": LABEL, key: SIDE} entries. `index` maps a cell to its slot in
  // `sides` (or -1, reported with `what`, the kind of hex the list must name).
  template <size_t N, typename IndexFn>
  void readHexSides(const json& list, const std::string& path, const char* key, IndexFn index,
                    const std::string& what, std::array<int8_t, N>& sides) {
    if (!in_.expectArray(list, path)) return;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string p = JsonReader::child(path, i);
      if (!in_.expectObject(list[i], p, {"hex", key})) continue;
      const json* h = in_.required(list[i], p, "hex");
      auto label = h ? in_.string(*h, p + "/hex") : std::nullopt;
      const CellId c = label ? sc_.cellOfLabel(*label) : kNoCell;
      const int slot = c == kNoCell ? -1 : index(c);
      if (label && slot < 0) {
        in_.fail(p + "/hex", "\"" + *label + "\" is not " + what);
        continue;
      }
      if (const json* o = in_.required(list[i], p, key); o && slot >= 0) {
        sides[static_cast<size_t>(slot)] = static_cast<int8_t>(readSide(*o, p + "/" + key));
      }
    }
  }

  int readSide(const json& v, const std::string& p) {
    if (v.is_null()) return kNoSide;
    auto text = in_.string(v, p);
    if (text && parseSideColor(*text)) return *parseSideColor(*text);
    if (text) in_.fail(p, "unknown side \"" + *text + "\" (blue, orange or null)");
    return kNoSide;
  }

  const Scenario& sc_;
  JsonReader in_;
};

}  // namespace

json stateToJson(const GameState& s) {
  const Scenario& sc = s.sc();
  json j;
  j["format"] = kStateFormat;
  j["scenario"] = sc.name();
  j["turn"] = s.turn;
  j["side"] = sideColor(s.side);
  j["phase"] = phaseName(s.phase);
  writeResolution(s, j);
  json units = json::array();
  for (int u = 0; u < s.num_units; ++u) {
    const UnitState& us = s.unit(u);
    json flags = json::array();
    for (int b = 0; b < unit_flag::kCount; ++b) {
      if (us.flags & (1u << b)) flags.push_back(unit_flag::name(b));
    }
    units.push_back({{"id", sc.unit(u).id},
                     {"hex", us.cell == kNoCell ? json(nullptr) : json(sc.label(us.cell))},
                     {"vc", us.vc},
                     {"mo", us.mo},
                     {"mp", us.mp},
                     {"flags", flags}});
    if (us.trail != 0) {
      json trail = json::array();
      for (int back = 1; back >= 0; --back) {
        const int dir = step_trail::direction(us.trail, back);
        if (dir >= 0) trail.push_back(directionName(dir));
      }
      units.back()["trail"] = trail;
    }
    const MoraleStatus& m = s.moraleOf(u);
    if (m.packed() != 0) {
      json status = json::array();
      for (int b = 0; b < morale_bit::kCount; ++b) {
        if (m.bits & (1u << b)) status.push_back(morale_bit::name(b));
      }
      json morale = {{"status", status}, {"fatigue", m.fatigue}};
      if (m.pursued != 0) morale["pursues"] = sc.unit(m.pursued - 1).id;
      units.back()["morale"] = morale;
    }
  }
  j["units"] = units;
  json owners = json::array();
  for (size_t i = 0; i < sc.trackedCells().size(); ++i) {
    owners.push_back({{"hex", sc.label(sc.trackedCells()[i])}, {"owner", sideOrNull(s.owner[i])}});
  }
  j["owners"] = owners;
  json forts = json::array();
  for (size_t f = 0; f < sc.fortCells().size(); ++f) {
    forts.push_back(
        {{"hex", sc.label(sc.fortCells()[f])}, {"control", sideOrNull(s.fort_control[f])}});
  }
  j["forts"] = forts;
  j["hash"] = hashText(s.hash);
  return j;
}

GameState stateFromJson(const Scenario& sc, const json& j, const std::string& source) {
  std::vector<Problem> problems;
  GameState s = StateReader(sc, problems).read(j);
  if (!problems.empty()) throw ValidationError(source, std::move(problems));
  return s;
}

GameState loadStateFile(const Scenario& sc, const std::string& path) {
  const std::string text = readTextFile(path, "state file");
  std::vector<Problem> problems;
  const std::optional<json> j = parseJsonText(text, problems);
  if (!j) throw ValidationError(printablePath(path), std::move(problems));
  return stateFromJson(sc, *j, printablePath(path));
}

}  // namespace morne::env

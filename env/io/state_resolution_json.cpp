#include "env/io/state_resolution_json.h"

#include <string>
#include <tuple>

#include "env/morale_model.h"

namespace morne::env {

using nlohmann::json;

namespace {

constexpr const char* kCombatFlagNames[] = {"attacker_tests",  "defender_tests",
                                            "attacker_tested", "defender_tested",
                                            "attacker_failed", "defender_failed"};

// The occasions of a morale check outside combat (V-MOR-6), as written in JSON.
struct CheckOccasionName {
  TestOccasion occasion;
  const char* name;
};
constexpr CheckOccasionName kCheckOccasions[] = {{TestOccasion::kPassedThrough, "passed_through"},
                                                 {TestOccasion::kRally, "rally"},
                                                 {TestOccasion::kStopPursuit, "stop_pursuit"},
                                                 {TestOccasion::kPoorOdds, "poor_odds"},
                                                 {TestOccasion::kAfterFire, "after_fire"}};

json unitOrNull(const GameState& s, int u) {
  return u < 0 ? json(nullptr) : json(s.sc().unit(u).id);
}

class ResolutionReader {
 public:
  ResolutionReader(JsonReader& in, GameState& s) : in_(in), s_(s), sc_(s.sc()) {}

  void read(const json& j) {
    if (const json* v = JsonReader::optional(j, "combat")) readCombat(*v);
    if (const json* v = JsonReader::optional(j, "pending")) readPending(*v);
    if (const json* v = JsonReader::optional(j, "reacting_to"))
      s_.reacting_to = static_cast<int8_t>(unitRef(*v, "/reacting_to"));
    if (const json* v = JsonReader::optional(j, "charge_window"))
      s_.charge_window = static_cast<int8_t>(unitRef(*v, "/charge_window"));
    if (in_.ok()) check();
  }

 private:
  // A unit id, or null (-1).
  int unitRef(const json& v, const std::string& path) {
    if (v.is_null()) return -1;
    auto id = in_.string(v, path);
    if (!id) return -1;
    const int u = sc_.unitIndex(*id);
    if (u < 0) in_.fail(path, "no unit \"" + *id + "\"");
    return u;
  }

  void readPending(const json& v) {
    if (v.is_null()) return;
    if (!in_.expectObject(
            v, "/pending",
            {"kind", "unit", "target", "count", "reaction", "single_coin", "occasion"}))
      return;
    const json* k = in_.required(v, "/pending", "kind");
    auto name = k ? in_.string(*k, "/pending/kind") : std::nullopt;
    const auto kind = name ? parseChanceKindName(*name) : std::nullopt;
    if (name && (!kind || *kind == ChanceKind::kNone)) {
      in_.fail("/pending/kind",
               "unknown chance event \"" + *name +
                   "\" (marsh_test, charge_test, fire_die, fire_coin, combat_die, morale_test, "
                   "morale_check, free_attack)");
      return;
    }
    if (!kind) return;
    Pending& p = s_.pending;
    p.kind = *kind;
    if (const json* u = in_.required(v, "/pending", "unit"))
      p.unit = static_cast<int8_t>(unitRef(*u, "/pending/unit"));
    if (const json* t = JsonReader::optional(v, "target"))
      p.target = static_cast<int8_t>(unitRef(*t, "/pending/target"));
    if (const json* c = JsonReader::optional(v, "count"))
      p.count = static_cast<int8_t>(in_.integer(*c, "/pending/count", 0, 20).value_or(0));
    if (const json* r = JsonReader::optional(v, "reaction");
        r && in_.boolean(*r, "/pending/reaction").value_or(false)) {
      p.flags |= pending_flag::kReaction;
    }
    if (const json* c = JsonReader::optional(v, "single_coin");
        c && in_.boolean(*c, "/pending/single_coin").value_or(false)) {
      p.flags |= pending_flag::kSingleCoin;
    }
    const json* o = JsonReader::optional(v, "occasion");
    if (p.kind == ChanceKind::kMoraleCheck && !o) {
      in_.fail("/pending", "a morale check needs its \"occasion\"");
    } else if (o && p.kind != ChanceKind::kMoraleCheck) {
      in_.fail("/pending/occasion", "only a morale check has an occasion");
    } else if (o) {
      auto occasion = in_.string(*o, "/pending/occasion");
      bool known = false;
      for (size_t i = 0; occasion && i < std::size(kCheckOccasions); ++i) {
        if (*occasion == kCheckOccasions[i].name) {
          p.flags = static_cast<uint8_t>(kCheckOccasions[i].occasion);
          known = true;
        }
      }
      if (occasion && !known) {
        in_.fail("/pending/occasion",
                 "unknown occasion \"" + *occasion +
                     "\" (passed_through, rally, stop_pursuit, poor_odds, after_fire)");
      }
    }
  }

  void readCombat(const json& v) {
    if (v.is_null()) return;
    if (!in_.expectObject(v, "/combat",
                          {"attacker", "defender", "attacker_hex", "defender_hex", "column",
                           "die_modifier", "flags", "outcomes"})) {
      return;
    }
    CombatRecord& c = s_.combat;
    if (const json* a = in_.required(v, "/combat", "attacker"))
      c.attacker = static_cast<int8_t>(unitRef(*a, "/combat/attacker"));
    if (const json* d = in_.required(v, "/combat", "defender"))
      c.defender = static_cast<int8_t>(unitRef(*d, "/combat/defender"));
    for (const char* key : {"attacker_hex", "defender_hex"}) {
      const json* h = in_.required(v, "/combat", key);
      auto label = h ? in_.string(*h, std::string("/combat/") + key) : std::nullopt;
      const CellId cell = label ? sc_.cellOfLabel(*label) : kNoCell;
      if (label && cell == kNoCell)
        in_.fail(std::string("/combat/") + key, "not a hex of this map");
      (std::string(key) == "attacker_hex" ? c.attacker_cell : c.defender_cell) = cell;
    }
    if (const json* x = in_.required(v, "/combat", "column"))
      c.column = static_cast<int8_t>(in_.integer(*x, "/combat/column", -7, 7).value_or(0));
    if (const json* x = in_.required(v, "/combat", "die_modifier")) {
      c.die_modifier =
          static_cast<int8_t>(in_.integer(*x, "/combat/die_modifier", -20, 20).value_or(0));
    }
    if (const json* o = JsonReader::optional(v, "outcomes")) readOutcomes(*o, c);
    const json* f = in_.required(v, "/combat", "flags");
    if (!f || !in_.expectArray(*f, "/combat/flags")) return;
    for (size_t i = 0; i < f->size(); ++i) {
      auto name = in_.string((*f)[i], JsonReader::child("/combat/flags", i));
      bool known = false;
      for (size_t b = 0; name && b < std::size(kCombatFlagNames); ++b) {
        if (*name == kCombatFlagNames[b]) {
          c.flags = static_cast<uint8_t>(c.flags | (1u << b));
          known = true;
        }
      }
      if (name && !known)
        in_.fail(JsonReader::child("/combat/flags", i), "unknown flag \"" + *name + "\"");
    }
  }

  // The graded results of a variant model's tests: {"defender": "halt", "attacker": ...}.
  void readOutcomes(const json& v, CombatRecord& c) {
    if (!in_.expectObject(v, "/combat/outcomes", {"defender", "attacker"})) return;
    for (const char* who : {"defender", "attacker"}) {
      const json* x = JsonReader::optional(v, who);
      if (!x) continue;
      const std::string path = std::string("/combat/outcomes/") + who;
      auto name = in_.string(*x, path);
      int found = -1;
      for (int o = 1; name && o < kNumMoraleOutcomes; ++o) {
        if (*name == moraleOutcomeName(static_cast<MoraleOutcome>(o))) found = o;
      }
      if (name && found < 0) {
        in_.fail(path, "unknown result \"" + *name +
                           "\" (uncontrolled, halt, retreat, rout, flight; obey is left out)");
      } else if (found > 0) {
        c.outcomes =
            static_cast<uint8_t>(std::string(who) == "defender" ? (c.outcomes & 0xF0) | found
                                                                : (c.outcomes & 0x0F) | found << 4);
      }
    }
  }

  bool onMap(int u) const { return u >= 0 && s_.unit(u).cell != kNoCell; }
  bool phasing(int u) const { return u >= 0 && sc_.unit(u).side == s_.side; }
  bool adjacent(int a, int b) const { return sc_.distance(s_.unit(a).cell, s_.unit(b).cell) == 1; }

  // The combination must be one the rules can leave behind.
  void check() {
    const Pending& p = s_.pending;
    const CombatRecord& c = s_.combat;
    const bool fire = p.kind == ChanceKind::kFireDie || p.kind == ChanceKind::kFireCoin;
    const bool reaction = (p.flags & pending_flag::kReaction) != 0;
    switch (p.kind) {
      case ChanceKind::kNone:
        break;
      case ChanceKind::kMarshTest:
        expect(s_.phase == Phase::kMovement && phasing(p.unit) && onMap(p.unit) &&
                   sc_.terrain(s_.unit(p.unit).cell) == Terrain::kMarsh,
               "/pending",
               "a marsh test needs a phasing unit on a marsh hex in the movement phase");
        break;
      case ChanceKind::kChargeTest:
        expect(s_.phase == Phase::kMovement && phasing(p.unit) && onMap(p.unit) &&
                   sc_.unit(p.unit).type == UnitType::kCavalry && onMap(p.target) &&
                   !phasing(p.target) && adjacent(p.unit, p.target),
               "/pending",
               "a charge test needs phasing cavalry next to an enemy target in the movement phase");
        break;
      case ChanceKind::kFireDie:
      case ChanceKind::kFireCoin:
        expect(
            onMap(p.unit) && isArtillery(sc_.unit(p.unit).type) && onMap(p.target) &&
                sc_.unit(p.target).side != sc_.unit(p.unit).side &&
                (reaction ? s_.phase == Phase::kMovement && !phasing(p.unit) &&
                                s_.reacting_to == p.target
                          : s_.phase == Phase::kBombardment && phasing(p.unit)),
            "/pending",
            "a fire needs a gun and an enemy target on the map: bombardment by the phasing side, "
            "or reaction fire at the unit in \"reacting_to\"");
        expect(p.kind == ChanceKind::kFireDie || p.count > 0, "/pending/count",
               "a loss coin needs points to split");
        break;
      case ChanceKind::kMoraleCheck:
        expect(onMap(p.unit) && !isGeneral(sc_.unit(p.unit).type) && sc_.rules().anyVariant(),
               "/pending", "a morale check needs a unit on the map and a variant module");
        if (p.flags == static_cast<uint8_t>(TestOccasion::kPoorOdds)) {
          expect(s_.phase == Phase::kCombat && onMap(p.unit) && phasing(p.unit) &&
                     onMap(p.target) && !phasing(p.target) && adjacent(p.unit, p.target),
                 "/pending",
                 "a test to attack at poor odds needs the phasing attacker and its target next "
                 "to it in the combat phase (V-MOR-7)");
        } else if (p.flags == static_cast<uint8_t>(TestOccasion::kAfterFire)) {
          expect(onMap(p.unit) && p.target >= 0 && isArtillery(sc_.unit(p.target).type) &&
                     sc_.unit(p.target).side != sc_.unit(p.unit).side,
                 "/pending",
                 "a test after fire needs the unit fired at and the enemy gun as \"target\" "
                 "(V-MOR-8)");
        } else {
          expect(p.target < 0, "/pending/target", "this morale check has no target");
        }
        break;
      case ChanceKind::kFreeAttack:
        expect(onMap(p.unit) && onMap(p.target) && adjacent(p.unit, p.target) &&
                   s_.pursuing(p.unit) && s_.routed(p.target),
               "/pending", "a free attack needs a pursuer next to a routed enemy (V-PUR-4)");
        break;
      case ChanceKind::kCombatDie:
      case ChanceKind::kMoraleTest:
        expect(s_.phase == Phase::kCombat && c.active(), "/pending",
               "a combat event needs the combat in \"combat\"");
        expect(p.kind == ChanceKind::kCombatDie ||
                   (onMap(p.unit) && (p.unit == c.attacker || p.unit == c.defender)),
               "/pending/unit", "a morale test concerns the attacker or the defender, on the map");
        if (p.kind == ChanceKind::kMoraleTest && onMap(p.unit)) checkMoraleTest(p.unit);
        break;
    }
    expect(s_.phase != Phase::kRally || p.kind == ChanceKind::kMoraleCheck ||
               p.kind == ChanceKind::kFreeAttack,
           "/phase", "the rally phase is only ever entered for a morale check or a free attack");
    if (c.active()) {
      expect(p.kind == ChanceKind::kCombatDie || p.kind == ChanceKind::kMoraleTest, "/combat",
             "a combat in progress always waits for its die or a morale test");
      expect(phasing(c.attacker) && c.defender >= 0 && !phasing(c.defender), "/combat",
             "the attacker belongs to the phasing side, the defender to the other");
      if (c.defender >= 0) checkCombat();
    }
    if (s_.reacting_to >= 0) {
      // Between two reaction fires the mover may be taking its test after fire (V-MOR-8).
      const bool test_after_fire = p.kind == ChanceKind::kMoraleCheck &&
                                   p.flags == static_cast<uint8_t>(TestOccasion::kAfterFire) &&
                                   p.unit == s_.reacting_to;
      expect((fire && reaction) || test_after_fire, "/reacting_to",
             "reaction fire in progress needs its fire, or its target's test after fire, pending");
    } else {
      expect(!(fire && reaction), "/pending/reaction", "reaction fire needs \"reacting_to\"");
    }
    if (s_.charge_window >= 0) {
      const int u = s_.charge_window;
      expect(
          s_.phase == Phase::kMovement && phasing(u) && onMap(u) &&
              sc_.unit(u).type == UnitType::kCavalry &&
              (p.kind == ChanceKind::kNone || (p.kind == ChanceKind::kChargeTest && p.unit == u)),
          "/charge_window", "a charge decision needs phasing cavalry in the movement phase");
    }
  }

  // A combat waiting for a die stands where it was declared (retreats and advances come after
  // every test): the two hexes in contact, each combatant on its own or eliminated, and marked
  // as having attacked and been attacked (C-GEN-1).
  void checkCombat() {
    const CombatRecord& c = s_.combat;
    const bool cells_known = c.attacker_cell != kNoCell && c.defender_cell != kNoCell;
    expect(cells_known && sc_.distance(c.attacker_cell, c.defender_cell) == 1, "/combat",
           "the attacker's and the defender's hexes must be in contact (C-GEN-2)");
    if (!cells_known) return;
    for (const auto& [u, cell, flag, who] :
         {std::tuple{int{c.attacker}, c.attacker_cell, unit_flag::kAttacked, "attacker"},
          std::tuple{int{c.defender}, c.defender_cell, unit_flag::kDefended, "defender"}}) {
      if (!onMap(u)) continue;  // eliminated by the combat's losses
      expect(s_.unit(u).cell == cell, "/combat",
             std::string("the ") + who + " " + sc_.unit(u).id + " is not on its hex " +
                 sc_.label(cell) + " of the declaration");
      expect(s_.has(u, flag), "/combat",
             std::string("the ") + who + " " + sc_.unit(u).id + " lacks the flag " +
                 (flag == unit_flag::kAttacked ? "attacked" : "defended"));
    }
    const uint8_t any_test = combat_flag::kAttackerTests | combat_flag::kDefenderTests |
                             combat_flag::kAttackerTested | combat_flag::kDefenderTested |
                             combat_flag::kAttackerFailed | combat_flag::kDefenderFailed;
    expect(s_.pending.kind != ChanceKind::kCombatDie || (c.flags & any_test) == 0, "/combat/flags",
           "before its die is rolled a combat has no morale test flags");
  }

  // A morale test is a die only for a unit of MO 1..8 (MO 0 fails and MO 9 passes without
  // one; generals take none, CMD-6), in its turn: the defender's first (C-MOR-1).
  void checkMoraleTest(int u) {
    const CombatRecord& c = s_.combat;
    const int mo = s_.unit(u).mo;
    const bool mp = sc_.rules().morale_model == MoraleModel::kMp;  // variants always roll
    expect(!isGeneral(sc_.unit(u).type) && (!mp || (mo > 0 && mo < 9)), "/pending/unit",
           "a morale test die is rolled only for a unit of morale 1..8 (MO " + std::to_string(mo) +
               " needs no die), never for a general");
    const bool defender = u == c.defender;
    const uint8_t tests = defender ? combat_flag::kDefenderTests : combat_flag::kAttackerTests;
    const uint8_t tested = defender ? combat_flag::kDefenderTested : combat_flag::kAttackerTested;
    expect((c.flags & tests) && !(c.flags & tested), "/combat/flags",
           "the unit tested must have a test due and not yet resolved");
    if (!defender) {
      expect(!(c.flags & combat_flag::kDefenderTests) || (c.flags & combat_flag::kDefenderTested),
             "/combat/flags", "the defender tests its morale before the attacker (C-MOR-1)");
    }
  }

  void expect(bool ok, const std::string& path, const std::string& message) {
    if (!ok) in_.fail(path, message);
  }

  JsonReader& in_;
  GameState& s_;
  const Scenario& sc_;
};

}  // namespace

void writeResolution(const GameState& s, json& j) {
  const Pending& p = s.pending;
  if (s.isChanceNode()) {
    json pj = {{"kind", chanceKindName(p.kind)}, {"unit", unitOrNull(s, p.unit)}};
    if (p.target >= 0) pj["target"] = unitOrNull(s, p.target);
    if (p.count) pj["count"] = p.count;
    if (p.flags & pending_flag::kReaction) pj["reaction"] = true;
    if (p.flags & pending_flag::kSingleCoin) pj["single_coin"] = true;
    for (const CheckOccasionName& o : kCheckOccasions) {
      if (p.kind == ChanceKind::kMoraleCheck && p.flags == static_cast<uint8_t>(o.occasion))
        pj["occasion"] = o.name;
    }
    j["pending"] = pj;
  } else {
    j["pending"] = nullptr;
  }
  j["reacting_to"] = unitOrNull(s, s.reacting_to);
  j["charge_window"] = unitOrNull(s, s.charge_window);
  const CombatRecord& c = s.combat;
  if (!c.active()) {
    j["combat"] = nullptr;
    return;
  }
  json flags = json::array();
  for (size_t b = 0; b < std::size(kCombatFlagNames); ++b) {
    if (c.flags & (1u << b)) flags.push_back(kCombatFlagNames[b]);
  }
  j["combat"] = {{"attacker", unitOrNull(s, c.attacker)},
                 {"defender", unitOrNull(s, c.defender)},
                 {"attacker_hex", s.sc().label(c.attacker_cell)},
                 {"defender_hex", s.sc().label(c.defender_cell)},
                 {"column", c.column},
                 {"die_modifier", c.die_modifier},
                 {"flags", flags}};
  if (c.outcomes != 0) {
    json outcomes = json::object();
    if (c.outcomes & 15)
      outcomes["defender"] = moraleOutcomeName(static_cast<MoraleOutcome>(c.outcomes & 15));
    if (c.outcomes >> 4)
      outcomes["attacker"] = moraleOutcomeName(static_cast<MoraleOutcome>(c.outcomes >> 4));
    j["combat"]["outcomes"] = outcomes;
  }
}

void readResolution(JsonReader& in, const json& j, GameState& s) {
  ResolutionReader(in, s).read(j);
}

}  // namespace morne::env

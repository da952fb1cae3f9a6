// The engine protocol's questions a player asks on screen: line of sight between two hexes,
// and the previews of a fire or an attack (docs/protocol.md).

#include "cli/engine_session.h"
#include "cli/request_error.h"
#include "env/crt.h"
#include "env/io/notation.h"
#include "env/los.h"
#include "env/preview.h"
#include "env/rules.h"

namespace morne::cli {

using nlohmann::json;

namespace {

env::CellId hexArgument(const env::Scenario& sc, const json& req, const char* key) {
  if (!req.contains(key) || !req[key].is_string()) {
    throw RequestError{"bad_request", std::string("give \"") + key + "\" as a hex label"};
  }
  const env::CellId c = sc.cellOfLabel(req[key].get<std::string>());
  if (c == env::kNoCell)
    throw RequestError{"bad_request", std::string("\"") + key + "\" is not a hex of this map"};
  return c;
}

json probabilityJson(const env::Probability& p) {
  return {{"probability", p.value()}, {"num", p.num}, {"den", p.den}};
}

json unitOutcomeJson(const env::Scenario& sc, const env::UnitOutcome& o) {
  return {{"unit", sc.unit(o.unit).id},
          {"vc", o.vc},
          {"mo", o.mo},
          {"hex", o.cell == env::kNoCell ? json(nullptr) : json(sc.label(o.cell))},
          {"eliminated", o.cell == env::kNoCell},
          {"retreated", o.retreated},
          {"advanced", o.advanced},
          {"victorious", o.victorious}};
}

json effectsJson(uint8_t effects) {
  json out = json::array();
  if (effects & env::vc_effect::kDoubled) out.push_back("doubled");
  if (effects & env::vc_effect::kHalved) out.push_back("halved");
  if (effects & env::vc_effect::kStreamDivided) out.push_back("stream");
  if (effects & env::vc_effect::kVictorious) out.push_back("victorious");
  return out;
}

// The legal action of `kind` from `from` to `to`, or a RequestError saying why not.
env::Action legalAction(const env::GameState& s, const char* kind, env::CellId from,
                        env::CellId to) {
  std::string error;
  const json request = {{"type", kind}, {"from", s.sc().label(from)}, {"to", s.sc().label(to)}};
  const auto a = env::parseActionJson(s, request, &error);
  if (!a) throw RequestError{"bad_request", error};
  if (const std::string why = env::explainIllegal(s, *a); !why.empty()) {
    throw RequestError{"illegal_action", env::actionText(s, *a) + ": " + why};
  }
  return *a;
}

}  // namespace

int EngineSession::unitArgument(const json& req, const char* key) const {
  const env::GameState& s = game();
  const env::Scenario& sc = s.sc();
  if (!req.contains(key) || !req[key].is_string()) {
    throw RequestError{"bad_request",
                       std::string("give \"") + key + "\": a unit id or the hex it stands on"};
  }
  const std::string text = req[key].get<std::string>();
  if (const int u = sc.unitIndex(text); u >= 0) return u;
  const env::CellId c = sc.cellOfLabel(text);
  if (c == env::kNoCell)
    throw RequestError{"bad_request",
                       "\"" + text + "\" is neither a unit id nor a hex of this map"};
  if (s.unitAt(c) < 0) throw RequestError{"bad_request", "no unit at " + sc.label(c)};
  return s.unitAt(c);
}

json EngineSession::lineOfSight(const json& req) const {
  expectKeys(req, {"from", "to"});
  const env::Scenario& sc = game().sc();
  const env::CellId from = hexArgument(sc, req, "from");
  const env::CellId to = hexArgument(sc, req, "to");
  auto terrain = [&sc](env::Hex h) { return sc.losTerrain(h); };
  const env::LosResult r =
      env::lineOfSight(sc.hexOf(from), sc.hexOf(to), terrain, sc.rules().los_obstacle_height);
  json blocking = json::array();
  for (env::Hex h : r.blocking) blocking.push_back(sc.label(sc.cellAt(h)));
  return {{"from", sc.label(from)},
          {"to", sc.label(to)},
          {"distance", sc.distance(from, to)},
          {"visible", r.visible},
          {"blocking", blocking}};
}

json EngineSession::previewFire(const json& req) const {
  expectKeys(req, {"gun", "target"});
  const env::GameState& s = game();
  const env::Scenario& sc = s.sc();
  const int gun = unitArgument(req, "gun");
  const int target = unitArgument(req, "target");
  if (!s.onMap(gun) || !s.onMap(target))
    throw RequestError{"illegal_action", "both units must be on the map"};
  const env::Action a = legalAction(s, "fire", s.unit(gun).cell, s.unit(target).cell);
  const env::FirePreview p = env::previewFire(s, a);
  json outcomes = json::array();
  for (const env::Outcome& o : p.outcomes) {
    json j = probabilityJson(o.probability);
    j["target"] = unitOutcomeJson(sc, o.units[0]);
    outcomes.push_back(j);
  }
  return {{"gun", sc.unit(gun).id},
          {"target", sc.unit(target).id},
          {"vt", p.vt},
          {"distance", p.distance},
          {"modifiers",
           {{"distance", p.modifiers.distance},
            {"target_type", p.modifiers.target_type},
            {"terrain", p.modifiers.terrain},
            {"reaction", p.modifiers.reaction},
            {"total", p.modifiers.total()}}},
          {"losses_by_d4", p.losses_by_die},
          {"outcomes", outcomes}};
}

json EngineSession::previewCombat(const json& req) const {
  expectKeys(req, {"attacker", "defender"});
  const env::GameState& s = game();
  const env::Scenario& sc = s.sc();
  const int attacker = unitArgument(req, "attacker");
  const int defender = unitArgument(req, "defender");
  if (!s.onMap(attacker) || !s.onMap(defender))
    throw RequestError{"illegal_action", "both units must be on the map"};
  const env::Action a = legalAction(s, "attack", s.unit(attacker).cell, s.unit(defender).cell);
  const env::CombatPreview p = env::previewCombat(s, a);
  json units = json::array();
  for (const env::CombatContributor& c : p.odds.units) {
    units.push_back({{"unit", sc.unit(c.unit).id},
                     {"side", c.attacking ? "attack" : "defence"},
                     {"role", c.principal ? (c.attacking ? "attacker" : "defender") : "support"},
                     {"vc", c.base_vc},
                     {"modified_vc", c.vc},
                     {"effects", effectsJson(c.effects)}});
  }
  json dice = json::array();
  for (const auto& row : p.dice) {
    dice.push_back({{"d6", row.d6}, {"die", row.die}, {"result", env::crtCellText(row.result)}});
  }
  json outcomes = json::array();
  for (const env::Outcome& o : p.outcomes) {
    json j = probabilityJson(o.probability);
    j["attacker"] = unitOutcomeJson(sc, o.units[0]);
    j["defender"] = unitOutcomeJson(sc, o.units[1]);
    outcomes.push_back(j);
  }
  const env::CombatOdds& odds = p.odds;
  return {{"attacker", sc.unit(attacker).id},
          {"defender", sc.unit(defender).id},
          {"attack", odds.attack},
          {"defence", odds.defence},
          {"odds", env::oddsName(odds.column)},
          {"units", units},
          {"die_modifiers",
           {{"hamlet", odds.hamlet},
            {"slope", odds.slope},
            {"marsh", odds.marsh},
            {"dune", odds.dune},
            {"fort", odds.fort},
            {"morale", odds.morale},
            {"total", odds.dieModifier()}}},
          {"dice", dice},
          {"outcomes", outcomes}};
}

}  // namespace morne::cli

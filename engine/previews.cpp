// The engine protocol's previews, what a player asks on screen before acting: a bombardment,
// an attack, and a movement step with the reaction fire it draws (docs/protocol.md).

#include "engine/position_queries.h"
#include "engine/request_error.h"
#include "env/crt.h"
#include "env/io/notation.h"
#include "env/preview.h"
#include "env/rules.h"

namespace morne::engine {

using nlohmann::json;

namespace {

json probabilityJson(const env::Probability& p) {
  return {{"probability", p.value()}, {"num", p.num}, {"den", p.den}};
}

json unitOutcomeJson(const env::Scenario& sc, const env::UnitOutcome& o) {
  json j = {{"unit", sc.unit(o.unit).id},
            {"vc", o.vc},
            {"mo", o.mo},
            {"hex", o.cell == env::kNoCell ? json(nullptr) : json(sc.label(o.cell))},
            {"eliminated", o.cell == env::kNoCell},
            {"retreated", o.retreated},
            {"retreat_zocs", o.retreat_zocs},
            {"advanced", o.advanced},
            {"victorious", o.victorious}};
  // The variant modules' states (docs/variants.md), only when they apply.
  if (o.routed) j["routed"] = true;
  if (o.pursuing) j["pursuing"] = true;
  if (o.halted) j["halted"] = true;
  return j;
}

json effectsJson(uint8_t effects) {
  json out = json::array();
  if (effects & env::vc_effect::kDoubled) out.push_back("doubled");
  if (effects & env::vc_effect::kHalved) out.push_back("halved");
  if (effects & env::vc_effect::kStreamDivided) out.push_back("stream");
  if (effects & env::vc_effect::kVictorious) out.push_back("victorious");
  return out;
}

json modifiersJson(const env::FireModifiers& m) {
  return {{"distance", m.distance},
          {"target_type", m.target_type},
          {"terrain", m.terrain},
          {"reaction", m.reaction},
          {"total", m.total()}};
}

// The legal action of `kind` between the hexes of units `from` and `to`, or the rules' refusal.
env::Action legalAction(const env::GameState& s, const char* kind, int from, int to) {
  using Refusal = env::RefusalReason;
  const env::Scenario& sc = s.sc();
  for (int u : {from, to}) {
    if (!s.onMap(u)) {
      throw RequestError::refused(
          {Refusal::kNotOnMap, "",
           sc.unit(u).id + " is not on the map (eliminated or not placed)"});
    }
  }
  std::string error;
  std::optional<env::Refusal> refusal;
  const json request = {
      {"type", kind}, {"from", sc.label(s.unit(from).cell)}, {"to", sc.label(s.unit(to).cell)}};
  const auto a = env::parseActionJson(s, request, &error, &refusal);
  if (refusal) throw RequestError::refused(*refusal);
  if (!a) throw RequestError{"bad_request", error};
  if (const auto why = env::explainIllegal(s, *a))
    throw RequestError::refused(*why, env::actionText(s, *a));
  return *a;
}

}  // namespace

json previewFireReply(const env::GameState& s, const json& req) {
  const env::Scenario& sc = s.sc();
  const int gun = unitArgument(s, req, "gun");
  const int target = unitArgument(s, req, "target");
  const env::FirePreview p = env::previewFire(s, legalAction(s, "fire", gun, target));
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
          {"modifiers", modifiersJson(p.modifiers)},
          {"losses_by_d4", p.losses_by_die},
          {"outcomes", outcomes}};
}

json previewCombatReply(const env::GameState& s, const json& req) {
  const env::Scenario& sc = s.sc();
  const int attacker = unitArgument(s, req, "attacker");
  const int defender = unitArgument(s, req, "defender");
  const env::CombatPreview p = env::previewCombat(s, legalAction(s, "attack", attacker, defender));
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
  json tests = json::object();
  for (size_t i = 0; i < 2; ++i) {
    tests[i == 0 ? "attacker" : "defender"] = {
        {"tested", probabilityJson(p.morale_tests[i].tested)},
        {"failed", probabilityJson(p.morale_tests[i].failed)}};
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
            {"melee", odds.melee},
            {"total", odds.dieModifier()}}},
          {"dice", dice},
          {"morale_tests", tests},
          {"attack_refused", probabilityJson(p.attack_refused)},
          {"outcomes", outcomes}};
}

json previewStepReply(const env::GameState& s, const json& req) {
  const env::Scenario& sc = s.sc();
  if (req.contains("action") == req.contains("text"))
    throw RequestError{"bad_request", "give exactly one of \"action\" (object) or \"text\""};
  std::string error;
  std::optional<env::Refusal> refusal;
  std::optional<env::Action> a;
  if (req.contains("text")) {
    if (!req["text"].is_string()) throw RequestError{"bad_request", "\"text\" must be a string"};
    a = env::parseActionText(s, req["text"].get<std::string>(), &error, &refusal);
  } else {
    a = env::parseActionJson(s, req["action"], &error, &refusal);
  }
  if (refusal) throw RequestError::refused(*refusal);
  if (!a) throw RequestError{"bad_request", error};
  if (a->kind != env::ActionKind::kMove)
    throw RequestError{"bad_request", "preview_step previews a \"move\" step"};
  if (const auto why = env::explainIllegal(s, *a))
    throw RequestError::refused(*why, env::actionText(s, *a));
  const env::StepPreview p = env::previewStep(s, *a);
  json guns = json::array();
  for (const env::ReactingGun& g : p.guns) {
    json j = probabilityJson(g.probability);
    j["gun"] = sc.unit(g.gun).id;
    j["modifiers"] = modifiersJson(g.modifiers);
    j["losses_by_d4"] = g.losses_by_die;
    guns.push_back(j);
  }
  json outcomes = json::array();
  for (const env::Outcome& o : p.outcomes) {
    json j = probabilityJson(o.probability);
    j["unit"] = unitOutcomeJson(sc, o.units[0]);
    outcomes.push_back(j);
  }
  return {{"unit", sc.unit(p.unit).id}, {"from", sc.label(p.from)},
          {"to", sc.label(p.to)},       {"cost", p.cost},
          {"mp_left", p.mp_left},       {"stops", p.stops},
          {"marsh_test", p.marsh_test}, {"charge_offered", p.charge_offered},
          {"reaction_fire", guns},      {"outcomes", outcomes}};
}

}  // namespace morne::engine

// The engine protocol's questions about a position: legal actions, the pending chance event,
// where a unit can go, zones of control, line of sight and the result. Each reads the request's
// own "state" when it carries one (a what-if position), else the game's (docs/protocol.md).

#include "engine/position_queries.h"

#include "agents/model_library.h"
#include "engine/played_game.h"
#include "engine/reply_json.h"
#include "engine/request_error.h"
#include "env/control.h"
#include "env/crt.h"
#include "env/io/notation.h"
#include "env/io/scenario_handicap.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "env/los.h"
#include "env/reachable.h"
#include "env/rules.h"
#include "env/visibility.h"

namespace morne::engine {

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

}  // namespace

json chartsReply(const env::GameState& s, const json&) {
  const env::Scenario& sc = s.sc();
  json columns = json::array();
  for (int c = 0; c < env::kCrtColumns; ++c)
    columns.push_back(env::oddsName(c - env::kCrtColumns / 2));
  json rows = json::array();
  for (int die = 0; die < env::kCrtRows; ++die) {
    json cells = json::array();
    for (const env::CrtCell& cell : sc.crt()[static_cast<size_t>(die)])
      cells.push_back(env::crtCellText(cell));
    rows.push_back({{"die", die}, {"cells", cells}});
  }
  // One cell of each terrain the map has: entering costs depend on the terrain only.
  std::array<env::CellId, env::kNumTerrains> example;
  example.fill(env::kNoCell);
  for (env::CellId c = 0; c < sc.numCells(); ++c) {
    env::CellId& e = example[static_cast<size_t>(sc.terrain(c))];
    if (e == env::kNoCell) e = c;
  }
  json terrain = json::array();
  for (int t = 0; t < env::kNumTerrains; ++t) {
    const env::CellId c = example[static_cast<size_t>(t)];
    if (c == env::kNoCell) continue;
    json costs = json::object();
    for (int m = 0; m < env::kNumMoveClasses; ++m) {
      const auto move_class = static_cast<env::MoveClass>(m);
      costs[std::string(env::moveClassName(move_class))] = sc.enterCost(move_class, c);
    }
    terrain.push_back(
        {{"terrain", env::terrainName(static_cast<env::Terrain>(t))}, {"costs", costs}});
  }
  return {{"crt", {{"rule", "C-CRT-1"}, {"columns", columns}, {"rows", rows}}},
          {"terrain_costs", {{"rule", "MV-COST-1"}, {"terrain", terrain}}}};
}

int unitArgument(const env::GameState& s, const json& req, const char* key) {
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
  if (s.unitAt(c) < 0)
    throw RequestError::refused({env::RefusalReason::kNoUnit, "", "no unit at " + sc.label(c)});
  return s.unitAt(c);
}

json builtinScenarioList() {
  json list = json::array();
  for (const env::BuiltinScenario& b : env::builtinScenarios()) {
    const auto sc = env::loadScenario(b.name);
    list.push_back({{"name", sc->name()},
                    {"title", sc->title()},
                    {"description", sc->description()},
                    {"turns", sc->turns()},
                    {"sides", {sc->sideNames()[0], sc->sideNames()[1]}},
                    {"balance", env::balanceText(*sc)}});
  }
  return {{"scenarios", list}};
}

json shippedModelList() {
  json list = json::array();
  for (const auto& [name, file] : agents::shippedModels()) list.push_back({{"name", name}});
  return {{"models", list}};
}

json legalReply(const env::GameState& s, const json& /*req*/) {
  env::ActionList list;
  env::legalActions(s, list);
  json actions = json::array();
  for (const env::Action& a : list) {
    actions.push_back({{"action", env::actionJson(s, a)},
                       {"text", env::actionText(s, a)},
                       {"index", env::actionIndex(s.sc(), a)}});
  }
  return {{"actions", actions}, {"count", list.size()}, {"status", statusJson(s)}};
}

json chanceReply(const env::GameState& s, const json& /*req*/) {
  if (!s.isChanceNode()) return {{"chance", false}};
  env::ChanceList outcomes;
  env::chanceOutcomes(s, outcomes);
  json list = json::array();
  for (const env::ChanceOutcome& o : outcomes) {
    list.push_back(
        {{"value", o.value}, {"num", o.num}, {"den", o.den}, {"probability", o.probability()}});
  }
  json event = {{"kind", std::string(env::chanceKindName(s.pending.kind))},
                {"unit", s.sc().unit(s.pending.unit).id}};
  if (s.pending.target >= 0) event["target"] = s.sc().unit(s.pending.target).id;
  return {{"chance", true}, {"event", event}, {"outcomes", list}};
}

json reachableReply(const env::GameState& s, const json& req) {
  const env::Scenario& sc = s.sc();
  const int u = unitArgument(s, req, "unit");
  // In its own side's movement phase the answer is what the unit may do now, which may be
  // nothing (it fired, F-GEN-6; it is routed; its points are spent); otherwise a forecast.
  const bool legal_now = s.phase == env::Phase::kMovement && s.sideOf(u) == s.side && s.onMap(u);
  std::vector<env::ReachableHex> now = env::reachableHexes(s, u);
  int mp = s.unit(u).mp;
  if (!legal_now) {  // where it could go when its side next moves
    env::NextMovement next = env::reachableHexesNextMovement(s, u);
    now = std::move(next.hexes);
    mp = next.mp;
  }
  json hexes = json::array();
  for (const env::ReachableHex& r : now) {
    json path = json::array();
    for (env::CellId c : r.path) path.push_back(sc.label(c));
    hexes.push_back({{"hex", sc.label(r.cell)},
                     {"cost", r.cost},
                     {"stops", r.stops},
                     {"through_marsh", r.through_marsh},
                     {"path", path}});
  }
  return {{"unit", sc.unit(u).id}, {"legal_now", legal_now}, {"mp", mp}, {"hexes", hexes}};
}

json zoneOfControlReply(const env::GameState& s, const json& /*req*/) {
  const env::Scenario& sc = s.sc();
  json out = json::object();
  for (int side = 0; side < env::kNumSides; ++side) {
    json hexes = json::array();
    for (env::CellId c = 0; c < sc.numCells(); ++c) {
      // The hexes side's units control are those enemy-controlled for the other side.
      if (const int n = env::countEnemyZoc(s, c, 1 - side); n > 0)
        hexes.push_back({{"hex", sc.label(c)}, {"units", n}});
    }
    out[env::sideColor(side)] = hexes;
  }
  return {{"zoc", out}};
}

json lineOfSightReply(const env::GameState& s, const json& req) {
  const env::Scenario& sc = s.sc();
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

}  // namespace morne::engine

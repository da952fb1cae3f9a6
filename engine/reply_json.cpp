#include "engine/reply_json.h"

#include "engine/request_error.h"
#include "env/io/event_text.h"
#include "env/victory.h"
#include "env/visibility.h"

namespace morne::engine {

using nlohmann::json;

json eventsJson(const env::GameState& after, const env::EventLog& log, int viewer) {
  const env::Scenario& sc = after.sc();
  auto hidden = [&](int u) { return viewer >= 0 && u >= 0 && env::hiddenFrom(after, u, viewer); };
  json out = json::array();
  for (const env::Event& e : log) {
    if (hidden(e.unit) || hidden(e.other)) continue;
    json j = env::eventJson(sc, e);
    j["text"] = env::eventText(sc, e);
    out.push_back(j);
  }
  return out;
}

int64_t integerField(const json& req, const char* key, int64_t lo, int64_t hi) {
  const json& v = req[key];
  const bool in_range = v.is_number_unsigned()
                            ? v.get<uint64_t>() <= static_cast<uint64_t>(hi) &&
                                  (lo <= 0 || v.get<uint64_t>() >= static_cast<uint64_t>(lo))
                        : v.is_number_integer() ? v.get<int64_t>() >= lo && v.get<int64_t>() <= hi
                                                : false;
  if (!v.is_number_integer() || !in_range) {
    throw RequestError{"bad_request", std::string("\"") + key + "\" must be an integer in " +
                                          std::to_string(lo) + ".." + std::to_string(hi)};
  }
  return v.get<int64_t>();
}

json resultJson(const env::GameState& s) {
  const env::GameResult r = env::gameResult(s);
  const env::Scenario& sc = s.sc();
  auto sideOrNull = [](int side) {
    return side == env::kNoSide ? json(nullptr) : json(env::sideColor(side));
  };
  json objectives = json::array();
  for (const env::Objective& o : sc.objectives()) {
    const int side = env::objectiveHolder(s, o);
    objectives.push_back({{"hex", sc.label(o.cell)},
                          {"kind", o.passing ? "passing" : "occupied"},
                          {"holder", sideOrNull(side)},
                          {"vp", side == env::kNoSide ? 0 : o.vp[static_cast<size_t>(side)]}});
  }
  json zones = json::array();
  for (const env::Zone& z : sc.zones()) {
    const std::array<bool, env::kNumSides> scores = env::zoneScorers(s, z);
    json scorers = json::array();
    int vp = 0;
    for (size_t side = 0; side < env::kNumSides; ++side) {
      if (!scores[side]) continue;
      scorers.push_back(env::sideColor(static_cast<int>(side)));
      vp += z.vp[side];
    }
    zones.push_back({{"name", z.name},
                     {"kind", z.passing ? "passing" : "occupied"},
                     {"scored_by", scorers},
                     {"vp", vp}});
  }
  return {{"terminal", s.isTerminal()},
          {"objectives", objectives},
          {"zones", zones},
          {"vp", {{"blue", r.vp[0]}, {"orange", r.vp[1]}}},
          {"handicap", {{"blue", r.handicap_half[0] / 2.0}, {"orange", r.handicap_half[1] / 2.0}}},
          {"score", {{"blue", r.scoreHalf(0) / 2.0}, {"orange", r.scoreHalf(1) / 2.0}}},
          {"winner", r.winner == env::kNoSide ? json(nullptr) : json(env::sideColor(r.winner))},
          {"level", r.level},
          {"level_name", env::victoryLevelName(r.level)}};
}

}  // namespace morne::engine

// Fuzz target: saved-state JSON (set_state's format) for duel, crossing, crossing-ancient or
// crossing-graded (the first byte modulo 4; the last two carry the variant modules). A state
// is refused with a ValidationError, or it round-trips exactly, has a legal action unless the
// game is over, and random play from it keeps the rules' invariants.

#include <nlohmann/json.hpp>

#include "env/error.h"
#include "env/io/json_nesting.h"
#include "env/io/scenario_library.h"
#include "env/io/state_json.h"
#include "tests/fuzz/random_play.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morne;
  static const auto duel = env::loadScenario("duel");
  static const auto crossing = env::loadScenario("crossing");
  static const auto ancient = env::loadScenario("crossing-ancient");
  static const auto graded = env::loadScenario("crossing-graded");
  if (size == 0) return 0;
  const env::Scenario* scenarios[] = {duel.get(), crossing.get(), ancient.get(), graded.get()};
  const env::Scenario& sc = *scenarios[data[0] % 4];
  const std::string_view text = fuzz::text(data + 1, size - 1);
  if (env::jsonNestingDepth(text) > env::kMaxJsonNesting) return 0;  // refused before parsing
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return 0;
  env::GameState s;
  try {
    s = env::stateFromJson(sc, j, "fuzz");
  } catch (const Error&) {
    return 0;
  }
  fuzz::fuzzRequire(env::stateFromJson(sc, env::stateToJson(s), "round trip") == s,
                    "an accepted state does not round-trip");
  fuzz::playRandomly(s, size, 100);
  return 0;
}

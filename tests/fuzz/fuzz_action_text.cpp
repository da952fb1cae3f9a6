// Fuzz target: action text ("move 0507>0408", "fire 0305>0507", "end"...) on positions of
// every built-in scenario (the first byte picks the scenario and how far a random game goes).
// Parsing either fails with a message or gives an action whose text parses back to it; a
// legal one applies.

#include <string>

#include "env/io/notation.h"
#include "env/io/scenario_library.h"
#include "env/rng.h"
#include "env/rules.h"
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morne;
  static const std::shared_ptr<const env::Scenario> scenarios[] = {
      env::loadScenario("duel"), env::loadScenario("crossing"), env::loadScenario("pyramids")};
  if (size == 0) return 0;
  const env::Scenario& sc = *scenarios[data[0] % 3];
  env::GameState s = env::newGame(sc);
  env::Rng rng(data[0]);
  env::ActionList scratch;
  for (int ply = 0; ply < (data[0] >> 2) * 8 && !s.isTerminal(); ++ply)
    env::playRandomPly(s, rng, scratch);
  while (s.isChanceNode()) env::playRandomPly(s, rng, scratch);
  if (s.isTerminal()) return 0;
  std::string error;
  const std::optional<env::Action> a =
      env::parseActionText(s, fuzz::text(data + 1, size - 1), &error);
  if (!a) {
    fuzz::fuzzRequire(!error.empty(), "a refused action text without a message");
    return 0;
  }
  const std::string canonical = env::actionText(s, *a);
  const std::optional<env::Action> back = env::parseActionText(s, canonical, &error);
  fuzz::fuzzRequire(back && *back == *a, "an action's text does not parse back to it");
  const std::optional<env::Refusal> why = env::explainIllegal(s, *a);
  fuzz::fuzzRequire(!why == env::isLegal(s, *a), "explainIllegal disagrees with isLegal");
  fuzz::fuzzRequire(!why || !why->message.empty(), "a refusal without a sentence");
  if (!why) env::applyAction(s, *a);
  return 0;
}

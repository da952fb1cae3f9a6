// Fuzz target: scenario JSON. Either morne::ValidationError (or another morne::Error) or a
// scenario on which a game starts and random play keeps every rule's invariants (ASan and
// UBSan watch the rules).

#include "env/error.h"
#include "env/rng.h"
#include "env/rules.h"
#include "env/scenario_json.h"
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morne;
  std::shared_ptr<const env::Scenario> sc;
  try {
    sc = env::parseScenario(fuzz::text(data, size), "fuzz");
  } catch (const Error&) {
    return 0;
  }
  env::GameState s = env::newGame(*sc);
  env::Rng rng(size);
  env::ActionList legal;
  for (int ply = 0; ply < 200 && !s.isTerminal(); ++ply) {
    if (!s.isChanceNode()) {
      env::legalActions(s, legal);
      fuzz::fuzzRequire(!legal.empty(), "no legal action in a game that is not over");
    }
    env::playRandomPly(s, rng, legal);
  }
  return 0;
}

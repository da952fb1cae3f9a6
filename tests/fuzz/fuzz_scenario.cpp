// Fuzz target: scenario JSON. Either morne::ValidationError (or another morne::Error) or a
// scenario on which a game starts and random play keeps every rule's invariants (ASan and
// UBSan watch the rules).

#include "env/error.h"
#include "env/io/scenario_json.h"
#include "tests/fuzz/random_play.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morne;
  std::shared_ptr<const env::Scenario> sc;
  try {
    sc = env::parseScenario(fuzz::text(data, size), "fuzz");
  } catch (const Error&) {
    return 0;
  }
  fuzz::playRandomly(env::newGame(*sc), size, 200);
  return 0;
}

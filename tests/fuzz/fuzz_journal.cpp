// Fuzz target: self-play journals (training/game_journal.h) as a killed run may leave them,
// cut or damaged anywhere. Either a ConfigError, or the intact games before the damage, each
// with exactly the sizes its header's row shape gives.

#include <string>

#include "env/error.h"
#include "tests/fuzz/fuzz_target.h"
#include "training/game_journal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morne;
  training::RecoveredJournal j;
  try {
    j = training::parseJournal(fuzz::text(data, size), "fuzz.journal");
  } catch (const Error&) {
    return 0;
  }
  const training::RowShape& s = j.info.shape;
  for (const training::GameData& g : j.games) {
    const auto rows = static_cast<size_t>(g.rows);
    fuzz::fuzzRequire(g.planes.size() == rows * static_cast<size_t>(s.planeSize()) &&
                          g.policy.size() == rows * static_cast<size_t>(s.policy) &&
                          g.legal.size() == g.policy.size() && g.side.size() == rows,
                      "a recovered game's sizes do not fit the journal's row shape");
  }
  fuzz::fuzzRequire(j.dropped_bytes <= size, "more bytes dropped than read");
  return 0;
}

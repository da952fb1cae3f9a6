#include "nn/random_rows.h"

#include <span>

#include "env/rng.h"
#include "env/rules.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"

namespace morne::nn {

TrainingBatch randomTrainingRows(const env::Scenario& sc, int rows, uint64_t seed) {
  const ObservationEncoder encoder(sc);
  const PolicyLayout layout(sc);
  const auto plane = static_cast<size_t>(encoder.shape().planeSize());
  const auto globals = static_cast<size_t>(encoder.shape().globals);
  const auto policy = static_cast<size_t>(layout.size());
  const auto n = static_cast<size_t>(rows);
  TrainingBatch b;
  b.size = rows;
  b.height = encoder.shape().height;
  b.width = encoder.shape().width;
  b.planes.resize(n * plane);
  b.globals.resize(n * globals);
  b.policy.assign(n * policy, 0.0f);
  b.legal.assign(n * policy, 0);
  b.value.resize(n);
  env::Rng rng(seed);
  env::ActionList scratch;
  env::GameState s = env::newGame(sc);
  for (size_t r = 0; r < n; ++r) {
    // A few random plies between rows, so that rows differ.
    while (s.isTerminal() || s.isChanceNode() || rng.below(4) != 0) {
      if (s.isTerminal()) {
        s = env::newGame(sc);
      } else if (s.isChanceNode()) {
        env::applyChance(s, env::sampleChance(s, rng));
      } else {
        env::playRandomPly(s, rng, scratch);
      }
    }
    encoder.encode(s, std::span(b.planes).subspan(r * plane, plane),
                   std::span(b.globals).subspan(r * globals, globals));
    const std::span<uint8_t> mask = std::span(b.legal).subspan(r * policy, policy);
    const int legal = layout.legalMask(s, mask);
    int pick = static_cast<int>(rng.below(static_cast<uint32_t>(legal)));
    for (size_t i = 0; i < policy; ++i) {
      if (mask[i] && pick-- == 0) b.policy[r * policy + i] = 1.0f;
    }
    b.value[r] = rng.below(2) ? 1.0f : -1.0f;
    env::playRandomPly(s, rng, scratch);
  }
  return b;
}

}  // namespace morne::nn

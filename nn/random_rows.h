#pragma once
// Rows of training data from random play, for benchmarks and tests of the learner: positions
// of random games of a scenario, each with a one-hot target on a random legal action and a
// random result of +1 or -1.

#include <cstdint>

#include "env/scenario.h"
#include "nn/learner.h"

namespace morne::nn {

// `rows` rows, in the layout of TrainingBatch, drawn from `seed`.
TrainingBatch randomTrainingRows(const env::Scenario& scenario, int rows, uint64_t seed);

}  // namespace morne::nn

#pragma once
// The random draws of the search's root: Dirichlet noise mixed into the priors (AlphaZero
// self-play exploration) and Gumbel variables (Gumbel root search). Both draw from an explicit
// env::Rng, so a seed fixes them on every machine.

#include <span>

#include "env/rng.h"

namespace morne::mcts {

// One draw of Gumbel(0, 1): -log(-log(U)).
double sampleGumbel(env::Rng& rng);

// One draw of Gamma(shape, 1) (Marsaglia and Tsang 2000); shape > 0.
double sampleGamma(env::Rng& rng, double shape);

// Mixes Dirichlet(alpha, ..., alpha) noise into `priors`: p <- (1 - fraction) p + fraction n.
void mixDirichletNoise(env::Rng& rng, double alpha, double fraction, std::span<float> priors);

}  // namespace morne::mcts

#include "mcts/root_noise.h"

#include <cmath>

namespace morne::mcts {

namespace {

// Uniform in (0, 1): never exactly 0, so logarithms stay finite.
double openUniform(env::Rng& rng) {
  return (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53;
}

double sampleNormal(env::Rng& rng) {  // Box-Muller
  return std::sqrt(-2.0 * std::log(openUniform(rng))) *
         std::cos(6.283185307179586 * openUniform(rng));
}

}  // namespace

double sampleGumbel(env::Rng& rng) { return -std::log(-std::log(openUniform(rng))); }

double sampleGamma(env::Rng& rng, double shape) {
  if (shape < 1) return sampleGamma(rng, shape + 1) * std::pow(openUniform(rng), 1.0 / shape);
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = sampleNormal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = openUniform(rng);
    if (u < 1 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v)))
      return d * v;
  }
}

void mixDirichletNoise(env::Rng& rng, double alpha, double fraction, std::span<float> priors) {
  double total = 0;
  constexpr size_t kMaxInline = 1024;
  double noise[kMaxInline];
  const size_t n = std::min(priors.size(), kMaxInline);
  for (size_t i = 0; i < n; ++i) total += noise[i] = sampleGamma(rng, alpha);
  if (!(total > 0)) return;
  for (size_t i = 0; i < n; ++i) {
    priors[i] = static_cast<float>((1 - fraction) * priors[i] + fraction * noise[i] / total);
  }
}

}  // namespace morne::mcts

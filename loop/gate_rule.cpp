#include "loop/gate_rule.h"

#include <cmath>

namespace morne::loop {

GateDecision gateDecision(const arena::WinDrawLoss& candidate, double gate_score) {
  GateDecision d;
  d.candidate = candidate;
  d.score = candidate.score();
  d.promoted = candidate.games() > 0 && d.score >= gate_score;
  return d;
}

double eloScore(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

double sprtLlr(std::span<const double> pair_scores, const SprtConfig& c) {
  // The pairs played and the two virtual ones (0 and 1).
  const double n = static_cast<double>(pair_scores.size()) + 2;
  double sum = 1, squares = 1;
  for (double x : pair_scores) {
    sum += x;
    squares += x * x;
  }
  const double mean = sum / n;
  const double variance = squares / n - mean * mean;
  const double s0 = eloScore(c.elo0), s1 = eloScore(c.elo1);
  return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance);
}

SprtVerdict sprtVerdict(double llr, const SprtConfig& c) {
  if (llr >= std::log((1 - c.beta) / c.alpha)) return SprtVerdict::kAcceptH1;
  if (llr <= std::log(c.beta / (1 - c.alpha))) return SprtVerdict::kAcceptH0;
  return SprtVerdict::kContinue;
}

}  // namespace morne::loop

#pragma once
// The gate of `morne loop` (loop/learning_loop.h): whether a candidate network replaces the
// best one, from its results against it. Three rules (LoopSettings::gate):
//
//   score  promote when the candidate's score over `gate_rounds` duplicate rounds reaches
//          `gate_score` (a 40-game gate at 0.5 passes an equal candidate about half the time)
//   sprt   a sequential probability ratio test (Wald) on the duplicate pairs: elo1 against
//          elo0 with error rates alpha and beta, capped at `gate_rounds` pairs (Leela Zero
//          gated with elo0 0, elo1 35, alpha = beta = 0.05, 400 games at most)
//   none   always promote the newest network (AlphaZero, KataGo), unless it scores below
//          `gate_guard` in its gate games (a guard against collapse; 0: no games are played)

#include <span>
#include <string>

#include "arena/stats.h"

namespace morne::loop {

struct GateDecision {
  arena::WinDrawLoss candidate;  // its results against the best network
  double score = 0;
  bool promoted = false;
};

// The score rule: promote when the candidate played and its score (wins plus half the draws,
// over its games) is at least `gate_score`.
GateDecision gateDecision(const arena::WinDrawLoss& candidate, double gate_score);

// The hypotheses and error rates of the SPRT gate.
struct SprtConfig {
  double elo0 = 0;      // H0: the candidate is this much stronger (logistic Elo)
  double elo1 = 35;     // H1
  double alpha = 0.05;  // the chance of accepting H1 when H0 holds
  double beta = 0.05;   // the chance of accepting H0 when H1 holds
};

// The log-likelihood ratio of H1 against H0 after duplicate pairs whose candidate scores are
// `pair_scores` (each the candidate's mean score over the pair's two games on the same dice:
// 0, 0.25, 0.5, 0.75 or 1), in the normal approximation of the generalised SPRT used by
// Fishtest: with m and v the mean and variance of the pair scores over n pairs and s(e) =
// 1 / (1 + 10^(-e / 400)) the expected score of a candidate e Elo stronger,
//
//   LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v).
//
// Two virtual pairs, one lost and one won, are counted with the others so that v is never 0.
double sprtLlr(std::span<const double> pair_scores, const SprtConfig& c);

enum class SprtVerdict { kContinue, kAcceptH1, kAcceptH0 };

// Wald's bounds: H1 at LLR >= log((1 - beta) / alpha), H0 at LLR <= log(beta / (1 - alpha)).
SprtVerdict sprtVerdict(double llr, const SprtConfig& c);

// The expected score of a candidate `elo` logistic Elo stronger.
double eloScore(double elo);

}  // namespace morne::loop

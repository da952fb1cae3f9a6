#pragma once
// Elo ratings by maximum likelihood from game results, with a side-advantage term (the first
// player's edge, in Elo), as BayesElo and Ordo fit them:
//
//   P(blue scores) = 1 / (1 + 10^(-(r_blue - r_orange + side) / 400))
//
// A draw counts as half a win. Ratings are relative to one anchor player (rating 0), so an
// interval is that of the rating difference with the anchor.
//
// The prior: a player who won (or lost) every game has no finite maximum, so `prior_draws`
// virtual draws are added between every pair that met (half with each player as blue), as
// BayesElo's prior does; this also keeps the side term finite when blue won every game. The
// ratings are the maximum of this penalised likelihood (0 disables the prior). The prior pulls
// lopsided records toward 0: with 20 games won out of 20, one virtual draw gives +600 where
// the record alone says +infinity.
//
// The 95% intervals are profile-likelihood intervals of the same penalised likelihood: the
// values of one rating (the others and the side term fitted again at each value) where twice
// the drop in log-likelihood reaches 3.84 (the chi-square(1) quantile). Unlike the symmetric
// curvature interval they follow the likelihood's shape: a one-sided record gives a long
// interval on the open side. A bound beyond kEloBoundLimit is reported as infinite.

#include <span>
#include <vector>

namespace morne::arena {

struct EloGame {
  int blue = 0;
  int orange = 0;
  double blue_score = 0;  // 1 win, 0.5 draw, 0 loss
};

// Intervals reaching this far (Elo, from the estimate) are reported open (+-infinity).
inline constexpr double kEloBoundLimit = 3000;

struct EloFit {
  std::vector<double> rating;  // per player, anchor = 0
  std::vector<double> low;     // 95% profile-likelihood interval (the anchor: 0, 0);
  std::vector<double> high;    //   +-infinity when open
  double side = 0;             // blue's advantage in Elo
  double side_low = 0;
  double side_high = 0;
  double prior_draws = 0;  // the prior used
  bool converged = false;
};

// Fits the ratings of `num_players` players. Throws UndeterminedError when the games do not
// determine them (a player without games, or, without prior, pairs that met with one side only).
EloFit fitElo(int num_players, std::span<const EloGame> games, int anchor = 0,
              double prior_draws = 1.0);

}  // namespace morne::arena

#pragma once
// Elo ratings by maximum likelihood from game results, with a side-advantage term (the first
// player's edge, in Elo), as BayesElo and Ordo fit them:
//
//   P(blue scores) = 1 / (1 + 10^(-(r_blue - r_orange + side) / 400))
//
// A draw counts as half a win. Newton's method maximises the log-likelihood; the 95% intervals
// come from the inverse of the observed information (the curvature at the maximum). Ratings are
// relative to one anchor player (rating 0, no interval), so an interval is that of the rating
// difference with the anchor. A player who won (or lost) every game has no finite maximum:
// `prior_draws` virtual draws between every pair that met keep the fit finite, as BayesElo's
// prior does (half of them with each player as blue, which also keeps the side term finite when
// blue won every game); 0 disables them.

#include <span>
#include <vector>

namespace morne::agents {

struct EloGame {
  int blue = 0;
  int orange = 0;
  double blue_score = 0;  // 1 win, 0.5 draw, 0 loss
};

struct EloFit {
  std::vector<double> rating;  // per player, anchor = 0
  std::vector<double> margin;  // half-width of the 95% interval (0 for the anchor)
  double side = 0;             // blue's advantage in Elo
  double side_margin = 0;
  bool converged = false;
};

// Fits the ratings of `num_players` players. Throws std::invalid_argument when the games do not
// determine them (a player without games, or, without prior, pairs that met with one side only).
EloFit fitElo(int num_players, std::span<const EloGame> games, int anchor = 0, double prior_draws = 1.0);

}  // namespace morne::agents

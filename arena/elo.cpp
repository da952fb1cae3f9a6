#include "arena/elo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "env/error.h"

namespace morne::arena {

namespace {

constexpr double kScale = 2.302585092994046 / 400;  // ln(10) / 400: Elo to natural logits
constexpr double kChiSquare95 = 3.841458820694124;  // chi-square(1) 95% quantile
constexpr const char* kUndetermined =
    "Elo fit: the games do not determine every rating and the side advantage (a player without "
    "games, or players who met with one side only)";

using Matrix = std::vector<std::vector<double>>;

// Solves A x = b in place by Gaussian elimination with partial pivoting; false when A is
// singular.
bool solve(Matrix a, std::vector<double>& b) {
  const size_t n = b.size();
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t r = col + 1; r < n; ++r) {
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    }
    if (std::abs(a[pivot][col]) < 1e-12) return false;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    for (size_t r = 0; r < n; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      if (f == 0) continue;
      for (size_t c = 0; c < n; ++c) a[r][c] -= f * a[col][c];
      b[r] -= f * b[col];
    }
  }
  for (size_t r = 0; r < n; ++r) b[r] /= a[r][r];
  return true;
}

// One weighted observation: `blue` against `orange`, blue's score, weight.
struct Observation {
  int blue;
  int orange;
  double score;
  double weight;
};

// The penalised log-likelihood as a function of the parameters: every player's rating but the
// anchor's, then the side term (all in Elo).
class Likelihood {
 public:
  Likelihood(int players, int anchor, std::vector<Observation> obs)
      : players_(players), anchor_(anchor), obs_(std::move(obs)) {}

  size_t dims() const { return static_cast<size_t>(players_); }  // (players - 1) + side
  int sideIndex() const { return players_ - 1; }
  int index(int player) const {
    if (player == anchor_) return -1;
    return player < anchor_ ? player : player - 1;
  }

  double value(const std::vector<double>& theta) const {
    double ll = 0;
    for (const Observation& o : obs_) {
      const double x = logit(theta, o);
      // log p = -log(1 + e^-x), log (1 - p) = -log(1 + e^x), computed stably.
      ll -= o.weight * (o.score * softplus(-x) + (1 - o.score) * softplus(x));
    }
    return ll;
  }

  // Maximises over every parameter but `fixed` (-1: none), from `theta`. Returns false when the
  // information matrix is singular (the games do not determine the parameters).
  bool maximise(std::vector<double>& theta, int fixed, bool* converged) const {
    const size_t n = dims();
    for (int iteration = 0; iteration < 200; ++iteration) {
      std::vector<double> grad(n, 0.0);
      Matrix info(n, std::vector<double>(n, 0.0));
      for (const Observation& o : obs_) {
        const double p = 1 / (1 + std::exp(-logit(theta, o)));
        const int terms[3] = {index(o.blue), index(o.orange), sideIndex()};
        const double signs[3] = {1, -1, 1};
        for (int t = 0; t < 3; ++t) {
          if (terms[t] < 0) continue;
          grad[static_cast<size_t>(terms[t])] += o.weight * signs[t] * kScale * (o.score - p);
          for (int u = 0; u < 3; ++u) {
            if (terms[u] < 0) continue;
            info[static_cast<size_t>(terms[t])][static_cast<size_t>(terms[u])] +=
                o.weight * signs[t] * signs[u] * kScale * kScale * p * (1 - p);
          }
        }
      }
      if (fixed >= 0) {  // the fixed parameter does not move
        const auto f = static_cast<size_t>(fixed);
        for (size_t k = 0; k < n; ++k) info[f][k] = info[k][f] = 0;
        info[f][f] = 1;
        grad[f] = 0;
      }
      std::vector<double> step = grad;
      if (!solve(info, step)) return false;
      double largest = 0;
      for (double v : step) largest = std::max(largest, std::abs(v));
      const double damp = largest > 400 ? 400 / largest : 1.0;  // no jumps beyond 400 Elo
      for (size_t k = 0; k < n; ++k) theta[k] += damp * step[k];
      if (largest < 1e-7) {
        if (converged) *converged = true;
        return true;
      }
    }
    if (converged) *converged = false;
    return true;
  }

 private:
  double rating(const std::vector<double>& theta, int player) const {
    const int k = index(player);
    return k < 0 ? 0.0 : theta[static_cast<size_t>(k)];
  }
  double logit(const std::vector<double>& theta, const Observation& o) const {
    return kScale * (rating(theta, o.blue) - rating(theta, o.orange) +
                     theta[static_cast<size_t>(sideIndex())]);
  }
  static double softplus(double x) {
    return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  }

  int players_;
  int anchor_;
  std::vector<Observation> obs_;
};

// The bound of parameter `param`'s profile-likelihood interval on the side `direction` (+1 up,
// -1 down) of the maximum `best` (log-likelihood `top`).
double profileBound(const Likelihood& f, const std::vector<double>& best, double top, int param,
                    int direction) {
  const auto i = static_cast<size_t>(param);
  std::vector<double> theta = best;
  auto drop = [&](double x) {  // twice the log-likelihood drop with the parameter held at x
    theta[i] = x;
    f.maximise(theta, param, nullptr);
    return 2 * (top - f.value(theta));
  };
  double inside = best[i];
  double step = 25;
  double outside = inside + direction * step;
  while (drop(outside) < kChiSquare95) {
    inside = outside;
    step *= 2;
    outside = best[i] + direction * std::min(step, kEloBoundLimit);
    if (step >= kEloBoundLimit) {
      if (drop(outside) < kChiSquare95) return direction * std::numeric_limits<double>::infinity();
      break;
    }
  }
  for (int k = 0; k < 50 && std::abs(outside - inside) > 0.01; ++k) {
    const double mid = (inside + outside) / 2;
    (drop(mid) < kChiSquare95 ? inside : outside) = mid;
  }
  return (inside + outside) / 2;
}

}  // namespace

EloFit fitElo(int num_players, std::span<const EloGame> games, int anchor, double prior_draws) {
  const auto n = static_cast<size_t>(num_players);
  std::vector<Observation> obs;
  std::vector<char> met(n * n, 0);
  for (const EloGame& g : games) {
    obs.push_back({g.blue, g.orange, g.blue_score, 1.0});
    met[static_cast<size_t>(g.blue) * n + static_cast<size_t>(g.orange)] = 1;
  }
  for (int i = 0; i < num_players; ++i) {  // the prior: virtual draws between pairs that met
    for (int j = i + 1; j < num_players; ++j) {
      const auto a = static_cast<size_t>(i), b = static_cast<size_t>(j);
      if (prior_draws > 0 && (met[a * n + b] || met[b * n + a])) {
        obs.push_back({i, j, 0.5, prior_draws / 2});
        obs.push_back({j, i, 0.5, prior_draws / 2});
      }
    }
  }
  const Likelihood f(num_players, anchor, std::move(obs));
  EloFit fit;
  fit.prior_draws = prior_draws;
  std::vector<double> theta(f.dims(), 0.0);
  if (!f.maximise(theta, -1, &fit.converged)) throw UndeterminedError(kUndetermined);
  const double top = f.value(theta);

  fit.rating.assign(n, 0.0);
  fit.low.assign(n, 0.0);
  fit.high.assign(n, 0.0);
  for (int p = 0; p < num_players; ++p) {
    const int k = f.index(p);
    if (k < 0) continue;
    const auto i = static_cast<size_t>(p);
    fit.rating[i] = theta[static_cast<size_t>(k)];
    fit.low[i] = profileBound(f, theta, top, k, -1);
    fit.high[i] = profileBound(f, theta, top, k, +1);
  }
  const int s = f.sideIndex();
  fit.side = theta[static_cast<size_t>(s)];
  fit.side_low = profileBound(f, theta, top, s, -1);
  fit.side_high = profileBound(f, theta, top, s, +1);
  return fit;
}

}  // namespace morne::arena

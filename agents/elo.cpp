#include "agents/elo.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace morne::agents {

namespace {

constexpr double kScale = 2.302585092994046 / 400;  // ln(10) / 400: Elo to natural logits
constexpr const char* kUndetermined =
    "Elo fit: the games do not determine every rating and the side advantage (a player without "
    "games, or players who met with one side only)";

// Solves A x = b in place by Gaussian elimination with partial pivoting; returns false when A is
// singular. Also leaves A's inverse in `inverse` when it is not null.
bool solve(std::vector<std::vector<double>> a, std::vector<double>& b, std::vector<std::vector<double>>* inverse) {
  const size_t n = b.size();
  std::vector<std::vector<double>> inv(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) inv[i][i] = 1;
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t r = col + 1; r < n; ++r) {
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    }
    if (std::abs(a[pivot][col]) < 1e-12) return false;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    std::swap(inv[col], inv[pivot]);
    for (size_t r = 0; r < n; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      if (f == 0) continue;
      for (size_t c = 0; c < n; ++c) {
        a[r][c] -= f * a[col][c];
        inv[r][c] -= f * inv[col][c];
      }
      b[r] -= f * b[col];
    }
  }
  for (size_t r = 0; r < n; ++r) {
    b[r] /= a[r][r];
    for (size_t c = 0; c < n; ++c) inv[r][c] /= a[r][r];
  }
  if (inverse) *inverse = std::move(inv);
  return true;
}

}  // namespace

EloFit fitElo(int num_players, std::span<const EloGame> games, int anchor, double prior_draws) {
  // Parameters: every player's rating but the anchor's, then the side term.
  const auto n = static_cast<size_t>(num_players);
  const size_t dims = n;  // (n - 1) ratings + side
  auto index = [&](int player) -> int {
    if (player == anchor) return -1;
    return player < anchor ? player : player - 1;
  };
  const int side_index = static_cast<int>(dims) - 1;

  // Virtual draws between each pair that met.
  std::vector<EloGame> all(games.begin(), games.end());
  std::vector<char> met(n * n, 0);
  for (const EloGame& g : games) met[static_cast<size_t>(g.blue) * n + static_cast<size_t>(g.orange)] = 1;
  std::vector<std::pair<int, int>> prior_pairs;
  for (int i = 0; i < num_players; ++i) {
    for (int j = i + 1; j < num_players; ++j) {
      if (met[static_cast<size_t>(i) * n + static_cast<size_t>(j)] || met[static_cast<size_t>(j) * n + static_cast<size_t>(i)])
        prior_pairs.push_back({i, j});
    }
  }

  std::vector<double> theta(dims, 0.0);
  auto rating = [&](int player) { const int k = index(player); return k < 0 ? 0.0 : theta[static_cast<size_t>(k)]; };

  EloFit fit;
  std::vector<std::vector<double>> info;
  for (int iteration = 0; iteration < 100; ++iteration) {
    std::vector<double> grad(dims, 0.0);
    info.assign(dims, std::vector<double>(dims, 0.0));
    // Adds one observation, a as blue, with logit x = k (r_a - r_b + side), score s, weight w.
    auto add = [&](int a, int b, double s, double w) {
      const double x = kScale * (rating(a) - rating(b) + theta[static_cast<size_t>(side_index)]);
      const double p = 1 / (1 + std::exp(-x));
      const int ia = index(a), ib = index(b);
      const int terms[3] = {ia, ib, side_index};
      const double signs[3] = {1, -1, 1};
      for (int t = 0; t < 3; ++t) {
        if (terms[t] < 0) continue;
        grad[static_cast<size_t>(terms[t])] += w * signs[t] * kScale * (s - p);
        for (int u = 0; u < 3; ++u) {
          if (terms[u] < 0) continue;
          info[static_cast<size_t>(terms[t])][static_cast<size_t>(terms[u])] += w * signs[t] * signs[u] * kScale * kScale * p * (1 - p);
        }
      }
    };
    for (const EloGame& g : all) add(g.blue, g.orange, g.blue_score, 1.0);
      for (const auto& [i, j] : prior_pairs) {  // half with each player as blue
      add(i, j, 0.5, prior_draws / 2);
      add(j, i, 0.5, prior_draws / 2);
    }

    std::vector<double> step = grad;
    if (!solve(info, step, nullptr)) {
      throw std::invalid_argument(kUndetermined);
    }
    double largest = 0;
    for (double v : step) largest = std::max(largest, std::abs(v));
    const double damp = largest > 400 ? 400 / largest : 1.0;  // no jumps beyond 400 Elo
    for (size_t k = 0; k < dims; ++k) theta[k] += damp * step[k];
    if (largest < 1e-7) {
      fit.converged = true;
      break;
    }
  }

  std::vector<std::vector<double>> covariance;
  std::vector<double> unused(dims, 0.0);
  if (!solve(info, unused, &covariance)) {
    throw std::invalid_argument(kUndetermined);
  }
  constexpr double kZ95 = 1.959963984540054;
  fit.rating.resize(n);
  fit.margin.resize(n);
  for (int p = 0; p < num_players; ++p) {
    const int k = index(p);
    fit.rating[static_cast<size_t>(p)] = rating(p);
    fit.margin[static_cast<size_t>(p)] =
        k < 0 ? 0.0 : kZ95 * std::sqrt(covariance[static_cast<size_t>(k)][static_cast<size_t>(k)]);
  }
  fit.side = theta[static_cast<size_t>(side_index)];
  fit.side_margin = kZ95 * std::sqrt(covariance[static_cast<size_t>(side_index)][static_cast<size_t>(side_index)]);
  return fit;
}

}  // namespace morne::agents

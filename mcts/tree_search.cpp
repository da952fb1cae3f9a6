#include "mcts/tree_search.h"

#include <algorithm>
#include <cmath>

#include "env/agent_actions.h"
#include "env/check.h"
#include "env/rules.h"
#include "mcts/root_noise.h"

namespace morne::mcts {

double terminalValue(const env::GameState& s) {
  const env::GameResult r = env::gameResult(s);
  if (r.winner == env::kNoSide) return 0;
  const double magnitude = 0.8 + 0.05 * r.level;
  return r.winner == 0 ? magnitude : -magnitude;
}

TreeSearch::TreeSearch(const SearchParams& params, uint64_t seed)
    : params_(params), rng_(seed), tree_(params.max_nodes) {
  leaves_.resize(1);
  leaves_[0].path.reserve(256);
}

void TreeSearch::begin(const env::GameState& root, int simulations, bool root_noise,
                       Clock::time_point deadline) {
  for (int i = 0; i < pending_; ++i) markInFlight(leaves_[static_cast<size_t>(i)].path, -1);
  pending_ = 0;
  root_noise_ = root_noise;
  deadline_ = deadline;
  if (params_.gumbel || !params_.reuse_tree || !tree_.reuse(root)) tree_.reset(root);
  budget_ = std::max(1, simulations);
  simulations_ = 0;
  root_ready_ = false;
  survivors_.clear();
  if (tree_.node(0).first_child >= 0) prepareRoot();  // a reused root is already expanded
}

const LeafRequest* TreeSearch::next() {
  const std::span<const LeafRequest* const> leaves = nextLeaves(1);
  return leaves.empty() ? nullptr : leaves[0];
}

void TreeSearch::complete(double value) { completeLeaves(std::span(&value, 1)); }

std::span<const LeafRequest* const> TreeSearch::nextLeaves(int most) {
  MORNE_CHECK(pending_ == 0, "nextLeaves() before the last leaves were completed");
  most = params_.gumbel ? 1 : std::max(1, most);
  if (leaves_.size() < static_cast<size_t>(most)) leaves_.resize(static_cast<size_t>(most));
  requests_.clear();
  while (pending_ < most && simulations_ + pending_ < budget_) {
    // The clock is read at every simulation: a slow one (a long rollout, a sanitizer's build)
    // would otherwise carry the search far past its deadline.
    if (deadline_ != Clock::time_point{} && simulations_ > 0 && Clock::now() >= deadline_) break;
    PendingLeaf& leaf = leaves_[static_cast<size_t>(pending_)];
    const Descent end = descend(leaf);
    if (end == Descent::kCollision) break;
    if (end == Descent::kLeaf) {
      markInFlight(leaf.path, +1);
      requests_.push_back(&leaf.request);
      ++pending_;
    }
  }
  return requests_;
}

// One descent from the root. A terminal state backs up its value at once; a leaf already in
// flight is a collision; any other leaf is written into `leaf` for evaluation.
TreeSearch::Descent TreeSearch::descend(PendingLeaf& leaf) {
  leaf.state = tree_.rootState();
  int node = 0;
  leaf.path.assign(1, 0);
  for (;;) {
    const Node& n = tree_.node(node);
    if (n.kind == NodeKind::kTerminal) {
      backUp(leaf.path, n.meanValue());
      return Descent::kTerminal;
    }
    if (n.kind == NodeKind::kUnexpanded || n.first_child < 0) {
      if (n.in_flight > 0) return Descent::kCollision;
      if (leaf.state.isTerminal()) {
        Node& end = tree_.node(node);
        end.kind = NodeKind::kTerminal;
        end.hash = leaf.state.hash;
        backUp(leaf.path, terminalValue(leaf.state));
        return Descent::kTerminal;
      }
      leaf.request.state = &leaf.state;
      if (leaf.state.isChanceNode()) {
        env::chanceOutcomes(leaf.state, leaf.outcomes);
        leaf.request.legal = {};
        leaf.request.priors = {};
      } else {
        env::agentActions(leaf.state, leaf.legal, params_.prune);
        leaf.priors.assign(leaf.legal.size(), 0.0f);
        leaf.request.legal = std::span(leaf.legal.begin(), leaf.legal.size());
        leaf.request.priors = leaf.priors;
      }
      return Descent::kLeaf;
    }
    const int child = (node == 0 && !survivors_.empty()) ? nextGumbelAction() : selectChild(node);
    if (n.kind == NodeKind::kChance) {
      env::applyChance(leaf.state, tree_.node(child).outcome);
    } else {
      env::applyAction(leaf.state, tree_.node(child).action);
    }
    node = child;
    leaf.path.push_back(node);
  }
}

void TreeSearch::markInFlight(const std::vector<int>& path, int change) {
  for (int i : path) {
    Node& n = tree_.node(i);
    n.in_flight = static_cast<uint16_t>(n.in_flight + change);
  }
}

void TreeSearch::completeLeaves(std::span<const double> values) {
  MORNE_CHECK(pending_ > 0 && values.size() == static_cast<size_t>(pending_),
              "completeLeaves() needs one value for each leaf nextLeaves() gave");
  for (int i = 0; i < pending_; ++i) markInFlight(leaves_[static_cast<size_t>(i)].path, -1);
  for (int i = 0; i < pending_; ++i) {
    const PendingLeaf& leaf = leaves_[static_cast<size_t>(i)];
    const double value = values[static_cast<size_t>(i)];
    expand(leaf);
    if (leaf.path.back() == 0 && !root_ready_) {
      root_eval_ = leaf.state.side == 0 ? value : -value;
      if (tree_.node(0).first_child >= 0) prepareRoot();
    }
    backUp(leaf.path, value);
  }
  pending_ = 0;
  requests_.clear();
}

// Lists the children of the leaf's node. When the pool is full the node stays a leaf and is
// evaluated again at each visit: memory stays bounded.
void TreeSearch::expand(const PendingLeaf& leaf) {
  const int at = leaf.path.back();
  const bool chance = leaf.request.legal.empty();
  const int first =
      tree_.addChildren(at, static_cast<int>(chance ? leaf.outcomes.size() : leaf.legal.size()));
  if (first < 0) return;
  if (chance) {
    for (size_t k = 0; k < leaf.outcomes.size(); ++k) {
      Node& c = tree_.node(first + static_cast<int>(k));
      c.outcome = static_cast<int8_t>(leaf.outcomes[k].value);
      c.prior = static_cast<float>(leaf.outcomes[k].probability());
    }
    tree_.node(at).kind = NodeKind::kChance;
  } else {
    for (size_t k = 0; k < leaf.legal.size(); ++k) {
      Node& c = tree_.node(first + static_cast<int>(k));
      c.action = leaf.legal[k];
      c.prior = leaf.priors[k];
    }
    tree_.node(at).kind = NodeKind::kDecision;
    tree_.node(at).player = leaf.state.side;
  }
  tree_.node(at).hash = leaf.state.hash;
}

void TreeSearch::backUp(const std::vector<int>& path, double value) {
  for (int i : path) {
    Node& n = tree_.node(i);
    ++n.visits;
    n.value_sum += value;
  }
  ++simulations_;
}

// PUCT at decision nodes; at chance nodes the outcome furthest below its share of the visits.
// Each simulation in flight through a node counts as `virtual_loss` visits, lost for the side
// that chose the node (mcts/tree_search.h, "Batches of leaves").
int TreeSearch::selectChild(int node) const {
  const Node& n = tree_.node(node);
  const double vl = params_.virtual_loss;
  int best = n.first_child;
  double best_score = -1e300;
  if (n.kind == NodeKind::kChance) {
    for (int k = 0; k < n.num_children; ++k) {
      const Node& c = tree_.node(n.first_child + k);
      const double score = static_cast<double>(c.prior) * (n.visits + vl * n.in_flight + 1) -
                           (c.visits + vl * c.in_flight);
      if (score > best_score) {
        best_score = score;
        best = n.first_child + k;
      }
    }
    return best;
  }
  const double sign = n.player == 0 ? 1.0 : -1.0;
  const double fpu = sign * n.meanValue() - params_.fpu_reduction;
  const double scale = params_.cpuct * std::sqrt(std::max(1.0, n.visits + vl * n.in_flight));
  for (int k = 0; k < n.num_children; ++k) {
    const Node& c = tree_.node(n.first_child + k);
    const double lost = vl * c.in_flight;
    const double q = lost > 0   ? (sign * c.value_sum - lost) / (c.visits + lost)
                     : c.visits ? sign * c.meanValue()
                                : fpu;
    const double score = q + scale * c.prior / (1 + c.visits + lost);
    if (score > best_score) {
      best_score = score;
      best = n.first_child + k;
    }
  }
  return best;
}

// Once per decision, when the root has children: noise, then the Gumbel sample and schedule.
void TreeSearch::prepareRoot() {
  root_ready_ = true;
  Node& root = tree_.node(0);
  const int n = root.num_children;
  if (root_noise_ && params_.noise_alpha > 0 && n > 1) {
    noisy_priors_.resize(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k)
      noisy_priors_[static_cast<size_t>(k)] = tree_.node(root.first_child + k).prior;
    mixDirichletNoise(rng_, params_.noise_alpha, params_.noise_fraction, noisy_priors_);
    for (int k = 0; k < n; ++k)
      tree_.node(root.first_child + k).prior = noisy_priors_[static_cast<size_t>(k)];
  }
  if (!params_.gumbel) return;
  gumbel_base_.resize(static_cast<size_t>(n));
  survivors_.resize(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) {
    const double prior =
        std::max(1e-30, static_cast<double>(tree_.node(root.first_child + k).prior));
    gumbel_base_[static_cast<size_t>(k)] =
        params_.gumbel_scale * sampleGumbel(rng_) + std::log(prior);
    survivors_[static_cast<size_t>(k)] = k;
  }
  std::stable_sort(survivors_.begin(), survivors_.end(), [&](int a, int b) {
    return gumbel_base_[static_cast<size_t>(a)] > gumbel_base_[static_cast<size_t>(b)];
  });
  survivors_.resize(static_cast<size_t>(std::min(n, std::max(1, params_.gumbel_actions))));
  visits_per_survivor_ = 0;
  schedule_cursor_ = 0;
}

// Sequential halving: each phase visits every survivor equally; then the better half survives.
int TreeSearch::nextGumbelAction() {
  const int count = static_cast<int>(survivors_.size());
  if (schedule_cursor_ >= visits_per_survivor_ * count) {
    if (visits_per_survivor_ > 0 && count > 1) {
      const std::vector<double> sigma = sigmaQ();
      auto score = [&](int k) {
        return gumbel_base_[static_cast<size_t>(k)] + sigma[static_cast<size_t>(k)];
      };
      std::stable_sort(survivors_.begin(), survivors_.end(),
                       [&](int a, int b) { return score(a) > score(b); });
      survivors_.resize(static_cast<size_t>((count + 1) / 2));
    }
    const int left = static_cast<int>(survivors_.size());
    const int phases = left > 1 ? static_cast<int>(std::ceil(std::log2(left))) : 1;
    visits_per_survivor_ = std::max(1, (budget_ - simulations_) / (phases * left));
    schedule_cursor_ = 0;
  }
  const int k =
      survivors_[static_cast<size_t>(schedule_cursor_ % static_cast<int>(survivors_.size()))];
  ++schedule_cursor_;
  return tree_.node(0).first_child + k;
}

std::vector<double> TreeSearch::completedQ() const {
  const Node& root = tree_.node(0);
  const double sign = root.player == 0 ? 1.0 : -1.0;
  double visits = 0, prior_visited = 0, weighted_q = 0;
  for (int k = 0; k < root.num_children; ++k) {
    const Node& c = tree_.node(root.first_child + k);
    if (c.visits == 0) continue;
    visits += c.visits;
    prior_visited += c.prior;
    weighted_q += c.prior * sign * c.meanValue();
  }
  // The mixed value of the paper's appendix D: the root's evaluation blended with the
  // prior-weighted values of the visited actions.
  const double mixed = prior_visited > 0
                           ? (root_eval_ + visits * weighted_q / prior_visited) / (1 + visits)
                           : root_eval_;
  std::vector<double> q(static_cast<size_t>(root.num_children));
  for (int k = 0; k < root.num_children; ++k) {
    const Node& c = tree_.node(root.first_child + k);
    q[static_cast<size_t>(k)] = c.visits ? sign * c.meanValue() : mixed;
  }
  return q;
}

// sigma(q) of the paper for every root child: (c_visit + max visits) x c_scale x q, q in [0, 1].
std::vector<double> TreeSearch::sigmaQ() const {
  const Node& root = tree_.node(0);
  int max_visits = 0;
  for (int k = 0; k < root.num_children; ++k)
    max_visits = std::max(max_visits, tree_.node(root.first_child + k).visits);
  std::vector<double> sigma = completedQ();
  for (double& q : sigma)
    q = (params_.gumbel_cvisit + max_visits) * params_.gumbel_cscale * (q + 1) / 2;
  return sigma;
}

int TreeSearch::gumbelChoice() const {
  const std::vector<double> sigma = sigmaQ();
  int best = survivors_.empty() ? 0 : survivors_[0];
  auto score = [&](int k) {
    return gumbel_base_[static_cast<size_t>(k)] + sigma[static_cast<size_t>(k)];
  };
  for (int k : survivors_) {
    if (score(k) > score(best)) best = k;
  }
  return best;
}

std::vector<double> TreeSearch::improvedPolicy() const {
  const Node& root = tree_.node(0);
  std::vector<double> logits = sigmaQ();
  double top = -1e300;
  for (size_t k = 0; k < logits.size(); ++k) {
    const double prior = std::max(
        1e-30, static_cast<double>(tree_.node(root.first_child + static_cast<int>(k)).prior));
    logits[k] += std::log(prior);
    top = std::max(top, logits[k]);
  }
  double total = 0;
  for (double& l : logits) total += l = std::exp(l - top);
  for (double& l : logits) l /= total;
  return logits;
}

}  // namespace morne::mcts

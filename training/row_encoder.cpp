#include "training/row_encoder.h"

namespace morne::training {

RowEncoder::RowEncoder(const env::Scenario& sc) : encoder_(sc), layout_(sc) {}

RowShape RowEncoder::shape() const {
  const nn::ObservationShape s = encoder_.shape();
  return {s.planes, s.height, s.width, s.globals, layout_.size()};
}

void RowEncoder::append(const env::GameState& s, int move, std::span<const mcts::RootChild> stats,
                        env::Action played, GameData& g) const {
  const RowShape shape = this->shape();
  const size_t planes = g.planes.size(), globals = g.globals.size(), policy = g.policy.size();
  g.planes.resize(planes + static_cast<size_t>(shape.planeSize()));
  g.globals.resize(globals + static_cast<size_t>(shape.globals));
  encoder_.encode(s, std::span(g.planes).subspan(planes), std::span(g.globals).subspan(globals));
  g.legal.resize(policy + static_cast<size_t>(shape.policy));
  layout_.legalMask(s, std::span(g.legal).subspan(policy));
  g.policy.resize(policy + static_cast<size_t>(shape.policy), 0.0f);
  double total = 0;
  for (const mcts::RootChild& a : stats) total += a.policy;
  if (total > 0) {
    for (const mcts::RootChild& a : stats) {
      g.policy[policy + static_cast<size_t>(layout_.index(a.action))] =
          static_cast<float>(a.policy / total);
    }
  } else {
    g.policy[policy + static_cast<size_t>(layout_.index(played))] = 1.0f;
  }
  g.move.push_back(move);
  g.phase.push_back(static_cast<uint8_t>(s.phase));
  g.side.push_back(s.side);
  ++g.rows;
}

}  // namespace morne::training

#include "agents/step_counter.h"

namespace morne::agents {

void StepCounter::onDecision(const env::GameState& before, env::Action a) {
  const int turn = before.turn * 2 + before.side;
  if (turn != turn_) {
    turn_ = turn;
    for (auto& cells : left_) cells.reset();
    previous_.fill(env::kNoCell);
  }
  if (a.kind != env::ActionKind::kMove) return;
  const int u = before.unitAt(a.cell);
  const env::CellId to = before.sc().neighbor(a.cell, a.arg);
  StepCounts& c = counts_[before.side];
  ++c.steps;
  const auto unit = static_cast<size_t>(u);
  if (previous_[unit] == to) ++c.reversals;
  if (left_[unit].test(static_cast<size_t>(to))) ++c.revisits;
  left_[unit].set(static_cast<size_t>(a.cell));
  previous_[unit] = a.cell;
}

}  // namespace morne::agents

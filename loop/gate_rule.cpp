#include "loop/gate_rule.h"

namespace morne::loop {

GateDecision gateDecision(const arena::WinDrawLoss& candidate, double gate_score) {
  GateDecision d;
  d.candidate = candidate;
  d.score = candidate.score();
  d.promoted = candidate.games() > 0 && d.score >= gate_score;
  return d;
}

}  // namespace morne::loop

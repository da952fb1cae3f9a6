#pragma once
// The targets a game's rows get once it is over (training/record.h), beside the result: the
// victory-point margin, the final control of each square and the short-term values, each for
// the side to move at the row. They feed the network's auxiliary heads (nn/learner.h), the
// analogues of KataGo's score, ownership and short-term value targets.

#include <span>

#include "env/game_state.h"
#include "nn/observation.h"
#include "training/record.h"

namespace morne::training {

// Fills g.margin, g.control and g.short_value for every row of `g`, whose result (winner,
// vp_blue, vp_orange) is set, from `end`, the position the game ended in, and `decisions`:
// the root value of every decision of the game (recorded or not), for the side that made it,
// NaN where it made none (an agent that does not search). `encoder` gives the squares.
void fillFinalTargets(const env::GameState& end, std::span<const DecisionValue> decisions,
                      const nn::ObservationEncoder& encoder, GameData& g);

// The final control of every square of the grid (encoder.shape() height x width), blue's point
// of view: +1 where a blue unit stands, or on an empty hex blue owns (a tracked hex, V-HEX-2,
// or a fort, M-FORT-1); -1 likewise for orange; 0 elsewhere and off the map.
void finalControl(const env::GameState& end, const nn::ObservationEncoder& encoder,
                  std::span<float> grid);

// The short-term value of each decision t for `horizon` decisions, blue's point of view: the
// exponential average u(t) = v(t) / h + (1 - 1/h) u(t + 1) of the root values v from t on,
// with the result `blue_result` after the last decision (u(T) = result); a decision without a
// value passes u(t + 1) on. `out` has one entry per decision.
void shortTermValues(std::span<const DecisionValue> decisions, float blue_result, int horizon,
                     std::span<float> out);

}  // namespace morne::training

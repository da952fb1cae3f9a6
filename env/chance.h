#pragma once
// The outcomes of a chance event (a die roll): what the rules (env/rules.h) and the morale
// models (env/morale_model.h) enumerate for search and previews.

#include "env/fixed_vector.h"

namespace morne::env {

// One possible outcome of a chance event: the value drawn (the die face) and its exact
// probability num/den.
struct ChanceOutcome {
  int value = 0;
  int num = 0;
  int den = 1;
  double probability() const { return static_cast<double>(num) / den; }
};
using ChanceList = FixedVector<ChanceOutcome, 16>;

}  // namespace morne::env

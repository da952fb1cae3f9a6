#pragma once
// How the command line writes numbers: fixed decimals for measurements and the shortest exact
// text for settings, never "-0.0" and never binary noise such as 0.10000000000000001.

#include <string>

namespace morne::core {

// `v` with `digits` decimals ("17.77"); a value that rounds to zero prints without a sign.
std::string fixedText(double v, int digits);

// The shortest text that reads back as `v` ("0.1", "1.5", "800", "1e-05").
std::string shortText(double v);

}  // namespace morne::core

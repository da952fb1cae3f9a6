#pragma once
// The problems a validation reports, as "PATH: MESSAGE" lines, and a search among them.

#include <string>
#include <vector>

#include "env/error.h"

namespace morne::test {

// The problems `validate` throws as a ValidationError, one "PATH: MESSAGE" line each; none
// when it throws nothing.
template <class Validate>
std::vector<std::string> problemLines(Validate&& validate) {
  try {
    validate();
  } catch (const ValidationError& e) {
    std::vector<std::string> out;
    for (const Problem& p : e.problems()) out.push_back(p.path + ": " + p.message);
    return out;
  }
  return {};
}

// Whether one line holds `a` and `b` both.
inline bool mentions(const std::vector<std::string>& problems, const std::string& a,
                     const std::string& b = "") {
  for (const std::string& p : problems) {
    if (p.find(a) != std::string::npos && p.find(b) != std::string::npos) return true;
  }
  return false;
}

}  // namespace morne::test

#pragma once
// The one family of exceptions morne throws: bad input at the boundaries (scenario files, saved
// states, config files, protocol messages), and broken invariants (InternalError, env/check.h).
// Rule code never throws: apply() and legalActions() work on validated data only.

#include <stdexcept>
#include <string>
#include <vector>

namespace morne {

// Base of every error morne reports to a user.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad key or value in a config file, a --set override or an agent spec.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// A file that cannot be opened, read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// Ratings or statistics that the data given cannot determine (arena/elo.h).
class UndeterminedError : public Error {
 public:
  using Error::Error;
};

// A broken invariant: a bug in morne, not bad input (env/check.h). The binary reports it as an
// internal error.
class InternalError : public Error {
 public:
  using Error::Error;
};

// One problem found while validating a document: where (a JSON pointer such as
// "/sides/0/units/3/hex") and why.
struct Problem {
  std::string path;
  std::string message;
};

// A scenario or a saved state that failed validation. Carries every problem found, not only
// the first, so that a user can fix a file in one pass. what() lists them one per line as
// "SOURCE: PATH: MESSAGE".
class ValidationError : public Error {
 public:
  ValidationError(std::string source, std::vector<Problem> problems);
  const std::string& source() const { return source_; }
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::string source_;
  std::vector<Problem> problems_;
};

}  // namespace morne

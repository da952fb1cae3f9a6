#include "env/error.h"

#include "env/check.h"

namespace morne {

namespace {
std::string describe(const std::string& source, const std::vector<Problem>& problems) {
  std::string text;
  for (const Problem& p : problems) {
    if (!text.empty()) text += '\n';
    text += source + ": " + (p.path.empty() ? "/" : p.path) + ": " + p.message;
  }
  return text.empty() ? source + ": invalid" : text;
}
}  // namespace

ValidationError::ValidationError(std::string source, std::vector<Problem> problems)
    : Error(describe(source, problems)),
      source_(std::move(source)),
      problems_(std::move(problems)) {}

void failCheck(const char* condition, const char* message, const char* file, int line) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": check `" + condition +
                      "` failed: " + message);
}

}  // namespace morne

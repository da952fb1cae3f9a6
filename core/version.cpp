#include "core/version.h"

namespace morne::core {

std::string versionLine() {
  return std::string("morne ") + kVersion + " (git " + kGitRevision + ", " + kBuildType + ")";
}

}  // namespace morne::core

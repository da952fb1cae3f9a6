#include "cli/commands.h"
#include "cli/version_info.h"

namespace morne::cli {

std::string versionLine() {
  return std::string("morne ") + kVersion + " (git " + kGitRevision + ", " + kBuildType + ")";
}

}  // namespace morne::cli

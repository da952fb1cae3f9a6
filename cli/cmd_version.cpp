// `morne version`: the version, build facts and the LibTorch runtime (this file is linked into
// the binary alone, with LibTorch; versionLine() is in core/version.cpp).

#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "core/version.h"
#include "env/game_state.h"
#include "nn/network.h"

namespace morne::cli {

int runVersion(const Args& args) {
  po::options_description own("Options of `morne version`");
  const ParsedCommand cmd = parseCommand("version", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne version", own);
    return 0;
  }
  std::cout << core::versionLine() << "\n"
            << "git revision:     " << kGitRevision << "\n"
            << "build type:       " << kBuildType << "\n"
            << "compiler:         " << kCompiler << "\n"
            << "sanitizers:       " << (*kSanitizers ? kSanitizers : "none") << "\n"
            << "max cells/units:  " << kBuildMaxCells << " / " << kBuildMaxUnits << "\n"
            << "sizeof GameState: " << sizeof(env::GameState) << " bytes\n"
            << "LibTorch:         " << nn::torchRuntimeText() << "\n";
  return 0;
}

}  // namespace morne::cli

#pragma once
// The subcommands of the `morne` binary. Each takes the arguments after its name and returns
// the process exit code; bad input is reported by throwing morne::Error (main prints it).

#include <string>
#include <vector>

namespace morne::cli {

using Args = std::vector<std::string>;

int runVersion(const Args& args);
int runScenario(const Args& args);
int runPlay(const Args& args);
int runPerft(const Args& args);
int runEngine(const Args& args);
int runServe(const Args& args);
int runBench(const Args& args);
int runArena(const Args& args);
int runNn(const Args& args);
int runSelfplay(const Args& args);
int runTrain(const Args& args);
int runLoop(const Args& args);
// `morne loop ladder RUN` (cmd_loop_ladder.cpp).
int runLoopLadder(const Args& args);
int runData(const Args& args);

}  // namespace morne::cli

// `morne play`: one game between two agents, printed turn by turn, then the result.

#include <chrono>
#include <iostream>

#include "agents/agent_spec.h"
#include "agents/game_runner.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "env/ascii_map.h"
#include "env/event_text.h"
#include "env/notation.h"
#include "env/scenario_library.h"

namespace morne::cli {

namespace {

// Prints each decision and the events it caused (dice included), and optionally the map at
// the start of every player-turn.
class LogPrinter : public agents::GameObserver {
 public:
  LogPrinter(bool quiet, bool show_map) : quiet_(quiet), show_map_(show_map) {}

  void onStart(const env::GameState& start, const env::EventLog& events) override {
    printEvents(start, events);
  }

  void onPly(const env::GameState& before, const agents::Ply& ply, const env::GameState& after,
             const env::EventLog& events) override {
    if (quiet_) return;
    if (!ply.chance) {
      const int unit = ply.action.cell == env::kNoCell ? -1 : before.unitAt(ply.action.cell);
      std::cout << "  " << env::sideColor(before.side) << ": "
                << (unit >= 0 ? before.sc().unit(unit).id + " " : "")
                << env::actionText(before, ply.action) << "\n";
    }
    printEvents(after, events);
  }

 private:
  // One line per event, leaving out what the action line already says (the step itself, the
  // end of a phase the player ended) and folding "phase begins" into "nothing to do".
  void printEvents(const env::GameState& s, const env::EventLog& events) {
    if (quiet_) return;
    const env::Scenario& sc = s.sc();
    for (size_t i = 0; i < events.size(); ++i) {
      const env::Event& e = events[i];
      const bool skipped_next =
          i + 1 < events.size() && events[i + 1].type == env::EventType::kPhaseSkipped;
      if (e.type == env::EventType::kStep || (e.type == env::EventType::kPhaseEnds && !e.b) ||
          (e.type == env::EventType::kPhaseBegins && skipped_next)) {
        continue;
      }
      const bool header = e.type == env::EventType::kTurnBegins;
      std::cout << (header ? "\n" : "    ") << env::eventText(sc, e) << "\n";
      if (header && show_map_) std::cout << env::renderMap(s);
    }
  }

  bool quiet_;
  bool show_map_;
};

}  // namespace

int runPlay(const Args& args) {
  po::options_description own("Options of `morne play`");
  own.add_options()("scenario", po::value<std::string>()->default_value(env::kDefaultScenario),
                    "built-in scenario name or scenario file")(
      "blue", po::value<std::string>()->default_value("random"), "agent spec of the first player")(
      "orange", po::value<std::string>()->default_value("random"),
      "agent spec of the second player")("seed", po::value<uint64_t>()->default_value(1),
                                         "game seed (dice and agents)")("quiet", po::bool_switch(),
                                                                        "print only the result")(
      "show-map", po::bool_switch(), "print the map at the start of every player-turn");
  const ParsedCommand cmd = parseCommand("play", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne play [options]", own) << "\nAgents:\n" << agents::agentCatalog();
    return 0;
  }
  const auto& vm = cmd.vm;
  const auto sc = env::loadScenario(vm["scenario"].as<std::string>());
  const uint64_t seed = vm["seed"].as<uint64_t>();
  auto blue = agents::makeAgent(vm["blue"].as<std::string>(), agents::agentSeed(seed, 0));
  auto orange = agents::makeAgent(vm["orange"].as<std::string>(), agents::agentSeed(seed, 1));
  const bool quiet = vm["quiet"].as<bool>();

  std::cout << versionLine() << "\n"
            << "scenario " << sc->name() << ": " << sc->title() << "\n"
            << "blue (" << sc->sideNames()[0] << "): " << blue->spec() << ", orange ("
            << sc->sideNames()[1] << "): " << orange->spec() << ", seed " << seed << "\n";
  LogPrinter printer(quiet, vm["show-map"].as<bool>());
  const auto start = std::chrono::steady_clock::now();
  const agents::GameSummary game = agents::playGame(*sc, *blue, *orange, seed, &printer);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const env::GameResult& r = game.result;
  std::cout << "\nresult: blue " << r.vp[0] << " VP, orange " << r.vp[1] << " VP: ";
  if (r.winner == env::kNoSide) {
    std::cout << "draw";
  } else {
    std::cout << env::victoryLevelName(r.level) << " for " << env::sideColor(r.winner) << " ("
              << sc->sideNames()[static_cast<size_t>(r.winner)] << ")";
  }
  std::cout << "\n"
            << game.plies.size() << " plies (" << game.decisions << " decisions) in " << seconds
            << " s; final position hash " << std::hex << game.final_hash << std::dec << "\n";
  return 0;
}

}  // namespace morne::cli

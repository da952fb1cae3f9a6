#pragma once
// The text transcript of a game: each decision and the events it caused (dice, losses, tests,
// retreats, advances, eliminations), player-turn by player-turn, then the result. Used by
// `morne play` and by the golden playthroughs (tests/golden/playthrough_*.txt).

#include <ostream>
#include <string>

#include "agents/game_runner.h"

namespace morne::agents {

class TextGameLog : public GameObserver {
 public:
  // Writes to `out`; with `show_map`, also the map at the start of every player-turn.
  TextGameLog(std::ostream& out, bool show_map) : out_(out), show_map_(show_map) {}

  void onStart(const env::GameState& start, const env::EventLog& events) override;
  void onPly(const env::GameState& before, const Ply& ply, const env::GameState& after,
             const env::EventLog& events) override;

 private:
  void printEvents(const env::GameState& s, const env::EventLog& events);

  std::ostream& out_;
  bool show_map_;
};

// "blue 3 VP, orange 1 VP: tactical victory for blue (French)".
std::string resultText(const env::Scenario& sc, const env::GameResult& r);

}  // namespace morne::agents

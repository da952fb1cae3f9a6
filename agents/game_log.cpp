#include "agents/game_log.h"

#include "env/io/ascii_map.h"
#include "env/io/event_text.h"
#include "env/io/notation.h"
#include "env/victory.h"

namespace morne::agents {

void TextGameLog::onStart(const env::GameState& start, const env::EventLog& events) {
  printEvents(start, events);
}

void TextGameLog::onPly(const env::GameState& before, const Ply& ply, const env::GameState& after,
                        const env::EventLog& events) {
  if (!ply.chance) {
    const int unit = ply.action.cell == env::kNoCell ? -1 : before.unitAt(ply.action.cell);
    out_ << "  " << env::sideColor(before.side) << ": "
         << (unit >= 0 ? before.sc().unit(unit).id + " " : "")
         << env::actionText(before, ply.action) << "\n";
  }
  printEvents(after, events);
}

// One line per event, leaving out what the action line already says (the step itself, the end
// of a phase the player ended) and folding "phase begins" into "nothing to do".
void TextGameLog::printEvents(const env::GameState& s, const env::EventLog& events) {
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
    out_ << (header ? "\n" : "    ") << env::eventText(sc, e) << "\n";
    if (header && show_map_) out_ << env::renderMap(s);
  }
}

std::string resultText(const env::Scenario& sc, const env::GameResult& r) {
  std::string text;
  for (int side = 0; side < env::kNumSides; ++side) {
    const int handicap = r.handicap_half[static_cast<size_t>(side)];
    text += std::string(side == 0 ? "" : ", ") + std::string(env::sideColor(side)) + " " +
            std::to_string(r.vp[static_cast<size_t>(side)]) + " VP" +
            (handicap == 0 ? "" : " + " + env::halfVpText(handicap) + " handicap");
  }
  text += ": ";
  if (r.winner == env::kNoSide) return text + "draw";
  return text + env::victoryLevelName(r.level) + " for " + std::string(env::sideColor(r.winner)) +
         " (" + sc.sideNames()[static_cast<size_t>(r.winner)] + ")";
}

}  // namespace morne::agents

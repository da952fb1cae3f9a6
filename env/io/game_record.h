#pragma once
// A game as a record: the scenario, the seed, who played each side, the start position, every
// action and every chance outcome in order, and the result. A record replays to any ply
// exactly (the rules are a deterministic function of the decisions and the draws, ENG-2).
// Written by `morne play`, `morne arena` and the protocol's "save"; read by "load_game".
// docs/protocol.md, "Game records", describes the JSON form.

#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "env/action.h"
#include "env/events.h"
#include "env/game_state.h"
#include "env/scenario.h"

namespace morne::env {

// The format tag written into every game record.
inline constexpr const char* kGameRecordFormat = "morne-game/1";

// One ply: an action, or the outcome of the pending chance event.
struct RecordedPly {
  bool chance = false;
  Action action;
  int outcome = 0;

  friend bool operator==(const RecordedPly&, const RecordedPly&) = default;
};

// A takeback: at ply `ply` the game went on differently after `taken_back` plies (actions and
// dice) had been taken back.
struct Takeback {
  size_t ply = 0;
  size_t taken_back = 0;

  friend bool operator==(const Takeback&, const Takeback&) = default;
};

struct GameRecord {
  std::shared_ptr<const Scenario> scenario;
  uint64_t seed = 0;                          // the seed the game's dice and agents came from
  std::array<std::string, kNumSides> agents;  // agent specs, "human", or empty when unknown
  std::optional<GameState> start;             // nullopt: the scenario's own start (newGame)
  std::vector<RecordedPly> plies;
  // An analysis game: a chance event met again after a takeback draws new dice. Otherwise the
  // dice of a position are fixed by the seed, so a takeback cannot re-roll them.
  bool free_rerolls = false;
  std::vector<Takeback> takebacks;  // in the order they happened
};

// The record's position after its first `plies` plies (all of them by default), with the
// events of the last ply in *log when given. Precondition: the record is valid (as
// recordFromJson makes it) and plies <= record.plies.size().
GameState replayRecord(const GameRecord& record, size_t plies, EventLog* log = nullptr);

// The record's JSON form: actions in their text form, dice as {"chance", "outcome"}; the
// scenario by name when it is a built-in one unchanged, else the scenario document itself;
// "result" once the last ply ends the game; "free_rerolls" and "takebacks" only when set.
nlohmann::json recordToJson(const GameRecord& record);

// Reads and validates a record: a built-in scenario's name or a scenario document (never a
// file path), every ply legal in its turn (the problem names the ply and the rule that
// refuses it), and a "result", when given, equal to the replay's. Throws ValidationError
// naming `source` and each problem's JSON pointer.
GameRecord recordFromJson(const nlohmann::json& j, const std::string& source);

// Reads a record file (env/io/text_file.h limits) and validates it. Throws IoError or
// ValidationError naming the file.
GameRecord loadRecordFile(const std::string& path);

}  // namespace morne::env

#pragma once
// The game an engine session plays (docs/protocol.md): the loaded scenario, the game as a
// record (its start and every action and die since, so that plies can be taken back, saved and
// replayed), the current position, the dice, and the side the session is bound to, with what
// that side may see. Each method serves one request of the protocol and returns its reply's
// fields; bad requests throw RequestError.

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "env/game_state.h"
#include "env/io/game_record.h"
#include "env/rng.h"
#include "env/scenario.h"

namespace morne::engine {

class PlayedGame {
 public:
  using json = nlohmann::json;

  // `seed` seeds the dice ("roll") and the agents until a "load" gives another. A position's
  // dice are drawn from the seed, the ply and the position, so that a takeback played again the
  // same way meets the same dice; a game loaded with "free_rerolls" draws on from one stream.
  explicit PlayedGame(uint64_t seed) : rng_(seed), seed_(seed) {}

  // Starts a game of the scenario the request names ("scenario", "path" or "json"; "seed").
  // `files`: whether requests may name files to read.
  json load(const json& req, bool files);
  // Starts from a game record ("record" or "path"), at its "ply" (by default its end).
  json loadGame(const json& req, bool files);
  // The seed of the dice and agents of this game.
  uint64_t seed() const { return seed_; }

  // The game as played: an action or a chance outcome, the dice drawn, a new position, plies
  // taken back or replayed, and the record.
  json apply(const json& req);
  json roll();
  json setState(const json& req);
  json undo(const json& req);
  json replay(const json& req);
  json saveGame() const;
  // Plays `ply` (an agent's action): into the position and the record, dropping the record's
  // plies past the current one; returns the events it caused.
  json play(const env::RecordedPly& ply);
  // Names the agent that plays the side to move in the record.
  void recordAgent(const std::string& spec);

  // Binds the game to one side for good: what it may not see is hidden from the replies.
  json bind(const json& req);
  // The side bound, or -1 for both.
  int boundSide() const { return bound_side_; }
  // Whether the side to move's decisions are hidden from the bound side now (S-4).
  bool decisionsHidden() const;

  // The position; RequestError "no_game" before a load.
  const env::GameState& position() const;
  // The position a query reads: the request's own "state" (validated, kept in *own), or the
  // game's as the bound side may know it (env/visibility.h).
  const env::GameState& position(const json& req, std::optional<env::GameState>* own) const;
  // The game as the bound side may know it (the game itself for an unbound session).
  env::GameState visibleGame() const;
  // "state": the visible position and the units hidden from the bound side.
  json stateReply() const;
  // "scenario": the loaded scenario's summary and its document.
  json scenarioInfo() const;
  // The turn, side, phase, chance and terminal flags of the position.
  json status() const;

 private:
  // Replays the record's first `plies` plies from its start position.
  void rewind(size_t plies);

  std::shared_ptr<const env::Scenario> scenario_;
  std::optional<env::GameState> state_;
  env::GameRecord record_;  // the game: start, every ply so far and any taken back (undo)
  size_t ply_ = 0;          // how many of record_.plies state_ has played
  int bound_side_ = -1;     // the side the session serves (bind), -1 for both
  env::Rng rng_;
  uint64_t seed_;
};

// The turn, side, phase, chance and terminal flags of `s`.
nlohmann::json statusJson(const env::GameState& s);

}  // namespace morne::engine

#pragma once
// The engine protocol (docs/protocol.md): one JSON request per line in, one JSON reply per line
// out. A session holds the loaded scenario, the game as a record (start position and every
// action and die since, so that it can be taken back, saved and replayed), the current state
// and the dice generator. Every request may carry an "id", echoed in its reply. Bad input of
// any kind gets {"ok":false,"error":{"code":...,"message":...}} and the session keeps serving.

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "env/game_state.h"
#include "env/io/game_record.h"
#include "env/rng.h"
#include "env/scenario.h"

namespace morne::cli {

// Version of the protocol; bumped only for changes that break existing clients. Version 2
// refuses what the rules refuse with one code, "illegal_action", and a machine-readable reason;
// every version 1 request is still served.
inline constexpr int kProtocolVersion = 2;

// Limits on what a client may send and make the engine keep (docs/protocol.md, "Limits").
inline constexpr size_t kMaxRequestBytes = size_t{4} << 20;  // one request line
inline constexpr size_t kMaxKeptAgents = 8;  // genmove agents kept at once, least recent dropped

// Reads one request line from `in` into `line`, without its newline or a trailing CR. Keeps at
// most kMaxRequestBytes + 1 bytes of a longer line (the rest is skipped), so that an endless
// line cannot exhaust memory; handle() then refuses it. Returns false at the end of input.
bool readRequestLine(std::istream& in, std::string& line);

class EngineSession {
 public:
  // `seed` seeds the generator used by "roll" until a "load" gives another.
  explicit EngineSession(uint64_t seed);

  // Handles one request line and returns the reply line (without newline). Sets *quit when the
  // request was "quit". Never throws.
  std::string handle(const std::string& line, bool* quit);

  // How many genmove agents the session keeps now (at most kMaxKeptAgents).
  size_t keptAgents() const { return agents_.size(); }

  // One command of the protocol: its name, the request fields it accepts besides "cmd" and
  // "id", one line of help, and what it does. The table (engine_session.cpp) is the one place
  // a command is declared: dispatch, key checks, "help" and "protocol" follow from it.
  struct Command {
    const char* name;
    std::vector<const char*> keys;
    const char* summary;
    nlohmann::json (*run)(EngineSession& session, const nlohmann::json& request);
  };
  static std::span<const Command> commands();

 private:
  using json = nlohmann::json;
  json dispatch(const json& request, bool* quit);
  json help() const;
  json load(const json& req);
  json scenarioInfo() const;
  json status() const;
  static json statusOf(const env::GameState& s);

  // The game as played (engine_play.cpp): actions, dice, undo, records.
  json apply(const json& req);
  json roll();
  json setState(const json& req);
  json undo(const json& req);
  json saveGame() const;
  json loadGame(const json& req);
  json replay(const json& req);
  // Applies the ply to the game and the record (dropping the record's plies past the current
  // one), returning the events it caused.
  json play(const env::RecordedPly& ply);
  // Replays the record's first `plies` plies from its start position into state_.
  void rewind(size_t plies);

  // Questions about a position (engine_queries.cpp); each reads the request's own "state" when
  // it carries one, else the game's.
  json legal(const json& req) const;
  json chance(const json& req) const;
  json reachable(const json& req) const;
  json zoneOfControl(const json& req) const;
  json result(const json& req) const;
  json lineOfSight(const json& req) const;
  // Previews (engine_previews.cpp).
  json previewFire(const json& req) const;
  json previewCombat(const json& req) const;
  json previewStep(const json& req) const;
  // An agent's choice and search statistics (engine_genmove.cpp).
  json genmove(const json& req);

  // The position a query reads: the state given in req["state"] (validated, kept in *own), or
  // the game's.
  const env::GameState& position(const json& req, std::optional<env::GameState>* own) const;
  // The unit named by req[key] in `s`: a unit id or the label of the hex it stands on.
  static int unitArgument(const env::GameState& s, const json& req, const char* key);
  const env::GameState& game() const;

  std::shared_ptr<const env::Scenario> scenario_;
  std::optional<env::GameState> state_;
  env::GameRecord record_;  // the game: start, every ply so far and any taken back (undo)
  size_t ply_ = 0;          // how many of record_.plies state_ has played
  env::Rng rng_;
  // An agent genmove keeps for its spec, and when it last served (to drop the least recent).
  struct KeptAgent {
    std::unique_ptr<agents::Agent> agent;
    uint64_t last_used = 0;
  };
  // The agent kept for `spec`, made on first use; at most kMaxKeptAgents are kept. Specs that
  // differ only in their budget (sims, ms, turn_ms) share one agent, whose budget is set to
  // this spec's: changing the time per move keeps the search tree.
  agents::Agent& keptAgent(const std::string& spec);

  uint64_t agent_seed_;  // seeds the agents genmove keeps, one per spec, until the next load
  std::map<std::string, KeptAgent> agents_;
  uint64_t requests_served_ = 0;
};

}  // namespace morne::cli

#pragma once
// The engine protocol (docs/protocol.md): one JSON request per line in, one JSON reply per line
// out. A session holds the loaded scenario, the current state and the dice generator. Every
// request may carry an "id", echoed in its reply. Bad input of any kind gets
// {"ok":false,"error":{"code":...,"message":...}} and the session keeps serving.

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "agents/agent.h"
#include "env/game_state.h"
#include "env/rng.h"
#include "env/scenario.h"

namespace morne::cli {

// Version of the protocol; bumped only for changes that break existing clients.
inline constexpr int kProtocolVersion = 1;

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

 private:
  using json = nlohmann::json;
  json dispatch(const json& request, bool* quit);
  json load(const json& req);
  json scenarioInfo() const;
  json legal() const;
  json apply(const json& req);
  json chance() const;
  json roll();
  json reachable(const json& req) const;
  json result() const;
  // An agent's choice and search statistics (engine_genmove.cpp).
  json genmove(const json& req);
  // Previews and line of sight (engine_previews.cpp).
  json lineOfSight(const json& req) const;
  json previewFire(const json& req) const;
  json previewCombat(const json& req) const;
  // The unit named by req[key]: a unit id or the label of the hex it stands on.
  int unitArgument(const json& req, const char* key) const;
  json status() const;
  void setState(const json& req);
  const env::GameState& game() const;

  std::shared_ptr<const env::Scenario> scenario_;
  std::optional<env::GameState> state_;
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

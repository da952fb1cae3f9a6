#pragma once
// The external agent ("ext" specs): a program of one's own, in any language, that speaks the
// engine protocol (docs/protocol.md) on its stdin and stdout, playing wherever a built-in agent
// plays (morne play, arena, self-play, genmove), the way GTP and UCI engines join
// tournaments. One program runs per agent object, that is per game; it is sent
//
//   {"cmd":"load","json":SCENARIO,"seed":SEED,"id":0}             once, before its first move
//   {"cmd":"genmove","agent":AGENT,"state":STATE,"id":N}          for every decision
//
// and answers each with one line: {"ok":true,...} with the action as `index`, `text` or
// `action` (any one), or {"ok":false,"error":{"message":...}}. SEED is the seed a built-in
// agent of that side would get, so `morne engine` run as an external agent plays the very
// games of the built-in kind it is asked for. docs/agents.md, "Agents of your own".
//
// Spec: ext:cmd=PROGRAM ARGS...,agent=NAME,timeout_ms=60000

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/agent_spec.h"
#include "agents/external_process.h"
#include "agents/spec_params.h"

namespace morne::agents {

struct ExternalAgentParams {
  std::string cmd;            // the program and its arguments, separated by spaces
  std::string agent = "ext";  // sent as genmove's "agent"
  int timeout_ms = 60'000;    // the longest wait for one reply
};

class ExternalAgent : public Agent {
 public:
  // Starts the program at once, so that a bad command fails before the first game.
  ExternalAgent(ExternalAgentParams params, uint64_t seed);
  Decision decide(const env::GameState& s) override;
  std::string spec() const override;

 private:
  // The reply to `request` (sent with the next id), checked to be a successful one.
  nlohmann::json ask(nlohmann::json request);

  ExternalAgentParams params_;
  uint64_t seed_;
  std::unique_ptr<ExternalProcess> process_;
  const env::Scenario* loaded_ = nullptr;  // the scenario the program has
  int64_t next_id_ = 0;
};

// The "ext" kind (agents/agent_kinds.h).
std::vector<SpecParamInfo> externalAgentParameters();
std::unique_ptr<Agent> makeExternalAgent(const AgentSpec& spec, uint64_t seed);

}  // namespace morne::agents

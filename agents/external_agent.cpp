#include "agents/external_agent.h"

#include <nlohmann/json.hpp>

#include "env/error.h"
#include "env/io/json_nesting.h"
#include "env/io/notation.h"
#include "env/io/state_json.h"
#include "env/rules.h"

namespace morne::agents {

namespace {

using json = nlohmann::json;

constexpr size_t kMaxReplyBytes = 16 << 20;  // the engine protocol's largest line, and more

const std::vector<SpecParam<ExternalAgentParams>>& externalRows() {
  static const std::vector<SpecParam<ExternalAgentParams>> table = {
      textParam("cmd", &ExternalAgentParams::cmd,
                "the program and its arguments, separated by spaces (no shell, no commas)",
                Shown::kAlways),
      textParam("agent", &ExternalAgentParams::agent,
                "sent as genmove's \"agent\": the agent the program plays, if it has several"),
      wholeParam("timeout_ms", &ExternalAgentParams::timeout_ms, 1, 86'400'000,
                 "the longest wait for one reply, in milliseconds; beyond it the game fails")};
  return table;
}

std::vector<std::string> commandWords(const std::string& cmd) {
  std::vector<std::string> words;
  std::string word;
  for (char c : cmd + " ") {
    if (c != ' ') {
      word += c;
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  return words;
}

// The action of a genmove reply: its `index`, `text` or `action`, checked legal in `s`.
env::Action replyAction(const env::GameState& s, const json& reply, const std::string& who) {
  std::optional<env::Action> a;
  std::string error = "the reply has no \"index\", \"text\" or \"action\"";
  if (reply.contains("index")) {
    const json& index = reply["index"];
    const int64_t size = env::actionSpaceSize(s.sc());
    // Compared as the number it is: 2^32 + i is no action, never action i.
    const bool in_range =
        index.is_number_unsigned()  ? index.get<uint64_t>() < static_cast<uint64_t>(size)
        : index.is_number_integer() ? index.get<int64_t>() >= 0 && index.get<int64_t>() < size
                                    : false;
    if (in_range) a = env::actionFromIndex(s.sc(), static_cast<int>(index.get<int64_t>()));
    error = "\"index\" " + index.dump().substr(0, 40) + " is no action of this scenario (0 to " +
            std::to_string(size - 1) + ")";
  } else if (reply.contains("text")) {
    if (reply["text"].is_string())
      a = env::parseActionText(s, reply["text"].get<std::string>(), &error);
    else
      error = "\"text\" is not a string";
  } else if (reply.contains("action")) {
    a = env::parseActionJson(s, reply["action"], &error);
  }
  if (!a) throw IoError(who + ": " + error);
  env::ActionList legal;
  env::legalActions(s, legal);
  if (std::find(legal.begin(), legal.end(), *a) == legal.end()) {
    const std::optional<env::Refusal> why = env::explainIllegal(s, *a);
    throw IoError(who + ": " + env::actionText(s, *a) + " is not legal here" +
                  (why ? " (" + why->message + ")" : std::string()));
  }
  return *a;
}

}  // namespace

ExternalAgent::ExternalAgent(ExternalAgentParams params, uint64_t seed)
    : params_(std::move(params)), seed_(seed) {
  const std::vector<std::string> words = commandWords(params_.cmd);
  if (words.empty()) throw ConfigError("ext: give the program to run, as ext:cmd=PROGRAM");
  process_ = std::make_unique<ExternalProcess>(words);
}

std::string ExternalAgent::spec() const {
  return "ext:" + specParamsText<ExternalAgentParams>(externalRows(), params_);
}

json ExternalAgent::ask(json request) {
  const int64_t id = next_id_++;
  request["id"] = id;
  const std::string who =
      spec() + ", request " + std::to_string(id) + " (" + request["cmd"].get<std::string>() + ")";
  std::string line;
  try {
    process_->sendLine(request.dump());
    line = process_->readLine(params_.timeout_ms, kMaxReplyBytes);
  } catch (const IoError& e) {
    throw IoError(who + ": " + e.what());
  }
  if (const size_t depth = env::jsonNestingDepth(line); depth > env::kMaxJsonNesting) {
    throw IoError(who + ": the reply is nested " + std::to_string(depth) +
                  " levels deep; at most " + std::to_string(env::kMaxJsonNesting));
  }
  json reply;
  try {
    reply = json::parse(line);
  } catch (const json::exception&) {
    throw IoError(who + ": the reply is not JSON: " + line.substr(0, 200));
  }
  if (!reply.is_object() || !reply.contains("ok") || !reply["ok"].is_boolean())
    throw IoError(who + ": the reply is not an object with \"ok\": " + line.substr(0, 200));
  if (!reply["ok"].get<bool>()) {
    const json& error = reply.value("error", json::object());
    const std::string message =
        error.is_object() && error.contains("message") ? error["message"].dump() : error.dump();
    throw IoError(who + ": the program refused: " + message.substr(0, 500));
  }
  if (reply.contains("id") && reply["id"] != id)
    throw IoError(who + ": the reply carries id " + reply["id"].dump().substr(0, 40));
  return reply;
}

Decision ExternalAgent::decide(const env::GameState& s) {
  if (loaded_ != s.scenario) {
    ask({{"cmd", "load"}, {"json", json::parse(s.sc().sourceText())}, {"seed", seed_}});
    loaded_ = s.scenario;
  }
  const json reply =
      ask({{"cmd", "genmove"}, {"agent", params_.agent}, {"state", env::stateToJson(s)}});
  Decision d;
  d.action = replyAction(s, reply, spec() + ", request " + std::to_string(next_id_ - 1));
  if (reply.contains("value") && reply["value"].is_number())
    d.info.root_value = reply["value"].get<double>();
  d.info.best = d.action;
  return d;
}

std::vector<SpecParamInfo> externalAgentParameters() {
  return describeRows<ExternalAgentParams>(externalRows());
}

std::unique_ptr<Agent> makeExternalAgent(const AgentSpec& spec, uint64_t seed) {
  ExternalAgentParams p;
  readSpecParams<ExternalAgentParams>("ext", externalRows(), spec.params, p);
  return std::make_unique<ExternalAgent>(std::move(p), seed);
}

}  // namespace morne::agents

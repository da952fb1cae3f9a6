#pragma once
// The engine protocol (docs/protocol.md): one JSON request per line in, one JSON reply per line
// out. A session holds the game it plays (engine/played_game.h), answers questions about a
// position (engine/position_queries.h), keeps the agents genmove uses and runs their searches
// on a thread of its own, replying to every request in its turn. Every request may carry an "id",
// echoed in its reply. Bad input of any kind gets {"ok":false,"error":{"code":...,"message":...}}
// and the session keeps serving.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "agents/agent.h"
#include "engine/kept_agents.h"
#include "engine/played_game.h"
#include "engine/position_queries.h"
#include "engine/search_thread.h"
#include "env/game_state.h"

namespace morne::engine {

// Version of the protocol; bumped only for changes that break existing clients. Version 2
// refuses what the rules refuse with one code, "illegal_action", and a machine-readable reason;
// every version 1 request is still served.
inline constexpr int kProtocolVersion = 3;

// Limits on what a client may send and make the engine keep (docs/protocol.md, "Limits").
inline constexpr size_t kMaxRequestBytes = size_t{4} << 20;  // one request line

class SearchSlots;

// What a session's client may ask of it. A server sets them for its clients (morne serve); the
// defaults suit a local client (morne engine).
struct SessionLimits {
  double max_search_ms = 3'600'000;  // the longest genmove or analyze: a search is cut there
  int max_search_threads = 0;        // threads of one search (0: as the agent spec says)
  int64_t max_search_bytes = 0;      // memory of one search's trees (0: as the spec says)
  bool files = true;                 // requests may name files to read ("path")
  SearchSlots* slots = nullptr;      // searches at once across sessions (null: no bound)
};

// Reads one request line from `in` into `line`, without its newline or a trailing CR. Keeps at
// most kMaxRequestBytes + 1 bytes of a longer line (the rest is skipped), so that an endless
// line cannot exhaust memory; handle() then refuses it. Returns false at the end of input.
bool readRequestLine(std::istream& in, std::string& line);

class EngineSession {
 public:
  // Receives the session's reply lines (without newline), in the order of the requests.
  using ReplySink = std::function<void(const std::string& line)>;

  // `seed` seeds the generator used by "roll" until a "load" gives another. Replies go to
  // `sink`; without one, handle() returns them.
  explicit EngineSession(uint64_t seed, ReplySink sink = {}, SessionLimits limits = {});
  // Stops a search in progress and waits for it.
  ~EngineSession();
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  // Takes one request line. Its reply goes to the sink, now or, for a search ("genmove",
  // "analyze"), when the search ends: a search runs on the session's own thread, and the
  // requests that arrive meanwhile wait for it and are answered after it, in order. "stop"
  // acts at once (the search ends with what it has found); "quit" lets the search and the
  // requests before it finish (it stops only an "analyze" without "ms", which runs until
  // stopped), then ends the session; replies come in order. Never throws.
  void submit(const std::string& line);
  // Sends `reply_line` (a refusal the transport made, such as an oversized message) in its
  // turn: now, or after the search in progress and the requests waiting for it.
  void submitReply(const std::string& reply_line);
  // Waits until no search runs and every request submitted so far is answered.
  void drain();
  // Whether a "quit" was handled or is waiting: the caller stops reading requests.
  bool quitRequested() const;
  // What waits for the search in progress: requests (and transport refusals) and their bytes.
  // A server stops reading from its client while this is over its bound.
  struct Backlog {
    size_t count = 0;
    size_t bytes = 0;
    bool searching = false;  // a search runs
  };
  Backlog backlog() const;

  // For a session without a sink: handles one request line, waits for it, and returns its
  // reply (for "analyze", the last one). Sets *quit when the request was "quit".
  std::string handle(const std::string& line, bool* quit);

  // How many genmove agents the session keeps now (at most kMaxKeptAgents).
  size_t keptAgents() const { return agents_.size(); }

  // One command of the protocol: its name, the request fields it accepts besides "cmd" and
  // "id", one line of help, and what it does. The table (session.cpp) is the one place
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
  // The reply line to one request, or nothing when it started a search (which replies later).
  std::optional<std::string> answer(const std::string& line);
  json dispatch(const json& request);
  // The error reply to the exception `error` (RequestError, ValidationError, ...).
  static json errorReply(std::exception_ptr error);
  // `reply` with the request's `id` echoed (shortened when huge), as one line.
  static std::string replyLine(json reply, const json& id);
  json help() const;
  // Asks `question` (position_queries.h) about the position `req` is about.
  json ask(const json& req, PositionQuery question) const;
  // A command of the table that asks `question`.
  template <PositionQuery question>
  static json onPosition(EngineSession& session, const json& req) {
    return session.ask(req, question);
  }

  // Searches (session_search.cpp): an agent's choice ("genmove") and a search's periodic report
  // on a position ("analyze"), both explained. Each checks the request, then hands the search
  // to the session's search thread; its reply comes when it ends.
  json genmove(const json& req);
  json analyze(const json& req);
  void checkDecisionVisible(const json& req, bool played) const;
  // A search handed to the search thread.
  struct SearchJob {
    json id;           // the request's "id", echoed in every reply
    std::string cmd;   // "genmove" or "analyze"
    std::string spec;  // the agent as asked (within the session's limits)
    agents::Agent* agent = nullptr;
    std::unique_ptr<agents::Agent> fresh;  // the agent made for this request (a "seed" given)
    env::GameState position;               // the game (agents decide from what their side may know)
    env::GameState shown;  // the position as the session's side may see it, for the reply
    size_t top = 10;
    bool play = false;        // genmove: apply the move
    bool searches = false;    // the agent searches (it has a budget and stops on "stop")
    double period_ms = 0;     // analyze: time between two reports
    double total_ms = 0;      // analyze: the whole search
    bool until_stop = false;  // analyze without "ms": it runs until "stop" (or "quit")
    env::Action decided;      // genmove: the action chosen
    bool hidden = false;      // the bound side may not see this decision: reply without it
  };
  // Runs on the search thread without the lock: the search and its updates; returns the reply.
  json runSearch(SearchJob& job);
  // The spec a genmove reply and the game record show for `job`'s agent: its own where files
  // may be read, the spec asked for on a server.
  std::string shownSpec(const SearchJob& job) const;
  // Under the lock, once the search has ended: plays the move when asked, and replies.
  void finishSearch(SearchJob& job, json reply);
  // Hands `job` to the search thread (started on first use).
  void startSearch(std::unique_ptr<SearchJob> job);

  // Handles one request now (the lock held): replies, or starts a search.
  void process(const std::string& line);
  // Handles the requests that waited for a search, until one starts another.
  void processWaiting();
  // Sends one reply line to the sink (or keeps it for handle()).
  void reply(const std::string& line);

  PlayedGame game_;
  // The agents genmove and analyze keep, one per spec.
  KeptAgents agents_;

  // Requests and the search thread. `mutex_` guards everything above while a request is
  // handled; the search itself runs without it, on its own copy of the position.
  ReplySink sink_;
  SessionLimits limits_;
  std::vector<std::string> kept_replies_;  // without a sink: replies for handle()
  mutable std::mutex mutex_;
  std::condition_variable idle_;  // drain(): the search ended and nothing waits
  bool searching_ = false;        // a search runs (or is about to)
  // A request that arrived during a search, or a reply made for it by the transport.
  struct Waiting {
    std::string text;
    bool is_reply = false;
  };
  std::deque<Waiting> waiting_;
  size_t waiting_bytes_ = 0;        // the texts in waiting_
  bool deferred_ = false;           // the request being handled started a search
  json request_id_;                 // its "id", for the search's reply
  std::atomic<bool> stop_{false};   // ends the search in progress (stop, quit)
  bool quit_ = false;               // "quit" handled or waiting
  bool search_until_stop_ = false;  // the search in progress ends only on stop or quit
  SearchThread search_thread_{mutex_};
};

}  // namespace morne::engine

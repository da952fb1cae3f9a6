#include "training/selfplay.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "agents/agent_spec.h"
#include "agents/game_runner.h"
#include "agents/observation.h"
#include "agents/policy_layout.h"
#include "env/error.h"
#include "env/rules.h"
#include "env/zobrist.h"
#include "training/shard_writer.h"

namespace morne::training {

namespace {

using Clock = std::chrono::steady_clock;

// Finished games on their way to the writer thread; producers wait while it is full.
class GameQueue {
 public:
  explicit GameQueue(size_t capacity) : capacity_(capacity) {}

  void push(GameData g) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return queue_.size() < capacity_; });
    queue_.push_back(std::move(g));
    not_empty_.notify_one();
  }

  // Waits for a game; false once the queue is closed and empty.
  bool pop(GameData& g) {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return !queue_.empty() || closed_; });
    if (queue_.empty()) return false;
    g = std::move(queue_.front());
    queue_.pop_front();
    not_full_.notify_one();
    return true;
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_empty_.notify_all();
  }

 private:
  size_t capacity_;
  std::deque<GameData> queue_;
  bool closed_ = false;
  std::mutex mutex_;
  std::condition_variable not_full_, not_empty_;
};

// Plays one game and records its searched positions; returns false if `stop` cut it short.
bool playRecordedGame(const SelfPlayConfig& c, int index, GameData& out, int64_t& decisions,
                      const std::atomic<bool>* stop) {
  const env::Scenario& sc = *c.scenario;
  const uint64_t seed = env::zobrist::mix(c.seed * 1000003 + static_cast<uint64_t>(index));
  std::unique_ptr<agents::Agent> full[2], cheap[2];
  for (int side = 0; side < env::kNumSides; ++side) {
    full[side] = agents::makeAgent(c.agent, agents::agentSeed(seed, side));
    if (c.cheap_sims > 0) cheap[side] = agents::makeAgent(withSimulations(c.agent, c.cheap_sims), agents::agentSeed(seed, side) + 1);
  }
  const agents::ObservationEncoder encoder(sc);
  const agents::PolicyLayout layout(sc);
  const agents::ObservationShape shape = encoder.shape();
  env::Rng dice(seed);
  env::Rng choice(seed ^ 0x5E1F'91A7ull);
  env::GameState s = env::newGame(sc);
  out.id = static_cast<uint64_t>(index);
  out.seed = seed;
  std::vector<float> planes(static_cast<size_t>(shape.planeSize())), globals(static_cast<size_t>(shape.globals));
  std::vector<uint8_t> mask(static_cast<size_t>(layout.size()));
  int move = 0;
  while (!s.isTerminal()) {
    if (stop && stop->load()) return false;
    ++out.plies;
    if (s.isChanceNode()) {
      env::applyChance(s, env::sampleChance(s, dice));
      continue;
    }
    const bool searched_fully = c.cheap_sims == 0 || choice.uniform() < c.full_search_probability;
    agents::Agent& agent = searched_fully ? *full[s.side] : *cheap[s.side];
    const agents::Decision d = agent.decide(s);
    ++decisions;
    ++out.decisions;
    int total_visits = 0;
    for (const agents::ActionStat& a : d.info.children) total_visits += a.visits;
    if (searched_fully) {
      encoder.encode(s, planes, globals);
      layout.legalMask(s, mask);
      out.planes.insert(out.planes.end(), planes.begin(), planes.end());
      out.globals.insert(out.globals.end(), globals.begin(), globals.end());
      out.legal.insert(out.legal.end(), mask.begin(), mask.end());
      const size_t base = out.policy.size();
      out.policy.resize(base + static_cast<size_t>(layout.size()), 0.0f);
      if (total_visits > 0) {
        for (const agents::ActionStat& a : d.info.children) {
          out.policy[base + static_cast<size_t>(layout.index(a.action))] = static_cast<float>(a.visits) / static_cast<float>(total_visits);
        }
      } else {
        out.policy[base + static_cast<size_t>(layout.index(d.action))] = 1.0f;
      }
      out.move.push_back(move);
      out.phase.push_back(static_cast<uint8_t>(s.phase));
      out.side.push_back(s.side);
      ++out.rows;
    }
    env::Action action = d.action;
    if (move < c.temperature_moves && total_visits > 0) {  // explore: in proportion to visits
      int pick = static_cast<int>(choice.below(static_cast<uint32_t>(total_visits)));
      for (const agents::ActionStat& a : d.info.children) {
        if ((pick -= a.visits) < 0) {
          action = a.action;
          break;
        }
      }
    }
    env::applyAction(s, action);
    ++move;
  }
  const env::GameResult r = env::gameResult(s);
  out.winner = static_cast<int8_t>(r.winner);
  out.vp_blue = static_cast<int16_t>(r.vp[0]);
  out.vp_orange = static_cast<int16_t>(r.vp[1]);
  out.level = static_cast<int8_t>(r.level);
  for (uint8_t side : out.side) out.value.push_back(r.winner == env::kNoSide ? 0.0f : r.winner == side ? 1.0f : -1.0f);
  return true;
}

}  // namespace

std::string withSimulations(const std::string& spec, int sims) {
  agents::AgentSpec parsed = agents::parseAgentSpec(spec);
  parsed.params.erase("ms");
  parsed.params["sims"] = std::to_string(sims);
  std::string out = parsed.name;
  char sep = ':';
  for (const auto& [key, value] : parsed.params) {
    out += sep + key + "=" + value;
    sep = ',';
  }
  return out;
}

SelfPlayResult runSelfPlay(const SelfPlayConfig& c, const std::function<void(const SelfPlayProgress&)>& progress,
                           const std::atomic<bool>* stop) {
  agents::makeAgent(c.agent, 0);  // a bad spec fails here, before any file is created
  if (c.cheap_sims > 0) agents::makeAgent(withSimulations(c.agent, c.cheap_sims), 0);
  const agents::ObservationEncoder encoder(*c.scenario);
  const agents::ObservationShape shape = encoder.shape();
  ShardInfo info;
  info.scenario = c.scenario->name();
  info.blue_agent = info.orange_agent = c.agent;
  info.config = c.config_json;
  info.engine = c.engine;
  info.encoder_version = agents::kEncoderVersion;
  info.shape = {shape.planes, shape.height, shape.width, shape.globals, agents::PolicyLayout(*c.scenario).size()};
  ShardWriter writer(c.out_dir, c.prefix, info, c.rows_per_shard);

  SelfPlayResult result;
  result.progress.games_total = c.games;
  const auto t0 = Clock::now();
  GameQueue queue(static_cast<size_t>(std::max(1, c.queue_games)));
  std::mutex report;
  std::exception_ptr writer_error;
  std::thread writer_thread([&] {
    GameData g;
    while (queue.pop(g)) {
      try {
        if (!writer_error) writer.write(g);
      } catch (...) {
        writer_error = std::current_exception();
      }
    }
  });

  std::exception_ptr game_error;
  tbb::task_arena arena(std::max(1, c.jobs));
  arena.execute([&] {
    tbb::parallel_for(0, c.games, 1, [&](int i) {
      if ((stop && stop->load()) || game_error) return;
      GameData g;
      int64_t decisions = 0;
      bool finished = false;
      try {
        finished = playRecordedGame(c, i, g, decisions, stop);
      } catch (...) {
        std::lock_guard lock(report);
        if (!game_error) game_error = std::current_exception();
        return;
      }
      {
        std::lock_guard lock(report);
        result.progress.decisions += decisions;
        if (!finished) return;
        result.progress.positions += g.rows;
        ++result.progress.games_done;
        result.progress.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        if (progress) progress(result.progress);
      }
      queue.push(std::move(g));
    });
  });
  queue.close();
  writer_thread.join();
  writer.close();
  if (game_error) std::rethrow_exception(game_error);
  if (writer_error) std::rethrow_exception(writer_error);
  result.interrupted = stop && stop->load();
  result.shards = writer.shards();
  result.progress.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return result;
}

}  // namespace morne::training

#include "training/selfplay.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "agents/agent_kinds.h"
#include "env/error.h"
#include "mcts/eval_cache.h"
#include "mcts/workers.h"
#include "nn/observation.h"
#include "training/position_archive.h"
#include "training/selfplay_game.h"
#include "training/shard_writer.h"

namespace morne::training {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The network batch of a worker's evaluator (nn::makeNetworkEvaluator's `fixed_batch`; 0: the
// batch as given).
int fixedNetworkBatch(const SelfPlayConfig& c) {
  if (!c.batch_invariant) return 0;
  return c.network_batch > 0 ? c.network_batch : c.games_per_thread;
}

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

// What the workers share: the run, its counters (under `mutex`) and the writer's queue.
struct Run {
  const SelfPlayConfig& c;
  const std::optional<agents::BatchedSearch>& batched;
  const RowEncoder& rows;
  const std::function<void(const SelfPlayProgress&)>& progress;
  const std::atomic<bool>* stop;
  GameQueue& queue;
  Clock::time_point t0;
  std::mutex mutex;
  SelfPlayProgress totals;
  std::exception_ptr error;         // the first failure of a worker or the writer, under `mutex`
  std::atomic<bool> failed{false};  // set with `error`
  // The archived position of each finished game that has one, by game number, under `mutex`.
  std::vector<std::pair<int64_t, env::GameState>> archived;
  // For progress reports while games are under way.
  std::atomic<int64_t> live_batches{0}, live_evaluated{0}, live_positions{0};

  bool stopping() const { return (stop && stop->load()) || failed.load(); }

  // Records the current exception as the run's failure (the first one wins) and stops it.
  void fail() {
    std::lock_guard lock(mutex);
    if (!error) error = std::current_exception();
    failed = true;
  }

  // Counts a finished game and hands it to the writer.
  void finished(SelfPlayGame& game) {
    GameData& g = game.data();
    {
      std::lock_guard lock(mutex);
      totals.decisions += g.decisions;
      totals.positions += g.rows;
      totals.resigned += g.end == kEndResigned;
      totals.adjudicated += g.end == kEndAdjudicated;
      totals.resign_checks += game.wouldHaveResigned();
      totals.false_resignations += game.falseResignation();
      totals.archive_starts += game.fromArchive();
      if (game.archived()) archived.emplace_back(static_cast<int64_t>(g.id), *game.archived());
      ++totals.games_done;
      totals.seconds = since(t0);
      totals.positions_played = live_positions.load();
      totals.batches = live_batches.load();
      totals.evaluated = live_evaluated.load();
      if (progress) progress(totals);
    }
    queue.push(std::move(g));
  }

  // Worker t: its games in lock-step, their leaves evaluated a batch at a time.
  void work(int t) {
    std::unique_ptr<mcts::CachedBatchEvaluator> evaluator;
    if (batched) {
      evaluator = std::make_unique<mcts::CachedBatchEvaluator>(
          batched->make_evaluator(fixedNetworkBatch(c)), c.cache_entries);
    }
    const int jobs = std::max(1, c.jobs);
    const size_t slots = batched ? static_cast<size_t>(std::max(1, c.games_per_thread)) : 1;
    std::vector<std::unique_ptr<SelfPlayGame>> games(slots);
    std::vector<const mcts::LeafRequest*> leaves;
    std::vector<size_t> owners;
    std::vector<double> values;
    double network_seconds = 0;
    int next = t;
    for (;;) {
      leaves.clear();
      owners.clear();
      for (size_t k = 0; k < slots && !stopping(); ++k) {
        for (;;) {
          if (!games[k]) {
            if (next >= c.games) break;
            games[k] = std::make_unique<SelfPlayGame>(c, batched ? &*batched : nullptr, next, rows);
            next += jobs;
          }
          const int rows_before = games[k]->data().rows;
          const mcts::LeafRequest* leaf = games[k]->advance(stop);
          live_positions += games[k]->data().rows - rows_before;
          if (leaf) {
            leaves.push_back(leaf);
            owners.push_back(k);
            break;
          }
          if (games[k]->over()) finished(*games[k]);
          games[k].reset();
          if (stopping()) break;
        }
      }
      if (leaves.empty() || stopping()) break;
      values.assign(leaves.size(), 0.0);
      const auto e0 = Clock::now();
      const int64_t batches_before = evaluator->batches(),
                    evaluated_before = evaluator->evaluated();
      evaluator->evaluate(leaves, values);
      network_seconds += since(e0);
      live_batches += evaluator->batches() - batches_before;
      live_evaluated += evaluator->evaluated() - evaluated_before;
      for (size_t i = 0; i < leaves.size(); ++i) games[owners[i]]->provide(values[i]);
    }
    if (evaluator) {
      std::lock_guard lock(mutex);
      totals.leaves += evaluator->requests();
      totals.cache_hits += evaluator->hits();
      totals.evaluator_seconds += network_seconds;
    }
  }
};

}  // namespace

SelfPlayResult runSelfPlay(const SelfPlayConfig& c,
                           const std::function<void(const SelfPlayProgress&)>& progress,
                           const std::atomic<bool>* stop) {
  // A bad spec, boost, handicap spread or value teacher fails here, before any file is created.
  boostedSide(c);
  handicapSpreadHalf(c);
  oneLeafAtATime(c.agent);
  if (!c.value_teacher.empty()) {
    try {
      agents::makeAgent(c.value_teacher, 0);
    } catch (const ConfigError& e) {
      throw ConfigError(std::string("selfplay: --value-teacher: ") + e.what());
    }
  }
  const std::optional<agents::BatchedSearch> batched =
      c.lockstep ? agents::makeBatchedSearch(c.agent) : std::nullopt;
  // An agent writes its own spec in canonical form (agents/spec_params.h), so prune=0 reads
  // the same however the user wrote it.
  const agents::AgentSpec canonical = agents::parseAgentSpec(agents::makeAgent(c.agent, 0)->spec());
  if (canonical.params.count("prune") && canonical.params.at("prune") == "0") {
    throw ConfigError(
        "selfplay: training data hold the agent actions (legal masks and policy "
        "targets without steps back); drop prune=0 from " +
        c.agent);
  }
  if (batched && (batched->search.milliseconds > 0 || batched->search.turn_milliseconds > 0)) {
    throw ConfigError(
        "selfplay: give the agent a budget in simulations (sims=N), not ms or "
        "turn_ms, for reproducible data");
  }
  if (batched && batched->search.threads > 1) {
    throw ConfigError("selfplay: " + c.agent +
                      " searches one tree per game in self-play; drop threads= and "
                      "use --jobs for the cores");
  }
  if (!batched && c.cheap_sims > 0) agents::makeAgent(cheapSearchSpec(c.agent, c.cheap_sims), 0);
  const RowEncoder rows(*c.scenario);
  ShardInfo info;
  info.scenario = c.scenario->name();
  info.blue_agent = info.orange_agent = c.agent;
  info.config = c.config_json;
  info.engine = c.engine;
  info.encoder_version = nn::kEncoderVersion;
  info.shape = rows.shape();
  ShardWriter writer(c.out_dir, c.prefix, info, c.rows_per_shard);
  SelfPlayResult result;
  result.recovered = recoverShards(c.out_dir);

  GameQueue queue(static_cast<size_t>(std::max(1, c.queue_games)));
  Run run{c, batched, rows, progress, stop, queue, Clock::now(), {}, {}, {}, {}, {}, {}, {}, {}};
  run.totals.games_total = c.games;
  // A write that fails (a full disk) stops the run; the games after it are not played.
  std::thread writer_thread([&] {
    GameData g;
    while (queue.pop(g)) {
      try {
        if (!run.failed) writer.write(g);
      } catch (...) {
        run.fail();
      }
    }
  });

  const int jobs = std::max(1, std::min(c.jobs, c.games));
  mcts::runOnWorkers(jobs, [&](int t) {
    try {
      run.work(t);
    } catch (...) {
      run.fail();
    }
  });
  queue.close();
  writer_thread.join();
  if (run.error) std::rethrow_exception(run.error);  // the open shard's games stay journalled
  writer.close();
  if (c.archive && !run.archived.empty()) {
    std::sort(run.archived.begin(), run.archived.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<env::GameState> positions;
    for (const auto& [id, state] : run.archived) positions.push_back(state);
    result.archive =
        c.out_dir + "/" + (c.prefix.empty() ? "selfplay" : c.prefix) + kPositionsSuffix;
    writePositionArchive(result.archive, positions);
  }
  result.progress = run.totals;
  result.progress.positions_played = run.live_positions.load();
  result.progress.batches = run.live_batches.load();
  result.progress.evaluated = run.live_evaluated.load();
  result.interrupted = stop && stop->load();
  result.shards = writer.shards();
  result.progress.seconds = since(run.t0);
  return result;
}

}  // namespace morne::training

#include "loop/selfplay_worker.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "agents/agent_spec.h"
#include "core/number_text.h"
#include "core/progress.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/rng.h"
#include "loop/worker_totals.h"
#include "training/position_archive.h"
#include "training/selfplay.h"
#include "training/shard_writer.h"

namespace morne::loop {

namespace {

using nlohmann::json;

// FNV-1a of a worker's name: its own seed stream.
uint64_t nameKey(const std::string& name) {
  uint64_t h = 1469598103934665603ull;
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

// Checked games a worker needs before it may suspend resignation, and the count past which its
// counts halve (about the last 200 checked games weigh).
constexpr double kResignMinimumChecks = 10;
constexpr double kResignMemory = 200;
// Archive starts come from the position archives of this many data sets before the one played.
constexpr int kArchiveDataSets = 4;

void checkName(const std::string& name) {
  const bool ok = !name.empty() && name.size() <= 64 &&
                  name.find_first_not_of(
                      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      "0123456789._-") == std::string::npos &&
                  name[0] != '.' && name[0] != '-';
  if (!ok) {
    throw ConfigError("worker name '" + name +
                      "': 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'");
  }
}

}  // namespace

SelfplayWorker::SelfplayWorker(const RoleContext& run, std::string name, int jobs)
    : run_(run), name_(std::move(name)), jobs_(jobs) {
  checkName(name_);
  lock_ = lockRole(run_.folder.path("workers/" + name_ + ".lock"), "a worker named " + name_);
  const std::string totals_path = run_.folder.path("workers/" + name_ + ".json");
  WorkerTotals totals;
  try {
    totals = readWorkerTotals(totals_path).value_or(WorkerTotals{});
  } catch (const ConfigError& e) {
    // Only counts: kept aside, and the chunk number found again from the worker's file names,
    // so that no name or seed is used twice.
    const std::string aside = totals_path + ".damaged";
    env::renameDurably(totals_path, aside);
    totals = WorkerTotals{};
    totals.chunks = nextChunkOf(run_.folder, name_);
    run_.say("worker " + name_ + ": " + e.what() + "; kept as " + aside + "; chunks go on from " +
             std::to_string(totals.chunks) + ", its totals restart from 0");
  }
  games_ = totals.games;
  positions_ = totals.positions;
  positions_played_ = totals.positions_played;
  chunks_ = totals.chunks;
  cpu_seconds_ = totals.cpu_seconds;
  resign_checks_ = totals.resign_checks;
  false_resignations_ = totals.false_resignations;
}

SelfplayWorker::~SelfplayWorker() = default;

int64_t nextChunkOf(const RunFolder& folder, const std::string& name) {
  int64_t next = 0;
  const std::string mine = name + "-";
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(folder.path("selfplay"), ec)) {
    const std::string file = e.path().filename().string();
    if (!file.starts_with(mine)) continue;
    const int64_t chunk = std::strtoll(file.c_str() + mine.size(), nullptr, 10);
    next = std::max(next, chunk + 1);
  }
  return next;
}

void SelfplayWorker::continueFrom(int64_t next) {
  if (next <= chunks_) return;
  chunks_ = next;
  saveTotals();
}

void SelfplayWorker::saveTotals() const {
  writeWorkerTotals(run_.folder.path("workers/" + name_ + ".json"),
                    {name_, games_, positions_, positions_played_, cpu_seconds_, chunks_,
                     resign_checks_, false_resignations_, playing_.data_set, playing_.network});
}

bool SelfplayWorker::resignationSuspended(const std::string& set) {
  const double bound = run_.config.loop.resign_bound;
  const bool over =
      resign_checks_ >= kResignMinimumChecks && false_resignations_ > bound * resign_checks_;
  if (over != resign_suspended_) {
    run_.say(set + ": resignation " + (over ? "suspended" : "resumed") + ": " +
             core::fixedText(false_resignations_, 1) + " of " + core::fixedText(resign_checks_, 1) +
             " recent checked games would have resigned " + "wrongly (resign-bound " +
             core::shortText(bound) + ")" +
             (over ? "; every game plays on, measured, until the share is back under it" : ""));
  }
  resign_suspended_ = over;
  return over;
}

std::shared_ptr<const std::vector<env::GameState>> SelfplayWorker::startsFor(
    int data_set, const std::string& set) {
  if (data_set == starts_set_) return starts_;
  std::vector<std::string> dirs;
  for (int d = std::max(0, data_set - kArchiveDataSets); d < data_set; ++d)
    dirs.push_back(run_.folder.dataSet(d));
  training::ArchivedPositions read =
      training::readPositionArchives(*run_.scenario, dirs, training::kMostStarts);
  for (const std::string& problem : read.problems) run_.say(set + ": skipped " + problem);
  run_.say(set + ": " + std::to_string(read.positions.size()) + " archived positions of " +
           std::to_string(dirs.size()) + " data set(s) start " +
           core::shortText(100 * run_.config.selfplay.start_share) + "% of the games");
  starts_set_ = data_set;
  starts_ = read.positions.empty()
                ? nullptr
                : std::make_shared<const std::vector<env::GameState>>(std::move(read.positions));
  return starts_;
}

int SelfplayWorker::playChunk(int games) {
  const LatestNetwork latest = run_.folder.readLatest();
  const std::string set = "[" + generationName(latest.data_set) + "] selfplay " + name_;
  // A published network file never changes: it is read and checked once, not before each chunk.
  if (!(latest == verified_) && !(problem_ = run_.folder.networkProblem(latest)).empty()) {
    if (!(announced_ && latest == playing_))
      run_.say(set + ": " + latest.network + " is not complete in the folder yet (" + problem_ +
               "); waiting");
    playing_ = latest;
    announced_ = true;
    return 0;
  }
  verified_ = latest;
  announced_ = false;
  const bool network = !latest.network.empty();
  const LoopConfig& c = run_.config;
  const std::string agent = network
                                ? agents::withModel(c.loop.agent, run_.folder.path(latest.network))
                                : c.loop.bootstrap;
  const int64_t chunk = chunks_++;  // counted before it is played: never played twice
  saveTotals();
  training::SelfPlayConfig sp = c.selfplay;
  sp.scenario = run_.scenario;
  sp.agent = agent;
  sp.games = games;
  sp.jobs = jobs_;
  // A chunk smaller than its threads' lock-step slots: fewer games per thread, rather than
  // network batches padded to empty slots.
  sp.games_per_thread = std::min(sp.games_per_thread, (games + jobs_ - 1) / jobs_);
  sp.seed = env::deriveSeed(c.train.seed, kSelfplayStream, latest.data_set, nameKey(name_), chunk);
  sp.out_dir = run_.folder.dataSet(latest.data_set);
  sp.prefix = name_ + "-" + std::to_string(chunk);
  if (!network) {  // the bootstrap agent plays every decision fully and never resigns
    sp.cheap_sims = 0;
    sp.resign_value = 0;
  } else if (sp.resign_value > 0 && resignationSuspended(set)) {
    sp.resign_check_fraction = 1;  // every game plays on, and is measured
  }
  if (sp.start_share > 0) {  // every data set archives; the network's games start from them
    sp.archive = true;
    if (network) sp.starts = startsFor(latest.data_set, set);
  }
  sp.config_json = json{
      {"loop", run_.folder.name()},
      {"generation", latest.data_set},
      {"worker", name_},
      {"agent", agent}}.dump();
  sp.engine = core::versionLine();
  run_.say(set + ": " + std::to_string(games) + " games of " + agent + " (chunk " +
           std::to_string(chunk) + ")");
  playing_ = latest;
  const double cpu0 = processCpuSeconds();
  core::Progress progress(games, "games", !run_.quiet);
  const training::SelfPlayResult r = training::runSelfPlay(
      sp, [&](const training::SelfPlayProgress& p) { progress.update(p.games_done); }, run_.stop);
  for (const training::RecoveredShard& recovered : r.recovered)  // a killed chunk's journals
    run_.say("worker " + name_ + ": " + training::recoveryText(recovered));
  const training::SelfPlayProgress& p = r.progress;
  games_ += p.games_done;
  positions_ += p.positions;
  positions_played_ += p.positions_played;
  cpu_seconds_ += processCpuSeconds() - cpu0;
  resign_checks_ += p.resign_checks;
  false_resignations_ += p.false_resignations;
  if (resign_checks_ > kResignMemory) {
    resign_checks_ /= 2;
    false_resignations_ /= 2;
  }
  saveTotals();
  run_.say(set + ": " + std::to_string(p.games_done) + " games, " + std::to_string(p.positions) +
           " positions in " + core::fixedText(p.seconds, 1) + " s (" +
           core::fixedText(static_cast<double>(p.positions) / std::max(p.seconds, 1e-9), 1) +
           " positions/s)" +
           (p.resigned || p.resign_checks ? ", " + std::to_string(p.resigned) + " resigned, " +
                                                std::to_string(p.false_resignations) + " of " +
                                                std::to_string(p.resign_checks) + " checked wrongly"
                                          : "") +
           (p.archive_starts > 0
                ? ", " + std::to_string(p.archive_starts) + " started from archived positions"
                : ""));
  return p.games_done;
}

bool SelfplayWorker::fill(int g, int target) {
  for (;;) {
    if (run_.stopping()) return false;
    const int have = run_.folder.gamesIn(g);
    if (have >= target) return true;
    if (const int named = run_.folder.readLatest().data_set; named != g) {
      throw ConfigError("the run's latest.json names data set " + std::to_string(named) + ", not " +
                        generationName(g) + " (is a gate of this run running elsewhere?)");
    }
    if (playChunk(target - have) > 0 || run_.stopping()) continue;
    // This process published latest.json itself: a network that does not match it now was
    // changed or damaged afterwards, and waiting cannot mend it.
    if (!problem_.empty()) {
      throw ConfigError("the run's best network is not the one its gate published (" + problem_ +
                        "); waiting cannot mend it: restore the file from a copy, or start a new "
                        "run");
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

int64_t runSelfplayWorker(const RoleContext& run, const std::string& name, int jobs,
                          int64_t max_games) {
  SelfplayWorker worker(run, name, jobs);
  const int chunk = run.config.loop.chunk_games;
  int64_t played = 0;
  run.say("worker " + name + ": started (" + std::to_string(jobs) + " threads, chunks of " +
          std::to_string(chunk) + " games)");
  while (!run.stopping() && (max_games == 0 || played < max_games)) {
    if (run.folder.readLatest().data_set >= run.config.loop.generations) {
      run.say("worker " + name + ": the run's last generation is gated; done");
      break;
    }
    const int games =
        static_cast<int>(max_games == 0 ? chunk : std::min<int64_t>(chunk, max_games - played));
    const int done = worker.playChunk(games);
    played += done;
    if (done == 0 && !run.stopping()) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  run.say("worker " + name + ": " + std::to_string(played) + " games played");
  return played;
}

}  // namespace morne::loop

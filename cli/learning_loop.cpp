#include "cli/learning_loop.h"

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "agents/arena.h"
#include "cli/commands.h"
#include "cli/line_chart.h"
#include "cli/number_text.h"
#include "cli/progress.h"
#include "cli/training_curves.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/scenario_library.h"
#include "env/io/text_file.h"
#include "env/rng.h"
#include "training/selfplay.h"
#include "training/training_data.h"

namespace morne::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Seed streams of a run: each step of each generation draws from its own.
enum Stream : uint64_t {
  kSelfplayStream = 1,
  kTrainStream = 2,
  kGateStream = 3,
  kLadderStream = 4
};

std::string genName(int g) {
  char name[16];
  std::snprintf(name, sizeof name, "gen-%03d", g);
  return name;
}

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// `spec` (an "az" spec) with its network: "az:sims=32" -> "az:sims=32,model=PATH".
std::string withModel(const std::string& spec, const std::string& path) {
  return spec + (spec.find(':') == std::string::npos ? ":" : ",") + "model=" + path;
}

void copyDurably(const std::string& from, const std::string& to) {
  env::writeFileDurably(to, env::readTextFile(from, "network file", size_t{1} << 32));
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The record of a run's progress, RUN/state.json: the generation being worked on, the steps
// of it already done, the best network, the reuse budget, the CPU time, and one entry per
// generation with its training, gate and ladder results.
struct LoopState {
  int generation = 1;
  std::vector<std::string> done;  // steps of `generation` done: data, train, next-data, gate,
                                  // ladder
  std::string best;               // nets/gen-NNN.pt, relative to the run folder
  int best_generation = -1;
  int laddered_generation = -1;  // the best network's generation at the last ladder
  double reuse_budget = 0;       // training rows the reuse cap still allows
  int64_t train_target = -1;     // of `generation`'s training, once planned
  bool train_started = false;
  int64_t trained_steps = 0;  // the learner's steps after the last finished training
  double cpu_seconds = 0;
  double wall_seconds = 0;
  json history = json::array();  // per generation

  bool isDone(const std::string& step) const {
    return std::find(done.begin(), done.end(), step) != done.end();
  }

  json toJson() const {
    return {{"format", "morne-loop-state/1"},
            {"generation", generation},
            {"done", done},
            {"best", best},
            {"best_generation", best_generation},
            {"laddered_generation", laddered_generation},
            {"reuse_budget", reuse_budget},
            {"train_target", train_target},
            {"train_started", train_started},
            {"trained_steps", trained_steps},
            {"cpu_seconds", cpu_seconds},
            {"wall_seconds", wall_seconds},
            {"history", history}};
  }

  static LoopState fromJson(const json& j, const std::string& where) {
    if (!j.is_object() || j.value("format", "") != "morne-loop-state/1")
      throw ConfigError(where + ": not the state of a learning loop");
    try {
      LoopState s;
      s.generation = j.at("generation").get<int>();
      s.done = j.at("done").get<std::vector<std::string>>();
      s.best = j.at("best").get<std::string>();
      s.best_generation = j.at("best_generation").get<int>();
      // (Absent from the states of earlier versions: their best network is rated again.)
      s.laddered_generation = j.value("laddered_generation", -1);
      s.reuse_budget = j.at("reuse_budget").get<double>();
      s.train_target = j.at("train_target").get<int64_t>();
      s.train_started = j.at("train_started").get<bool>();
      s.trained_steps = j.at("trained_steps").get<int64_t>();
      s.cpu_seconds = j.at("cpu_seconds").get<double>();
      s.wall_seconds = j.at("wall_seconds").get<double>();
      s.history = j.at("history");
      return s;
    } catch (const json::exception& e) {
      throw ConfigError(where + ": damaged (" + std::string(e.what()) + ")");
    }
  }

  json& entry(int g) {
    while (static_cast<int>(history.size()) <= g)
      history.push_back({{"generation", static_cast<int>(history.size())}});
    return history[static_cast<size_t>(g)];
  }
};

class Loop {
 public:
  Loop(const LoopConfig& config, std::string dir, bool quiet, const std::atomic<bool>* stop)
      : c_(config),
        dir_(std::move(dir)),
        quiet_(quiet),
        stop_(stop),
        log_(dir_ + "/log.txt", false),
        scenario_(env::loadScenario(c_.loop.scenario)) {
    const std::string state_path = dir_ + "/state.json";
    if (fs::exists(state_path)) {
      state_ = LoopState::fromJson(
          json::parse(env::readTextFile(state_path, "loop state"), nullptr, false), state_path);
    }
    for (const char* sub : {"selfplay", "train", "nets", "gates", "ladder"})
      fs::create_directories(dir_ + "/" + sub);
  }

  bool run() {
    say("loop: " + c_.loop.mode + ", generations " + std::to_string(state_.generation) + ".." +
        std::to_string(c_.loop.generations) + (state_.done.empty() ? "" : " (resumed)"));
    while (state_.generation <= c_.loop.generations) {
      const int g = state_.generation;
      // The data of generation g - 1 (complete unless this run was cut short or extended).
      if (!step("data", [&] { return playData(g - 1); })) return false;
      if (c_.loop.mode == "concurrent") {
        if (!concurrentWork(g)) return false;
      } else if (!step("train", [&] { return train(g); })) {
        return false;
      }
      if (!step("gate", [&] { return gate(g); })) return false;
      const bool scheduled =
          g == c_.loop.generations || (c_.loop.ladder_every > 0 && g % c_.loop.ladder_every == 0);
      const bool unrated = state_.best_generation > state_.laddered_generation;
      if (scheduled && unrated && !step("ladder", [&] { return ladder(g); })) return false;
      nextGeneration();
    }
    say("loop: done; best network " + state_.best);
    return true;
  }

 private:
  bool stopping() const { return stop_ && stop_->load(); }

  void say(const std::string& line) {
    const std::lock_guard lock(mutex_);
    std::cout << line << "\n" << std::flush;
    log_.append(line + "\n");
  }

  void saveState() {
    const std::lock_guard lock(mutex_);
    const double now = cpuSeconds();
    state_.cpu_seconds += now - cpu_mark_;
    cpu_mark_ = now;
    const auto wall = std::chrono::steady_clock::now();
    state_.wall_seconds += std::chrono::duration<double>(wall - wall_mark_).count();
    wall_mark_ = wall;
    env::writeFileDurably(dir_ + "/state.json", state_.toJson().dump(1) + "\n");
    writeSummary();
  }

  void markDone(const std::string& step) {
    const std::lock_guard lock(mutex_);
    state_.done.push_back(step);
    saveState();
  }

  // Runs `work` unless `name` is done in this generation; marks it done when it finishes.
  template <class Work>
  bool step(const std::string& name, Work work) {
    {
      const std::lock_guard lock(mutex_);
      if (state_.isDone(name)) return true;
    }
    if (!work()) return false;
    markDone(name);
    return true;
  }

  void nextGeneration() {
    ++state_.generation;
    state_.done.clear();
    state_.train_target = -1;
    state_.train_started = false;
    saveState();
  }

  std::string path(const std::string& relative) const { return dir_ + "/" + relative; }
  std::string selfplayDir(int g) const { return path("selfplay/" + genName(g)); }

  // Games already in the complete shards of a self-play folder (after recovering journals).
  static int gamesIn(const std::string& dir) {
    if (!fs::exists(dir)) return 0;
    training::recoverShards(dir);
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".h5")
        return static_cast<int>(training::indexShards({dir}, 0).games);
    }
    return 0;
  }

  // Plays the missing games of data set g: the bootstrap agent's for g = 0, else the best
  // network's (as it stands when the set starts).
  bool playData(int g) {
    const bool network = g > 0 && !state_.best.empty();
    const std::string agent =
        network ? withModel(c_.loop.agent, path(state_.best)) : c_.loop.bootstrap;
    const int games = g == 0 ? c_.loop.bootstrap_games : c_.loop.games;
    const std::string dir = selfplayDir(g);
    const int have = gamesIn(dir);
    if (have < games) {
      training::SelfPlayConfig sp = c_.selfplay;
      sp.scenario = scenario_;
      sp.agent = agent;
      sp.games = games - have;
      sp.jobs = c_.loop.mode == "concurrent" ? 1 : c_.loop.jobs;
      sp.seed = env::deriveSeed(c_.train.seed, kSelfplayStream, g, have);
      sp.out_dir = dir;
      sp.prefix = genName(g) + "-" + std::to_string(have);
      if (!network) {  // the bootstrap agent plays every decision fully and never resigns
        sp.cheap_sims = 0;
        sp.resign_value = 0;
      }
      sp.config_json = json{{"loop", dir_}, {"generation", g}, {"agent", agent}}.dump();
      sp.engine = versionLine();
      say("[" + genName(g) + "] selfplay: " + std::to_string(sp.games) + " games of " + agent +
          (have ? " (" + std::to_string(have) + " already played)" : ""));
      Progress progress(sp.games, "games", !quiet_ && c_.loop.mode != "concurrent");
      const training::SelfPlayResult r = training::runSelfPlay(
          sp, [&](const training::SelfPlayProgress& p) { progress.update(p.games_done); }, stop_);
      const training::SelfPlayProgress& p = r.progress;
      say("[" + genName(g) + "] selfplay: " + std::to_string(p.games_done) + " games, " +
          std::to_string(p.positions) + " positions in " + fixedText(p.seconds, 1) + " s (" +
          fixedText(static_cast<double>(p.positions) / std::max(p.seconds, 1e-9), 1) +
          " positions/s)" +
          (p.resigned ? ", " + std::to_string(p.resigned) + " resigned, " +
                            std::to_string(p.false_resignations) + " of " +
                            std::to_string(p.resign_checks) + " checked wrongly"
                      : ""));
      if (r.interrupted || stopping()) return false;
    }
    const int played = gamesIn(dir);
    const std::lock_guard lock(mutex_);
    state_.entry(g)["selfplay_games"] = played;
    state_.entry(g)["selfplay_agent"] = agent;
    return true;
  }

  // Plans generation g's training (once): the reuse cap credits max_reuse times the new
  // training rows, and the steps spend it.
  void planTraining(int g) {
    const std::lock_guard lock(mutex_);
    if (state_.train_target >= 0) return;
    const training::TrainSettings& t = c_.train;
    const training::ShardIndex fresh =
        training::indexShards({selfplayDir(g - 1)}, t.validation_permille);
    int64_t steps = t.steps;
    if (t.max_reuse > 0) {
      state_.reuse_budget += t.max_reuse * static_cast<double>(fresh.rows - fresh.validation_rows);
      const auto allowed = static_cast<int64_t>(state_.reuse_budget / t.batch);
      steps = t.steps > 0 ? std::min<int64_t>(t.steps, allowed) : allowed;
      state_.reuse_budget -= static_cast<double>(steps * t.batch);
    }
    state_.train_target = state_.trained_steps + steps;
    saveState();
  }

  bool train(int g) {
    planTraining(g);
    training::TrainSettings t = c_.train;
    for (int k = 0; k < g; ++k) t.data_dirs.push_back(selfplayDir(k));
    t.seed = env::deriveSeed(c_.train.seed, kTrainStream, g);
    t.steps = static_cast<int>(state_.train_target);
    t.max_reuse = 0;
    const std::string train_dir = path("train");
    const bool has_checkpoint = fs::exists(train_dir + "/checkpoint.pt");
    nn::configureTorchRuntime(c_.loop.mode == "concurrent" ? 1 : c_.loop.threads);
    const std::unique_ptr<nn::Learner> learner =
        has_checkpoint ? nn::Learner::fromFile(train_dir + "/net.pt", t.learnerConfig())
                       : makeLearner(c_.network, scenario_->name(), t.learnerConfig());
    const training::TrainStart start = !has_checkpoint        ? training::TrainStart::kFresh
                                       : state_.train_started ? training::TrainStart::kResume
                                                              : training::TrainStart::kNewData;
    const json provenance = {{"trained_by", versionLine()}, {"loop", dir_}, {"generation", g}};
    training::TrainingRun run(*learner, t, train_dir, start, provenance.dump());
    {
      const std::lock_guard lock(mutex_);
      state_.train_started = true;
      saveState();
    }
    const training::TrainOutcome& plan = run.plan();
    say("[" + genName(g) + "] train: steps " + std::to_string(plan.step) + " to " +
        std::to_string(plan.target) + " on " + std::to_string(plan.shards) + " shard(s), window " +
        std::to_string(plan.window_rows) + " of " + std::to_string(plan.rows) + " rows");
    Progress progress(static_cast<int>(plan.target - plan.step), "steps",
                      !quiet_ && c_.loop.mode != "concurrent");
    const training::TrainOutcome out = run.run(
        [&](const training::TrainProgress& p) {
          if (p.metrics) writeTrainingCurves(train_dir);
          progress.update(static_cast<int>(p.step - plan.step),
                          fixedText(p.samples_per_second, 0) + " samples/s");
        },
        stop_);
    if (out.interrupted || stopping()) return false;
    writeTrainingCurves(train_dir);
    const std::lock_guard lock(mutex_);
    state_.trained_steps = out.step;
    json& e = state_.entry(g);
    e["train_step"] = out.step;
    if (out.last) {
      const nn::LossReport& v = out.last->validation ? *out.last->validation : out.last->train;
      e["policy_loss"] = v.policy_loss;
      e["policy_baseline"] = v.policy_baseline;
      e["value_loss"] = v.value_loss;
      e["value_baseline"] = v.value_baseline;
      say("[" + genName(g) + "] train: step " + std::to_string(out.step) + ", " +
          (out.last->validation ? "validation " : "training ") + lossReportText(v));
    }
    copyDurably(train_dir + "/net.pt", path("nets/candidate-" + genName(g) + ".pt"));
    return true;
  }

  // Generation g's training beside the self-play of data set g (with the best network
  // before g's gate), each on one thread.
  bool concurrentWork(int g) {
    bool train_ok = true;
    std::exception_ptr train_error;
    std::thread learner_thread([&] {
      try {
        train_ok = step("train", [&] { return train(g); });
      } catch (...) {
        train_error = std::current_exception();
      }
    });
    bool data_ok = false;
    try {
      data_ok = step("next-data", [&] { return playData(g); });
    } catch (...) {
      learner_thread.join();
      throw;
    }
    learner_thread.join();
    if (train_error) std::rethrow_exception(train_error);
    return train_ok && data_ok;
  }

  // Plays the unplayed `games` of `config`; false when stopped.
  bool playArena(const agents::ArenaConfig& config, std::vector<agents::ArenaGame>& games,
                 const std::string& what) {
    Progress progress(static_cast<int>(games.size()), what, !quiet_);
    agents::runArena(
        config, games, [&](const agents::ArenaGame&, int finished) { progress.update(finished); },
        stop_);
    return !stopping();
  }

  bool gate(int g) {
    const std::string candidate = "nets/candidate-" + genName(g) + ".pt";
    json& e = state_.entry(g);
    bool promoted = true;
    if (state_.best.empty()) {
      say("[" + genName(g) + "] gate: the first network is promoted without a gate");
    } else {
      agents::ArenaConfig arena;
      arena.agents = {withModel(c_.loop.gate_agent, path(state_.best)),
                      withModel(c_.loop.gate_agent, path(candidate))};
      arena.scenarios = {scenario_};
      arena.rounds = c_.loop.gate_rounds;
      arena.seed = env::deriveSeed(c_.train.seed, kGateStream, g);
      arena.jobs = c_.loop.jobs;
      std::vector<agents::ArenaGame> games = agents::scheduleArena(arena);
      if (!playArena(arena, games, "gate games")) return false;
      const agents::ArenaStats st = agents::arenaStats(agents::lineupOf(arena), games, -1);
      const agents::WinDrawLoss best = st.pairs.at(0).total();
      const GateDecision d = gateDecision({best.losses, best.draws, best.wins}, c_.loop.gate_score);
      promoted = d.promoted;
      e["gate"] = {{"against", state_.best},
                   {"wins", d.candidate.wins},
                   {"draws", d.candidate.draws},
                   {"losses", d.candidate.losses},
                   {"score", d.score},
                   {"duplicate_mean", -st.pairs.at(0).duplicate.mean},
                   {"duplicate_margin95", st.pairs.at(0).duplicate.margin95},
                   {"rule", "score >= " + shortText(c_.loop.gate_score)},
                   {"promoted", d.promoted}};
      env::writeFileDurably(path("gates/" + genName(g) + ".json"), e["gate"].dump(2) + "\n");
      say("[" + genName(g) + "] gate: candidate " + std::to_string(d.candidate.wins) + "-" +
          std::to_string(d.candidate.draws) + "-" + std::to_string(d.candidate.losses) +
          " against " + state_.best + ", score " + fixedText(d.score, 3) +
          (d.promoted ? ": promoted" : ": not promoted"));
    }
    e["promoted"] = promoted;
    if (promoted) {
      state_.best = "nets/" + genName(g) + ".pt";
      state_.best_generation = g;
      copyDurably(path(candidate), path(state_.best));
    }
    return true;
  }

  bool ladder(int g) {
    agents::ArenaConfig arena;
    arena.agents = words(c_.loop.ladder_references);
    const int net = static_cast<int>(arena.agents.size());
    arena.agents.push_back(withModel(c_.loop.ladder_agent, path(state_.best)));
    arena.scenarios = {scenario_};
    arena.rounds = c_.loop.ladder_rounds;
    arena.seed = env::deriveSeed(c_.train.seed, kLadderStream, g);
    arena.jobs = c_.loop.jobs;
    std::vector<agents::ArenaGame> games;
    for (const agents::ArenaGame& game : agents::scheduleArena(arena)) {
      if (game.blue == net || game.orange == net) games.push_back(game);
    }
    say("[" + genName(g) + "] ladder: " + state_.best + " against " + c_.loop.ladder_references);
    if (!playArena(arena, games, "ladder games")) return false;
    const agents::ArenaStats st = agents::arenaStats(agents::lineupOf(arena), games, -1);
    const auto n = static_cast<size_t>(net);
    json& e = state_.entry(g);
    e["elo"] = st.elo.rating[n];
    e["elo_low"] = std::isfinite(st.elo.low[n]) ? json(st.elo.low[n]) : json(nullptr);
    e["elo_high"] = std::isfinite(st.elo.high[n]) ? json(st.elo.high[n]) : json(nullptr);
    e["anchor"] = arena.agents.front();
    json scores = json::object();
    for (const agents::PairRecord& p : st.pairs) {
      const agents::WinDrawLoss t = p.total();
      scores[arena.agents[static_cast<size_t>(p.a)]] = 1.0 - t.score();
    }
    e["scores"] = scores;
    e["rated"] = state_.best;
    state_.laddered_generation = state_.best_generation;
    e["cpu_hours"] = (state_.cpu_seconds + cpuSeconds() - cpu_mark_) / 3600;
    env::writeFileDurably(path("ladder/" + genName(g) + ".json"), e.dump(2) + "\n");
    say("[" + genName(g) + "] ladder: Elo " + fixedText(st.elo.rating[n], 0) + " [" +
        fixedText(st.elo.low[n], 0) + ", " + fixedText(st.elo.high[n], 0) + "] against " +
        arena.agents.front() + " = 0");
    return true;
  }

  // summary.json and elo.svg from the state.
  void writeSummary() {
    const json summary = {{"run", dir_},
                          {"generation", state_.generation},
                          {"best", state_.best},
                          {"cpu_hours", state_.cpu_seconds / 3600},
                          {"wall_hours", state_.wall_seconds / 3600},
                          {"generations", state_.history}};
    env::writeFileDurably(dir_ + "/summary.json", summary.dump(2) + "\n");
    ChartSeries by_gen{"Elo of the best network", {}, "#1f77b4", false};
    ChartSeries low{"95% interval", {}, "#7f7f7f", true}, high{"", {}, "#7f7f7f", true};
    ChartSeries by_cpu{"Elo of the best network", {}, "#d62728", false};
    for (const json& e : state_.history) {
      if (!e.contains("elo")) continue;
      const double g = e["generation"].get<double>(), elo = e["elo"].get<double>();
      by_gen.points.emplace_back(g, elo);
      if (!e["elo_low"].is_null()) low.points.emplace_back(g, e["elo_low"].get<double>());
      if (!e["elo_high"].is_null()) high.points.emplace_back(g, e["elo_high"].get<double>());
      by_cpu.points.emplace_back(e.value("cpu_hours", 0.0), elo);
    }
    const std::string anchor = words(c_.loop.ladder_references).front();
    env::writeFileDurably(
        dir_ + "/elo.svg",
        lineChartSvg(
            {{"Elo against " + anchor + " = 0, by generation", "generation", {by_gen, low, high}},
             {"Elo against " + anchor + " = 0, by CPU-hour", "CPU-hours", {by_cpu}}}));
  }

  const LoopConfig& c_;
  std::string dir_;
  bool quiet_;
  const std::atomic<bool>* stop_;
  env::AppendOnlyFile log_;
  std::shared_ptr<const env::Scenario> scenario_;
  std::recursive_mutex mutex_;  // state_ and the log, shared by self-play and training threads
  LoopState state_;
  double cpu_mark_ = cpuSeconds();
  std::chrono::steady_clock::time_point wall_mark_ = std::chrono::steady_clock::now();
};

}  // namespace

std::string loopStatus(const std::string& run_dir) {
  const std::string where = run_dir + "/state.json";
  const LoopState s = LoopState::fromJson(
      json::parse(env::readTextFile(where, "loop state"), nullptr, false), where);
  const json config =
      json::parse(env::readTextFile(run_dir + "/loop.json", "loop record"), nullptr, false);
  const int generations = config.is_object() ? config["loop"].value("generations", 0) : 0;
  std::ostringstream out;
  out << "run:        " << run_dir << "\n"
      << "generation: ";
  if (s.generation > generations) {
    out << "finished, " << generations << " generations\n";
  } else {
    out << s.generation << " of " << generations << " (done: ";
    for (size_t i = 0; i < s.done.size(); ++i) out << (i ? ", " : "") << s.done[i];
    out << (s.done.empty() ? "nothing yet" : "") << ")\n";
  }
  out << "best:       " << (s.best.empty() ? "none yet" : s.best) << "\n"
      << "time:       " << fixedText(s.cpu_seconds / 3600, 2) << " CPU-hours, "
      << fixedText(s.wall_seconds / 3600, 2) << " hours of wall time\n"
      << "training:   " << s.trained_steps << " steps"
      << (s.train_target > s.trained_steps
              ? ", this generation to " + std::to_string(s.train_target)
              : "")
      << "\n\ngen  games  step    policy (uniform)  value (0)  gate             Elo [95%]\n";
  for (const json& e : s.history) {
    char line[160];
    auto number = [&](const char* key, int digits) {
      return e.contains(key) ? fixedText(e[key].get<double>(), digits) : std::string("-");
    };
    std::string gate = "-";
    if (e.contains("gate")) {
      gate = std::to_string(e["gate"]["wins"].get<int>()) + "-" +
             std::to_string(e["gate"]["draws"].get<int>()) + "-" +
             std::to_string(e["gate"]["losses"].get<int>()) +
             (e["gate"]["promoted"].get<bool>() ? " promoted" : " kept");
    } else if (e.value("promoted", false)) {
      gate = "first";
    }
    std::string elo = "-";
    if (e.contains("elo")) {
      elo = number("elo", 0) + " [" +
            (e["elo_low"].is_null() ? "-inf" : fixedText(e["elo_low"].get<double>(), 0)) + ", " +
            (e["elo_high"].is_null() ? "inf" : fixedText(e["elo_high"].get<double>(), 0)) + "]";
    }
    std::snprintf(
        line, sizeof line, "%3d  %5s  %6s  %6s (%6s)  %5s (%5s)  %-15s  %s\n",
        e["generation"].get<int>(),
        e.contains("selfplay_games") ? std::to_string(e["selfplay_games"].get<int>()).c_str() : "-",
        e.contains("train_step") ? std::to_string(e["train_step"].get<int64_t>()).c_str() : "-",
        number("policy_loss", 3).c_str(), number("policy_baseline", 3).c_str(),
        number("value_loss", 3).c_str(), number("value_baseline", 3).c_str(), gate.c_str(),
        elo.c_str());
    out << line;
  }
  return out.str();
}

bool runLearningLoop(const LoopConfig& config, const std::string& run_dir, bool quiet,
                     const std::atomic<bool>* stop) {
  return Loop(config, run_dir, quiet, stop).run();
}

}  // namespace morne::cli

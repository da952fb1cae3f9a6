#include "loop/gate_role.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "agents/agent_spec.h"
#include "agents/search_spread.h"
#include "arena/arena_run.h"
#include "core/number_text.h"
#include "core/progress.h"
#include "env/error.h"
#include "env/io/text_file.h"
#include "env/rng.h"
#include "loop/gate_rule.h"
#include "loop/generation_record.h"
#include "loop/run_summary.h"
#include "nn/network.h"

namespace morne::loop {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kGateStateFormat = "morne-gate/1";

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The progress bar of a gate's or ladder's games.
class GamesProgress : public arena::ArenaObserver {
 public:
  GamesProgress(const std::string& what, bool quiet) : what_(what), quiet_(quiet) {}
  void started(const arena::ArenaRun& run) override {
    progress_.emplace(static_cast<int>(run.games.size()), what_, !quiet_);
  }
  void finished(const arena::ArenaRun&, const arena::ArenaGame&, int finished) override {
    progress_->update(finished);
  }

 private:
  std::string what_;
  bool quiet_;
  std::optional<core::Progress> progress_;
};

// Plays the games of `file` (on the run's scenario) that `plays` selects (all when empty), the
// run's jobs at a time, without files; nothing when the run stops meanwhile. Throws IoError
// naming the first game whose agent failed.
std::optional<arena::ArenaRun> playRoleArena(const RoleContext& run,
                                             const arena::ArenaRunFile& file,
                                             std::function<bool(const arena::ArenaGame&)> plays,
                                             const std::string& what) {
  arena::ArenaRequest request;
  request.given.run = file;
  request.scenarios = {run.scenario};
  request.jobs = run.config.loop.jobs;
  request.plays = std::move(plays);
  request.what = what;
  GamesProgress progress(what, run.quiet);
  arena::ArenaRun played = arena::playArenaRun(request, progress, run.stop);
  if (!played.errors.empty()) throw IoError(what + ": " + played.errors.front());
  if (run.stopping()) return std::nullopt;
  return played;
}

}  // namespace

const env::OptionRow<GateRole::State> GateRole::kStateRows[6] = {
    {"generation", &State::generation, env::atLeast(1), "the next generation to gate"},
    {"best", &State::best, env::anyValue(), "the best network (nets/gen-NNN.pt)"},
    {"best_generation", &State::best_generation, env::atLeast(-1), "its generation"},
    {"laddered_generation", &State::laddered_generation, env::atLeast(-1),
     "the best network's generation at the last ladder"},
    {"ladder_due", &State::ladder_due, env::atLeast(-1), "the generation whose ladder is due"},
    {"cpu_seconds", &State::cpu_seconds, env::atLeast(0), "CPU time the gate has used"},
};

GateRole::GateRole(const RoleContext& run) : run_(run) {
  if (!run_.config.loop.init.empty()) {  // a warm start: its network is the first best one
    state_.best = kInitialNetwork;
    state_.best_generation = 0;
  }
  readRecord<State>(run_.folder.path("gates/state.json"), kGateStateFormat, "the state of a gate",
                    kStateRows, state_);
  // latest.json follows from the gate's state: one left behind (a gate killed between its
  // two writes), damaged, or naming the network with another size or CRC-32 is published
  // again, saying so.
  const LatestNetwork expected = fromState();
  try {
    const LatestNetwork latest = run_.folder.readLatest();
    if (latest == expected) return;
    if (latest.data_set == expected.data_set) {
      run_.say("gate: latest.json does not match gates/state.json and the best network (" +
               (latest.network != expected.network ? "network " + latest.network
                                                   : "its size or CRC-32") +
               "); published again");
    }
  } catch (const ConfigError& e) {
    run_.say("gate: " + std::string(e.what()) + "; published again from gates/state.json");
  }
  run_.folder.writeLatest(expected);
}

void GateRole::saveState() {
  writeRecord<State>(run_.folder.path("gates/state.json"), kGateStateFormat, kStateRows, state_);
}

// latest.json from the state: the data set of the last gated generation, the best network.
LatestNetwork GateRole::fromState() const {
  LatestNetwork latest;
  latest.data_set = state_.generation - 1;
  latest.network = state_.best;
  latest.network_generation = state_.best_generation;
  if (!state_.best.empty()) RunFolder::measureNetwork(run_.folder.path(state_.best), latest);
  return latest;
}

void GateRole::publish() const { run_.folder.writeLatest(fromState()); }

bool GateRole::candidateReady() const {
  return fs::exists(run_.folder.path("train/" + generationName(state_.generation) + ".json"));
}

bool GateRole::gateNext() {
  const int g = state_.generation;
  const double cpu0 = processCpuSeconds();
  const bool done = gate(g, cpu0);
  state_.cpu_seconds += processCpuSeconds() - cpu0;
  if (!done) return false;
  const LoopSettings& settings = run_.config.loop;
  const bool scheduled =
      g == settings.generations || (settings.ladder_every > 0 && g % settings.ladder_every == 0);
  state_.ladder_due = scheduled && state_.best_generation > state_.laddered_generation ? g : -1;
  ++state_.generation;
  saveState();  // then latest.json: a gate killed between the two writes publishes at start
  publish();
  writeRunSummary(run_.folder, run_.config);
  return ladderIfDue();
}

bool GateRole::ladderIfDue() {
  if (state_.ladder_due < 0) return true;
  const double cpu0 = processCpuSeconds();
  const bool done = ladder(state_.ladder_due, cpu0);
  state_.cpu_seconds += processCpuSeconds() - cpu0;
  if (!done) return false;
  state_.ladder_due = -1;
  saveState();
  writeRunSummary(run_.folder, run_.config);
  return true;
}

namespace {

// The points `agent` took in `game` (1 won, 0.5 drawn, 0 lost).
double pointsOf(const arena::ArenaGame& game, int agent) {
  const int side = game.blue == agent ? 0 : 1;
  return game.result.winner == env::kNoSide ? 0.5 : game.result.winner == side ? 1.0 : 0.0;
}

// The candidate's (agent 1's) results in the played `games`.
arena::WinDrawLoss candidateResults(const std::vector<arena::ArenaGame>& games) {
  arena::WinDrawLoss r;
  for (const arena::ArenaGame& g : games) {
    if (!g.played) continue;
    const double p = pointsOf(g, 1);
    r.wins += p == 1.0;
    r.draws += p == 0.5;
    r.losses += p == 0.0;
  }
  return r;
}

// Pairs the SPRT gate plays between two looks at its ratio: a fixed number, so that its
// decision does not depend on how many games run at once.
constexpr int kSprtPairsPerLook = 8;

// Plays the SPRT gate of `file` (the candidate agent 1) in order of its rounds,
// kSprtPairsPerLook pairs at a time, until the test of `sprt` decides or the rounds run out
// (then the candidate is promoted when the ratio leans to H1); the games played go to
// `games`, the run's lineup to `lineup`. Returns what the test saw and decided, or nullopt
// when stopped.
std::optional<SprtRecord> playSprtGate(const RoleContext& run, const arena::ArenaRunFile& file,
                                       const SprtConfig& sprt, std::vector<arena::ArenaGame>& games,
                                       arena::ArenaLineup& lineup) {
  std::vector<double> pairs;
  double llr = 0;
  SprtVerdict verdict = SprtVerdict::kContinue;
  for (int first = 0; first < file.rounds && verdict == SprtVerdict::kContinue;
       first += kSprtPairsPerLook) {
    const std::optional<arena::ArenaRun> look = playRoleArena(
        run, file,
        [first](const arena::ArenaGame& g) {
          return g.round >= first && g.round < first + kSprtPairsPerLook;
        },
        "gate games");
    if (!look) return std::nullopt;
    lineup = look->lineup;
    std::vector<double> points(kSprtPairsPerLook, 0.0);
    for (const arena::ArenaGame& g : look->games) {
      games.push_back(g);
      points[static_cast<size_t>(g.round - first)] += pointsOf(g, 1);
    }
    for (int r = first; r < first + kSprtPairsPerLook && r < file.rounds; ++r)
      pairs.push_back(points[static_cast<size_t>(r - first)] / 2);
    llr = sprtLlr(pairs, sprt);
    verdict = sprtVerdict(llr, sprt);
  }
  SprtRecord out{sprt.elo0,
                 sprt.elo1,
                 sprt.alpha,
                 sprt.beta,
                 static_cast<int>(pairs.size()),
                 llr,
                 {std::log(sprt.beta / (1 - sprt.alpha)), std::log((1 - sprt.beta) / sprt.alpha)},
                 verdict == SprtVerdict::kAcceptH1   ? "H1"
                 : verdict == SprtVerdict::kAcceptH0 ? "H0"
                                                     : "cap"};
  return out;
}

// Whether the SPRT of `r` promotes the candidate: H1 accepted, or the rounds ran out with the
// ratio leaning to H1.
bool sprtPromotes(const SprtRecord& r) {
  return r.verdict == "H1" || (r.verdict == "cap" && r.llr > 0);
}

}  // namespace

bool GateRole::gate(int g, double cpu0) {
  const LoopSettings& settings = run_.config.loop;
  const std::string gen = "[" + generationName(g) + "] gate";
  std::string candidate = "nets/candidate-" + generationName(g) + ".pt";
  GateRecord record;
  record.generation = g;
  if (settings.average_snapshots > 1) {
    // The moving average of the last candidates, newest first, each older one weighing
    // average_decay of the next: what is gated, and played once promoted.
    std::vector<std::string> paths;
    std::vector<double> weights;
    double weight = 1;
    for (int k = g; k >= 1 && k > g - settings.average_snapshots; --k) {
      const std::string name = "nets/candidate-" + generationName(k) + ".pt";
      paths.push_back(run_.folder.path(name));
      weights.push_back(weight);
      record.averaged.push_back({name, weight});
      weight *= settings.average_decay;
    }
    candidate = "nets/average-" + generationName(g) + ".pt";
    nn::Network::average(paths, weights)->save(run_.folder.path(candidate));
  }
  if (settings.spread_positions > 0) {
    // The same positions at every generation: those of one rule game with dice seed 1.
    const std::vector<env::GameState> positions = agents::ruleGamePositions(
        *run_.scenario, 1, static_cast<size_t>(settings.spread_positions));
    record.search_spread = agents::searchValueSpread(
        agents::withModel("az:sims=200,reuse=0", run_.folder.path(candidate)), positions);
    run_.say(gen + ": search spread " + core::fixedText(record.search_spread, 3) + " over " +
             std::to_string(positions.size()) + " positions");
  }
  bool promoted = true;
  if (state_.best.empty()) {
    run_.say(gen + ": the first network is promoted without a gate");
  } else if (settings.gate == "none" && settings.gate_guard <= 0) {
    run_.say(gen + ": the newest network is promoted (no gate)");
    record.match = GateMatch{state_.best, "none", true, std::nullopt, std::nullopt};
  } else {
    const arena::ArenaRunFile file{
        {agents::withModel(settings.gate_agent, run_.folder.path(state_.best)),
         agents::withModel(settings.gate_agent, run_.folder.path(candidate))},
        {settings.scenario},
        settings.gate_rounds,
        env::deriveSeed(run_.config.train.seed, kGateStream, g),
        false};
    std::vector<arena::ArenaGame> games;
    arena::ArenaLineup lineup;
    GateMatch match;
    match.against = state_.best;
    if (settings.gate == "sprt") {
      const SprtConfig sprt{settings.sprt_elo0, settings.sprt_elo1, settings.sprt_alpha,
                            settings.sprt_beta};
      match.sprt = playSprtGate(run_, file, sprt, games, lineup);
      if (!match.sprt) return false;
      match.rule = "sprt";
      promoted = sprtPromotes(*match.sprt);
    } else {
      const std::optional<arena::ArenaRun> played =
          playRoleArena(run_, file, nullptr, "gate games");
      if (!played) return false;
      games = played->games;
      lineup = played->lineup;
      const double threshold = settings.gate == "none" ? settings.gate_guard : settings.gate_score;
      promoted = gateDecision(candidateResults(games), threshold).promoted;
      match.rule = settings.gate == "none" ? "none, guard: score >= " + core::shortText(threshold)
                                           : "score >= " + core::shortText(threshold);
    }
    const arena::WinDrawLoss c = candidateResults(games);
    const arena::ArenaStats st = arena::arenaStats(lineup, games, -1);
    match.games = GateGames{c.wins, c.draws, c.losses, -st.pairs.at(0).duplicate.mean,
                            st.pairs.at(0).duplicate.margin95};
    match.promoted = promoted;
    std::string detail;
    if (match.sprt) {
      detail = ", SPRT " + match.sprt->verdict + " after " + std::to_string(match.sprt->pairs) +
               " pairs (LLR " + core::fixedText(match.sprt->llr, 2) + ")";
    }
    run_.say(gen + ": candidate " + std::to_string(c.wins) + "-" + std::to_string(c.draws) + "-" +
             std::to_string(c.losses) + " against " + state_.best + ", score " +
             core::fixedText(c.score(), 3) + detail + (promoted ? ": promoted" : ": not promoted"));
    record.match = match;
  }
  record.promoted = promoted;
  // The run's CPU time when this generation's best network was decided: every role's saved
  // total, this gate's as it stands now.
  const double saved_gate =
      readJsonFile(run_.folder.path("gates/state.json"), json::object()).value("cpu_seconds", 0.0);
  record.cpu_hours =
      (runCpuSeconds(run_.folder) - saved_gate + state_.cpu_seconds + processCpuSeconds() - cpu0) /
      3600;
  if (promoted) {  // complete under its own name before latest.json names it
    state_.best = "nets/" + generationName(g) + ".pt";
    state_.best_generation = g;
    env::writeFileDurably(
        run_.folder.path(state_.best),
        env::readTextFile(run_.folder.path(candidate), "network file", size_t{1} << 32));
  }
  writeGenerationRecord(run_.folder, record);
  return true;
}

bool GateRole::ladder(int g, double cpu0) {
  const LoopSettings& settings = run_.config.loop;
  arena::ArenaRunFile file{words(settings.ladder_references),
                           {settings.scenario},
                           settings.ladder_rounds,
                           env::deriveSeed(run_.config.train.seed, kLadderStream, g),
                           false};
  const int net = static_cast<int>(file.agents.size());
  file.agents.push_back(agents::withModel(settings.ladder_agent, run_.folder.path(state_.best)));
  const std::string gen = "[" + generationName(g) + "] ladder";
  run_.say(gen + ": " + state_.best + " against " + settings.ladder_references);
  const std::optional<arena::ArenaRun> played = playRoleArena(
      run_, file,
      [net](const arena::ArenaGame& game) { return game.blue == net || game.orange == net; },
      "ladder games");
  if (!played) return false;
  const arena::ArenaStats st = arena::arenaStats(played->lineup, played->games, -1);
  const auto n = static_cast<size_t>(net);
  LadderRecord record;
  record.generation = g;
  record.elo = st.elo.rating[n];
  if (std::isfinite(st.elo.low[n])) record.elo_low = st.elo.low[n];
  if (std::isfinite(st.elo.high[n])) record.elo_high = st.elo.high[n];
  record.anchor = file.agents.front();
  for (const arena::PairRecord& p : st.pairs)
    record.scores[file.agents[static_cast<size_t>(p.a)]] = 1.0 - p.total().score();
  record.rated = state_.best;
  state_.laddered_generation = state_.best_generation;
  record.cpu_hours = (runCpuSeconds(run_.folder) + processCpuSeconds() - cpu0) / 3600;
  writeGenerationRecord(run_.folder, record);
  run_.say(gen + ": Elo " + core::fixedText(st.elo.rating[n], 0) + " [" +
           core::fixedText(st.elo.low[n], 0) + ", " + core::fixedText(st.elo.high[n], 0) +
           "] against " + file.agents.front() + " = 0");
  return true;
}

bool runGateRole(const RoleContext& run) {
  const std::unique_ptr<env::FileLock> lock =
      lockRole(run.folder.path("gates/role.lock"), "a gate");
  GateRole gate(run);
  if (!gate.ladderIfDue()) return false;
  bool waiting = false;
  while (gate.generation() <= run.config.loop.generations) {
    if (run.stopping()) return false;
    if (!gate.candidateReady()) {
      if (!waiting) {
        run.say("[" + generationName(gate.generation()) + "] gate: waiting for the candidate");
      }
      waiting = true;
      std::this_thread::sleep_for(std::chrono::seconds(1));
      continue;
    }
    waiting = false;
    if (!gate.gateNext()) return false;
  }
  run.say("gate: the run's last generation is gated; done");
  return true;
}

}  // namespace morne::loop

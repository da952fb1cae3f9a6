#include "loop/learner_role.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/number_text.h"
#include "core/progress.h"
#include "core/version.h"
#include "env/error.h"
#include "env/io/text_file.h"
#include "env/rng.h"
#include "loop/generation_record.h"
#include "loop/run_summary.h"
#include "training/training_curves.h"
#include "training/training_data.h"

namespace morne::loop {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kLearnerStateFormat = "morne-learner/1";

const char* startName(training::TrainStart s) {
  switch (s) {
    case training::TrainStart::kFresh:
      return "fresh";
    case training::TrainStart::kResume:
      return "resume";
    case training::TrainStart::kNewData:
      return "new-data";
  }
  return "";
}

training::TrainStart startOf(const std::string& name) {
  if (name == "resume") return training::TrainStart::kResume;
  if (name == "new-data") return training::TrainStart::kNewData;
  return training::TrainStart::kFresh;
}

}  // namespace

const env::OptionRow<LearnerRole::State> LearnerRole::kStateRows[9] = {
    {"generation", &State::generation, env::atLeast(1), "the generation to train next"},
    {"reuse_budget", &State::reuse_budget, env::anyValue(),
     "training rows the reuse cap still allows"},
    {"credited_rows", &State::credited_rows, env::atLeast(0),
     "training rows the budget has been credited for"},
    {"train_target", &State::train_target, env::atLeast(-1),
     "the learner's step at which this generation's training ends (-1: not planned)"},
    {"train_started", &State::train_started, env::anyValue(), "its training has begun"},
    {"trained_steps", &State::trained_steps, env::atLeast(0),
     "the learner's steps after the last finished training"},
    {"cpu_seconds", &State::cpu_seconds, env::atLeast(0), "CPU time the learner has used"},
    {"counted_games", &State::counted_games, env::atLeast(-1),
     "games of every data set when the last generation was planned (-1: not counted)"},
    {"waited_seconds", &State::waited_seconds, env::atLeast(0),
     "seconds the learner has waited for the next generation's data"},
};

// The fields a learner.json written before them lacks, with the values that keep its rule: a
// generation not counted waits for the data set of the last gate.
const nlohmann::json kStateFieldsSince = {{"counted_games", -1}, {"waited_seconds", 0}};

LearnerRole::LearnerRole(const RoleContext& run, nn::ProcessGroup* group)
    : run_(run),
      measured_(group ? std::optional<nn::MeasuredGroup>(std::in_place, *group) : std::nullopt),
      group_(measured_ ? &*measured_ : nullptr) {
  if (!leads()) return;
  const std::string path = run_.folder.path("train/learner.json");
  readRecordFile(path, kLearnerStateFormat, "the state of a learner", [&](const json& j) {
    json whole = kStateFieldsSince;
    whole.update(j);
    env::readOptionsJson<State>(path, whole, kStateRows, state_);
  });
}

void LearnerRole::saveState() {
  writeRecord<State>(run_.folder.path("train/learner.json"), kLearnerStateFormat, kStateRows,
                     state_);
}

int64_t LearnerRole::gamesPlayed() const {
  int64_t games = 0;
  for (int k = 0; k <= run_.folder.readLatest().data_set; ++k) games += run_.folder.gamesIn(k);
  return games;
}

bool LearnerRole::dataReady() const {
  const int g = state_.generation;
  const LoopSettings& settings = run_.config.loop;
  if (g == 1) return run_.folder.gamesIn(0) >= settings.bootstrap_games;
  if (state_.counted_games < 0) {
    return run_.folder.readLatest().data_set >= g - 1 &&
           run_.folder.gamesIn(g - 1) >= settings.games;
  }
  return gamesPlayed() - state_.counted_games >= settings.games;
}

std::string LearnerRole::planNext() {
  const int g = state_.generation;
  const training::TrainSettings& t = run_.config.train;
  std::vector<std::string> dirs;
  // The data sets so far that hold games: a set the gate has just named may have none yet.
  const int last_set = std::min(g - 1, run_.folder.readLatest().data_set);
  for (int k = 0; k <= last_set; ++k) {
    if (run_.folder.gamesIn(k) > 0) dirs.push_back(run_.folder.dataSet(k));
  }
  const std::vector<std::string> files = training::shardFiles(dirs);
  if (state_.train_target < 0) {
    // The reuse cap credits the training rows added since the last plan, and the steps spend
    // it.
    const training::ShardIndex all =
        training::indexShardFiles(files, t.validation_permille, &known_);
    const int64_t rows = all.rows - all.validation_rows;
    int64_t steps = t.steps;
    if (t.max_reuse > 0) {
      state_.reuse_budget += t.max_reuse * static_cast<double>(rows - state_.credited_rows);
      const auto allowed = static_cast<int64_t>(state_.reuse_budget / t.batch);
      steps = t.steps > 0 ? std::min<int64_t>(t.steps, allowed) : allowed;
      state_.reuse_budget -= static_cast<double>(steps * t.batch);
    }
    state_.credited_rows = rows;
    state_.counted_games = gamesPlayed();
    state_.train_target = state_.trained_steps + steps;
    saveState();
  }
  const bool has_checkpoint = fs::exists(run_.folder.path("train/checkpoint.pt"));
  const training::TrainStart start = !has_checkpoint        ? training::TrainStart::kFresh
                                     : state_.train_started ? training::TrainStart::kResume
                                                            : training::TrainStart::kNewData;
  return json{{"action", "train"}, {"generation", g}, {"target", state_.train_target},
              {"dirs", dirs},      {"files", files},  {"start", startName(start)}}
      .dump();
}

bool LearnerRole::train(const std::string& plan_text) {
  const json plan = json::parse(plan_text);
  const int g = plan.at("generation").get<int>();
  const std::string gen = "[" + generationName(g) + "] train";
  const LoopConfig& c = run_.config;
  training::TrainSettings t = c.train;
  t.data_dirs = plan.at("dirs").get<std::vector<std::string>>();
  t.shard_files = plan.at("files").get<std::vector<std::string>>();
  t.seed = env::deriveSeed(c.train.seed, kTrainStream, g);
  t.steps = static_cast<int>(plan.at("target").get<int64_t>());
  t.max_reuse = 0;
  const training::TrainStart start = startOf(plan.at("start").get<std::string>());
  const std::string train_dir = run_.folder.path("train");
  const double cpu0 = processCpuSeconds();
  nn::configureTorchRuntime(c.loop.threads);
  training::NetworkSource source = c.network;
  if (!c.loop.init.empty()) source.net = run_.folder.path(kInitialNetwork);  // a warm start
  const std::unique_ptr<nn::Learner> learner =
      start != training::TrainStart::kFresh
          ? nn::Learner::fromFile(train_dir + "/net.pt", t.learner)
          : training::makeLearner(source, run_.scenario->name(), t.learner);
  const json provenance = {
      {"trained_by", core::versionLine()}, {"loop", run_.folder.name()}, {"generation", g}};
  training::TrainingRun training(*learner, t, train_dir, start, provenance.dump(), group_, &known_);
  if (leads() && !state_.train_started) {
    state_.train_started = true;
    saveState();
  }
  const training::TrainOutcome& planned = training.plan();
  if (leads()) {
    run_.say(gen + ": steps " + std::to_string(planned.step) + " to " +
             std::to_string(planned.target) + " on " + std::to_string(planned.shards) +
             " shard(s), window " + std::to_string(planned.window_rows) + " of " +
             std::to_string(planned.rows) + " rows" +
             (start == training::TrainStart::kFresh && !source.net.empty() ? ", from " + source.net
                                                                           : "") +
             (group_ ? ", " + std::to_string(group_->size()) + " ranks" : ""));
  }
  core::Progress progress(static_cast<int>(planned.target - planned.step), "steps",
                          !run_.quiet && leads());
  const nn::ExchangeTotals exchanged_before =
      measured_ ? measured_->totals() : nn::ExchangeTotals{};
  const int64_t first_step = planned.step;
  const training::TrainOutcome out = training.run(
      [&](const training::TrainProgress& p) {
        if (p.metrics) training::writeTrainingCurves(train_dir);
        progress.update(static_cast<int>(p.step - planned.step),
                        core::fixedText(p.samples_per_second, 0) + " samples/s");
      },
      run_.stop);
  if (!leads()) return !out.interrupted;
  state_.cpu_seconds += processCpuSeconds() - cpu0;
  if (out.interrupted) {
    saveState();
    return false;
  }
  training::writeTrainingCurves(train_dir);
  TrainRecord record;
  record.generation = g;
  record.train_step = out.step;
  record.waited_seconds = std::round(state_.waited_seconds * 10) / 10;
  if (out.last) {
    const nn::LossReport& v = out.last->validation ? *out.last->validation : out.last->train;
    record.losses = v;
    run_.say(gen + ": step " + std::to_string(out.step) + ", " +
             (out.last->validation ? "validation " : "training ") + training::lossReportText(v));
  }
  if (measured_ && out.step > first_step) {
    const nn::ExchangeTotals& now = measured_->totals();
    const double steps = static_cast<double>(out.step - first_step);
    const double ms = (now.seconds - exchanged_before.seconds) * 1000 / steps;
    const auto floats =
        static_cast<int64_t>(static_cast<double>(now.floats - exchanged_before.floats) / steps);
    const double sent = nn::ringBytesPerRank(floats, group_->size());
    record.exchange = ExchangeFigures{std::round(ms * 1000) / 1000, floats, std::round(sent)};
    run_.say(gen + ": exchanges between " + std::to_string(group_->size()) + " ranks: " +
             core::fixedText(ms, 2) + " ms a step (waiting for the slowest rank included), " +
             std::to_string(floats) + " floats summed a step, " + core::fixedText(sent / 1000, 0) +
             " kB sent by each rank a step");
  }
  // The candidate is complete before train/gen-NNN.json names it.
  record.candidate = "nets/candidate-" + generationName(g) + ".pt";
  env::writeFileDurably(run_.folder.path(record.candidate),
                        env::readTextFile(train_dir + "/net.pt", "network file", size_t{1} << 32));
  // The run's CPU time when this network was made: every role's saved total, this learner's
  // as it stands now.
  const double saved_learner = readJsonFile(run_.folder.path("train/learner.json"), json::object())
                                   .value("cpu_seconds", 0.0);
  record.cpu_hours = (runCpuSeconds(run_.folder) - saved_learner + state_.cpu_seconds) / 3600;
  writeGenerationRecord(run_.folder, record);
  state_.trained_steps = out.step;
  ++state_.generation;
  state_.train_target = -1;
  state_.train_started = false;
  state_.waited_seconds = 0;
  saveState();
  return true;
}

bool runLearnerRole(const RoleContext& run, nn::ProcessGroup* group) {
  const bool leads = !group || group->rank() == 0;
  std::unique_ptr<env::FileLock> lock;
  if (leads) lock = lockRole(run.folder.path("train/role.lock"), "a learner");
  LearnerRole learner(run, group);
  auto tell = [&](std::string text) {
    if (group) group->broadcastText(text);
    return text;
  };
  bool waiting = false;
  auto since = std::chrono::steady_clock::now();
  for (;;) {
    std::string plan;
    if (leads) {
      if (learner.generation() > run.config.loop.generations) {
        tell("done");
        run.say("learner: the run's last generation is trained; done");
        return true;
      }
      if (run.stopping()) {
        tell("stop");
        return false;
      }
      if (!learner.dataReady()) {
        if (!waiting) {
          const int g = learner.generation();
          run.say("[" + generationName(g) + "] train: waiting for " +
                  (g == 1 ? std::to_string(run.config.loop.bootstrap_games) + " games of " +
                                generationName(0)
                          : std::to_string(run.config.loop.games) + " new games"));
        }
        if (!waiting) since = std::chrono::steady_clock::now();
        waiting = true;
        tell("wait");
        std::this_thread::sleep_for(std::chrono::seconds(1));
        continue;
      }
      if (waiting) {
        learner.addWait(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count());
      }
      waiting = false;
      plan = tell(learner.planNext());
    } else {
      plan = tell("");
      if (plan == "done") return true;
      if (plan == "stop") return false;
      if (plan == "wait") continue;
    }
    if (!learner.train(plan)) return false;
  }
}

}  // namespace morne::loop

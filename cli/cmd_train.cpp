// `morne train`: a policy-value network learns from self-play shards (training/train_run.h,
// docs/training.md). The run folder holds the settings (train.json), the checkpoint, the
// exported network, metrics.csv and curves.svg; Ctrl-C checkpoints, --resume goes on.

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "core/interrupt.h"
#include "core/number_text.h"
#include "core/progress.h"
#include "core/version.h"
#include "env/error.h"
#include "nn/learner.h"
#include "training/train_options.h"
#include "training/train_record.h"
#include "training/train_run.h"
#include "training/training_curves.h"

namespace morne::cli {

namespace {

using nlohmann::json;
using training::TrainSettings;

}  // namespace

int runTrain(const Args& args) {
  TrainSettings s;
  training::NetworkSource source;
  po::options_description own("Options of `morne train`");
  // clang-format off
  own.add_options()
      ("data", po::value<std::vector<std::string>>()->composing(),
       "folder of self-play shards (repeat for several, oldest first)")
      ("out", po::value<std::string>(), "run folder to create")
      ("resume", po::value<std::string>(), "run folder to continue (its own settings)");
  // clang-format on
  addOptions<training::NetworkSource>(own, training::networkOptionRows(), source);
  addOptions<TrainSettings>(own, training::trainOptionRows(), s);
  addOptions<nn::LearnerConfig>(own, nn::learnerOptionRows(), s.learner);
  // clang-format off
  own.add_options()
      ("threads", po::value<int>()->default_value(1),
       "LibTorch threads (1: the same weights on every run of the same settings)")
      ("quiet", po::bool_switch(), "no progress bar");
  // clang-format on
  const ParsedCommand cmd = parseCommand("train", args, own, 0);
  if (cmd.help) {
    std::cout << usageText(
        "morne train --data DIR... --out DIR [--net FILE] [options]  |  morne train --resume DIR",
        own);
    return 0;
  }
  const auto& vm = cmd.vm;
  const int threads = vm["threads"].as<int>();
  if (threads < 1) throw ConfigError("train: --threads must be at least 1");
  const bool resume = vm.count("resume") > 0;
  std::string dir;
  if (resume) {
    dir = vm["resume"].as<std::string>();
    refuseSettingsOnResume("train", vm, "train.json", {"steps", "threads"});
    training::readTrainRecord(dir, s, source);
    if (!vm["steps"].defaulted()) s.steps = vm["steps"].as<int>();
  } else {
    if (!vm.count("out")) throw ConfigError("train: give --out DIR (or --resume DIR)");
    if (!vm.count("data")) throw ConfigError("train: give --data DIR (a folder of shards)");
    dir = vm["out"].as<std::string>();
    readOptions<TrainSettings>("train", vm, training::trainOptionRows(), s);
    readOptions<nn::LearnerConfig>("train", vm, nn::learnerOptionRows(), s.learner);
    readOptions<training::NetworkSource>("train", vm, training::networkOptionRows(), source);
    for (const std::string& d : vm["data"].as<std::vector<std::string>>())
      s.data_dirs.push_back(std::filesystem::absolute(d).lexically_normal().string());
    if (!source.net.empty())
      source.net = std::filesystem::absolute(source.net).lexically_normal().string();
    std::error_code ec;
    if (std::filesystem::exists(dir + "/train.json", ec)) {
      throw ConfigError("train: " + dir + " already holds a training run; continue it with " +
                        "--resume " + dir + ", or choose another folder");
    }
    std::filesystem::create_directories(dir, ec);
    if (ec) throw IoError("train: cannot create " + dir + ": " + ec.message());
  }
  nn::configureTorchRuntime(threads);

  // A run without a checkpoint (killed before its first one) starts again from its settings.
  const bool from_checkpoint = resume && std::filesystem::exists(dir + "/checkpoint.pt");
  const std::unique_ptr<nn::Learner> learner =
      from_checkpoint ? nn::Learner::fromFile(dir + "/net.pt", s.learner)
                      : training::makeLearner(source, training::dataScenario(s), s.learner);
  const json provenance = {
      {"trained_by", core::versionLine()},
      {"from", source.net.empty() ? "a fresh network (seed " + std::to_string(source.net_seed) + ")"
                                  : source.net}};
  training::TrainingRun run(
      *learner, s, dir,
      from_checkpoint ? training::TrainStart::kResume : training::TrainStart::kFresh,
      provenance.dump());
  // The record last: a run refused at its start (data that do not fit) leaves no run behind.
  if (!resume) training::writeTrainRecord(dir, s, source);
  const training::TrainOutcome& plan = run.plan();
  const nn::NetworkConfig& net = learner->networkConfig();
  std::cout << core::versionLine() << "\ntrain: " << net.scenario << " network " << net.blocks
            << "x" << net.channels << ", " << s.learner.optimizer << " lr "
            << core::shortText(s.learner.learning_rate) << ", batch " << s.batch << ", " << threads
            << " thread(s); run folder " << dir << "\ndata: " << plan.shards << " shard(s), "
            << plan.rows << " rows; window " << plan.window_rows << " rows, " << plan.training_rows
            << " for training\n"
            << (from_checkpoint ? "resumed at step " + std::to_string(plan.step) + "; " : "")
            << "target " << plan.target << " steps"
            << (s.max_reuse > 0 && (s.steps == 0 || plan.target < s.steps)
                    ? " (" + core::shortText(s.max_reuse) + " x " +
                          std::to_string(plan.training_rows) + " training rows / batch " +
                          std::to_string(s.batch) + ")"
                    : "")
            << "\n"
            << std::flush;

  core::Progress progress(static_cast<int>(plan.target), "steps", !vm["quiet"].as<bool>());
  const core::InterruptFlag interrupt;
  std::string losses;  // of the last metrics row, on the progress line
  const training::TrainOutcome out = run.run(
      [&](const training::TrainProgress& p) {
        const double eta = static_cast<double>((p.target - p.step) * s.batch) /
                           std::max(p.samples_per_second, 1e-9);
        if (p.metrics) {
          const training::TrainMetrics& m = *p.metrics;
          const nn::LossReport& r = m.validation ? *m.validation : m.train;
          losses = ", policy " + core::fixedText(r.policy_loss, 3) + " value " +
                   core::fixedText(r.value_loss, 3);
          if (isatty(2)) std::cerr << "\r\033[K" << std::flush;
          std::cout << "step " << m.step << "  lr " << core::shortText(m.learning_rate)
                    << "\n  training:   " << training::lossReportText(m.train) << "\n";
          if (m.validation)
            std::cout << "  validation: " << training::lossReportText(*m.validation) << "\n";
          std::cout << std::flush;
          training::writeTrainingCurves(dir);
        }
        progress.update(static_cast<int>(p.step),
                        core::fixedText(p.samples_per_second, 0) + " samples/s, reader " +
                            core::fixedText(p.reader_rows_per_second, 0) + " rows/s" + losses,
                        eta);
      },
      interrupt.flag());
  training::writeTrainingCurves(dir);
  std::cout << (out.interrupted ? "interrupted at step " : "done: step ") << out.step << " of "
            << out.target << "; checkpoint " << dir << "/checkpoint.pt, network " << dir
            << "/net.pt, curves " << dir << "/curves.svg\n";
  if (out.interrupted) std::cout << "continue with: morne train --resume " << dir << "\n";
  std::cout << std::flush;
  return out.interrupted || interrupt.raised() ? 130 : 0;
}

}  // namespace morne::cli

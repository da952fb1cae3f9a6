// The value head's two warnings of `loop status` (nn/learner.h: valueLearnsOnlyTheSide,
// valuePredictsAConstant) on real networks and real games: neither fires on the shipped `duel`
// network measured on its own self-play, and the constant flag fires on the same rows for a
// head trained to a constant. (Learner.TheSideBaselineTellsAValueThatLearnedOnlyTheMean checks
// both on hand-made rows.)

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "agents/network_agent.h"
#include "env/io/scenario_library.h"
#include "nn/learner.h"
#include "tests/nn/temp_path.h"
#include "training/network_loader.h"
#include "training/replay_window.h"
#include "training/selfplay.h"
#include "training/training_data.h"

namespace morne::test {
namespace {

const std::string kDuelNet = std::string(MORNE_SOURCE_DIR) + "/models/duel.pt";

// Every row of 12 games of the `duel` network against itself (16 simulations a decision).
nn::TrainingBatch duelSelfPlayRows() {
  const std::string dir = tempPath("value-flags");
  std::filesystem::remove_all(dir);
  agents::setNetworkLoader(training::loadNetworkEvaluator);
  training::SelfPlayConfig c;
  c.scenario = env::loadScenario("duel");
  c.agent = "az:model=" + kDuelNet + ",sims=16";
  c.games = 12;
  c.jobs = 2;
  c.seed = 12;
  c.out_dir = dir;
  c.prefix = "flags";
  c.temperature_moves = 10;
  training::runSelfPlay(c, nullptr, nullptr);
  const training::ShardIndex index = training::indexShards({dir}, 1000);  // all validation
  nn::TrainingBatch rows = training::validationRows(index, training::WindowConfig{}, 100'000);
  std::filesystem::remove_all(dir);
  return rows;
}

TEST(ValueFlags, NeitherFiresOnDuelsNetworkAndTheConstantOneOnAHeadTrainedToAConstant) {
  const nn::TrainingBatch rows = duelSelfPlayRows();
  ASSERT_GT(rows.size, 500);
  nn::LearnerConfig c;
  const nn::LossReport duel = nn::Learner::fromFile(kDuelNet, c)->measure(rows);
  EXPECT_GT(duel.value_target_variance, 0.5) << "both sides win some of these games";
  EXPECT_FALSE(nn::valuePredictsAConstant(duel))
      << duel.value_variance << " against the targets' " << duel.value_target_variance;
  EXPECT_FALSE(nn::valueLearnsOnlyTheSide(duel))
      << duel.value_loss << " against the side baseline " << duel.value_side_baseline;

  // The same network trained on 128 of these rows with every value target 0.3: its value head
  // settles on the constant, and the flag fires on the real targets.
  nn::TrainingBatch constant;
  training::appendRows(rows, 0, 128, constant);
  std::fill(constant.value.begin(), constant.value.end(), 0.3f);
  c.optimizer = "adamw";
  c.learning_rate = 0.01;
  c.warmup_steps = 1;
  c.weight_decay = 0;
  auto flat = nn::Learner::fromFile(kDuelNet, c);
  for (int i = 0; i < 30; ++i) flat->step(constant);
  const nn::LossReport after = flat->measure(rows);
  EXPECT_TRUE(nn::valuePredictsAConstant(after))
      << after.value_variance << " against the targets' " << after.value_target_variance;
}

}  // namespace
}  // namespace morne::test

// The learner (nn/learner.h): the masked policy loss is the hand-computed cross-entropy over the
// legal actions, a tiny network overfits a tiny data set (the gradient path works), the
// learning-rate schedule, the exported network is the one measured, and bad batches are refused.

#include "nn/learner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "env/error.h"
#include "env/io/scenario_library.h"
#include "env/rng.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"
#include "nn/random_rows.h"
#include "tests/nn/temp_path.h"

namespace morne::test {
namespace {

struct Data {
  std::shared_ptr<const env::Scenario> sc = env::loadScenario("duel");
  nn::ObservationEncoder encoder{*sc};
  nn::PolicyLayout layout{*sc};

  nn::NetworkConfig tinyNetwork() const {
    nn::NetworkConfig c = nn::networkConfigFor(*sc);
    c.blocks = 1;
    c.channels = 8;
    c.value_hidden = 16;
    return c;
  }

  nn::TrainingBatch batch(int rows, uint64_t seed) const {
    return nn::randomTrainingRows(*sc, rows, seed);
  }

  nn::ObservationShape shape() const { return encoder.shape(); }
};

TEST(Learner, MaskedPolicyLossIsTheHandComputedCrossEntropy) {
  const Data d;
  nn::TrainingBatch b = d.batch(6, 3);
  // Spread targets: half on the first legal entry, half on the last.
  const auto policy = static_cast<size_t>(d.layout.size());
  for (size_t r = 0; r < 6; ++r) {
    std::fill_n(b.policy.begin() + static_cast<std::ptrdiff_t>(r * policy), policy, 0.0f);
    size_t first = policy, last = 0;
    for (size_t i = 0; i < policy; ++i) {
      if (b.legal[r * policy + i]) first = std::min(first, i), last = i;
    }
    b.policy[r * policy + first] += 0.5f;
    b.policy[r * policy + last] += 0.5f;
  }
  auto learner = nn::Learner::create(d.tinyNetwork(), 5, {});
  const nn::LossReport report = learner->measure(b);

  // The same network as the agents load it, and the loss by hand from its logits.
  const std::string path = tempPath("hand.pt");
  learner->exportNetwork(path, "");
  auto net = nn::Network::load(path);
  std::vector<float> logits(6 * policy), values(6);
  net->evaluate(6, d.shape(), b.planes, b.globals, logits, values);
  double loss = 0, value_loss = 0, baseline = 0;
  for (size_t r = 0; r < 6; ++r) {
    double top = -1e30, total = 0;
    int n = 0;
    for (size_t i = 0; i < policy; ++i) {
      if (b.legal[r * policy + i]) top = std::max(top, double{logits[r * policy + i]});
    }
    for (size_t i = 0; i < policy; ++i) {
      if (b.legal[r * policy + i]) total += std::exp(logits[r * policy + i] - top), ++n;
    }
    for (size_t i = 0; i < policy; ++i) {
      if (b.policy[r * policy + i] > 0)
        loss -= b.policy[r * policy + i] * (logits[r * policy + i] - top - std::log(total));
    }
    baseline += std::log(n);
    value_loss += (values[r] - b.value[r]) * (values[r] - b.value[r]);
  }
  EXPECT_NEAR(report.policy_loss, loss / 6, 1e-4);
  EXPECT_NEAR(report.policy_baseline, baseline / 6, 1e-4);
  EXPECT_NEAR(report.value_loss, value_loss / 6, 1e-5);
  EXPECT_NEAR(report.value_baseline, 1.0, 1e-9);  // every result is +1 or -1
}

// The auxiliary losses: the squared errors of the heads' outputs against the known (not NaN)
// targets, averaged over them, the margin's target divided by its scale; not computed when
// their weight is 0.
TEST(Learner, AuxiliaryLossesAreTheHandComputedMaskedSquaredErrors) {
  const Data d;
  constexpr int kRows = 6;
  nn::TrainingBatch b = d.batch(kRows, 4);
  const nn::NetworkConfig net = d.tinyNetwork();
  const auto area = static_cast<size_t>(net.input.height * net.input.width);
  const float nan = std::nanf("");
  env::Rng rng(8);
  for (int r = 0; r < kRows; ++r) {
    b.margin.push_back(r == 2 ? nan : static_cast<float>(static_cast<int>(rng.below(21)) - 10));
    for (size_t i = 0; i < area; ++i)
      b.control.push_back(r == 4 ? nan : static_cast<float>(static_cast<int>(rng.below(3)) - 1));
    for (int h = 0; h < nn::kShortValueOutputs; ++h)
      b.short_value.push_back(r == 1 && h == 0 ? nan : static_cast<float>(rng.uniform() * 2 - 1));
  }
  nn::LearnerConfig c;
  c.margin_weight = 1;
  c.margin_scale = 5;
  c.control_weight = 0.5;
  c.short_value_weight = 2;
  auto learner = nn::Learner::create(net, 5, c);
  const nn::LossReport report = learner->measure(b);

  const std::string path = tempPath("aux.pt");
  learner->exportNetwork(path, "");
  auto network = nn::Network::load(path);
  std::vector<float> margin(kRows), control(kRows * area), short_value(kRows * 3);
  network->evaluateAuxiliary(kRows, d.shape(), b.planes, b.globals, margin, control, short_value);
  auto masked = [](const std::vector<float>& out, const std::vector<float>& target, float scale) {
    double loss = 0, baseline = 0;
    int known = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      if (std::isnan(target[i])) continue;
      const double t = target[i] / scale;
      loss += (out[i] - t) * (out[i] - t);
      baseline += t * t;
      ++known;
    }
    return std::pair{loss / known, baseline / known};
  };
  const auto [m, m0] = masked(margin, b.margin, 5);
  const auto [k, k0] = masked(control, b.control, 1);
  const auto [v, v0] = masked(short_value, b.short_value, 1);
  EXPECT_NEAR(report.margin_loss, m, 1e-4 * m);
  EXPECT_NEAR(report.margin_baseline, m0, 1e-6 * m0);
  EXPECT_NEAR(report.control_loss, k, 1e-4 * k);
  EXPECT_NEAR(report.control_baseline, k0, 1e-6);
  EXPECT_NEAR(report.short_value_loss, v, 1e-4 * v);
  EXPECT_NEAR(report.short_value_baseline, v0, 1e-6);
  EXPECT_NEAR(nn::totalLoss(report, c),
              report.policy_loss + report.value_loss + m + 0.5 * k + 2 * v, 1e-4);

  // Weight 0: not computed. A network without the heads refuses a weight.
  auto plain = nn::Learner::fromFile(path, {});
  const nn::LossReport without = plain->measure(b);
  EXPECT_EQ(without.margin_loss, 0);
  EXPECT_EQ(without.control_loss, 0);
  nn::NetworkConfig old = net;
  old.aux_heads = false;
  const std::string old_path = tempPath("old.pt");
  nn::Network::create(old, 1)->save(old_path);
  EXPECT_THROW(nn::Learner::fromFile(old_path, c), ConfigError);
  EXPECT_THROW(nn::Network::load(old_path)->evaluateAuxiliary(kRows, d.shape(), b.planes, b.globals,
                                                              margin, control, short_value),
               ConfigError);
  // The auxiliary heads learn: 200 steps on the batch lower each loss.
  for (int i = 0; i < 200; ++i) learner->step(b);
  const nn::LossReport after = learner->measure(b);
  EXPECT_LT(after.margin_loss, 0.5 * report.margin_loss);
  EXPECT_LT(after.control_loss, 0.5 * report.control_loss);
  EXPECT_LT(after.short_value_loss, 0.5 * report.short_value_loss);
}

TEST(Learner, ATinyNetworkOverfitsATinyDataSet) {
  const Data d;
  const nn::TrainingBatch b = d.batch(16, 7);
  nn::LearnerConfig c;
  c.optimizer = "adamw";
  c.learning_rate = 0.01;
  c.warmup_steps = 10;
  c.weight_decay = 0;
  auto learner = nn::Learner::create(d.tinyNetwork(), 1, c);
  const nn::LossReport before = learner->measure(b);
  for (int i = 0; i < 300; ++i) learner->step(b);
  const nn::LossReport after = learner->measure(b);
  EXPECT_EQ(learner->steps(), 300);
  EXPECT_GT(before.policy_loss, 1.0);
  EXPECT_LT(after.policy_loss, 0.1) << "before " << before.policy_loss;
  EXPECT_LT(after.value_loss, 0.1) << "before " << before.value_loss;
  EXPECT_EQ(after.policy_top1, 1.0);
  EXPECT_EQ(after.value_sign, 1.0);
}

// The value's side baseline: the error of predicting each row's result by the mean result of
// the rows with the same side to move (by hand on 8 rows), what tells a value head that learned
// only who usually wins (a constant per side) from one that tells positions apart.
TEST(Learner, TheSideBaselineTellsAValueThatLearnedOnlyTheMean) {
  const Data d;
  nn::TrainingBatch b = d.batch(8, 7);
  const auto names = nn::ObservationEncoder::globalNames();
  const auto mover =
      static_cast<size_t>(std::find(names.begin(), names.end(), "mover_is_blue") - names.begin());
  ASSERT_LT(mover, names.size());
  const auto globals = static_cast<size_t>(d.shape().globals);
  // Blue to move: results 1, 1, 1, -1 (mean 0.5, squared errors 0.25 x 3 + 2.25 = 3); orange:
  // 1, -1, -1, -1 (mean -0.5, also 3): (3 + 3) / 8 = 0.75.
  const float results[8] = {1, 1, 1, -1, 1, -1, -1, -1};
  for (size_t r = 0; r < 8; ++r) {
    b.globals[r * globals + mover] = r < 4 ? 1.0f : 0.0f;
    b.value[r] = results[r];
  }
  nn::LearnerConfig c;
  c.optimizer = "adamw";
  c.learning_rate = 0.01;
  c.weight_decay = 0;
  auto learner = nn::Learner::create(d.tinyNetwork(), 1, c);
  EXPECT_NEAR(learner->measure(b).value_side_baseline, 0.75, 1e-6);
  EXPECT_NEAR(learner->measure(b).value_target_variance, 1.0, 1e-6);  // four 1s, four -1s

  // Overfitting its batch, a value head does far better than the side baseline ...
  const nn::TrainingBatch small = d.batch(16, 7);
  for (int i = 0; i < 300; ++i) learner->step(small);
  const nn::LossReport fitted = learner->measure(small);
  EXPECT_LT(fitted.value_loss, 0.5 * fitted.value_side_baseline);
  EXPECT_GT(fitted.value_variance, 0.5 * fitted.value_target_variance)
      << "a head that tells positions apart spreads its values as the targets spread";
  // ... while one trained on results that are noise (random, whatever the position) can learn
  // the mean at best: on fresh rows it does no better than the side baseline.
  auto noise = nn::Learner::create(d.tinyNetwork(), 2, c);
  for (int i = 0; i < 300; ++i) noise->step(d.batch(16, 1000 + static_cast<uint64_t>(i)));
  const nn::LossReport fresh = noise->measure(d.batch(256, 99));
  EXPECT_GE(fresh.value_loss, 0.9 * fresh.value_side_baseline)
      << fresh.value_loss << " against " << fresh.value_side_baseline;
  EXPECT_LT(fresh.value_variance, 0.1 * fresh.value_target_variance)
      << "a head that learned the mean predicts nearly a constant: " << fresh.value_variance
      << " against the targets' " << fresh.value_target_variance;
}

// With calibration rows, the measured (and exported) network normalises with the population
// statistics of those rows: on a batch that is the whole calibration set, what the network in
// training mode computes with the batch's own statistics (equal up to the n / (n - 1) of the
// unbiased variance, n = 128 x 64 values a channel).
TEST(Learner, CalibratedStatisticsAreThoseOfTheCalibrationRows) {
  const Data d;
  const nn::TrainingBatch b = d.batch(128, 21);
  auto trained = nn::Learner::create(d.tinyNetwork(), 9, {});
  for (int i = 0; i < 30; ++i) trained->step(d.batch(64, 100 + static_cast<uint64_t>(i)));
  const std::string path = tempPath("trained.pt");
  trained->exportNetwork(path, "");
  auto calibrated = nn::Learner::fromFile(path, {});
  calibrated->setCalibrationRows({b});
  const nn::LossReport eval = calibrated->measure(b);
  auto reference = nn::Learner::fromFile(path, {});
  const nn::LossReport train_mode = reference->step(b);  // reported before the step
  EXPECT_NEAR(eval.policy_loss, train_mode.policy_loss, 1e-3 * train_mode.policy_loss);
  EXPECT_NEAR(eval.value_loss, train_mode.value_loss, 1e-3 * train_mode.value_loss + 1e-6);
  // Without calibration: the running averages of 30 steps, measurably different.
  auto running = nn::Learner::fromFile(path, {});
  EXPECT_GT(std::abs(running->measure(b).policy_loss - train_mode.policy_loss), 1e-3);
}

// A warm start (`morne loop --init`, `morne train --net`): a learner made from a network file
// holds exactly its weights, and exports them unchanged before any step.
TEST(Learner, AWarmStartBeginsFromTheFilesWeightsExactly) {
  const Data d;
  auto trained = nn::Learner::create(d.tinyNetwork(), 4, {});
  for (int i = 0; i < 5; ++i) trained->step(d.batch(32, 50 + static_cast<uint64_t>(i)));
  const std::string path = tempPath("start.pt");
  trained->exportNetwork(path, "");
  const std::string copy = tempPath("warm.pt");
  nn::Learner::fromFile(path, {})->exportNetwork(copy, "");
  const auto original = nn::Network::load(path);
  const auto warm = nn::Network::load(copy);
  EXPECT_EQ(warm->checksum(), original->checksum());
  EXPECT_EQ(warm->weightValues(), original->weightValues());
}

TEST(Learner, LearningRateWarmsUpThenDecays) {
  const Data d;
  nn::LearnerConfig c;
  c.learning_rate = 0.1;
  c.warmup_steps = 4;
  c.decay_steps = 2;
  c.decay = 0.5;
  auto learner = nn::Learner::create(d.tinyNetwork(), 1, c);
  const nn::TrainingBatch b = d.batch(4, 1);
  std::vector<double> rates;
  for (int i = 0; i < 8; ++i) {
    rates.push_back(learner->learningRate());
    learner->step(b);
  }
  const std::vector<double> expected = {0.025, 0.05, 0.075, 0.1, 0.1, 0.1, 0.05, 0.05};
  for (size_t i = 0; i < rates.size(); ++i) EXPECT_NEAR(rates[i], expected[i], 1e-12) << i;
}

// With one thread, stopping, saving a checkpoint and going on from it in a new learner ends
// with the same weights as an uninterrupted run.
TEST(Learner, ResumedFromACheckpointEqualsUninterrupted) {
  const Data d;
  const nn::TrainingBatch a = d.batch(8, 11), b = d.batch(8, 12);
  for (const char* kind : {"sgd", "adamw"}) {
    nn::LearnerConfig c;
    c.optimizer = kind;
    c.warmup_steps = 3;
    auto whole = nn::Learner::create(d.tinyNetwork(), 2, c);
    for (int i = 0; i < 6; ++i) whole->step(i % 2 ? b : a);

    auto first = nn::Learner::create(d.tinyNetwork(), 2, c);
    for (int i = 0; i < 3; ++i) first->step(i % 2 ? b : a);
    const std::string checkpoint = tempPath("resume.ckpt");
    first->saveCheckpoint(checkpoint, "data position 3");
    auto second = nn::Learner::create(d.tinyNetwork(), 99, c);  // other weights, overwritten
    EXPECT_EQ(second->loadCheckpoint(checkpoint), "data position 3");
    EXPECT_EQ(second->steps(), 3);
    for (int i = 3; i < 6; ++i) second->step(i % 2 ? b : a);

    whole->exportNetwork(tempPath("whole.pt"), "");
    second->exportNetwork(tempPath("resumed.pt"), "");
    EXPECT_EQ(nn::Network::load(tempPath("whole.pt"))->checksum(),
              nn::Network::load(tempPath("resumed.pt"))->checksum());
  }
}

TEST(Learner, CheckpointsOfAnotherNetworkAreRefused) {
  const Data d;
  auto learner = nn::Learner::create(d.tinyNetwork(), 1, {});
  const std::string path = tempPath("other.ckpt");
  learner->saveCheckpoint(path, "");
  nn::NetworkConfig wider = d.tinyNetwork();
  wider.channels = 16;
  EXPECT_THROW(nn::Learner::create(wider, 1, {})->loadCheckpoint(path), ConfigError);
  nn::LearnerConfig adam;
  adam.optimizer = "adamw";
  EXPECT_THROW(nn::Learner::create(d.tinyNetwork(), 1, adam)->loadCheckpoint(path), ConfigError);
  EXPECT_THROW(learner->loadCheckpoint(tempPath("missing.ckpt")), IoError);
}

TEST(Learner, AnOptimizerNotAmongTheRowsChoicesIsRefused) {
  const Data d;
  nn::LearnerConfig c;
  c.optimizer = "adam";
  try {
    nn::Learner::create(d.tinyNetwork(), 1, c);
    FAIL() << "an unknown optimizer was accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "learner: the optimizer must be one of sgd, adamw (got \"adam\")");
  }
}

TEST(Learner, BatchesOfAnotherShapeAreRefused) {
  const Data d;
  nn::TrainingBatch b = d.batch(2, 1);
  b.value.pop_back();
  auto learner = nn::Learner::create(d.tinyNetwork(), 1, {});
  EXPECT_THROW(learner->step(b), InternalError);
  EXPECT_EQ(learner->steps(), 0);
}

}  // namespace
}  // namespace morne::test

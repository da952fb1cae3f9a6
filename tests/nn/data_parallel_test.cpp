// The data-parallel learner (nn/process_group.h, Learner::joinGroup): two ranks on this machine,
// meeting through a file store, start from different weights, train on different rows, and
// hold the same weights after every step; a rank that leaves makes the other's next exchange
// fail instead of hanging.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <thread>

#include "env/error.h"
#include "env/io/scenario_library.h"
#include "nn/learner.h"
#include "nn/process_group.h"
#include "nn/random_rows.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

class DataParallel : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("morne-data-parallel-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  nn::NetworkConfig tinyNetwork() const {
    nn::NetworkConfig c = nn::networkConfigFor(*sc_);
    c.blocks = 1;
    c.channels = 8;
    c.value_hidden = 16;
    return c;
  }

  nn::GroupAddress address(int rank, int timeout = 60) const {
    return {rank, 2, "file://" + (dir_ / "store").string(), "", timeout};
  }

  std::shared_ptr<const env::Scenario> sc_ = env::loadScenario("duel");
  fs::path dir_;
};

TEST_F(DataParallel, RanksHoldTheSameWeightsAfterEveryStep) {
  constexpr int kSteps = 4;
  const nn::TrainingBatch probe = nn::randomTrainingRows(*sc_, 32, 99);
  nn::LossReport seen[2][kSteps + 1];
  std::exception_ptr failure[2];
  auto rank = [&](int r) {
    try {
      const std::unique_ptr<nn::ProcessGroup> group = nn::ProcessGroup::connect(address(r));
      // Different seeds: the weights differ until the group makes them rank 0's.
      const auto learner = nn::Learner::create(tinyNetwork(), 1 + r, nn::LearnerConfig{});
      learner->joinGroup(*group);
      seen[r][0] = learner->measure(probe);
      for (int s = 1; s <= kSteps; ++s) {
        learner->step(nn::randomTrainingRows(*sc_, 16, 1000 * s + r));  // each rank its rows
        seen[r][s] = learner->measure(probe);
      }
    } catch (...) {
      failure[r] = std::current_exception();
    }
  };
  std::thread other(rank, 1);
  rank(0);
  other.join();
  for (const std::exception_ptr& f : failure) {
    if (f) std::rethrow_exception(f);
  }
  for (int s = 0; s <= kSteps; ++s) {
    EXPECT_EQ(seen[0][s].policy_loss, seen[1][s].policy_loss) << "after step " << s;
    EXPECT_EQ(seen[0][s].value_loss, seen[1][s].value_loss) << "after step " << s;
    EXPECT_EQ(seen[0][s].weight_norm, seen[1][s].weight_norm) << "after step " << s;
  }
  EXPECT_NE(seen[0][0].weight_norm, seen[0][kSteps].weight_norm);  // it did learn
}

TEST_F(DataParallel, ARankThatLeavesMakesTheOthersExchangeFail) {
  std::exception_ptr failure;
  std::promise<void> rank0_joined;
  std::thread leaver([&, joined = rank0_joined.get_future()] {
    try {
      const auto group = nn::ProcessGroup::connect(address(1, 20));
      joined.wait();  // both ranks hold the group; this one leaves: its group is destroyed
    } catch (...) {
      failure = std::current_exception();
    }
  });
  std::unique_ptr<nn::ProcessGroup> group;
  std::exception_ptr connect_failure;
  try {
    group = nn::ProcessGroup::connect(address(0, 20));
  } catch (...) {
    connect_failure = std::current_exception();
  }
  rank0_joined.set_value();
  leaver.join();
  if (connect_failure) std::rethrow_exception(connect_failure);
  ASSERT_FALSE(failure);
  float x[4] = {1, 2, 3, 4};
  EXPECT_THROW(group->sum(x, 4), Error);
}

TEST_F(DataParallel, BadAddressesAreRefused) {
  EXPECT_THROW(nn::ProcessGroup::connect({2, 2, "file://x", "", 5}), ConfigError);
  EXPECT_THROW(nn::ProcessGroup::connect({0, 2, "udp://x:1", "", 5}), ConfigError);
  EXPECT_THROW(nn::ProcessGroup::connect({0, 2, "tcp://host", "", 5}), ConfigError);
  EXPECT_THROW(nn::ProcessGroup::connect({0, 2, "tcp://host:99999", "", 5}), ConfigError);
}

}  // namespace
}  // namespace morne::test

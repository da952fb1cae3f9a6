// The policy-value network (nn/network.h): shapes, value range, save and load round trip,
// and the errors for files that are not morne networks. Linked with LibTorch, so kept in its own
// test binary (each LibTorch process takes a fraction of a second to start).

#include "nn/network.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "env/error.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"

namespace morne::test {
namespace {

std::string tempPath(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("morne_nn_tests_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

struct Fixture {
  std::shared_ptr<const env::Scenario> sc = env::loadScenario("duel");
  nn::ObservationEncoder encoder{*sc};
  nn::PolicyLayout layout{*sc};

  nn::NetworkConfig config(int blocks = 2, int channels = 16) const {
    nn::NetworkConfig c;
    c.input = encoder.shape();
    c.policy_planes = layout.planes();
    c.blocks = blocks;
    c.channels = channels;
    c.scenario = sc->name();
    return c;
  }

  // Evaluates the start position and the position after one action, as a batch of two.
  std::pair<std::vector<float>, std::vector<float>> evaluate(nn::Network& net) const {
    env::GameState a = env::newGame(*sc);
    env::GameState b = a;
    env::ActionList legal;
    env::legalActions(b, legal);
    env::applyAction(b, legal[1]);
    const nn::ObservationShape shape = encoder.shape();
    std::vector<float> planes(2 * static_cast<size_t>(shape.planeSize()));
    std::vector<float> globals(2 * static_cast<size_t>(shape.globals));
    encoder.encode(a, std::span(planes).first(static_cast<size_t>(shape.planeSize())),
                   std::span(globals).first(static_cast<size_t>(shape.globals)));
    encoder.encode(b, std::span(planes).last(static_cast<size_t>(shape.planeSize())),
                   std::span(globals).last(static_cast<size_t>(shape.globals)));
    std::vector<float> policy(2 * static_cast<size_t>(net.config().policySize()));
    std::vector<float> values(2);
    net.evaluate(2, planes, globals, policy, values);
    return {policy, values};
  }
};

TEST(Network, EvaluatesABatchWithFiniteOutputs) {
  Fixture f;
  auto net = nn::Network::create(f.config(), 1);
  EXPECT_EQ(net->config().policySize(), f.layout.size());
  EXPECT_GT(net->parameters(), 10'000);
  const auto [policy, values] = f.evaluate(*net);
  for (float v : policy) ASSERT_TRUE(std::isfinite(v));
  for (float v : values) EXPECT_TRUE(v >= -1 && v <= 1);
}

TEST(Network, SaveAndLoadGiveTheSameOutputs) {
  Fixture f;
  auto net = nn::Network::create(f.config(3, 8), 7);
  const std::string path = tempPath("net.pt");
  net->save(path);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  auto loaded = nn::Network::load(path);
  EXPECT_EQ(loaded->config().blocks, 3);
  EXPECT_EQ(loaded->config().channels, 8);
  EXPECT_EQ(loaded->config().scenario, "duel");
  EXPECT_EQ(f.evaluate(*net), f.evaluate(*loaded));
  // Another seed gives another network.
  auto other = nn::Network::create(f.config(3, 8), 8);
  EXPECT_NE(f.evaluate(*net).first, f.evaluate(*other).first);
}

TEST(Network, RejectsFilesThatAreNotItsNetworks) {
  Fixture f;
  EXPECT_THROW(nn::Network::load(tempPath("missing.pt")), IoError);
  const std::string junk = tempPath("junk.pt");
  std::ofstream(junk) << "not a network";
  EXPECT_THROW(nn::Network::load(junk), ConfigError);
  nn::NetworkConfig old = f.config();
  old.encoder_version = nn::kEncoderVersion + 1;
  const std::string path = tempPath("future.pt");
  nn::Network::create(old, 1)->save(path);
  try {
    nn::Network::load(path);
    ADD_FAILURE() << "a network of another encoder version was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("encoder version"), std::string::npos) << e.what();
  }
}

// Where the stored bytes of the first tensor of a saved network start: the data of the zip
// entry ".../data/0" (PyTorch archives store tensors uncompressed; that one is the stem's
// convolution, thousands of floats).
size_t firstTensorOffset(const std::string& file) {
  for (size_t at = file.find("PK\x03\x04"); at != std::string::npos;
       at = file.find("PK\x03\x04", at + 4)) {
    auto u16 = [&](size_t o) {
      return static_cast<size_t>(static_cast<unsigned char>(file[at + o])) |
             static_cast<size_t>(static_cast<unsigned char>(file[at + o + 1])) << 8;
    };
    const std::string name = file.substr(at + 30, u16(26));
    if (name.size() >= 7 && name.substr(name.size() - 7) == "/data/0" && u16(8) == 0)
      return at + 30 + u16(26) + u16(28);
  }
  ADD_FAILURE() << "no tensor data found in the archive";
  return 0;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string loadError(const std::string& path) {
  try {
    nn::Network::load(path);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// Regression: a network whose weights were NaN loaded, and played every visit on the first
// action; a flipped bit in the weights went unnoticed.
TEST(Network, DamagedWeightsAreRefusedOnLoad) {
  Fixture f;
  const std::string path = tempPath("good.pt");
  nn::Network::create(f.config(), 3)->save(path);
  const std::string good = readAll(path);
  const size_t offset = firstTensorOffset(good);
  ASSERT_GT(offset, 0u);

  std::string nan = good;
  const float not_a_number = std::nanf("");
  std::memcpy(nan.data() + offset + 4, &not_a_number, sizeof(float));
  const std::string nan_path = tempPath("nan.pt");
  std::ofstream(nan_path, std::ios::binary) << nan;
  EXPECT_NE(loadError(nan_path).find("are NaN or infinite"), std::string::npos)
      << loadError(nan_path);

  std::string flipped = good;
  flipped[offset + 5] = static_cast<char>(flipped[offset + 5] ^ 0x01);
  const std::string flipped_path = tempPath("flipped.pt");
  std::ofstream(flipped_path, std::ios::binary) << flipped;
  EXPECT_NE(loadError(flipped_path).find("do not match their checksum"), std::string::npos)
      << loadError(flipped_path);

  EXPECT_EQ(loadError(path), "");
  EXPECT_EQ(nn::Network::load(path)->checksum(), nn::Network::create(f.config(), 3)->checksum());
}

// Non-finite outputs are an error, not a value of null and every visit on the first action.
TEST(Network, NonFiniteOutputsAreAnError) {
  Fixture f;
  auto net = nn::Network::create(f.config(), 1);
  const nn::ObservationShape shape = f.encoder.shape();
  std::vector<float> planes(static_cast<size_t>(shape.planeSize()), 0.0f);
  std::vector<float> globals(static_cast<size_t>(shape.globals), 0.0f);
  planes[0] = std::numeric_limits<float>::infinity();
  std::vector<float> policy(static_cast<size_t>(net->config().policySize()));
  std::vector<float> values(1);
  EXPECT_THROW(net->evaluate(1, planes, globals, policy, values), Error);
}

}  // namespace
}  // namespace morne::test

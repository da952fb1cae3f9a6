// The policy-value network (nn/network.h): shapes, value range, save and load round trip,
// and the errors for files that are not morne networks. Linked with LibTorch, so kept in its own
// test binary (each LibTorch process takes a fraction of a second to start).

#include "nn/network.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include "env/action.h"
#include "env/error.h"
#include "env/io/crc32.h"
#include "env/io/scenario_library.h"
#include "env/rng.h"
#include "env/rules.h"
#include "nn/cpu_features.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"
#include "tests/file_bytes.h"
#include "tests/nn/temp_path.h"

namespace morne::test {
namespace {

struct Fixture {
  std::shared_ptr<const env::Scenario> sc = env::loadScenario("duel");
  nn::ObservationEncoder encoder{*sc};
  nn::PolicyLayout layout{*sc};

  nn::NetworkConfig config(int blocks = 2, int channels = 16) const {
    nn::NetworkConfig c = nn::networkConfigFor(*sc);
    c.blocks = blocks;
    c.channels = channels;
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
    std::vector<float> policy(2 * static_cast<size_t>(layout.size()));
    std::vector<float> values(2);
    net.evaluate(2, shape, planes, globals, policy, values);
    return {policy, values};
  }
};

TEST(Network, EvaluatesABatchWithFiniteOutputs) {
  Fixture f;
  auto net = nn::Network::create(f.config(), 1);
  EXPECT_EQ(net->config().policySize(8, 8), f.layout.size());
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

// A network of encoder version 2 (no handicap_mine, the last global) loads as version 3 and
// computes what it did, whatever the new input holds.
TEST(Network, AnEncoderVersion2NetworkIsUpgradedAndIgnoresTheHandicap) {
  Fixture f;
  nn::NetworkConfig old = f.config(2, 8);
  old.encoder_version = 2;
  old.input.globals -= 1;
  const auto before = nn::Network::create(old, 5);
  const std::string path = tempPath("v2.pt");
  before->save(path);
  const auto after = nn::Network::load(path);
  EXPECT_EQ(after->config().encoder_version, nn::kEncoderVersion);
  EXPECT_EQ(after->config().input.globals, f.encoder.shape().globals);
  const nn::ObservationShape shape = f.encoder.shape();
  const size_t n = static_cast<size_t>(shape.globals);
  std::vector<float> planes(static_cast<size_t>(shape.planeSize()));
  std::vector<float> globals(n);
  env::GameState s = env::newGame(*f.sc);
  f.encoder.encode(s, planes, globals);
  std::vector<float> policy(static_cast<size_t>(f.layout.size())), value(1);
  nn::ObservationShape old_shape = shape;
  old_shape.globals -= 1;
  before->evaluate(1, old_shape, planes, std::span(globals).first(n - 1), policy, value);
  for (const float handicap : {-0.5f, 0.0f, 0.15f, 1.0f}) {
    globals[n - 1] = handicap;
    std::vector<float> policy2(policy.size()), value2(1);
    after->evaluate(1, shape, planes, globals, policy2, value2);
    EXPECT_EQ(policy2, policy) << "handicap " << handicap;
    EXPECT_EQ(value2, value) << "handicap " << handicap;
  }
  // Saved again (what `morne nn upgrade` does), it is a network of this encoder.
  after->save(path);
  const auto again = nn::Network::load(path);
  EXPECT_EQ(again->config().encoder_version, nn::kEncoderVersion);
  EXPECT_EQ(again->checksum(), after->checksum());
  // Older versions than the one before are refused.
  old.encoder_version = 1;
  nn::Network::create(old, 5)->save(path);
  EXPECT_THROW(nn::Network::load(path), ConfigError);
}

// Network files before format 3 have no auxiliary heads: their configs read back without them;
// a format 3 config must say.
TEST(Network, ConfigsBeforeTheAuxiliaryHeadsReadBackWithoutThem) {
  const Fixture f;
  const nn::NetworkConfig c = f.config();
  EXPECT_TRUE(c.aux_heads);
  nlohmann::json j = nn::networkConfigJson(c);
  EXPECT_EQ(j.at("format"), 4);
  EXPECT_TRUE(nn::networkConfigFromJson(j, "x.pt").aux_heads);
  j.erase("aux_heads");
  EXPECT_THROW(nn::networkConfigFromJson(j, "x.pt"), ConfigError);
  j["format"] = 2;
  EXPECT_FALSE(nn::networkConfigFromJson(j, "x.pt").aux_heads);
  // Such a network plays as before: the same outputs with or without the heads' weights.
  nn::NetworkConfig old = c;
  old.aux_heads = false;
  auto with = nn::Network::create(c, 4);
  auto without = nn::Network::create(old, 4);
  EXPECT_GT(with->parameters(), without->parameters());
  EXPECT_EQ(f.evaluate(*with), f.evaluate(*without));
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

// Gives the zip record ".../data/0" of `file` the CRC-32 of its bytes as they are now (in its
// local header, its data descriptor and the directory), so that a change to them passes the
// archive's check and reaches the network's own checks.
void refreshFirstTensorCrc(std::string& file) {
  auto u16 = [&](size_t o) {
    return static_cast<size_t>(static_cast<unsigned char>(file[o])) |
           static_cast<size_t>(static_cast<unsigned char>(file[o + 1])) << 8;
  };
  auto u32 = [&](size_t o) { return u16(o) | u16(o + 2) << 16; };
  auto put32 = [&](size_t o, uint32_t v) {
    for (int i = 0; i < 4; ++i) file[o + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  for (size_t at = file.find("PK\x01\x02"); at != std::string::npos;
       at = file.find("PK\x01\x02", at + 4)) {
    const std::string name = file.substr(at + 46, u16(at + 28));
    if (!name.ends_with("/data/0")) continue;
    const size_t local = u32(at + 42), size = u32(at + 20);
    const size_t data = local + 30 + u16(local + 26) + u16(local + 28);
    const uint32_t crc = env::crc32Of(std::string_view(file).substr(data, size));
    put32(at + 16, crc);
    if (u32(local + 14) != 0) put32(local + 14, crc);
    if (file.compare(data + size, 4, "PK\x07\x08") == 0) put32(data + size + 4, crc);
    return;
  }
  ADD_FAILURE() << "no directory entry for the first tensor";
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
  const std::string good = fileBytes(path);
  const size_t offset = firstTensorOffset(good);
  ASSERT_GT(offset, 0u);

  std::string nan = good;
  const float not_a_number = std::nanf("");
  std::memcpy(nan.data() + offset + 4, &not_a_number, sizeof(float));
  const std::string nan_path = tempPath("nan.pt");
  std::ofstream(nan_path, std::ios::binary) << nan;
  EXPECT_NE(loadError(nan_path).find("archive/data/0 does not match its CRC-32"), std::string::npos)
      << "the archive's own check comes first: " << loadError(nan_path);
  refreshFirstTensorCrc(nan);
  std::ofstream(nan_path, std::ios::binary) << nan;
  EXPECT_NE(loadError(nan_path).find("are NaN or infinite"), std::string::npos)
      << loadError(nan_path);

  std::string flipped = good;
  flipped[offset + 5] = static_cast<char>(flipped[offset + 5] ^ 0x01);
  refreshFirstTensorCrc(flipped);
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
  std::vector<float> policy(static_cast<size_t>(f.layout.size()));
  std::vector<float> values(1);
  EXPECT_THROW(net->evaluate(1, shape, planes, globals, policy, values), Error);
}

// Issue 25: self-play with a Gumbel root gave other policy targets (in their last bits) for
// --jobs 1 and 2, because a position's outputs depended on its slot in the batch (the linear
// layers' matrix product sums rows of different blocks in different orders). In inference each
// slot now gives the same bits, whatever the other slots hold.
void expectTheSameOutputsInEverySlot(const Fixture& f, nn::Network& net) {
  const env::GameState start = env::newGame(*f.sc);
  const nn::ObservationShape shape = f.encoder.shape();
  const auto p = static_cast<size_t>(shape.planeSize());
  const auto g = static_cast<size_t>(shape.globals);
  const auto q = static_cast<size_t>(f.layout.size());
  std::vector<float> one_planes(p), one_globals(g);
  f.encoder.encode(start, one_planes, one_globals);
  constexpr size_t kBatch = 16;
  std::vector<float> first_policy;
  float first_value = 0;
  for (size_t slot = 0; slot < kBatch; ++slot) {
    for (const bool companions : {false, true}) {  // zeros, or the same position, around it
      std::vector<float> planes(kBatch * p, 0.0f), globals(kBatch * g, 0.0f);
      for (size_t k = 0; k < kBatch; ++k) {
        if (k != slot && !companions) continue;
        std::copy(one_planes.begin(), one_planes.end(), planes.begin() + k * p);
        std::copy(one_globals.begin(), one_globals.end(), globals.begin() + k * g);
      }
      std::vector<float> policy(kBatch * q), values(kBatch);
      net.evaluate(kBatch, shape, planes, globals, policy, values);
      const std::vector<float> mine(policy.begin() + slot * q, policy.begin() + (slot + 1) * q);
      if (first_policy.empty()) {
        first_policy = mine;
        first_value = values[slot];
      }
      EXPECT_EQ(std::memcmp(mine.data(), first_policy.data(), q * sizeof(float)), 0)
          << "slot " << slot << (companions ? " among copies" : " among zeros");
      EXPECT_EQ(std::memcmp(&values[slot], &first_value, sizeof(float)), 0) << "slot " << slot;
    }
  }
}

TEST(Network, APositionGivesTheSameOutputsInEverySlotOfABatch) {
  Fixture f;
  auto net = nn::Network::create(f.config(2, 32), 1);
  expectTheSameOutputsInEverySlot(f, *net);
}

// The moving average the loop plays (--average-snapshots): every weight is the weighted mean
// of the snapshots' weights, computed here by hand from their values.
TEST(Network, AnAverageOfSnapshotsIsTheWeightedMeanOfTheirWeights) {
  Fixture f;
  const std::string a = tempPath("avg_a.pt"), b = tempPath("avg_b.pt"), c = tempPath("avg_c.pt");
  nn::Network::create(f.config(1, 8), 1)->save(a);
  nn::Network::create(f.config(1, 8), 2)->save(b);
  nn::Network::create(f.config(1, 16), 3)->save(c);
  const std::vector<float> wa = nn::Network::load(a)->weightValues();
  const std::vector<float> wb = nn::Network::load(b)->weightValues();
  const std::string paths[] = {a, b};
  const double weights[] = {3, 1};  // 0.75 and 0.25
  const std::unique_ptr<nn::Network> mean = nn::Network::average(paths, weights);
  const std::vector<float> wm = mean->weightValues();
  ASSERT_EQ(wm.size(), wa.size());
  for (size_t i = 0; i < wm.size(); ++i)
    ASSERT_NEAR(wm[i], 0.75f * wa[i] + 0.25f * wb[i], 1e-6f) << "weight " << i;
  // Saved and loaded, it is the same network; one snapshot's average is that snapshot.
  mean->save(tempPath("avg_mean.pt"));
  EXPECT_EQ(nn::Network::load(tempPath("avg_mean.pt"))->checksum(), mean->checksum());
  const std::string one[] = {a};
  const double unit[] = {0.4};
  EXPECT_EQ(nn::Network::average(one, unit)->weightValues(), wa);
  // Another shape, or a weight that is not positive, is refused.
  const std::string mixed[] = {a, c};
  EXPECT_THROW(nn::Network::average(mixed, weights), ConfigError);
  const double zero[] = {1, 0};
  EXPECT_THROW(nn::Network::average(paths, zero), ConfigError);
}

// The observation of `s` and what a network gives for it: policy logits (the layout of the
// network's planes on the map's grid) and value.
struct Outputs {
  std::vector<float> planes, globals, policy;
  float value = 0;
};
Outputs outputsOf(nn::Network& net, const env::GameState& s) {
  const nn::ObservationEncoder encoder(s.sc());
  const nn::ObservationShape shape = encoder.shape();
  Outputs o;
  o.planes.resize(static_cast<size_t>(shape.planeSize()));
  o.globals.resize(static_cast<size_t>(shape.globals));
  encoder.encode(s, o.planes, o.globals);
  o.policy.resize(static_cast<size_t>(net.config().policySize(shape.height, shape.width)));
  std::vector<float> value(1);
  net.evaluate(1, shape, o.planes, o.globals, o.policy, value);
  o.value = value[0];
  return o;
}

// Evaluates given observation planes of a height x width grid (globals as given).
Outputs outputsOfPlanes(nn::Network& net, int height, int width, std::vector<float> planes,
                        std::vector<float> globals) {
  nn::ObservationShape shape = net.config().input;
  shape.height = height;
  shape.width = width;
  Outputs o{std::move(planes), std::move(globals), {}, 0};
  o.policy.resize(static_cast<size_t>(net.config().policySize(height, width)));
  std::vector<float> value(1);
  net.evaluate(1, shape, o.planes, o.globals, o.policy, value);
  o.value = value[0];
  return o;
}

nn::NetworkConfig smallAnyMap() {
  nn::NetworkConfig c = nn::anyMapNetworkConfig();
  c.blocks = 2;
  c.channels = 16;
  return c;
}

// Issue 29: one network file plays every built-in map, each with its own policy shape, and
// says which it plays; a map-bound network refuses the others.
TEST(AnyMapNetwork, PlaysEveryBuiltInScenarioWithItsOwnPolicyShape) {
  auto net = nn::Network::create(smallAnyMap(), 3);
  EXPECT_TRUE(net->config().anyMap());
  EXPECT_EQ(net->config().scenario, "any");
  for (const char* name : {"duel", "pyramids", "crossing", "crossing-graded"}) {
    SCOPED_TRACE(name);
    const auto sc = env::loadScenario(name);
    EXPECT_NO_THROW(nn::checkNetworkFits(net->config(), *sc));
    const Outputs o = outputsOf(*net, env::newGame(*sc));
    EXPECT_EQ(static_cast<int>(o.policy.size()),
              nn::PolicyLayout(*sc, net->config().policy_planes).size());
    EXPECT_EQ(o.policy.size(), nn::PolicyLayout(*sc).size() + 0u);  // built-ins: guns of range 3
    for (float v : o.policy) ASSERT_TRUE(std::isfinite(v));
    EXPECT_TRUE(o.value >= -1 && o.value <= 1);
  }
  EXPECT_EQ(nn::builtinScenariosPlayed(net->config()).size(), env::builtinScenarios().size());
  const Fixture f;
  const std::vector<std::string> duel_only{"duel", "duel-unbalanced"};  // the 8x8 map
  EXPECT_EQ(nn::builtinScenariosPlayed(f.config()), duel_only);
  try {
    nn::checkNetworkFits(f.config(), *env::loadScenario("crossing"));
    ADD_FAILURE() << "a duel network accepted crossing";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot play \"crossing\" (20x14"), std::string::npos)
        << e.what();
  }
  // Fire planes that do not reach a scenario's guns are refused.
  nn::NetworkConfig short_range = smallAnyMap();
  short_range.policy_planes = env::actionPlanesForRange(2);
  EXPECT_THROW(nn::checkNetworkFits(short_range, *env::loadScenario("duel")), ConfigError);
}

// Cells outside the map change nothing: the same position's value and on-map policy whatever
// the off-map cells hold, and whatever the grid it is laid in.
TEST(AnyMapNetwork, CellsOffTheMapChangeNothing) {
  auto net = nn::Network::create(smallAnyMap(), 5);
  const auto sc = env::loadScenario("crossing");
  const Outputs whole = outputsOf(*net, env::newGame(*sc));
  const int h = sc->height(), w = sc->width(), area = h * w, planes = net->config().input.planes;
  // A map with holes: the last four columns taken off the map, then everything else on those
  // cells scrambled.
  auto off = [&](int cell) { return cell % w >= w - 4; };
  std::vector<float> holed = whole.planes;
  for (int cell = 0; cell < area; ++cell)
    if (off(cell)) holed[static_cast<size_t>(nn::kOnMapPlane * area + cell)] = 0;
  const Outputs a = outputsOfPlanes(*net, h, w, holed, whole.globals);
  std::vector<float> scrambled = holed;
  env::Rng rng(11);
  for (int p = 0; p < planes; ++p) {
    if (p == nn::kOnMapPlane) continue;
    for (int cell = 0; cell < area; ++cell) {
      if (off(cell))
        scrambled[static_cast<size_t>(p * area + cell)] = static_cast<float>(rng.uniform());
    }
  }
  const Outputs b = outputsOfPlanes(*net, h, w, scrambled, whole.globals);
  EXPECT_EQ(a.value, b.value);
  const int policy_planes = net->config().policy_planes;
  for (int p = 0; p < policy_planes; ++p) {
    for (int cell = 0; cell < area; ++cell) {
      if (off(cell)) continue;
      const auto i = static_cast<size_t>(p * area + cell);
      ASSERT_EQ(a.policy[i], b.policy[i]) << "plane " << p << ", cell " << cell;
    }
  }
  EXPECT_NE(a.value, whole.value) << "the holes are not seen";

  // The same map laid in a larger grid (2 more rows, 3 more columns off the map) gives the
  // same outputs, up to rounding.
  const int big_h = h + 2, big_w = w + 3;
  std::vector<float> padded(static_cast<size_t>(planes * big_h * big_w), 0.0f);
  for (int p = 0; p < planes; ++p)
    for (int row = 0; row < h; ++row)
      for (int col = 0; col < w; ++col)
        padded[static_cast<size_t>((p * big_h + row) * big_w + col)] =
            whole.planes[static_cast<size_t>((p * h + row) * w + col)];
  const Outputs c = outputsOfPlanes(*net, big_h, big_w, padded, whole.globals);
  EXPECT_NEAR(c.value, whole.value, 1e-5);
  for (int p = 0; p < policy_planes; ++p)
    for (int row = 0; row < h; ++row)
      for (int col = 0; col < w; ++col)
        ASSERT_NEAR(c.policy[static_cast<size_t>((p * big_h + row) * big_w + col)],
                    whole.policy[static_cast<size_t>((p * h + row) * w + col)], 1e-4);
  for (int k = 1; k <= 2; ++k)  // end, hold
    EXPECT_NEAR(c.policy[c.policy.size() - static_cast<size_t>(k)],
                whole.policy[whole.policy.size() - static_cast<size_t>(k)], 1e-4);
}

// A network trained on one map starts another: made any-map, its weights and checksum are the
// original's, it gives the original's outputs on its map and plays the others; any-map
// networks save and load as such.
TEST(AnyMapNetwork, AMapBoundNetworkMadeAnyMapKeepsItsWeightsAndOutputs) {
  const Fixture f;
  auto duel = nn::Network::create(f.config(2, 16), 9);
  const std::string path = tempPath("duel-bound.pt");
  duel->save(path);
  auto any = nn::Network::loadAsAnyMap(path);
  EXPECT_TRUE(any->config().anyMap());
  EXPECT_EQ(any->checksum(), duel->checksum());
  EXPECT_EQ(any->weightValues(), duel->weightValues());
  EXPECT_NE(any->config().provenance.find("\"any_map_from\""), std::string::npos);
  const env::GameState start = env::newGame(*f.sc);
  const Outputs before = outputsOf(*duel, start), after = outputsOf(*any, start);
  EXPECT_NEAR(after.value, before.value, 1e-5);
  for (size_t i = 0; i < before.policy.size(); ++i)
    ASSERT_NEAR(after.policy[i], before.policy[i], 1e-4) << i;
  EXPECT_NO_THROW(outputsOf(*any, env::newGame(*env::loadScenario("crossing"))));

  const std::string any_path = tempPath("duel-any.pt");
  any->save(any_path);
  auto loaded = nn::Network::load(any_path);
  EXPECT_TRUE(loaded->config().anyMap());
  EXPECT_EQ(outputsOf(*loaded, start).policy, after.policy);
  EXPECT_THROW(nn::Network::loadAsAnyMap(any_path), ConfigError);

  // A grid of 0 rows is only an any-map network's, and only from format 4 on.
  nlohmann::json j = nn::networkConfigJson(any->config());
  j["height"] = 8;
  EXPECT_THROW(nn::networkConfigFromJson(j, "x.pt"), ConfigError);
  j["height"] = 0;
  EXPECT_TRUE(nn::networkConfigFromJson(j, "x.pt").anyMap());
  j["format"] = 3;
  EXPECT_THROW(nn::networkConfigFromJson(j, "x.pt"), ConfigError);
}

// precision=bf16 (nn::Network::useBFloat16): the outputs move off float32's, by little, and a
// position still gives the same bits in every slot of a batch. Refused on a CPU without the
// instructions.
TEST(Network, BFloat16OutputsStayNearFloat32sAndDoNotDependOnTheSlot) {
  Fixture f;
  auto net = nn::Network::create(f.config(2, 32), 1);
  if (!nn::cpuHasBFloat16()) {
    EXPECT_THROW(net->useBFloat16(), ConfigError);
    GTEST_SKIP() << "this CPU has no AVX-512 BF16";
  }
  auto half = nn::Network::create(f.config(2, 32), 1);
  half->useBFloat16();
  expectTheSameOutputsInEverySlot(f, *half);
  // Positions of a game played at random, each alone.
  env::GameState s = env::newGame(*f.sc);
  env::Rng rng(5);
  env::ActionList scratch;
  double most_value = 0, most_logit = 0, any = 0;
  for (int ply = 0; ply < 60 && !s.isTerminal(); ++ply) {
    const Outputs full = outputsOf(*net, s), bf16 = outputsOf(*half, s);
    most_value = std::max(most_value, double{std::abs(full.value - bf16.value)});
    for (size_t i = 0; i < full.policy.size(); ++i) {
      const double d = std::abs(full.policy[i] - bf16.policy[i]);
      most_logit = std::max(most_logit, d / (1 + std::abs(full.policy[i])));
      any += d;
    }
    env::playRandomPly(s, rng, scratch);
  }
  EXPECT_GT(any, 0) << "the same bits as float32: bfloat16 was not used";
  EXPECT_LT(most_value, 0.05);
  EXPECT_LT(most_logit, 0.05);
  std::cout << "bf16 against fp32: value at most " << most_value << " apart, logits " << most_logit
            << " (relative)\n";
}

}  // namespace
}  // namespace morne::test

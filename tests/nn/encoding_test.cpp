// The network's view of the game (nn/observation.h, nn/policy_layout.h): shapes, value
// ranges, the mover's perspective, the policy round trip for every legal action of many random
// positions, and the documentation of every channel.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "env/agent_actions.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"

namespace morne::test {
namespace {

struct Encoded {
  std::vector<float> planes, globals;
};

Encoded encode(const nn::ObservationEncoder& enc, const env::GameState& s) {
  Encoded e{std::vector<float>(static_cast<size_t>(enc.shape().planeSize())),
            std::vector<float>(static_cast<size_t>(enc.shape().globals))};
  enc.encode(s, e.planes, e.globals);
  return e;
}

int planeOf(std::string_view name) {
  const auto names = nn::ObservationEncoder::planeNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  ADD_FAILURE() << "no plane " << name;
  return 0;
}

double planeSum(const nn::ObservationEncoder& enc, const Encoded& e, std::string_view name) {
  const int area = enc.shape().height * enc.shape().width;
  double sum = 0;
  for (int g = 0; g < area; ++g) sum += e.planes[static_cast<size_t>(planeOf(name) * area + g)];
  return sum;
}

// Visits the decision positions of a few random games.
template <typename F>
void forRandomPositions(const env::Scenario& sc, int games, F&& visit) {
  env::Rng rng(5);
  env::ActionList scratch;
  for (int g = 0; g < games; ++g) {
    env::GameState s = env::newGame(sc);
    while (!s.isTerminal()) {
      if (!s.isChanceNode()) visit(s);
      env::playRandomPly(s, rng, scratch);
    }
  }
}

TEST(Observation, ShapesAndNamesAgree) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    const nn::ObservationEncoder enc(*sc);
    EXPECT_EQ(enc.shape().planes, static_cast<int>(nn::ObservationEncoder::planeNames().size()));
    EXPECT_EQ(enc.shape().globals, static_cast<int>(nn::ObservationEncoder::globalNames().size()));
    EXPECT_EQ(enc.shape().height, sc->height());
    EXPECT_EQ(enc.shape().width, sc->width());
    std::set<int> grid;
    for (env::CellId c = 0; c < sc->numCells(); ++c) grid.insert(enc.gridIndex(c));
    EXPECT_EQ(grid.size(), static_cast<size_t>(sc->numCells())) << "two cells on one grid square";
  }
}

// A buffer of the wrong size is a bug in the caller: an always-on check (env/check.h) says so
// in Release builds too, instead of writing past the buffer.
TEST(Observation, BuffersOfTheWrongSizeAreRefusedInEveryBuild) {
  const auto sc = env::loadScenario("duel");
  const nn::ObservationEncoder enc(*sc);
  std::vector<float> planes(static_cast<size_t>(enc.shape().planeSize()) - 1);
  std::vector<float> globals(static_cast<size_t>(enc.shape().globals));
  try {
    enc.encode(env::newGame(*sc), planes, globals);
    FAIL() << "no check";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("observation.cpp:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("check `"), std::string::npos) << e.what();
  }
}

TEST(Observation, ValuesAreFiniteBoundedAndConsistent) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    const nn::ObservationEncoder enc(*sc);
    int checked = 0;
    forRandomPositions(*sc, 3, [&](const env::GameState& s) {
      const Encoded e = encode(enc, s);
      for (float v : e.planes) ASSERT_TRUE(std::isfinite(v) && v >= -1 && v <= 1);
      for (float v : e.globals) ASSERT_TRUE(std::isfinite(v) && v >= -1 && v <= 1);
      int mine = 0, theirs = 0;
      for (int u = 0; u < s.num_units; ++u) {
        if (s.onMap(u)) ++(s.sideOf(u) == s.side ? mine : theirs);
      }
      double mine_types = 0, theirs_types = 0;
      for (const char* t : {"infantry", "light_infantry", "cavalry", "foot_artillery",
                            "horse_artillery", "general", "dromedary"}) {
        mine_types += planeSum(enc, e, std::string("mine_") + t);
        theirs_types += planeSum(enc, e, std::string("theirs_") + t);
      }
      ASSERT_EQ(mine_types, mine);
      ASSERT_EQ(theirs_types, theirs);
      ++checked;
    });
    EXPECT_GT(checked, 100) << name;
    // Terrain is one-hot on every hex.
    const Encoded e = encode(enc, env::newGame(*sc));
    double terrain = 0;
    for (std::string_view n : nn::ObservationEncoder::planeNames()) {
      if (n.starts_with("terrain_")) terrain += planeSum(enc, e, n);
    }
    EXPECT_EQ(terrain, sc->numCells());
    EXPECT_EQ(planeSum(enc, e, "on_map"), sc->numCells());
  }
}

TEST(Observation, SeenFromTheSideToMove) {
  const auto sc = env::loadScenario("duel");
  const nn::ObservationEncoder enc(*sc);
  const env::GameState blue = env::newGame(*sc);
  env::GameState orange = blue;
  orange.side = 1;
  const Encoded b = encode(enc, blue), o = encode(enc, orange);
  const int area = sc->height() * sc->width();
  for (const char* pair : {"vc", "mo", "infantry", "cavalry", "general", "foot_artillery"}) {
    for (int g = 0; g < area; ++g) {
      EXPECT_EQ(b.planes[static_cast<size_t>(planeOf(std::string("mine_") + pair) * area + g)],
                o.planes[static_cast<size_t>(planeOf(std::string("theirs_") + pair) * area + g)])
          << pair;
    }
  }
  EXPECT_EQ(b.globals[6], 1.0f);  // mover_is_blue
  EXPECT_EQ(o.globals[6], 0.0f);
}

// handicap_mine: the game's handicap for the side to move, its own less the other's, / 10 VP.
TEST(Observation, TheHandicapIsSeenFromTheSideToMove) {
  const auto sc = env::loadScenario("duel");  // +1.5 VP to orange
  const nn::ObservationEncoder enc(*sc);
  const auto names = nn::ObservationEncoder::globalNames();
  const size_t at = static_cast<size_t>(
      std::find(names.begin(), names.end(), std::string_view("handicap_mine")) - names.begin());
  ASSERT_LT(at, names.size());
  env::GameState blue = env::newGame(*sc);
  env::GameState orange = blue;
  orange.side = 1;
  EXPECT_FLOAT_EQ(encode(enc, blue).globals[at], -0.15f);
  EXPECT_FLOAT_EQ(encode(enc, orange).globals[at], 0.15f);
  env::setHandicap(blue, 4);  // +2 VP to blue
  EXPECT_FLOAT_EQ(encode(enc, blue).globals[at], 0.2f);
  const auto even = env::loadScenario("duel-unbalanced");
  EXPECT_EQ(encode(nn::ObservationEncoder(*even), env::newGame(*even)).globals[at], 0.0f);
}

// Over the scenario's own planes, and over the more planes of a network made for longer fire
// ranges (an any-map network): the scenario's actions keep their entries but for the place
// plane, which is the last; the extra fire planes decode to nothing.
TEST(PolicyLayout, EveryLegalActionRoundTrips) {
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    const int own = env::actionPlanes(*sc);
    for (const int planes : {own, env::actionPlanesForRange(5)}) {
      SCOPED_TRACE(std::string(name) + ", " + std::to_string(planes) + " planes");
      const nn::PolicyLayout layout(*sc, planes);
      EXPECT_EQ(layout.planes(), planes);
      EXPECT_EQ(layout.size(), layout.planes() * sc->height() * sc->width() + 2);
      const int area = sc->height() * sc->width();
      for (int i = (own - 1) * area; i < (planes - 1) * area; ++i)
        ASSERT_FALSE(layout.action(i)) << "entry " << i << " of a fire offset out of range";
      for (env::CellId c = 0; c < sc->numCells(); ++c) {  // set-up placements: the last plane
        const int i = layout.index(env::Action::place(c));
        ASSERT_EQ(i / area, planes - 1);
        ASSERT_EQ(layout.action(i), env::Action::place(c));
      }
      std::vector<uint8_t> mask(static_cast<size_t>(layout.size()));
      long actions = 0;
      forRandomPositions(*sc, 4, [&](const env::GameState& s) {
        env::ActionList legal;
        env::agentActions(s, legal);  // the mask is over the actions agents choose from
        std::set<int> seen;
        for (const env::Action& a : legal) {
          const int i = layout.index(a);
          ASSERT_TRUE(i >= 0 && i < layout.size());
          ASSERT_EQ(layout.action(i), a);
          ASSERT_TRUE(seen.insert(i).second) << "two legal actions share an entry";
        }
        ASSERT_EQ(layout.legalMask(s, mask), static_cast<int>(legal.size()));
        int ones = 0;
        for (uint8_t m : mask) ones += m;
        ASSERT_EQ(ones, static_cast<int>(legal.size()));
        for (int i : seen) ASSERT_EQ(mask[static_cast<size_t>(i)], 1);
        actions += static_cast<long>(legal.size());
      });
      EXPECT_GT(actions, 1000) << name;
      // Every entry decodes to nothing or to an action that encodes back to it.
      for (int i = 0; i < layout.size(); ++i) {
        if (const auto a = layout.action(i)) {
          ASSERT_EQ(layout.index(*a), i);
        }
      }
      EXPECT_FALSE(layout.action(-1));
      EXPECT_FALSE(layout.action(layout.size()));
    }
  }
}

TEST(Observation, EveryChannelIsDocumented) {
  std::ifstream f(std::string(MORNE_SOURCE_DIR) + "/docs/training-data.md");
  ASSERT_TRUE(f) << "docs/training-data.md is missing";
  std::stringstream text;
  text << f.rdbuf();
  for (std::string_view n : nn::ObservationEncoder::planeNames()) {
    EXPECT_NE(text.str().find("`" + std::string(n) + "`"), std::string::npos) << n;
  }
  for (std::string_view n : nn::ObservationEncoder::globalNames()) {
    EXPECT_NE(text.str().find("`" + std::string(n) + "`"), std::string::npos) << n;
  }
  EXPECT_NE(text.str().find("encoder version " + std::to_string(nn::kEncoderVersion)),
            std::string::npos);
}

}  // namespace
}  // namespace morne::test

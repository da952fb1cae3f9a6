// Events in text and JSON from their one table (env/io/event_text.h): the table follows the
// EventType order, the protocol docs list every event with every JSON field, and the events
// self-play seldom meets read as they should.

#include "env/io/event_text.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "env/io/scenario_library.h"

namespace morne::env {
namespace {

TEST(EventText, TheTableFollowsTheEventTypesAndTheDocsListEveryField) {
  std::ifstream in(std::string(MORNE_SOURCE_DIR) + "/docs/protocol.md");
  std::stringstream docs;
  docs << in.rdbuf();
  const std::string text = docs.str();
  const size_t events = text.find("## Events");
  ASSERT_NE(events, std::string::npos);
  for (size_t i = 0; i < eventFormats().size(); ++i) {
    const EventFormat& f = eventFormats()[i];
    EXPECT_EQ(static_cast<size_t>(f.type), i) << f.name;
    // The table row whose first cell names the event.
    std::string line;
    for (size_t at = text.find("\n| `", events); at != std::string::npos && line.empty();
         at = text.find("\n| `", at + 1)) {
      const std::string row = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
      const std::string first_cell = row.substr(0, row.find('|', 1));
      if (first_cell.find("`" + std::string(f.name) + "`") != std::string::npos) line = row;
    }
    ASSERT_FALSE(line.empty()) << f.name << " is not in docs/protocol.md's events table";
    for (const EventField& field : f.fields) {
      if (!field.name) continue;
      const std::string name(field.name);
      const std::string top = name.substr(0, name.find('.'));
      EXPECT_NE(line.find("`" + top + "`"), std::string::npos)
          << f.name << ": field " << top << " is not in its docs row";
    }
  }
}

TEST(EventText, RareEventsReadAsDeclared) {
  const auto sc = loadScenario("duel");
  const CellId from = sc->cellOfLabel("0303"), to = sc->cellOfLabel("0304");
  auto event = [&](EventType t, int16_t a, int16_t b, int16_t c) {
    Event e;
    e.type = t;
    e.unit = 0;
    e.other = 4;
    e.from = from;
    e.to = to;
    e.a = a;
    e.b = b;
    e.c = c;
    return e;
  };
  const std::string u = sc->unit(0).id, o = sc->unit(4).id;
  const Event rout = event(EventType::kRout, 3, 1, 0);
  EXPECT_EQ(eventText(*sc, rout), u + " routs 0303>0304 (3 hexes), leaves the map");
  EXPECT_EQ(eventJson(*sc, rout)["end"], "left_map");
  EXPECT_EQ(eventJson(*sc, rout)["hexes"], 3);
  EXPECT_EQ(eventText(*sc, event(EventType::kRout, 0, 0, 0)), u + " routs in place at 0303");
  const Event attack = event(EventType::kFreeAttack, 5, 4, 2);
  EXPECT_EQ(eventJson(*sc, attack)["vc_lost"], 2);
  EXPECT_EQ(eventText(*sc, attack).rfind(u + " free attack on " + o + ": d6=5, ", 0), 0u);
  EXPECT_EQ(eventText(*sc, event(EventType::kPursuit, 0, 0, 0)),
            u + " pursues " + o + " 0303>0304");
  EXPECT_EQ(eventText(*sc, event(EventType::kBackInOrder, 1, 0, 0)), u + " stops its pursuit");
  EXPECT_EQ(eventJson(*sc, event(EventType::kBackInOrder, 0, 0, 0))["what"], "rallied");
  EXPECT_EQ(eventText(*sc, event(EventType::kHalt, 0, 0, 0)),
            u + " halts: no move in its next movement phase");
  EXPECT_EQ(eventText(*sc, event(EventType::kHold, 0, 0, 0)), u + " does not charge");
  EXPECT_EQ(eventText(*sc, event(EventType::kPlaced, 0, 0, 0)), u + " placed at 0304");
  const Event over = event(EventType::kGameOver, 7, 2, 0);
  EXPECT_EQ(eventText(*sc, over), "game over: blue 7 VP, orange 2 VP");
  EXPECT_EQ(eventJson(*sc, over)["vp"], (nlohmann::json{{"blue", 7}, {"orange", 2}}));
  const Event test = event(EventType::kMoraleTest, 0, 3, 1);
  EXPECT_EQ(eventText(*sc, test), u + " morale test: certain against MO 3, fails");
  EXPECT_TRUE(eventJson(*sc, test)["die"].is_null());
  EXPECT_EQ(eventJson(*sc, test)["failed"], true);
  Event owner = event(EventType::kOwnerChange, kNoSide, 0, 0);
  EXPECT_EQ(eventText(*sc, owner), "0304 now held by nobody");
  EXPECT_TRUE(eventJson(*sc, owner)["side"].is_null());
}

}  // namespace
}  // namespace morne::env

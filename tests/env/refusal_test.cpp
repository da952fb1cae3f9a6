// Refusals (env/io/refusal.h): every illegal action gets a reason code, the rule that refuses it
// and a sentence; the codes are those docs/protocol.md documents.

#include "env/io/refusal.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "env/io/notation.h"
#include "env/io/scenario_library.h"
#include "env/rules.h"

namespace morne::test {
namespace {

TEST(Refusal, EveryIllegalActionOfRandomPositionsHasAReasonARuleAndASentence) {
  const std::regex rule_id("[A-Z]+(-[A-Z]+)?-[0-9]+");
  std::set<std::string> seen;
  for (const char* name : {"duel", "crossing", "pyramids"}) {
    const auto sc = env::loadScenario(name);
    env::Rng rng(11);
    env::ActionList scratch;
    env::GameState s = env::newGame(*sc);
    int positions = 0;
    for (int ply = 0; !s.isTerminal() && positions < 25; ++ply) {
      if (ply % 7 == 0) {  // every action of the space, legal or not, in this position
        ++positions;
        for (int i = 0; i < env::actionSpaceSize(*sc); ++i) {
          const env::Action a = *env::actionFromIndex(*sc, i);
          const auto why = env::explainIllegal(s, a);
          ASSERT_EQ(!why, env::isLegal(s, a)) << name << " " << env::actionText(s, a);
          if (!why) continue;
          seen.insert(env::refusalCode(why->reason));
          EXPECT_FALSE(why->message.empty());
          if (why->reason != env::RefusalReason::kNoUnit) {
            EXPECT_TRUE(std::regex_match(why->rule, rule_id))
                << env::actionText(s, a) << ": rule \"" << why->rule << "\"";
          }
        }
      }
      env::playRandomPly(s, rng, scratch);
    }
  }
  EXPECT_GE(seen.size(), 10u) << "random positions should meet many kinds of refusal";
}

TEST(Refusal, CodesAreUniqueAndDocumentedInTheProtocol) {
  std::ifstream in(std::string(MORNE_SOURCE_DIR) + "/docs/protocol.md");
  ASSERT_TRUE(in) << "docs/protocol.md";
  std::stringstream text;
  text << in.rdbuf();
  std::set<std::string> codes;
  for (const env::RefusalReasonInfo& r : env::refusalReasons()) {
    EXPECT_TRUE(codes.insert(r.code).second) << r.code << " twice";
    EXPECT_EQ(env::refusalCode(r.reason), std::string(r.code));
    EXPECT_NE(text.str().find(std::string("| `") + r.code + "` |"), std::string::npos)
        << r.code << " is not in the refusal table of docs/protocol.md";
  }
}

}  // namespace
}  // namespace morne::test

// docs/rules-coverage.md stays true: every implementation file and test it names exists, every
// switch it names is a real rule switch, and every rule ID appears once.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "env/rule_switches.h"
#include "tests/file_bytes.h"

namespace morne::test {
namespace {

TEST(RulesCoverage, EveryReferenceIsReal) {
  const std::string root = MORNE_SOURCE_DIR;
  std::istringstream doc(fileBytes(root + "/docs/rules-coverage.md"));
  const std::regex row(R"(^\| ([A-Z]+(?:-[A-Z]+)?-[0-9]+) \| (.*) \| (.*) \| (.*) \|$)");
  const std::regex test_ref(R"(`([A-Za-z]+)\.([A-Za-z0-9_]+)` \((tests/[a-z_/]+\.cpp)\))");
  const std::regex file_ref(R"((env|cli|agents)/[a-z_]+\.(?:h|cpp))");
  const std::regex switch_ref(R"(switch `([a-z_]+)`)");
  std::set<std::string> ids;
  int tested = 0;
  for (std::string line; std::getline(doc, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const std::string id = m[1];
    EXPECT_TRUE(ids.insert(id).second) << id << " is listed twice";
    const std::string status = m[2];
    const std::string impl = m[3];
    const std::string test = m[4];
    for (std::sregex_iterator it(impl.begin(), impl.end(), file_ref), end; it != end; ++it) {
      EXPECT_TRUE(std::filesystem::exists(root + "/" + it->str())) << id << ": " << it->str();
    }
    for (const std::string* text : {&status, &impl}) {
      for (std::sregex_iterator it(text->begin(), text->end(), switch_ref), end; it != end; ++it) {
        EXPECT_TRUE(env::findRuleSwitch((*it)[1].str())) << id << ": no switch " << (*it)[1];
      }
    }
    std::smatch t;
    if (std::regex_search(test, t, test_ref)) {
      const std::string body = fileBytes(root + "/" + t[3].str());
      const std::string declaration = "TEST(" + t[1].str() + ", " + t[2].str() + ")";
      EXPECT_NE(body.find(declaration), std::string::npos)
          << id << ": " << declaration << " in " << t[3];
      ++tested;
    } else {
      EXPECT_EQ(status.rfind("not done", 0), 0u) << id << ": only a rule not done may lack a test";
    }
  }
  EXPECT_GE(ids.size(), 180u);
  EXPECT_GE(tested, 178);
}

}  // namespace
}  // namespace morne::test

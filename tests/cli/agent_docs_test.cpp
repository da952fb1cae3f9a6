// docs/agents.md, "Write your own agent", is the code that is compiled: each block marked
// <!-- file: PATH --> is the whole of that file, each marked <!-- excerpt: PATH --> is a part
// of it, word for word; and the agent it builds plays and is listed, as the text says.

#include <gtest/gtest.h>

#include <sstream>

#include "tests/cli/test_process.h"
#include "tests/file_bytes.h"

namespace morne::test {
namespace {

struct MarkedBlock {
  std::string kind;  // "file" or "excerpt"
  std::string path;
  std::string text;
  int line = 0;  // of the marker in the document
};

// The blocks of `doc` that follow a marker line "<!-- KIND: PATH -->".
std::vector<MarkedBlock> markedBlocks(const std::string& doc) {
  std::vector<MarkedBlock> out;
  std::istringstream in(doc);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    for (const std::string kind : {"file", "excerpt"}) {
      const std::string open = "<!-- " + kind + ": ";
      if (line.rfind(open, 0) != 0) continue;
      MarkedBlock b{kind, line.substr(open.size(), line.size() - open.size() - 4), "", number};
      std::getline(in, line);  // the fence
      ++number;
      while (std::getline(in, line) && line.rfind("```", 0) != 0) {
        ++number;
        b.text += line + "\n";
      }
      ++number;
      out.push_back(b);
    }
  }
  return out;
}

TEST(AgentDocs, TheWorkedExampleIsTheCodeThatIsBuilt) {
  const std::string doc = fileBytes(std::string(MORNE_SOURCE_DIR) + "/docs/agents.md");
  const std::vector<MarkedBlock> blocks = markedBlocks(doc);
  int files = 0;
  for (const MarkedBlock& b : blocks) {
    const std::string source = fileBytes(std::string(MORNE_SOURCE_DIR) + "/" + b.path);
    if (b.kind == "file") {
      EXPECT_EQ(b.text, source) << "docs/agents.md:" << b.line << " differs from " << b.path;
      ++files;
    } else {
      EXPECT_NE(source.find(b.text), std::string::npos)
          << "docs/agents.md:" << b.line << " is not in " << b.path << ":\n"
          << b.text;
    }
  }
  EXPECT_EQ(files, 2) << "agents/greedy_agent.h and agents/greedy_agent.cpp, whole";
  EXPECT_GE(blocks.size(), 4u) << "and the lines that register the kind";
}

TEST(AgentDocs, TheWorkedExamplePlaysAndIsListed) {
  const ProcessResult help = runMorne("help play");
  EXPECT_NE(help.output.find("  greedy    one ply of expectimax"), std::string::npos)
      << help.output;
  EXPECT_NE(help.output.find("dice=1"), std::string::npos) << help.output;
  const ProcessResult played =
      runMorne("play --scenario duel --blue greedy --orange random --seed 3 --quiet");
  EXPECT_EQ(played.exit_code, 0) << played.output;
  const ProcessResult bad = runMorne("play --scenario duel --blue greedy:dice=2");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("greedy: dice=2 is not an integer in 0..1"), std::string::npos)
      << bad.output;
}

}  // namespace
}  // namespace morne::test

// Shipped models by name (agents/model_library.h): a name is looked up in the model folders,
// MORNE_MODELS first; a path is used as given; an unknown name is an error that names the
// folders searched and the models found.

#include "agents/model_library.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "agents/agent_kinds.h"
#include "env/error.h"

namespace morne::agents {
namespace {

namespace fs = std::filesystem;

class ModelLibrary : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("morne-models-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    for (const char* sub : {"a", "b"}) fs::create_directories(dir_ / sub);
    std::ofstream(dir_ / "a/tiny.pt") << "a";
    std::ofstream(dir_ / "b/tiny.pt") << "b";
    std::ofstream(dir_ / "b/other.pt") << "b";
    std::ofstream(dir_ / "b/notes.txt") << "not a model";
    const std::string list = (dir_ / "a").string() + ":" + (dir_ / "b").string();
    ::setenv("MORNE_MODELS", list.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("MORNE_MODELS");
    fs::remove_all(dir_);
  }
  fs::path dir_;
};

TEST_F(ModelLibrary, NamesAreLookedUpInTheModelFoldersInOrder) {
  EXPECT_EQ(modelFile("tiny"), (dir_ / "a/tiny.pt").string());  // the first folder's
  EXPECT_EQ(modelFile("other"), (dir_ / "b/other.pt").string());
  const auto shipped = shippedModels();
  ASSERT_EQ(shipped.size(), 2u);
  EXPECT_EQ(shipped[0].first, "other");
  EXPECT_EQ(shipped[1].second, (dir_ / "a/tiny.pt").string());
  EXPECT_EQ(modelFolders().at(0), (dir_ / "a").string());
}

TEST_F(ModelLibrary, PathsAreUsedAsGiven) {
  EXPECT_EQ(modelFile("runs/x/nets/gen-001.pt"), "runs/x/nets/gen-001.pt");
  EXPECT_EQ(modelFile("tiny.pt"), "tiny.pt");
}

TEST_F(ModelLibrary, AnUnknownNameSaysWhereItLookedAndWhatItFound) {
  try {
    modelFile("crossing-big");
    FAIL() << "an unknown model name was accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("\"crossing-big\""), std::string::npos) << what;
    EXPECT_NE(what.find((dir_ / "b").string()), std::string::npos) << what;
    EXPECT_NE(what.find("other, tiny"), std::string::npos) << what;
  }
  // Through an agent spec, before any network is loaded.
  try {
    makeAgent("az:model=crossing-big,sims=4", 1);
    FAIL() << "an agent of an unknown model was made";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("no shipped model"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace morne::agents

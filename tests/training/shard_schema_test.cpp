// The shard schema declared once (training/shard_schema.h): the docs list every dataset with
// its element type, every dataset is written, and a journal's records carry exactly the
// schema's values.

#include "training/shard_schema.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace morne::training {
namespace {

std::string docsText() {
  std::ifstream in(std::string(MORNE_SOURCE_DIR) + "/docs/training-data.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ShardSchema, TheDocsListEveryDatasetWithItsType) {
  const std::string docs = docsText();
  ASSERT_FALSE(docs.empty());
  const size_t shards = docs.find("## Shard files");
  ASSERT_NE(shards, std::string::npos);
  for (const ShardDataset& d : shardDatasets()) {
    // The dataset's table: "/positions (..." or "/games (...", after the section's start.
    const size_t table = docs.find(std::string("`/") + d.group + "`", shards);
    ASSERT_NE(table, std::string::npos) << d.group;
    bool listed = false;
    for (size_t at = docs.find("`" + std::string(d.name) + "`", table);
         at != std::string::npos && !listed;
         at = docs.find("`" + std::string(d.name) + "`", at + 1)) {
      const size_t line_start = docs.rfind('\n', at) + 1;
      const std::string line = docs.substr(line_start, docs.find('\n', at) - line_start);
      listed = line.starts_with("|") && line.find("| " + elementTypeName(d)) != std::string::npos;
    }
    EXPECT_TRUE(listed) << d.group << "/" << d.name << " (" << elementTypeName(d)
                        << ") is not in docs/training-data.md's table";
  }
  for (const ShardAttribute& a : shardAttributes())
    EXPECT_NE(docs.find("`" + std::string(a.name) + "`", shards), std::string::npos) << a.name;
}

TEST(ShardSchema, NamesAreUniqueWithinAGroupAndTheSchemaJsonListsThemAll) {
  std::set<std::string> paths;
  for (const ShardDataset& d : shardDatasets())
    EXPECT_TRUE(paths.insert(std::string(d.group) + "/" + d.name).second) << d.name;
  const nlohmann::json schema = shardSchemaJson();
  ASSERT_EQ(schema.at("datasets").size(), paths.size());
  for (const nlohmann::json& d : schema.at("datasets"))
    EXPECT_EQ(paths.count(d.at("path").get<std::string>()), 1u) << d.dump();
  EXPECT_EQ(schema.at("format"), kShardFormat);
  EXPECT_EQ(schema.at("attributes").size(), shardAttributes().size() + 2);
}

TEST(ShardSchema, ShapesFollowTheRowShape) {
  const RowShape shape{96, 8, 8, 21, 3522};
  for (const ShardDataset& d : shardDatasets()) {
    const std::vector<uint64_t> dims = rowDims(d, shape);
    const std::string text = shapeText(d);
    EXPECT_EQ(std::count(text.begin(), text.end(), ','), static_cast<long>(dims.size())) << text;
    if (d.extent == RowExtent::kPlanes) {
      EXPECT_EQ(dims, (std::vector<uint64_t>{96, 8, 8}));
    }
    if (d.extent == RowExtent::kPolicy) {
      EXPECT_EQ(dims, (std::vector<uint64_t>{3522}));
    }
  }
}

}  // namespace
}  // namespace morne::training

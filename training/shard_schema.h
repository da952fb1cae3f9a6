#pragma once
// The self-play shard's schema, declared once (docs/training-data.md, "Shard files"): every
// file attribute and every dataset, with the GameData / ShardInfo member it holds, its element
// type (the member's own) and its shape. The HDF5 writer (shard_file.cpp), both readers
// (shard_reader.cpp), the crash journal (game_journal.cpp), `morne data schema` and the checks
// on scripts/read_shard.py and the docs all follow from these tables.

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "nn/learner.h"
#include "training/record.h"
#include "training/shard_info.h"

namespace morne::training {

// A dataset's values in a GameData: a vector member holds one value (or one row of values) per
// recorded position; a scalar member holds the game's one value (in /games), or, in
// /positions, the game's value repeated on each of its rows (the rows' game id).
using ShardField =
    std::variant<std::vector<float> GameData::*, std::vector<uint8_t> GameData::*,
                 std::vector<int32_t> GameData::*, uint64_t GameData::*, int32_t GameData::*,
                 int16_t GameData::*, int8_t GameData::*, uint8_t GameData::*>;

// The element type of a ShardField's member: T for a T member and for a std::vector<T> one.
template <typename Member>
struct ShardElement;
template <typename T>
struct ShardElement<T GameData::*> {
  using type = T;
};
template <typename T>
struct ShardElement<std::vector<T> GameData::*> {
  using type = T;
};

// What the learner reads of a dataset (readShardRows), or nothing.
using BatchField = std::variant<std::monostate, std::vector<float> nn::TrainingBatch::*,
                                std::vector<uint8_t> nn::TrainingBatch::*>;

// The values of one row beyond the first (row) dimension.
enum class RowExtent {
  kOne,       // a single value
  kPlanes,    // [C, H, W]: the observation planes
  kGlobals,   // [G]: the global features
  kPolicy,    // [P]: one value per policy entry
  kBoard,     // [H, W]: one value per square of the grid
  kHorizons,  // [K]: one value per horizon of kShortValueHorizons
};

inline constexpr const char* kPositionsGroup = "positions";
inline constexpr const char* kGamesGroup = "games";

struct ShardDataset {
  const char* group;  // kPositionsGroup (a row per position) or kGamesGroup (a row per game)
  const char* name;
  ShardField field;
  RowExtent extent;
  BatchField batch;     // where readShardRows() puts it
  const char* meaning;  // one line for the docs and `morne data schema`
  int since = 1;        // the format version that added it
  // A dataset added later: the dataset whose values stand in for it in older files, and in a
  // GameData that leaves it empty; kUnknown: NaN stands in (a float dataset's "no target").
  const char* stand_in = nullptr;
};

// The stand-in of a dataset whose values, where a file or a game lacks them, are unknown: NaN.
inline constexpr const char* kUnknown = "unknown";

// Every dataset, /positions first, in the order they are written.
std::span<const ShardDataset> shardDatasets();

// A file attribute taken from ShardInfo (format and format_version are written by the format).
struct ShardAttribute {
  const char* name;
  std::variant<std::string ShardInfo::*, int ShardInfo::*> field;
  const char* meaning;
};
std::span<const ShardAttribute> shardAttributes();

// The dataset's element type as numpy names it: "float32", "uint8", "int16", ...
std::string elementTypeName(const ShardDataset& d);
// The element's size in bytes.
size_t elementBytes(const ShardDataset& d);
// The dataset's dimensions after its rows for rows of `shape` (empty for one value a row).
std::vector<uint64_t> rowDims(const ShardDataset& d, const RowShape& shape);
// Its shape as the docs write it: "[rows, C, H, W]", "[rows]", "[games]".
std::string shapeText(const ShardDataset& d);

// The dataset named `name` of `group`; nullptr when there is none.
const ShardDataset* shardDataset(const char* group, const std::string& name);

// The values of dataset `d` in `g` (a vector member, rows of `shape`): the member itself, or,
// when `g` leaves it empty, its stand-in's values, or NaN in `scratch` for a stand-in of
// kUnknown. Nothing is copied but the NaN.
template <typename T>
const std::vector<T>& shardValues(const GameData& g, const ShardDataset& d,
                                  std::vector<T> GameData::*member, const RowShape& shape,
                                  std::vector<T>& scratch) {
  if (!(g.*member).empty() || !d.stand_in || g.rows == 0) return g.*member;
  if (std::string(d.stand_in) == kUnknown) {
    size_t n = static_cast<size_t>(g.rows);
    for (uint64_t dim : rowDims(d, shape)) n *= static_cast<size_t>(dim);
    if constexpr (std::is_floating_point_v<T>)
      scratch.assign(n, std::nan(""));
    else
      scratch.assign(n, T{});
    return scratch;
  }
  const ShardDataset* stand_in = shardDataset(d.group, d.stand_in);
  return g.*std::get<std::vector<T> GameData::*>(stand_in->field);
}

// The schema as JSON: format, version, attributes, and each dataset's group, name, type,
// shape and meaning (`morne data schema`; scripts/read_shard.py is checked against it).
nlohmann::json shardSchemaJson();

}  // namespace morne::training

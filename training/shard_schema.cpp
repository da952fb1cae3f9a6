#include "training/shard_schema.h"

#include <type_traits>

namespace morne::training {

namespace {

using nn::TrainingBatch;

static_assert(kShortValueHorizons.size() == nn::kShortValueOutputs,
              "one short-term value head per horizon");

constexpr ShardDataset kDatasets[] = {
    {kPositionsGroup, "planes", &GameData::planes, RowExtent::kPlanes, &TrainingBatch::planes,
     "the observation from the side to move"},
    {kPositionsGroup, "globals", &GameData::globals, RowExtent::kGlobals, &TrainingBatch::globals,
     "its global features"},
    {kPositionsGroup, "policy", &GameData::policy, RowExtent::kPolicy, &TrainingBatch::policy,
     "the policy target: the share of the root visits (PUCT), or the improved policy of a "
     "Gumbel search; one-hot on the action played for agents that do not search; 0 on illegal "
     "entries; sums to 1"},
    {kPositionsGroup, "legal", &GameData::legal, RowExtent::kPolicy, &TrainingBatch::legal,
     "1 at the actions agents choose from (the legal actions less the steps back, "
     "`env/agent_actions.h`)"},
    {kPositionsGroup, "value", &GameData::value, RowExtent::kOne, &TrainingBatch::value,
     "the game's final result for the side to move: +1 won, 0 drawn, -1 lost"},
    {kPositionsGroup, "search_value", &GameData::search_value, RowExtent::kOne,
     &TrainingBatch::search_value,
     "the search's root value there for the side to move, in [-1, 1]; the game's result "
     "(`value`) for agents that do not search, and in version 1 files",
     2, "value"},
    {kPositionsGroup, "teacher_value", &GameData::teacher_value, RowExtent::kOne,
     &TrainingBatch::teacher_value,
     "the value teacher's root value there for the side to move, in [-1, 1] (selfplay "
     "--value-teacher: a distillation target; NaN: no teacher, or it did not search)",
     5, kUnknown},
    {kPositionsGroup, "margin", &GameData::margin, RowExtent::kOne, &TrainingBatch::margin,
     "the final victory-point difference, the side to move's minus the other's (NaN: unknown, "
     "in older files)",
     3, kUnknown},
    {kPositionsGroup, "control", &GameData::control, RowExtent::kBoard, &TrainingBatch::control,
     "the final control of each square of the grid: +1 a unit of the side to move stands there "
     "or it owns the empty hex (tracked hex or fort), -1 likewise for the other side, 0 neither "
     "or off the map (NaN: unknown)",
     3, kUnknown},
    {kPositionsGroup, "short_value", &GameData::short_value, RowExtent::kHorizons,
     &TrainingBatch::short_value,
     "the short-term values for the side to move, one per horizon of 6, 16 and 50 decisions: "
     "exponential averages of the root values to come, the result after the last decision "
     "(NaN: unknown)",
     3, kUnknown},
    {kPositionsGroup, "game", &GameData::id, RowExtent::kOne, {}, "the game's id"},
    {kPositionsGroup,
     "move",
     &GameData::move,
     RowExtent::kOne,
     {},
     "the decision's number in its game, from 0 (unrecorded cheap decisions count)"},
    {kPositionsGroup,
     "phase",
     &GameData::phase,
     RowExtent::kOne,
     {},
     "0 set-up, 1 bombardment, 2 movement, 3 combat, 4 game over"},
    {kPositionsGroup,
     "side",
     &GameData::side,
     RowExtent::kOne,
     {},
     "side to move: 0 blue, 1 orange"},
    {kGamesGroup, "id", &GameData::id, RowExtent::kOne, {}, "the game's number in the run"},
    {kGamesGroup,
     "seed",
     &GameData::seed,
     RowExtent::kOne,
     {},
     "the game's seed (dice and agents)"},
    {kGamesGroup, "winner", &GameData::winner, RowExtent::kOne, {}, "0 blue, 1 orange, -1 draw"},
    {kGamesGroup,
     "vp_blue",
     &GameData::vp_blue,
     RowExtent::kOne,
     {},
     "blue's victory points at the end"},
    {kGamesGroup,
     "vp_orange",
     &GameData::vp_orange,
     RowExtent::kOne,
     {},
     "orange's victory points at the end"},
    {kGamesGroup,
     "handicap_half",
     &GameData::handicap_half,
     RowExtent::kOne,
     {},
     "the game's victory-point handicap in half points, + to blue, - to orange: the "
     "scenario's, or the one the game drew (--handicap-spread); 0 in older files",
     4},
    {kGamesGroup,
     "level",
     &GameData::level,
     RowExtent::kOne,
     {},
     "victory level (0 draw .. 4 total victory; 0 for a resignation)"},
    {kGamesGroup,
     "end",
     &GameData::end,
     RowExtent::kOne,
     {},
     "0 the rules ended it, 1 resignation, 2 adjudication"},
    {kGamesGroup, "plies", &GameData::plies, RowExtent::kOne, {}, "decisions and chance outcomes"},
    {kGamesGroup, "decisions", &GameData::decisions, RowExtent::kOne, {}, "decisions alone"},
    {kGamesGroup, "positions", &GameData::rows, RowExtent::kOne, {}, "its recorded rows"},
};

const ShardAttribute kAttributes[] = {
    {"encoder_version", &ShardInfo::encoder_version,
     "the observation and policy encoding (nn/observation.h)"},
    {"scenario", &ShardInfo::scenario, "built-in scenario name (or the scenario file's name)"},
    {"blue_agent", &ShardInfo::blue_agent, "blue's agent spec"},
    {"orange_agent", &ShardInfo::orange_agent, "orange's agent spec"},
    {"config", &ShardInfo::config, "the run's settings as JSON"},
    {"engine", &ShardInfo::engine, "morne version and git revision"},
};

template <typename T>
const char* numpyName() {
  if constexpr (std::is_same_v<T, float>) {
    return "float32";
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return "uint8";
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return "int8";
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return "int16";
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return "int32";
  } else {
    static_assert(std::is_same_v<T, uint64_t>, "an element type the shard schema does not use");
    return "uint64";
  }
}

}  // namespace

std::span<const ShardDataset> shardDatasets() { return kDatasets; }

const ShardDataset* shardDataset(const char* group, const std::string& name) {
  for (const ShardDataset& d : kDatasets)
    if (std::string(d.group) == group && name == d.name) return &d;
  return nullptr;
}

std::span<const ShardAttribute> shardAttributes() { return kAttributes; }

std::string elementTypeName(const ShardDataset& d) {
  return std::visit(
      [](auto member) {
        return std::string(numpyName<typename ShardElement<decltype(member)>::type>());
      },
      d.field);
}

size_t elementBytes(const ShardDataset& d) {
  return std::visit(
      [](auto member) { return sizeof(typename ShardElement<decltype(member)>::type); }, d.field);
}

std::vector<uint64_t> rowDims(const ShardDataset& d, const RowShape& s) {
  switch (d.extent) {
    case RowExtent::kOne:
      return {};
    case RowExtent::kPlanes:
      return {static_cast<uint64_t>(s.planes), static_cast<uint64_t>(s.height),
              static_cast<uint64_t>(s.width)};
    case RowExtent::kGlobals:
      return {static_cast<uint64_t>(s.globals)};
    case RowExtent::kPolicy:
      return {static_cast<uint64_t>(s.policy)};
    case RowExtent::kBoard:
      return {static_cast<uint64_t>(s.height), static_cast<uint64_t>(s.width)};
    case RowExtent::kHorizons:
      return {kShortValueHorizons.size()};
  }
  return {};
}

std::string shapeText(const ShardDataset& d) {
  const std::string rows = d.group == std::string(kGamesGroup) ? "games" : "rows";
  switch (d.extent) {
    case RowExtent::kOne:
      return "[" + rows + "]";
    case RowExtent::kPlanes:
      return "[" + rows + ", C, H, W]";
    case RowExtent::kGlobals:
      return "[" + rows + ", G]";
    case RowExtent::kPolicy:
      return "[" + rows + ", P]";
    case RowExtent::kBoard:
      return "[" + rows + ", H, W]";
    case RowExtent::kHorizons:
      return "[" + rows + ", " + std::to_string(kShortValueHorizons.size()) + "]";
  }
  return "";
}

nlohmann::json shardSchemaJson() {
  nlohmann::json attributes = nlohmann::json::array();
  attributes.push_back({{"name", "format"}, {"type", "string"}, {"value", kShardFormat}});
  attributes.push_back({{"name", "format_version"},
                        {"type", "integer"},
                        {"value", kShardFormatVersion},
                        {"oldest_read", kOldestShardFormatVersion}});
  for (const ShardAttribute& a : kAttributes) {
    const bool text = std::holds_alternative<std::string ShardInfo::*>(a.field);
    attributes.push_back(
        {{"name", a.name}, {"type", text ? "string" : "integer"}, {"meaning", a.meaning}});
  }
  nlohmann::json datasets = nlohmann::json::array();
  for (const ShardDataset& d : kDatasets) {
    datasets.push_back({{"path", std::string(d.group) + "/" + d.name},
                        {"type", elementTypeName(d)},
                        {"shape", shapeText(d)},
                        {"since", d.since},
                        {"meaning", d.meaning}});
  }
  return {{"format", kShardFormat},
          {"format_version", kShardFormatVersion},
          {"attributes", attributes},
          {"datasets", datasets}};
}

}  // namespace morne::training

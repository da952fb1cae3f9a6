#include "training/train_record.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "core/version.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/text_file.h"
#include "training/train_options.h"

namespace morne::training {

namespace {

using nlohmann::json;

constexpr const char* kRecordFormat = "morne-train-run/1";

}  // namespace

void writeTrainRecord(const std::string& dir, const TrainSettings& settings,
                      const NetworkSource& source) {
  json fields = env::optionsJson<TrainSettings>(trainOptionRows(), settings);
  fields["data"] = settings.data_dirs;
  const json record = {{"format", kRecordFormat},
                       {"settings", fields},
                       {"network", env::optionsJson<NetworkSource>(networkOptionRows(), source)},
                       {"engine", core::versionLine()}};
  env::writeFileDurably(dir + "/train.json", record.dump(2) + "\n");
}

nlohmann::json withLegacyTrainDefaults(const nlohmann::json& settings) {
  // Settings added since format 1 began, with the values that give the runs made before them
  // what they did.
  json out = {{"q_ratio", 0.0},           {"level_ratio", 0.0},  {"shares", ""},
              {"margin_weight", 0.0},     {"margin_scale", 5.0}, {"control_weight", 0.0},
              {"short_value_weight", 0.0}};
  if (settings.is_object()) out.update(settings);
  return out;
}

nlohmann::json withLegacyNetworkDefaults(const nlohmann::json& network) {
  json out = {{"any_map", false}};
  if (network.is_object()) out.update(network);
  return out;
}

void readTrainRecord(const std::string& dir, TrainSettings& settings, NetworkSource& source) {
  const std::string where = dir + "/train.json";
  const json record = json::parse(env::readTextFile(where, "training run record"), nullptr, false);
  if (!record.is_object() || record.value("format", "") != kRecordFormat)
    throw ConfigError(where + ": not the record of a training run");
  env::readOptionsJson<TrainSettings>(where, withLegacyTrainDefaults(record.at("settings")),
                                      trainOptionRows(), settings);
  env::readOptionsJson<NetworkSource>(where, withLegacyNetworkDefaults(record.at("network")),
                                      networkOptionRows(), source);
  settings.data_dirs = record.at("settings").at("data").get<std::vector<std::string>>();
}

}  // namespace morne::training

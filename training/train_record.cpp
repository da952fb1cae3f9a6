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
  json fields = trainSettingsJson(settings);
  fields["data"] = settings.data_dirs;
  const json record = {{"format", kRecordFormat},
                       {"settings", fields},
                       {"network", env::optionsJson<NetworkSource>(networkOptionRows(), source)},
                       {"engine", core::versionLine()}};
  env::writeFileDurably(dir + "/train.json", record.dump(2) + "\n");
}

void readTrainRecord(const std::string& dir, TrainSettings& settings, NetworkSource& source) {
  const std::string where = dir + "/train.json";
  const json record = json::parse(env::readTextFile(where, "training run record"), nullptr, false);
  if (!record.is_object() || record.value("format", "") != kRecordFormat)
    throw ConfigError(where + ": not the record of a training run");
  readTrainSettingsJson(where, record.at("settings"), settings);
  env::readOptionsJson<NetworkSource>(where, record.at("network"), networkOptionRows(), source);
  settings.data_dirs = record.at("settings").at("data").get<std::vector<std::string>>();
}

}  // namespace morne::training

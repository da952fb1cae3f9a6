#include "training/training_curves.h"

#include <cmath>
#include <map>
#include <sstream>
#include <vector>

#include "core/line_chart.h"
#include "core/number_text.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/text_file.h"

namespace morne::training {

std::string lossReportText(const nn::LossReport& r) {
  return "policy " + core::fixedText(r.policy_loss, 3) + " (uniform " +
         core::fixedText(r.policy_baseline, 3) + ") top-1 " +
         core::fixedText(100 * r.policy_top1, 1) + "%, value " + core::fixedText(r.value_loss, 3) +
         " (0: " + core::fixedText(r.value_baseline, 3) + ") sign " +
         core::fixedText(100 * r.value_sign, 1) + "%";
}

namespace {

std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

}  // namespace

std::string trainingCurvesSvg(const std::string& metrics_csv) {
  std::istringstream in(metrics_csv);
  std::string line;
  std::getline(in, line);
  std::map<std::string, size_t> column;
  const std::vector<std::string> header = splitCsv(line);
  for (size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<double> values;
    for (const std::string& cell : splitCsv(line))
      values.push_back(cell.empty() ? NAN : std::strtod(cell.c_str(), nullptr));
    values.resize(header.size(), NAN);
    rows.push_back(std::move(values));
  }
  auto series = [&](const std::string& name, const std::string& key, const std::string& color,
                    bool dashed = false) {
    const auto it = column.find(key);
    if (it == column.end()) throw ConfigError("metrics.csv has no column " + key);
    core::ChartSeries s{name, {}, color, dashed};
    for (const auto& r : rows) s.points.emplace_back(r[column.at("step")], r[it->second]);
    return s;
  };
  const std::string train = "#1f77b4", validation = "#d62728", baseline = "#7f7f7f";
  return core::lineChartSvg({
      {"policy loss (cross-entropy, nats)",
       "step",
       {series("training", "train_policy_loss", train),
        series("validation", "val_policy_loss", validation),
        series("uniform over legal actions", "val_policy_baseline", baseline, true)}},
      {"value loss (squared error)",
       "step",
       {series("training", "train_value_loss", train),
        series("validation", "val_value_loss", validation),
        series("predicting 0", "val_value_baseline", baseline, true)}},
      {"agreement",
       "step",
       {series("policy top-1, training", "train_policy_top1", train),
        series("policy top-1, validation", "val_policy_top1", validation),
        series("value sign, training", "train_value_sign", "#2ca02c"),
        series("value sign, validation", "val_value_sign", "#9467bd")}},
  });
}

void writeTrainingCurves(const std::string& run_dir) {
  const std::string path = run_dir + "/metrics.csv";
  const std::string csv = env::readTextFile(path, "metrics file", size_t{1} << 30);
  std::string svg;
  try {
    svg = trainingCurvesSvg(csv);
  } catch (const ConfigError& e) {
    throw ConfigError(path + ": damaged: " + e.what());
  }
  env::writeFileDurably(run_dir + "/curves.svg", svg);
}

}  // namespace morne::training

#include "training/training_curves.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

#include "core/line_chart.h"
#include "core/number_text.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/text_file.h"
#include "training/train_run.h"

namespace morne::training {

std::string lossReportText(const nn::LossReport& r) {
  std::string text = "policy " + core::fixedText(r.policy_loss, 3) + " (uniform " +
                     core::fixedText(r.policy_baseline, 3) + ") top-1 " +
                     core::fixedText(100 * r.policy_top1, 1) + "%, value " +
                     core::fixedText(r.value_loss, 3) +
                     " (0: " + core::fixedText(r.value_baseline, 3) + ") sign " +
                     core::fixedText(100 * r.value_sign, 1) + "%";
  const std::tuple<const char*, double, double> heads[] = {
      {"margin", r.margin_loss, r.margin_baseline},
      {"control", r.control_loss, r.control_baseline},
      {"short value", r.short_value_loss, r.short_value_baseline}};
  for (const auto& [name, loss, baseline] : heads) {
    if (loss > 0) {
      text += std::string(", ") + name + " " + core::fixedText(loss, 3) +
              " (0: " + core::fixedText(baseline, 3) + ")";
    }
  }
  return text;
}

std::string trainingCurvesSvg(const std::string& metrics_csv) {
  std::istringstream in(metrics_csv);
  std::string line;
  std::getline(in, line);
  std::map<std::string, size_t> column;
  const std::vector<std::string> header = metricsCells(line);
  for (size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<double> values;
    for (const std::string& cell : metricsCells(line))
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
  std::vector<core::ChartPanel> panels = {
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
  };
  // The auxiliary heads that were trained (a loss above 0 somewhere; files of earlier runs have
  // no such columns).
  const std::pair<const char*, const char*> heads[] = {
      {"margin", "margin loss (squared error, scaled)"},
      {"control", "final control loss (squared error a square)"},
      {"short_value", "short-term value loss (squared error)"}};
  for (const auto& [head, title] : heads) {
    const std::string key = std::string("train_") + head + "_loss";
    const auto it = column.find(key);
    if (it == column.end() ||
        std::none_of(rows.begin(), rows.end(), [&](const auto& r) { return r[it->second] > 0; }))
      continue;
    panels.push_back(
        {title,
         "step",
         {series("training", key, train),
          series("validation", std::string("val_") + head + "_loss", validation),
          series("predicting 0", std::string("val_") + head + "_baseline", baseline, true)}});
  }
  return core::lineChartSvg(panels);
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

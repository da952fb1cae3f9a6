#pragma once
// curves.svg of a training run: metrics.csv (training/train_run.h) drawn as three panels,
// policy loss, value loss and agreement, each beside its baseline (docs/training.md).

#include <string>

namespace morne::cli {

// The chart of the text of a metrics.csv. Throws ConfigError when a column is missing.
std::string trainingCurvesSvg(const std::string& metrics_csv);

// Redraws RUN/curves.svg from RUN/metrics.csv (durably). Throws IoError.
void writeTrainingCurves(const std::string& run_dir);

}  // namespace morne::cli

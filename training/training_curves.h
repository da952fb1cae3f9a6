#pragma once
// How a training run's metrics read: one line of text per loss report, and curves.svg, the
// run's metrics.csv (training/train_run.h) drawn as three panels, policy loss, value loss and
// agreement, each beside its baseline (docs/training.md).

#include <string>

#include "nn/learner.h"

namespace morne::training {

// "policy 1.718 (uniform 2.267) top-1 56.0%, value 0.341 (0: 0.908) sign 89.3%".
std::string lossReportText(const nn::LossReport& r);

// The chart of the text of a metrics.csv. Throws ConfigError when a column is missing.
std::string trainingCurvesSvg(const std::string& metrics_csv);

// Redraws RUN/curves.svg from RUN/metrics.csv (durably). Throws IoError.
void writeTrainingCurves(const std::string& run_dir);

}  // namespace morne::training

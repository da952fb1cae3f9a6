#include "training/train_run.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/text_file.h"
#include "env/rng.h"

namespace morne::training {

void mixValueTargets(nn::TrainingBatch& batch, double q_ratio) {
  if (q_ratio <= 0 || batch.search_value.size() != batch.value.size()) return;
  for (size_t i = 0; i < batch.value.size(); ++i) {
    batch.value[i] =
        static_cast<float>((1 - q_ratio) * batch.value[i] + q_ratio * batch.search_value[i]);
  }
}

void mixVictoryLevels(nn::TrainingBatch& batch, double level_ratio) {
  if (level_ratio <= 0 || batch.margin.size() != batch.value.size()) return;
  for (size_t i = 0; i < batch.value.size(); ++i) {
    if (std::isnan(batch.margin[i])) continue;
    const double level = std::clamp(batch.margin[i] / kTotalVictoryMargin, -1.0, 1.0);
    batch.value[i] = static_cast<float>((1 - level_ratio) * batch.value[i] + level_ratio * level);
  }
}

namespace {

using nlohmann::json;

constexpr const char* kCheckpointFormat = "morne-train/1";
// The seed stream of the batch-norm calibration sample (the data stream's fills use 0, 1, ...
// through deriveSeed(seed, fill); this one lies far beyond any fill number).
constexpr uint64_t kCalibrationStream = uint64_t{1} << 62;

// Sums of reports weighted by their rows, for the means of a stretch of steps: the rows, then
// each figure of nn::lossFigures() times its rows.
struct ReportSum {
  std::vector<double> sums = std::vector<double>(1 + nn::lossFigures().size(), 0.0);

  void add(const nn::LossReport& r) {
    const double n = r.rows;
    sums[0] += n;
    size_t k = 1;
    for (const nn::LossFigure& f : nn::lossFigures()) sums[k++] += n * r.*f.member;
  }

  nn::LossReport mean() const {
    nn::LossReport r;
    if (sums[0] == 0) return r;
    r.rows = static_cast<int>(sums[0]);
    size_t k = 1;
    for (const nn::LossFigure& f : nn::lossFigures()) r.*f.member = sums[k++] / sums[0];
    return r;
  }

  json toJson() const { return sums; }
  // From toJson(); a checkpoint written before later figures existed holds fewer (they are 0).
  static ReportSum fromJson(const json& j) {
    ReportSum s;
    for (size_t i = 0; i < std::min(j.size(), s.sums.size()); ++i)
      s.sums[i] = j.at(i).get<double>();
    return s;
  }
};

json reportJson(const nn::LossReport& r) {
  json j = json::object();
  for (const nn::LossFigure& f : nn::lossFigures()) j[f.name] = r.*f.member;
  return j;
}

// The report of `rows` in evaluation mode, in batches of `batch`.
nn::LossReport measureAll(nn::Learner& learner, const nn::TrainingBatch& rows, int batch) {
  ReportSum sum;
  double weight_norm = 0;
  for (int first = 0; first < rows.size; first += batch) {
    nn::TrainingBatch part;
    appendRows(rows, first, std::min(rows.size, first + batch) - first, part);
    const nn::LossReport report = learner.measure(part);
    sum.add(report);
    weight_norm = report.weight_norm;
  }
  nn::LossReport mean = sum.mean();
  mean.weight_norm = weight_norm;
  return mean;
}

// Keeps the header and the rows of metrics.csv up to `step` (rows written after the checkpoint
// a run resumes from would otherwise appear twice). A file of an earlier morne, whose columns
// are fewer, is rewritten with today's header, the columns it lacks left empty.
void truncateMetrics(const std::string& path, int64_t step) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    env::writeFileDurably(path, metricsCsvHeader());
    return;
  }
  std::istringstream in(env::readTextFile(path, "metrics file", size_t{1} << 30));
  const std::vector<std::string> columns =
      metricsCells(metricsCsvHeader().substr(0, metricsCsvHeader().size() - 1));
  std::vector<int> source;  // for each of today's columns, the file's, or -1
  std::string kept = metricsCsvHeader(), line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (number == 1) {
      const std::vector<std::string> had = metricsCells(line);
      for (const std::string& c : columns) {
        const auto it = std::find(had.begin(), had.end(), c);
        source.push_back(it == had.end() ? -1 : static_cast<int>(it - had.begin()));
      }
      const bool subset = std::all_of(had.begin(), had.end(), [&](const std::string& c) {
        return std::find(columns.begin(), columns.end(), c) != columns.end();
      });
      if (had.empty() || had.front() != "step" || !subset)
        throw ConfigError(path + ":1: damaged (not the header of a metrics file)");
      continue;
    }
    if (line.empty()) continue;
    int64_t row_step = 0;
    const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), row_step);
    if (error != std::errc() || *end != ',')
      throw ConfigError(path + ":" + std::to_string(number) + ": not a metrics row");
    if (row_step > step) continue;
    const std::vector<std::string> cells = metricsCells(line);
    for (size_t i = 0; i < source.size(); ++i) {
      if (i > 0) kept += ",";
      if (source[i] >= 0 && static_cast<size_t>(source[i]) < cells.size()) kept += cells[source[i]];
    }
    kept += "\n";
  }
  env::writeFileDurably(path, kept);
}

}  // namespace

nn::LearnerConfig TrainSettings::learnerConfig() const {
  nn::LearnerConfig c;
  if (optimizer == "sgd") {
    c.optimizer = nn::OptimizerKind::kSgd;
  } else if (optimizer == "adamw") {
    c.optimizer = nn::OptimizerKind::kAdamW;
  } else {
    throw ConfigError("unknown optimizer \"" + optimizer + "\" (available: sgd, adamw)");
  }
  c.learning_rate = learning_rate;
  c.momentum = momentum;
  c.weight_decay = weight_decay;
  c.warmup_steps = warmup_steps;
  c.decay_steps = decay_steps;
  c.decay = decay;
  c.max_grad_norm = max_grad_norm;
  c.value_weight = value_weight;
  c.margin_weight = margin_weight;
  c.margin_scale = margin_scale;
  c.control_weight = control_weight;
  c.short_value_weight = short_value_weight;
  return c;
}

DataConfig TrainSettings::dataConfig() const {
  DataConfig c;
  c.window = {window_c, window_a, window_b};
  c.validation_permille = validation_permille;
  c.shuffle_rows = shuffle_rows;
  return c;
}

int64_t targetSteps(const TrainSettings& s, int64_t training_rows) {
  const auto cap = static_cast<int64_t>(
      std::ceil(s.max_reuse * static_cast<double>(training_rows) / static_cast<double>(s.batch)));
  if (s.max_reuse <= 0) return s.steps;
  return s.steps > 0 ? std::min<int64_t>(s.steps, cap) : cap;
}

std::vector<std::string> metricsCells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

std::string metricsCsvHeader() {
  std::string h = "step,samples,seconds,learning_rate";
  for (const char* prefix : {"train_", "val_"})
    for (const nn::LossFigure& f : nn::lossFigures()) h += std::string(",") + prefix + f.name;
  return h + ",weight_norm\n";
}

std::string metricsCsvRow(const TrainMetrics& m) {
  std::ostringstream out;
  out.precision(6);
  auto report = [&](const nn::LossReport* r) {
    for (const nn::LossFigure& f : nn::lossFigures()) {
      out << ",";
      if (r) out << r->*f.member;
    }
  };
  out << m.step << "," << m.samples << "," << m.seconds << "," << m.learning_rate;
  report(&m.train);
  report(m.validation ? &*m.validation : nullptr);
  out << ",";
  if (m.validation) out << m.validation->weight_norm;
  out << "\n";
  return out.str();
}

struct TrainingRun::State {
  std::string checkpoint, metrics_path, net_path;
  ReportSum stretch;  // the steps since the last metrics row
  int64_t samples = 0;
  double seconds_before = 0;  // of training before this session
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  int64_t checkpointed = -1;
  nn::TrainingBatch validation;
  std::vector<std::string> shard_files;  // read by this run, saved in its checkpoints
  std::unique_ptr<TrainingStream> stream;

  double seconds() const {
    return seconds_before +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

TrainingRun::TrainingRun(nn::Learner& learner, const TrainSettings& s, const std::string& run_dir,
                         TrainStart start, const std::string& provenance, nn::ProcessGroup* group,
                         ShardSummaries* known)
    : learner_(learner),
      settings_(s),
      dir_(run_dir),
      provenance_(provenance),
      group_(group),
      state_(std::make_unique<State>()) {
  if (group && s.batch % group->size() != 0) {
    throw ConfigError("--batch " + std::to_string(s.batch) + " does not divide among " +
                      std::to_string(group->size()) + " ranks");
  }
  State& st = *state_;
  st.checkpoint = run_dir + "/checkpoint.pt";
  st.metrics_path = run_dir + "/metrics.csv";
  st.net_path = run_dir + "/net.pt";
  DataPosition position;
  size_t shards = 0;
  std::vector<std::string> files = s.shard_files;  // or a resumed run's shards
  if (start != TrainStart::kFresh) {
    const json state = json::parse(learner.loadCheckpoint(st.checkpoint), nullptr, false);
    if (!state.is_object() || state.value("format", "") != kCheckpointFormat)
      throw ConfigError(st.checkpoint + ": not the checkpoint of a training run");
    if (start == TrainStart::kResume) {
      position = {state.at("fill").get<int64_t>(), state.at("offset").get<int64_t>()};
      shards = state.at("shards").get<size_t>();
      // (Absent from the checkpoints of earlier versions: their first `shards` shards.)
      if (state.contains("shard_files"))
        files = state["shard_files"].get<std::vector<std::string>>();
    }
    st.samples = state.at("samples").get<int64_t>();
    st.seconds_before = state.at("seconds").get<double>();
    st.stretch = ReportSum::fromJson(state.at("stretch"));
  }
  ShardIndex index = files.empty() ? indexShards(s.data_dirs, s.validation_permille, shards)
                                   : indexShardFiles(files, s.validation_permille, known);
  if (index.shards.size() < shards) {
    throw ConfigError("the data folders hold " + std::to_string(index.shards.size()) +
                      " shards; the checkpoint read " + std::to_string(shards) +
                      " (a shard was removed)");
  }
  const nn::NetworkConfig& net = learner.networkConfig();
  const RowShape& data = index.shape;
  const int policy = net.policySize(data.height, data.width);
  if (index.encoder_version != net.encoder_version || data.planes != net.input.planes ||
      data.globals != net.input.globals || data.policy != policy ||
      (!net.anyMap() && (index.scenario != net.scenario || data.height != net.input.height ||
                         data.width != net.input.width))) {
    throw ConfigError("the data (" + index.shards.front().path + ": scenario " + index.scenario +
                      ", encoder version " + std::to_string(index.encoder_version) + ", " +
                      std::to_string(data.policy) + " policy entries) do not fit the " +
                      "network (scenario " + net.scenario + ", encoder version " +
                      std::to_string(net.encoder_version) + ", " + std::to_string(policy) +
                      " policy entries on that map)");
  }
  out_.shards = static_cast<int64_t>(index.shards.size());
  for (const IndexedShard& shard : index.shards) st.shard_files.push_back(shard.path);
  out_.rows = index.rows;
  st.validation = validationRows(index, s.dataConfig().window, s.validation_rows);
  st.stream = std::make_unique<TrainingStream>(std::move(index), s.dataConfig(), s.seed, position);
  // A sample of the whole window: the most recent rows alone (self-play of one network, many
  // games resigned early) gave batch-norm statistics under which the network played far
  // worse (docs/training.md).
  // (Rank 0 alone measures and exports.)
  learner.setCalibrationRows(
      s.calibration_rows > 0 && writesFiles()
          ? st.stream->sample(env::deriveSeed(s.seed, kCalibrationStream), s.calibration_rows)
          : nn::TrainingBatch{});
  if (group) learner.joinGroup(*group);
  out_.window_rows = st.stream->windowRows();
  out_.training_rows = st.stream->windowTrainingRows();
  out_.target = targetSteps(s, out_.training_rows);
  out_.step = learner.steps();
  if (!writesFiles()) {  // rank 0 writes the run's files
    st.checkpointed = learner.steps();
    return;
  }
  if (start == TrainStart::kFresh) {
    env::writeFileDurably(st.metrics_path, metricsCsvHeader());
  } else {
    truncateMetrics(st.metrics_path, learner.steps());
  }
  if (start == TrainStart::kResume) {
    st.checkpointed = learner.steps();
  } else {
    save();
  }
}

TrainingRun::~TrainingRun() = default;

std::string TrainingRun::networkProvenance() const {
  json p = json::parse(provenance_.empty() ? "{}" : provenance_, nullptr, false);
  if (!p.is_object()) p = json::object();
  // The data folders relative to the run folder: a network file names no machine's paths.
  std::vector<std::string> data;
  for (const std::string& d : settings_.data_dirs)
    data.push_back(std::filesystem::absolute(d)
                       .lexically_normal()
                       .lexically_relative(std::filesystem::absolute(dir_).lexically_normal())
                       .generic_string());
  p["data"] = data;
  p["shards"] = out_.shards;
  p["rows"] = out_.rows;
  p["window_rows"] = out_.window_rows;
  p["steps"] = learner_.steps();
  p["samples"] = state_->samples;
  if (out_.last) {
    p["train"] = reportJson(out_.last->train);
    if (out_.last->validation) p["validation"] = reportJson(*out_.last->validation);
  }
  return p.dump();
}

bool TrainingRun::stopNow(const std::atomic<bool>* stop) const {
  float stopping = stop && stop->load() ? 1 : 0;
  if (group_) group_->sum(&stopping, 1);  // the ranks stop at the same step
  return stopping > 0;
}

void TrainingRun::save() {
  State& st = *state_;
  if (!writesFiles()) {
    st.checkpointed = learner_.steps();
    return;
  }
  learner_.exportNetwork(st.net_path, networkProvenance());
  const json state = {{"format", kCheckpointFormat},
                      {"fill", st.stream->position().fill},
                      {"offset", st.stream->position().offset},
                      {"shards", out_.shards},
                      {"shard_files", st.shard_files},
                      {"samples", st.samples},
                      {"seconds", st.seconds()},
                      {"stretch", st.stretch.toJson()}};
  learner_.saveCheckpoint(st.checkpoint, state.dump());
  st.checkpointed = learner_.steps();
}

TrainOutcome TrainingRun::run(const std::function<void(const TrainProgress&)>& progress,
                              const std::atomic<bool>* stop) {
  State& st = *state_;
  const TrainSettings& s = settings_;
  std::optional<env::AppendOnlyFile> metrics_file;
  if (writesFiles()) metrics_file.emplace(st.metrics_path, false);
  const auto session_start = std::chrono::steady_clock::now();
  int64_t session_samples = 0;
  while (learner_.steps() < out_.target) {
    if (stopNow(stop)) {
      out_.interrupted = true;
      break;
    }
    const double rate = learner_.learningRate();
    nn::TrainingBatch batch = st.stream->next(s.batch);
    mixVictoryLevels(batch, s.level_ratio);
    mixValueTargets(batch, s.q_ratio);
    if (group_) {  // this rank's share
      const int share = s.batch / group_->size();
      nn::TrainingBatch part;
      appendRows(batch, group_->rank() * share, share, part);
      batch = std::move(part);
    }
    st.stretch.add(learner_.step(batch));
    st.samples += s.batch;
    session_samples += s.batch;
    const int64_t step = learner_.steps();
    const double session_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - session_start).count();
    TrainProgress p{step, out_.target,
                    static_cast<double>(session_samples) / std::max(session_seconds, 1e-9),
                    st.stream->readerRowsPerSecond(), nullptr};
    if (metrics_file && (step % s.metrics_every == 0 || step == out_.target)) {
      TrainMetrics m{step, st.samples, st.seconds(), rate, st.stretch.mean(), {}};
      if (st.validation.size > 0) m.validation = measureAll(learner_, st.validation, s.batch);
      metrics_file->append(metricsCsvRow(m));
      st.stretch = {};
      out_.last = m;
      p.metrics = &*out_.last;
    }
    if (step % s.checkpoint_every == 0 || step == out_.target) save();
    progress(p);
  }
  if (st.checkpointed != learner_.steps()) save();
  if (metrics_file) metrics_file->close();
  out_.step = learner_.steps();
  return out_;
}

}  // namespace morne::training

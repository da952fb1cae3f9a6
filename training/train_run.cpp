#include "training/train_run.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <sstream>

#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/text_file.h"
#include "env/rng.h"

namespace morne::training {

using nlohmann::json;

void mixValueTargets(nn::TrainingBatch& batch, double q_ratio) {
  if (q_ratio <= 0 || batch.search_value.size() != batch.value.size()) return;
  for (size_t i = 0; i < batch.value.size(); ++i) {
    batch.value[i] =
        static_cast<float>((1 - q_ratio) * batch.value[i] + q_ratio * batch.search_value[i]);
  }
}

void mixTeacherValues(nn::TrainingBatch& batch, double teacher_ratio) {
  if (teacher_ratio <= 0 || batch.teacher_value.size() != batch.value.size()) return;
  for (size_t i = 0; i < batch.value.size(); ++i) {
    if (std::isnan(batch.teacher_value[i])) continue;
    batch.value[i] = static_cast<float>((1 - teacher_ratio) * batch.value[i] +
                                        teacher_ratio * batch.teacher_value[i]);
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

// (Outside the anonymous namespace: TrainingRun::State holds one.)
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

namespace {

constexpr const char* kCheckpointFormat = "morne-train/1";
// The seed stream of the batch-norm calibration sample (the data stream's fills use 0, 1, ...
// through deriveSeed(seed, fill); this one lies far beyond any fill number).
constexpr uint64_t kCalibrationStream = uint64_t{1} << 62;
// The seed stream of the scenario of each step's batch (TrainSettings::shares).
constexpr uint64_t kShareStream = (uint64_t{1} << 62) + (uint64_t{1} << 61);

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

// Throws ConfigError when the data of `index` do not fit a network of `net`.
void checkDataFits(const ShardIndex& index, const nn::NetworkConfig& net) {
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
}

// The index of each scenario of `s.shares`, in its order, over the shards of `files` of that
// scenario (in their order). Throws ConfigError for a scenario without shards, or shards of a
// scenario the shares do not name.
std::vector<ShardIndex> indexByScenario(const TrainSettings& s,
                                        const std::vector<std::string>& files,
                                        ShardSummaries* known) {
  ShardSummaries own;
  ShardSummaries& summaries = known ? *known : own;
  const auto shares = parseScenarioShares(s.shares);
  std::map<std::string, std::vector<std::string>> by_scenario;
  for (const std::string& file : files) by_scenario[summaries.of(file).scenario].push_back(file);
  std::string held;
  for (const auto& [scenario, list] : by_scenario) held += (held.empty() ? "" : ", ") + scenario;
  for (const auto& entry : by_scenario) {
    const std::string& scenario = entry.first;
    if (std::none_of(shares.begin(), shares.end(),
                     [&](const auto& share) { return share.first == scenario; })) {
      throw ConfigError("the data hold shards of scenario \"" + scenario +
                        "\", which --shares does not name (the data hold: " + held + ")");
    }
  }
  std::vector<ShardIndex> indexes;
  for (const auto& [scenario, share] : shares) {
    if (!by_scenario.count(scenario)) {
      throw ConfigError("--shares names scenario \"" + scenario +
                        "\", of which the data hold no shard (they hold: " + held + ")");
    }
    indexes.push_back(indexShardFiles(by_scenario.at(scenario), s.validation_permille, &summaries));
  }
  return indexes;
}

}  // namespace

std::vector<std::pair<std::string, double>> parseScenarioShares(const std::string& text) {
  std::vector<std::pair<std::string, double>> shares;
  std::istringstream in(text);
  std::string entry;
  while (std::getline(in, entry, ',')) {
    const size_t eq = entry.find('=');
    double weight = 0;
    const char* first = eq == std::string::npos ? nullptr : entry.data() + eq + 1;
    const auto [end, error] = first ? std::from_chars(first, entry.data() + entry.size(), weight)
                                    : std::from_chars_result{nullptr, std::errc::invalid_argument};
    if (eq == std::string::npos || eq == 0 || error != std::errc() ||
        end != entry.data() + entry.size() || !(weight > 0) || !std::isfinite(weight)) {
      throw ConfigError(
          "--shares: \"" + entry +
          "\" is not SCENARIO=WEIGHT with a positive weight (e.g. duel=1,pyramids=3)");
    }
    const std::string name = entry.substr(0, eq);
    for (const auto& [known, w] : shares)
      if (known == name) throw ConfigError("--shares: scenario \"" + name + "\" named twice");
    shares.emplace_back(name, weight);
  }
  if (shares.empty()) throw ConfigError("--shares: no scenario");
  return shares;
}

size_t scenarioOfStep(std::span<const double> weights, uint64_t seed, int64_t step) {
  if (weights.size() <= 1) return 0;
  env::Rng rng(env::deriveSeed(seed, kShareStream, step));
  double pick = rng.uniform() * std::accumulate(weights.begin(), weights.end(), 0.0);
  for (size_t i = 0; i < weights.size(); ++i)
    if ((pick -= weights[i]) < 0) return i;
  return weights.size() - 1;
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
  // The data of one scenario: its stream of training rows and its validation rows. One
  // source unless TrainSettings::shares names several, in its order.
  struct Source {
    std::string scenario;
    double share = 1;
    std::unique_ptr<TrainingStream> stream;
    nn::TrainingBatch validation;
  };
  std::vector<Source> sources;
  std::vector<double> weights;           // the sources' shares
  std::vector<std::string> shard_files;  // read by this run, saved in its checkpoints

  // The report of every source's validation rows (the mean over their rows), or none.
  std::optional<nn::LossReport> validationReport(nn::Learner& learner, int batch) const {
    ReportSum sum;
    double weight_norm = 0;
    for (const Source& source : sources) {
      if (source.validation.size == 0) continue;
      const nn::LossReport r = measureAll(learner, source.validation, batch);
      sum.add(r);
      weight_norm = r.weight_norm;
    }
    if (sum.sums[0] == 0) return std::nullopt;
    nn::LossReport mean = sum.mean();
    mean.weight_norm = weight_norm;
    return mean;
  }

  // The source of the batch of step `step` (the first step is 0).
  Source& sourceOf(int64_t step, uint64_t seed) {
    return sources[scenarioOfStep(weights, seed, step)];
  }

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
  std::vector<DataPosition> positions(1);
  size_t shards = 0;
  std::vector<std::string> files = s.shard_files;  // or a resumed run's shards
  if (start != TrainStart::kFresh) {
    const json state = json::parse(learner.loadCheckpoint(st.checkpoint), nullptr, false);
    if (!state.is_object() || state.value("format", "") != kCheckpointFormat)
      throw ConfigError(st.checkpoint + ": not the checkpoint of a training run");
    if (start == TrainStart::kResume) {
      positions = {{state.at("fill").get<int64_t>(), state.at("offset").get<int64_t>()}};
      if (state.contains("positions")) {  // one a scenario (TrainSettings::shares)
        positions.clear();
        for (const json& p : state.at("positions"))
          positions.push_back({p.at(0).get<int64_t>(), p.at(1).get<int64_t>()});
      }
      shards = state.at("shards").get<size_t>();
      // (Absent from the checkpoints of earlier versions: their first `shards` shards.)
      if (state.contains("shard_files"))
        files = state["shard_files"].get<std::vector<std::string>>();
    }
    st.samples = state.at("samples").get<int64_t>();
    st.seconds_before = state.at("seconds").get<double>();
    st.stretch = ReportSum::fromJson(state.at("stretch"));
  }
  std::vector<ShardIndex> indexes;
  if (s.shares.empty()) {
    indexes.push_back(files.empty() ? indexShards(s.data_dirs, s.validation_permille, shards)
                                    : indexShardFiles(files, s.validation_permille, known));
    if (indexes.front().shards.size() < shards) {
      throw ConfigError("the data folders hold " + std::to_string(indexes.front().shards.size()) +
                        " shards; the checkpoint read " + std::to_string(shards) +
                        " (a shard was removed)");
    }
    st.sources.push_back({indexes.front().scenario, 1, nullptr, {}});
  } else {
    indexes = indexByScenario(s, files.empty() ? shardFiles(s.data_dirs) : files, known);
    for (const auto& [scenario, share] : parseScenarioShares(s.shares))
      st.sources.push_back({scenario, share, nullptr, {}});
  }
  if (start != TrainStart::kResume) positions.assign(st.sources.size(), DataPosition{});
  if (positions.size() != st.sources.size()) {
    throw ConfigError(st.checkpoint + ": " + std::to_string(positions.size()) +
                      " data position(s) for " + std::to_string(st.sources.size()) +
                      " scenario(s) (--shares is not the run's)");
  }
  const nn::NetworkConfig& net = learner.networkConfig();
  std::vector<nn::TrainingBatch> calibration;
  for (size_t i = 0; i < indexes.size(); ++i) {
    ShardIndex& index = indexes[i];
    State::Source& source = st.sources[i];
    checkDataFits(index, net);
    out_.shards += static_cast<int64_t>(index.shards.size());
    for (const IndexedShard& shard : index.shards) st.shard_files.push_back(shard.path);
    out_.rows += index.rows;
    source.validation = validationRows(index, s.dataConfig().window, s.validation_rows);
    source.stream =
        std::make_unique<TrainingStream>(std::move(index), s.dataConfig(), s.seed, positions[i]);
    st.weights.push_back(source.share);
    out_.window_rows += source.stream->windowRows();
    out_.training_rows += source.stream->windowTrainingRows();
  }
  // A sample of the whole window: the most recent rows alone (self-play of one network, many
  // games resigned early) gave batch-norm statistics under which the network played far
  // worse (docs/learning-duel.md); of several scenarios, each its share.
  // (Rank 0 alone measures and exports.)
  if (s.calibration_rows > 0 && writesFiles()) {
    for (size_t i = 0; i < st.sources.size(); ++i) {
      const State::Source& source = st.sources[i];
      if (st.sources.size() == 1) {
        calibration.push_back(
            source.stream->sample(env::deriveSeed(s.seed, kCalibrationStream), s.calibration_rows));
        continue;
      }
      const double total = std::accumulate(st.weights.begin(), st.weights.end(), 0.0);
      const auto rows = static_cast<int>(std::ceil(s.calibration_rows * source.share / total));
      calibration.push_back(
          source.stream->sample(env::deriveSeed(s.seed, kCalibrationStream, i), rows));
    }
  }
  learner.setCalibrationRows(calibration);
  if (group) learner.joinGroup(*group);
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
  const DataPosition first = st.sources.front().stream->position();
  json state = {{"format", kCheckpointFormat},   {"fill", first.fill},
                {"offset", first.offset},        {"shards", out_.shards},
                {"shard_files", st.shard_files}, {"samples", st.samples},
                {"seconds", st.seconds()},       {"stretch", st.stretch.toJson()}};
  if (st.sources.size() > 1) {
    json positions = json::array();
    for (const State::Source& source : st.sources)
      positions.push_back({source.stream->position().fill, source.stream->position().offset});
    state["positions"] = positions;
  }
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
    State::Source& source = st.sourceOf(learner_.steps(), s.seed);
    nn::TrainingBatch batch = source.stream->next(s.batch);
    mixVictoryLevels(batch, s.level_ratio);
    mixValueTargets(batch, s.q_ratio);
    mixTeacherValues(batch, s.teacher_ratio);
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
                    source.stream->readerRowsPerSecond(), nullptr};
    if (metrics_file && (step % s.metrics_every == 0 || step == out_.target)) {
      TrainMetrics m{step, st.samples, st.seconds(), rate, st.stretch.mean(), {}};
      m.validation = st.validationReport(learner_, s.batch);
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

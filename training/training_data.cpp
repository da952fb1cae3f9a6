#include "training/training_data.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <variant>

#include "env/error.h"
#include "env/rng.h"
#include "training/shard_isolation.h"
#include "training/shard_reader.h"
#include "training/shard_schema.h"

namespace morne::training {

namespace {

// Rows a shard is read in when it is checked on joining an index.
constexpr int64_t kVerifyRows = 1024;

// The games of the sequence that hold rows [begin, end) of it, from the first such.
size_t firstGameAt(const ShardIndex& index, int64_t row) {
  const auto it = std::upper_bound(index.sequence.begin(), index.sequence.end(), row,
                                   [](int64_t r, const IndexedGame& g) { return r < g.first_row; });
  return static_cast<size_t>(it - index.sequence.begin()) - 1;
}

// Calls read(game, first, count) for the rows [begin, end) of the sequence that belong to
// training games (validation games left out), in the sequence's order.
template <typename Read>
void forTrainingRows(const ShardIndex& index, int64_t begin, int64_t end, Read read) {
  if (begin >= end) return;
  for (size_t g = firstGameAt(index, begin); g < index.sequence.size(); ++g) {
    const IndexedGame& game = index.sequence[g];
    if (game.first_row >= end) break;
    const int64_t from = std::max(begin, game.first_row);
    const int64_t to = std::min(end, game.first_row + game.rows);
    if (!game.validation && from < to) read(game, from - game.first_row, to - from);
  }
}

// A shard's writer: its file name without the shard number ("loop-0" of "loop-0-0003.h5").
std::string writerOf(const std::string& path) {
  const std::string name = std::filesystem::path(path).stem().string();
  const size_t dash = name.rfind('-');
  return dash == std::string::npos ? name : name.substr(0, dash);
}

std::string shapeText(const RowShape& s) {
  return std::to_string(s.planes) + "x" + std::to_string(s.height) + "x" + std::to_string(s.width) +
         " planes, " + std::to_string(s.globals) + " globals, " + std::to_string(s.policy) +
         " policy entries";
}

}  // namespace

void appendRows(const nn::TrainingBatch& from, int first, int count, nn::TrainingBatch& to) {
  for (const ShardDataset& d : shardDatasets()) {
    std::visit(
        [&](auto member) {
          if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
            const auto& src = from.*member;
            if (src.empty()) return;  // a target the rows do not have
            const size_t per_row = src.size() / static_cast<size_t>(from.size);
            auto& dst = to.*member;
            dst.insert(dst.end(), src.begin() + static_cast<std::ptrdiff_t>(per_row * first),
                       src.begin() + static_cast<std::ptrdiff_t>(per_row * (first + count)));
          }
        },
        d.batch);
  }
  to.size += count;
  to.height = from.height;
  to.width = from.width;
}

void appendRow(const nn::TrainingBatch& from, int row, nn::TrainingBatch& to) {
  appendRows(from, row, 1, to);
}

std::vector<std::string> shardFiles(const std::vector<std::string>& dirs) {
  std::vector<std::string> files;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      throw ConfigError("data folder " + dir + ": no such folder");
    std::vector<std::string> paths;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".h5")
        paths.push_back(entry.path().string());
    }
    if (paths.empty()) throw ConfigError("data folder " + dir + ": no shard (*.h5) in it");
    std::sort(paths.begin(), paths.end());
    files.insert(files.end(), paths.begin(), paths.end());
  }
  return files;
}

namespace {

// What indexing needs of the shard at `path`, as JSON, with every row read once: damage anywhere
// in the shard is refused when it joins, not when a sample first reaches the damaged rows,
// generations later or never. Run in a child process (training/shard_isolation.h).
std::string summaryJsonOf(const std::string& path) {
  const ShardContents c = readShard(path, false);
  nn::TrainingBatch scratch;
  for (int64_t first = 0; first < c.rows; first += kVerifyRows) {
    scratch.clear();
    readShardRows(path, first, std::min(kVerifyRows, c.rows - first), c.shape, scratch);
  }
  nlohmann::json games = nlohmann::json::array();
  for (size_t g = 0; g < c.games.size(); ++g)
    games.push_back({c.games[g].id, c.games[g].seed, c.declared_rows[g]});
  const RowShape& s = c.shape;
  return nlohmann::json{{"scenario", c.scenario},
                        {"encoder_version", c.encoder_version},
                        {"shape", {s.planes, s.height, s.width, s.globals, s.policy}},
                        {"rows", c.rows},
                        {"games", games}}
      .dump();
}

ShardSummary summaryFromJson(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  ShardSummary summary;
  summary.scenario = j.at("scenario").get<std::string>();
  summary.encoder_version = j.at("encoder_version").get<int>();
  const nlohmann::json& s = j.at("shape");
  summary.shape = {s[0].get<int>(), s[1].get<int>(), s[2].get<int>(), s[3].get<int>(),
                   s[4].get<int>()};
  summary.rows = j.at("rows").get<int64_t>();
  for (const nlohmann::json& g : j.at("games"))
    summary.games.push_back({g[0].get<uint64_t>(), g[1].get<uint64_t>(), g[2].get<int64_t>()});
  return summary;
}

uint64_t fileBytes(const std::string& path) {
  std::error_code ec;
  const uint64_t bytes = std::filesystem::file_size(path, ec);
  return ec ? 0 : bytes;
}

}  // namespace

double ShardSummaries::secondsFor(uint64_t bytes) const {
  return read_seconds_ > 0 ? read_seconds_ : isolatedReadSeconds(bytes);
}

void ShardSummaries::prefetch(const std::vector<std::string>& paths) {
  std::vector<std::string> todo;
  uint64_t largest = 0;
  {
    const std::lock_guard lock(mutex_);
    for (const std::string& path : paths) {
      if (known_.contains(path) || std::find(todo.begin(), todo.end(), path) != todo.end())
        continue;
      todo.push_back(path);
      largest = std::max(largest, fileBytes(path));
    }
  }
  // One child reads them in turn, sending each summary ('S' and its JSON) or why it refused one
  // ('C' or 'I' and the message of its ConfigError or IoError). A child that crashes or hangs
  // ends with the shard it was reading, refused for that; the rest go to the next child.
  while (!todo.empty()) {
    size_t done = 0;
    const std::string end = runIsolated(
        [&todo](const SendToParent& send) {
          for (const std::string& path : todo) {
            try {
              send("S" + summaryJsonOf(path));
            } catch (const ConfigError& e) {
              send(std::string("C") + e.what());
            } catch (const IoError& e) {
              send(std::string("I") + e.what());
            }
          }
        },
        [&](const std::string& message) {
          const std::string& path = todo[done++];
          const std::lock_guard lock(mutex_);
          if (message[0] == 'S') {
            known_.emplace(path, summaryFromJson(message.substr(1)));
          } else {
            refused_[path] = message;
          }
        },
        secondsFor(largest));
    if (end.empty()) break;
    if (done < todo.size()) {
      const std::lock_guard lock(mutex_);
      refused_[todo[done]] = "C" + todo[done] + ": damaged: " + end;
    }
    todo.erase(todo.begin(),
               todo.begin() + static_cast<std::ptrdiff_t>(std::min(done + 1, todo.size())));
  }
}

ShardSummary ShardSummaries::of(const std::string& path) {
  {
    const std::lock_guard lock(mutex_);
    const auto at = known_.find(path);
    if (at != known_.end()) return at->second;
    // Refused by prefetch(): said once (a later call reads the file again).
    const auto refused = refused_.find(path);
    if (refused != refused_.end()) {
      const std::string message = refused->second;
      refused_.erase(refused);
      if (message[0] == 'I') throw IoError(message.substr(1));
      throw ConfigError(message.substr(1));
    }
  }
  ShardSummary summary = summaryFromJson(readIsolated(
      path, [&path] { return summaryJsonOf(path); }, secondsFor(fileBytes(path))));
  const std::lock_guard lock(mutex_);
  return known_.emplace(path, std::move(summary)).first->second;
}

ShardIndex indexShardFiles(const std::vector<std::string>& files, int validation_permille,
                           ShardSummaries* known) {
  ShardIndex index;
  // Every game with what orders it in the sequence.
  struct Keyed {
    std::string folder;
    std::string writer;
    uint64_t id;
    IndexedGame game;
  };
  std::vector<Keyed> games;
  ShardSummaries once;
  ShardSummaries& summaries = known ? *known : once;
  summaries.prefetch(files);
  for (const std::string& path : files) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      throw ConfigError("shard " + path + ": no such file (a shard was removed)");
    const ShardSummary c = summaries.of(path);
    if (index.shards.empty()) {
      index.shape = c.shape;
      index.encoder_version = c.encoder_version;
      index.scenario = c.scenario;
    } else if (c.scenario != index.scenario || c.encoder_version != index.encoder_version ||
               c.shape.planeSize() != index.shape.planeSize() ||
               c.shape.globals != index.shape.globals || c.shape.policy != index.shape.policy) {
      throw ConfigError(path + ": scenario " + c.scenario + ", encoder version " +
                        std::to_string(c.encoder_version) + ", " + shapeText(c.shape) + "; but " +
                        index.shards.front().path + ": scenario " + index.scenario +
                        ", encoder version " + std::to_string(index.encoder_version) + ", " +
                        shapeText(index.shape) +
                        " (one training run reads one kind of data; an any-map network trains "
                        "on several scenarios' with --shares)");
    }
    int64_t row = 0;
    for (const ShardSummary::Game& g : c.games) {
      games.push_back({std::filesystem::path(path).parent_path().string(),
                       writerOf(path),
                       g.id,
                       {static_cast<int32_t>(index.shards.size()), row, g.rows, 0,
                        isValidationGame(g.seed, validation_permille)}});
      row += g.rows;
    }
    if (row != c.rows) {
      throw ConfigError(path + ": its games list " + std::to_string(row) +
                        " positions, its datasets hold " + std::to_string(c.rows));
    }
    index.rows += c.rows;
    index.games += static_cast<int64_t>(c.games.size());
    index.shards.push_back({path, c.rows});
  }
  // The sequence: folders in the order given; in a folder, each writer's games by id.
  std::map<std::string, size_t> folder_order;
  for (const Keyed& k : games) folder_order.emplace(k.folder, folder_order.size());
  std::stable_sort(games.begin(), games.end(), [&](const Keyed& a, const Keyed& b) {
    const size_t fa = folder_order.at(a.folder), fb = folder_order.at(b.folder);
    if (fa != fb) return fa < fb;
    if (a.writer != b.writer) return a.writer < b.writer;
    return a.id < b.id;
  });
  int64_t first = 0;
  for (Keyed& k : games) {
    k.game.first_row = first;
    first += k.game.rows;
    if (k.game.validation) index.validation_rows += k.game.rows;
    index.sequence.push_back(k.game);
  }
  return index;
}

ShardIndex indexShards(const std::vector<std::string>& dirs, int validation_permille,
                       size_t max_shards) {
  std::vector<std::string> files = shardFiles(dirs);
  if (max_shards > 0 && files.size() > max_shards) files.resize(max_shards);
  return indexShardFiles(files, validation_permille);
}

TrainingStream::TrainingStream(ShardIndex index, const DataConfig& config, uint64_t seed,
                               DataPosition start)
    : index_(std::move(index)), config_(config), seed_(seed), position_(start) {
  window_rows_ = training::windowRows(index_.rows, config_.window);
  window_start_ = index_.rows - window_rows_;
  forTrainingRows(index_, window_start_, index_.rows,
                  [&](const IndexedGame&, int64_t, int64_t n) { window_training_rows_ += n; });
  const int64_t block = config_.block_rows;
  for (int64_t b = window_start_ / block * block; b < index_.rows; b += block) blocks_.push_back(b);
  if (window_training_rows_ == 0) {
    throw ConfigError("the data hold no training row: " + std::to_string(index_.rows) +
                      " rows, all of them in validation games (lower the validation share)");
  }
  reader_ = std::thread([this, first = start.fill] { readLoop(first); });
}

TrainingStream::~TrainingStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  reader_.join();
}

namespace {

// An empty batch with room for `rows` rows of `shape`.
nn::TrainingBatch reservedBatch(const RowShape& shape, int64_t rows) {
  nn::TrainingBatch b;
  b.height = shape.height;
  b.width = shape.width;
  for (const ShardDataset& d : shardDatasets()) {
    size_t n = static_cast<size_t>(rows);
    for (uint64_t dim : rowDims(d, shape)) n *= static_cast<size_t>(dim);
    std::visit(
        [&](auto member) {
          if constexpr (!std::is_same_v<decltype(member), std::monostate>) (b.*member).reserve(n);
        },
        d.batch);
  }
  return b;
}

}  // namespace

TrainingStream::Fill TrainingStream::draw(uint64_t seed, int64_t want) const {
  env::Rng rng(seed);
  nn::TrainingBatch rows = reservedBatch(
      index_.shape, std::min<int64_t>(window_training_rows_, want + config_.block_rows));
  auto read = [&](int64_t block) {
    forTrainingRows(index_, std::max(block, window_start_), block + config_.block_rows,
                    [&](const IndexedGame& g, int64_t first, int64_t n) {
                      readShardRows(index_.shards[static_cast<size_t>(g.shard)].path,
                                    g.row_in_shard + first, n, index_.shape, rows);
                    });
  };
  // Every block equally likely, each at most once per fill: a training row of the window is
  // in a fill with the same probability as any other. A window smaller than a fill is read
  // whole.
  if (window_training_rows_ <= want) {
    for (int64_t block : blocks_) read(block);
  } else {
    std::vector<bool> drawn(blocks_.size(), false);
    while (rows.size < want) {
      const auto b = static_cast<size_t>(rng.next() % blocks_.size());
      if (drawn[b]) continue;
      drawn[b] = true;
      read(blocks_[b]);
    }
  }
  // Fisher-Yates: the order in which next() hands the rows out.
  std::vector<int> order(static_cast<size_t>(rows.size));
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  for (size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[rng.next() % static_cast<uint64_t>(i)]);
  return {std::move(rows), std::move(order)};
}

void TrainingStream::readLoop(int64_t first_fill) {
  for (int64_t fill = first_fill;; ++fill) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(
          lock, [&] { return stopping_ || static_cast<int>(ready_.size()) < config_.prefetch; });
      if (stopping_) return;
    }
    try {
      const auto t0 = std::chrono::steady_clock::now();
      Fill rows = draw(env::deriveSeed(seed_, fill), config_.shuffle_rows);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::lock_guard lock(mutex_);
      rows_read_ += rows.rows.size;
      reading_seconds_ += seconds;
      ready_.push_back(std::move(rows));
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
      changed_.notify_all();
      return;
    }
    changed_.notify_all();
  }
}

nn::TrainingBatch TrainingStream::next(int rows) {
  nn::TrainingBatch out = reservedBatch(index_.shape, rows);
  bool first_take = current_.rows.size == 0;
  while (out.size < rows) {
    if (first_take || position_.offset == current_.rows.size) {
      if (!first_take) {
        ++position_.fill;
        position_.offset = 0;
      }
      first_take = false;
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return !ready_.empty() || error_; });
      if (ready_.empty()) std::rethrow_exception(error_);
      current_ = std::move(ready_.front());
      ready_.pop_front();
      changed_.notify_all();
      if (position_.offset > current_.rows.size) {
        throw ConfigError("the data position (fill " + std::to_string(position_.fill) + ", row " +
                          std::to_string(position_.offset) +
                          ") lies beyond the data: the shards are not those of the checkpoint");
      }
      continue;
    }
    appendRow(current_.rows, current_.order[static_cast<size_t>(position_.offset)], out);
    ++position_.offset;
  }
  return out;
}

nn::TrainingBatch TrainingStream::sample(uint64_t seed, int rows) const {
  return draw(seed, rows).rows;
}

double TrainingStream::readerRowsPerSecond() const {
  std::lock_guard lock(mutex_);
  return reading_seconds_ > 0 ? static_cast<double>(rows_read_) / reading_seconds_ : 0;
}

nn::TrainingBatch validationRows(const ShardIndex& index, const WindowConfig& window,
                                 int64_t max_rows) {
  const int64_t window_start = index.rows - training::windowRows(index.rows, window);
  // The newest validation games first, until max_rows; then read in the sequence's order.
  struct Part {
    const IndexedGame* game;
    int64_t first;  // in the game
    int64_t rows;
  };
  std::vector<Part> newest_first;
  int64_t taken = 0;
  for (auto g = index.sequence.rbegin(); g != index.sequence.rend() && taken < max_rows; ++g) {
    if (!g->validation) continue;
    const int64_t end = g->first_row + g->rows;
    const int64_t begin = std::max({g->first_row, window_start, end - (max_rows - taken)});
    if (begin >= end) break;
    newest_first.push_back({&*g, begin - g->first_row, end - begin});
    taken += end - begin;
  }
  nn::TrainingBatch rows;
  for (auto p = newest_first.rbegin(); p != newest_first.rend(); ++p) {
    readShardRows(index.shards[static_cast<size_t>(p->game->shard)].path,
                  p->game->row_in_shard + p->first, p->rows, index.shape, rows);
  }
  return rows;
}

}  // namespace morne::training

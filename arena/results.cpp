#include "arena/results.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/number_text.h"
#include "env/error.h"
#include "env/io/durable_file.h"
#include "env/io/json_nesting.h"
#include "env/io/text_file.h"

namespace morne::arena {

namespace {

using agents::StepCounts;
using arena::ArenaGame;
using arena::ArenaLineup;

// The columns of games.csv. The step columns and then the game number came later: files
// without them are read, and a resumed run writes its rows in its file's columns.
constexpr const char* kColumns[] = {"scenario",
                                    "round",
                                    "seed",
                                    "blue",
                                    "orange",
                                    "winner",
                                    "blue_vp",
                                    "orange_vp",
                                    "level",
                                    "plies",
                                    "blue_decisions",
                                    "orange_decisions",
                                    "blue_seconds",
                                    "orange_seconds",
                                    "blue_steps",
                                    "blue_reversals",
                                    "blue_revisits",
                                    "orange_steps",
                                    "orange_reversals",
                                    "orange_revisits",
                                    "game"};
constexpr size_t kRequiredColumns = 14;
constexpr size_t kStepColumns = 20;
constexpr size_t kAllColumns = std::size(kColumns);

// Splits one CSV line into fields ("" quotes a quote); nullopt on an unterminated quote.
std::optional<std::vector<std::string>> splitCsv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) return std::nullopt;
  return fields;
}

class RowReader {
 public:
  RowReader(std::string where, const std::vector<std::string>& fields)
      : where_(std::move(where)), fields_(fields) {}

  const std::string& text(size_t column) const { return fields_[column]; }

  template <typename T>
  T number(size_t column, T lo, T hi) const {
    const std::string& f = fields_[column];
    T v{};
    const auto r = std::from_chars(f.data(), f.data() + f.size(), v);
    if (r.ec != std::errc() || r.ptr != f.data() + f.size() || v < lo || v > hi) {
      throw ConfigError(where_ + ": column " + kColumns[column] + ": \"" + f +
                        "\" is not a number in " + core::shortText(static_cast<double>(lo)) + ".." +
                        core::shortText(static_cast<double>(hi)));
    }
    return v;
  }

  [[noreturn]] void fail(size_t column, const std::string& reason) const {
    throw ConfigError(where_ + ": column " + kColumns[column] + ": " + reason);
  }

 private:
  std::string where_;
  const std::vector<std::string>& fields_;
};

int indexIn(std::vector<std::string>& list, const std::string& item) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == item) return static_cast<int>(i);
  }
  list.push_back(item);
  return static_cast<int>(list.size() - 1);
}

}  // namespace

std::string csvQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string stepColumns(const agents::StepCounts& c) {
  return std::to_string(c.steps) + "," + std::to_string(c.reversals) + "," +
         std::to_string(c.revisits);
}

std::string gamesCsvHeader(size_t columns) {
  std::string header;
  for (size_t c = 0; c < std::min(columns, kAllColumns); ++c)
    header += (header.empty() ? "" : ",") + std::string(kColumns[c]);
  return header;
}

size_t gamesCsvColumns(const std::string& header) {
  for (const size_t n : {kAllColumns, kStepColumns, kRequiredColumns}) {
    if (header == gamesCsvHeader(n)) return n;
  }
  return 0;
}

std::string gamesCsvRow(const ArenaLineup& lineup, const ArenaGame& g, size_t columns) {
  const char* winner = g.result.winner == env::kNoSide ? "draw"
                       : g.result.winner == 0          ? "blue"
                                                       : "orange";
  return lineup.scenarios[static_cast<size_t>(g.scenario)] + "," + std::to_string(g.round) + "," +
         std::to_string(g.seed) + "," + csvQuote(lineup.agents[static_cast<size_t>(g.blue)]) + "," +
         csvQuote(lineup.agents[static_cast<size_t>(g.orange)]) + "," + winner + "," +
         std::to_string(g.result.vp[0]) + "," + std::to_string(g.result.vp[1]) + "," +
         std::to_string(g.result.level) + "," + std::to_string(g.plies) + "," +
         std::to_string(g.decisions[0]) + "," + std::to_string(g.decisions[1]) + "," +
         core::fixedText(g.decision_seconds[0], 4) + "," +
         core::fixedText(g.decision_seconds[1], 4) +
         (columns >= kStepColumns ? "," + stepColumns(g.steps[0]) + "," + stepColumns(g.steps[1])
                                  : "") +
         (columns >= kAllColumns ? "," + std::to_string(g.number) : "");
}

void readGamesCsv(const std::string& path, SavedGames& into) {
  const std::string text = env::readTextFile(path, "games file");
  const std::string name = env::printablePath(path);
  size_t start = 0;
  int line_number = 0;
  size_t columns = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string where = name + ":" + std::to_string(line_number);
    if (line_number == 1) {
      columns = gamesCsvColumns(line);
      into.columns = columns;
      if (columns == 0) {
        throw ConfigError(where + ": not a games.csv header (expected \"" + gamesCsvHeader() +
                          "\")");
      }
      continue;
    }
    if (line.empty()) continue;
    const auto fields = splitCsv(line);
    if (!fields) throw ConfigError(where + ": a quoted field is not closed");
    if (fields->size() != columns) {
      throw ConfigError(where + ": " + std::to_string(fields->size()) + " fields, expected " +
                        std::to_string(columns));
    }
    const RowReader row(where, *fields);
    ArenaGame g;
    if (row.text(0).empty()) row.fail(0, "empty scenario name");
    if (row.text(3).empty()) row.fail(3, "empty agent spec");
    if (row.text(4).empty()) row.fail(4, "empty agent spec");
    g.scenario = indexIn(into.lineup.scenarios, row.text(0));
    g.round = row.number<int>(1, 0, 1'000'000'000);
    g.seed = row.number<uint64_t>(2, 0, UINT64_MAX);
    g.blue = indexIn(into.lineup.agents, row.text(3));
    g.orange = indexIn(into.lineup.agents, row.text(4));
    if (g.blue == g.orange) row.fail(4, "the same agent plays both sides");
    const std::string& winner = row.text(5);
    if (winner != "blue" && winner != "orange" && winner != "draw")
      row.fail(5, "\"" + winner + "\" is not blue, orange or draw");
    g.result.winner = winner == "draw" ? env::kNoSide : winner == "blue" ? 0 : 1;
    g.result.vp[0] = row.number<int>(6, -100000, 100000);
    g.result.vp[1] = row.number<int>(7, -100000, 100000);
    g.result.level = row.number<int>(8, 0, 4);
    if ((g.result.level == 0) != (g.result.winner == env::kNoSide))
      row.fail(8, "level 0 is a draw, and a draw has level 0");
    g.plies = row.number<int>(9, 0, 100'000'000);
    g.decisions[0] = row.number<int>(10, 0, 100'000'000);
    g.decisions[1] = row.number<int>(11, 0, 100'000'000);
    g.decision_seconds[0] = row.number<double>(12, 0, 1e9);
    g.decision_seconds[1] = row.number<double>(13, 0, 1e9);
    if (columns >= kStepColumns) {
      for (int side = 0; side < 2; ++side) {
        const size_t c = 14 + 3 * static_cast<size_t>(side);
        agents::StepCounts& s = g.steps[static_cast<size_t>(side)];
        s.steps = row.number<int>(c, 0, 100'000'000);
        s.reversals = row.number<int>(c + 1, 0, s.steps);
        s.revisits = row.number<int>(c + 2, s.reversals, s.steps);
      }
    }
    g.number = columns >= kAllColumns ? row.number<int>(20, 0, 2'000'000'000) : -1;
    g.seconds = g.decision_seconds[0] + g.decision_seconds[1];
    g.played = true;
    into.games.push_back(g);
  }
  if (line_number == 0) throw ConfigError(name + ": empty file, expected a games.csv header");
}

void anchorOn(const std::string& spec, SavedGames& saved) {
  std::vector<std::string>& agents = saved.lineup.agents;
  const auto it = std::find(agents.begin(), agents.end(), spec);
  if (it == agents.end()) {
    std::string names;
    for (const std::string& a : agents) names += (names.empty() ? "" : ", ") + a;
    throw ConfigError("--anchor " + spec + ": no game names this agent (they name " + names + ")");
  }
  const int from = static_cast<int>(it - agents.begin());
  std::rotate(agents.begin(), it, it + 1);  // the anchor first, the others in their order
  auto moved = [from](int a) { return a == from ? 0 : a < from ? a + 1 : a; };
  for (ArenaGame& g : saved.games) {
    g.blue = moved(g.blue);
    g.orange = moved(g.orange);
  }
}

void writeRunFile(const std::string& dir, const ArenaRunFile& run) {
  const nlohmann::json j = {
      {"format", "morne-arena-run/1"}, {"agents", run.agents}, {"scenarios", run.scenarios},
      {"rounds", run.rounds},          {"seed", run.seed},     {"records", run.records}};
  env::writeFileDurably((std::filesystem::path(dir) / "run.json").string(), j.dump(2) + "\n");
}

ArenaRunFile readRunFile(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "run.json").string();
  const std::string text = env::readTextFile(path, "arena run file");
  const std::string name = env::printablePath(path);
  if (env::jsonNestingDepth(text) > env::kMaxJsonNesting)
    throw ConfigError(name + ": JSON nested deeper than " + std::to_string(env::kMaxJsonNesting));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(name + ": not JSON: " + e.what());
  }
  auto fail = [&](const std::string& field, const std::string& reason) {
    return ConfigError(name + ": /" + field + ": " + reason);
  };
  if (!j.is_object()) throw ConfigError(name + ": expected an object");
  if (j.value("format", "") != "morne-arena-run/1")
    throw fail("format", "expected \"morne-arena-run/1\"");
  ArenaRunFile run;
  for (const char* list : {"agents", "scenarios"}) {
    if (!j.contains(list) || !j[list].is_array() || j[list].empty())
      throw fail(list, "expected a non-empty array of strings");
    for (const auto& item : j[list]) {
      if (!item.is_string()) throw fail(list, "expected strings");
      (std::string(list) == "agents" ? run.agents : run.scenarios).push_back(item);
    }
  }
  if (!j.contains("rounds") || !j["rounds"].is_number_unsigned() ||
      j["rounds"].get<int64_t>() < 1 || j["rounds"].get<int64_t>() > 1'000'000)
    throw fail("rounds", "expected an integer in 1..1000000");
  run.rounds = j["rounds"].get<int>();
  if (!j.contains("seed") || !j["seed"].is_number_unsigned())
    throw fail("seed", "expected a non-negative integer");
  run.seed = j["seed"].get<uint64_t>();
  if (j.contains("records")) {  // runs saved before records were remembered lack it
    if (!j["records"].is_boolean()) throw fail("records", "expected true or false");
    run.records = j["records"].get<bool>();
  }
  return run;
}

int markSavedGames(const SavedGames& saved, const ArenaLineup& lineup,
                   std::vector<ArenaGame>& schedule) {
  std::map<std::tuple<std::string, int, std::string, std::string>, ArenaGame*> slots;
  for (ArenaGame& g : schedule) {
    slots[{lineup.scenarios[static_cast<size_t>(g.scenario)], g.round,
           lineup.agents[static_cast<size_t>(g.blue)],
           lineup.agents[static_cast<size_t>(g.orange)]}] = &g;
  }
  int marked = 0;
  for (size_t i = 0; i < saved.games.size(); ++i) {
    const ArenaGame& s = saved.games[i];
    const std::string& scenario = saved.lineup.scenarios[static_cast<size_t>(s.scenario)];
    const std::string& blue = saved.lineup.agents[static_cast<size_t>(s.blue)];
    const std::string& orange = saved.lineup.agents[static_cast<size_t>(s.orange)];
    const std::string what = "games.csv row " + std::to_string(i + 1) + " (" + scenario +
                             ", round " + std::to_string(s.round) + ", " + blue + " vs " + orange +
                             ")";
    const auto it = slots.find({scenario, s.round, blue, orange});
    if (it == slots.end())
      throw ConfigError(what + " is not a game of this run (agents, scenarios or rounds differ)");
    ArenaGame& g = *it->second;
    if (g.seed != s.seed)
      throw ConfigError(what + " was played with dice seed " + std::to_string(s.seed) +
                        ", this run's is " + std::to_string(g.seed) + " (another --seed?)");
    if (g.played) throw ConfigError(what + " appears twice");
    if (s.number >= 0 && s.number != g.number) {
      throw ConfigError(what + " is numbered game " + std::to_string(s.number) +
                        ", its place in this run's schedule is " + std::to_string(g.number));
    }
    const int scenario_index = g.scenario, blue_index = g.blue, orange_index = g.orange;
    const int number = g.number;
    g = s;
    g.number = number;
    g.scenario = scenario_index;
    g.blue = blue_index;
    g.orange = orange_index;
    ++marked;
  }
  return marked;
}

}  // namespace morne::arena

#include "arena/arena_folder.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "arena/report.h"
#include "env/error.h"
#include "env/io/game_record.h"

namespace morne::arena {

namespace {

namespace fs = std::filesystem;

// The files an arena run writes into its folder.
constexpr const char* kRunFiles[] = {"games.csv", "run.json",     "ratings.csv",
                                     "pairs.csv", "summary.json", "elo.svg"};

// The run files already in `dir`, as a list for a message ("" when none).
std::string existingRunFiles(const std::string& dir) {
  std::string found;
  for (const char* name : kRunFiles) {
    std::error_code ec;
    if (fs::exists(fs::path(dir) / name, ec))
      found += (found.empty() ? "" : ", ") + std::string(name);
  }
  return found;
}

void makeFolder(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError("arena: cannot create folder " + dir.string() + ": " + ec.message());
}

}  // namespace

ArenaRunFile resumedRun(const std::string& dir, const GivenRun& given) {
  ArenaRunFile run = readRunFile(dir);
  auto check = [&](const char* key, bool is_given, bool same) {
    if (is_given && !same) {
      throw ConfigError(std::string("arena --resume: --") + key +
                        " differs from the run saved in " + dir +
                        "/run.json (leave it out to continue that run)");
    }
  };
  check("agents", given.agents, given.run.agents == run.agents);
  check("scenarios", given.scenarios, given.run.scenarios == run.scenarios);
  check("seed", given.seed, given.run.seed == run.seed);
  if (given.rounds) {
    if (given.run.rounds < run.rounds) {
      throw ConfigError("arena --resume: --rounds " + std::to_string(given.run.rounds) +
                        " is below the saved run's " + std::to_string(run.rounds));
    }
    run.rounds = given.run.rounds;
  }
  run.records = run.records || given.run.records;  // kept from the run, or asked for now
  return run;
}

ArenaFolder::ArenaFolder(const std::string& dir, const ArenaRunFile& run, FolderUse use,
                         const ArenaLineup& lineup, std::vector<ArenaGame>& schedule)
    : dir_(dir), lineup_(lineup), records_(run.records) {
  makeFolder(dir);
  const std::string csv = (fs::path(dir) / "games.csv").string();
  std::error_code ec;
  if (use == FolderUse::kResume) {
    if (fs::exists(csv, ec)) {
      SavedGames saved;
      readGamesCsv(csv, saved);
      resumed_ = markSavedGames(saved, lineup, schedule);
      columns_ = saved.columns;
    }
  } else if (const std::string found = existingRunFiles(dir); !found.empty()) {
    if (use == FolderUse::kNew) {
      throw ConfigError("arena: " + dir + " already holds the results of a run (" + found +
                        "); --resume continues it, --force deletes them and starts over, or "
                        "choose another --out");
    }
    for (const char* name : kRunFiles) env::removeDurably((fs::path(dir) / name).string());
    fs::remove_all(fs::path(dir) / "records", ec);
    if (ec) throw IoError("arena: cannot remove " + dir + "/records: " + ec.message());
  }
  writeRunFile(dir, run);
  if (records_) makeFolder(fs::path(dir) / "records");
  games_csv_.emplace(csv, false, true);
  if (games_csv_->size() == 0) {
    games_csv_->append(gamesCsvHeader() + "\n");
    columns_ = gamesCsvColumns(gamesCsvHeader());
  }
}

void ArenaFolder::addGame(const ArenaConfig& config, const ArenaGame& g) {
  games_csv_->append(gamesCsvRow(lineup_, g, columns_) + "\n");
  if (!records_) return;
  env::GameRecord record;
  record.scenario = config.scenarios[static_cast<size_t>(g.scenario)];
  record.seed = g.seed;
  record.agents = {config.agents[static_cast<size_t>(g.blue)],
                   config.agents[static_cast<size_t>(g.orange)]};
  for (const agents::Ply& p : g.plies_played)
    record.plies.push_back({.chance = p.chance, .action = p.action, .outcome = p.outcome});
  // A game replayed after an interruption is the same game: its record is rewritten with the
  // same content.
  const fs::path path = fs::path(dir_) / "records" / ("game-" + std::to_string(g.number) + ".json");
  env::writeFileDurably(path.string(), env::recordToJson(record).dump(1) + "\n");
}

void ArenaFolder::finish(const std::vector<ArenaStats>& scopes) {
  games_csv_->sync();
  games_csv_->close();
  writeArenaReports(dir_, lineup_, scopes);
}

}  // namespace morne::arena

#include "arena/scenario_balance.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "agents/agent_kinds.h"
#include "agents/game_runner.h"
#include "arena/resumable_folder.h"
#include "arena/scenario_analysis.h"
#include "core/number_text.h"
#include "env/error.h"
#include "env/io/crc32.h"
#include "env/io/durable_file.h"
#include "env/io/scenario_handicap.h"
#include "env/io/scenario_library.h"
#include "env/io/text_file.h"
#include "env/rng.h"
#include "mcts/workers.h"

namespace morne::arena {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kBalanceFormat = "morne-balance/1";
constexpr const char* kGamesHeader = "handicap_half,game,winner,blue_vp,orange_vp,level,plies";
constexpr int kMaxHandicapHalf = 40;  // 20 VP, the scenario format's limit

// One finished game of a run: its handicap, its place in the try, and its outcome.
struct BalanceGame {
  int handicap = 0;
  int game = 0;
  int winner = env::kNoSide;
  int blue_vp = 0, orange_vp = 0, level = 0, plies = 0;
};

std::string csvRow(const BalanceGame& g) {
  const char* winner = g.winner == env::kNoSide ? "draw" : g.winner == 0 ? "blue" : "orange";
  return std::to_string(g.handicap) + "," + std::to_string(g.game) + "," + winner + "," +
         std::to_string(g.blue_vp) + "," + std::to_string(g.orange_vp) + "," +
         std::to_string(g.level) + "," + std::to_string(g.plies) + "\n";
}

// A whole number in [lo, hi] from a games.csv field, or ConfigError naming the place.
int field(const std::string& text, const std::string& where, const char* name, int lo, int hi) {
  size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < lo || value > hi) {
    throw ConfigError(where + ": " + name + " \"" + text + "\" is not a whole number in " +
                      std::to_string(lo) + ".." + std::to_string(hi));
  }
  return static_cast<int>(value);
}

// The games of a run's games.csv, refusing a damaged one with its line and reason.
std::vector<BalanceGame> readGames(const std::string& path) {
  std::vector<BalanceGame> games;
  if (!fs::exists(path)) return games;
  std::istringstream in(env::readTextFile(path, "balance games file"));
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    const std::string where = env::printablePath(path) + ":" + std::to_string(++number);
    if (number == 1) {
      if (line != kGamesHeader) {
        throw ConfigError(where + ": not a balance games.csv header (expected \"" +
                          std::string(kGamesHeader) + "\")");
      }
      continue;
    }
    std::vector<std::string> f;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) f.push_back(cell);
    if (f.size() != 7) {
      throw ConfigError(where + ": " + std::to_string(f.size()) + " fields, expected 7");
    }
    BalanceGame g;
    g.handicap = field(f[0], where, "handicap_half", -kMaxHandicapHalf, kMaxHandicapHalf);
    g.game = field(f[1], where, "game", 0, 1'000'000);
    if (f[2] != "blue" && f[2] != "orange" && f[2] != "draw") {
      throw ConfigError(where + ": winner \"" + f[2] + "\" is not blue, orange or draw");
    }
    g.winner = f[2] == "draw" ? env::kNoSide : f[2] == "blue" ? 0 : 1;
    g.blue_vp = field(f[3], where, "blue_vp", -100000, 100000);
    g.orange_vp = field(f[4], where, "orange_vp", -100000, 100000);
    g.level = field(f[5], where, "level", 0, 4);
    g.plies = field(f[6], where, "plies", 0, 100'000'000);
    const int margin_half = 2 * (g.blue_vp - g.orange_vp) + g.handicap;
    const int winner = margin_half > 0 ? 0 : margin_half < 0 ? 1 : env::kNoSide;
    if (winner != g.winner || env::victoryLevel(margin_half) != g.level) {
      throw ConfigError(where + ": the winner and level do not follow from the VP and handicap");
    }
    games.push_back(g);
  }
  return games;
}

// What a run's balance.json records: what must not change when it is continued.
json runJson(const BalanceRequest& r, const env::Scenario& sc) {
  return {{"format", kBalanceFormat},
          {"scenario", r.scenario},
          {"scenario_crc32", env::crc32Of(sc.sourceText())},
          {"agents", r.agents},
          {"seed", std::to_string(r.seed)}};
}

// Opens the run's folder: continues the same run, starts over with force, refuses another.
std::vector<BalanceGame> openFolder(const BalanceRequest& r, const json& run) {
  if (openResumableFolder(r.out, "balance.json", "games.csv", run, r.force, "balance run")) {
    return readGames((fs::path(r.out) / "games.csv").string());
  }
  return {};
}

// The verdict when no handicap balances the scenario: why, and what else to change.
std::string unbalancedVerdict(const std::string& name, const std::string& agents,
                              const std::vector<HandicapTrial>& trials, const HandicapTrial& best) {
  std::ostringstream out;
  out << "no handicap balances " << name << " between " << agents << ". Tried:";
  for (const HandicapTrial& t : trials) {
    out << " " << env::handicapText(t.handicap) << ": blue "
        << core::sideShareText(sideShare(t.blue, t.orange, t.draws)) << ", " << t.draws
        << " draws;";
  }
  int mode = 0, count = 0;
  for (const auto& [margin, n] : best.margins) {
    if (n > count) mode = margin, count = n;
  }
  const double bunch = best.games ? 100.0 * count / best.games : 0;
  out << " The map margin (blue VP - orange VP) is " << mode << " in " << core::fixedText(bunch, 0)
      << "% of the games at " << env::handicapText(best.handicap)
      << ", so each half point of handicap moves that whole "
      << "bunch of games at once. ";
  if (2 * best.draws > best.games) {
    out << "Most games are draws at the best handicap, too few decisive ones to measure: ";
  }
  out << "Change the objectives' VP (a value that only one side's plans reach), their number, "
         "or the game's length, so that the margins spread; then balance again.";
  return out.str();
}

}  // namespace

bool isBalanced(const HandicapTrial& t) {
  return t.blue + t.orange > 0 && t.low <= 0.5 && t.high >= 0.5 && t.low >= 0.4 && t.high <= 0.6;
}

int evenHandicap(const std::map<int, int>& margins, int current) {
  int best = current;
  double best_gap = 2;
  for (int c = -kMaxHandicapHalf; c <= kMaxHandicapHalf; ++c) {
    int blue = 0, orange = 0;
    for (const auto& [margin, n] : margins) {
      const int total = 2 * margin + c;
      if (total > 0) blue += n;
      if (total < 0) orange += n;
    }
    if (blue + orange == 0) continue;
    const double gap = std::abs(static_cast<double>(blue) / (blue + orange) - 0.5);
    const bool nearer = std::abs(c - current) < std::abs(best - current);
    if (gap < best_gap - 1e-12 || (gap < best_gap + 1e-12 && nearer)) best = c, best_gap = gap;
  }
  return best;
}

HandicapTrial trialOf(int handicap, const std::vector<int>& margins) {
  HandicapTrial t;
  t.handicap = handicap;
  for (int margin : margins) {
    ++t.games;
    ++t.margins[margin];
    const int total = 2 * margin + handicap;
    if (total > 0) ++t.blue;
    if (total < 0) ++t.orange;
    if (total == 0) ++t.draws;
  }
  const SideShare share = sideShare(t.blue, t.orange, t.draws);
  t.share = share.share;
  t.low = share.low;
  t.high = share.high;
  return t;
}

BalanceOutcome balanceScenario(const BalanceRequest& r,
                               const std::function<void(const BalanceProgress&)>& progress,
                               const std::atomic<bool>* stop) {
  if (r.agents.empty() || r.agents.size() > 2) {
    throw ConfigError("scenario balance: give one agent spec (it plays itself) or two");
  }
  const bool pair = r.agents.size() == 2;
  if (r.games < 2 || (pair && r.games % 2 != 0)) {
    throw ConfigError("scenario balance: --games must be 2 or more" +
                      std::string(pair ? ", and even with two agents (each seed twice)" : ""));
  }
  if (r.max_games < r.games) throw ConfigError("scenario balance: --max-games is below --games");
  if (r.max_tries < 1) throw ConfigError("scenario balance: --max-tries must be 1 or more");
  if (r.jobs < 1) throw ConfigError("scenario balance: --jobs must be 1 or more");
  if (r.out.empty()) throw ConfigError("scenario balance: --out names the run's folder");
  const auto base = env::loadScenario(r.scenario);
  for (const std::string& spec : r.agents) agents::makeAgent(spec, 0);
  std::vector<BalanceGame> saved = openFolder(r, runJson(r, *base));
  env::AppendOnlyFile games_csv((fs::path(r.out) / "games.csv").string(), false);
  if (games_csv.size() == 0) games_csv.append(std::string(kGamesHeader) + "\n");
  const std::string against = r.agents[0] + (pair ? " and " + r.agents[1] : " and itself");

  BalanceOutcome out;
  std::mutex lock;
  int handicap = base->balance().signedHalf();
  int games = r.games;
  bool settled = false;  // the search ended by itself, not by running out of tries
  for (int tries = 0; tries < r.max_tries && !out.interrupted;) {
    // Play game 0..games-1 at this handicap, keeping those the folder has.
    const auto sc = env::withHandicap(*base, handicap);
    std::vector<std::optional<int>> margins(static_cast<size_t>(games));
    int done = 0;
    for (const BalanceGame& g : saved) {
      if (g.handicap == handicap && g.game < games && !margins[static_cast<size_t>(g.game)]) {
        margins[static_cast<size_t>(g.game)] = g.blue_vp - g.orange_vp;
        ++done;
      }
    }
    progress({handicap, done, games,
              "handicap " + env::handicapText(handicap) + ": " + std::to_string(games) + " games" +
                  (done ? " (" + std::to_string(done) + " saved)" : "")});
    const auto t0 = std::chrono::steady_clock::now();
    mcts::forEachInParallel(r.jobs, games, [&](int i) {
      if (margins[static_cast<size_t>(i)] || (stop && *stop)) return;
      const int seed_index = pair ? i / 2 : i;
      const bool swapped = pair && i % 2 == 1;
      const uint64_t seed = env::deriveSeed(r.seed, seed_index);
      auto blue = agents::makeAgent(r.agents[swapped ? 1 : 0], agents::agentSeed(seed, 0));
      auto orange =
          agents::makeAgent(r.agents[pair && !swapped ? 1 : 0], agents::agentSeed(seed, 1));
      const agents::GameSummary s = agents::playGame(*sc, *blue, *orange, seed, nullptr, stop);
      if (s.interrupted) return;
      const BalanceGame g{handicap,
                          i,
                          s.result.winner,
                          s.result.vp[0],
                          s.result.vp[1],
                          s.result.level,
                          static_cast<int>(s.plies.size())};
      std::lock_guard guard(lock);
      games_csv.append(csvRow(g));
      saved.push_back(g);
      margins[static_cast<size_t>(i)] = g.blue_vp - g.orange_vp;
      progress({handicap, ++done, games, ""});
    });
    std::vector<int> played;
    for (const auto& m : margins) {
      if (m) played.push_back(*m);
    }
    if (done < games) {
      out.interrupted = true;
      break;
    }
    HandicapTrial t = trialOf(handicap, played);
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto same = std::find_if(out.trials.begin(), out.trials.end(),
                                   [&](const HandicapTrial& x) { return x.handicap == handicap; });
    if (same != out.trials.end()) out.trials.erase(same);
    out.trials.push_back(t);
    progress({handicap, done, games,
              "  blue wins " + core::sideShareText(sideShare(t.blue, t.orange, t.draws)) + ", " +
                  std::to_string(t.draws) + " draws"});
    ++tries;
    settled = true;
    if (isBalanced(t)) break;
    if (t.low <= 0.5 && t.high >= 0.5) {  // even, but not measured closely enough
      if (games >= r.max_games) break;
      settled = false;
      games = std::min(2 * games, r.max_games);
      continue;
    }
    const auto tried = [&](int h) {
      return std::any_of(out.trials.begin(), out.trials.end(),
                         [&](const HandicapTrial& x) { return x.handicap == h; });
    };
    int next = evenHandicap(t.margins, handicap);
    if (tried(next)) {  // the last try's margins point back: ask all the games played so far
      std::map<int, int> pooled;
      for (const HandicapTrial& x : out.trials) {
        for (const auto& [margin, n] : x.margins) pooled[margin] += n;
      }
      next = evenHandicap(pooled, handicap);
    }
    if (tried(next)) break;
    settled = false;
    handicap = next;
    games = r.games;
  }
  if (out.trials.empty()) return out;

  // The trial to keep: a balanced one, else the one nearest to even.
  for (size_t i = 0; i < out.trials.size(); ++i) {
    const HandicapTrial& t = out.trials[i];
    const bool better = out.chosen < 0 || (isBalanced(t) && !out.balanced) ||
                        (isBalanced(t) == out.balanced &&
                         std::abs(t.share - 0.5) <
                             std::abs(out.trials[static_cast<size_t>(out.chosen)].share - 0.5));
    if (better) {
      out.chosen = static_cast<int>(i);
      out.balanced = isBalanced(t);
    }
  }
  const HandicapTrial& best = out.trials[static_cast<size_t>(out.chosen)];
  if (out.interrupted) {  // its last try is short of its games: no verdict yet
    out.balanced = false;
    out.verdict = "stopped before the search ended; the same command continues it";
  } else if (out.balanced) {
    out.verdict = base->name() + " is balanced at " + env::handicapText(best.handicap) +
                  " between " + against + ": blue wins " +
                  core::sideShareText(sideShare(best.blue, best.orange, best.draws)) + " (" +
                  std::to_string(best.draws) + " draws of " + std::to_string(best.games) + ")";
  } else {
    out.verdict = unbalancedVerdict(base->name(), against, out.trials, best);
    if (!settled) {
      out.verdict = "the " + std::to_string(r.max_tries) + " tries (--max-tries) ran out before " +
                    "the search ended. So far, " + out.verdict;
    }
  }
  games_csv.sync();
  games_csv.close();
  if (!out.interrupted) {
    out.scenario_file = (fs::path(r.out) / (base->name() + ".json")).string();
    const env::BalanceMeasurement measured{pair ? r.agents[0] + " vs " + r.agents[1] : r.agents[0],
                                           best.blue, best.orange, best.draws, r.seed};
    env::writeFileDurably(out.scenario_file, env::scenarioTextWithHandicap(
                                                 base->sourceText(), best.handicap, {measured}));
    json trials = json::array();
    for (const HandicapTrial& t : out.trials) {
      json margins = json::object();
      for (const auto& [m, n] : t.margins) margins[std::to_string(m)] = n;
      trials.push_back({{"handicap_half", t.handicap},
                        {"handicap", env::handicapText(t.handicap)},
                        {"games", t.games},
                        {"blue_wins", t.blue},
                        {"orange_wins", t.orange},
                        {"draws", t.draws},
                        {"blue_share", t.share},
                        {"blue_share_95", {t.low, t.high}},
                        {"map_margins", margins},
                        {"balanced", isBalanced(t)}});
    }
    env::writeFileDurably((fs::path(r.out) / "summary.json").string(),
                          json({{"scenario", base->name()},
                                {"agents", r.agents},
                                {"seed", std::to_string(r.seed)},
                                {"trials", trials},
                                {"chosen", best.handicap},
                                {"balanced", out.balanced},
                                {"verdict", out.verdict}})
                                  .dump(2) +
                              "\n");
  }
  return out;
}

}  // namespace morne::arena

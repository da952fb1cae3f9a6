// The loop's roles from the library, in-process and without the binary (loop/learning_loop.h):
// a run of a tiny network takes its roles in turn to generation 1, is resumed to generation 2,
// and `loop status` reads it; the same run with two self-play jobs learns the same networks.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "agents/network_agent.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "loop/gate_role.h"
#include "loop/learner_role.h"
#include "loop/learning_loop.h"
#include "loop/run_summary.h"
#include "loop/selfplay_worker.h"
#include "nn/network.h"
#include "training/network_loader.h"

namespace morne::test {
namespace {

namespace fs = std::filesystem;

loop::LoopConfig tinyRun(int generations) {
  loop::LoopConfig c;
  c.loop.scenario = "duel";
  c.loop.generations = generations;
  c.loop.bootstrap = "mcts:sims=8";
  c.loop.bootstrap_games = 8;
  c.loop.games = 8;
  c.loop.jobs = 1;
  c.loop.agent = "az:sims=4,gumbel=1";
  c.loop.gate_agent = "az:sims=2";
  c.loop.gate_rounds = 1;
  c.loop.ladder_rounds = 1;
  c.loop.ladder_agent = "az:sims=2";
  c.loop.ladder_references = "rule random";
  c.network.blocks = 1;
  c.network.channels = 8;
  c.network.value_hidden = 8;
  c.train.steps = 20;
  c.train.batch = 32;
  c.train.metrics_every = 10;
  c.train.validation_rows = 64;
  return c;
}

// An empty folder of its own for a test's run.
fs::path freshDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("morne_loop_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void useNetworks() {
  nn::configureTorchRuntime(1);
  agents::setNetworkLoader(training::loadNetworkEvaluator);
}

TEST(LoopRoles, ARunTakesItsRolesInTurnInProcessAndResumes) {
  useNetworks();
  const fs::path dir = freshDir("roles");
  const std::atomic<bool> stop{false};
  for (int generations : {1, 2}) {
    const loop::LoopConfig c = tinyRun(generations);
    loop::writeLoopRecord(dir.string(), c);
    const loop::RoleContext run = loop::openRun(c, dir.string(), true, &stop);
    ASSERT_TRUE(loop::runRolesInTurn(run)) << "generations " << generations;
    EXPECT_TRUE(fs::exists(dir / ("gates/gen-00" + std::to_string(generations) + ".json")));
    EXPECT_FALSE(run.folder.readLatest().network.empty());
  }
  EXPECT_TRUE(fs::exists(dir / "selfplay/gen-001"));
  const std::string status = loop::loopStatus(dir.string());
  EXPECT_NE(status.find("finished, 2 generations"), std::string::npos) << status;
  EXPECT_NE(status.find("\n  2 "), std::string::npos) << "no row of generation 2: " << status;
  fs::remove_all(dir);
}

// A worker suspends resignation while more of its checked games than resign-bound would have
// resigned wrongly: then every game plays on (and is measured), none resigns.
TEST(LoopRoles, ResignationIsSuspendedWhileItsCheckedGamesResignWrongly) {
  useNetworks();
  const fs::path dir = freshDir("resign");
  const std::string start = (dir / "start.pt").string();
  nn::NetworkConfig net = nn::networkConfigFor(*env::loadScenario("duel"));
  net.blocks = 1;
  net.channels = 8;
  net.value_hidden = 8;
  nn::Network::create(net, 3)->save(start);
  loop::LoopConfig c = tinyRun(1);
  c.loop.init = start;             // a network plays data set 0, so resignation applies
  c.selfplay.resign_value = 0.01;  // an untrained network's values: many wrong resignations
  c.selfplay.resign_moves = 1;
  c.selfplay.resign_check_fraction = 0.5;
  c.loop.resign_bound = 0.05;
  const std::atomic<bool> stop{false};
  fs::create_directories(dir / "run");
  loop::writeLoopRecord((dir / "run").string(), c);
  const loop::RoleContext run = loop::openRun(c, (dir / "run").string(), true, &stop);
  loop::SelfplayWorker worker(run, "w", 1);
  bool suspended = false;
  for (int chunk = 0; chunk < 8 && !suspended; ++chunk) {
    worker.playChunk(8);
    suspended = readFile(dir / "run/log.txt").find("resignation suspended") != std::string::npos;
  }
  ASSERT_TRUE(suspended) << readFile(dir / "run/log.txt");
  const nlohmann::json before = loop::readJsonFile((dir / "run/workers/w.json").string(), {});
  worker.playChunk(8);
  const std::string log = readFile(dir / "run/log.txt");
  const std::string last = log.substr(log.rfind("selfplay w: 8 games"));
  EXPECT_NE(last.find(", 0 resigned, "), std::string::npos) << last;
  const nlohmann::json after = loop::readJsonFile((dir / "run/workers/w.json").string(), {});
  EXPECT_GT(after["resign_checks"].get<double>(), before["resign_checks"].get<double>());
  fs::remove_all(dir);
}

// A run made before the gate rules were settings reads back with the rule it used: score.
TEST(LoopRoles, ARecordWithoutTheGateRuleResumesWithTheScoreRule) {
  const fs::path dir = freshDir("old");
  loop::LoopConfig c = tinyRun(2);
  c.loop.gate = "sprt";
  loop::writeLoopRecord(dir.string(), c);
  nlohmann::json record = loop::readJsonFile((dir / "loop.json").string(), nlohmann::json());
  for (const char* key :
       {"gate", "sprt_elo0", "sprt_elo1", "sprt_alpha", "sprt_beta", "gate_guard"})
    record["loop"].erase(key);
  std::ofstream((dir / "loop.json").string()) << record.dump(2);
  const loop::LoopConfig back = loop::readLoopRecord(dir.string());
  EXPECT_EQ(back.loop.gate, "score");
  EXPECT_EQ(back.loop.sprt_elo1, 35);
  record["loop"]["gate"] = "coin";
  std::ofstream((dir / "loop.json").string()) << record.dump(2);
  EXPECT_THROW(loop::checkLoopSettings(loop::readLoopRecord(dir.string()).loop), ConfigError);
  fs::remove_all(dir);
}

// Every setting has its row: a record of settings that all differ from the defaults reads back
// whole (a setting without a row would come back as its default).
TEST(LoopRoles, EverySettingIsRecordedAndReadBack) {
  const fs::path dir = freshDir("rows");
  loop::LoopConfig c;
  loop::LoopSettings& s = c.loop;
  s = {.scenario = "crossing",
       .mode = "processes",
       .generations = 9,
       .max_cpu_hours = 2.5,
       .bootstrap = "rule",
       .init = "start.pt",
       .bootstrap_games = 7,
       .agent = "az:sims=3",
       .games = 5,
       .jobs = 3,
       .threads = 2,
       .workers = 4,
       .chunk_games = 6,
       .resign_bound = 0.2,
       .gate_agent = "az:sims=5",
       .gate = "sprt",
       .gate_rounds = 11,
       .gate_score = 0.6,
       .sprt_elo0 = -5,
       .sprt_elo1 = 40,
       .sprt_alpha = 0.1,
       .sprt_beta = 0.2,
       .gate_guard = 0.3,
       .average_snapshots = 3,
       .average_decay = 0.5,
       .ladder_every = 2,
       .ladder_rounds = 9,
       .ladder_agent = "az:sims=7",
       .ladder_references = "rule random"};
  const loop::LoopSettings defaults;
  EXPECT_FALSE(s.scenario == defaults.scenario || s.max_cpu_hours == defaults.max_cpu_hours ||
               s.average_snapshots == defaults.average_snapshots ||
               s.ladder_references == defaults.ladder_references);
  loop::writeLoopRecord(dir.string(), c);
  EXPECT_TRUE(loop::readLoopRecord(dir.string()).loop == s);
  fs::remove_all(dir);
}

// The SPRT gate plays pairs until its test decides (or its cap) and records its ratio; the rule
// none promotes the newest network without games.
TEST(LoopRoles, TheSprtAndNoGateRules) {
  useNetworks();
  for (const std::string rule : {"sprt", "none"}) {
    const fs::path dir = freshDir("gate_" + rule);
    const std::atomic<bool> stop{false};
    loop::LoopConfig c = tinyRun(2);
    c.loop.gate = rule;
    c.loop.gate_rounds = 10;
    if (rule == "none") c.loop.average_snapshots = 3;  // and the newest is a moving average
    loop::writeLoopRecord(dir.string(), c);
    EXPECT_EQ(loop::readLoopRecord(dir.string()).loop.gate, rule);
    const loop::RoleContext run = loop::openRun(c, dir.string(), true, &stop);
    ASSERT_TRUE(loop::runRolesInTurn(run)) << rule;
    const nlohmann::json gate =
        loop::readJsonFile((dir / "gates/gen-002.json").string(), nlohmann::json())["gate"];
    ASSERT_TRUE(gate.is_object()) << rule;
    if (rule == "sprt") {
      EXPECT_EQ(gate["rule"], "sprt");
      const int pairs = gate["pairs"].get<int>();
      EXPECT_TRUE(pairs == 8 || pairs == 10) << "looks every 8 pairs, capped at 10: " << pairs;
      EXPECT_EQ(gate["wins"].get<int>() + gate["draws"].get<int>() + gate["losses"].get<int>(),
                2 * pairs);
      const std::string verdict = gate["verdict"];
      const double llr = gate["llr"].get<double>();
      EXPECT_EQ(gate["promoted"].get<bool>(), verdict == "H1" || (verdict == "cap" && llr > 0));
    } else {
      EXPECT_EQ(gate["rule"], "none");
      EXPECT_TRUE(gate["promoted"].get<bool>());
      EXPECT_EQ(run.folder.readLatest().network, "nets/gen-002.pt");
      // Generation 2 plays the average of candidates 2 and 1, weighing 1 and 0.75.
      const nlohmann::json record =
          loop::readJsonFile((dir / "gates/gen-002.json").string(), nlohmann::json());
      ASSERT_EQ(record["averaged"].size(), 2u) << record.dump();
      EXPECT_EQ(record["averaged"][1]["weight"], 0.75);
      const auto c1 = nn::Network::load((dir / "nets/candidate-gen-001.pt").string());
      const auto c2 = nn::Network::load((dir / "nets/candidate-gen-002.pt").string());
      const auto played = nn::Network::load((dir / "nets/gen-002.pt").string());
      const std::vector<float> w1 = c1->weightValues(), w2 = c2->weightValues(),
                               wp = played->weightValues();
      ASSERT_EQ(wp.size(), w1.size());
      for (size_t i = 0; i < wp.size(); i += 97)
        EXPECT_NEAR(wp[i], (w2[i] + 0.75f * w1[i]) / 1.75f, 1e-5f) << i;
    }
    // The status names the best network, promoted or not.
    EXPECT_NE(loop::loopStatus(dir.string()).find("best:       " + run.folder.readLatest().network),
              std::string::npos)
        << loop::loopStatus(dir.string());
    fs::remove_all(dir);
  }
}

// The learner trains the next generation once `games` new games are there in any data set: it
// does not wait for the gate's decision (the worker goes on playing the best network). A
// learner.json written before the games were counted waits, as it did, for the data set of the
// last gate.
TEST(LoopRoles, TheLearnerTrainsOnNewGamesWithoutWaitingForTheGate) {
  useNetworks();
  const fs::path dir = freshDir("overlap");
  const std::atomic<bool> stop{false};
  const loop::LoopConfig c = tinyRun(3);
  loop::writeLoopRecord(dir.string(), c);
  const loop::RoleContext run = loop::openRun(c, dir.string(), true, &stop);
  loop::SelfplayWorker worker(run, "w", 1);
  ASSERT_TRUE(worker.fill(0, 8));
  {
    loop::LearnerRole learner(run, nullptr);
    ASSERT_TRUE(learner.dataReady());
    ASSERT_TRUE(learner.trainNext());
    EXPECT_FALSE(learner.dataReady()) << "no new games yet";
  }
  // Gate 1 has not decided: the worker goes on with data set 0.
  ASSERT_TRUE(worker.fill(0, 12));
  EXPECT_FALSE(loop::LearnerRole(run, nullptr).dataReady()) << "4 new games of 8";
  ASSERT_TRUE(worker.fill(0, 16));
  loop::LearnerRole learner(run, nullptr);
  ASSERT_TRUE(learner.dataReady());
  learner.addWait(2.5);
  ASSERT_TRUE(learner.trainNext());
  EXPECT_TRUE(fs::exists(dir / "nets/candidate-gen-002.pt"));
  EXPECT_FALSE(fs::exists(dir / "gates/gen-001.json"));
  const nlohmann::json trained =
      loop::readJsonFile((dir / "train/gen-002.json").string(), nlohmann::json());
  EXPECT_EQ(trained.value("waited_seconds", 0.0), 2.5) << trained.dump();
  loop::GateRole gate(run);
  ASSERT_TRUE(gate.gateNext());
  ASSERT_TRUE(gate.gateNext());
  EXPECT_EQ(run.folder.readLatest().data_set, 2);
  // The gate has named data set 2, which holds no game yet: the learner plans without it.
  fs::create_directories(dir / "selfplay/gen-002");
  EXPECT_NO_THROW(learner.planNext());

  const std::string state_path = (dir / "train/learner.json").string();
  nlohmann::json state = loop::readJsonFile(state_path, nlohmann::json());
  state.erase("counted_games");
  state.erase("waited_seconds");
  std::ofstream(state_path) << state.dump(1);
  const loop::LearnerRole old(run, nullptr);
  EXPECT_EQ(old.generation(), 3);
  EXPECT_FALSE(old.dataReady()) << "data set 2 is empty";
  ASSERT_TRUE(worker.fill(2, 8));
  EXPECT_TRUE(old.dataReady());
  fs::remove_all(dir);
}

// Self-play jobs end games in an order that depends on the threads; the learner reads them in
// the order of their ids, so the networks do not depend on the jobs.
TEST(LoopRoles, TheNetworksDoNotDependOnTheSelfPlayJobs) {
  useNetworks();
  std::vector<uint64_t> checksums[2];
  for (int jobs : {1, 2}) {
    const fs::path dir = freshDir("jobs" + std::to_string(jobs));
    const std::atomic<bool> stop{false};
    loop::LoopConfig c = tinyRun(2);
    c.loop.jobs = jobs;
    loop::writeLoopRecord(dir.string(), c);
    const loop::RoleContext run = loop::openRun(c, dir.string(), true, &stop);
    ASSERT_TRUE(loop::runRolesInTurn(run)) << "jobs " << jobs;
    for (int g : {1, 2}) {
      const std::string net =
          (dir / ("nets/candidate-gen-00" + std::to_string(g) + ".pt")).string();
      checksums[jobs - 1].push_back(nn::Network::load(net)->checksum());
    }
    fs::remove_all(dir);
  }
  EXPECT_EQ(checksums[0], checksums[1]);
}

// Two generations with every learning option of docs/training.md on at once: the SPRT gate,
// the moving average, the search-value mix and the three auxiliary heads, whose losses the
// learner's record reports.
TEST(LoopRoles, TwoGenerationsWithEveryLearningOption) {
  useNetworks();
  const fs::path dir = freshDir("all");
  const std::atomic<bool> stop{false};
  loop::LoopConfig c = tinyRun(2);
  c.loop.gate = "sprt";
  c.loop.gate_rounds = 8;
  c.loop.average_snapshots = 2;
  c.loop.max_cpu_hours = 10;
  c.train.q_ratio = 0.5;
  c.train.learner.margin_weight = 1;
  c.train.learner.control_weight = 1;
  c.train.learner.short_value_weight = 1;
  loop::writeLoopRecord(dir.string(), c);
  const loop::RoleContext run = loop::openRun(c, dir.string(), true, &stop);
  ASSERT_TRUE(loop::runRolesInTurn(run));
  const nlohmann::json trained =
      loop::readJsonFile((dir / "train/gen-002.json").string(), nlohmann::json());
  for (const char* figure : {"margin_loss", "control_loss", "short_value_loss"})
    EXPECT_GT(trained.value(figure, 0.0), 0) << figure << " " << trained.dump();
  // The gate's record says the run's CPU-hours when it decided: the training's and more.
  const nlohmann::json gated =
      loop::readJsonFile((dir / "gates/gen-002.json").string(), nlohmann::json());
  EXPECT_GT(gated.value("cpu_hours", 0.0), trained.value("cpu_hours", 1.0)) << gated.dump();
  fs::remove_all(dir);
}

// --max-cpu-hours ends the run after the first gate at which the run has spent it: with a
// budget any run exceeds at once, after generation 1 of 3; resumed with a larger one, it goes on.
TEST(LoopRoles, ACpuBudgetEndsTheRunAfterTheGateThatSpentIt) {
  useNetworks();
  const fs::path dir = freshDir("budget");
  const std::atomic<bool> stop{false};
  loop::LoopConfig c = tinyRun(3);
  c.loop.max_cpu_hours = 1e-9;
  loop::writeLoopRecord(dir.string(), c);
  EXPECT_EQ(loop::readLoopRecord(dir.string()).loop.max_cpu_hours, 1e-9);
  const loop::RoleContext run = loop::openRun(c, dir.string(), true, &stop);
  ASSERT_TRUE(loop::runRolesInTurn(run));
  EXPECT_TRUE(fs::exists(dir / "gates/gen-001.json"));
  EXPECT_FALSE(fs::exists(dir / "gates/gen-002.json"));
  c.loop.max_cpu_hours = 100;
  const loop::RoleContext more = loop::openRun(c, dir.string(), true, &stop);
  ASSERT_TRUE(loop::runRolesInTurn(more));
  EXPECT_TRUE(fs::exists(dir / "gates/gen-003.json"));
  c.loop.mode = "processes";
  EXPECT_THROW(loop::checkLoopSettings(c.loop), ConfigError);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace morne::test

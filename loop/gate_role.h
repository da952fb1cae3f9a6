#pragma once
// The gate of a learning run (loop/run_folder.h). Once the learner has written candidate g, the
// gate plays it against the best network in duplicate rounds and promotes it when its score
// reaches `gate_score` (the first candidate is promoted at once): the network is copied to
// nets/gen-g.pt, then latest.json names it and data set g, so the workers play with it. On a
// schedule, when the best network changed, it is rated on the ladder (fixed references at equal
// time per decision: an Elo with its 95% interval, by generation and by CPU-hour). Its state is
// gates/state.json; a gate or ladder cut short is played again (the same seeds, the same
// games).

#include "loop/loop_config.h"

namespace morne::loop {

class GateRole {
 public:
  // Reads gates/state.json and makes latest.json agree with it (a gate killed between the two
  // writes). Throws ConfigError when it is damaged.
  explicit GateRole(const RoleContext& run);

  // The generation it gates next; past the run's last when the run is done.
  int generation() const { return state_.generation; }

  // True when the learner has written the next generation's candidate.
  bool candidateReady() const;

  // Gates the next generation, then ladders it when due. False when stopped.
  bool gateNext();

  // Plays a ladder still due (from a gate cut short before it). False when stopped.
  bool ladderIfDue();

 private:
  struct State {
    int generation = 1;
    std::string best;  // nets/gen-NNN.pt
    int best_generation = -1;
    int laddered_generation = -1;  // the best network's generation at the last ladder
    int ladder_due = -1;           // the generation whose ladder is to be played
    double cpu_seconds = 0;
  };
  // gates/state.json's fields.
  static const env::OptionRow<State> kStateRows[6];
  void saveState();
  void publish() const;
  // What latest.json says after the gate's state (the best network measured).
  LatestNetwork fromState() const;
  // Gates generation g, begun when this process had used `cpu0` CPU seconds (its record's
  // cpu_hours include the gate itself).
  bool gate(int g, double cpu0);
  // The ladder of generation g, begun when this process had used `cpu0` CPU seconds: its
  // record's cpu_hours include the ladder itself.
  bool ladder(int g, double cpu0);

  const RoleContext& run_;
  State state_;
};

// The `morne loop gate` process: gates each candidate when it is there, until the run's last
// generation or a stop. Returns true when the last is gated.
bool runGateRole(const RoleContext& run);

}  // namespace morne::loop

#include "training/shard_check.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "env/io/scenario_library.h"
#include "env/rules.h"
#include "nn/observation.h"
#include "nn/policy_layout.h"

namespace morne::training {

namespace {

class Checker {
 public:
  explicit Checker(ShardCheck& out) : out_(out) {}

  void problem(const std::string& where, const std::string& what) {
    if (out_.problems.size() < ShardCheck::kMaxListed) out_.problems.push_back(where + ": " + what);
    ++out_.problem_count;
  }

  // Values that must be finite and within [-1, 1]; one problem per row at most.
  void unitRange(const std::string& where, const float* v, size_t n, const char* what) {
    for (size_t i = 0; i < n; ++i) {
      if (!std::isfinite(v[i])) return problem(where, std::string(what) + " value is not finite");
      if (v[i] < -1 || v[i] > 1) {
        return problem(where,
                       std::string(what) + " value " + std::to_string(v[i]) + " outside [-1, 1]");
      }
    }
  }

 private:
  ShardCheck& out_;
};

// The shapes the encoder gives a built-in scenario (empty for a scenario file).
std::optional<RowShape> expectedShape(const std::string& scenario) {
  for (const env::BuiltinScenario& b : env::builtinScenarios()) {
    if (scenario != b.name) continue;
    const auto sc = env::loadScenario(scenario);
    const nn::ObservationShape o = nn::ObservationEncoder(*sc).shape();
    return RowShape{o.planes, o.height, o.width, o.globals, nn::PolicyLayout(*sc).size()};
  }
  return std::nullopt;
}

void checkHeader(const ShardContents& c, Checker& check) {
  if (c.encoder_version != nn::kEncoderVersion) {
    check.problem("attributes", "encoder version " + std::to_string(c.encoder_version) +
                                    " is not the one this morne knows (" +
                                    std::to_string(nn::kEncoderVersion) + ")");
  }
  if (const std::optional<RowShape> want = expectedShape(c.scenario)) {
    const RowShape& s = c.shape;
    if (s.planes != want->planes || s.height != want->height || s.width != want->width ||
        s.globals != want->globals || s.policy != want->policy) {
      check.problem("shapes", "rows of " + std::to_string(s.planes) + "x" +
                                  std::to_string(s.height) + "x" + std::to_string(s.width) +
                                  " planes, " + std::to_string(s.globals) + " globals, policy " +
                                  std::to_string(s.policy) + " do not fit scenario " + c.scenario);
    }
  }
}

void checkGame(const ShardContents& c, size_t index, Checker& check) {
  const GameData& g = c.games[index];
  const std::string where = "game " + std::to_string(g.id);
  if (g.winner < -1 || g.winner > 1) check.problem(where, "winner " + std::to_string(g.winner));
  if (g.level < 0 || g.level > 4) check.problem(where, "victory level " + std::to_string(g.level));
  if (g.end > kEndAdjudicated) check.problem(where, "unknown ending " + std::to_string(g.end));
  if (g.winner < 0 && g.level != 0) check.problem(where, "a draw with victory level above 0");
  if (g.decisions < 0 || g.plies < g.decisions) {
    check.problem(
        where, std::to_string(g.decisions) + " decisions in " + std::to_string(g.plies) + " plies");
  }
  if (c.declared_rows[index] != g.rows) {
    check.problem(where, "games/positions says " + std::to_string(c.declared_rows[index]) +
                             " rows, the shard has " + std::to_string(g.rows));
  }
  if (g.rows > g.decisions) {
    check.problem(where, std::to_string(g.rows) + " recorded positions but " +
                             std::to_string(g.decisions) + " decisions");
  }
}

}  // namespace

namespace {

// The auxiliary targets of row `r` of `g` (NaN, unknown, passes): the margin is the game's
// score difference (victory points and handicap) for the side to move, control is -1, 0 or +1
// on every square, the short-term values lie in [-1, 1].
void checkAuxiliaryTargets(const ShardContents& c, const GameData& g, size_t r,
                           const std::string& where, Checker& check) {
  if (r < g.margin.size() && !std::isnan(g.margin[r])) {
    const float blue = finalMargin(g);
    const float expected = g.side[r] == 0 ? blue : -blue;
    if (g.margin[r] != expected) {
      check.problem(where, "margin " + std::to_string(g.margin[r]) +
                               " does not match the victory points and handicap (" +
                               std::to_string(expected) + ")");
    }
  }
  const auto area = static_cast<size_t>(c.shape.area());
  for (size_t i = r * area; i < (r + 1) * area && i < g.control.size(); ++i) {
    const float x = g.control[i];
    if (!std::isnan(x) && x != -1.0f && x != 0.0f && x != 1.0f) {
      check.problem(where, "control " + std::to_string(x) + " is not -1, 0 or 1");
      break;
    }
  }
  const size_t k = kShortValueHorizons.size();
  for (size_t i = r * k; i < (r + 1) * k && i < g.short_value.size(); ++i) {
    const float v = g.short_value[i];
    if (!std::isnan(v) && !(v >= -1.0f && v <= 1.0f)) {
      check.problem(where, "short-term value " + std::to_string(v) + " outside [-1, 1]");
      break;
    }
  }
}

}  // namespace

ShardCheck checkShard(const ShardContents& c) {
  ShardCheck out;
  Checker check(out);
  checkHeader(c, check);
  const size_t plane = static_cast<size_t>(c.shape.planeSize());
  const size_t globals = static_cast<size_t>(c.shape.globals);
  const size_t policy = static_cast<size_t>(c.shape.policy);
  double legal_sum = 0, top_sum = 0, value_sum = 0;
  for (size_t index = 0; index < c.games.size(); ++index) {
    checkGame(c, index, check);
    const GameData& g = c.games[index];
    int32_t previous_move = -1;
    for (int row = 0; row < g.rows; ++row) {
      const size_t r = static_cast<size_t>(row);
      const std::string where = "game " + std::to_string(g.id) + " row " + std::to_string(row);
      check.unitRange(where, &g.planes[r * plane], plane, "a plane");
      check.unitRange(where, &g.globals[r * globals], globals, "a global");
      double total = 0, top = 0;
      int legal = 0;
      bool bad_mass = false, bad_mask = false, bad_value = false;
      for (size_t i = 0; i < policy; ++i) {
        const float p = g.policy[r * policy + i];
        const uint8_t l = g.legal[r * policy + i];
        bad_mask = bad_mask || l > 1;
        legal += l != 0;
        bad_value = bad_value || !std::isfinite(p) || p < 0;
        bad_mass = bad_mass || (p != 0 && !l);
        total += p;
        top = std::max(top, static_cast<double>(p));
      }
      if (bad_mask) check.problem(where, "legal mask value other than 0 or 1");
      if (legal == 0) check.problem(where, "no legal action in the mask");
      if (bad_value) check.problem(where, "negative or non-finite policy target");
      if (bad_mass) check.problem(where, "policy mass on an illegal action");
      if (!(std::abs(total - 1) <= 1e-3))
        check.problem(where, "policy target sums to " + std::to_string(total));
      if (g.side[r] > 1) check.problem(where, "side " + std::to_string(g.side[r]));
      if (g.phase[r] >= env::kNumPhases)
        check.problem(where, "phase " + std::to_string(g.phase[r]));
      if (g.move[r] <= previous_move) {
        check.problem(where, "move number " + std::to_string(g.move[r]) + " after " +
                                 std::to_string(previous_move));
      }
      previous_move = g.move[r];
      const float expected = g.winner < 0 ? 0.0f : g.winner == g.side[r] ? 1.0f : -1.0f;
      if (g.value[r] != expected) {
        check.problem(where, "value target " + std::to_string(g.value[r]) +
                                 " does not match the result (" + std::to_string(expected) + ")");
      }
      if (r < g.search_value.size() && !(g.search_value[r] >= -1.0f && g.search_value[r] <= 1.0f)) {
        check.problem(where,
                      "search value " + std::to_string(g.search_value[r]) + " outside [-1, 1]");
      }
      if (r < g.teacher_value.size() && !std::isnan(g.teacher_value[r]) &&
          !(g.teacher_value[r] >= -1.0f && g.teacher_value[r] <= 1.0f)) {
        check.problem(where,
                      "teacher value " + std::to_string(g.teacher_value[r]) + " outside [-1, 1]");
      }
      checkAuxiliaryTargets(c, g, r, where, check);
      legal_sum += legal;
      top_sum += top;
      value_sum += g.value[r];
    }
  }
  const double rows = static_cast<double>(std::max<int64_t>(1, c.rows));
  out.mean_legal = legal_sum / rows;
  out.mean_top_policy = top_sum / rows;
  out.mean_value = value_sum / rows;
  return out;
}

}  // namespace morne::training

#include "env/game_state.h"

namespace morne::env {

const char* unit_flag::name(int bit) {
  static constexpr const char* kNames[kCount] = {
      "eliminated", "awaiting_setup", "in_command", "moved",         "stepped",
      "halted",     "stuck",          "road_free",  "fired",         "attacked",
      "defended",   "charged",        "victorious", "reaction_used", "stuck_held"};
  return bit >= 0 && bit < kCount ? kNames[bit] : "?";
}

namespace {
constexpr std::string_view kChanceKindNames[] = {"none",        "marsh_test",   "charge_test",
                                                 "fire_die",    "fire_coin",    "combat_die",
                                                 "morale_test", "morale_check", "free_attack"};
}  // namespace

const char* morale_bit::name(int bit) {
  static constexpr const char* kNames[kCount] = {
      "routed",       "pursuing", "routed_before", "must_test",     "fell_back",
      "rally_tested", "fought",   "halt_held",     "fought_before", "saw_formed_friend"};
  return bit >= 0 && bit < kCount ? kNames[bit] : "?";
}

std::string_view chanceKindName(ChanceKind k) { return kChanceKindNames[static_cast<size_t>(k)]; }

std::optional<ChanceKind> parseChanceKindName(std::string_view name) {
  for (size_t i = 0; i < std::size(kChanceKindNames); ++i) {
    if (kChanceKindNames[i] == name) return static_cast<ChanceKind>(i);
  }
  return std::nullopt;
}

uint64_t computeHash(const GameState& s) {
  uint64_t h = zobrist::header(s.turn, s.side, s.phase) ^ resolutionKey(s) ^
               zobrist::handicap(s.handicap_half - s.sc().balance().signedHalf());
  for (int u = 0; u < s.num_units; ++u) {
    const UnitState& us = s.unit(u);
    h ^= zobrist::unitCell(u, us.cell) ^ zobrist::unitVc(u, us.vc) ^ zobrist::unitMo(u, us.mo) ^
         zobrist::unitMp(u, us.mp) ^ zobrist::unitFlags(u, us.flags) ^
         zobrist::unitTrail(u, us.trail) ^ zobrist::moraleStatus(u, s.moraleOf(u).packed());
  }
  for (size_t i = 0; i < s.owner.size(); ++i) h ^= zobrist::owner(static_cast<int>(i), s.owner[i]);
  for (size_t i = 0; i < s.fort_control.size(); ++i) {
    h ^= zobrist::fortControl(static_cast<int>(i), s.fort_control[i]);
  }
  return h;
}

}  // namespace morne::env

#include "env/io/event_text.h"

#include <array>
#include <nlohmann/json.hpp>

#include "env/crt.h"
#include "env/morale_model.h"

namespace morne::env {

using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 37> kEventNames = {
    "turn_begins",   "phase_begins",  "phase_skipped", "phase_ends",    "out_of_command",
    "placed",        "step",          "zoc_stop",      "marsh_test",    "charge",
    "charge_test",   "retreat",       "no_retreat",    "morale_change", "vc_change",
    "eliminated",    "owner_change",  "fort_control",  "fire",          "fire_result",
    "fire_coin",     "loss_ignored",  "hold",          "attack",        "combat_result",
    "morale_test",   "victorious",    "advance",       "rally",         "game_over",
    "morale_result", "rout",          "pursuit",       "free_attack",   "back_in_order",
    "halt",          "attack_refused"};

constexpr std::array<std::string_view, 4> kRoutEnds = {"", ", leaves the map", ", flees the field",
                                                       ", is captured"};

// The CRT cell packed in a kCombatResult event.
std::string crtText(int packed) {
  CrtCell cell;
  cell.attacker_loss = static_cast<uint8_t>(packed & 15);
  cell.defender_loss = static_cast<uint8_t>((packed >> 4) & 15);
  cell.attacker_test = (packed >> 8) & 1;
  cell.defender_test = (packed >> 9) & 1;
  return crtCellText(cell);
}

std::string id(const Scenario& sc, int u) { return u >= 0 ? sc.unit(u).id : "?"; }
std::string hex(const Scenario& sc, CellId c) { return c == kNoCell ? "-" : sc.label(c); }
std::string signedNumber(int v) { return (v > 0 ? "+" : "") + std::to_string(v); }
std::string side(int s) { return s == kNoSide ? "nobody" : std::string(sideColor(s)); }

}  // namespace

std::string_view eventTypeName(EventType t) {
  const auto i = static_cast<size_t>(t);
  return i < kEventNames.size() ? kEventNames[i] : "unknown";
}

std::string eventText(const Scenario& sc, const Event& e) {
  const std::string u = id(sc, e.unit);
  switch (e.type) {
    case EventType::kTurnBegins:
      return "== game turn " + std::to_string(e.a) + ", " + side(e.b) + " (" +
             sc.sideNames()[static_cast<size_t>(e.b)] + ") ==";
    case EventType::kPhaseBegins:
      return std::string(phaseName(static_cast<Phase>(e.a))) + " phase";
    case EventType::kPhaseSkipped:
      return std::string(phaseName(static_cast<Phase>(e.a))) + " phase: nothing to do";
    case EventType::kPhaseEnds:
      return std::string(phaseName(static_cast<Phase>(e.a))) + " phase ends" +
             (e.b ? " (no decision left)" : "");
    case EventType::kOutOfCommand:
      return u + " at " + hex(sc, e.from) + " is out of command (MA halved)";
    case EventType::kPlaced:
      return u + " placed at " + hex(sc, e.to);
    case EventType::kStep:
      return u + " " + hex(sc, e.from) + ">" + hex(sc, e.to) + " (" + std::to_string(e.a) + " MP" +
             (e.c ? ", road" : "") + ", " + std::to_string(e.b) + " left)";
    case EventType::kZocStop:
      return u + " stops in the enemy zone of control at " + hex(sc, e.to);
    case EventType::kMarshTest:
      return u + " marsh test: d4=" + std::to_string(e.a) + (e.c ? " <= " : " > ") +
             std::to_string(e.b) + (e.c ? ", stuck" : ", not stuck");
    case EventType::kCharge:
      return u + " charges " + id(sc, e.other) + " at " + hex(sc, e.to);
    case EventType::kChargeTest:
      return u + " charge test: d9=" + std::to_string(e.a) + " " + signedNumber(e.b) +
             (e.c ? ", fails" : ", holds");
    case EventType::kRetreat:
      return u + " retreats " + hex(sc, e.from) + ">" + hex(sc, e.to) +
             (e.a ? " into " + std::to_string(e.a) + " enemy zone(s) of control" : "");
    case EventType::kNoRetreat:
      return u + " cannot retreat from " + hex(sc, e.from);
    case EventType::kMoraleChange:
      return u + " MO " + signedNumber(e.a) + " -> " + std::to_string(e.b);
    case EventType::kVcChange:
      return u + " VC " + signedNumber(e.a) + " -> " + std::to_string(e.b);
    case EventType::kEliminated:
      return u + " eliminated at " + hex(sc, e.from);
    case EventType::kOwnerChange:
      return hex(sc, e.to) + " now held by " + side(e.a);
    case EventType::kFortControl:
      return "fort " + hex(sc, e.to) + " now controlled by " + side(e.a);
    case EventType::kFire:
      return u + (e.a ? " reaction fire at " : " fires at ") + id(sc, e.other) + " (" +
             hex(sc, e.from) + ">" + hex(sc, e.to) + ")";
    case EventType::kFireResult:
      return u + " fire: d4=" + std::to_string(e.a) + " " + signedNumber(e.b) + ", " +
             std::to_string(e.c) + " loss point(s)";
    case EventType::kFireCoin:
      return u + " loss coin: " + std::to_string(e.b) + " point(s) to " + (e.a == 1 ? "MO" : "VC");
    case EventType::kLossIgnored:
      return u + " is a general: the MO point is lost";
    case EventType::kHold:
      return u + " does not charge";
    case EventType::kAttack:
      return u + " attacks " + id(sc, e.other) + " (" + hex(sc, e.from) + ">" + hex(sc, e.to) +
             "): " + std::to_string(e.a) + " against " + std::to_string(e.b) + ", " + oddsName(e.c);
    case EventType::kCombatResult:
      return "combat: d6=" + std::to_string(e.a) + ", modified die " + std::to_string(e.b) + ": " +
             crtText(e.c);
    case EventType::kMoraleTest:
      return u + " morale test: " + (e.a ? "d9=" + std::to_string(e.a) : "certain") +
             " against MO " + std::to_string(e.b) + (e.c ? ", fails" : ", holds");
    case EventType::kVictorious:
      return u + " is victorious";
    case EventType::kAdvance:
      return u + " advances " + hex(sc, e.from) + ">" + hex(sc, e.to);
    case EventType::kRally:
      return u + " rallies: MO +" + std::to_string(e.a) + " -> " + std::to_string(e.b);
    case EventType::kGameOver:
      return "game over: blue " + std::to_string(e.a) + " VP, orange " + std::to_string(e.b) +
             " VP";
    case EventType::kMoraleResult:
      return u + " morale: die " + std::to_string(e.a) + ", factor " + std::to_string(e.b) + ": " +
             std::string(moraleOutcomeName(static_cast<MoraleOutcome>(e.c)));
    case EventType::kRout:
      if (e.a == 0 && e.b == 0) return u + " routs in place at " + hex(sc, e.from);
      return u + " routs " + hex(sc, e.from) + ">" + hex(sc, e.to) + " (" + std::to_string(e.a) +
             " hexes)" + std::string(kRoutEnds[static_cast<size_t>(e.b & 3)]);
    case EventType::kPursuit:
      return u + " pursues " + id(sc, e.other) + " " + hex(sc, e.from) + ">" + hex(sc, e.to);
    case EventType::kFreeAttack:
      return u + " free attack on " + id(sc, e.other) + ": d6=" + std::to_string(e.a) + ", " +
             oddsName(e.b) + ", " + std::to_string(e.c) + " VC lost";
    case EventType::kBackInOrder:
      return u + (e.a ? " stops its pursuit" : " rallies from its rout");
    case EventType::kHalt:
      return u + " halts: no move in its next movement phase";
    case EventType::kAttackRefused:
      return u + " fails its test and does not attack " + id(sc, e.other) + " at poor odds";
  }
  return std::string(eventTypeName(e.type));
}

json eventJson(const Scenario& sc, const Event& e) {
  json j;
  j["event"] = eventTypeName(e.type);
  if (e.unit >= 0) j["unit"] = sc.unit(e.unit).id;
  if (e.other >= 0) j["other"] = sc.unit(e.other).id;
  if (e.from != kNoCell) j["from"] = sc.label(e.from);
  if (e.to != kNoCell) j["to"] = sc.label(e.to);
  switch (e.type) {
    case EventType::kTurnBegins:
      j["turn"] = e.a;
      j["side"] = sideColor(e.b);
      break;
    case EventType::kPhaseBegins:
    case EventType::kPhaseSkipped:
      j["phase"] = phaseName(static_cast<Phase>(e.a));
      break;
    case EventType::kPhaseEnds:
      j["phase"] = phaseName(static_cast<Phase>(e.a));
      j["automatic"] = e.b != 0;
      break;
    case EventType::kStep:
      j["cost"] = e.a;
      j["mp_left"] = e.b;
      j["road"] = e.c != 0;
      break;
    case EventType::kMarshTest:
      j["die"] = e.a;
      j["threshold"] = e.b;
      j["stuck"] = e.c != 0;
      break;
    case EventType::kChargeTest:
      j["die"] = e.a;
      j["modifier"] = e.b;
      j["failed"] = e.c != 0;
      break;
    case EventType::kRetreat:
      j["enemy_zocs"] = e.a;
      break;
    case EventType::kMoraleChange:
    case EventType::kVcChange:
      j["change"] = e.a;
      j["value"] = e.b;
      break;
    case EventType::kOwnerChange:
    case EventType::kFortControl:
      j["side"] = e.a == kNoSide ? json(nullptr) : json(sideColor(e.a));
      break;
    case EventType::kFire:
      j["reaction"] = e.a != 0;
      break;
    case EventType::kFireResult:
      j["die"] = e.a;
      j["modifier"] = e.b;
      j["losses"] = e.c;
      break;
    case EventType::kFireCoin:
      j["points_to"] = e.a == 1 ? "mo" : "vc";
      j["points"] = e.b;
      break;
    case EventType::kAttack:
      j["attack"] = e.a;
      j["defence"] = e.b;
      j["odds"] = oddsName(e.c);
      break;
    case EventType::kCombatResult:
      j["die"] = e.a;
      j["modified_die"] = e.b;
      j["result"] = crtText(e.c);
      break;
    case EventType::kMoraleTest:
      j["die"] = e.a == 0 ? json(nullptr) : json(e.a);
      j["mo"] = e.b;
      j["failed"] = e.c != 0;
      break;
    case EventType::kRally:
      j["change"] = e.a;
      j["value"] = e.b;
      break;
    case EventType::kGameOver:
      j["vp"] = {{"blue", e.a}, {"orange", e.b}};
      break;
    case EventType::kMoraleResult:
      j["die"] = e.a;
      j["factor"] = e.b;
      j["result"] = moraleOutcomeName(static_cast<MoraleOutcome>(e.c));
      break;
    case EventType::kRout:
      j["hexes"] = e.a;
      j["end"] = std::array<std::string_view, 4>{"on_map", "left_map", "fled",
                                                 "captured"}[static_cast<size_t>(e.b & 3)];
      break;
    case EventType::kFreeAttack:
      j["die"] = e.a;
      j["odds"] = oddsName(e.b);
      j["vc_lost"] = e.c;
      break;
    case EventType::kBackInOrder:
      j["what"] = e.a ? "pursuit_stopped" : "rallied";
      break;
    default:
      break;
  }
  return j;
}

}  // namespace morne::env

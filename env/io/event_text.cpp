#include "env/io/event_text.h"

#include <array>
#include <nlohmann/json.hpp>

#include "env/crt.h"
#include "env/morale_model.h"

namespace morne::env {

using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 4> kRoutEnds = {"", ", leaves the map", ", flees the field",
                                                       ", is captured"};
constexpr std::array<std::string_view, 4> kRoutEndNames = {"on_map", "left_map", "fled",
                                                           "captured"};

using F = EventField;
using Reading = FieldReading;

// Every event type, in the order of EventType. A pattern's {unit}, {other}, {from} and {to}
// name the event's units and hexes; {a}, {b}, {c} its numbers as their reading writes them
// ({b:title}: the scenario's name for side b); {a?X|Y} is X when a is not 0, else Y, and
// {a,b?X|Y} X when either is not 0.
const EventFormat kEvents[] = {
    {EventType::kTurnBegins,
     "turn_begins",
     "== game turn {a}, {b} ({b:title}) ==",
     {F{"turn", Reading::kNumber, "the game turn"}, F{"side", Reading::kSide, "the phasing side"},
      F{}}},
    {EventType::kPhaseBegins,
     "phase_begins",
     "{a} phase",
     {F{"phase", Reading::kPhase, "the phase"}, F{}, F{}}},
    {EventType::kPhaseSkipped,
     "phase_skipped",
     "{a} phase: nothing to do",
     {F{"phase", Reading::kPhase, "the phase, which offered no decision"}, F{}, F{}}},
    {EventType::kPhaseEnds,
     "phase_ends",
     "{a} phase ends{b? (no decision left)|}",
     {F{"phase", Reading::kPhase, "the phase"},
      F{"automatic", Reading::kFlag, "it ended because no decision was left"}, F{}}},
    {EventType::kOutOfCommand,
     "out_of_command",
     "{unit} at {from} is out of command (MA halved)",
     {}},
    {EventType::kPlaced, "placed", "{unit} placed at {to}", {}},
    {EventType::kStep,
     "step",
     "{unit} {from}>{to} ({a} MP{c?, road|}, {b} left)",
     {F{"cost", Reading::kNumber, "movement points spent"},
      F{"mp_left", Reading::kNumber, "movement points left"},
      F{"road", Reading::kFlag, "a step along a road"}}},
    {EventType::kZocStop, "zoc_stop", "{unit} stops in the enemy zone of control at {to}", {}},
    {EventType::kMarshTest,
     "marsh_test",
     "{unit} marsh test: d4={a}{c? <= | > }{b}{c?, stuck|, not stuck}",
     {F{"die", Reading::kNumber, "the d4"},
      F{"threshold", Reading::kNumber, "stuck at or below it"},
      F{"stuck", Reading::kFlag, "the unit is stuck"}}},
    {EventType::kCharge, "charge", "{unit} charges {other} at {to}", {}},
    {EventType::kChargeTest,
     "charge_test",
     "{unit} charge test: d9={a} {b}{c?, fails|, holds}",
     {F{"die", Reading::kNumber, "the d9"}, F{"modifier", Reading::kSigned, "the modifier"},
      F{"failed", Reading::kFlag, "the test failed"}}},
    {EventType::kRetreat,
     "retreat",
     "{unit} retreats {from}>{to}{a? into {a} enemy zone(s) of control|}",
     {F{"enemy_zocs", Reading::kNumber, "enemy zones of control entered"}, F{}, F{}}},
    {EventType::kNoRetreat, "no_retreat", "{unit} cannot retreat from {from}", {}},
    {EventType::kMoraleChange,
     "morale_change",
     "{unit} MO {a} -> {b}",
     {F{"change", Reading::kSigned, "the change"}, F{"value", Reading::kNumber, "the new MO"},
      F{}}},
    {EventType::kVcChange,
     "vc_change",
     "{unit} VC {a} -> {b}",
     {F{"change", Reading::kSigned, "the change"}, F{"value", Reading::kNumber, "the new VC"},
      F{}}},
    {EventType::kEliminated, "eliminated", "{unit} eliminated at {from}", {}},
    {EventType::kOwnerChange,
     "owner_change",
     "{to} now held by {a}",
     {F{"side", Reading::kSide, "the new owner"}, F{}, F{}}},
    {EventType::kFortControl,
     "fort_control",
     "fort {to} now controlled by {a}",
     {F{"side", Reading::kSide, "the side now controlling it"}, F{}, F{}}},
    {EventType::kFire,
     "fire",
     "{unit}{a? reaction fire at | fires at }{other} ({from}>{to})",
     {F{"reaction", Reading::kFlag, "reaction fire"}, F{}, F{}}},
    {EventType::kFireResult,
     "fire_result",
     "{unit} fire: d4={a} {b}, {c} loss point(s)",
     {F{"die", Reading::kNumber, "the d4"}, F{"modifier", Reading::kSigned, "the modifiers"},
      F{"losses", Reading::kNumber, "loss points"}}},
    {EventType::kFireCoin,
     "fire_coin",
     "{unit} loss coin: {b} point(s) to {a}",
     {F{"points_to", Reading::kLossTrack, "the track the points go to"},
      F{"points", Reading::kNumber, "the points decided"}, F{}}},
    {EventType::kLossIgnored, "loss_ignored", "{unit} is a general: the MO point is lost", {}},
    {EventType::kHold, "hold", "{unit} does not charge", {}},
    {EventType::kAttack,
     "attack",
     "{unit} attacks {other} ({from}>{to}): {a} against {b}, {c}",
     {F{"attack", Reading::kNumber, "attack strength"},
      F{"defence", Reading::kNumber, "defence strength"},
      F{"odds", Reading::kOdds, "the odds column"}}},
    {EventType::kCombatResult,
     "combat_result",
     "combat: d6={a}, modified die {b}: {c}",
     {F{"die", Reading::kNumber, "the d6"},
      F{"modified_die", Reading::kNumber, "the modified die, 0..7"},
      F{"result", Reading::kCrtCell, "the CRT cell"}}},
    {EventType::kMoraleTest,
     "morale_test",
     "{unit} morale test: {a?d9={a}|certain} against MO {b}{c?, fails|, holds}",
     {F{"die", Reading::kDieOrCertain, "the d9, null when the result was certain"},
      F{"mo", Reading::kNumber, "the unit's MO"}, F{"failed", Reading::kFlag, "the test failed"}}},
    {EventType::kVictorious, "victorious", "{unit} is victorious", {}},
    {EventType::kAdvance, "advance", "{unit} advances {from}>{to}", {}},
    {EventType::kRally,
     "rally",
     "{unit} rallies: MO +{a} -> {b}",
     {F{"change", Reading::kNumber, "MO regained"}, F{"value", Reading::kNumber, "the new MO"},
      F{}}},
    {EventType::kGameOver,
     "game_over",
     "game over: blue {a} VP, orange {b} VP",
     {F{"vp.blue", Reading::kNumber, "blue's victory points"},
      F{"vp.orange", Reading::kNumber, "orange's victory points"}, F{}}},
    {EventType::kMoraleResult,
     "morale_result",
     "{unit} morale: die {a}, factor {b}: {c}",
     {F{"die", Reading::kNumber, "the die"},
      F{"factor", Reading::kNumber, "2d6 factor, d6 score before the die, or MO"},
      F{"result", Reading::kMoraleOutcome, "the outcome"}}},
    {EventType::kRout,
     "rout",
     "{unit} routs {a,b?{from}>{to} ({a} hexes){b}|in place at {from}}",
     {F{"hexes", Reading::kNumber, "hexes run"},
      F{"end", Reading::kRoutEnd, "where the rout ended"}, F{}}},
    {EventType::kPursuit, "pursuit", "{unit} pursues {other} {from}>{to}", {}},
    {EventType::kFreeAttack,
     "free_attack",
     "{unit} free attack on {other}: d6={a}, {b}, {c} VC lost",
     {F{"die", Reading::kNumber, "the d6"}, F{"odds", Reading::kOdds, "the odds column"},
      F{"vc_lost", Reading::kNumber, "VC lost"}}},
    {EventType::kBackInOrder,
     "back_in_order",
     "{unit}{a? stops its pursuit| rallies from its rout}",
     {F{"what", Reading::kBackInOrder, "rallied, or pursuit_stopped"}, F{}, F{}}},
    {EventType::kHalt, "halt", "{unit} halts: no move in its next movement phase", {}},
    {EventType::kAttackRefused,
     "attack_refused",
     "{unit} fails its test and does not attack {other} at poor odds",
     {}},
};

// The CRT cell packed in a kCombatResult event.
std::string crtText(int packed) {
  CrtCell cell;
  cell.attacker_loss = static_cast<uint8_t>(packed & 15);
  cell.defender_loss = static_cast<uint8_t>((packed >> 4) & 15);
  cell.attacker_test = (packed >> 8) & 1;
  cell.defender_test = (packed >> 9) & 1;
  return crtCellText(cell);
}

std::string unitId(const Scenario& sc, int u) { return u >= 0 ? sc.unit(u).id : "?"; }
std::string hex(const Scenario& sc, CellId c) { return c == kNoCell ? "-" : sc.label(c); }
std::string sideText(int s) { return s == kNoSide ? "nobody" : std::string(sideColor(s)); }

const EventFormat* formatOf(EventType t) {
  const auto i = static_cast<size_t>(t);
  return i < std::size(kEvents) ? &kEvents[i] : nullptr;
}

int16_t number(const Event& e, char letter) {
  return letter == 'a' ? e.a : letter == 'b' ? e.b : e.c;
}

// One of the event's numbers as a line of text reads it.
std::string fieldText(Reading reading, int16_t v) {
  switch (reading) {
    case Reading::kNumber:
    case Reading::kFlag:
    case Reading::kDieOrCertain:
      return std::to_string(v);
    case Reading::kSigned:
      return (v > 0 ? "+" : "") + std::to_string(v);
    case Reading::kPhase:
      return std::string(phaseName(static_cast<Phase>(v)));
    case Reading::kSide:
      return sideText(v);
    case Reading::kLossTrack:
      return v == 1 ? "MO" : "VC";
    case Reading::kOdds:
      return oddsName(v);
    case Reading::kCrtCell:
      return crtText(v);
    case Reading::kMoraleOutcome:
      return std::string(moraleOutcomeName(static_cast<MoraleOutcome>(v)));
    case Reading::kRoutEnd:
      return std::string(kRoutEnds[static_cast<size_t>(v & 3)]);
    case Reading::kBackInOrder:
      return v ? "pursuit_stopped" : "rallied";
  }
  return std::to_string(v);
}

// One of the event's numbers as its JSON field holds it.
json fieldJson(Reading reading, int16_t v) {
  switch (reading) {
    case Reading::kFlag:
      return v != 0;
    case Reading::kSide:
      return v == kNoSide ? json(nullptr) : json(sideColor(v));
    case Reading::kLossTrack:
      return v == 1 ? "mo" : "vc";
    case Reading::kDieOrCertain:
      return v == 0 ? json(nullptr) : json(v);
    case Reading::kRoutEnd:
      return kRoutEndNames[static_cast<size_t>(v & 3)];
    case Reading::kNumber:
    case Reading::kSigned:
      return v;
    default:
      return fieldText(reading, v);
  }
}

// The position of the brace closing the one at `open`.
size_t closingBrace(std::string_view pattern, size_t open) {
  int depth = 0;
  for (size_t i = open; i < pattern.size(); ++i) {
    if (pattern[i] == '{') ++depth;
    if (pattern[i] == '}' && --depth == 0) return i;
  }
  return pattern.size();
}

// The position of `c` in `text` outside any braces, or npos.
size_t topLevel(std::string_view text, char c) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}') --depth;
    if (depth == 0 && text[i] == c) return i;
  }
  return std::string_view::npos;
}

std::string render(std::string_view pattern, const Scenario& sc, const Event& e,
                   const EventFormat& f) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '{') {
      out += pattern[i];
      continue;
    }
    const size_t close = closingBrace(pattern, i);
    const std::string_view inner = pattern.substr(i + 1, close - i - 1);
    i = close;
    if (const size_t q = topLevel(inner, '?'); q != std::string_view::npos) {
      bool nonzero = false;
      for (char letter : inner.substr(0, q))
        if (letter != ',') nonzero = nonzero || number(e, letter) != 0;
      const std::string_view branches = inner.substr(q + 1);
      const size_t bar = topLevel(branches, '|');
      out += render(nonzero ? branches.substr(0, bar) : branches.substr(bar + 1), sc, e, f);
    } else if (inner == "unit") {
      out += unitId(sc, e.unit);
    } else if (inner == "other") {
      out += unitId(sc, e.other);
    } else if (inner == "from") {
      out += hex(sc, e.from);
    } else if (inner == "to") {
      out += hex(sc, e.to);
    } else if (inner.ends_with(":title")) {
      out += sc.sideNames()[static_cast<size_t>(number(e, inner[0]))];
    } else {
      const auto k = static_cast<size_t>(inner[0] - 'a');
      out += fieldText(f.fields[k].reading, number(e, inner[0]));
    }
  }
  return out;
}

}  // namespace

std::span<const EventFormat> eventFormats() { return kEvents; }

std::string_view eventTypeName(EventType t) {
  const EventFormat* f = formatOf(t);
  return f ? f->name : "unknown";
}

std::string eventText(const Scenario& sc, const Event& e) {
  const EventFormat* f = formatOf(e.type);
  return f ? render(f->text, sc, e, *f) : std::string(eventTypeName(e.type));
}

json eventJson(const Scenario& sc, const Event& e) {
  json j;
  j["event"] = eventTypeName(e.type);
  if (e.unit >= 0) j["unit"] = sc.unit(e.unit).id;
  if (e.other >= 0) j["other"] = sc.unit(e.other).id;
  if (e.from != kNoCell) j["from"] = sc.label(e.from);
  if (e.to != kNoCell) j["to"] = sc.label(e.to);
  const EventFormat* f = formatOf(e.type);
  if (!f) return j;
  const int16_t values[3] = {e.a, e.b, e.c};
  for (size_t k = 0; k < 3; ++k) {
    const EventField& field = f->fields[k];
    if (!field.name) continue;
    const std::string_view name = field.name;
    const size_t dot = name.find('.');
    json& slot = dot == std::string_view::npos
                     ? j[std::string(name)]
                     : j[std::string(name.substr(0, dot))][std::string(name.substr(dot + 1))];
    slot = fieldJson(field.reading, values[k]);
  }
  return j;
}

}  // namespace morne::env

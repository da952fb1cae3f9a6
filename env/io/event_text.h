#pragma once
// Human-readable and JSON forms of events, for game logs and the protocol's "apply" replies.
// Both follow from one table (event_text.cpp): each event type's name, the name, reading and
// meaning of each of its numbers (Event::a, b, c), and its line of text as a pattern.

#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>

#include "env/events.h"
#include "env/scenario.h"

namespace morne::env {

// How one of an event's numbers reads, in text and in JSON.
enum class FieldReading {
  kNumber,         // a number
  kSigned,         // a number written with its sign in text ("+1")
  kFlag,           // 0 or 1; true or false in JSON
  kPhase,          // a Phase, by name
  kSide,           // a side by colour ("nobody" in text, null in JSON, for none)
  kLossTrack,      // 1 MO, 2 VC ("mo"/"vc" in JSON)
  kOdds,           // an odds column ("2:1")
  kCrtCell,        // a CRT cell packed as in kCombatResult
  kMoraleOutcome,  // a MoraleOutcome, by name
  kDieOrCertain,   // a die, 0 when none was drawn (null in JSON)
  kRoutEnd,        // how a rout ended: on_map, left_map, fled, captured
  kBackInOrder,    // 0 rallied, 1 pursuit_stopped
};

// One of an event's numbers: its JSON name ("vp.blue": a field of a nested object), its
// reading and what it means. A field without a name is not used.
struct EventField {
  const char* name = nullptr;
  FieldReading reading = FieldReading::kNumber;
  const char* meaning = "";
};

// One event type: its name, its line of text as a pattern (event_text.cpp says how they
// read), and its numbers a, b and c.
struct EventFormat {
  EventType type;
  const char* name;
  const char* text;
  EventField fields[3];
};

// Every event type, in the order of EventType.
std::span<const EventFormat> eventFormats();

// One line of English describing the event ("B1 0304>0404 (1 MP, 2 left)").
std::string eventText(const Scenario& sc, const Event& e);

// The event as a JSON object: {"event": "step", "unit": "B1", "from": "0304", ...}.
nlohmann::json eventJson(const Scenario& sc, const Event& e);

}  // namespace morne::env

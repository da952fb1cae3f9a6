#pragma once
// A config struct's fields declared once: one row per field {name, member, range, help,
// recorded}, in the manner of env/rule_switches.cpp. A subcommand's options
// (cli/option_table.h), their range checks and the JSON records of runs (loop.json,
// train.json) all come from the rows, and so do the saved records of a run folder (a role's
// state, latest.json: loop/run_folder.h writeRecord/readRecord).
//
//   const OptionRow<SelfPlayConfig> kRows[] = {
//       {"games", &SelfPlayConfig::games, atLeast(1), "games to play"}, ...};

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <variant>

#include "core/number_text.h"
#include "env/error.h"

namespace morne::env {

// The values an option accepts: numbers in [lo, hi], either end open when said; text among
// `choices` when it has them.
struct OptionRange {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;
  const char* choices = nullptr;  // "sgd|adamw": the values a text option takes (none: any)

  // Whether text option value `v` is one of the choices (any value when there are none).
  bool allows(const std::string& v) const {
    if (!choices) return true;
    const std::string all = std::string("|") + choices + "|";
    return v.find('|') == std::string::npos && all.find("|" + v + "|") != std::string::npos;
  }
  // "one of sgd, adamw".
  std::string choicesText() const {
    std::string out = std::string("one of ") + choices;
    for (size_t at = out.find('|'); at != std::string::npos; at = out.find('|', at))
      out.replace(at, 1, ", ");
    return out;
  }

  bool contains(double v) const {
    return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  }
  // "at least 1", "in (0, 1]", ...
  std::string text() const {
    if (std::isinf(hi))
      return lo_open ? "above " + core::shortText(lo) : "at least " + core::shortText(lo);
    return std::string("in ") + (lo_open ? "(" : "[") + core::shortText(lo) + ", " +
           core::shortText(hi) + (hi_open ? ")" : "]");
  }
};

inline OptionRange atLeast(double lo) { return {lo}; }
inline OptionRange anyValue() { return {}; }
// A text option that takes one of `choices` ("sgd|adamw").
inline OptionRange oneOf(const char* choices) {
  OptionRange r;
  r.choices = choices;
  return r;
}

// For an OptionRow's last two fields: recorded, and what a record made before the option
// existed reads as (JSON text): `..., "help", env::kRecorded, env::before("0")}`.
inline constexpr bool kRecorded = true;
constexpr const char* before(const char* json) { return json; }

template <class Config>
using OptionField = std::variant<int Config::*, double Config::*, bool Config::*, int64_t Config::*,
                                 uint64_t Config::*, uint32_t Config::*, std::string Config::*>;

template <class Config>
struct OptionRow {
  const char* name;  // --name; in the JSON record, with '_' for '-'
  OptionField<Config> field;
  OptionRange range;  // of the numbers
  const char* help;
  bool recorded = true;  // part of the run's JSON record (optionsJson)
  // For an option added after its record's format began: what a record made before it reads
  // as (JSON text, "0", "\"score\"", "false"), the value that gives those runs what they did.
  // None: every record holds the key.
  const char* before = nullptr;
};

// The recorded options of `c` as a JSON object (keys with '_' for '-').
template <class Config>
nlohmann::json optionsJson(std::span<const OptionRow<Config>> rows, const Config& c) {
  nlohmann::json out = nlohmann::json::object();
  for (const OptionRow<Config>& r : rows) {
    if (!r.recorded) continue;
    std::string key = r.name;
    for (char& ch : key) ch = ch == '-' ? '_' : ch;
    std::visit([&](auto member) { out[key] = c.*member; }, r.field);
  }
  return out;
}

// Reads the recorded options of `rows` from `j` (written by optionsJson) into `c`, with the
// same range checks; `where` names the record in messages ("RUN/train.json"). A key missing
// reads as its row's `before` value when it has one. Throws ConfigError naming the key when
// one is missing, of the wrong type or out of range.
template <class Config>
void readOptionsJson(const std::string& where, const nlohmann::json& j,
                     std::span<const OptionRow<Config>> rows, Config& c) {
  for (const OptionRow<Config>& r : rows) {
    if (!r.recorded) continue;
    std::string key = r.name;
    for (char& ch : key) ch = ch == '-' ? '_' : ch;
    const bool has = j.is_object() && j.contains(key);
    if (!has && !r.before) throw ConfigError(where + ": no \"" + key + "\"");
    const nlohmann::json value = has ? j.at(key) : nlohmann::json::parse(r.before);
    std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(c.*member)>;
          T v{};
          try {
            v = value.template get<T>();
          } catch (const nlohmann::json::exception&) {
            throw ConfigError(where + ": \"" + key + "\" has the wrong type");
          }
          if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            if (!r.range.contains(static_cast<double>(v))) {
              throw ConfigError(where + ": \"" + key + "\" must be " + r.range.text() + " (got " +
                                core::shortText(static_cast<double>(v)) + ")");
            }
          }
          if constexpr (std::is_same_v<T, std::string>) {
            if (!r.range.allows(v)) {
              throw ConfigError(where + ": \"" + key + "\" must be " + r.range.choicesText() +
                                " (got \"" + v + "\")");
            }
          }
          c.*member = v;
        },
        r.field);
  }
}

}  // namespace morne::env

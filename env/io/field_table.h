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

// The values an option accepts: [lo, hi], either end open when said.
struct OptionRange {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;

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
// same range checks; `where` names the record in messages ("RUN/train.json"). Throws
// ConfigError naming the key when one is missing, of the wrong type or out of range.
template <class Config>
void readOptionsJson(const std::string& where, const nlohmann::json& j,
                     std::span<const OptionRow<Config>> rows, Config& c) {
  for (const OptionRow<Config>& r : rows) {
    if (!r.recorded) continue;
    std::string key = r.name;
    for (char& ch : key) ch = ch == '-' ? '_' : ch;
    if (!j.is_object() || !j.contains(key)) throw ConfigError(where + ": no \"" + key + "\"");
    std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(c.*member)>;
          T v{};
          try {
            v = j.at(key).template get<T>();
          } catch (const nlohmann::json::exception&) {
            throw ConfigError(where + ": \"" + key + "\" has the wrong type");
          }
          if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            if (!r.range.contains(static_cast<double>(v))) {
              throw ConfigError(where + ": \"" + key + "\" must be " + r.range.text() + " (got " +
                                core::shortText(static_cast<double>(v)) + ")");
            }
          }
          c.*member = v;
        },
        r.field);
  }
}

}  // namespace morne::env

#pragma once
// The parameters of agent specs, declared once: one row per parameter {key, kind, range, shown,
// help, field}, in the manner of env/rule_switches.cpp. Reading a spec (with its range checks
// and unknown-key messages), writing the spec back, the budget keys and the catalog text of
// `morne help` all come from the rows; defaults come from the parameter struct's initialisers.
//
// The search parameters every search agent shares (sims, ms, cpuct, ...) are rows over
// mcts::SearchParams (searchParamRows below), lifted into a kind's own rows with liftRows().

#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "env/error.h"
#include "mcts/search_params.h"

namespace morne::agents {

// When a parameter appears in the spec an agent writes of itself (Agent::spec()).
enum class Shown {
  kAlways,   // always (the settings a reader looks for first)
  kChanged,  // only when it differs from the default
  kBudget,   // the budget: the time budget when one is set, else sims
};

// One parameter of the agents of type P. Numbers travel as double: integers and 0/1 flags are
// checked to be whole; a choice is the index of its name in `choices`; text goes through
// get_text/set_text.
template <class P>
struct SpecParam {
  enum class Kind { kInt, kNumber, kChoice, kText };
  std::string key;
  Kind kind;
  double lo = 0, hi = 0;             // accepted range of kInt and kNumber
  std::vector<std::string> choices;  // kChoice
  Shown shown = Shown::kChanged;
  std::string help;
  std::function<double(const P&)> get;
  std::function<void(P&, double)> set;
  std::function<std::string(const P&)> get_text;  // kText
  std::function<void(P&, const std::string&)> set_text;
};

// A number as a field of type T (an enum through its underlying integer).
template <class T>
T fromSpecNumber(double v) {
  if constexpr (std::is_enum_v<T>) {
    return static_cast<T>(static_cast<std::underlying_type_t<T>>(v));
  } else {
    return static_cast<T>(v);
  }
}

// The accessors of numeric field `field` of P, as a row's get, set, get_text and set_text.
#define MORNE_SPEC_FIELD(P, field)                         \
  [](const P& p) { return static_cast<double>(p.field); }, \
      [](P& p, double v) { p.field = fromSpecNumber<decltype(P::field)>(v); }, nullptr, nullptr

// A row over field `field` of P: a whole number (an integer, or a 0/1 flag for a bool) in
// [lo, hi], shown in the agent's spec as `shown` says.
template <class P, class T>
SpecParam<P> wholeParam(std::string key, T P::*field, double lo, double hi, std::string help,
                        Shown shown = Shown::kChanged) {
  return {std::move(key),
          SpecParam<P>::Kind::kInt,
          lo,
          hi,
          {},
          shown,
          std::move(help),
          [field](const P& p) { return static_cast<double>(p.*field); },
          [field](P& p, double v) { p.*field = fromSpecNumber<T>(v); },
          nullptr,
          nullptr};
}

// A row over field `field` of P: a number in [lo, hi].
template <class P>
SpecParam<P> numberParam(std::string key, double P::*field, double lo, double hi, std::string help,
                         Shown shown = Shown::kChanged) {
  return {std::move(key),
          SpecParam<P>::Kind::kNumber,
          lo,
          hi,
          {},
          shown,
          std::move(help),
          [field](const P& p) { return p.*field; },
          [field](P& p, double v) { p.*field = v; },
          nullptr,
          nullptr};
}

// A row over field `field` of P: free text (a file name, a command line without commas).
template <class P>
SpecParam<P> textParam(std::string key, std::string P::*field, std::string help,
                       Shown shown = Shown::kChanged) {
  return {std::move(key),
          SpecParam<P>::Kind::kText,
          0,
          0,
          {},
          shown,
          std::move(help),
          nullptr,
          nullptr,
          [field](const P& p) { return p.*field; },
          [field](P& p, const std::string& v) { p.*field = v; }};
}

// The rows of the parameters every search agent shares (mcts::SearchParams).
const std::vector<SpecParam<mcts::SearchParams>>& searchParamRows();

// Rows over mcts::SearchParams made rows of P, which holds its search parameters in `member`.
template <class P>
std::vector<SpecParam<P>> liftRows(const std::vector<SpecParam<mcts::SearchParams>>& rows,
                                   mcts::SearchParams P::*member) {
  std::vector<SpecParam<P>> out;
  for (const SpecParam<mcts::SearchParams>& r : rows) {
    out.push_back({r.key, static_cast<typename SpecParam<P>::Kind>(r.kind), r.lo, r.hi, r.choices,
                   r.shown, r.help, [get = r.get, member](const P& p) { return get(p.*member); },
                   [set = r.set, member](P& p, double v) { set(p.*member, v); }, nullptr, nullptr});
  }
  return out;
}

// A spec value of row `key` as a number, checked against the row's kind and range; throws
// ConfigError naming the agent kind, the key and what is accepted.
double specNumber(std::string_view agent, std::string_view key, const std::string& value,
                  bool integer, double lo, double hi);

// The shortest text that reads back as `v` ("1.5", "0.25", "800").
std::string shortestNumber(double v);

// Sets the parameters `given` of an agent of kind `agent` in `p`. Throws ConfigError on an
// unknown key (listing the accepted ones) or a bad value.
template <class P>
void readSpecParams(std::string_view agent, std::span<const SpecParam<P>> rows,
                    const std::map<std::string, std::string>& given, P& p) {
  for (const auto& [key, value] : given) {
    const SpecParam<P>* row = nullptr;
    for (const SpecParam<P>& r : rows) {
      if (r.key == key) row = &r;
    }
    if (!row) {
      std::string keys;
      for (const SpecParam<P>& r : rows) keys += (keys.empty() ? "" : ", ") + r.key;
      throw ConfigError(std::string(agent) + ": unknown parameter \"" + key + "\" (" +
                        (keys.empty() ? "it takes none" : keys) + ")");
    }
    switch (row->kind) {
      case SpecParam<P>::Kind::kText:
        row->set_text(p, value);
        break;
      case SpecParam<P>::Kind::kChoice: {
        size_t i = 0;
        while (i < row->choices.size() && row->choices[i] != value) ++i;
        if (i == row->choices.size()) {
          std::string names;
          for (const std::string& c : row->choices) names += (names.empty() ? "" : " or ") + c;
          throw ConfigError(std::string(agent) + ": " + key + "=" + value + " is not " + names);
        }
        row->set(p, static_cast<double>(i));
        break;
      }
      default:
        row->set(p, specNumber(agent, key, value, row->kind == SpecParam<P>::Kind::kInt, row->lo,
                               row->hi));
    }
  }
}

// The value of row `r` in `p` as spec text.
template <class P>
std::string specValueText(const SpecParam<P>& r, const P& p) {
  if (r.kind == SpecParam<P>::Kind::kText) return r.get_text(p);
  if (r.kind == SpecParam<P>::Kind::kChoice) return r.choices[static_cast<size_t>(r.get(p))];
  return shortestNumber(r.get(p));
}

// `p` as spec parameters "key=value,...", in row order, each row as its `shown` says
// (P{} gives the defaults). Reading the text back gives `p` again.
template <class P>
std::string specParamsText(std::span<const SpecParam<P>> rows, const P& p) {
  const P defaults{};
  // The budget shown: a later budget row that is set (a time budget), else the first (sims).
  const SpecParam<P>* budget = nullptr;
  for (const SpecParam<P>& r : rows) {
    if (r.shown == Shown::kBudget && (!budget || r.get(p) > 0)) budget = &r;
  }
  std::string out;
  for (const SpecParam<P>& r : rows) {
    const bool show =
        r.shown == Shown::kAlways || &r == budget ||
        (r.shown == Shown::kChanged && specValueText(r, p) != specValueText(r, defaults));
    if (show) out += (out.empty() ? "" : ",") + r.key + "=" + specValueText(r, p);
  }
  return out;
}

// What a row says, without its accessors: for the catalog and for tests that walk every
// parameter of every agent kind.
struct SpecParamInfo {
  std::string key;
  bool text = false;      // free text (a file name)
  bool integer = false;   // a whole number
  double lo = 0, hi = 0;  // the range of a number
  std::vector<std::string> choices;
  std::string default_text;
  std::string help;
};

template <class P>
std::vector<SpecParamInfo> describeRows(std::span<const SpecParam<P>> rows) {
  using Kind = typename SpecParam<P>::Kind;
  const P defaults{};
  std::vector<SpecParamInfo> out;
  for (const SpecParam<P>& r : rows) {
    out.push_back({r.key, r.kind == Kind::kText, r.kind == Kind::kInt, r.lo, r.hi, r.choices,
                   specValueText(r, defaults), r.help});
  }
  return out;
}

}  // namespace morne::agents

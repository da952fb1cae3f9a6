#pragma once
// A subcommand's options from the rows that declare a config's fields (env/io/field_table.h):
// the Program_options declarations, with the defaults of the config struct, and their reading
// with the rows' range checks.

#include <span>
#include <string>
#include <variant>

#include "cli/options.h"
#include "core/number_text.h"
#include "env/error.h"
#include "env/io/field_table.h"

namespace morne::cli {

// Declares the options of `rows` in `own`, with the values of `defaults` as defaults.
template <class Config>
void addOptions(po::options_description& own, std::span<const env::OptionRow<Config>> rows,
                const Config& defaults) {
  for (const env::OptionRow<Config>& r : rows) {
    std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(defaults.*member)>;
          if constexpr (std::is_same_v<T, double>) {
            own.add_options()(r.name, numberOption(defaults.*member), r.help);
          } else {
            own.add_options()(r.name, po::value<T>()->default_value(defaults.*member), r.help);
          }
        },
        r.field);
  }
}

// Reads the options of `rows` from `vm` into `c`; throws ConfigError "COMMAND: --NAME must be
// RANGE" for a number out of its range or a text not among its choices.
template <class Config>
void readOptions(const std::string& command, const po::variables_map& vm,
                 std::span<const env::OptionRow<Config>> rows, Config& c) {
  for (const env::OptionRow<Config>& r : rows) {
    std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(c.*member)>;
          const T v = vm[r.name].template as<T>();
          if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            if (!r.range.contains(static_cast<double>(v))) {
              throw ConfigError(command + ": --" + r.name + " must be " + r.range.text() +
                                " (got " + core::shortText(static_cast<double>(v)) + ")");
            }
          }
          if constexpr (std::is_same_v<T, std::string>) {
            if (!r.range.allows(v)) {
              throw ConfigError(command + ": --" + r.name + " must be " + r.range.choicesText() +
                                " (got \"" + v + "\")");
            }
          }
          c.*member = v;
        },
        r.field);
  }
}

}  // namespace morne::cli

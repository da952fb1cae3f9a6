#pragma once
// The folder of a resumable run (`scenario balance`, `scenario analyse`): a request file that
// says what the run is, and a records file appended game by game. The same request continues
// the run; another is refused, naming what differs, unless the run is started over.

#include <nlohmann/json.hpp>
#include <string>

namespace morne::arena {

// Opens `folder` (made when absent) for the run `run`. Returns true when `request_name` there
// holds `run` and `force` is not set: the run continues, its records file `records_name` kept.
// Otherwise, when it holds another run and `force` is not set, throws ConfigError naming the
// first key that differs; else removes the records file, writes `run` and returns false.
// `what` names the run's kind in errors ("balance run"). IoError when a file cannot be
// written; ConfigError when the request file is not JSON.
bool openResumableFolder(const std::string& folder, const std::string& request_name,
                         const std::string& records_name, const nlohmann::json& run, bool force,
                         const std::string& what);

}  // namespace morne::arena

#pragma once
// The version of this build: facts stamped at build time (cmake/write_version.cmake) and the
// line that logs, records and the protocol show.

#include <string>

namespace morne {
extern const char* const kVersion;
extern const char* const kGitRevision;
extern const char* const kBuildType;
extern const char* const kCompiler;
extern const char* const kSanitizers;
extern const int kBuildMaxCells;
extern const int kBuildMaxUnits;
}  // namespace morne

namespace morne::core {

// "morne 0.1.0 (git abc123, Release)" for logs and the protocol.
std::string versionLine();

}  // namespace morne::core

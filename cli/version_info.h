#pragma once
// Build facts stamped at build time (cmake/write_version.cmake).

namespace morne {
extern const char* const kVersion;
extern const char* const kGitRevision;
extern const char* const kBuildType;
extern const char* const kCompiler;
extern const char* const kSanitizers;
extern const int kBuildMaxCells;
extern const int kBuildMaxUnits;
}  // namespace morne

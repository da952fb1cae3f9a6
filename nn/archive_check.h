#pragma once
// Checks a LibTorch archive (a network or checkpoint file: a zip of stored records) against the
// CRC-32 its zip directory gives for every record. LibTorch's reader does not check them, so a
// damaged byte in a tensor would load silently as another value.

#include <string>

namespace morne::nn {

// Throws ConfigError "PATH: damaged (REASON)" when the file is not a whole zip archive of
// stored records or a record does not match its CRC-32; IoError when it cannot be read.
void checkArchiveCrcs(const std::string& path);

}  // namespace morne::nn

#pragma once
// CRC-32 (zlib's, as zip archives and latest.json use it) of a byte string of any length, or
// of a file read a block at a time.

#include <cstdint>
#include <string>
#include <string_view>

namespace morne::env {

// The CRC-32 of `bytes`.
uint32_t crc32Of(std::string_view bytes);

// The CRC-32 of the bytes of the file `path`, read 1 MiB at a time (its size does not matter
// to the memory used). Throws IoError naming the file when it cannot be read.
uint32_t crc32OfFile(const std::string& path);

}  // namespace morne::env

#pragma once
// CRC-32 (zlib's, as zip archives and latest.json use it) of a byte string of any length.

#include <cstdint>
#include <string_view>

namespace morne::env {

// The CRC-32 of `bytes`.
uint32_t crc32Of(std::string_view bytes);

}  // namespace morne::env

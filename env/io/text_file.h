#pragma once
// Reads a whole input file (a scenario, a saved state, a config file) for a parser, refusing
// with a precise IoError anything that is not an ordinary, readable file of sensible size: a
// name with a NUL byte or too long for the filesystem, a folder, a FIFO or a device (which
// would block or never end), a file over the size limit, a read error.

#include <cstddef>
#include <string>
#include <string_view>

namespace morne::env {

// The largest input file read whole: far above any real scenario (crossing is 12 KB).
inline constexpr size_t kMaxInputFileBytes = size_t{16} << 20;

// The content of `path`. `what` names the file's role in messages ("scenario file").
// Throws IoError naming the path and the reason.
std::string readTextFile(const std::string& path, std::string_view what,
                         size_t max_bytes = kMaxInputFileBytes);

// `path` as it may be shown in a message: bytes below 0x20 (NUL included) escaped, and cut to
// 200 bytes.
std::string printablePath(std::string_view path);

}  // namespace morne::env

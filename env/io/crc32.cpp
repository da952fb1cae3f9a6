#include "env/io/crc32.h"

#include <zlib.h>

#include <algorithm>

namespace morne::env {

uint32_t crc32Of(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  for (size_t done = 0; done < bytes.size();) {  // zlib takes at most 4 GiB at once
    const size_t n = std::min<size_t>(bytes.size() - done, size_t{1} << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + done), static_cast<uInt>(n));
    done += n;
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace morne::env

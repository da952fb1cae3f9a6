#include "env/io/crc32.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "env/error.h"

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

uint32_t crc32OfFile(const std::string& path) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                             &std::fclose);
  if (!file) throw IoError(path + ": cannot read: " + std::strerror(errno));
  std::vector<char> block(size_t{1} << 20);
  uLong crc = crc32(0L, Z_NULL, 0);
  for (;;) {
    const size_t n = std::fread(block.data(), 1, block.size(), file.get());
    if (n > 0) crc = crc32(crc, reinterpret_cast<const Bytef*>(block.data()), static_cast<uInt>(n));
    if (n < block.size()) break;
  }
  if (std::ferror(file.get())) throw IoError(path + ": cannot read: " + std::strerror(errno));
  return static_cast<uint32_t>(crc);
}

}  // namespace morne::env

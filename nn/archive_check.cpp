#include "nn/archive_check.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "env/error.h"
#include "env/io/crc32.h"
#include "env/io/text_file.h"

namespace morne::nn {

namespace {

constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr uint32_t kZip64EndOfDirectory = 0x06064b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
constexpr uint32_t kDirectoryEntry = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;

// Little-endian fields of the archive's bytes; a read past the end is a damaged archive.
class Bytes {
 public:
  Bytes(std::string_view data, const std::string& path) : data_(data), path_(path) {}
  uint64_t get(uint64_t at, int width) const {
    if (at > data_.size() || data_.size() - at < static_cast<uint64_t>(width))
      fail("a record runs past the end of the file");
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(data_[at + i]);
    return v;
  }
  [[noreturn]] void fail(const std::string& reason) const {
    throw ConfigError(path_ + ": damaged (" + reason + ")");
  }
  std::string_view data() const { return data_; }

 private:
  std::string_view data_;
  const std::string& path_;
};

// The directory's place and size: from the end-of-directory record, or its zip64 form.
void findDirectory(const Bytes& b, uint64_t& offset, uint64_t& entries) {
  const std::string_view d = b.data();
  if (d.size() < 22) b.fail("too short for a zip archive");
  uint64_t end = d.size() - 22;
  const uint64_t lowest = d.size() > 22 + 65535 ? d.size() - 22 - 65535 : 0;
  while (b.get(end, 4) != kEndOfDirectory) {
    if (end == lowest) b.fail("no end of the zip directory");
    --end;
  }
  entries = b.get(end + 10, 2);
  offset = b.get(end + 16, 4);
  if (entries == 0xFFFF || offset == 0xFFFFFFFF) {
    if (end < 20 || b.get(end - 20, 4) != kZip64Locator) b.fail("no zip64 directory locator");
    const uint64_t record = b.get(end - 20 + 8, 8);
    if (b.get(record, 4) != kZip64EndOfDirectory) b.fail("no zip64 end of directory");
    entries = b.get(record + 32, 8);
    offset = b.get(record + 48, 8);
  }
}

// Inflates a raw deflate stream into `out`, which must have its exact size.
bool inflateRaw(std::string_view in, std::string& out) {
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return false;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&z, Z_FINISH);
  const bool whole = status == Z_STREAM_END && z.avail_out == 0;
  inflateEnd(&z);
  return whole;
}

}  // namespace

void checkArchiveCrcs(const std::string& path) {
  const std::string file = env::readTextFile(path, "archive", size_t{1} << 32);
  const Bytes b(file, path);
  uint64_t at = 0, entries = 0;
  findDirectory(b, at, entries);
  for (uint64_t k = 0; k < entries; ++k) {
    if (b.get(at, 4) != kDirectoryEntry) b.fail("a damaged zip directory entry");
    const uint64_t method = b.get(at + 10, 2);
    const uint64_t crc = b.get(at + 16, 4);
    uint64_t size = b.get(at + 20, 4);
    uint64_t raw_size = b.get(at + 24, 4);
    const uint64_t name_bytes = b.get(at + 28, 2), extra_bytes = b.get(at + 30, 2);
    uint64_t local = b.get(at + 42, 4);
    const std::string name(b.data().substr(at + 46, name_bytes));
    // Sizes and offsets too large for their fields are in the zip64 extra field, in order.
    uint64_t x = at + 46 + name_bytes;
    const uint64_t x_end = x + extra_bytes;
    while (x + 4 <= x_end) {
      const uint64_t id = b.get(x, 2), n = b.get(x + 2, 2);
      if (id == 0x0001) {
        uint64_t field = x + 4;
        if (raw_size == 0xFFFFFFFF) raw_size = b.get(field, 8), field += 8;
        if (size == 0xFFFFFFFF) size = b.get(field, 8), field += 8;
        if (local == 0xFFFFFFFF) local = b.get(field, 8);
      }
      x += 4 + n;
    }
    if (b.get(local, 4) != kLocalHeader) b.fail(name + ": a damaged record header");
    const uint64_t data = local + 30 + b.get(local + 26, 2) + b.get(local + 28, 2);
    if (data > file.size() || file.size() - data < size) b.fail(name + ": cut short");
    const std::string_view stored(file.data() + data, size);
    if (method == 0) {
      if (env::crc32Of(stored) != crc) b.fail("record " + name + " does not match its CRC-32");
    } else if (method == 8) {  // deflated (LibTorch compresses some small records)
      if (raw_size > (uint64_t{1} << 30)) b.fail(name + ": a compressed record too large");
      std::string raw(raw_size, '\0');
      if (!inflateRaw(stored, raw) || env::crc32Of(raw) != crc)
        b.fail("record " + name + " does not match its CRC-32");
    } else {
      b.fail(name + ": an unknown compression method");
    }
    at = x_end + b.get(at + 32, 2);
  }
}

}  // namespace morne::nn

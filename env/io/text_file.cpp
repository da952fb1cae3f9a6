#include "env/io/text_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "env/error.h"

namespace morne::env {

namespace fs = std::filesystem;

std::string printablePath(std::string_view path) {
  constexpr size_t kShown = 200;
  std::string out;
  for (size_t i = 0; i < path.size() && i < kShown; ++i) {
    const auto c = static_cast<unsigned char>(path[i]);
    if (c < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (path.size() > kShown) out += "... (" + std::to_string(path.size()) + " bytes)";
  return out;
}

std::string readTextFile(const std::string& path, std::string_view what, size_t max_bytes) {
  const std::string shown = printablePath(path);
  auto fail = [&](const std::string& why) {
    return IoError(shown + ": cannot read " + std::string(what) + ": " + why);
  };
  if (path.empty()) throw fail("empty file name");
  if (path.find('\0') != std::string::npos) throw fail("the name contains a NUL byte");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec) throw fail(ec.message());
  if (fs::is_directory(st)) throw fail("it is a folder, not a file");
  if (!fs::is_regular_file(st)) throw fail("not an ordinary file (a FIFO, socket or device)");
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) throw fail(ec.message());
  if (size > max_bytes) {
    throw fail(std::to_string(size) + " bytes; at most " + std::to_string(max_bytes) + " are read");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) throw fail(std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw fail(std::string("read error: ") + std::strerror(errno));
  std::string out = std::move(text).str();
  if (out.size() > max_bytes) throw fail("it grew past " + std::to_string(max_bytes) + " bytes");
  return out;
}

}  // namespace morne::env

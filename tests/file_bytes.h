#pragma once
// The whole content of a file, for tests that read back what they wrote.

#include <fstream>
#include <iterator>
#include <string>

namespace morne::test {

// The bytes of the file at `path` ("" when it cannot be opened).
inline std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace morne::test

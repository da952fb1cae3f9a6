// Fuzz target: the shard reader and checker (training/shard_reader.h, shard_check.h) on shards
// whose layout the input decides: attributes, which datasets exist, their element types,
// shapes and lengths (short, long, or declaring a billion rows), and every value (NaN and
// infinities included). The HDF5 structure itself is written by HDF5, so what is fuzzed is
// what morne trusts in a file; byte-level damage to the HDF5 structure is handled by running
// `data inspect` per file in a child process (tests/training/shard_damage_test.cpp). Either
// a morne::Error, or a shard read whole whose checks run to the end.

#include <H5Cpp.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "env/error.h"
#include "tests/fuzz/fuzz_target.h"
#include "training/shard_check.h"
#include "training/shard_reader.h"

namespace {

using namespace morne;

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  template <typename T>
  T value() {
    T v{};
    uint8_t raw[sizeof(T)];
    for (uint8_t& b : raw) b = byte();
    std::memcpy(&v, raw, sizeof v);
    return v;
  }
  bool oneIn(int n) { return byte() % n == 0; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

struct Layout {
  const char* group;
  const char* name;
  bool per_game;
  int row_kind;  // 0 scalar, 1 globals, 2 policy, 3 planes
  const H5::PredType* type;
};

// Writes one dataset as the input decides.
void writeDataset(H5::H5File& file, const Layout& d, hsize_t rows, const hsize_t shape[5],
                  Input& in) {
  if (in.oneIn(40)) return;  // missing
  const H5::PredType* type = d.type;
  if (in.oneIn(40))
    type = type == &H5::PredType::NATIVE_FLOAT ? &H5::PredType::NATIVE_INT32
                                               : &H5::PredType::NATIVE_FLOAT;
  std::vector<hsize_t> dims(1, rows);
  if (d.row_kind == 1) dims.push_back(shape[3]);
  if (d.row_kind == 2) dims.push_back(shape[4]);
  for (int k = 0; d.row_kind == 3 && k < 3; ++k) dims.push_back(shape[k]);
  if (in.oneIn(16)) dims[0] = in.oneIn(2) ? dims[0] + 1 : (dims[0] ? dims[0] - 1 : 1'000'000'000);
  std::vector<hsize_t> max = dims, chunk = dims;
  max[0] = H5S_UNLIMITED;
  chunk[0] = 4;
  for (hsize_t& c : chunk) c = std::max<hsize_t>(c, 1);
  H5::DSetCreatPropList props;
  props.setChunk(static_cast<int>(chunk.size()), chunk.data());
  H5::DataSpace space(static_cast<int>(dims.size()), dims.data(), max.data());
  H5::Group group = file.nameExists(d.group) ? file.openGroup(d.group) : file.createGroup(d.group);
  H5::DataSet set = group.createDataSet(d.name, *type, space, props);
  hsize_t n = 1;
  for (hsize_t x : dims) n *= x;
  if (n > 100'000) return;  // declared, never written
  std::vector<uint8_t> bytes(static_cast<size_t>(n) * type->getSize());
  for (uint8_t& b : bytes) b = in.byte();
  if (type == &H5::PredType::NATIVE_FLOAT && !in.oneIn(4)) {  // mostly sensible values
    for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      const float v = static_cast<float>(bytes[i] % 3) * 0.5f - 0.5f;
      std::memcpy(&bytes[i], &v, 4);
    }
  }
  if (!bytes.empty()) set.write(bytes.data(), *type);
}

void stringAttribute(H5::H5File& file, const char* name, const std::string& value) {
  H5::StrType type(H5::PredType::C_S1, H5T_VARIABLE);
  file.createAttribute(name, type, H5::DataSpace(H5S_SCALAR)).write(type, value);
}

void intAttribute(H5::H5File& file, const char* name, int value) {
  file.createAttribute(name, H5::PredType::NATIVE_INT, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_INT, &value);
}

std::vector<char> buildShard(Input& in) {
  H5::FileAccPropList memory;
  memory.setCore(1 << 16, false);
  H5::H5File file("fuzz-" + std::to_string(::getpid()) + ".h5", H5F_ACC_TRUNC,
                  H5::FileCreatPropList::DEFAULT, memory);
  stringAttribute(file, "format", in.oneIn(16) ? "other" : "morne-selfplay");
  intAttribute(file, "format_version", in.oneIn(16) ? in.byte() : 1);
  intAttribute(file, "encoder_version", in.oneIn(8) ? in.byte() : 1);
  for (const char* name : {"scenario", "blue_agent", "orange_agent", "config", "engine"})
    if (!in.oneIn(40)) stringAttribute(file, name, in.oneIn(4) ? "duel" : "fuzz");
  const hsize_t rows = in.byte() % 6, games = in.byte() % 4;
  const hsize_t shape[5] = {1u + in.byte() % 3u, 1u + in.byte() % 3u, 1u + in.byte() % 3u,
                            in.byte() % 3u, 1u + in.byte() % 6u};
  static const Layout layout[] = {
      {"positions", "planes", false, 3, &H5::PredType::NATIVE_FLOAT},
      {"positions", "globals", false, 1, &H5::PredType::NATIVE_FLOAT},
      {"positions", "policy", false, 2, &H5::PredType::NATIVE_FLOAT},
      {"positions", "legal", false, 2, &H5::PredType::NATIVE_UINT8},
      {"positions", "value", false, 0, &H5::PredType::NATIVE_FLOAT},
      {"positions", "game", false, 0, &H5::PredType::NATIVE_UINT64},
      {"positions", "move", false, 0, &H5::PredType::NATIVE_INT32},
      {"positions", "phase", false, 0, &H5::PredType::NATIVE_UINT8},
      {"positions", "side", false, 0, &H5::PredType::NATIVE_UINT8},
      {"games", "id", true, 0, &H5::PredType::NATIVE_UINT64},
      {"games", "seed", true, 0, &H5::PredType::NATIVE_UINT64},
      {"games", "winner", true, 0, &H5::PredType::NATIVE_INT8},
      {"games", "vp_blue", true, 0, &H5::PredType::NATIVE_INT16},
      {"games", "vp_orange", true, 0, &H5::PredType::NATIVE_INT16},
      {"games", "level", true, 0, &H5::PredType::NATIVE_INT8},
      {"games", "end", true, 0, &H5::PredType::NATIVE_UINT8},
      {"games", "plies", true, 0, &H5::PredType::NATIVE_INT32},
      {"games", "decisions", true, 0, &H5::PredType::NATIVE_INT32},
      {"games", "positions", true, 0, &H5::PredType::NATIVE_INT32},
  };
  for (const Layout& d : layout) writeDataset(file, d, d.per_game ? games : rows, shape, in);
  file.flush(H5F_SCOPE_GLOBAL);
  const ssize_t size = H5Fget_file_image(file.getId(), nullptr, 0);
  std::vector<char> image(static_cast<size_t>(std::max<ssize_t>(size, 0)));
  H5Fget_file_image(file.getId(), image.data(), image.size());
  return image;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("morne-fuzz-shard-" + std::to_string(::getpid()) + ".h5"))
                                      .string();
  H5::Exception::dontPrint();
  Input in(data, size);
  std::vector<char> image;
  try {
    image = buildShard(in);
  } catch (const H5::Exception&) {
    return 0;  // a layout HDF5 itself will not write: nothing for the reader to see
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(image.data(), static_cast<std::streamsize>(image.size()));
  try {
    const training::ShardContents c = training::readShard(path, true);
    training::checkShard(c);
  } catch (const Error&) {
  }
  return 0;
}

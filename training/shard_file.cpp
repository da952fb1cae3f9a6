#include "training/shard_file.h"

#include <H5Cpp.h>
#include <unistd.h>

#include <atomic>
#include <span>
#include <type_traits>
#include <vector>

#include "env/error.h"
#include "env/io/durable_file.h"
#include "training/shard_h5_types.h"
#include "training/shard_isolation.h"
#include "training/shard_schema.h"

namespace morne::training {

namespace {

constexpr hsize_t kChunkRows = 64;

// An extendible dataset of rows of `row_dims` (empty for scalars), chunked and compressed.
H5::DataSet makeRows(H5::Group& group, const char* name, const H5::PredType& type,
                     std::vector<hsize_t> row_dims) {
  std::vector<hsize_t> dims{0}, max{H5S_UNLIMITED}, chunk{kChunkRows};
  for (hsize_t d : row_dims) {
    dims.push_back(d);
    max.push_back(d);
    chunk.push_back(d);
  }
  H5::DataSpace space(static_cast<int>(dims.size()), dims.data(), max.data());
  H5::DSetCreatPropList props;
  props.setChunk(static_cast<int>(chunk.size()), chunk.data());
  // zlib level 1, no shuffle filter: measured on crossing shards, shuffling made the files larger
  // (2,870 against 2,290 bytes a row) and the writer 20% slower; levels above 1 cost more time
  // than they save space.
  props.setDeflate(1);
  // A chunk cache that holds the open chunk of the largest rows (crossing: ~7 MB of planes), so
  // appending a game does not compress, evict and re-read a partly filled chunk.
  H5::DSetAccPropList access;
  access.setChunkCache(521, 32u << 20, 1.0);
  return group.createDataSet(name, type, space, props, access);
}

// Appends `rows` rows from `data` to an extendible dataset.
void appendRows(H5::DataSet& set, const void* data, hsize_t rows, const H5::PredType& type) {
  if (rows == 0) return;
  H5::DataSpace space = set.getSpace();
  const int rank = space.getSimpleExtentNdims();
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  space.getSimpleExtentDims(dims.data());
  const hsize_t start_row = dims[0];
  dims[0] += rows;
  set.extend(dims.data());
  H5::DataSpace file_space = set.getSpace();
  std::vector<hsize_t> start(static_cast<size_t>(rank), 0), count = dims;
  start[0] = start_row;
  count[0] = rows;
  file_space.selectHyperslab(H5S_SELECT_SET, count.data(), start.data());
  H5::DataSpace memory(rank, count.data());
  set.write(data, type, memory, file_space);
}

void stringAttribute(H5::H5File& file, const char* name, const std::string& value) {
  // Variable-length UTF-8: h5py reads it as str, C++ as std::string.
  H5::StrType type(H5::PredType::C_S1, H5T_VARIABLE);
  type.setCset(H5T_CSET_UTF8);
  file.createAttribute(name, type, H5::DataSpace(H5S_SCALAR)).write(type, value);
}

void intAttribute(H5::H5File& file, const char* name, int value) {
  file.createAttribute(name, H5::PredType::NATIVE_INT, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_INT, &value);
}

// A name no other in-memory shard of this process has (HDF5 tells open files apart by name).
std::string memoryName() {
  static std::atomic<uint64_t> next{0};
  return "morne-shard-" + std::to_string(::getpid()) + "-" + std::to_string(next++) + ".h5";
}

}  // namespace

struct ShardFile::Datasets {
  H5::H5File file;
  std::vector<H5::Group> groups;  // positions, games
  std::vector<H5::DataSet> sets;  // one per shardDatasets() entry, in its order

  // Closes every dataset and group (each close is checked), before the file's image is taken.
  void closeObjects() {
    for (H5::DataSet& set : sets) set.close();
    for (H5::Group& group : groups) group.close();
  }
};

ShardFile::ShardFile(const ShardInfo& info)
    : sets_(std::make_unique<Datasets>()), shape_(info.shape) {
  const std::lock_guard hdf5(hdf5Mutex());
  H5::Exception::dontPrint();
  Datasets& o = *sets_;
  try {
    H5::FileAccPropList in_memory;
    in_memory.setCore(size_t{4} << 20, false);
    o.file = H5::H5File(memoryName(), H5F_ACC_TRUNC, H5::FileCreatPropList::DEFAULT, in_memory);
    stringAttribute(o.file, "format", kShardFormat);
    intAttribute(o.file, "format_version", kShardFormatVersion);
    for (const ShardAttribute& a : shardAttributes()) {
      std::visit(
          [&](auto member) {
            if constexpr (std::is_same_v<decltype(member), int ShardInfo::*>)
              intAttribute(o.file, a.name, info.*member);
            else
              stringAttribute(o.file, a.name, info.*member);
          },
          a.field);
    }
    o.groups.push_back(o.file.createGroup(kPositionsGroup));
    o.groups.push_back(o.file.createGroup(kGamesGroup));
    for (const ShardDataset& d : shardDatasets()) {
      H5::Group& group = d.group == std::string(kPositionsGroup) ? o.groups[0] : o.groups[1];
      const std::vector<uint64_t> dims = rowDims(d, info.shape);
      o.sets.push_back(makeRows(group, d.name, h5Type(d), {dims.begin(), dims.end()}));
    }
  } catch (const H5::Exception& e) {
    throw IoError("cannot create a shard in memory: " + e.getDetailMsg());
  }
}

ShardFile::~ShardFile() {
  const std::lock_guard hdf5(hdf5Mutex());
  sets_.reset();
}

void ShardFile::append(const GameData& g) {
  if (!sets_) throw IoError("a saved shard takes no more games");
  const std::lock_guard hdf5(hdf5Mutex());
  Datasets& o = *sets_;
  const auto n = static_cast<hsize_t>(g.rows);
  const std::span<const ShardDataset> datasets = shardDatasets();
  // Every row dataset holds the game's rows (a game that cannot be written whole is refused
  // before any of it is).
  for (const ShardDataset& d : datasets) {
    std::visit(
        [&](auto member) {
          using T = typename ShardElement<decltype(member)>::type;
          if constexpr (std::is_same_v<decltype(member), std::vector<T> GameData::*>) {
            std::vector<T> scratch;
            uint64_t expected = n;
            for (uint64_t dim : rowDims(d, shape_)) expected *= dim;
            const size_t held = shardValues(g, d, member, shape_, scratch).size();
            if (held != expected) {
              throw InternalError("game " + std::to_string(g.id) + ": " + d.name + " holds " +
                                  std::to_string(held) + " values for " + std::to_string(g.rows) +
                                  " rows, not " + std::to_string(expected));
            }
          }
        },
        d.field);
  }
  try {
    for (size_t i = 0; i < datasets.size(); ++i) {
      const ShardDataset& d = datasets[i];
      const bool per_position = d.group == std::string(kPositionsGroup);
      std::visit(
          [&](auto member) {
            const auto& value = g.*member;
            using Value = std::decay_t<decltype(value)>;
            if constexpr (requires { value.data(); }) {
              std::remove_cvref_t<decltype(value)> scratch;
              appendRows(o.sets[i], shardValues(g, d, member, shape_, scratch).data(), n,
                         h5Type(d));
            } else if (per_position) {  // the game's value on each of its rows
              const std::vector<Value> repeated(static_cast<size_t>(g.rows), value);
              appendRows(o.sets[i], repeated.data(), n, h5Type(d));
            } else {
              appendRows(o.sets[i], &value, 1, h5Type(d));
            }
          },
          d.field);
    }
  } catch (const H5::Exception& e) {
    throw IoError("cannot add a game to a shard in memory: " + e.getDetailMsg());
  }
  rows_ += g.rows;
}

void ShardFile::save(const std::string& path) {
  if (!sets_) throw IoError("the shard " + path + " was saved already");
  std::vector<char> image;
  {
    const std::lock_guard hdf5(hdf5Mutex());
    std::unique_ptr<Datasets> o = std::move(sets_);
    try {
      o->closeObjects();
      const hid_t id = o->file.getId();
      if (H5Fflush(id, H5F_SCOPE_LOCAL) < 0) throw IoError("cannot complete the shard " + path);
      const ssize_t size = H5Fget_file_image(id, nullptr, 0);
      if (size <= 0) throw IoError("cannot complete the shard " + path + ": no file image");
      image.resize(static_cast<size_t>(size));
      if (H5Fget_file_image(id, image.data(), image.size()) != size)
        throw IoError("cannot complete the shard " + path + ": file image changed size");
      o->file.close();
    } catch (const H5::Exception& e) {
      throw IoError("cannot complete the shard " + path + ": " + e.getDetailMsg());
    }
  }
  env::writeFileDurably(path, std::string_view(image.data(), image.size()));
}

}  // namespace morne::training

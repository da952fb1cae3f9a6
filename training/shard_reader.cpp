#include "training/shard_reader.h"

#include <H5Cpp.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <type_traits>

#include "env/error.h"
#include "training/shard_h5_types.h"
#include "training/shard_info.h"
#include "training/shard_isolation.h"
#include "training/shard_schema.h"

namespace morne::training {

namespace {

// What went wrong inside HDF5, from its error stack: the descriptions of the failed calls,
// innermost last ("H5Fopen failed" alone says nothing).
std::string hdf5Reason(const H5::Exception& e) {
  std::vector<std::string> parts;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned, const H5E_error2_t* entry, void* data) -> herr_t {
        auto& out = *static_cast<std::vector<std::string>*>(data);
        if (entry->desc && *entry->desc && (out.empty() || out.back() != entry->desc))
          out.emplace_back(entry->desc);
        return 0;
      },
      &parts);
  H5Eclear2(H5E_DEFAULT);
  std::string text;
  for (size_t i = 0; i < parts.size() && i < 4; ++i) text += (i ? "; " : "") + parts[i];
  return text.empty() ? e.getDetailMsg() : text;
}

std::string stringAttribute(const H5::H5File& file, const char* name) {
  if (!file.attrExists(name)) throw ConfigError(std::string("missing attribute ") + name);
  const H5::Attribute a = file.openAttribute(name);
  if (a.getTypeClass() != H5T_STRING)
    throw ConfigError(std::string("attribute ") + name + " is not a string");
  std::string value;
  try {
    a.read(a.getStrType(), value);
  } catch (const H5::Exception& e) {
    throw IoError(
        std::string("attribute ") + name +
        " cannot be read (its text, in the file's global heap, is damaged): " + hdf5Reason(e));
  }
  return value;
}

int intAttribute(const H5::H5File& file, const char* name) {
  if (!file.attrExists(name)) throw ConfigError(std::string("missing attribute ") + name);
  const H5::Attribute a = file.openAttribute(name);
  if (a.getTypeClass() != H5T_INTEGER || a.getSpace().getSimpleExtentNpoints() != 1)
    throw ConfigError(std::string("attribute ") + name + " is not an integer");
  int value = 0;
  a.read(H5::PredType::NATIVE_INT, &value);
  return value;
}

// One dataset of the shard, checked against the layout of docs/training-data.md before any
// of it is read: its type class and its shape (rows first, then `row_dims`).
struct Dataset {
  H5::DataSet set;
  std::string name;
  std::vector<hsize_t> dims;

  Dataset(const H5::Group& group, const std::string& group_name, const char* dataset,
          H5T_class_t type_class, size_t type_bytes, size_t rank) {
    name = group_name + "/" + dataset;
    if (!group.nameExists(dataset)) throw ConfigError("missing dataset " + name);
    set = group.openDataSet(dataset);
    if (set.getTypeClass() != type_class || set.getDataType().getSize() != type_bytes) {
      throw ConfigError(name + " has the wrong element type (expected " +
                        std::string(type_class == H5T_FLOAT ? "float" : "integer") + " of " +
                        std::to_string(type_bytes) + " bytes)");
    }
    const H5::DataSpace space = set.getSpace();
    dims.resize(static_cast<size_t>(space.getSimpleExtentNdims()));
    space.getSimpleExtentDims(dims.data());
    if (dims.size() != rank) {
      throw ConfigError(name + " has " + std::to_string(dims.size()) + " dimensions, expected " +
                        std::to_string(rank));
    }
  }

  // Throws unless the dataset holds `rows` rows of `row_elements` elements.
  void expectRows(hsize_t rows, hsize_t row_elements, const std::string& rows_of) const {
    hsize_t per_row = 1;
    for (size_t d = 1; d < dims.size(); ++d) per_row *= dims[d];
    if (dims[0] != rows) {
      throw ConfigError(name + " has " + std::to_string(dims[0]) + " rows where " + rows_of +
                        " has " + std::to_string(rows));
    }
    if (per_row != row_elements) {
      throw ConfigError(name + " rows hold " + std::to_string(per_row) + " values, expected " +
                        std::to_string(row_elements));
    }
  }

  uint64_t elements() const {
    uint64_t n = 1;
    for (hsize_t d : dims) n *= d;
    return n;
  }

  template <typename T>
  std::vector<T> read(const H5::PredType& type) const {
    std::vector<T> out(static_cast<size_t>(elements()));
    if (!out.empty()) set.read(out.data(), type);
    return out;
  }
};

// HDF5 can loop forever closing a file it failed to read (seen on a damaged global heap), so
// after an error the file is left open, on a list that is never destroyed: the caller gets
// the error, not a hang. (A process that exits normally may still meet that loop in HDF5's
// clean-up at exit; `data inspect` reads each file in a child process that ends with _exit.)
void abandonFile(std::unique_ptr<H5::H5File> file) {
  static auto* const abandoned = new std::vector<std::unique_ptr<H5::H5File>>;
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  abandoned->push_back(std::move(file));
}

// Appends rows [first, first + count) of `d` (`per_row` values each) to `into`.
template <typename T>
void appendRows(const Dataset& d, hsize_t first, hsize_t count, hsize_t per_row,
                const H5::PredType& type, std::vector<T>& into) {
  const size_t at = into.size();
  into.resize(at + static_cast<size_t>(count * per_row));
  const H5::DataSpace file_space = d.set.getSpace();
  std::vector<hsize_t> start(d.dims.size(), 0), extent(d.dims);
  start[0] = first;
  extent[0] = count;
  file_space.selectHyperslab(H5S_SELECT_SET, extent.data(), start.data());
  // A memory space of the selection's own shape: HDF5 then copies whole chunks instead of
  // iterating element by element (5x faster).
  const H5::DataSpace memory(static_cast<int>(extent.size()), extent.data());
  d.set.read(into.data() + at, type, memory, file_space);
}

// zlib cannot shrink data more than about 1032 to 1: a shard that declares more than this
// many bytes for each byte of the file is damaged (and reading it would allocate them).
constexpr uint64_t kMaxCompression = 1100;
// The most a shard may need in memory to be read whole.
constexpr uint64_t kMaxShardMemory = uint64_t{8} << 30;

}  // namespace

namespace {

// The dataset of the schema entry `d`, opened and checked for its element type and rank.
Dataset openDataset(const H5::Group& group, const ShardDataset& d) {
  const bool real = elementTypeName(d).starts_with("float");
  return Dataset(group, d.group, d.name, real ? H5T_FLOAT : H5T_INTEGER, elementBytes(d),
                 1 + rowDims(d, RowShape{}).size());
}

hsize_t product(const std::vector<uint64_t>& dims) {
  hsize_t n = 1;
  for (uint64_t d : dims) n *= d;
  return n;
}

bool inPositions(const ShardDataset& d) { return d.group == std::string(kPositionsGroup); }

}  // namespace

ShardContents readShard(const std::string& path, bool positions) {
  const std::lock_guard hdf5(hdf5Mutex());
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw IoError(path + ": " +
                  (std::filesystem::exists(path, ec) ? "not an ordinary file" : "no such file"));
  }
  const uint64_t file_bytes = std::filesystem::file_size(path, ec);
  H5::Exception::dontPrint();
  ShardContents c;
  std::unique_ptr<H5::H5File> opened;
  auto abandon = [&opened] { abandonFile(std::move(opened)); };
  try {
    if (H5Fis_hdf5(path.c_str()) <= 0) throw ConfigError("not an HDF5 file");
    opened = std::make_unique<H5::H5File>(path, H5F_ACC_RDONLY);
    const H5::H5File& file = *opened;
    if (!file.attrExists("format") || stringAttribute(file, "format") != kShardFormat)
      throw ConfigError("not a morne self-play shard (no format attribute \"morne-selfplay\")");
    c.format = kShardFormat;
    c.format_version = intAttribute(file, "format_version");
    if (c.format_version < kOldestShardFormatVersion || c.format_version > kShardFormatVersion) {
      throw ConfigError("shard format version " + std::to_string(c.format_version) +
                        ", this morne reads versions " + std::to_string(kOldestShardFormatVersion) +
                        " to " + std::to_string(kShardFormatVersion));
    }
    ShardInfo& info = c;
    for (const ShardAttribute& a : shardAttributes()) {
      std::visit(
          [&](auto member) {
            if constexpr (std::is_same_v<decltype(member), int ShardInfo::*>)
              info.*member = intAttribute(file, a.name);
            else
              info.*member = stringAttribute(file, a.name);
          },
          a.field);
    }
    if (!file.nameExists(kPositionsGroup) || !file.nameExists(kGamesGroup))
      throw ConfigError("missing group /positions or /games");
    const H5::Group groups[2] = {file.openGroup(kPositionsGroup), file.openGroup(kGamesGroup)};

    // Every dataset of its version, checked for its type and rank; then the shapes, from the
    // datasets that carry them; then every dataset's rows against the first of its group.
    std::vector<ShardDataset> schema;
    for (const ShardDataset& d : shardDatasets())
      if (d.since <= c.format_version) schema.push_back(d);
    std::vector<Dataset> sets;
    for (const ShardDataset& d : schema)
      sets.push_back(openDataset(groups[inPositions(d) ? 0 : 1], d));
    for (size_t i = 0; i < schema.size(); ++i) {
      const std::vector<hsize_t>& dims = sets[i].dims;
      if (schema[i].extent == RowExtent::kPlanes) {
        c.shape.planes = static_cast<int>(dims[1]);
        c.shape.height = static_cast<int>(dims[2]);
        c.shape.width = static_cast<int>(dims[3]);
      } else if (schema[i].extent == RowExtent::kGlobals) {
        c.shape.globals = static_cast<int>(dims[1]);
      } else if (schema[i].extent == RowExtent::kPolicy) {
        c.shape.policy = static_cast<int>(dims[1]);
      }
    }
    const Dataset* first_of[2] = {nullptr, nullptr};
    for (size_t i = 0; i < schema.size(); ++i) {
      const Dataset*& first = first_of[inPositions(schema[i]) ? 0 : 1];
      if (!first) first = &sets[i];
      sets[i].expectRows(first->dims[0], product(rowDims(schema[i], c.shape)), first->name);
    }
    c.rows = static_cast<int64_t>(first_of[0]->dims[0]);

    // Sizes before allocations.
    uint64_t declared = 0;
    for (const Dataset& d : sets) {
      const uint64_t bytes = d.elements() * d.set.getDataType().getSize();
      if (d.elements() > kMaxShardMemory || bytes / kMaxCompression > file_bytes) {
        throw ConfigError(d.name + " declares " + std::to_string(d.elements()) +
                          " values, more than a file of " + std::to_string(file_bytes) +
                          " bytes can hold");
      }
      declared += bytes;
    }
    if (positions && declared > kMaxShardMemory) {
      throw IoError("reading it whole needs " + std::to_string(declared >> 20) +
                    " MiB of memory; at most " + std::to_string(kMaxShardMemory >> 20) +
                    " are allowed");
    }

    // The games' own records; each game's rows as it declares them.
    c.games.resize(static_cast<size_t>(first_of[1]->dims[0]));
    for (size_t i = 0; i < schema.size(); ++i) {
      if (inPositions(schema[i])) continue;
      std::visit(
          [&](auto member) {
            using T = typename ShardElement<decltype(member)>::type;
            if constexpr (!std::is_same_v<decltype(member), std::vector<T> GameData::*>) {
              const std::vector<T> values = sets[i].read<T>(h5TypeOf<T>());
              for (size_t k = 0; k < values.size(); ++k) c.games[k].*member = values[k];
            }
          },
          schema[i].field);
    }
    std::map<uint64_t, size_t> index;
    for (size_t k = 0; k < c.games.size(); ++k) {
      GameData& g = c.games[k];
      if (!index.emplace(g.id, k).second)
        throw ConfigError("game id " + std::to_string(g.id) + " appears twice in games/id");
      c.declared_rows.push_back(g.rows);
      if (positions) g.rows = 0;
    }
    if (!positions) return c;

    // Each row goes to the game its key (the scalar member in /positions) names.
    std::vector<size_t> game_of_row;
    for (size_t i = 0; i < schema.size() && game_of_row.empty(); ++i) {
      if (!inPositions(schema[i]) || !std::holds_alternative<uint64_t GameData::*>(schema[i].field))
        continue;
      const std::vector<uint64_t> keys = sets[i].read<uint64_t>(H5::PredType::NATIVE_UINT64);
      for (size_t r = 0; r < keys.size(); ++r) {
        const auto it = index.find(keys[r]);
        if (it == index.end()) {
          throw ConfigError(sets[i].name + " row " + std::to_string(r) + " names game " +
                            std::to_string(keys[r]) + ", which games/id does not list");
        }
        game_of_row.push_back(it->second);
      }
    }
    for (size_t i = 0; i < schema.size(); ++i) {
      if (!inPositions(schema[i])) continue;
      std::visit(
          [&](auto member) {
            using T = typename ShardElement<decltype(member)>::type;
            if constexpr (std::is_same_v<decltype(member), std::vector<T> GameData::*>) {
              const std::vector<T> all = sets[i].read<T>(h5TypeOf<T>());
              const size_t n = static_cast<size_t>(product(rowDims(schema[i], c.shape)));
              for (size_t r = 0; r < game_of_row.size(); ++r) {
                std::vector<T>& into = c.games[game_of_row[r]].*member;
                const auto from = all.begin() + static_cast<std::ptrdiff_t>(r * n);
                into.insert(into.end(), from, from + static_cast<std::ptrdiff_t>(n));
              }
            }
          },
          schema[i].field);
    }
    for (size_t g : game_of_row) ++c.games[g].rows;
    // The datasets an older version lacks hold their stand-ins' values.
    for (const ShardDataset& d : shardDatasets()) {
      if (d.since <= c.format_version || !d.stand_in) continue;
      std::visit(
          [&](auto member) {
            using T = typename ShardElement<decltype(member)>::type;
            if constexpr (std::is_same_v<decltype(member), std::vector<T> GameData::*>) {
              std::vector<T> scratch;
              for (GameData& g : c.games) g.*member = shardValues(g, d, member, c.shape, scratch);
            }
          },
          d.field);
    }
  } catch (const ConfigError& e) {
    abandon();
    throw ConfigError(path + ": damaged or not a morne shard: " + e.what());
  } catch (const IoError& e) {
    abandon();
    throw IoError(path + ": cannot read the shard: " + e.what());
  } catch (const H5::Exception& e) {
    abandon();
    throw IoError(path + ": cannot read the shard: " + hdf5Reason(e) + " (in " + e.getFuncName() +
                  ")");
  }
  return c;
}

void readShardRows(const std::string& path, int64_t first, int64_t count, const RowShape& shape,
                   nn::TrainingBatch& into) {
  const std::lock_guard hdf5(hdf5Mutex());
  H5::Exception::dontPrint();
  std::unique_ptr<H5::H5File> opened;
  try {
    opened = std::make_unique<H5::H5File>(path, H5F_ACC_RDONLY);
    const H5::Group pos = opened->openGroup(kPositionsGroup);
    std::optional<hsize_t> rows;
    std::vector<const ShardDataset*> stood_in;
    for (const ShardDataset& d : shardDatasets()) {
      if (std::holds_alternative<std::monostate>(d.batch)) continue;
      if (d.stand_in && !pos.nameExists(d.name)) {  // an older shard: filled below
        stood_in.push_back(&d);
        continue;
      }
      const Dataset set = openDataset(pos, d);
      if (!rows) {
        rows = set.dims[0];
        if (first < 0 || count < 0 || static_cast<hsize_t>(first + count) > *rows) {
          throw ConfigError("rows " + std::to_string(first) + ".." + std::to_string(first + count) +
                            " asked of a shard of " + std::to_string(*rows));
        }
      }
      const hsize_t per_row = product(rowDims(d, shape));
      set.expectRows(*rows, per_row, "the shard");
      std::visit(
          [&](auto member) {
            if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
              appendRows(set, static_cast<hsize_t>(first), static_cast<hsize_t>(count), per_row,
                         h5Type(d), into.*member);
            }
          },
          d.batch);
    }
    for (const ShardDataset* d : stood_in) {
      if (std::string(d->stand_in) == kUnknown) {
        std::visit(
            [&](auto to) {
              if constexpr (std::is_same_v<decltype(to), std::vector<float> nn::TrainingBatch::*>) {
                const size_t n = static_cast<size_t>(count) * product(rowDims(*d, shape));
                (into.*to).insert((into.*to).end(), n, std::nanf(""));
              }
            },
            d->batch);
        continue;
      }
      const ShardDataset* source = shardDataset(d->group, d->stand_in);
      std::visit(
          [&](auto to, auto from) {
            if constexpr (!std::is_same_v<decltype(to), std::monostate> &&
                          std::is_same_v<decltype(to), decltype(from)>) {
              auto& values = into.*to;
              const auto& given = into.*from;
              values.insert(values.end(), given.end() - static_cast<std::ptrdiff_t>(count),
                            given.end());
            }
          },
          d->batch, source->batch);
    }
    into.size += static_cast<int>(count);
    into.height = shape.height;
    into.width = shape.width;
  } catch (const ConfigError& e) {
    abandonFile(std::move(opened));
    throw ConfigError(path + ": damaged or not a morne shard: " + e.what());
  } catch (const H5::Exception& e) {
    abandonFile(std::move(opened));
    throw IoError(path + ": cannot read the shard: " + hdf5Reason(e) + " (in " + e.getFuncName() +
                  ")");
  }
}

}  // namespace morne::training

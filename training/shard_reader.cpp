#include "training/shard_reader.h"

#include <H5Cpp.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "env/error.h"
#include "training/shard_info.h"

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

ShardContents readShard(const std::string& path, bool positions) {
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
    if (c.format_version != kShardFormatVersion) {
      throw ConfigError("shard format version " + std::to_string(c.format_version) +
                        ", this morne reads " + std::to_string(kShardFormatVersion));
    }
    c.encoder_version = intAttribute(file, "encoder_version");
    c.scenario = stringAttribute(file, "scenario");
    c.blue_agent = stringAttribute(file, "blue_agent");
    c.orange_agent = stringAttribute(file, "orange_agent");
    c.config = stringAttribute(file, "config");
    c.engine = stringAttribute(file, "engine");
    if (!file.nameExists("positions") || !file.nameExists("games"))
      throw ConfigError("missing group /positions or /games");
    const H5::Group pos = file.openGroup("positions");
    const H5::Group games = file.openGroup("games");

    const Dataset planes(pos, "positions", "planes", H5T_FLOAT, 4, 4);
    c.rows = static_cast<int64_t>(planes.dims[0]);
    c.shape.planes = static_cast<int>(planes.dims[1]);
    c.shape.height = static_cast<int>(planes.dims[2]);
    c.shape.width = static_cast<int>(planes.dims[3]);
    const Dataset globals(pos, "positions", "globals", H5T_FLOAT, 4, 2);
    const Dataset policy(pos, "positions", "policy", H5T_FLOAT, 4, 2);
    c.shape.globals = static_cast<int>(globals.dims[1]);
    c.shape.policy = static_cast<int>(policy.dims[1]);
    const Dataset legal(pos, "positions", "legal", H5T_INTEGER, 1, 2);
    const Dataset value(pos, "positions", "value", H5T_FLOAT, 4, 1);
    const Dataset game(pos, "positions", "game", H5T_INTEGER, 8, 1);
    const Dataset move(pos, "positions", "move", H5T_INTEGER, 4, 1);
    const Dataset phase(pos, "positions", "phase", H5T_INTEGER, 1, 1);
    const Dataset side(pos, "positions", "side", H5T_INTEGER, 1, 1);
    const auto rows = static_cast<hsize_t>(c.rows);
    const auto A = static_cast<hsize_t>(c.shape.policy);
    globals.expectRows(rows, static_cast<hsize_t>(c.shape.globals), planes.name);
    policy.expectRows(rows, A, planes.name);
    legal.expectRows(rows, A, planes.name);
    for (const Dataset* d : {&value, &game, &move, &phase, &side})
      d->expectRows(rows, 1, planes.name);

    const Dataset ids(games, "games", "id", H5T_INTEGER, 8, 1);
    const Dataset seeds(games, "games", "seed", H5T_INTEGER, 8, 1);
    const Dataset winners(games, "games", "winner", H5T_INTEGER, 1, 1);
    const Dataset vp_blue(games, "games", "vp_blue", H5T_INTEGER, 2, 1);
    const Dataset vp_orange(games, "games", "vp_orange", H5T_INTEGER, 2, 1);
    const Dataset levels(games, "games", "level", H5T_INTEGER, 1, 1);
    const Dataset ends(games, "games", "end", H5T_INTEGER, 1, 1);
    const Dataset plies(games, "games", "plies", H5T_INTEGER, 4, 1);
    const Dataset decisions(games, "games", "decisions", H5T_INTEGER, 4, 1);
    const Dataset game_rows(games, "games", "positions", H5T_INTEGER, 4, 1);
    for (const Dataset* d :
         {&seeds, &winners, &vp_blue, &vp_orange, &levels, &ends, &plies, &decisions, &game_rows})
      d->expectRows(ids.dims[0], 1, ids.name);

    // Sizes before allocations.
    uint64_t declared = 0;
    for (const Dataset* d :
         {&planes, &globals, &policy, &legal, &value, &game, &move, &phase, &side, &ids, &seeds,
          &winners, &vp_blue, &vp_orange, &levels, &ends, &plies, &decisions, &game_rows}) {
      const uint64_t bytes = d->elements() * d->set.getDataType().getSize();
      if (d->elements() > kMaxShardMemory || bytes / kMaxCompression > file_bytes) {
        throw ConfigError(d->name + " declares " + std::to_string(d->elements()) +
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

    const auto id = ids.read<uint64_t>(H5::PredType::NATIVE_UINT64);
    const auto seed = seeds.read<uint64_t>(H5::PredType::NATIVE_UINT64);
    const auto winner = winners.read<int8_t>(H5::PredType::NATIVE_INT8);
    const auto blue = vp_blue.read<int16_t>(H5::PredType::NATIVE_INT16);
    const auto orange = vp_orange.read<int16_t>(H5::PredType::NATIVE_INT16);
    const auto level = levels.read<int8_t>(H5::PredType::NATIVE_INT8);
    const auto end = ends.read<uint8_t>(H5::PredType::NATIVE_UINT8);
    const auto ply = plies.read<int32_t>(H5::PredType::NATIVE_INT32);
    const auto decision = decisions.read<int32_t>(H5::PredType::NATIVE_INT32);
    const auto rows_of_game = game_rows.read<int32_t>(H5::PredType::NATIVE_INT32);
    std::map<uint64_t, size_t> index;
    for (size_t i = 0; i < id.size(); ++i) {
      GameData g;
      g.id = id[i];
      g.seed = seed[i];
      g.winner = winner[i];
      g.vp_blue = blue[i];
      g.vp_orange = orange[i];
      g.level = level[i];
      g.end = end[i];
      g.plies = ply[i];
      g.decisions = decision[i];
      g.rows = positions ? 0 : rows_of_game[i];
      if (!index.emplace(g.id, i).second)
        throw ConfigError("game id " + std::to_string(g.id) + " appears twice in games/id");
      c.games.push_back(std::move(g));
      c.declared_rows.push_back(rows_of_game[i]);
    }
    if (!positions) return c;

    const auto all_planes = planes.read<float>(H5::PredType::NATIVE_FLOAT);
    const auto all_globals = globals.read<float>(H5::PredType::NATIVE_FLOAT);
    const auto all_policy = policy.read<float>(H5::PredType::NATIVE_FLOAT);
    const auto all_legal = legal.read<uint8_t>(H5::PredType::NATIVE_UINT8);
    const auto all_value = value.read<float>(H5::PredType::NATIVE_FLOAT);
    const auto all_game = game.read<uint64_t>(H5::PredType::NATIVE_UINT64);
    const auto all_move = move.read<int32_t>(H5::PredType::NATIVE_INT32);
    const auto all_phase = phase.read<uint8_t>(H5::PredType::NATIVE_UINT8);
    const auto all_side = side.read<uint8_t>(H5::PredType::NATIVE_UINT8);
    const auto P = static_cast<size_t>(c.shape.planeSize()),
               G = static_cast<size_t>(c.shape.globals), N = static_cast<size_t>(A);
    auto slice = [](const auto& all, size_t r, size_t n, auto& into) {
      into.insert(into.end(), all.begin() + static_cast<std::ptrdiff_t>(r * n),
                  all.begin() + static_cast<std::ptrdiff_t>((r + 1) * n));
    };
    for (size_t r = 0; r < static_cast<size_t>(c.rows); ++r) {
      const auto it = index.find(all_game[r]);
      if (it == index.end()) {
        throw ConfigError("positions/game row " + std::to_string(r) + " names game " +
                          std::to_string(all_game[r]) + ", which games/id does not list");
      }
      GameData& g = c.games[it->second];
      slice(all_planes, r, P, g.planes);
      slice(all_globals, r, G, g.globals);
      slice(all_policy, r, N, g.policy);
      slice(all_legal, r, N, g.legal);
      g.value.push_back(all_value[r]);
      g.move.push_back(all_move[r]);
      g.phase.push_back(all_phase[r]);
      g.side.push_back(all_side[r]);
      ++g.rows;
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
  H5::Exception::dontPrint();
  std::unique_ptr<H5::H5File> opened;
  try {
    opened = std::make_unique<H5::H5File>(path, H5F_ACC_RDONLY);
    const H5::Group pos = opened->openGroup("positions");
    const Dataset planes(pos, "positions", "planes", H5T_FLOAT, 4, 4);
    const Dataset globals(pos, "positions", "globals", H5T_FLOAT, 4, 2);
    const Dataset policy(pos, "positions", "policy", H5T_FLOAT, 4, 2);
    const Dataset legal(pos, "positions", "legal", H5T_INTEGER, 1, 2);
    const Dataset value(pos, "positions", "value", H5T_FLOAT, 4, 1);
    const auto rows = static_cast<hsize_t>(planes.dims[0]);
    if (first < 0 || count < 0 || static_cast<hsize_t>(first + count) > rows) {
      throw ConfigError("rows " + std::to_string(first) + ".." + std::to_string(first + count) +
                        " asked of a shard of " + std::to_string(rows));
    }
    const auto P = static_cast<hsize_t>(shape.planeSize()), G = static_cast<hsize_t>(shape.globals),
               A = static_cast<hsize_t>(shape.policy);
    planes.expectRows(rows, P, planes.name);
    globals.expectRows(rows, G, planes.name);
    policy.expectRows(rows, A, planes.name);
    legal.expectRows(rows, A, planes.name);
    value.expectRows(rows, 1, planes.name);
    const auto at = static_cast<hsize_t>(first), n = static_cast<hsize_t>(count);
    appendRows(planes, at, n, P, H5::PredType::NATIVE_FLOAT, into.planes);
    appendRows(globals, at, n, G, H5::PredType::NATIVE_FLOAT, into.globals);
    appendRows(policy, at, n, A, H5::PredType::NATIVE_FLOAT, into.policy);
    appendRows(legal, at, n, A, H5::PredType::NATIVE_UINT8, into.legal);
    appendRows(value, at, n, 1, H5::PredType::NATIVE_FLOAT, into.value);
    into.size += static_cast<int>(count);
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

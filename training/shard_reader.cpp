#include "training/shard_reader.h"

#include <H5Cpp.h>

#include <filesystem>
#include <map>

#include "env/error.h"
#include "training/shard_info.h"

namespace morne::training {

namespace {

std::string stringAttribute(const H5::H5File& file, const char* name) {
  const H5::Attribute a = file.openAttribute(name);
  std::string value;
  a.read(a.getStrType(), value);
  return value;
}

int intAttribute(const H5::H5File& file, const char* name) {
  int value = 0;
  file.openAttribute(name).read(H5::PredType::NATIVE_INT, &value);
  return value;
}

std::vector<hsize_t> dims(const H5::DataSet& set) {
  const H5::DataSpace space = set.getSpace();
  std::vector<hsize_t> d(static_cast<size_t>(space.getSimpleExtentNdims()));
  space.getSimpleExtentDims(d.data());
  return d;
}

template <typename T>
std::vector<T> readAll(const H5::Group& group, const char* name, const H5::PredType& type) {
  const H5::DataSet set = group.openDataSet(name);
  size_t n = 1;
  for (hsize_t d : dims(set)) n *= static_cast<size_t>(d);
  std::vector<T> out(n);
  if (n) set.read(out.data(), type);
  return out;
}

}  // namespace

ShardContents readShard(const std::string& path, bool positions) {
  if (!std::filesystem::exists(path)) throw IoError(path + ": no such file");
  H5::Exception::dontPrint();
  ShardContents c;
  try {
    const H5::H5File file(path, H5F_ACC_RDONLY);
    if (!file.attrExists("format") || stringAttribute(file, "format") != kShardFormat) {
      throw ConfigError(path + ": not a morne self-play shard");
    }
    c.format = kShardFormat;
    c.format_version = intAttribute(file, "format_version");
    if (c.format_version != kShardFormatVersion) {
      throw ConfigError(path + ": shard format version " + std::to_string(c.format_version) +
                        ", this morne reads " + std::to_string(kShardFormatVersion));
    }
    c.encoder_version = intAttribute(file, "encoder_version");
    c.scenario = stringAttribute(file, "scenario");
    c.blue_agent = stringAttribute(file, "blue_agent");
    c.orange_agent = stringAttribute(file, "orange_agent");
    c.config = stringAttribute(file, "config");
    c.engine = stringAttribute(file, "engine");
    const H5::Group pos = file.openGroup("positions");
    const std::vector<hsize_t> pd = dims(pos.openDataSet("planes"));
    c.rows = static_cast<int64_t>(pd[0]);
    c.shape.planes = static_cast<int>(pd[1]);
    c.shape.height = static_cast<int>(pd[2]);
    c.shape.width = static_cast<int>(pd[3]);
    c.shape.globals = static_cast<int>(dims(pos.openDataSet("globals"))[1]);
    c.shape.policy = static_cast<int>(dims(pos.openDataSet("policy"))[1]);

    const H5::Group games = file.openGroup("games");
    const auto ids = readAll<uint64_t>(games, "id", H5::PredType::NATIVE_UINT64);
    const auto seeds = readAll<uint64_t>(games, "seed", H5::PredType::NATIVE_UINT64);
    const auto winners = readAll<int8_t>(games, "winner", H5::PredType::NATIVE_INT8);
    const auto vp_blue = readAll<int16_t>(games, "vp_blue", H5::PredType::NATIVE_INT16);
    const auto vp_orange = readAll<int16_t>(games, "vp_orange", H5::PredType::NATIVE_INT16);
    const auto levels = readAll<int8_t>(games, "level", H5::PredType::NATIVE_INT8);
    const auto ends = readAll<uint8_t>(games, "end", H5::PredType::NATIVE_UINT8);
    const auto plies = readAll<int32_t>(games, "plies", H5::PredType::NATIVE_INT32);
    const auto decisions = readAll<int32_t>(games, "decisions", H5::PredType::NATIVE_INT32);
    const auto rows = readAll<int32_t>(games, "positions", H5::PredType::NATIVE_INT32);
    std::map<uint64_t, size_t> index;
    for (size_t i = 0; i < ids.size(); ++i) {
      GameData g;
      g.id = ids[i];
      g.seed = seeds[i];
      g.winner = winners[i];
      g.vp_blue = vp_blue[i];
      g.vp_orange = vp_orange[i];
      g.level = levels[i];
      g.end = ends[i];
      g.plies = plies[i];
      g.decisions = decisions[i];
      g.rows = positions ? 0 : rows[i];
      index[g.id] = i;
      c.games.push_back(std::move(g));
    }
    if (!positions) return c;

    const auto planes = readAll<float>(pos, "planes", H5::PredType::NATIVE_FLOAT);
    const auto globals = readAll<float>(pos, "globals", H5::PredType::NATIVE_FLOAT);
    const auto policy = readAll<float>(pos, "policy", H5::PredType::NATIVE_FLOAT);
    const auto legal = readAll<uint8_t>(pos, "legal", H5::PredType::NATIVE_UINT8);
    const auto value = readAll<float>(pos, "value", H5::PredType::NATIVE_FLOAT);
    const auto game = readAll<uint64_t>(pos, "game", H5::PredType::NATIVE_UINT64);
    const auto move = readAll<int32_t>(pos, "move", H5::PredType::NATIVE_INT32);
    const auto phase = readAll<uint8_t>(pos, "phase", H5::PredType::NATIVE_UINT8);
    const auto side = readAll<uint8_t>(pos, "side", H5::PredType::NATIVE_UINT8);
    const auto P = static_cast<size_t>(c.shape.planeSize()),
               G = static_cast<size_t>(c.shape.globals), A = static_cast<size_t>(c.shape.policy);
    for (size_t r = 0; r < static_cast<size_t>(c.rows); ++r) {
      const auto it = index.find(game[r]);
      if (it == index.end())
        throw ConfigError(path + ": row " + std::to_string(r) + " names an unknown game");
      GameData& g = c.games[it->second];
      g.planes.insert(g.planes.end(), planes.begin() + static_cast<std::ptrdiff_t>(r * P),
                      planes.begin() + static_cast<std::ptrdiff_t>((r + 1) * P));
      g.globals.insert(g.globals.end(), globals.begin() + static_cast<std::ptrdiff_t>(r * G),
                       globals.begin() + static_cast<std::ptrdiff_t>((r + 1) * G));
      g.policy.insert(g.policy.end(), policy.begin() + static_cast<std::ptrdiff_t>(r * A),
                      policy.begin() + static_cast<std::ptrdiff_t>((r + 1) * A));
      g.legal.insert(g.legal.end(), legal.begin() + static_cast<std::ptrdiff_t>(r * A),
                     legal.begin() + static_cast<std::ptrdiff_t>((r + 1) * A));
      g.value.push_back(value[r]);
      g.move.push_back(move[r]);
      g.phase.push_back(phase[r]);
      g.side.push_back(side[r]);
      ++g.rows;
    }
  } catch (const H5::Exception& e) {
    throw IoError(path + ": cannot read the shard: " + e.getDetailMsg());
  }
  return c;
}

}  // namespace morne::training

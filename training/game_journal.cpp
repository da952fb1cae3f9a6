#include "training/game_journal.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>

#include "env/error.h"
#include "env/io/durable_file.h"
#include "training/shard_schema.h"

namespace morne::training {

namespace {

constexpr uint32_t kMagic = 0x4E524A4D;  // "MJRN" read little-endian
constexpr uint32_t kInfoRecord = 0;
constexpr uint32_t kGameRecord = 1;
constexpr size_t kHeaderBytes = 5 * sizeof(uint32_t);
constexpr uint32_t kMaxRecordBytes = 1u << 31;

class Bytes {
 public:
  template <typename T>
  void put(const T& v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <typename T>
  void put(const std::vector<T>& v) {
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  std::string out;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <typename T>
  bool get(T& v) {
    if (in_.size() < sizeof v) return false;
    std::memcpy(&v, in_.data(), sizeof v);
    in_.remove_prefix(sizeof v);
    return true;
  }
  template <typename T>
  bool get(std::vector<T>& v, size_t n) {
    if (in_.size() / sizeof(T) < n) return false;
    v.resize(n);
    std::memcpy(v.data(), in_.data(), n * sizeof(T));
    in_.remove_prefix(n * sizeof(T));
    return true;
  }
  bool done() const { return in_.empty(); }

 private:
  std::string_view in_;
};

// A game record holds the game's own values (the /games datasets, in the schema's order), then
// its rows (the /positions datasets of the schema that are vectors, in order).
bool inGames(const ShardDataset& d) { return d.group == std::string(kGamesGroup); }

std::string serialize(const GameData& g, const RowShape& shape) {
  Bytes b;
  for (const bool games_first : {true, false}) {
    for (const ShardDataset& d : shardDatasets()) {
      if (inGames(d) != games_first) continue;
      std::visit(
          [&](auto member) {
            using T = typename ShardElement<decltype(member)>::type;
            if constexpr (std::is_same_v<decltype(member), std::vector<T> GameData::*>) {
              std::vector<T> scratch;
              if (!games_first) b.put(shardValues(g, d, member, shape, scratch));
            } else if (games_first) {
              b.put(g.*member);
            }
          },
          d.field);
    }
  }
  return std::move(b.out);
}

// The game in `raw`, written by a journal of format `version`, or nullopt when its sizes do
// not fit `shape`. The datasets an older journal lacks take their stand-ins' values.
std::optional<GameData> deserialize(std::string_view raw, const RowShape& shape, int version) {
  Reader r(raw);
  GameData g;
  bool ok = true;
  for (const bool games_first : {true, false}) {
    for (const ShardDataset& d : shardDatasets()) {
      if (inGames(d) != games_first || !ok || d.since > version) continue;
      std::visit(
          [&](auto member) {
            using T = typename ShardElement<decltype(member)>::type;
            if constexpr (std::is_same_v<decltype(member), std::vector<T> GameData::*>) {
              if (games_first) return;
              size_t n = static_cast<size_t>(g.rows);
              for (uint64_t dim : rowDims(d, shape))
                if (__builtin_mul_overflow(n, static_cast<size_t>(dim), &n)) ok = false;
              ok = ok && r.get(g.*member, n);
            } else if (games_first) {
              ok = r.get(g.*member);
            }
          },
          d.field);
    }
    if (!ok || g.rows < 0) return std::nullopt;
  }
  if (!r.done()) return std::nullopt;
  for (const ShardDataset& d : shardDatasets()) {
    if (d.since <= version || !d.stand_in) continue;
    std::visit(
        [&](auto member) {
          using T = typename ShardElement<decltype(member)>::type;
          if constexpr (std::is_same_v<decltype(member), std::vector<T> GameData::*>) {
            std::vector<T> scratch;
            g.*member = shardValues(g, d, member, shape, scratch);
          }
        },
        d.field);
  }
  return g;
}

nlohmann::json infoJson(const ShardInfo& info) {
  const RowShape& s = info.shape;
  nlohmann::json j = {{"format", kShardFormat},
                      {"format_version", kShardFormatVersion},
                      {"shape", {s.planes, s.height, s.width, s.globals, s.policy}}};
  for (const ShardAttribute& a : shardAttributes())
    std::visit([&](auto member) { j[a.name] = info.*member; }, a.field);
  return j;
}

// A journal's header: what its shard says about itself, and the format version it was written in.
struct JournalInfo {
  ShardInfo info;
  int version = kShardFormatVersion;
};

std::optional<JournalInfo> infoFromJson(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  try {
    if (j.is_discarded() || j.at("format") != kShardFormat ||
        !j.at("format_version").is_number_integer() ||
        j.at("format_version").get<int>() < kOldestShardFormatVersion ||
        j.at("format_version").get<int>() > kShardFormatVersion)
      return std::nullopt;
    JournalInfo read;
    read.version = j.at("format_version").get<int>();
    ShardInfo& info = read.info;
    for (const ShardAttribute& a : shardAttributes()) {
      std::visit([&](auto member) { j.at(a.name).get_to(info.*member); }, a.field);
    }
    const auto& s = j.at("shape");
    info.shape = {s.at(0).get<int>(), s.at(1).get<int>(), s.at(2).get<int>(), s.at(3).get<int>(),
                  s.at(4).get<int>()};
    const RowShape& r = info.shape;
    if (r.planes < 1 || r.height < 1 || r.width < 1 || r.globals < 0 || r.policy < 1 ||
        r.planes > 4096 || r.height > 4096 || r.width > 4096 || r.globals > 4096 ||
        r.policy > (1 << 26))
      return std::nullopt;
    return read;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// CRC-32 of a record's kind, sizes and stored bytes.
uint32_t recordCrc(uint32_t kind, uint32_t stored_bytes, uint32_t raw_bytes,
                   std::string_view stored) {
  const uint32_t fields[3] = {kind, stored_bytes, raw_bytes};
  uLong crc = crc32(0, reinterpret_cast<const Bytef*>(fields), sizeof fields);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(stored.data()), static_cast<uInt>(stored.size()));
  return static_cast<uint32_t>(crc);
}

std::string record(uint32_t kind, std::string_view stored, size_t raw_bytes) {
  const auto stored_bytes = static_cast<uint32_t>(stored.size());
  const auto raw = static_cast<uint32_t>(raw_bytes);
  Bytes b;
  b.put(kMagic);
  b.put(kind);
  b.put(stored_bytes);
  b.put(raw);
  b.put(recordCrc(kind, stored_bytes, raw, stored));
  b.out.append(stored);
  return std::move(b.out);
}

// True for a journal cut before its first record was whole: the kill came as it was created.
bool headerCutShort(std::string_view data) {
  if (data.size() < kHeaderBytes) return true;
  uint32_t magic = 0, stored = 0;
  std::memcpy(&magic, data.data(), sizeof magic);
  std::memcpy(&stored, data.data() + 2 * sizeof(uint32_t), sizeof stored);
  return magic == kMagic && stored > data.size() - kHeaderBytes;
}

}  // namespace

// A journal is made under a temporary name, locked, given its header, and only then renamed
// to its own: so a journal under its own name is always locked while its writer lives, and
// recoverShards() never takes a live one for a dead one.
struct GameJournal::File {
  explicit File(const std::string& path) : out(path + kNewJournalSuffix, true, true) {}
  env::AppendOnlyFile out;
  bool removed = false;
};

GameJournal::GameJournal(const std::string& path, const ShardInfo& info)
    : file_(std::make_unique<File>(path)), shape_(info.shape) {
  const std::string text = infoJson(info).dump();
  file_->out.append(record(kInfoRecord, text, text.size()));
  file_->out.renameTo(path);
}

GameJournal::~GameJournal() = default;

const std::string& GameJournal::path() const { return file_->out.path(); }

void GameJournal::append(const GameData& game) {
  const std::string raw = serialize(game, shape_);
  uLongf stored_bytes = compressBound(static_cast<uLong>(raw.size()));
  std::string stored(stored_bytes, '\0');
  if (compress2(reinterpret_cast<Bytef*>(stored.data()), &stored_bytes,
                reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()),
                1) != Z_OK) {
    throw IoError("cannot compress a game for the journal " + path());
  }
  stored.resize(stored_bytes);
  if (stored.size() >= kMaxRecordBytes || raw.size() >= kMaxRecordBytes)
    throw IoError("a game too large for the journal " + path());
  file_->out.append(record(kGameRecord, stored, raw.size()));
}

void GameJournal::remove() {
  file_->out.close();
  env::removeDurably(path());
}

RecoveredJournal readJournal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read journal " + path);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw IoError("cannot read journal " + path);
  return parseJournal(data, path);
}

RecoveredJournal parseJournal(std::string_view data, const std::string& path) {
  RecoveredJournal out;
  size_t at = 0;
  bool have_info = false;
  int version = kShardFormatVersion;
  bool cut_short = false;  // the record where reading stopped runs past the end of the data
  while (at < data.size()) {
    Reader header(std::string_view(data).substr(at));
    uint32_t magic = 0, kind = 0, stored = 0, raw = 0, crc = 0;
    if (!(header.get(magic) && header.get(kind) && header.get(stored) && header.get(raw) &&
          header.get(crc))) {
      cut_short = true;
      break;
    }
    if (magic != kMagic || raw >= kMaxRecordBytes) break;
    if (stored > data.size() - at - kHeaderBytes) {
      cut_short = true;
      break;
    }
    const std::string_view payload = std::string_view(data).substr(at + kHeaderBytes, stored);
    if (recordCrc(kind, stored, raw, payload) != crc) break;
    if (!have_info) {
      std::optional<JournalInfo> info =
          kind == kInfoRecord ? infoFromJson(payload) : std::optional<JournalInfo>();
      if (!info) throw ConfigError(path + ": not a morne self-play journal");
      out.info = std::move(info->info);
      version = info->version;
      have_info = true;
    } else {
      if (kind != kGameRecord) break;
      std::string unpacked(raw, '\0');
      uLongf unpacked_bytes = raw;
      if (uncompress(reinterpret_cast<Bytef*>(unpacked.data()), &unpacked_bytes,
                     reinterpret_cast<const Bytef*>(payload.data()),
                     static_cast<uLong>(payload.size())) != Z_OK ||
          unpacked_bytes != raw)
        break;
      std::optional<GameData> game = deserialize(unpacked, out.info.shape, version);
      if (!game) break;
      out.games.push_back(std::move(*game));
    }
    at += kHeaderBytes + stored;
  }
  if (!have_info && !headerCutShort(data))
    throw ConfigError(path + ": not a morne self-play journal (no intact header)");
  out.dropped_bytes = data.size() - at;
  out.dropped_at = at;
  out.has_info = have_info;
  out.cut_short = out.dropped_bytes > 0 && cut_short;
  return out;
}

}  // namespace morne::training

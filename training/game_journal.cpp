#include "training/game_journal.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "env/error.h"
#include "env/io/durable_file.h"

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

std::string serialize(const GameData& g) {
  Bytes b;
  b.put(g.id), b.put(g.seed), b.put(g.winner), b.put(g.vp_blue), b.put(g.vp_orange);
  b.put(g.level), b.put(g.end), b.put(g.plies), b.put(g.decisions), b.put(g.rows);
  b.put(g.planes), b.put(g.globals), b.put(g.policy), b.put(g.legal), b.put(g.value);
  b.put(g.move), b.put(g.phase), b.put(g.side);
  return std::move(b.out);
}

// The game in `raw`, or nullopt when its sizes do not fit `shape`.
std::optional<GameData> deserialize(std::string_view raw, const RowShape& shape) {
  Reader r(raw);
  GameData g;
  bool ok = r.get(g.id) && r.get(g.seed) && r.get(g.winner) && r.get(g.vp_blue) &&
            r.get(g.vp_orange) && r.get(g.level) && r.get(g.end) && r.get(g.plies) &&
            r.get(g.decisions) && r.get(g.rows);
  if (!ok || g.rows < 0) return std::nullopt;
  const auto n = static_cast<size_t>(g.rows);
  ok = r.get(g.planes, n * static_cast<size_t>(shape.planeSize())) &&
       r.get(g.globals, n * static_cast<size_t>(shape.globals)) &&
       r.get(g.policy, n * static_cast<size_t>(shape.policy)) &&
       r.get(g.legal, n * static_cast<size_t>(shape.policy)) && r.get(g.value, n) &&
       r.get(g.move, n) && r.get(g.phase, n) && r.get(g.side, n) && r.done();
  if (!ok) return std::nullopt;
  return g;
}

nlohmann::json infoJson(const ShardInfo& info) {
  const RowShape& s = info.shape;
  return {{"format", kShardFormat},
          {"format_version", kShardFormatVersion},
          {"scenario", info.scenario},
          {"blue_agent", info.blue_agent},
          {"orange_agent", info.orange_agent},
          {"config", info.config},
          {"engine", info.engine},
          {"encoder_version", info.encoder_version},
          {"shape", {s.planes, s.height, s.width, s.globals, s.policy}}};
}

std::optional<ShardInfo> infoFromJson(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  try {
    if (j.is_discarded() || j.at("format") != kShardFormat ||
        j.at("format_version") != kShardFormatVersion)
      return std::nullopt;
    ShardInfo info;
    info.scenario = j.at("scenario").get<std::string>();
    info.blue_agent = j.at("blue_agent").get<std::string>();
    info.orange_agent = j.at("orange_agent").get<std::string>();
    info.config = j.at("config").get<std::string>();
    info.engine = j.at("engine").get<std::string>();
    info.encoder_version = j.at("encoder_version").get<int>();
    const auto& s = j.at("shape");
    info.shape = {s.at(0).get<int>(), s.at(1).get<int>(), s.at(2).get<int>(), s.at(3).get<int>(),
                  s.at(4).get<int>()};
    const RowShape& r = info.shape;
    if (r.planes < 1 || r.height < 1 || r.width < 1 || r.globals < 0 || r.policy < 1 ||
        r.planes > 4096 || r.height > 4096 || r.width > 4096 || r.globals > 4096 ||
        r.policy > (1 << 26))
      return std::nullopt;
    return info;
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
  const std::string raw = serialize(game);
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
      std::optional<ShardInfo> info =
          kind == kInfoRecord ? infoFromJson(payload) : std::optional<ShardInfo>();
      if (!info) throw ConfigError(path + ": not a morne self-play journal");
      out.info = std::move(*info);
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
      std::optional<GameData> game = deserialize(unpacked, out.info.shape);
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

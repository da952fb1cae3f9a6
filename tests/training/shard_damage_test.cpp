// Damaged shards: the reader checks every length and size before it reads or allocates, and
// `checkShard` finds every break of the documented format. Each case was answered "ok", read
// out of bounds or allocated gigabytes before.

#include <H5Cpp.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>

#include "env/error.h"
#include "env/rng.h"
#include "nn/observation.h"
#include "tests/training/temp_dir.h"
#include "training/shard_check.h"
#include "training/shard_reader.h"
#include "training/shard_schema.h"
#include "training/shard_writer.h"
#include "training/training_data.h"

namespace morne::training {
namespace {

const RowShape kDamageShape{3, 2, 4, 5, 11};

// A game that keeps every promise of the format.
GameData validGame(uint64_t id, int rows, env::Rng& rng) {
  GameData g;
  g.id = id;
  g.seed = rng.next();
  g.winner = static_cast<int8_t>(static_cast<int>(rng.below(3)) - 1);
  g.level = static_cast<int8_t>(g.winner < 0 ? 0 : 1 + static_cast<int>(rng.below(4)));
  g.vp_blue = static_cast<int16_t>(rng.below(20));
  g.vp_orange = static_cast<int16_t>(rng.below(20));
  g.decisions = rows + 3;
  g.plies = 2 * g.decisions;
  g.rows = rows;
  for (int r = 0; r < rows; ++r) {
    for (int i = 0; i < kDamageShape.planeSize(); ++i)
      g.planes.push_back(static_cast<float>(rng.uniform()));
    for (int i = 0; i < kDamageShape.globals; ++i)
      g.globals.push_back(static_cast<float>(rng.uniform() - 0.5));
    const int legal = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(kDamageShape.policy)));
    for (int i = 0; i < kDamageShape.policy; ++i) {
      g.legal.push_back(i < legal ? 1 : 0);
      g.policy.push_back(i < legal ? 1.0f / static_cast<float>(legal) : 0.0f);
    }
    const uint8_t side = static_cast<uint8_t>(rng.below(2));
    g.side.push_back(side);
    g.value.push_back(g.winner < 0 ? 0.0f : g.winner == side ? 1.0f : -1.0f);
    g.move.push_back(2 * r);
    g.phase.push_back(static_cast<uint8_t>(rng.below(5)));
    const float mine = side == 0 ? 1.0f : -1.0f;
    g.margin.push_back(mine * static_cast<float>(g.vp_blue - g.vp_orange));
    for (int i = 0; i < kDamageShape.area(); ++i)
      g.control.push_back(static_cast<float>(static_cast<int>(rng.below(3)) - 1));
    for (size_t h = 0; h < kShortValueHorizons.size(); ++h)
      g.short_value.push_back(static_cast<float>(rng.uniform() * 2 - 1));
  }
  return g;
}

class ShardDamageTest : public test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    ShardInfo info;
    info.scenario = "test-map";
    info.blue_agent = info.orange_agent = "rule";
    info.config = "{}";
    info.engine = "morne test";
    info.encoder_version = nn::kEncoderVersion;
    info.shape = kDamageShape;
    env::Rng rng(5);
    ShardWriter writer(dir_.string(), "good", info, 1000);
    for (uint64_t id = 0; id < 4; ++id) writer.write(validGame(id, 3, rng));
    writer.close();
    good_ = writer.shards().at(0);
  }

  // A copy of the good shard, changed by `edit` through HDF5.
  template <typename Edit>
  std::string damaged(const std::string& name, Edit edit) {
    const std::string path = (dir_ / name).string();
    std::filesystem::copy_file(good_, path);
    H5::H5File file(path, H5F_ACC_RDWR);
    edit(file);
    file.close();
    return path;
  }

  static void resize(H5::H5File& f, const char* name, hsize_t rows) {
    H5::DataSet set = f.openDataSet(name);
    std::vector<hsize_t> dims(static_cast<size_t>(set.getSpace().getSimpleExtentNdims()));
    set.getSpace().getSimpleExtentDims(dims.data());
    dims[0] = rows;
    ASSERT_GE(H5Dset_extent(set.getId(), dims.data()), 0);
  }

  // Writes `value` at element `index` of a dataset of one value per row.
  template <typename T>
  static void poke(H5::H5File& f, const char* name, hsize_t index, T value,
                   const H5::PredType& type) {
    H5::DataSet set = f.openDataSet(name);
    H5::DataSpace space = set.getSpace();
    const int rank = space.getSimpleExtentNdims();
    std::vector<hsize_t> start(static_cast<size_t>(rank), 0), count(static_cast<size_t>(rank), 1);
    start[0] = index;
    space.selectHyperslab(H5S_SELECT_SET, count.data(), start.data());
    H5::DataSpace one(1, std::vector<hsize_t>{1}.data());
    set.write(&value, type, one, space);
  }

  static std::string readError(const std::string& path) {
    try {
      readShard(path, true);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }

  static std::string firstProblem(const std::string& path) {
    const ShardCheck r = checkShard(readShard(path, true));
    return r.problems.empty() ? "" : r.problems.front();
  }

  std::string good_;
};

// A version 1 shard (before search values) is read: its values stand in for them, whole and by
// rows; a search value outside [-1, 1] is a problem `data inspect --check` reports.
// Shards of older versions lack the datasets added since: search values stand in as the
// values, the auxiliary targets as unknown (NaN), in whole games and in rows for the learner;
// before version 4 the handicap reads as none.
TEST_F(ShardDamageTest, OlderShardsAreReadWithTheirStandIns) {
  for (const int version : {1, 2, 3, 4}) {
    const std::string old = damaged("v" + std::to_string(version) + ".h5", [&](H5::H5File& f) {
      for (const ShardDataset& d : shardDatasets())
        if (d.since > version) f.unlink(std::string(d.group) + "/" + d.name);
      f.openAttribute("format_version").write(H5::PredType::NATIVE_INT, &version);
    });
    const ShardContents c = readShard(old, true);
    EXPECT_EQ(c.format_version, version);
    for (const GameData& g : c.games) {
      if (version == 1) {
        EXPECT_EQ(g.search_value, g.value);
      }
      ASSERT_EQ(g.control.size(), static_cast<size_t>(g.rows * kDamageShape.area()));
      ASSERT_EQ(g.short_value.size(), static_cast<size_t>(g.rows) * kShortValueHorizons.size());
      ASSERT_EQ(g.margin.size(), static_cast<size_t>(g.rows));
      ASSERT_EQ(g.teacher_value.size(), static_cast<size_t>(g.rows));
      for (float t : g.teacher_value) EXPECT_TRUE(std::isnan(t));
      if (version < 4) {
        EXPECT_EQ(g.handicap_half, 0);
      }
      if (version >= 3) continue;
      for (float m : g.margin) EXPECT_TRUE(std::isnan(m));
      for (float x : g.control) EXPECT_TRUE(std::isnan(x));
    }
    EXPECT_EQ(checkShard(c).problem_count, 0);
    nn::TrainingBatch rows, today;
    readShardRows(good_, 2, 5, kDamageShape, today);
    for (float m : today.margin) EXPECT_FALSE(std::isnan(m));
    readShardRows(old, 2, 5, kDamageShape, rows);
    if (version == 1) {
      EXPECT_EQ(rows.search_value, rows.value);
    }
    EXPECT_EQ(rows.size, 5);
    ASSERT_EQ(rows.short_value.size(), 5 * kShortValueHorizons.size());
    for (float v : rows.short_value) EXPECT_EQ(std::isnan(v), version < 3);
  }
  const std::string bad = damaged("sv.h5", [](H5::H5File& f) {
    poke(f, "positions/search_value", 4, 1.5f, H5::PredType::NATIVE_FLOAT);
  });
  EXPECT_NE(firstProblem(bad).find("search value 1.5"), std::string::npos) << firstProblem(bad);
  const std::string teacher = damaged("tv.h5", [](H5::H5File& f) {
    poke(f, "positions/teacher_value", 4, -1.25f, H5::PredType::NATIVE_FLOAT);
  });
  EXPECT_NE(firstProblem(teacher).find("teacher value -1.25"), std::string::npos)
      << firstProblem(teacher);
  const std::string future = damaged("v6.h5", [](H5::H5File& f) {
    const int six = 6;
    f.openAttribute("format_version").write(H5::PredType::NATIVE_INT, &six);
  });
  EXPECT_NE(readError(future).find("reads versions 1 to 5"), std::string::npos)
      << readError(future);
}

TEST_F(ShardDamageTest, TheGoodShardPassesEveryCheck) {
  const ShardCheck r = checkShard(readShard(good_, true));
  EXPECT_EQ(r.problem_count, 0) << r.problems.front();
}

// positions/value one row short was read past its end (a heap-buffer-overflow under ASan).
TEST_F(ShardDamageTest, DatasetsOfTheWrongLengthAreRefused) {
  const std::string short_value =
      damaged("short-value.h5", [](H5::H5File& f) { resize(f, "positions/value", 11); });
  EXPECT_NE(
      readError(short_value).find("positions/value has 11 rows where positions/planes has 12"),
      std::string::npos)
      << readError(short_value);
  const std::string short_seed =
      damaged("short-seed.h5", [](H5::H5File& f) { resize(f, "games/seed", 3); });
  EXPECT_NE(readError(short_seed).find("games/seed has 3 rows where games/id has 4"),
            std::string::npos)
      << readError(short_seed);
}

// A 100 KB shard that declared 10^9 rows was an internal error: std::bad_alloc.
TEST_F(ShardDamageTest, SizesAreCheckedBeforeAllocating) {
  const std::string huge = damaged("huge.h5", [](H5::H5File& f) {
    for (const ShardDataset& d : shardDatasets()) {
      if (d.group == std::string(kPositionsGroup))
        resize(f, (std::string(d.group) + "/" + d.name).c_str(), 1'000'000'000);
    }
  });
  EXPECT_LT(std::filesystem::file_size(huge), 1'000'000u);
  EXPECT_NE(readError(huge).find("more than a file of"), std::string::npos) << readError(huge);
}

// Each of these was answered "ok" by data inspect --check.
TEST_F(ShardDamageTest, CheckFindsEveryBreakOfTheFormat) {
  struct Case {
    const char* name;
    std::function<void(H5::H5File&)> edit;
    const char* problem;
  };
  const float nan = std::nanf("");
  const std::vector<Case> cases = {
      {"nan-global",
       [&](H5::H5File& f) { poke(f, "positions/globals", 2, nan, H5::PredType::NATIVE_FLOAT); },
       "game 0 row 2: a global value is not finite"},
      {"inf-global",
       [](H5::H5File& f) {
         poke(f, "positions/globals", 0, std::numeric_limits<float>::infinity(),
              H5::PredType::NATIVE_FLOAT);
       },
       "game 0 row 0: a global value is not finite"},
      {"plane-range",
       [](H5::H5File& f) { poke(f, "positions/planes", 4, 1.5f, H5::PredType::NATIVE_FLOAT); },
       "game 1 row 1: a plane value 1.500000 outside [-1, 1]"},
      {"phase",
       [](H5::H5File& f) { poke(f, "positions/phase", 5, uint8_t{9}, H5::PredType::NATIVE_UINT8); },
       "game 1 row 2: phase 9"},
      {"move",
       [](H5::H5File& f) { poke(f, "positions/move", 0, int32_t{-4}, H5::PredType::NATIVE_INT32); },
       "game 0 row 0: move number -4"},
      {"level",
       [](H5::H5File& f) { poke(f, "games/level", 3, int8_t{7}, H5::PredType::NATIVE_INT8); },
       "game 3: victory level 7"},
      {"count",
       [](H5::H5File& f) { poke(f, "games/positions", 2, int32_t{5}, H5::PredType::NATIVE_INT32); },
       "game 2: games/positions says 5 rows, the shard has 3"},
      {"margin",
       [](H5::H5File& f) { poke(f, "positions/margin", 4, 1000.0f, H5::PredType::NATIVE_FLOAT); },
       "game 1 row 1: margin 1000.000000 does not match the victory points"},
      {"control",
       [](H5::H5File& f) { poke(f, "positions/control", 5, 0.5f, H5::PredType::NATIVE_FLOAT); },
       "game 1 row 2: control 0.500000 is not -1, 0 or 1"},
      {"short-value",
       [](H5::H5File& f) { poke(f, "positions/short_value", 2, 1.5f, H5::PredType::NATIVE_FLOAT); },
       "game 0 row 2: short-term value 1.500000 outside [-1, 1]"},
      {"encoder",
       [](H5::H5File& f) {
         int v = 99;
         f.openAttribute("encoder_version").write(H5::PredType::NATIVE_INT, &v);
       },
       "attributes: encoder version 99"},
  };
  for (const Case& c : cases) {
    const std::string path = damaged(std::string(c.name) + ".h5", c.edit);
    EXPECT_NE(firstProblem(path).find(c.problem), std::string::npos)
        << c.name << ": " << firstProblem(path);
  }
}

TEST_F(ShardDamageTest, HdfErrorsSayWhy) {
  const std::string path = (dir_ / "cut.h5").string();
  std::filesystem::copy_file(good_, path);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  const std::string error = readError(path);
  EXPECT_NE(error.find("cannot read the shard: "), std::string::npos) << error;
  EXPECT_EQ(error.find("H5Fopen failed)"), std::string::npos) << "more than the failed call";
}

// Bytes of stored rows damaged where no sample of the learner may ever reach (the tables the
// index reads intact) are refused when the shard joins an index, with the file's name.
TEST_F(ShardDamageTest, DamagedRowsAreRefusedWhenTheShardIsIndexed) {
  const std::string folder = (dir_ / "indexed").string();
  std::filesystem::create_directories(folder);
  const std::string path = folder + "/rows.h5";
  std::filesystem::copy_file(good_, path);
  haddr_t address = 0;
  hsize_t size = 0;
  {
    H5::H5File file(path, H5F_ACC_RDONLY);
    const H5::DataSet planes = file.openDataSet("positions/planes");
    hsize_t offset[4] = {};
    unsigned filters = 0;
    const H5::DataSpace space = planes.getSpace();
    ASSERT_GE(
        H5Dget_chunk_info(planes.getId(), space.getId(), 0, offset, &filters, &address, &size), 0);
  }
  ASSERT_GT(size, 8u);
  {
    std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(address + size / 2));
    const std::string zeros(4, '\0');
    out.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  EXPECT_EQ(readShard(path, false).rows, 12);  // the tables the index reads are intact
  try {
    indexShards({folder}, 0);
    FAIL() << "a shard with damaged rows was indexed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

// Bytes damaged anywhere in a shard (its superblock, object headers, B-trees, heaps, chunk
// index and compressed rows), as a file whose outer CRC-32 was computed after the damage: the
// reader every in-process user goes through (the learner, `morne train`, `loop serve`,
// morne.read_shards) gives a summary or morne's error naming the file, and this process lives.
// Some of these files crash libhdf5 itself (SIGSEGV): they are read in a child process.
TEST_F(ShardDamageTest, DamagedBytesAnywhereNeverCrashAReader) {
  std::ifstream in(good_, std::ios::binary);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<size_t> offsets;
  for (size_t at = 0; at < std::min<size_t>(good.size(), 4096); at += 16) offsets.push_back(at);
  for (size_t at = 4096; at < good.size(); at += std::max<size_t>(1, good.size() / 100))
    offsets.push_back(at);
  std::vector<std::string> paths;
  for (const size_t at : offsets) {
    std::string bytes = good;
    for (size_t k = at; k < std::min(bytes.size(), at + 4); ++k)
      bytes[k] = static_cast<char>(~bytes[k]);
    paths.push_back((dir_ / ("flip-" + std::to_string(at) + ".h5")).string());
    std::ofstream(paths.back(), std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  // Read together, as the learner reads a data set's new shards: a child that crashes or
  // hangs on one leaves it to of() and the next child goes on with the rest.
  ShardSummaries summaries(1);  // a good read of this shard takes milliseconds
  summaries.prefetch(paths);
  int summarised = 0, refused = 0, crashed = 0, stuck = 0;
  for (const std::string& path : paths) {
    try {
      summaries.of(path);
      ++summarised;
    } catch (const Error& e) {
      ++refused;
      const std::string message = e.what();
      EXPECT_NE(message.find(path), std::string::npos) << message;
      crashed += message.find("crashed") != std::string::npos;
      stuck += message.find("still reading") != std::string::npos;
    }
  }
  std::cout << offsets.size() << " damaged copies: " << summarised << " read, " << refused
            << " refused (" << crashed << " of them crashed libhdf5 in the reading process, "
            << stuck << " kept it reading past the limit)\n";
  EXPECT_GT(refused, 0);
  EXPECT_GT(summarised, 0);  // damage in bytes HDF5 does not read (padding, free space)
}

}  // namespace
}  // namespace morne::training

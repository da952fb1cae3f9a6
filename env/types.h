#pragma once
// The rule vocabulary shared by every part of the engine: terrain, hexside features, unit types,
// sides and phases, with the names used in scenario files, the protocol and the logs.

#include <cstdint>
#include <optional>
#include <string_view>

namespace morne::env {

// Base terrain of a hex (M-TER-1). The last three belong to the Pyramids extension.
enum class Terrain : uint8_t {
  kClear,
  kRough,
  kCoppice,
  kOrchard,
  kWoods,
  kVillage,
  kHamlet,
  kMarsh,
  kPalmGrove,
  kDune,
  kFort,
};
inline constexpr int kNumTerrains = 11;

// Watercourse on a hexside (M-SIDE-1).
enum class Water : uint8_t { kNone, kStream, kRiver, kMajorRiver };

// Crossing over a watercourse (M-SIDE-1..3).
enum class Crossing : uint8_t { kNone, kBridge, kFord };

// Unit types (U-TYPE-1).
enum class UnitType : uint8_t {
  kInfantry,
  kLightInfantry,
  kCavalry,
  kFootArtillery,
  kHorseArtillery,
  kGeneral,
  kDromedary,
};
inline constexpr int kNumUnitTypes = 7;

// Columns of the movement cost table (MV-COST-1) and of the marsh test (MV-MARSH-1).
enum class MoveClass : uint8_t { kInfantry, kCavalry, kGeneral, kArtillery, kDromedary };
inline constexpr int kNumMoveClasses = 5;

// Sides: 0 is the first player ("blue"), 1 the second ("orange") (G-SIDE-1).
inline constexpr int kNumSides = 2;
inline constexpr int kNoSide = -1;
constexpr int otherSide(int side) { return 1 - side; }

// Phases of a player-turn that involve decisions or resolution (G-TURN-2). The command check
// and the rally phase are resolved automatically at the start and end of a player-turn.
// kRally is only entered when a variant module rolls dice in the rally step (docs/variants.md);
// it comes last so that the Morne Plaine phases keep their numbers.
enum class Phase : uint8_t { kSetup, kBombardment, kMovement, kCombat, kGameOver, kRally };
inline constexpr int kNumPhases = 6;

// Troop quality of the graded morale model (seed 002, V-MOR-5), best first.
enum class Quality : uint8_t {
  kGuard,
  kElite,
  kVeteran,
  kRegular,
  kSemiRegular,
  kMilitia,
  kIrregular,
};
inline constexpr int kNumQualities = 7;

// A side's own map edge, towards which its routs run (V-ROUT-3).
enum class MapEdge : uint8_t { kNorth, kSouth, kWest, kEast };

// --- predicates (U-TYPE-4) ---

constexpr bool isInfantry(UnitType t) {
  return t == UnitType::kInfantry || t == UnitType::kLightInfantry || t == UnitType::kDromedary;
}
constexpr bool isArtillery(UnitType t) {
  return t == UnitType::kFootArtillery || t == UnitType::kHorseArtillery;
}
constexpr bool isMounted(UnitType t) { return t == UnitType::kCavalry || t == UnitType::kGeneral; }
constexpr bool isGeneral(UnitType t) { return t == UnitType::kGeneral; }

// Terrain types that block line of sight (F-LOS-1).
constexpr bool isLosObstacle(Terrain t) {
  return t == Terrain::kWoods || t == Terrain::kVillage || t == Terrain::kFort ||
         t == Terrain::kPalmGrove || t == Terrain::kDune;
}

// --- names ---

// Scenario-file name of a terrain ("clear", "palm_grove", ...).
std::string_view terrainName(Terrain t);
// One-character map code of a terrain (see docs/scenario-format.md).
char terrainCode(Terrain t);
std::optional<Terrain> parseTerrainName(std::string_view name);
std::optional<Terrain> parseTerrainCode(char code);

std::string_view waterName(Water w);
std::optional<Water> parseWaterName(std::string_view name);
std::string_view crossingName(Crossing c);
std::optional<Crossing> parseCrossingName(std::string_view name);

std::string_view unitTypeName(UnitType t);
std::optional<UnitType> parseUnitTypeName(std::string_view name);
// Single lower-case letter used on ASCII maps (i, l, c, a, h, g, d).
char unitTypeLetter(UnitType t);

std::string_view moveClassName(MoveClass m);

// "blue" or "orange". Precondition: side is 0 or 1.
std::string_view sideColor(int side);
std::optional<int> parseSideColor(std::string_view name);

std::string_view qualityName(Quality q);
std::optional<Quality> parseQualityName(std::string_view name);

std::string_view mapEdgeName(MapEdge e);
std::optional<MapEdge> parseMapEdgeName(std::string_view name);

std::string_view phaseName(Phase p);
std::optional<Phase> parsePhaseName(std::string_view name);

}  // namespace morne::env

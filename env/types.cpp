#include "env/types.h"

#include <array>

namespace morne::env {

namespace {

template <typename Enum, size_t N>
std::optional<Enum> findName(const std::array<std::string_view, N>& names, std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

constexpr std::array<std::string_view, kNumTerrains> kTerrainNames = {
    "clear",  "rough", "coppice",    "orchard", "woods", "village",
    "hamlet", "marsh", "palm_grove", "dune",    "fort"};
constexpr std::array<char, kNumTerrains> kTerrainCodes = {'.', 'r', 'c', 'o', 'w', 'v',
                                                          'h', 'm', 'p', 'd', 'f'};
constexpr std::array<std::string_view, 4> kWaterNames = {"none", "stream", "river", "major_river"};
constexpr std::array<std::string_view, 3> kCrossingNames = {"none", "bridge", "ford"};
constexpr std::array<std::string_view, kNumUnitTypes> kUnitTypeNames = {
    "infantry",        "light_infantry", "cavalry",  "foot_artillery",
    "horse_artillery", "general",        "dromedary"};
constexpr std::array<char, kNumUnitTypes> kUnitTypeLetters = {'i', 'l', 'c', 'a', 'h', 'g', 'd'};
constexpr std::array<std::string_view, kNumMoveClasses> kMoveClassNames = {
    "infantry", "cavalry", "general", "artillery", "dromedary"};
constexpr std::array<std::string_view, kNumSides> kSideColors = {"blue", "orange"};
constexpr std::array<std::string_view, kNumPhases> kPhaseNames = {
    "setup", "bombardment", "movement", "combat", "game_over", "rally"};
constexpr std::array<std::string_view, kNumQualities> kQualityNames = {
    "guard", "elite", "veteran", "regular", "semi_regular", "militia", "irregular"};
constexpr std::array<std::string_view, 4> kMapEdgeNames = {"north", "south", "west", "east"};

}  // namespace

std::string_view terrainName(Terrain t) { return kTerrainNames[static_cast<size_t>(t)]; }
char terrainCode(Terrain t) { return kTerrainCodes[static_cast<size_t>(t)]; }
std::optional<Terrain> parseTerrainName(std::string_view name) {
  return findName<Terrain>(kTerrainNames, name);
}
std::optional<Terrain> parseTerrainCode(char code) {
  for (size_t i = 0; i < kTerrainCodes.size(); ++i) {
    if (kTerrainCodes[i] == code) return static_cast<Terrain>(i);
  }
  return std::nullopt;
}

std::string_view waterName(Water w) { return kWaterNames[static_cast<size_t>(w)]; }
std::optional<Water> parseWaterName(std::string_view name) {
  return findName<Water>(kWaterNames, name);
}
std::string_view crossingName(Crossing c) { return kCrossingNames[static_cast<size_t>(c)]; }
std::optional<Crossing> parseCrossingName(std::string_view name) {
  return findName<Crossing>(kCrossingNames, name);
}

std::string_view unitTypeName(UnitType t) { return kUnitTypeNames[static_cast<size_t>(t)]; }
std::optional<UnitType> parseUnitTypeName(std::string_view name) {
  return findName<UnitType>(kUnitTypeNames, name);
}
char unitTypeLetter(UnitType t) { return kUnitTypeLetters[static_cast<size_t>(t)]; }

std::string_view moveClassName(MoveClass m) { return kMoveClassNames[static_cast<size_t>(m)]; }

std::string_view sideColor(int side) { return kSideColors[static_cast<size_t>(side)]; }
std::optional<int> parseSideColor(std::string_view name) {
  for (int s = 0; s < kNumSides; ++s) {
    if (kSideColors[static_cast<size_t>(s)] == name) return s;
  }
  return std::nullopt;
}

std::string_view qualityName(Quality q) { return kQualityNames[static_cast<size_t>(q)]; }
std::optional<Quality> parseQualityName(std::string_view name) {
  return findName<Quality>(kQualityNames, name);
}

std::string_view mapEdgeName(MapEdge e) { return kMapEdgeNames[static_cast<size_t>(e)]; }
std::optional<MapEdge> parseMapEdgeName(std::string_view name) {
  return findName<MapEdge>(kMapEdgeNames, name);
}

std::string_view phaseName(Phase p) { return kPhaseNames[static_cast<size_t>(p)]; }
std::optional<Phase> parsePhaseName(std::string_view name) {
  return findName<Phase>(kPhaseNames, name);
}

}  // namespace morne::env

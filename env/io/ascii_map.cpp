#include "env/io/ascii_map.h"

#include <sstream>

#include "env/victory.h"

namespace morne::env {

namespace {

std::string hexCell(const GameState& s, CellId c) {
  const Scenario& sc = s.sc();
  std::string cell(4, ' ');
  cell[0] = terrainCode(sc.terrain(c));
  const int level = sc.level(c);
  cell[1] = level < 0 ? '-' : static_cast<char>('0' + (level > 9 ? 9 : level));
  if (const int u = s.unitAt(c); u >= 0) {
    const char letter = unitTypeLetter(s.typeOf(u));
    cell[2] = s.sideOf(u) == 0 ? static_cast<char>(letter - 'a' + 'A') : letter;
    const int vc = s.unit(u).vc;
    cell[3] = vc > 9 ? '+' : static_cast<char>('0' + vc);
  }
  return cell;
}

// What the symbols of the map mean: the cell format, then the terrain codes and unit letters
// that appear on this map, from the same tables the scenario loader reads.
void key(const GameState& s, std::ostringstream& out) {
  const Scenario& sc = s.sc();
  out << "key: each hex is \"tlUV\": t terrain, l level (- below 0), U unit type (upper case "
         "blue, lower case orange), V its VC; * before a hex: objective, =: road\n";
  bool terrain_used[kNumTerrains] = {};
  for (CellId c = 0; c < sc.numCells(); ++c) terrain_used[static_cast<int>(sc.terrain(c))] = true;
  out << "terrain:";
  for (int t = 0; t < kNumTerrains; ++t) {
    if (terrain_used[t])
      out << " " << terrainCode(static_cast<Terrain>(t)) << " "
          << terrainName(static_cast<Terrain>(t));
  }
  bool type_used[kNumUnitTypes] = {};
  for (int u = 0; u < s.num_units; ++u) type_used[static_cast<int>(s.typeOf(u))] = true;
  out << "\nunits:";
  for (int t = 0; t < kNumUnitTypes; ++t) {
    if (type_used[t]) {
      const char letter = unitTypeLetter(static_cast<UnitType>(t));
      out << " " << static_cast<char>(letter - 'a' + 'A') << "/" << letter << " "
          << unitTypeName(static_cast<UnitType>(t));
    }
  }
  out << "\n";
}

void legend(const GameState& s, std::ostringstream& out) {
  const Scenario& sc = s.sc();
  key(s, out);
  std::string water[4];
  std::string crossings;
  std::string tracks;
  for (CellId c = 0; c < sc.numCells(); ++c) {
    for (int d = 0; d < 3; ++d) {  // E, NE, NW: each hexside once
      const Hexside& h = sc.side(c, d);
      if (h.neighbor == kNoCell) continue;
      const std::string name = sc.label(c) + "-" + sc.label(h.neighbor);
      if (h.water != Water::kNone) water[static_cast<int>(h.water)] += " " + name;
      if (h.crossing != Crossing::kNone) {
        crossings += " " + std::string(crossingName(h.crossing)) + " " + name;
      }
      if (h.track) tracks += " " + name;
    }
  }
  for (int w = 1; w < 4; ++w) {
    if (!water[w].empty()) out << waterName(static_cast<Water>(w)) << ":" << water[w] << "\n";
  }
  if (!crossings.empty()) out << "crossings:" << crossings << "\n";
  if (!tracks.empty()) out << "tracks:" << tracks << "\n";
  for (const Objective& o : sc.objectives()) {
    out << "objective " << sc.label(o.cell) << (o.passing ? " passing" : " occupied") << " VP blue "
        << o.vp[0] << " orange " << o.vp[1] << "\n";
  }
  if (sc.balance().half_vp > 0) {
    out << "handicap " << halfVpText(sc.balance().half_vp) << " VP to "
        << sideColor(sc.balance().side) << "\n";
  }
  for (int u = 0; u < s.num_units; ++u) {
    const UnitInfo& info = sc.unit(u);
    const UnitState& us = s.unit(u);
    out << (info.side == 0 ? "blue   " : "orange ") << info.id << " "
        << (us.cell == kNoCell ? "----" : sc.label(us.cell)) << " " << unitTypeName(info.type)
        << " VC " << int{us.vc};
    if (!isGeneral(info.type)) out << " MO " << int{us.mo};
    out << " MA " << info.ma;
    if (isArtillery(info.type)) out << " VT " << info.vt << " range " << info.range;
    if (isGeneral(info.type)) out << " radius " << info.radius;
    if (info.corps >= 0) out << " corps " << sc.corps()[static_cast<size_t>(info.corps)].id;
    if (us.flags & unit_flag::kEliminated) out << " (eliminated)";
    if (us.flags & unit_flag::kAwaitingSetup) out << " (to place)";
    out << "  " << info.name << "\n";
  }
}

}  // namespace

std::string renderMap(const GameState& s) {
  const Scenario& sc = s.sc();
  std::ostringstream out;
  out << "     ";
  for (int col = 0; col < sc.width(); ++col) {
    const std::string label = offsetLabel(col, 0).substr(0, 2);
    out << " " << label << "   ";
  }
  out << "\n";
  for (int row = 0; row < sc.height(); ++row) {
    const bool shifted = (row % 2 == 1) == (sc.layout() == OffsetLayout::kOddR);
    out << " " << offsetLabel(0, row).substr(2, 2) << "  " << (shifted ? "   " : "");
    for (int col = 0; col < sc.width(); ++col) {
      const CellId c = sc.cellOfLabel(offsetLabel(col, row));
      if (c == kNoCell) {
        out << "      ";
        continue;
      }
      const char mark = sc.objectiveIndex(c) >= 0 ? '*' : (sc.isRoadHex(c) ? '=' : ' ');
      out << mark << hexCell(s, c) << " ";
    }
    out << "\n";
  }
  legend(s, out);
  return out.str();
}

}  // namespace morne::env

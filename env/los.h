#pragma once
// Line of sight between hex centres (F-LOS-*, Appendix A of the rules specification), computed
// in exact integer arithmetic: hex centres are (3q, 3r) and the six corners are centre +
// (2,-1),(1,1),(-1,2),(-2,1),(-1,-1),(1,-2), so every incidence test is an integer cross product
// and every parameter along the segment a fraction (F-LOS-9).
//
// Units never block (F-GEN-5), so line of sight is a property of the map: Scenario precomputes
// it for every pair of hexes within the longest artillery range (one bit per pair) and answers
// in O(1) (Scenario::visible). lineOfSight() here is the direct computation, for any distance.

#include <vector>

#include "env/hex.h"

namespace morne::env {

// How the open segment between two hex centres meets a third hex (F-LOS-3).
enum class LosContact : uint8_t {
  kNone,     // no contact
  kTouched,  // a single corner only: never counts (F-LOS-5)
  kEdge,     // runs along one of its sides over a positive length (F-LOS-6)
  kCrossed,  // passes through its interior (F-LOS-4)
};

// Classifies hex h against the open segment from the centre of s to the centre of t.
LosContact classifyHex(Hex s, Hex t, Hex h);

// Terrain facts line of sight needs about one hex.
struct LosTerrain {
  bool exists = false;  // false: off the map (never blocks)
  int level = 0;
  bool obstacle = false;  // woods, village, fort, palm grove, dune (F-LOS-1)
};

// Whether hex h, met by the segment s->t, blocks it (F-LOS-7): H(h) = level + obstacle height
// (for obstacles) must exceed the height of the line of sight above h's centre's projection.
bool blocksSight(Hex s, Hex t, Hex h, int level_s, int level_t, const LosTerrain& th,
                 int obstacle_height);

// Detail of one line of sight, for the protocol's "los" preview.
struct LosResult {
  bool visible = true;
  std::vector<Hex> blocking;  // crossed blockers, and edge blockers when both sides have one
};

// The line of sight from s to t (F-LOS-2..8). `terrain(h)` gives a hex's LosTerrain.
template <typename TerrainFn>
LosResult lineOfSight(Hex s, Hex t, TerrainFn terrain, int obstacle_height) {
  LosResult r;
  const int d = hexDistance(s, t);
  const LosTerrain ts = terrain(s);
  const LosTerrain tt = terrain(t);
  std::vector<Hex> left;
  std::vector<Hex> right;
  for (int dq = -d; dq <= d; ++dq) {
    for (int dr = -d; dr <= d; ++dr) {
      const Hex h{s.q + dq, s.r + dr};
      if (h == s || h == t || hexDistance(h, s) > d || hexDistance(h, t) > d) continue;
      const LosContact c = classifyHex(s, t, h);
      if (c != LosContact::kCrossed && c != LosContact::kEdge) continue;
      const LosTerrain th = terrain(h);
      if (!th.exists || !blocksSight(s, t, h, ts.level, tt.level, th, obstacle_height)) continue;
      if (c == LosContact::kCrossed) {
        r.blocking.push_back(h);
        continue;
      }
      // Which side of the segment the edge-run hex lies on (F-LOS-6).
      const Hex seg = t - s;
      const Hex off = h - s;
      (seg.q * off.r - seg.r * off.q > 0 ? left : right).push_back(h);
    }
  }
  if (!left.empty() && !right.empty()) {
    r.blocking.insert(r.blocking.end(), left.begin(), left.end());
    r.blocking.insert(r.blocking.end(), right.begin(), right.end());
  }
  r.visible = r.blocking.empty();
  return r;
}

}  // namespace morne::env

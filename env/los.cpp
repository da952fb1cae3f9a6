#include "env/los.h"

#include <array>

namespace morne::env {

namespace {

// Corners of a hex relative to its scaled centre, counter-clockwise (Appendix A, VOFF).
constexpr std::array<Hex, 6> kCorners = {{{2, -1}, {1, 1}, {-1, 2}, {-2, 1}, {-1, -1}, {1, -2}}};

constexpr long long cross(Hex a, Hex b) {
  return static_cast<long long>(a.q) * b.r - static_cast<long long>(a.r) * b.q;
}

// An exact fraction num/den with den > 0.
struct Fraction {
  long long num;
  long long den;
};
bool less(Fraction a, Fraction b) { return a.num * b.den < b.num * a.den; }
bool equal(Fraction a, Fraction b) { return a.num * b.den == b.num * a.den; }
Fraction ratio(long long num, long long den) {
  return den < 0 ? Fraction{-num, -den} : Fraction{num, den};
}

}  // namespace

LosContact classifyHex(Hex s, Hex t, Hex h) {
  const Hex p0{3 * s.q, 3 * s.r};
  const Hex d{3 * (t.q - s.q), 3 * (t.r - s.r)};
  const Hex c{3 * h.q, 3 * h.r};
  // The part of the segment inside the hex is the parameter interval [lo, hi] within (0, 1);
  // each side of the hexagon cuts the line into an inside and an outside half.
  Fraction lo{0, 1};
  Fraction hi{1, 1};
  bool on_edge = false;
  for (size_t k = 0; k < kCorners.size(); ++k) {
    const Hex a = c + kCorners[k];
    const Hex b = c + kCorners[(k + 1) % kCorners.size()];
    const Hex e = b - a;
    const long long A = cross(e, p0 - a);  // inside <=> A + t*B >= 0
    const long long B = cross(e, d);
    if (B == 0) {
      if (A < 0) return LosContact::kNone;  // parallel and outside this side
      if (A == 0) on_edge = true;           // runs along this side's line
    } else if (B > 0) {
      const Fraction f = ratio(-A, B);
      if (less(lo, f)) lo = f;
    } else {
      const Fraction f = ratio(-A, B);
      if (less(f, hi)) hi = f;
    }
  }
  if (less(lo, hi)) return on_edge ? LosContact::kEdge : LosContact::kCrossed;
  if (equal(lo, hi)) return LosContact::kTouched;
  return LosContact::kNone;
}

bool blocksSight(Hex s, Hex t, Hex h, int level_s, int level_t, const LosTerrain& th,
                 int obstacle_height) {
  const int height = th.level + (th.obstacle ? obstacle_height : 0);
  // tp = G(h - s, t - s) / G(t - s, t - s), clamped to [0, 1] (F-LOS-7).
  const long long den = hexMetric(t - s, t - s);
  long long num = hexMetric(h - s, t - s);
  if (num < 0) num = 0;
  if (num > den) num = den;
  // height > level_s + tp * (level_t - level_s), multiplied through by den > 0.
  return height * den > level_s * den + num * (level_t - level_s);
}

}  // namespace morne::env

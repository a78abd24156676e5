// Images the repo generates itself: the demos' default pictures and test inputs, made in code so
// that nothing large is committed. Each is a small scene (not noise) built from gradients, value
// noise, sums of sines and a 5x7 font, in normalised coordinates so that any size shows the same
// picture. Deterministic: one hand-written hash (splitmix64's mixer) instead of std:: random
// distributions, whose output differs between standard libraries.
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/random.h"
#include "image/image.h"

namespace gpulab::image {

namespace {

// ---------------------------------------------------------------------------------------------
// Noise and small helpers.

// A uniform value in [0, 1) for a lattice point.
double hash01(int64_t x, int64_t y, uint64_t seed) {
  const uint64_t h = mix64(seed ^ mix64(uint64_t(x) ^ mix64(uint64_t(y) + 0x5851F42D4C957F2Dull)));
  return double(h >> 11) * 0x1p-53;
}

// Value noise: lattice values blended with a smooth step; in [0, 1].
double noise(double x, double y, uint64_t seed) {
  const double fx = std::floor(x), fy = std::floor(y);
  const auto ix = int64_t(fx), iy = int64_t(fy);
  const double tx = x - fx, ty = y - fy;
  const double sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
  const double a = hash01(ix, iy, seed), b = hash01(ix + 1, iy, seed);
  const double c = hash01(ix, iy + 1, seed), d = hash01(ix + 1, iy + 1, seed);
  return (a + (b - a) * sx) + ((c + (d - c) * sx) - (a + (b - a) * sx)) * sy;
}

// Fractal sum of `octaves` noises, each at twice the frequency and half the weight; in [0, 1].
double fbm(double x, double y, uint64_t seed, int octaves) {
  double sum = 0, weight = 1, total = 0;
  for (int o = 0; o < octaves; ++o) {
    sum += weight * noise(x, y, seed + uint64_t(o) * 0x632BE59BD9B4E019ull);
    total += weight;
    weight *= 0.5;
    x *= 2.03;
    y *= 2.03;
  }
  return sum / total;
}

double clamp01(double v) { return std::clamp(v, 0.0, 1.0); }
double smoothstep(double e0, double e1, double x) {
  const double t = clamp01((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}
double lerp(double a, double b, double t) { return a + (b - a) * t; }
uint8_t to_u8(double v) { return uint8_t(std::lround(std::clamp(v, 0.0, 255.0))); }

// Inside the box [u0, u1] x [v0, v1], with an edge `soft` wide (0 outside, 1 inside).
double box(double u, double v, double u0, double v0, double u1, double v1, double soft) {
  return smoothstep(u0 - soft, u0 + soft, u) * (1 - smoothstep(u1 - soft, u1 + soft, u)) *
         smoothstep(v0 - soft, v0 + soft, v) * (1 - smoothstep(v1 - soft, v1 + soft, v));
}

struct Rgb {
  double r, g, b;
};
Rgb operator+(Rgb a, Rgb b) { return {a.r + b.r, a.g + b.g, a.b + b.b}; }
Rgb operator*(Rgb a, double s) { return {a.r * s, a.g * s, a.b * s}; }
Rgb lerp(Rgb a, Rgb b, double t) { return {lerp(a.r, b.r, t), lerp(a.g, b.g, t), lerp(a.b, b.b, t)}; }

// The pixel grid in normalised coordinates: v from 0 (top) to 1 (bottom), u from 0 to 1 across;
// distances are measured in units of the height (u * aspect), so circles stay round.
struct Grid {
  int width, height;
  double aspect;
  double u(int x) const { return (x + 0.5) / width; }
  double v(int y) const { return (y + 0.5) / height; }
};

constexpr uint64_t kSeed = 0x6770756C61620001ull;

// ---------------------------------------------------------------------------------------------
// hazy-landscape: sky with a sun and clouds, three mountain ridges fading into haze, a lake that
// mirrors them, a grassy bank; then squeezed into 90..170, as a photo through haze looks.

class Landscape {
 public:
  explicit Landscape(const Grid& g) : g_(g) {
    // The ridges depend on u only: one crest and slope a column (with a margin for the lake's
    // ripples). The slope is taken over a few percent of the width, so the shading follows the
    // mountain's flanks and not each column's noise.
    for (int i = 0; i < 3; ++i) {
      ridges_[i].resize(size_t(g.width) + 2 * kMargin);
      slopes_[i].resize(ridges_[i].size());
      for (int x = 0; x < int(ridges_[i].size()); ++x) {
        const double u = g.u(x - kMargin), e = 0.015 / g.aspect;
        ridges_[i][size_t(x)] = ridge_at(i, u);
        slopes_[i][size_t(x)] = (ridge_at(i, u - e) - ridge_at(i, u + e)) / (2 * e * g.aspect);
      }
    }
  }

  Rgb pixel(int x, int y) const {
    const double u = g_.u(x), v = g_.v(y), a = g_.aspect;
    Rgb c;
    if (v < kHorizon) {
      c = above(u, v);
    } else {
      const double d = (v - kHorizon) / (1 - kHorizon);  // 0 at the far shore, 1 at the bottom
      const double wobble = 0.007 * d * std::sin(v * 310 + 5 * fbm(u * a * 6, v * 35, kSeed + 41, 2));
      c = above(u + wobble, std::max(0.0, 2 * kHorizon - v - 0.01 * d)) * 0.8;
      c = lerp(c, Rgb{0.20, 0.33, 0.44}, 0.22 + 0.45 * d);
      const double du = (u - kSunU) * a;
      const double glitter = std::exp(-du * du / 0.008) *
                             smoothstep(0.68, 0.92, noise(u * a * 110, v * 300, kSeed + 42)) * (1 - d);
      c = c + Rgb{0.55, 0.48, 0.36} * glitter;
      if (v - kHorizon < 0.006) c = c * 0.72;  // the far shore's dark line
      const double bank =
          0.885 + 0.03 * std::sin(u * a * 3 + 1) + 0.05 * (fbm(u * a * 6, 7.5, kSeed + 43, 4) - 0.5);
      if (v >= bank) {  // grass: noise stretched upwards reads as blades
        const double blades = 0.65 + 0.7 * fbm(u * a * 140, v * 22, kSeed + 44, 3);
        c = Rgb{0.27, 0.32, 0.17} * (blades * (1.1 - 0.5 * (v - bank) / (1.0 - bank + 1e-9)));
      }
    }
    c = lerp(c, Rgb{0.80, 0.80, 0.78}, 0.18);                       // haze over everything
    const double grain = (hash01(x, y, kSeed + 45) - 0.5) * 0.035;  // film grain, a pixel fine
    return {90 + 80 * clamp01(c.r + grain), 90 + 80 * clamp01(c.g + grain), 90 + 80 * clamp01(c.b + grain)};
  }

 private:
  static constexpr double kHorizon = 0.6, kSunU = 0.68, kSunV = 0.2;
  static constexpr int kMargin = 8;

  double ridge_at(int i, double u) const {  // the v of ridge i's crest; 0 far, 2 near
    const double x = u * g_.aspect;
    switch (i) {
      case 0:
        return 0.37 + 0.05 * std::sin(x * 4.1 + 0.7) + 0.025 * std::sin(x * 9.7 + 2.1) +
               0.10 * (fbm(x * 3.0, 0.5, kSeed + 1, 6) - 0.5);
      case 1:
        return 0.46 + 0.04 * std::sin(x * 2.9 + 1.9) + 0.02 * std::sin(x * 7.3) +
               0.08 * (fbm(x * 4.5, 1.5, kSeed + 2, 6) - 0.5);
      default:
        return std::min(kHorizon - 0.004, 0.545 + 0.025 * std::sin(x * 2.1 + 4.0) +
                                              0.05 * (fbm(x * 7.0, 2.5, kSeed + 3, 6) - 0.5));
    }
  }
  // Crest of ridge i at u from the column table, interpolated; *slope is its rise per unit of
  // u*aspect (> 0 where the crest climbs to the right).
  double ridge(int i, double u, double* slope) const {
    const auto& r = ridges_[i];
    const double fx = std::clamp(u * g_.width - 0.5 + kMargin, 0.0, double(r.size() - 1) - 1e-9);
    const auto ix = std::min(size_t(fx), r.size() - 2);
    const double t = fx - double(ix);
    *slope = lerp(slopes_[i][ix], slopes_[i][ix + 1], t);
    return lerp(r[ix], r[ix + 1], t);
  }

  Rgb sky(double u, double v) const {
    const double a = g_.aspect;
    Rgb c = lerp(Rgb{0.40, 0.55, 0.80}, Rgb{0.88, 0.86, 0.80}, std::pow(clamp01(v / kHorizon), 0.7));
    const double du = (u - kSunU) * a, dv = v - kSunV, d2 = du * du + dv * dv;
    c = lerp(c, Rgb{1.0, 0.9, 0.72}, 0.45 * std::exp(-d2 / 0.03) + 0.3 * std::exp(-d2 / 0.004));  // glow
    c = lerp(c, Rgb{1.0, 0.98, 0.93}, smoothstep(0.045, 0.035, std::sqrt(d2)));                   // disc
    const double band = smoothstep(0.04, 0.16, v) * (1 - smoothstep(0.28, 0.42, v));
    const double cloud = smoothstep(0.5, 0.78, fbm(u * a * 2.5 + 10, v * 8, kSeed + 5, 6)) * band;
    return lerp(c, Rgb{0.96, 0.95, 0.93}, 0.65 * cloud);
  }

  Rgb mountain(int i, double u, double v, double crest, double slope) const {
    static constexpr Rgb base[3] = {{0.50, 0.56, 0.68}, {0.34, 0.45, 0.42}, {0.22, 0.33, 0.19}};
    static constexpr double texture_scale[3] = {25, 45, 95}, haze[3] = {0.45, 0.25, 0.08};
    const double a = g_.aspect, depth = v - crest;
    Rgb c = base[i] * (0.8 + 0.4 * fbm(u * a * texture_scale[i], v * texture_scale[i], kSeed + 10 + i, 3));
    if (i == 0) {  // snow on the high crests
      const double snow =
          (1 - smoothstep(0.012, 0.03, depth + 0.02 * noise(u * a * 30, v * 30, kSeed + 13))) *
          smoothstep(0.37, 0.32, crest);
      c = lerp(c, Rgb{0.93, 0.94, 0.97}, 0.8 * snow);
    }
    // Slopes that face the sun (up and to the right) are lit, the others in shade.
    c = c * std::clamp(1 - 0.5 * slope * std::exp(-depth * 10), 0.7, 1.3);
    c = lerp(c, sky(u, kHorizon), haze[i]);                                            // distance
    if (i < 2) c = lerp(c, Rgb{0.86, 0.86, 0.84}, 0.4 * smoothstep(0.0, 0.1, depth));  // valley mist
    return c;
  }

  Rgb above(double u, double v) const {
    for (int i = 2; i >= 0; --i) {
      double slope = 0;
      const double crest = ridge(i, u, &slope);
      if (v >= crest) return mountain(i, u, v, crest, slope);
    }
    return sky(u, v);
  }

  Grid g_;
  std::array<std::vector<double>, 3> ridges_, slopes_;
};

// ---------------------------------------------------------------------------------------------
// dark-room: a room at night, underexposed: a wall with a moonlit window and a picture, a table
// with a bottle, a chair, floorboards and the window's light on the floor; levels mostly 0..60.

double dark_room(const Grid& g, int x, int y) {
  const double u = g.u(x), v = g.v(y), a = g.aspect;
  constexpr double floor_v = 0.70;
  constexpr double wu0 = 0.56, wu1 = 0.80, wv0 = 0.13, wv1 = 0.47;  // the window
  double L;
  if (v < floor_v) {  // wall: plaster, brighter around the window
    const double dx = (u - 0.68) * a, dy = v - 0.3;
    L = 15 + 17 * std::exp(-(dx * dx + dy * dy) / 0.09) + 6 * fbm(u * a * 7, v * 7, kSeed + 20, 4);
    if (v > floor_v - 0.025) L = 9 + 2 * noise(u * a * 40, 0, kSeed + 21);  // skirting board
  } else {  // floorboards, narrower as they recede: lines where 1/(v - 0.55) crosses integers
    const double depth = 1.0 / (v - 0.55);
    const double board = depth * 1.6;
    const double seam = std::abs(board - std::round(board));
    L = 11 + 7 * fbm(u * a * 2.5 + std::floor(board) * 7.1, board * 0.3 + u * a * 30, kSeed + 22, 3);
    if (seam < 0.05) L = 6;
    // moonlight through the window, sheared onto the floor, crossed by the mullions' shadows
    const double t = (v - 0.74) / 0.2;
    const double pu0 = 0.40 - 0.10 * t, pu1 = 0.66 - 0.14 * t;
    const double patch = box(u, v, pu0, 0.74, pu1, 0.94, 0.01);
    const double pu = (u - pu0) / (pu1 - pu0);
    const bool bar = std::abs(pu - 0.5) < 0.035 || std::abs(t - 0.45) < 0.04;
    L += patch * (bar ? 3 : 24);
  }
  // the window: moonlit sky with a dark tree outside, frame and mullions
  const double in_window = box(u, v, wu0, wv0, wu1, wv1, 0.002);
  if (in_window > 0) {
    const double wy = (v - wv0) / (wv1 - wv0), wx = (u - wu0) / (wu1 - wu0);
    double sky = 92 - 40 * wy;
    const double mx = (u - 0.75) * a, my = v - 0.2;
    sky += 30 * std::exp(-(mx * mx + my * my) / 0.0012);  // the moon's glow
    // a tree outside in silhouette: a ragged crown and its trunk
    const double tx = (wx - 0.12) * 1.4, ty = wy - 0.62;
    const double crown = 0.34 + 0.12 * (fbm(wx * 9, wy * 9, kSeed + 23, 4) - 0.5);
    if (tx * tx + ty * ty < crown * crown || (std::abs(wx - 0.14) < 0.035 && wy > 0.6)) sky = 13;
    if (std::abs(wx - 0.5) < 0.03 || std::abs(wy - 0.5) < 0.03) sky = 9;  // mullions
    L = lerp(L, sky, in_window);
  }
  const double frame = box(u, v, wu0 - 0.015, wv0 - 0.02, wu1 + 0.015, wv1 + 0.02, 0.002) * (1 - in_window);
  L = lerp(L, 8, frame);
  // curtain to the left of the window: folds as a cosine, lit from the window side
  if (box(u, v, 0.485, 0.08, 0.548, 0.66, 0.002) > 0.5) {
    const double fold = std::cos((u - 0.485) * a * 190);
    L = 17 + 9 * fold * fold + 10 * (u - 0.485) / 0.063;
  }
  // a picture on the wall: a dim landscape in a dark frame
  if (box(u, v, 0.12, 0.18, 0.31, 0.42, 0.001) > 0.5) {
    const bool inside = box(u, v, 0.135, 0.2, 0.295, 0.4, 0.001) > 0.5;
    const double hill = 0.32 + 0.03 * std::sin(u * a * 40);
    L = !inside ? 7 : v < hill ? 30 - 20 * (v - 0.2) : 19 + 3 * noise(u * a * 60, v * 60, kSeed + 24);
  }
  // the table with a bottle, its legs and its shadow
  if (v > 0.82 && v < 0.86 && u > 0.12 && u < 0.5) L *= 0.6;
  if (box(u, v, 0.15, 0.565, 0.46, 0.595, 0.001) > 0.5) L = v < 0.572 ? 42 : 27;
  for (double lu : {0.17, 0.44})
    if (std::abs(u - lu) < 0.008 && v > 0.595 && v < 0.84) L = 6;
  {
    const double bx = (u - 0.37) * a;
    const double half = v > 0.5 ? 0.022 : v > 0.47 ? 0.022 - (0.5 - v) * 0.5 : 0.008;  // body, shoulder, neck
    if (v > 0.43 && v < 0.565 && std::abs(bx) < half) L = bx > 0.005 && bx < 0.01 ? 48 : 7;
  }
  // a chair in silhouette on the right: back, seat, legs
  {
    const bool back = (std::abs(u - 0.835) < 0.01 || std::abs(u - 0.925) < 0.01) && v > 0.42 && v < 0.9;
    const bool rail = u > 0.835 && u < 0.925 && ((v > 0.44 && v < 0.47) || (v > 0.53 && v < 0.55));
    const bool seat = u > 0.80 && u < 0.93 && v > 0.66 && v < 0.69;
    const bool front = std::abs(u - 0.805) < 0.008 && v > 0.69 && v < 0.86;
    if (back || rail || seat || front) L = 4;
  }
  const double r2 = (u - 0.5) * (u - 0.5) + (v - 0.45) * (v - 0.45);  // lens vignette
  L *= 1 - 0.45 * r2;
  return L + (hash01(x, y, kSeed + 25) - 0.5) * 4;  // sensor noise
}

// ---------------------------------------------------------------------------------------------
// bright-snow: a snowfield in sunshine, overexposed: a white sky, distant hills with a tree line,
// drifts, pine trees with shadows, a fence and a trail of footprints; levels mostly 190..255.

double bright_snow(const Grid& g, int x, int y) {
  const double u = g.u(x), v = g.v(y), a = g.aspect;
  const double hills =
      0.33 + 0.04 * std::sin(u * a * 3.3 + 0.5) + 0.05 * (fbm(u * a * 4, 0.5, kSeed + 30, 5) - 0.5);
  double L;
  if (v < hills) {  // sky, whiter towards the horizon and the sun
    const double du = (u - 0.2) * a, dv = v - 0.08;
    L = 232 + 20 * (v / hills) + 40 * std::exp(-(du * du + dv * dv) / 0.02);
  } else if (v < hills + 0.035 && noise(u * a * 110, v * 60, kSeed + 31) > 0.35 + (v - hills) * 14) {
    L = 176 + 14 * noise(u * a * 300, v * 300, kSeed + 32);  // the distant tree line
  } else {  // snow: soft drifts, lit from the upper left, with wind ripples
    const double e = 0.004;
    const double h0 = fbm(u * a * 3, v * 7, kSeed + 33, 4);
    const double hx = fbm((u + e) * a * 3, v * 7, kSeed + 33, 4);
    const double hy = fbm(u * a * 3, (v + e) * 7, kSeed + 33, 4);
    const double shade = ((h0 - hx) + (h0 - hy)) / e;
    L = 236 + 3.5 * shade + 4 * std::sin(v * 260 + 6 * h0) * smoothstep(0.5, 0.9, v);
    L -= 14 * smoothstep(0.02, 0.0, v - hills);  // far snow in the hills' shade
  }
  // pine trees: stacked triangles, snow on each tier's top, a shadow to the lower left
  struct Tree {
    double u, base, height;
  };
  static constexpr Tree trees[] = {
      {0.12, 0.78, 0.30}, {0.21, 0.70, 0.22}, {0.74, 0.62, 0.17}, {0.82, 0.66, 0.20}, {0.90, 0.60, 0.13}};
  for (const Tree& t : trees) {
    {  // the shadow, cast away from the sun (upper left) across the snow: a tapering streak
      const double px = (u - t.u) * a, py = (v - t.base) * 2.5;  // the ground seen at a low angle
      const double along = px * 0.93 + py * 0.37, across = std::abs(-px * 0.37 + py * 0.93);
      const double len = t.height * 1.3, width = t.height * 0.2 * (1 - 0.7 * along / len);
      if (along > 0 && along < len && across < width) L -= 20 * smoothstep(0, 0.3, (width - across) / width);
    }
    const double top = t.base - t.height;
    if (v < top || v > t.base) continue;
    const double h = (v - top) / t.height;      // 0 at the tip, 1 at the foot
    const double tier = std::fmod(h * 4, 1.0);  // four tiers, each widening downwards
    const double half = t.height * 0.28 * (0.25 + 0.75 * h) * (0.55 + 0.45 * tier);
    const double dx = std::abs(u - t.u) * a;
    if (h > 0.93 && dx < t.height * 0.04)
      L = 120;  // trunk
    else if (dx < half && h <= 0.93)
      L = tier < 0.12 ? 214 : 148 + 16 * noise(u * a * 200, v * 200, kSeed + 34);
  }
  // a fence along a gentle diagonal: posts and two rails
  const double fence_v = 0.60 + 0.08 * u;
  if (u > 0.3 && u < 0.68) {
    const double post = std::fmod((u - 0.3) * a * 14, 1.0);
    if (post < 0.1 && v > fence_v - 0.07 && v < fence_v) L = 160;
    if ((std::abs(v - (fence_v - 0.055)) < 0.004 || std::abs(v - (fence_v - 0.03)) < 0.004)) L = 172;
  }
  // footprints from the lower left towards the fence, smaller with distance
  for (int k = 0; k < 12; ++k) {
    const double s = k / 11.0;
    const double fu = 0.08 + 0.38 * s + (k % 2 ? 0.012 : -0.012) * (1 - 0.6 * s), fv = 0.97 - 0.3 * s;
    const double du = (u - fu) * a / (0.012 * (1 - 0.6 * s)), dv = (v - fv) / (0.022 * (1 - 0.6 * s));
    if (du * du + dv * dv < 1) L -= 32 * (1 - 0.5 * (du * du + dv * dv));
  }
  return L + 6 + (hash01(x, y, kSeed + 35) - 0.5) * 5;  // exposed a stop too long, and noise
}

// ---------------------------------------------------------------------------------------------
// bimodal: a printed page: dark ink (a title, lines of text, three stamps) on bright paper, so the
// histogram has two separated peaks.

// 5x7 capitals, one byte a row, bit 4 the leftmost column.
constexpr std::array<std::array<uint8_t, 7>, 26> kFont = {{
    {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}, {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E},  // A B
    {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E}, {0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E},  // C D
    {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}, {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10},  // E F
    {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F}, {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11},  // G H
    {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}, {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C},  // I J
    {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}, {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F},  // K L
    {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}, {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11},  // M N
    {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}, {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10},  // O P
    {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}, {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11},  // Q R
    {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}, {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04},  // S T
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}, {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04},  // U V
    {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A}, {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11},  // W X
    {0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F},  // Y Z
}};

struct TextLine {
  double u, v, height;  // left edge, top, cap height (in units of the image height)
  std::string_view text;
};
constexpr TextLine kPage[] = {
    {0.06, 0.07, 0.075, "HISTOGRAM"},
    {0.06, 0.25, 0.036, "DARK INK ON BRIGHT PAPER"},
    {0.06, 0.32, 0.036, "GIVES TWO PEAKS AND A"},
    {0.06, 0.39, 0.036, "WIDE EMPTY VALLEY"},
    {0.06, 0.46, 0.036, "EQUALIZATION PULLS"},
    {0.06, 0.53, 0.036, "THEM APART AND A"},
    {0.06, 0.60, 0.036, "THRESHOLD BETWEEN"},
    {0.06, 0.67, 0.036, "THEM SPLITS INK"},
    {0.06, 0.74, 0.036, "FROM PAPER"},
    {0.06, 0.86, 0.036, "GPULAB"},
};

// Whether `text` set in kFont (a character every 6 dots: 5 and a space) has ink at (cx, cy),
// measured in dots from the text's top-left corner. Letters only; anything else is a space.
bool font_ink(std::string_view text, double cx, double cy) {
  if (cx < 0 || cy < 0) return false;
  const int row = int(cy);
  const auto cell = size_t(cx / 6);
  const int col = int(cx - double(cell) * 6);
  if (cell >= text.size() || col >= 5 || row > 6) return false;
  const char ch = text[cell];
  if (ch < 'A' || ch > 'Z') return false;
  return (kFont[size_t(ch - 'A')][size_t(row)] & (0x10 >> col)) != 0;
}

bool ink_of_text(double u, double v, double aspect) {
  for (const TextLine& line : kPage) {
    const double dot = line.height / 7;  // square dots: the same size in u*aspect and v
    if (v < line.v || v >= line.v + line.height) continue;
    // in dots from the line's top-left corner
    if (font_ink(line.text, (u - line.u) * aspect / dot, (v - line.v) / dot)) return true;
  }
  return false;
}

double bimodal(const Grid& g, int x, int y) {
  const double u = g.u(x), v = g.v(y), a = g.aspect;
  // paper: unevenly lit, with fibres
  const double lu = u - 0.35, lv = v - 0.3;
  const double paper = 214 - 22 * (lu * lu + lv * lv) + 6 * (fbm(u * a * 30, v * 30, kSeed + 50, 3) - 0.5);
  // ink: text on the left, stamps on the right (a disc, a ring, a disc with a hole)
  bool ink = ink_of_text(u, v, a);
  auto dist = [&](double cu, double cv) { return std::hypot((u - cu) * a, v - cv); };
  const double d1 = dist(0.80, 0.26), d2 = dist(0.78, 0.62), d3 = dist(0.86, 0.85);
  ink = ink || d1 < 0.15 || (d2 > 0.09 && d2 < 0.15) || (d3 > 0.03 && d3 < 0.09);
  const double ink_level = 52 + 14 * (fbm(u * a * 12, v * 12, kSeed + 51, 3) - 0.5);
  return (ink ? ink_level : paper) + (hash01(x, y, kSeed + 52) - 0.5) * 8;
}

// ---------------------------------------------------------------------------------------------
// filter-test: what resampling does to fine detail, for the texture-rotation demo. Four quadrants
// inside a one-pixel white frame (the image's edge: wrap and mirror show it repeated), parted by a
// two-pixel grey cross:
//   top left:     a zone plate, cos(π r² / 2R) on a disc of radius R: rings whose frequency grows
//                 with r up to the pixel grid's limit (half a cycle a pixel) at the rim;
//   top right:    lines one pixel wide, horizontal, vertical, diagonal and anti-diagonal (rows),
//                 every 2nd, 3rd and 4th pixel (columns);
//   bottom left:  5x7 text with dots of 6, 4, 3, 2 and 1 pixels, a slanted edge and a Siemens star;
//   bottom right: checkerboards of 1, 2 and 4 pixel squares (bands from the top).
// Unlike the photographs above it is laid out in pixels, not normalised: the point is the pixel
// grid. At other sizes the quadrants follow the size and their content is cut off where it ends.

constexpr double kPi = 3.14159265358979323846;
constexpr double kDark = 16, kLight = 240, kGrey = 128;

double zone_plate(int lx, int ly, int qw, int qh) {
  const double r_max = std::max(1.0, std::min(qw, qh) / 2.0 - 3);
  const double dx = lx + 0.5 - qw / 2.0, dy = ly + 0.5 - qh / 2.0, r2 = dx * dx + dy * dy;
  if (r2 >= r_max * r_max) return kGrey;
  return 128 + 127 * std::cos(kPi * r2 / (2 * r_max));  // phase' = π r / R: π a pixel at r = R
}

double fine_lines(int lx, int ly, int qw, int qh) {
  const int col = std::min(lx * 3 / std::max(qw, 1), 2), row = std::min(ly * 4 / std::max(qh, 1), 3);
  const int cx = lx - col * qw / 3, cy = ly - row * qh / 4;  // within the cell
  if ((col > 0 && cx < 2) || (row > 0 && cy < 2)) return kGrey;
  const int spacing = 2 + col;
  const int along[4] = {cy, cx, cx + cy, cx - cy};  // lines of constant value: horizontal, ...
  const int m = along[row] % spacing;
  return m == 0 ? kLight : kDark;
}

double text_and_edges(int lx, int ly) {
  struct Line {
    int x, y, dot;
    std::string_view text;
  };
  static constexpr Line kLines[] = {
      {6, 6, 6, "GPULAB"},
      {6, 56, 4, "ROTATE"},
      {6, 90, 3, "TEXTURE"},
      {6, 116, 2, "FILTERING TEST"},
      {6, 136, 1, "POINT LINEAR WRAP CLAMP"},
      {6, 146, 1, "MIRROR BORDER ALIASING"},
  };
  for (const Line& l : kLines)
    if (font_ink(l.text, double(lx - l.x) / l.dot, double(ly - l.y) / l.dot)) return kDark;
  // A slanted edge (5° off vertical), as in resolution charts: dark left of it.
  if (lx >= 8 && lx < 112 && ly >= 164 && ly < 244)
    return (lx + 0.5 - 60) < (ly + 0.5 - 204) * std::tan(5 * kPi / 180) ? kDark : kLight - 10;
  // A Siemens star of 24 spokes: edges at every angle, finer towards the centre.
  const double sx = lx + 0.5 - 186, sy = ly + 0.5 - 204;
  if (sx * sx + sy * sy < 44.0 * 44.0) {
    const double turn = (std::atan2(sy, sx) + kPi) / (2 * kPi);  // 0..1
    return int(turn * 48) % 2 ? kDark : kLight;
  }
  return kLight - 10;
}

double checkerboards(int lx, int ly, int qh) {
  const int band = std::min(ly * 3 / std::max(qh, 1), 2), by = ly - band * qh / 3;
  if (band > 0 && by < 2) return kGrey;
  const int q = 1 << band;
  return (lx / q + by / q) % 2 ? kLight : kDark;
}

double filter_test(const Grid& g, int x, int y) {
  const int w = g.width, h = g.height, hw = w / 2, hh = h / 2;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) return 255;
  if (x == hw - 1 || x == hw || y == hh - 1 || y == hh) return kGrey;
  // Each quadrant's inside: left ones from x = 1 to hw - 2, right ones from hw + 1 to w - 2.
  const bool right = x > hw, bottom = y > hh;
  const int lx = right ? x - hw - 1 : x - 1, ly = bottom ? y - hh - 1 : y - 1;
  const int qw = right ? w - hw - 2 : hw - 2, qh = bottom ? h - hh - 2 : hh - 2;
  if (!bottom) return right ? fine_lines(lx, ly, qw, qh) : zone_plate(lx, ly, qw, qh);
  return right ? checkerboards(lx, ly, qh) : text_and_edges(lx, ly);
}

// ---------------------------------------------------------------------------------------------

constexpr Generated kGenerated[] = {
    {"hazy-landscape", "hazy landscape (low contrast)", 640, 400, 3},
    {"dark-room", "dark room (underexposed)", 640, 400, 1},
    {"bright-snow", "snow field (overexposed)", 640, 400, 1},
    {"bimodal", "ink on paper (two peaks)", 640, 400, 1},
    {"filter-test", "filter test (zone plate, lines, text, checkers)", 512, 512, 1},
};

template <class Shade>
void fill_grey(Image& img, const Grid& g, Shade shade) {
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      img.pixels[size_t(y) * size_t(g.width) + size_t(x)] = to_u8(shade(g, x, y));
}

}  // namespace

std::span<const Generated> generated_images() { return kGenerated; }

const Generated* find_generated(std::string_view id) {
  for (const Generated& g : kGenerated)
    if (g.id == id) return &g;
  return nullptr;
}

Image generate(const Generated& g) { return generate(g.id, g.width, g.height); }

Image generate(std::string_view id, int width, int height) {
  const Generated* known = find_generated(id);
  if (!known) throw std::invalid_argument("no generated image called \"" + std::string(id) + "\"");
  if (width < 0 || height < 0 || width > kMaxSide || height > kMaxSide ||
      uint64_t(width) * uint64_t(height) > kMaxPixels)
    throw std::invalid_argument("cannot generate " + std::string(id) + " at " + std::to_string(width) + "x" +
                                std::to_string(height) + " (at most " + std::to_string(kMaxSide) +
                                " a side)");
  Image img;
  img.width = width;
  img.height = height;
  img.channels = known->channels;
  img.pixels.resize(img.pixel_count() * size_t(img.channels));
  if (img.pixels.empty()) return img;

  const Grid g{width, height, double(width) / double(height)};
  if (id == "hazy-landscape") {
    const Landscape scene(g);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const Rgb c = scene.pixel(x, y);
        uint8_t* p = &img.pixels[(size_t(y) * size_t(width) + size_t(x)) * 3];
        p[0] = to_u8(c.r);
        p[1] = to_u8(c.g);
        p[2] = to_u8(c.b);
      }
  } else if (id == "dark-room") {
    fill_grey(img, g, dark_room);
  } else if (id == "bright-snow") {
    fill_grey(img, g, bright_snow);
  } else if (id == "bimodal") {
    fill_grey(img, g, bimodal);
  } else {
    fill_grey(img, g, filter_test);
  }
  return img;
}

}  // namespace gpulab::image

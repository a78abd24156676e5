#pragma once
// Texture rotation of 8-bit images: the definition, the arithmetic the CPU reference and the CUDA
// kernels share, and the CPU reference. No GL, no ImGui, no CUDA headers here.
//
// The definition every variant, test and outside check relies on (W x H image, 1..4 channels):
//   The output has the size of the input. For output pixel (x, y):
//     dx = x + 0.5 − W/2,  dy = y + 0.5 − H/2
//     sx = W/2 + (dx·cos t − dy·sin t) / s,  sy = H/2 + (dy·cos t + dx·sin t) / s
//   with t the angle in radians and s the scale; the source is sampled at (sx, sy) in texel units,
//   texel (i, j) centred at (i + 0.5, j + 0.5). Row 0 is at the top, so a positive angle turns the
//   picture counter-clockwise as displayed (at 90° the source's top-right corner lands top-left);
//   s > 1 enlarges. For a square image this is the lecture's transformKernel with the half-texel
//   fix (the unfixed formula is lecture_source_coord below, for the lecturer to show the shift).
//   Point: texel (floor sx, floor sy).
//   Linear: the four texels around (sx − 0.5, sy − 0.5), i0 = floor(sx − 0.5), fx = sx − 0.5 − i0
//     (j0, fy alike), blended as the CUDA programming guide writes the texture unit's filter:
//     (1−fx)(1−fy)·T[i0,j0] + fx(1−fy)·T[i0+1,j0] + (1−fx)fy·T[i0,j0+1] + fx·fy·T[i0+1,j0+1],
//     in float with float weights, summed in that order (the texture unit itself works in fixed
//     point, see "What the texture unit does" below: a texture variant matches this definition
//     within unit_linear_bound levels, and the unit model below byte for byte).
//   Address modes map an out-of-range texel index (i < 0 or i >= n) on each axis on its own:
//     clamp to the edge (0 or n − 1); border: the texel is 0 in every channel, alpha included;
//     wrap: i mod n; mirror: reflected with period 2n, the edge texel repeated
//     (…, 1, 0 | 0, 1, …, n−1 | n−1, n−2, …).
//   Each channel is filtered the same way, alpha too (not premultiplied). The filtered value v
//   (0..255) becomes the byte floor(v + 0.5): +0.5 and truncate, ties up, not rintf's ties to even.
//   A kernel reading the texture with cudaReadModeNormalizedFloat gets v / 255 and must convert
//   it the same way, with to_byte(f * 255).
//   Bad input: an angle or scale that is not a finite number is refused, and so is a scale
//   outside [kMinScale, kMaxScale] (check_params).
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/hd.h"
#include "common/kernel_info.h"
#include "common/variant.h"
#include "image/image.h"

namespace gpulab::rotate {

enum class Filter : uint8_t { Point, Linear };
enum class Address : uint8_t { Wrap, Clamp, Mirror, Border };

// Stable string ids (CLI, settings, tests): "point", "linear"; "wrap", "clamp", "mirror", "border".
inline constexpr Filter kFilters[] = {Filter::Point, Filter::Linear};
inline constexpr Address kAddresses[] = {Address::Wrap, Address::Clamp, Address::Mirror, Address::Border};
inline std::string_view name(Filter f) { return f == Filter::Point ? "point" : "linear"; }
inline std::string_view name(Address a) {
  switch (a) {
    case Address::Wrap:
      return "wrap";
    case Address::Clamp:
      return "clamp";
    case Address::Mirror:
      return "mirror";
    default:
      return "border";
  }
}
inline std::optional<Filter> parse_filter(std::string_view id) {
  for (Filter f : kFilters)
    if (name(f) == id) return f;
  return std::nullopt;
}
inline std::optional<Address> parse_address(std::string_view id) {
  for (Address a : kAddresses)
    if (name(a) == id) return a;
  return std::nullopt;
}

// Zooming out 64x already maps a 32768-pixel side into a few hundred pixels; past that nothing is
// left to see, and the bound keeps every source coordinate well inside int range (|sx| < 2^23).
inline constexpr float kMinScale = 1.0f / 64, kMaxScale = 64;

struct Params {
  float angle_deg = 0;  // counter-clockwise as displayed
  float scale = 1;      // > 1 enlarges
  Filter filter = Filter::Linear;
  Address address = Address::Border;
};

// "" when p can be used, else why not (names the parameter and its value).
std::string check_params(const Params& p);

// ---------------------------------------------------------------------------------------------
// The arithmetic of the definition and of the texture unit's model (written once, so that the host
// and the kernels agree bit for bit): the coordinates (source_coord, lecture_source_coord) and the
// unit model below run in the kernels and on the host; point_tap / linear_taps / blend, the float
// definition's filtering, run on the host only (the CPU reference and the demo's inspector; the
// GPU variants do what the texture unit does). The kernels must NOT call cosf/sinf themselves: the host
// computes the two coefficients once (coefficients() below) and passes the floats in, so that both sides use
// the same values (device cosf differs from the host's in the last bits, and 90° must give exactly 0 and 1).
// Products and sums are rounded one by one (__fmul_rn/__fadd_rn on the device, where nvcc would
// otherwise fuse them into FMAs); the host build must not contract either (x86-64 without -mfma
// cannot; with -march=native, GCC needs -ffp-contract=off).

GPULAB_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
GPULAB_HD float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
GPULAB_HD float sub_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
GPULAB_HD float div_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}

// cos t / s and sin t / s.
struct Coefficients {
  float cos_s = 1, sin_s = 0;
};
// Computed in double from the angle reduced modulo 360° (exactly, by fmod), then rounded to float;
// multiples of 90° give exact 0 and ±1, so quarter and half turns are exact permutations.
inline Coefficients coefficients(const Params& p) {
  const double deg = std::fmod(double(p.angle_deg), 360.0);  // exact; in (−360, 360)
  double c, s;
  if (deg == 0) {
    c = 1, s = 0;
  } else if (deg == 90 || deg == -270) {
    c = 0, s = 1;
  } else if (deg == 180 || deg == -180) {
    c = -1, s = 0;
  } else if (deg == 270 || deg == -90) {
    c = 0, s = -1;
  } else {
    const double t = deg * (3.14159265358979323846 / 180.0);
    c = std::cos(t), s = std::sin(t);
  }
  return {float(c / double(p.scale)), float(s / double(p.scale))};
}

struct Coord {
  float x, y;
};

// (sx, sy) of output pixel (x, y) in a w x h image: the definition above, in this order of
// operations. Exact at angle 0, scale 1 (sx = x + 0.5) and at quarter and half turns of images
// below 2^22 pixels a side.
GPULAB_HD Coord source_coord(int x, int y, int w, int h, Coefficients k) {
  const float cx = mul_rn(0.5f, float(w)), cy = mul_rn(0.5f, float(h));
  const float dx = sub_rn(add_rn(float(x), 0.5f), cx), dy = sub_rn(add_rn(float(y), 0.5f), cy);
  return {add_rn(cx, sub_rn(mul_rn(dx, k.cos_s), mul_rn(dy, k.sin_s))),
          add_rn(cy, add_rn(mul_rn(dy, k.cos_s), mul_rn(dx, k.sin_s)))};
}

// The lecture's transformKernel (the CUDA samples' simpleTexture, older form), without the fix:
//   u = x / W − 0.5, v = y / H − 0.5 (normalized, from the pixel's corner, not its centre)
//   tu = (u·cos t − v·sin t) / s + 0.5, tv = (v·cos t + u·sin t) / s + 0.5, sampled at (tu, tv)
// with normalized coordinates. Here the same point in texel units (W·tu, H·tv):
//   sx = W/2 + (x − W/2)·cos t/s − (y − H/2)·(W/H)·sin t/s
//   sy = H/2 + (y − H/2)·cos t/s + (x − W/2)·(H/W)·sin t/s
// evaluated in texel units so that the half-texel error is not blurred by the rounding of x / W.
// Against the definition, x and y stand where x + 0.5 and y + 0.5 should: every sample is taken
// half a texel up and left of the pixel's centre, rotated about it. At angle 0, scale 1 it samples
// the texel corner (x, y): point filtering still gives texel (x, y), linear filtering gives the
// mean of texels x−1..x, y−1..y (the picture moves half a pixel right and down and blurs, and row
// 0 and column 0 take in texels from outside). At 180° point filtering gives texel (W − x, H − y):
// the picture turned, then shifted by a whole pixel, one row and column from outside the image.
// For W != H it also rotates in normalized coordinates, which shears the picture (a second lesson).
// snippet rotate_lecture
GPULAB_HD Coord lecture_source_coord(int x, int y, int w, int h, Coefficients k) {
  const float cx = mul_rn(0.5f, float(w)), cy = mul_rn(0.5f, float(h));
  const float ux = sub_rn(float(x), cx), vy = sub_rn(float(y), cy);
  const float w_over_h = div_rn(float(w), float(h)),
              h_over_w = div_rn(float(h), float(w));  // exactly 1 when square
  return {add_rn(cx, sub_rn(mul_rn(ux, k.cos_s), mul_rn(mul_rn(vy, w_over_h), k.sin_s))),
          add_rn(cy, add_rn(mul_rn(vy, k.cos_s), mul_rn(mul_rn(ux, h_over_w), k.sin_s)))};
}
// end snippet

// Mirror with period 2n, the edge texel repeated: …, 1, 0 | 0, 1, …, n−1 | n−1, n−2, …
// This is OpenGL's MIRRORED_REPEAT at texel level, and what CUDA's cudaAddressModeMirror does on the
// H100 (measured: see "What the texture unit does").
GPULAB_HD int mirror_index(int i, int n) {
  const int period = 2 * n;
  int m = i % period;
  if (m < 0) m += period;
  return m < n ? m : period - 1 - m;
}

// Texel index i on an axis of n texels (n >= 1) mapped into [0, n), or −1 for a border texel.
GPULAB_HD int address_index(int i, int n, Address a) {
  if (i >= 0 && i < n) return i;
  switch (a) {
    case Address::Clamp:
      return i < 0 ? 0 : n - 1;
    case Address::Wrap: {
      const int m = i % n;
      return m < 0 ? m + n : m;
    }
    case Address::Mirror:
      return mirror_index(i, n);
    default:
      return -1;
  }
}

// Point filtering: the texel indices (each mapped, −1 for a border texel).
struct PointTap {
  int i, j;
};
GPULAB_HD PointTap point_tap(Coord s, int w, int h, Address a) {
  return {address_index(int(floorf(s.x)), w, a), address_index(int(floorf(s.y)), h, a)};
}

// Linear filtering: the four texels' indices (each mapped, −1 for a border texel) and weights.
struct LinearTaps {
  int i0, i1, j0, j1;
  float w00, w10, w01, w11;  // weight of texel (i0, j0), (i1, j0), (i0, j1), (i1, j1)
};
GPULAB_HD LinearTaps linear_taps(Coord s, int w, int h, Address a) {
  const float px = sub_rn(s.x, 0.5f), py = sub_rn(s.y, 0.5f);
  const float fx0 = floorf(px), fy0 = floorf(py);
  const float fx = sub_rn(px, fx0), fy = sub_rn(py, fy0);  // exact
  const float gx = sub_rn(1.0f, fx), gy = sub_rn(1.0f, fy);
  const int i = int(fx0), j = int(fy0);
  return {address_index(i, w, a), address_index(i + 1, w, a),
          address_index(j, h, a), address_index(j + 1, h, a),
          mul_rn(gx, gy),         mul_rn(fx, gy),
          mul_rn(gx, fy),         mul_rn(fx, fy)};
}
// The blend of the four texel values (0 for a border texel), in the definition's order.
GPULAB_HD float blend(const LinearTaps& t, float t00, float t10, float t01, float t11) {
  return add_rn(add_rn(add_rn(mul_rn(t.w00, t00), mul_rn(t.w10, t10)), mul_rn(t.w01, t01)),
                mul_rn(t.w11, t11));
}

// A filtered value (0..255; a little outside from rounding) to a byte: +0.5 and truncate.
GPULAB_HD uint8_t to_byte(float v) {
  const float r = add_rn(v, 0.5f);
  return r <= 0.0f ? uint8_t(0) : r >= 255.0f ? uint8_t(255) : uint8_t(r);
}

// ---------------------------------------------------------------------------------------------
// What the texture unit does, measured on an H100 (CUDA 13, driver 580) by sampling tex2D over 8-bit
// textures: 2x2 textures with one texel 255 over a 257x257 grid of fractions, random 61x47 grey and
// RGBA textures at 30000 random coordinates each, a 5x3 texture at 12000 coordinates from −3 to +4
// times its size in every address mode, point and linear, normalized coordinates on and off, over a
// cudaArray and over pitched memory. Every one of the ~800 000 samples matches this model byte for byte:
//  - Normalized coordinates: u is truncated to 21 fractional bits, floor(u·2^21), then scaled by the
//    texel count exactly. Unnormalized coordinates are used as given.
//  - Point: texel floor(X) of that coordinate (no rounding before the floor).
//  - Linear: X·256 rounded to nearest, ties up: the unit resolves positions to 1/256 texel. With
//    p = that − 128: i0 = p >> 8 (floor) and a = p & 255, the weight of column i0+1 in 256ths (b alike
//    for rows). The corner weight is w11 = (a·b + 128) >> 8, a·b/256 rounded ties up, and the other
//    three follow from it so that the four sum to 256: w10 = a − w11, w01 = b − w11,
//    w00 = 256 − a − b + w11. The filtered sum S = Σ w·T (T = 0..255) is exact; read as a normalized
//    float it comes back as S/65280 within float rounding, and to_byte(f·255) is (S + 128) >> 8.
//  - Address modes act on the texel indices as address_index does (mirror repeats the edge texel;
//    border texels are 0); wrap and mirror without normalized coordinates clamp.
// So the unit's weights are 8-bit fractions and its products too (the CUDA programming guide says of
// the first: "9-bit fixed point format with 8 bits of fractional value"). The hand-written `global`
// variant follows this model with these functions, and rotate_unit_cpu evaluates it on the host.

// The coordinate a kernel hands to tex2D: texel units, or divided by the size for normalized ones.
GPULAB_HD Coord texture_coord(Coord s, int w, int h, bool normalized) {
  return normalized ? Coord{div_rn(s.x, float(w)), div_rn(s.y, float(h))} : s;
}

// floor(u·2^21): the unit's normalized coordinate (u·2^21 and its floor are exact in float).
GPULAB_HD int64_t unit_fixed_u(float u) { return int64_t(floorf(mul_rn(u, 2097152.0f))); }

// The texel index point filtering picks on an axis of n texels (before the address mode); c is the
// texture coordinate (texture_coord).
GPULAB_HD int unit_point_index(float c, int n, bool normalized) {
  if (!normalized) return int(floorf(c));
  return int((unit_fixed_u(c) * n) >> 21);  // arithmetic shift: floor also below 0
}

// The position linear filtering resolves on an axis of n texels, in 256ths of a texel: X·256 rounded
// to nearest, ties up.
GPULAB_HD int64_t unit_linear_fixed(float c, int n, bool normalized) {
  if (normalized) return (unit_fixed_u(c) * n + (int64_t(1) << 12)) >> 13;  // (X·2^21·256 + half) / 2^21
  const float t = mul_rn(c, 256.0f);                                        // exact
  if (t > -1.0f && t < 0.0f) return t >= -0.5f ? 0 : -1;  // t − floor(t) would not be exact here
  const float f = floorf(t);
  return int64_t(f) + (sub_rn(t, f) >= 0.5f ? 1 : 0);  // t − f is exact (Sterbenz) outside (−1, 0)
}

GPULAB_HD PointTap unit_point_tap(Coord c, int w, int h, bool normalized, Address a) {
  return {address_index(unit_point_index(c.x, w, normalized), w, a),
          address_index(unit_point_index(c.y, h, normalized), h, a)};
}

// Linear filtering as the unit does it: the four texels' indices (−1 for a border texel) and integer
// weights in 256ths that sum to 256.
struct UnitTaps {
  int i0, i1, j0, j1;
  int a, b;  // the 8-bit fractions (weights of column i1 and row j1)
  int w00, w10, w01, w11;
};
GPULAB_HD UnitTaps unit_linear_taps(Coord c, int w, int h, bool normalized, Address mode) {
  const int64_t px = unit_linear_fixed(c.x, w, normalized) - 128,
                py = unit_linear_fixed(c.y, h, normalized) - 128;
  const int i = int(px >> 8), j = int(py >> 8);
  const int a = int(px & 255), b = int(py & 255);
  const int w11 = (a * b + 128) >> 8;
  return {address_index(i, w, mode),
          address_index(i + 1, w, mode),
          address_index(j, h, mode),
          address_index(j + 1, h, mode),
          a,
          b,
          256 - a - b + w11,
          a - w11,
          b - w11,
          w11};
}
// The filtered byte from the four texel values (0 for a border texel): (S + 128) >> 8.
GPULAB_HD uint8_t unit_blend(const UnitTaps& t, int t00, int t10, int t01, int t11) {
  const int s = t.w00 * t00 + t.w10 * t10 + t.w01 * t01 + t.w11 * t11;  // <= 256·255
  return uint8_t((s + 128) >> 8);
}

// ---------------------------------------------------------------------------------------------
// The source texels an output tile reads, row by row: what tex-pitch-prefetch asks the L2 to fetch
// ahead of the block that will read them. The tile's sample points (source_coord of its pixels) lie
// in the parallelogram of its four corner pixels' points. Texel row j is read by the samples with
// sy in [j − 0.5, j + 1.5) (linear: rows floor(sy − 0.5) and the next; point: floor(sy)); on that row,
// by the columns around those samples' x range, the same way. The unit's rounding (1/256 texel, the
// 21-bit normalized coordinate: < 1/64 texel below 32768 texels) and the float error of the clipping
// are covered by a quarter texel more on the slab and a texel more on each side. Everything is
// clamped into the image: texels that wrap, mirror or clamp in from elsewhere are not included.
struct TileFootprint {
  Coord corner[4];  // in order around the parallelogram
  int j0, j1;       // its rows in the image; none when j0 > j1
};
struct Span {
  int i0, i1;  // columns in the image; none when i0 > i1
};
// Output pixels x0..x1, y0..y1 (inclusive) of a w x h image.
GPULAB_HD TileFootprint tile_footprint(int x0, int y0, int x1, int y1, int w, int h, Coefficients k) {
  TileFootprint f;
  f.corner[0] = source_coord(x0, y0, w, h, k);
  f.corner[1] = source_coord(x1, y0, w, h, k);
  f.corner[2] = source_coord(x1, y1, w, h, k);
  f.corner[3] = source_coord(x0, y1, w, h, k);
  float ymin = f.corner[0].y, ymax = ymin;
  for (int c = 1; c < 4; ++c) {
    ymin = fminf(ymin, f.corner[c].y);
    ymax = fmaxf(ymax, f.corner[c].y);
  }
  const int j0 = int(floorf(ymin - 0.75f)) - 1, j1 = int(floorf(ymax + 0.75f)) + 1;
  f.j0 = j0 < 0 ? 0 : j0;
  f.j1 = j1 > h - 1 ? h - 1 : j1;
  return f;
}
// The columns of row j the tile reads: its parallelogram clipped to the row's slab (the clipped
// polygon's corners are the corners inside the slab and the edges' crossings of its two bounds).
GPULAB_HD Span footprint_row(const TileFootprint& f, int j, int w) {
  const float ya = float(j) - 0.75f, yb = float(j) + 1.75f;
  float a = 3.0e38f, b = -3.0e38f;
  for (int e = 0; e < 4; ++e) {
    const Coord u = f.corner[e], v = f.corner[(e + 1) & 3];
    if (u.y >= ya && u.y <= yb) {
      a = fminf(a, u.x);
      b = fmaxf(b, u.x);
    }
    const float dy = v.y - u.y;
    if (dy == 0.0f) continue;
    for (int s = 0; s < 2; ++s) {
      const float t = ((s ? yb : ya) - u.y) / dy;
      if (t >= 0.0f && t <= 1.0f) {
        const float x = u.x + t * (v.x - u.x);
        a = fminf(a, x);
        b = fmaxf(b, x);
      }
    }
  }
  if (!(a <= b)) return {0, -1};
  const int i0 = int(floorf(a - 0.5f)) - 1, i1 = int(floorf(b + 0.5f)) + 1;
  return {i0 < 0 ? 0 : i0, i1 > w - 1 ? w - 1 : i1};
}

// ---------------------------------------------------------------------------------------------
// CPU reference. Any image of 1..4 channels (a 0 x 0 one gives itself); the output has the input's
// size and channels. Throws std::invalid_argument for bad params (check_params' message) or an
// image whose pixels do not match its size. Rows are shared among threads for large images; the
// result does not depend on how.
image::Image rotate_cpu(const image::Image& src, const Params& p);
// The same with the lecture's unfixed coordinates (lecture_source_coord), same filters and modes.
image::Image rotate_lecture_cpu(const image::Image& src, const Params& p);

// ---------------------------------------------------------------------------------------------
// Texture options beyond Params, as CUDA's texture descriptor has them, and the variant table.
enum class ReadMode : uint8_t { ElementType, NormalizedFloat };
inline std::string_view name(ReadMode r) { return r == ReadMode::ElementType ? "element" : "normalized"; }
struct Settings {
  Params params;
  bool normalized = true;  // normalized texture coordinates (u = sx / W)
  ReadMode read_mode = ReadMode::NormalizedFloat;
};

// How far (in levels) a linear-filtered byte of the unit may lie from the float definition's, for a
// w x h image rotated with settings s (derived, not fitted):
//   the filtered value is bilinear in (fx, fy) with |∂/∂fx|, |∂/∂fy| <= 255; the unit's fractions
//   are off by at most 1/512 each (rounded to 256ths), plus, with normalized coordinates, the 21-bit
//   truncation (< n/2^21 texel) and the float rounding of u = sx/n (<= |sx|·2^-24 texel); rounding
//   w11 to 256ths moves the value by at most (1/512)·|T00 − T10 − T01 + T11| <= 510/512. So the
//   values differ by at most e = 255·(dx + dy) + 510/512 (about 1.99 without normalized
//   coordinates), and two values at most e apart round to bytes at most ceil(e) apart.
int unit_linear_bound(int w, int h, const Settings& s);

// The unit model (above) on the host: what a texture variant gives for settings s, which must be what
// it runs with (effective). Point filtering differs from rotate_cpu only where the unit's coordinate
// falls in another texel than the float definition's (unit_point_tap != point_tap); linear
// filtering by at most unit_linear_bound. `lecture`: at lecture_source_coord. Throws as rotate_cpu.
image::Image rotate_unit_cpu(const image::Image& src, const Settings& s, bool lecture = false);

enum class Backend : uint8_t { Cpu, Cuda };
enum class Kind : uint8_t { Cpu, TexArray, TexPitch, Global, Lecture };
// The record (blocks: square output tiles a block covers, 16 -> 16x16 pixels, empty for the CPU;
// kernel: a Kind) and rotation's columns.
struct Variant : VariantRecord {
  Backend backend;
  int per_thread = 1;        // output pixels a thread writes, side by side in a row (a tile of b x b pixels
                             // is then b/per_thread x b threads)
  bool l2_prefetch = false;  // each block prefetches into L2 the source rows of a block launched later
  Kind kind() const { return kernel.as<Kind>(); }
};
std::span<const Variant> variants();
const Variant* find_variant(std::string_view id);

// "" when CUDA allows `s` for variant v, else what CUDA does not allow and what happens instead (the
// panel shows it; the variant then runs with what CUDA does): linear filtering of 8-bit textures needs
// the normalized-float read mode; wrap and mirror need normalized coordinates (without them CUDA clamps,
// and the hand-written global variant does what the texture unit does). The cpu variant is the
// definition and has no restrictions.
std::string cuda_restriction(const Variant& v, const Settings& s);
// The settings a variant actually runs with (the restrictions applied: element-type reads with linear
// filtering read normalized floats; wrap and mirror without normalized coordinates clamp). The CPU
// reference of a variant's output is rotate_cpu with effective(v, s).params.
Settings effective(const Variant& v, const Settings& s);

// ---------------------------------------------------------------------------------------------
// An engine holds one source image (1 channel, or 2..4 kept as 4: RGBA8 textures) and its rotated
// output on its backend.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual Backend backend() const = 0;
  virtual std::string_view device_name() const = 0;
  // Replaces the source. Throws GpuError (out of memory; the previous image stays) or
  // std::invalid_argument (an empty image or a channel count outside 1..4).
  virtual void upload(const image::Image& src) = 0;
  virtual int width() const = 0;
  virtual int height() const = 0;
  // Rotates with variant v (of this engine's backend) at `block` (one of v.blocks; ignored on the CPU)
  // into the engine's output. Never synchronises on the GPU. Throws std::invalid_argument for bad params.
  virtual void run(const Variant& v, int block, const Settings& s) = 0;
  // The output with the source's channels (waits for the GPU).
  virtual image::Image output() = 0;
  // The output as RGBA8 (grey replicated, alpha 255 where the source has none), row 0 at the top:
  // output() converted.
  void compose(uint8_t* h_rgba);
};
// What every engine's upload refuses (std::invalid_argument): an empty image, channels outside
// 1..4, pixels that do not match the size.
void check_upload(const image::Image& src);
std::unique_ptr<Engine> make_cpu_engine();

}  // namespace gpulab::rotate

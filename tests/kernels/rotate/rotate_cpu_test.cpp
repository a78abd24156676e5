// The CPU reference of texture rotation against rotate.h's definition: the identity at angle 0,
// quarter and half turns as the permutations the definition gives, each address mode's texels at
// the corners of a zoomed-out image (indices worked out by hand), hand-computed bilinear blends and
// the rounding of ties, odd and degenerate sizes, 1..4 channels, refused parameters, the lecture's
// half-texel shift, a double-precision reading of the definition at arbitrary angles, and the
// generated "filter-test" image.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "image/image.h"
#include "rotate/rotate.h"
#include "support/rotate_params.h"

namespace gpulab::rotate {
namespace {

using image::Image;
using testing::params;
using testing::settings;

// Distinct, non-zero values (a border texel reads 0), different in every channel.
Image distinct(int w, int h, int c) {
  Image img;
  img.width = w;
  img.height = h;
  img.channels = c;
  img.pixels.resize(size_t(w) * size_t(h) * size_t(c));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int ch = 0; ch < c; ++ch)
        img.pixels[(size_t(y) * size_t(w) + size_t(x)) * size_t(c) + size_t(ch)] =
            uint8_t(1 + (y * w + x + 37 * ch) % 251);
  return img;
}

// Pseudo-random bytes (a fixed LCG).
Image random_image(int w, int h, int c, uint64_t seed) {
  Image img;
  img.width = w;
  img.height = h;
  img.channels = c;
  img.pixels.resize(size_t(w) * size_t(h) * size_t(c));
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& v : img.pixels) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v = uint8_t(s >> 56);
  }
  return img;
}

Image make(int w, int h, int c, std::vector<uint8_t> px) {
  Image img;
  img.width = w;
  img.height = h;
  img.channels = c;
  img.pixels = std::move(px);
  return img;
}

uint8_t at(const Image& img, int x, int y, int ch) {
  return img.pixels[(size_t(y) * size_t(img.width) + size_t(x)) * size_t(img.channels) + size_t(ch)];
}

// out(x, y) = src(fx(x, y), fy(x, y)), or 0 where the function gives a texel outside the image.
template <class Map>
Image remapped(const Image& src, Map map) {
  Image out = src;
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x) {
      const auto [i, j] = map(x, y);
      for (int ch = 0; ch < src.channels; ++ch) {
        const bool inside = i >= 0 && j >= 0 && i < src.width && j < src.height;
        out.pixels[(size_t(y) * size_t(src.width) + size_t(x)) * size_t(src.channels) + size_t(ch)] =
            inside ? at(src, i, j, ch) : uint8_t(0);
      }
    }
  return out;
}

std::string label(const Image& img, Filter f, Address a) {
  return std::to_string(img.width) + "x" + std::to_string(img.height) + "x" + std::to_string(img.channels) +
         " " + std::string(name(f)) + " " + std::string(name(a));
}

struct Size {
  int w, h;
};
constexpr Size kOddSizes[] = {{1, 1}, {1, 9}, {9, 1}, {7, 5}, {5, 7}, {6, 4}, {2, 3}, {33, 17}};

// ---------------------------------------------------------------------------------------------

TEST(RotateParams, NamesAndIdsRoundTrip) {
  EXPECT_EQ(name(Address::Wrap), "wrap");
  EXPECT_EQ(name(Address::Clamp), "clamp");
  EXPECT_EQ(name(Address::Mirror), "mirror");
  EXPECT_EQ(name(Address::Border), "border");
  EXPECT_EQ(name(Filter::Point), "point");
  EXPECT_EQ(name(Filter::Linear), "linear");
  for (Address a : kAddresses) EXPECT_EQ(parse_address(name(a)), a);
  for (Filter f : kFilters) EXPECT_EQ(parse_filter(name(f)), f);
  EXPECT_FALSE(parse_address("repeat").has_value());
  EXPECT_FALSE(parse_address("").has_value());
  EXPECT_FALSE(parse_filter("bilinear").has_value());
  const Params d;
  EXPECT_EQ(d.angle_deg, 0.0f);
  EXPECT_EQ(d.scale, 1.0f);
  EXPECT_EQ(d.filter, Filter::Linear);
  EXPECT_EQ(d.address, Address::Border);
}

TEST(RotateParams, NonFiniteAngleOrScaleAndBadScalesAreRefused) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Image img = distinct(4, 3, 1);
  for (float angle : {nan, inf, -inf}) {
    const Params p = params(angle, 1, Filter::Linear, Address::Border);
    const std::string why = check_params(p);
    EXPECT_NE(why.find("angle"), std::string::npos) << why;
    EXPECT_THROW(rotate_cpu(img, p), std::invalid_argument);
    EXPECT_THROW(rotate_lecture_cpu(img, p), std::invalid_argument);
  }
  for (float scale : {nan, inf, -inf, 0.0f, -0.0f, -1.0f, 1.0f / 128, 65.0f, 1e30f}) {
    const Params p = params(0, scale, Filter::Point, Address::Clamp);
    const std::string why = check_params(p);
    EXPECT_NE(why.find("scale"), std::string::npos) << scale << ": " << why;
    EXPECT_THROW(rotate_cpu(img, p), std::invalid_argument) << scale;
  }
  for (auto [angle, scale] :
       {std::pair{0.0f, 1.0f}, std::pair{-720.0f, 1.0f / 64}, std::pair{1e6f, 64.0f}, std::pair{33.3f, 0.5f}})
    EXPECT_EQ(check_params(params(angle, scale, Filter::Linear, Address::Wrap)), "") << angle << " " << scale;
}

TEST(RotateParams, BadImagesAreRefusedAndEmptyOnesPassThrough) {
  const Params p;
  EXPECT_THROW(rotate_cpu(make(2, 2, 5, std::vector<uint8_t>(20)), p), std::invalid_argument);
  EXPECT_THROW(rotate_cpu(make(2, 2, 0, {}), p), std::invalid_argument);
  EXPECT_THROW(rotate_cpu(make(2, 2, 1, std::vector<uint8_t>(3)), p), std::invalid_argument);
  for (Size s : {Size{0, 0}, Size{0, 5}, Size{5, 0}}) {
    const Image empty = make(s.w, s.h, 3, {});
    EXPECT_EQ(rotate_cpu(empty, params(30, 2, Filter::Linear, Address::Wrap)), empty);
  }
}

TEST(RotateCoefficients, QuarterTurnsAreExact) {
  auto k = [](float angle, float scale) {
    return coefficients(params(angle, scale, Filter::Point, Address::Clamp));
  };
  EXPECT_EQ(k(0, 1).cos_s, 1.0f);
  EXPECT_EQ(k(0, 1).sin_s, 0.0f);
  EXPECT_EQ(k(90, 1).cos_s, 0.0f);
  EXPECT_EQ(k(90, 1).sin_s, 1.0f);
  EXPECT_EQ(k(-90, 1).sin_s, -1.0f);
  EXPECT_EQ(k(270, 1).sin_s, -1.0f);
  EXPECT_EQ(k(450, 1).sin_s, 1.0f);
  EXPECT_EQ(k(-270, 1).sin_s, 1.0f);
  EXPECT_EQ(k(180, 2).cos_s, -0.5f);
  EXPECT_EQ(k(180, 2).sin_s, 0.0f);
  EXPECT_EQ(k(360, 4).cos_s, 0.25f);
  EXPECT_NEAR(k(30, 2).cos_s, std::sqrt(3.0) / 4, 1e-7);
  EXPECT_NEAR(k(30, 2).sin_s, 0.25, 1e-7);
}

TEST(RotateAddress, IndicesAsDefined) {
  // n = 3, i = -6 .. 8 (worked out by hand from the definition)
  const int clamp[] = {0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 2, 2};
  const int border[] = {-1, -1, -1, -1, -1, -1, 0, 1, 2, -1, -1, -1, -1, -1, -1};
  const int wrap[] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
  const int mirror[] = {0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2};  // …1, 0 | 0, 1, 2 | 2, 1…
  for (int k = 0; k < 15; ++k) {
    const int i = k - 6;
    EXPECT_EQ(address_index(i, 3, Address::Clamp), clamp[k]) << i;
    EXPECT_EQ(address_index(i, 3, Address::Border), border[k]) << i;
    EXPECT_EQ(address_index(i, 3, Address::Wrap), wrap[k]) << i;
    EXPECT_EQ(address_index(i, 3, Address::Mirror), mirror[k]) << i;
    EXPECT_EQ(mirror_index(i, 3), mirror[k]) << i;
  }
  for (int i = -5; i <= 5; ++i) {  // one texel: every mode but border reads it
    EXPECT_EQ(address_index(i, 1, Address::Clamp), 0);
    EXPECT_EQ(address_index(i, 1, Address::Wrap), 0);
    EXPECT_EQ(address_index(i, 1, Address::Mirror), 0);
    EXPECT_EQ(address_index(i, 1, Address::Border), i == 0 ? 0 : -1);
  }
}

// ---------------------------------------------------------------------------------------------

TEST(RotateCpu, AngleZeroScaleOneIsTheIdentity) {
  for (int c = 1; c <= 4; ++c)
    for (Size s : kOddSizes) {
      const Image img = random_image(s.w, s.h, c, uint64_t(s.w * 100 + s.h + c));
      for (Filter f : kFilters)
        for (Address a : kAddresses) {
          EXPECT_EQ(rotate_cpu(img, params(0, 1, f, a)), img) << label(img, f, a);
          EXPECT_EQ(rotate_cpu(img, params(360, 1, f, a)), img) << label(img, f, a);
        }
    }
}

// At 90° (cos 0, sin 1) a N x N image gives sx = N/2 − dy = N − y − 0.5 and sy = N/2 + dx = x + 0.5:
// out(x, y) = in(N − 1 − y, x), texel centres only, so both filters give exactly that.
TEST(RotateCpu, QuarterTurnIsThePermutationAndFourReturnTheImage) {
  for (int n : {1, 2, 5, 6, 7, 16})
    for (int c : {1, 4}) {
      const Image img = random_image(n, n, c, uint64_t(n * 10 + c));
      const Image expected = remapped(img, [n](int x, int y) { return std::pair{n - 1 - y, x}; });
      for (Filter f : kFilters)
        for (Address a : kAddresses) {
          const Image once = rotate_cpu(img, params(90, 1, f, a));
          EXPECT_EQ(once, expected) << label(img, f, a);
          EXPECT_EQ(rotate_cpu(img, params(-270, 1, f, a)), expected) << label(img, f, a);
          Image turned = img;
          for (int k = 0; k < 4; ++k) turned = rotate_cpu(turned, params(90, 1, f, a));
          EXPECT_EQ(turned, img) << label(img, f, a);
          EXPECT_EQ(rotate_cpu(rotate_cpu(img, params(90, 1, f, a)), params(-90, 1, f, a)), img)
              << label(img, f, a);
        }
    }
}

// At 180°: sx = W − x − 0.5, sy = H − y − 0.5, so out(x, y) = in(W − 1 − x, H − 1 − y) for any size.
TEST(RotateCpu, HalfTurnReversesThePixelsForAnySize) {
  std::vector<Size> sizes(std::begin(kOddSizes), std::end(kOddSizes));
  sizes.push_back({1000, 701});  // large enough for the threaded path
  for (Size s : sizes)
    for (int c = 1; c <= 4; ++c) {
      if (s.w * s.h > 10000 && c != 3) continue;
      const Image img = random_image(s.w, s.h, c, uint64_t(s.w + 7 * s.h + c));
      const Image reversed = remapped(img, [&](int x, int y) { return std::pair{s.w - 1 - x, s.h - 1 - y}; });
      for (Filter f : kFilters)
        for (Address a : kAddresses) {
          const Image once = rotate_cpu(img, params(180, 1, f, a));
          EXPECT_EQ(once, reversed) << label(img, f, a);
          EXPECT_EQ(rotate_cpu(once, params(180, 1, f, a)), img) << label(img, f, a);
          EXPECT_EQ(rotate_cpu(img, params(-180, 1, f, a)), reversed) << label(img, f, a);
        }
    }
}

// Zoomed out, the corners sample texels outside the image.
// 5x3 at scale 1/4: sx = 2.5 + 4·(x + 0.5 − 2.5) = 4x − 5.5, sy = 1.5 + 4·(y + 0.5 − 1.5) = 4y − 2.5:
//   point texels i = −6, −2, 2, 6, 10 and j = −3, 1, 5; linear samples sx − 0.5 = 4x − 6 and
//   sy − 0.5 = 4y − 3, integers, so it reads the same texels with weight 1.
// 3x2 at scale 1/2: sx = 2x − 0.5, sy = 2y: point texels i = −1, 1, 3 and j = 0, 2.
struct CornerCase {
  Address mode;
  std::vector<int> i, j;  // the texel each output column / row reads, −1 for border (0)
};
void expect_corners(int w, int h, float scale, const std::vector<CornerCase>& cases, bool linear_too) {
  for (int c : {1, 2, 4}) {
    const Image img = distinct(w, h, c);
    for (const CornerCase& cc : cases) {
      const Image expected = remapped(img, [&](int x, int y) {
        return std::pair{cc.i[size_t(x)], cc.j[size_t(y)]};
      });
      EXPECT_EQ(rotate_cpu(img, params(0, scale, Filter::Point, cc.mode)), expected)
          << label(img, Filter::Point, cc.mode);
      if (linear_too) {
        EXPECT_EQ(rotate_cpu(img, params(0, scale, Filter::Linear, cc.mode)), expected)
            << label(img, Filter::Linear, cc.mode);
      }
    }
  }
}

TEST(RotateCpu, AddressModesReadTheCornersAsDefined) {
  expect_corners(5, 3, 0.25f,
                 {
                     {Address::Clamp, {0, 0, 2, 4, 4}, {0, 1, 2}},
                     {Address::Border, {-1, -1, 2, -1, -1}, {-1, 1, -1}},
                     {Address::Wrap, {4, 3, 2, 1, 0}, {0, 1, 2}},
                     {Address::Mirror, {4, 1, 2, 3, 0}, {2, 1, 0}},
                 },
                 true);
  expect_corners(3, 2, 0.5f,
                 {
                     {Address::Clamp, {0, 1, 2}, {0, 1}},
                     {Address::Border, {-1, 1, -1}, {0, -1}},
                     {Address::Wrap, {2, 1, 0}, {0, 0}},
                     {Address::Mirror, {0, 1, 2}, {0, 1}},
                 },
                 false);
}

// 2x2 at scale 2: sx = 1 + (x + 0.5 − 1) / 2 = 0.75, 1.25, so sx − 0.5 = 0.25, 0.75 between texels
// 0 and 1 (the same in y); all four taps inside, so every address mode gives the same.
TEST(RotateCpu, LinearBlendsAsTheDefinitionWeighs) {
  const Image img = make(2, 2, 1, {0, 100, 200, 40});  // T00 T10 / T01 T11
  // (0,0): fx = fy = 1/4: 0.5625·0 + 0.1875·100 + 0.1875·200 + 0.0625·40 = 58.75 -> 59
  // (1,0): fx = 3/4, fy = 1/4: 0.1875·0 + 0.5625·100 + 0.0625·200 + 0.1875·40 = 76.25 -> 76
  // (0,1): fx = 1/4, fy = 3/4: 0.1875·0 + 0.0625·100 + 0.5625·200 + 0.1875·40 = 126.25 -> 126
  // (1,1): fx = fy = 3/4: 0.0625·0 + 0.1875·100 + 0.1875·200 + 0.5625·40 = 78.75 -> 79
  for (Address a : kAddresses)
    EXPECT_EQ(rotate_cpu(img, params(0, 2, Filter::Linear, a)), make(2, 2, 1, {59, 76, 126, 79})) << name(a);
  // Point at the same positions: floor(0.75) = 0, floor(1.25) = 1: the image itself.
  for (Address a : kAddresses) EXPECT_EQ(rotate_cpu(img, params(0, 2, Filter::Point, a)), img) << name(a);
  // Four channels, each blended on its own, alpha too.
  const Image rgba = make(2, 2, 4, {0, 10, 255, 4, 100, 10, 0, 8, 200, 10, 255, 12, 40, 10, 0, 16});
  const Image out = rotate_cpu(rgba, params(0, 2, Filter::Linear, Address::Clamp));
  // channel 1 is 10 everywhere; channel 2: (0,0) = 0.5625·255 + 0.1875·0 + 0.1875·255 + 0 = 191.25 -> 191;
  // channel 3 (alpha): (0,0) = 0.5625·4 + 0.1875·8 + 0.1875·12 + 0.0625·16 = 7 -> 7
  EXPECT_EQ(at(out, 0, 0, 0), 59);
  EXPECT_EQ(at(out, 0, 0, 1), 10);
  EXPECT_EQ(at(out, 0, 0, 2), 191);
  EXPECT_EQ(at(out, 0, 0, 3), 7);
  EXPECT_EQ(at(out, 1, 1, 3), 13);  // 0.0625·4 + 0.1875·8 + 0.1875·12 + 0.5625·16 = 13
}

// 2x1 at scale 2: sx − 0.5 = 0.25, 0.75 (sy − 0.5 = 0: row 0 with weight 1). With 10 and 12 the
// blends are 10.5 and 11.5: +0.5 and truncate gives 11 and 12 (ties up; rintf would give 10, 12).
TEST(RotateCpu, TiesRoundUp) {
  for (Address a : kAddresses) {
    EXPECT_EQ(rotate_cpu(make(2, 1, 1, {10, 12}), params(0, 2, Filter::Linear, a)), make(2, 1, 1, {11, 12}))
        << name(a);
    EXPECT_EQ(rotate_cpu(make(2, 1, 1, {0, 2}), params(0, 2, Filter::Linear, a)), make(2, 1, 1, {1, 2}))
        << name(a);
  }
  EXPECT_EQ(to_byte(0.5f), 1);
  EXPECT_EQ(to_byte(1.4999f), 1);
  EXPECT_EQ(to_byte(254.5f), 255);
  EXPECT_EQ(to_byte(255.0001f), 255);
  EXPECT_EQ(to_byte(-0.0001f), 0);
}

TEST(RotateCpu, OneTexelImagesGiveTheirTexelUnlessTheBorderIsRead) {
  const Image one = make(1, 1, 2, {77, 200});
  for (float angle : {0.0f, 37.0f, 90.0f, 181.0f})
    for (float scale : {0.25f, 1.0f, 3.0f}) {
      for (Address a : {Address::Clamp, Address::Wrap, Address::Mirror}) {
        EXPECT_EQ(rotate_cpu(one, params(angle, scale, Filter::Point, a)), one) << angle << " " << scale;
        EXPECT_EQ(rotate_cpu(one, params(angle, scale, Filter::Linear, a)), one) << angle << " " << scale;
      }
      // The only pixel's centre maps onto the texel's centre (0.5, 0.5) at any angle and scale.
      EXPECT_EQ(rotate_cpu(one, params(angle, scale, Filter::Point, Address::Border)), one);
    }
}

// ---------------------------------------------------------------------------------------------
// A double-precision reading of the definition, written independently of rotate.h's helpers.

int reference_index(int i, int n, Address a) {
  if (i >= 0 && i < n) return i;
  switch (a) {
    case Address::Clamp:
      return std::clamp(i, 0, n - 1);
    case Address::Border:
      return -1;
    case Address::Wrap:
      return ((i % n) + n) % n;
    case Address::Mirror:
      while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;  // reflect about the edge
      return i;
  }
  return -1;
}

TEST(RotateCpu, AgreesWithADoublePrecisionReadingOfTheDefinition) {
  const Image img = random_image(13, 9, 2, 5);
  const int w = img.width, h = img.height;
  for (float angle : {17.0f, 30.0f, 45.0f, 90.5f, -123.0f, 200.0f})
    for (float scale : {0.3f, 1.0f, 1.7f})
      for (Filter f : kFilters)
        for (Address a : kAddresses) {
          const Image out = rotate_cpu(img, params(angle, scale, f, a));
          const double t = double(angle) * 3.14159265358979323846 / 180, cs = std::cos(t), sn = std::sin(t);
          int checked = 0;
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
              const double dx = x + 0.5 - w / 2.0, dy = y + 0.5 - h / 2.0;
              const double sx = w / 2.0 + (dx * cs - dy * sn) / scale,
                           sy = h / 2.0 + (dy * cs + dx * sn) / scale;
              auto texel = [&](int i, int j, int ch) {
                const int ii = reference_index(i, w, a), jj = reference_index(j, h, a);
                return ii < 0 || jj < 0 ? 0.0 : double(at(img, ii, jj, ch));
              };
              for (int ch = 0; ch < 2; ++ch) {
                const int got = at(out, x, y, ch);
                if (f == Filter::Point) {
                  // Where the sample is within float rounding of a texel edge, either texel is right.
                  if (std::abs(sx - std::round(sx)) < 1e-4 || std::abs(sy - std::round(sy)) < 1e-4) continue;
                  EXPECT_EQ(got, texel(int(std::floor(sx)), int(std::floor(sy)), ch))
                      << label(img, f, a) << " " << angle << "° x" << scale << " at " << x << "," << y;
                } else {
                  const double px = sx - 0.5, py = sy - 0.5, i0 = std::floor(px), j0 = std::floor(py);
                  const double fx = px - i0, fy = py - j0;
                  const int i = int(i0), j = int(j0);
                  const double v = (1 - fx) * (1 - fy) * texel(i, j, ch) +
                                   fx * (1 - fy) * texel(i + 1, j, ch) + (1 - fx) * fy * texel(i, j + 1, ch) +
                                   fx * fy * texel(i + 1, j + 1, ch);
                  EXPECT_NEAR(got, v, 0.5 + 1e-3)
                      << label(img, f, a) << " " << angle << "° x" << scale << " at " << x << "," << y;
                }
                ++checked;
              }
            }
          EXPECT_GT(checked, w * h);  // most pixels were compared
        }
}

TEST(RotateCpu, PositiveAnglesTurnCounterClockwiseAsDisplayed) {
  // A bright top-right texel of a 4x4 image lands top left after 90°.
  Image img = make(4, 4, 1, std::vector<uint8_t>(16, 0));
  img.pixels[3] = 255;
  const Image out = rotate_cpu(img, params(90, 1, Filter::Point, Address::Border));
  EXPECT_EQ(at(out, 0, 0, 0), 255);
  EXPECT_EQ(std::count(out.pixels.begin(), out.pixels.end(), 255), 1);
}

// ---------------------------------------------------------------------------------------------
// The lecture's formula samples at (x, y) where the definition samples at (x + 0.5, y + 0.5).

TEST(RotateLecture, AtAngleZeroLinearAveragesTheTexelUpAndLeft) {
  for (Size s : {Size{6, 6}, Size{7, 5}, Size{1, 4}})
    for (int c : {1, 4}) {
      const Image img = random_image(s.w, s.h, c, uint64_t(s.w * s.h + c));
      // Point: floor(x) = x, so the image itself.
      for (Address a : kAddresses)
        EXPECT_EQ(rotate_lecture_cpu(img, params(0, 1, Filter::Point, a)), img)
            << label(img, Filter::Point, a);
      // Linear, border: fx = fy = 1/2 between texels x−1, x and y−1, y (0 outside): (sum + 2) / 4.
      Image expected = img;
      for (int y = 0; y < s.h; ++y)
        for (int x = 0; x < s.w; ++x)
          for (int ch = 0; ch < c; ++ch) {
            int sum = 0;
            for (int j : {y - 1, y})
              for (int i : {x - 1, x})
                if (i >= 0 && j >= 0) sum += at(img, i, j, ch);
            expected.pixels[(size_t(y) * size_t(s.w) + size_t(x)) * size_t(c) + size_t(ch)] =
                uint8_t((sum + 2) / 4);
          }
      const Image out = rotate_lecture_cpu(img, params(0, 1, Filter::Linear, Address::Border));
      EXPECT_EQ(out, expected) << label(img, Filter::Linear, Address::Border);
      EXPECT_NE(out, img);
    }
  // A tie in the lecture's average: (10 + 11 + 10 + 11) / 4 = 10.5 -> 11.
  const Image tie = make(2, 2, 1, {10, 11, 10, 11});
  EXPECT_EQ(at(rotate_lecture_cpu(tie, params(0, 1, Filter::Linear, Address::Clamp)), 1, 1, 0), 11);
}

TEST(RotateLecture, HalfTurnIsShiftedByAWholePixel) {
  // sx = W/2 − (x − W/2) = W − x: texel (W − x, H − y), outside for x = 0 or y = 0 (border: 0),
  // where the definition reads (W − 1 − x, H − 1 − y).
  for (Size s : {Size{6, 6}, Size{7, 5}, Size{4, 9}}) {
    const Image img = distinct(s.w, s.h, 1);
    const Image expected = remapped(img, [&](int x, int y) { return std::pair{s.w - x, s.h - y}; });
    const Image out = rotate_lecture_cpu(img, params(180, 1, Filter::Point, Address::Border));
    EXPECT_EQ(out, expected) << s.w << "x" << s.h;
    EXPECT_EQ(at(out, 0, 0, 0), 0);
    EXPECT_NE(out, rotate_cpu(img, params(180, 1, Filter::Point, Address::Border)));
  }
}

TEST(RotateLecture, SourceCoordinatesDifferByHalfATexelBeforeRotation) {
  // At angle 0 scale 1 exactly (x, y) against (x + 0.5, y + 0.5).
  const Coefficients k{1, 0};
  for (auto [x, y] : {std::pair{0, 0}, std::pair{3, 2}, std::pair{6, 4}}) {
    const Coord fixed = source_coord(x, y, 7, 5, k), lecture = lecture_source_coord(x, y, 7, 5, k);
    EXPECT_EQ(fixed.x, float(x) + 0.5f);
    EXPECT_EQ(fixed.y, float(y) + 0.5f);
    EXPECT_EQ(lecture.x, float(x));
    EXPECT_EQ(lecture.y, float(y));
  }
}

// ---------------------------------------------------------------------------------------------
// The demo's default image.

TEST(RotateFilterTestImage, IsListedDeterministicAndGrey) {
  const image::Generated* g = image::find_generated("filter-test");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->width, 512);
  EXPECT_EQ(g->height, 512);
  EXPECT_EQ(g->channels, 1);
  const Image a = image::generate(*g), b = image::generate("filter-test", 512, 512);
  EXPECT_EQ(a.width, 512);
  EXPECT_EQ(a.height, 512);
  EXPECT_EQ(a.channels, 1);
  EXPECT_EQ(a.pixels.size(), size_t(512) * 512);
  EXPECT_EQ(a, b);
  for (int n = 1; n <= 8; ++n) {  // the quadrant layout at tiny sizes
    const Image tiny = image::generate("filter-test", n, n + 1);
    EXPECT_EQ(tiny.pixels.size(), size_t(n) * size_t(n + 1));
  }
}

TEST(RotateFilterTestImage, HasDetailUpToThePixelGrid) {
  const Image img = image::generate(*image::find_generated("filter-test"));
  // The row through the zone plate's centre (top-left quadrant): its rings reach half a cycle a pixel.
  int changes = 0;
  for (int x = 2; x < 255; ++x) changes += (at(img, x - 1, 128, 0) < 128) != (at(img, x, 128, 0) < 128);
  EXPECT_GT(changes, 100);
  // Somewhere in the bottom-right quadrant (checkerboards), a run of 1-pixel alternation.
  int best = 0;
  for (int y = 257; y < 511; ++y) {
    int run = 0;
    for (int x = 258; x < 511; ++x) {
      const int a = at(img, x - 1, y, 0), b = at(img, x, y, 0);
      run = std::abs(a - b) > 150 ? run + 1 : 0;
      best = std::max(best, run);
    }
  }
  EXPECT_GT(best, 200);
  EXPECT_LE(*std::min_element(img.pixels.begin(), img.pixels.end()), 16);
  EXPECT_GE(*std::max_element(img.pixels.begin(), img.pixels.end()), 240);
}

TEST(RotateFilterTestImage, PointAndLinearDifferVisiblyWhenRotated) {
  const Image img = image::generate(*image::find_generated("filter-test"));
  const Image point = rotate_cpu(img, params(30, 1, Filter::Point, Address::Border));
  const Image linear = rotate_cpu(img, params(30, 1, Filter::Linear, Address::Border));
  size_t differ = 0;
  for (size_t i = 0; i < point.pixels.size(); ++i)
    differ += std::abs(int(point.pixels[i]) - int(linear.pixels[i])) > 32;
  EXPECT_GT(differ, point.pixels.size() / 5);
}

// ---------------------------------------------------------------------------------------------
// The texture unit's model (rotate.h, measured on an H100): samples the probe recorded there, and
// how far the model may lie from the float definition.

TEST(RotateUnitModel, ReproducesSamplesRecordedOnTheH100) {
  // 2x2 texture, one texel 255: the four weights at fractions (a, b) in 256ths, as the unit gave them.
  struct W {
    int a, b, w00, w10, w01, w11;
  };
  for (const W& c : {W{45, 176, 66, 14, 145, 31}, W{128, 1, 128, 127, 0, 1}, W{17, 250, 6, 0, 233, 17},
                     W{1, 1, 254, 1, 1, 0}, W{3, 5, 248, 3, 5, 0}, W{100, 200, 34, 22, 122, 78},
                     W{128, 128, 64, 64, 64, 64}, W{255, 255, 0, 1, 1, 254}}) {
    // Unnormalized coordinates 0.5 + a/256 + 1/1024 (the quarter 256th rounds away).
    const Coord tc{0.5f + c.a / 256.0f + 1.0f / 1024, 0.5f + c.b / 256.0f + 1.0f / 1024};
    const UnitTaps t = unit_linear_taps(tc, 2, 2, false, Address::Clamp);
    EXPECT_EQ(t.a, c.a);
    EXPECT_EQ(t.b, c.b);
    EXPECT_EQ(t.w00, c.w00) << c.a << "," << c.b;
    EXPECT_EQ(t.w10, c.w10) << c.a << "," << c.b;
    EXPECT_EQ(t.w01, c.w01) << c.a << "," << c.b;
    EXPECT_EQ(t.w11, c.w11) << c.a << "," << c.b;
    EXPECT_EQ(t.w00 + t.w10 + t.w01 + t.w11, 256);
  }
  // 1x2 texture {0, 255}, linear: half a 256th past the centre rounds up to 1/256, a little less to 0.
  EXPECT_EQ(unit_linear_taps({0.501953125f, 0.5f}, 2, 1, false, Address::Clamp).a, 1);
  EXPECT_EQ(unit_linear_taps({0.501708984375f, 0.5f}, 2, 1, false, Address::Clamp).a, 0);
  // Point, unnormalized: no rounding before the floor (150.99988 is texel 150, 151.0 texel 151).
  EXPECT_EQ(unit_point_index(150.9998779296875f, 301, false), 150);
  EXPECT_EQ(unit_point_index(151.0f, 301, false), 151);
  // Point, normalized, 301 texels: u = 0x3EFF2646 is 150.0000004 texels, but the unit's 21-bit u
  // lands in texel 149 (the probe read texel 149's value there).
  float u;
  const uint32_t bits = 0x3EFF2646u;
  std::memcpy(&u, &bits, sizeof u);
  EXPECT_EQ(int(std::floor(double(u) * 301)), 150);
  EXPECT_EQ(unit_point_index(u, 301, true), 149);
  // Wrap and mirror in normalized coordinates, 5 texels: the edge texel repeats in mirror.
  EXPECT_EQ(unit_point_tap({-0.1f, 0.5f}, 5, 1, true, Address::Mirror).i, 0);
  EXPECT_EQ(unit_point_tap({-0.3f, 0.5f}, 5, 1, true, Address::Mirror).i, 1);
  EXPECT_EQ(unit_point_tap({1.1f, 0.5f}, 5, 1, true, Address::Mirror).i, 4);
  EXPECT_EQ(unit_point_tap({-0.1f, 0.5f}, 5, 1, true, Address::Wrap).i, 4);
}

TEST(RotateUnitModel, LinearPositionIsXTimes256RoundedHalfUpForEveryFloat) {
  // Against long double for floats near the awkward spots: tiny negatives, halves, large values.
  std::vector<float> xs;
  for (float base :
       {0.0f, -0.001953125f, -0.00390625f, 0.5f, -0.5f, 7.25f, -7.25f, 4096.0f, -4096.0f, 65535.5f})
    for (int k = -40; k <= 40; ++k)
      xs.push_back(std::nextafter(base, base + float(k)) + float(k) * (1.0f / 4096));
  for (float tiny : {1e-30f, -1e-30f, -1e-7f, 1e-7f, -0.001953124f, -0.001953126f}) xs.push_back(tiny);
  for (float x : xs) {
    const long double want = std::floor(static_cast<long double>(x) * 256 + 0.5L);
    EXPECT_EQ(unit_linear_fixed(x, 100, false), static_cast<int64_t>(want)) << x;
  }
  // Normalized: floor(u·2^21)·n/2^21·256 rounded half up.
  for (float u : {0.0f, 0.3f, -0.3f, 0.49833887815475464f, 1.7f, -2.25f, 0.00001f})
    for (int n : {1, 5, 301, 8192}) {
      const long double q = std::floor(static_cast<long double>(u) * 2097152.0L);
      const long double want = std::floor(q * n / 8192.0L + 0.5L);
      EXPECT_EQ(unit_linear_fixed(u, n, true), static_cast<int64_t>(want)) << u << " " << n;
    }
}

TEST(RotateUnitModel, DiffersFromTheDefinitionOnlyAtTiesAndWithinTheDerivedBound) {
  for (auto [w, h] : {std::pair{1, 1}, {7, 5}, {33, 17}, {64, 64}, {301, 203}})
    for (int c : {1, 4}) {
      const Image img = random_image(w, h, c, uint64_t(w * 7 + h + c));
      for (float angle : {0.0f, 90.0f, 30.0f, -47.5f, 180.0f})
        for (float scale : {1.0f, 0.6f, 1.7f})
          for (Filter f : kFilters)
            for (Address a : kAddresses)
              for (bool normalized : {true, false}) {
                if (!normalized && (a == Address::Wrap || a == Address::Mirror))
                  continue;  // CUDA clamps there
                const Settings s = settings(angle, scale, f, a, normalized);
                const Image unit = rotate_unit_cpu(img, s), def = rotate_cpu(img, s.params);
                const Coefficients k = coefficients(s.params);
                const int bound = unit_linear_bound(w, h, s);
                EXPECT_LE(bound, 3);
                int largest = 0, ties = 0;
                for (int y = 0; y < h; ++y)
                  for (int x = 0; x < w; ++x) {
                    const Coord sc = source_coord(x, y, w, h, k);
                    const bool tie = f == Filter::Point &&
                                     [&, w = w, h = h] {  // (clang 14 captures no structured binding)
                                       const PointTap u = unit_point_tap(texture_coord(sc, w, h, normalized),
                                                                         w, h, normalized, a),
                                                      d = point_tap(sc, w, h, a);
                                       return u.i != d.i || u.j != d.j;
                                     }();
                    ties += tie;
                    for (int ch = 0; ch < c; ++ch) {
                      const int d = std::abs(at(unit, x, y, ch) - at(def, x, y, ch));
                      if (!tie) largest = std::max(largest, d);
                    }
                  }
                const std::string what = label(img, f, a) + (normalized ? " normalized " : " texel ") +
                                         std::to_string(angle) + "° x" + std::to_string(scale);
                if (f == Filter::Point) {
                  EXPECT_EQ(largest, 0) << what;
                  if (!normalized) {
                    EXPECT_EQ(ties, 0) << what;  // floor(x) of the same float
                  }
                } else {
                  EXPECT_LE(largest, bound) << what;
                }
              }
    }
}

TEST(RotateUnitModel, IdentityAndQuarterTurnsAreExactInTheUnitToo) {
  // Angle 0, scale 1, unnormalized: every sample sits on a texel centre, weights (0, 0): the image.
  for (int c : {1, 3}) {
    const Image img = random_image(9, 6, c, 3);
    for (Filter f : kFilters)
      for (Address a : kAddresses) {
        EXPECT_EQ(rotate_unit_cpu(img, settings(0, 1, f, a, false)), img) << label(img, f, a);
        // Normalized, with a power-of-two width the coordinates stay exact as well.
        const Image sq = random_image(8, 4, c, 4);
        EXPECT_EQ(rotate_unit_cpu(sq, settings(0, 1, f, a, true)), sq) << label(sq, f, a);
        EXPECT_EQ(rotate_unit_cpu(sq, settings(180, 1, f, a, true)), rotate_cpu(sq, params(180, 1, f, a)))
            << label(sq, f, a);
      }
  }
}

TEST(RotateUnitModel, TheLinearBoundGrowsOnlyWithNormalizedCoordinatesOnLargeImages) {
  EXPECT_EQ(unit_linear_bound(301, 203, settings(30, 1, Filter::Linear, Address::Border, false)), 2);
  EXPECT_EQ(unit_linear_bound(8192, 8192, settings(30, 1, Filter::Linear, Address::Border, false)), 2);
  EXPECT_EQ(unit_linear_bound(64, 64, settings(30, 1, Filter::Linear, Address::Border, true)), 3);
  EXPECT_GE(unit_linear_bound(32768, 32768, settings(30, 1 / 64.0f, Filter::Linear, Address::Wrap, true)),
            10);
}

// tex-pitch-prefetch asks the L2 for the rows tile_footprint / footprint_row give: they must hold
// every texel in the image the unit reads for the tile's pixels (linear and point, normalized
// coordinates on and off, at every scale the demo allows), and on turned tiles they should be
// tighter than the footprint's bounding box.
TEST(RotateFootprint, CoversEveryTexelTheUnitReadsForATile) {
  const std::pair<int, int> images[] = {{8192, 8192}, {301, 203},   {33, 17},
                                        {1, 9},       {4096, 1000}, {32768, 32768}};
  const float angles[] = {0.0f, 30.0f, -47.5f, 90.0f, 180.0f, 123.4f, 10.0f};
  const float scales[] = {1.0f, 0.6f, 1.7f, 0.25f, 4.0f, 64.0f};
  uint32_t seed = 12345;
  size_t checked = 0, tighter = 0, turned = 0;
  for (auto [w, h] : images)
    for (float angle : angles)
      for (float scale : scales)
        for (bool normalized : {true, false})
          for (int tile : {16, 32})
            for (int pick = 0; pick < 3; ++pick) {
              const Coefficients k = coefficients(Params{angle, scale, Filter::Linear, Address::Border});
              const int tx = (w + tile - 1) / tile, ty = (h + tile - 1) / tile;
              seed = seed * 1664525u + 1013904223u;
              // the first tile, the last (clipped at the image's edge) and one in between
              const int bx = pick == 0 ? 0 : pick == 1 ? tx - 1 : int((seed >> 8) % uint32_t(tx));
              const int by = pick == 0 ? 0 : pick == 1 ? ty - 1 : int((seed >> 16) % uint32_t(ty));
              const int x0 = bx * tile, y0 = by * tile, x1 = std::min(x0 + tile, w) - 1,
                        y1 = std::min(y0 + tile, h) - 1;
              const TileFootprint f = tile_footprint(x0, y0, x1, y1, w, h, k);
              auto covered = [&, w = w, h = h](int i, int j) {  // (clang 14 captures no structured binding)
                if (i < 0 || i >= w || j < 0 || j >= h) return true;  // not in the image: not prefetched
                ++checked;
                if (j < f.j0 || j > f.j1) return false;
                const Span s = footprint_row(f, j, w);
                return s.i0 <= i && i <= s.i1;
              };
              for (int y = y0; y <= y1; ++y)
                for (int x = x0; x <= x1; ++x) {
                  const Coord c = texture_coord(source_coord(x, y, w, h, k), w, h, normalized);
                  const int i = int((unit_linear_fixed(c.x, w, normalized) - 128) >> 8),
                            j = int((unit_linear_fixed(c.y, h, normalized) - 128) >> 8);
                  const int pi = unit_point_index(c.x, w, normalized),
                            pj = unit_point_index(c.y, h, normalized);
                  const bool ok = covered(i, j) && covered(i + 1, j) && covered(i, j + 1) &&
                                  covered(i + 1, j + 1) && covered(pi, pj);
                  ASSERT_TRUE(ok) << w << "x" << h << " angle " << angle << " scale " << scale
                                  << " normalized " << normalized << " tile " << tile << " at (" << x0 << ", "
                                  << y0 << "), pixel (" << x << ", " << y << ")";
                }
              // in the image and no wider than the bounding box of the rows' spans
              long long area = 0;
              int lo = w, hi = -1;
              for (int j = f.j0; j <= f.j1; ++j) {
                const Span s = footprint_row(f, j, w);
                if (s.i0 > s.i1) continue;
                ASSERT_GE(s.i0, 0);
                ASSERT_LT(s.i1, w);
                area += s.i1 - s.i0 + 1;
                lo = std::min(lo, s.i0);
                hi = std::max(hi, s.i1);
              }
              const bool inside = area > 0 && lo > 0 && hi < w - 1 && f.j0 > 0 && f.j1 < h - 1;
              if ((angle == 30.0f || angle == -47.5f) && scale == 1.0f && tile == 32 && inside) {
                ++turned;
                tighter += area < (long long)(hi - lo + 1) * (f.j1 - f.j0 + 1) * 3 / 4;
              }
            }
  EXPECT_GT(checked, size_t(1000000));
  EXPECT_GT(turned, size_t(0));
  EXPECT_EQ(tighter, turned);  // 30° and 47.5°: under 3/4 of the bounding box (the margins included)
}

}  // namespace
}  // namespace gpulab::rotate

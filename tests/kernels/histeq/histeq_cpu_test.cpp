// The CPU reference of histogram equalization and contrast stretch: hand-computed small images and
// histograms (ties to even, float rounding of large sums), the stretch's exact rounding, the colour
// paths (luminance, per channel, alpha), remap_histogram, and the CPU engine stage by stage.
// The byte-for-byte comparison with OpenCV is in opencv_reference_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "histeq/histeq.h"
#include "histeq/histeq_cuda.h"

namespace gpulab::histeq {
namespace {

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 33);
  }
  uint8_t byte() { return uint8_t(next() >> 7); }
};

image::Image make(int w, int h, int c, std::vector<uint8_t> px) {
  image::Image img;
  img.width = w;
  img.height = h;
  img.channels = c;
  img.pixels = std::move(px);
  return img;
}

// Pixels drawn from a skewed distribution (low contrast), so LUTs are far from the identity.
image::Image random_image(int w, int h, int c, uint64_t seed) {
  Rng r(seed);
  std::vector<uint8_t> px(size_t(w) * size_t(h) * size_t(c));
  for (auto& v : px) v = uint8_t(60 + (r.byte() % 40) + (r.byte() % 40));
  return make(w, h, c, std::move(px));
}

const Variant& variant(std::string_view id) {
  const Variant* v = find_variant(id);
  if (!v) throw std::runtime_error("no variant " + std::string(id));
  return *v;
}

Lut identity_lut() {
  Lut l;
  for (int i = 0; i < kBins; ++i) l[i] = uint8_t(i);
  return l;
}

std::vector<uint8_t> equalized_grey(const std::vector<uint8_t>& plane) {
  const Lut lut = equalize_lut(histogram_cpu(plane));
  std::vector<uint8_t> out(plane.size());
  apply_lut_cpu(plane, out, lut);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Histogram.

TEST(HistEqCpu, HistogramCountsEveryPixelAtEveryLengthAndAlignment) {
  Rng r(1);
  std::vector<uint8_t> data(200);
  for (auto& v : data) v = r.byte();
  for (size_t offset : {0, 1, 3, 7})
    for (size_t len = 0; len + offset <= data.size(); ++len) {
      std::span<const uint8_t> s(data.data() + offset, len);
      Histogram expected{};
      for (uint8_t v : s) ++expected[v];
      ASSERT_EQ(histogram_cpu(s), expected) << "offset " << offset << " length " << len;
    }
  // Long runs of one value (what the sub-histograms are for) and the extreme bins.
  std::vector<uint8_t> runs(100003, 255);
  std::fill(runs.begin(), runs.begin() + 50001, uint8_t(0));
  const Histogram h = histogram_cpu(runs);
  EXPECT_EQ(h[0], 50001u);
  EXPECT_EQ(h[255], 50002u);
}

// ---------------------------------------------------------------------------------------------
// Equalize: hand-computed cases.

TEST(HistEqCpu, ConstantImageIsUnchanged) {
  const image::Image img = make(5, 3, 1, std::vector<uint8_t>(15, 77));
  Histogram h{};
  h[77] = 15;
  EXPECT_EQ(histogram_cpu(img.pixels), h);
  EXPECT_EQ(equalize_lut(h), identity_lut());
  EXPECT_EQ(process_cpu(img, Mode::Equalize, Colour::Luminance), img);
  EXPECT_EQ(process_cpu(img, Mode::Stretch, Colour::Luminance), img);
}

TEST(HistEqCpu, TwoLevelsBecomeBlackAndWhite) {
  // 6 pixels of 10, 10 of 200: i0 = 10, scale = 255 / 10, lut[200] = rint(10 * 25.5) = 255.
  std::vector<uint8_t> px(16, 200);
  for (int i : {0, 3, 5, 8, 12, 15}) px[size_t(i)] = 10;
  const image::Image img = make(4, 4, 1, px);
  const Lut lut = equalize_lut(histogram_cpu(px));
  EXPECT_EQ(lut[10], 0);
  EXPECT_EQ(lut[200], 255);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(lut[i], 0) << i;    // below i0: never used, 0
  for (int i = 11; i < 200; ++i) EXPECT_EQ(lut[i], 0) << i;  // empty bins keep the cdf
  for (int i = 201; i < 256; ++i) EXPECT_EQ(lut[i], 255) << i;
  std::vector<uint8_t> expected(16, 255);
  for (int i : {0, 3, 5, 8, 12, 15}) expected[size_t(i)] = 0;
  EXPECT_EQ(process_cpu(img, Mode::Equalize, Colour::Luminance).pixels, expected);
}

TEST(HistEqCpu, EveryValueOnceGivesTheIdentity) {
  // N = 256, h[0] = 1: scale = 255 / 255 = 1, lut[i] = cdf[i] - 1 = i.
  std::vector<uint8_t> px(256);
  for (int i = 0; i < 256; ++i) px[size_t(i)] = uint8_t((i * 37 + 11) % 256);  // a permutation
  EXPECT_EQ(equalize_lut(histogram_cpu(px)), identity_lut());
  const image::Image img = make(16, 16, 1, px);
  EXPECT_EQ(process_cpu(img, Mode::Equalize, Colour::Luminance), img);
}

TEST(HistEqCpu, FourLevelsSpreadEvenly) {
  // Values 0..3 once each: N = 4, h0 = 1, scale = 85: 0, 85, 170, 255.
  const image::Image img = make(2, 2, 1, {3, 0, 2, 1});
  EXPECT_EQ(process_cpu(img, Mode::Equalize, Colour::Luminance).pixels,
            (std::vector<uint8_t>{255, 0, 170, 85}));
}

TEST(HistEqCpu, OnePixelAndOneRowAndOneColumn) {
  const image::Image one = make(1, 1, 1, {123});
  EXPECT_EQ(process_cpu(one, Mode::Equalize, Colour::Luminance), one);
  EXPECT_EQ(process_cpu(one, Mode::Stretch, Colour::Luminance), one);
  // {3, 1, 4, 1, 5}: i0 = 1, h0 = 2, N - h0 = 3, scale = 85: 3 -> 85, 4 -> 170, 5 -> 255, 1 -> 0.
  const std::vector<uint8_t> px{3, 1, 4, 1, 5};
  const std::vector<uint8_t> expected{85, 0, 170, 0, 255};
  EXPECT_EQ(process_cpu(make(5, 1, 1, px), Mode::Equalize, Colour::Luminance).pixels, expected);
  EXPECT_EQ(process_cpu(make(1, 5, 1, px), Mode::Equalize, Colour::Luminance).pixels, expected);
  // Stretch of the same: min 1, max 5, d = 4: 3 -> 127.5 -> 128, 4 -> 191.25 -> 191, 5 -> 255.
  const std::vector<uint8_t> stretched{128, 0, 191, 0, 255};
  EXPECT_EQ(process_cpu(make(5, 1, 1, px), Mode::Stretch, Colour::Luminance).pixels, stretched);
  EXPECT_EQ(process_cpu(make(1, 5, 1, px), Mode::Stretch, Colour::Luminance).pixels, stretched);
}

TEST(HistEqCpu, OddSizesFollowTheDefinition) {
  for (auto [w, h] : {std::pair{3, 5}, {7, 3}, {1, 97}, {97, 1}, {13, 11}, {317, 211}}) {
    const image::Image img = random_image(w, h, 1, uint64_t(w * 1000 + h));
    // The definition, written out again: cdf, i0, float scale, rint.
    Histogram hist{};
    for (uint8_t v : img.pixels) ++hist[v];
    int i0 = 0;
    while (hist[size_t(i0)] == 0) ++i0;
    const uint32_t n = uint32_t(img.pixel_count());
    std::vector<uint8_t> lut(256, 0);
    const float scale = 255.0f / float(n - hist[size_t(i0)]);
    uint32_t sum = 0;
    for (int i = i0 + 1; i < 256; ++i) {
      sum += hist[size_t(i)];
      lut[size_t(i)] = uint8_t(std::clamp(std::nearbyint(float(sum) * scale), 0.0f, 255.0f));
    }
    std::vector<uint8_t> expected(img.pixels.size());
    for (size_t i = 0; i < expected.size(); ++i) expected[i] = lut[img.pixels[i]];
    EXPECT_EQ(process_cpu(img, Mode::Equalize, Colour::Luminance).pixels, expected) << w << "x" << h;
  }
}

TEST(HistEqCpu, TiesRoundToEven) {
  // N - h0 = 510, so scale = 0.5 exactly and odd sums are exact ties k + 0.5:
  // sum 1 -> 0.5 -> 0, sum 3 -> 1.5 -> 2, sum 5 -> 2.5 -> 2, sum 7 -> 3.5 -> 4 (half-up: 1, 2, 3, 4).
  Histogram h{};
  h[0] = 1;
  h[1] = 1;
  h[2] = 2;
  h[3] = 2;
  h[4] = 2;
  h[255] = 503;
  const Lut lut = equalize_lut(h);
  EXPECT_EQ(lut[0], 0);
  EXPECT_EQ(lut[1], 0);
  EXPECT_EQ(lut[2], 2);
  EXPECT_EQ(lut[3], 2);
  EXPECT_EQ(lut[4], 4);
  EXPECT_EQ(lut[254], 4);
  EXPECT_EQ(lut[255], 255);
  // The same as an image (7 x 73 = 511 pixels).
  std::vector<uint8_t> px;
  for (int v = 0; v < 256; ++v) px.insert(px.end(), h[size_t(v)], uint8_t(v));
  ASSERT_EQ(px.size(), 511u);
  const image::Image out = process_cpu(make(7, 73, 1, px), Mode::Equalize, Colour::Luminance);
  for (size_t i = 0; i < px.size(); ++i) ASSERT_EQ(out.pixels[i], lut[px[i]]) << i;
  // N - h0 = 1020: scale 0.25; sums 2, 6, 10 -> 0.5, 1.5, 2.5 -> 0, 2, 2.
  Histogram q{};
  q[7] = 9;
  q[8] = 2;
  q[9] = 4;
  q[10] = 4;
  q[200] = 1010;
  const Lut lq = equalize_lut(q);
  EXPECT_EQ(lq[8], 0);
  EXPECT_EQ(lq[9], 2);
  EXPECT_EQ(lq[10], 2);
  EXPECT_EQ(lq[200], 255);
}

TEST(HistEqCpu, LargeCountsRoundInSinglePrecision) {
  // 16384 x 16384 pixels (2^28), given as a histogram: h[0] = 1, h[1] = 2^27 - 1, h[255] = 2^27.
  // float(N - h0) = float(2^28 - 1) = 2^28, so scale = 255 / 2^28 exactly; lut[1]: float(2^27 - 1) =
  // 2^27, times scale = 127.5, ties to even -> 128. Exact arithmetic (or double) would give 127.
  Histogram h{};
  h[0] = 1;
  h[1] = (1u << 27) - 1;
  h[255] = 1u << 27;
  const Lut lut = equalize_lut(h);
  EXPECT_EQ(lut[0], 0);
  EXPECT_EQ(lut[1], 128);
  EXPECT_EQ(lut[254], 128);
  EXPECT_EQ(lut[255], 255);
  const double exact = double(h[1]) * 255.0 / double((1u << 28) - 1);
  EXPECT_EQ(std::nearbyint(exact), 127.0);  // the case really separates float from exact
  // Another: h[0] = 3 (the first bin need not be 0's), N - h0 = 2^28 - 3 -> float 2^28; sum 2^26 + 1
  // -> float 2^26, * 255 / 2^28 = 63.75 -> 64.
  Histogram g{};
  g[5] = 3;
  g[6] = (1u << 26) + 1;
  g[7] = (1u << 28) - 3 - g[6];
  const Lut lg = equalize_lut(g);
  EXPECT_EQ(lg[5], 0);
  EXPECT_EQ(lg[6], 64);
  EXPECT_EQ(lg[7], 255);
}

// ---------------------------------------------------------------------------------------------
// Stretch.

TEST(HistEqCpu, StretchUnchangedWhenMinEqualsMax) {
  for (int v : {0, 1, 128, 255}) EXPECT_EQ(stretch_lut({uint8_t(v), uint8_t(v)}), identity_lut()) << v;
  const image::Image img = make(3, 3, 1, std::vector<uint8_t>(9, 42));
  EXPECT_EQ(minmax_cpu(img.pixels), (MinMax{42, 42}));
  EXPECT_EQ(process_cpu(img, Mode::Stretch, Colour::Luminance), img);
}

TEST(HistEqCpu, StretchFullRangeIsTheIdentity) { EXPECT_EQ(stretch_lut({0, 255}), identity_lut()); }

TEST(HistEqCpu, StretchRoundsExactlyWithTiesUp) {
  // min 10, max 20: 11 -> 25.5 -> 26, 13 -> 76.5 -> 77, 15 -> 127.5 -> 128, 12 -> 51.
  const Lut l = stretch_lut({10, 20});
  EXPECT_EQ(l[10], 0);
  EXPECT_EQ(l[11], 26);
  EXPECT_EQ(l[12], 51);
  EXPECT_EQ(l[13], 77);
  EXPECT_EQ(l[15], 128);
  EXPECT_EQ(l[20], 255);
  // Every (min, max) pair against the rational value rounded half up. In double the quotient is off
  // by far less than the 1 / 510 that separates a non-tie from a tie, and ties are exact.
  for (int mn = 0; mn < 256; ++mn)
    for (int mx = mn + 1; mx < 256; ++mx) {
      const Lut lut = stretch_lut({uint8_t(mn), uint8_t(mx)});
      for (int v = 0; v < 256; ++v) {
        const int c = std::clamp(v, mn, mx);
        const int expected = int(std::floor((c - mn) * 255.0 / (mx - mn) + 0.5));
        ASSERT_EQ(lut[size_t(v)], expected) << "min " << mn << " max " << mx << " v " << v;
      }
    }
}

TEST(HistEqCpu, MinMaxOfAPlane) {
  EXPECT_EQ(minmax_cpu(std::vector<uint8_t>{7}), (MinMax{7, 7}));
  EXPECT_EQ(minmax_cpu(std::vector<uint8_t>(1000, 255)), (MinMax{255, 255}));
  EXPECT_EQ(minmax_cpu(std::vector<uint8_t>(1000, 0)), (MinMax{0, 0}));
  EXPECT_EQ(minmax_cpu(std::vector<uint8_t>{9, 3, 200, 4, 200, 3}), (MinMax{3, 200}));
  EXPECT_EQ(minmax_cpu(std::vector<uint8_t>{255, 0}), (MinMax{0, 255}));
  EXPECT_THROW(minmax_cpu(std::span<const uint8_t>{}), std::invalid_argument);
  const image::Image img = random_image(101, 37, 1, 5);
  uint8_t mn = 255, mx = 0;
  for (uint8_t v : img.pixels) mn = std::min(mn, v), mx = std::max(mx, v);
  EXPECT_EQ(minmax_cpu(img.pixels), (MinMax{mn, mx}));
  const image::Image out = process_cpu(img, Mode::Stretch, Colour::Luminance);
  EXPECT_EQ(minmax_cpu(out.pixels), (MinMax{0, 255}));
}

// ---------------------------------------------------------------------------------------------
// Colour.

TEST(HistEqCpu, YCrCbKnownValues) {
  uint8_t y, cr, cb;
  rgb_to_ycrcb(255, 255, 255, &y, &cr, &cb);
  EXPECT_EQ((std::array{y, cr, cb}), (std::array<uint8_t, 3>{255, 128, 128}));
  rgb_to_ycrcb(0, 0, 0, &y, &cr, &cb);
  EXPECT_EQ((std::array{y, cr, cb}), (std::array<uint8_t, 3>{0, 128, 128}));
  // Red: Y = (255 * 4899 + 8192) >> 14 = 76; Cr = 179 * 11682 + 128 << 14 -> 256 -> 255;
  // Cb = -76 * 9241 + 128 << 14 -> 85.
  rgb_to_ycrcb(255, 0, 0, &y, &cr, &cb);
  EXPECT_EQ((std::array{y, cr, cb}), (std::array<uint8_t, 3>{76, 255, 85}));
  uint8_t r, g, b;
  ycrcb_to_rgb(128, 128, 128, &r, &g, &b);
  EXPECT_EQ((std::array{r, g, b}), (std::array<uint8_t, 3>{128, 128, 128}));
}

TEST(HistEqCpu, SplitAndMergeBackIsOpenCvsRoundTrip) {
  const image::Image img = random_image(37, 23, 3, 9);
  const Planes p = split(img, Colour::Luminance);
  ASSERT_EQ(p.layout, Layout::YCrCb);
  ASSERT_EQ(p.planes.size(), 3u);
  EXPECT_EQ(p.processed(), 1);
  EXPECT_TRUE(p.alpha.empty());
  image::Image expected = img;
  bool lossy = false;
  for (size_t i = 0; i < img.pixel_count(); ++i) {
    const uint8_t* s = &img.pixels[3 * i];
    uint8_t y, cr, cb;
    rgb_to_ycrcb(s[0], s[1], s[2], &y, &cr, &cb);
    ASSERT_EQ(p.planes[0][i], y);
    ASSERT_EQ(p.planes[1][i], cr);
    ASSERT_EQ(p.planes[2][i], cb);
    ycrcb_to_rgb(y, cr, cb, &expected.pixels[3 * i], &expected.pixels[3 * i + 1],
                 &expected.pixels[3 * i + 2]);
    lossy |= expected.pixels[3 * i] != s[0] || expected.pixels[3 * i + 1] != s[1] ||
             expected.pixels[3 * i + 2] != s[2];
  }
  EXPECT_TRUE(lossy) << "the 8-bit YCrCb round trip is lossy for some pixel of a random image";
  const std::vector<std::vector<uint8_t>> y{p.planes[0]};
  EXPECT_EQ(merge(p, y), expected);
  // Per channel, the planes are R, G, B and merging them back gives the image itself.
  const Planes q = split(img, Colour::PerChannel);
  ASSERT_EQ(q.layout, Layout::Rgb);
  EXPECT_EQ(q.processed(), 3);
  EXPECT_EQ(merge(q, q.planes), img);
}

TEST(HistEqCpu, LuminancePathEqualizesYOnly) {
  for (int c : {3, 4}) {
    const image::Image img = random_image(45, 31, c, uint64_t(c));
    const Planes p = split(img, Colour::Luminance);
    const std::vector<std::vector<uint8_t>> out{equalized_grey(p.planes[0])};
    image::Image expected = img;
    for (size_t i = 0; i < img.pixel_count(); ++i)
      ycrcb_to_rgb(out[0][i], p.planes[1][i], p.planes[2][i], &expected.pixels[c * i],
                   &expected.pixels[c * i + 1],
                   &expected.pixels[c * i + 2]);  // alpha (c = 4) stays as it was
    EXPECT_EQ(process_cpu(img, Mode::Equalize, Colour::Luminance), expected) << c;
    EXPECT_NE(expected, img);
  }
}

TEST(HistEqCpu, PerChannelPathEqualizesEachChannelAlone) {
  const image::Image img = random_image(29, 41, 3, 11);
  const image::Image out = process_cpu(img, Mode::Equalize, Colour::PerChannel);
  const image::Image stretched = process_cpu(img, Mode::Stretch, Colour::PerChannel);
  for (int ch = 0; ch < 3; ++ch) {
    std::vector<uint8_t> plane(img.pixel_count()), got(img.pixel_count()), got_s(img.pixel_count());
    for (size_t i = 0; i < plane.size(); ++i) {
      plane[i] = img.pixels[3 * i + size_t(ch)];
      got[i] = out.pixels[3 * i + size_t(ch)];
      got_s[i] = stretched.pixels[3 * i + size_t(ch)];
    }
    EXPECT_EQ(got, equalized_grey(plane)) << ch;
    std::vector<uint8_t> expected_s(plane.size());
    apply_lut_cpu(plane, expected_s, stretch_lut(minmax_cpu(plane)));
    EXPECT_EQ(got_s, expected_s) << ch;
  }
}

TEST(HistEqCpu, AlphaIsKept) {
  const image::Image rgba = random_image(33, 17, 4, 21);
  image::Image rgb = make(33, 17, 3, {});
  for (size_t i = 0; i < rgba.pixel_count(); ++i)
    rgb.pixels.insert(rgb.pixels.end(), rgba.pixels.begin() + 4 * i, rgba.pixels.begin() + 4 * i + 3);
  for (Colour colour : {Colour::Luminance, Colour::PerChannel})
    for (Mode mode : {Mode::Equalize, Mode::Stretch}) {
      const image::Image out = process_cpu(rgba, mode, colour);
      const image::Image out_rgb = process_cpu(rgb, mode, colour);
      ASSERT_EQ(out.channels, 4);
      for (size_t i = 0; i < rgba.pixel_count(); ++i) {
        ASSERT_EQ(out.pixels[4 * i + 3], rgba.pixels[4 * i + 3]) << i;
        for (int k = 0; k < 3; ++k)
          ASSERT_EQ(out.pixels[4 * i + size_t(k)], out_rgb.pixels[3 * i + size_t(k)]) << i;
      }
    }
}

TEST(HistEqCpu, GreyWithAlpha) {
  const image::Image ga = random_image(19, 23, 2, 31);
  std::vector<uint8_t> grey(ga.pixel_count());
  for (size_t i = 0; i < grey.size(); ++i) grey[i] = ga.pixels[2 * i];
  const std::vector<uint8_t> eq = equalized_grey(grey);
  for (Colour colour : {Colour::Luminance, Colour::PerChannel}) {
    const Planes p = split(ga, colour);
    EXPECT_EQ(p.layout, Layout::Grey);
    EXPECT_EQ(p.processed(), 1);
    EXPECT_EQ(p.planes[0], grey);
    const image::Image out = process_cpu(ga, Mode::Equalize, colour);
    ASSERT_EQ(out.channels, 2);
    for (size_t i = 0; i < grey.size(); ++i) {
      ASSERT_EQ(out.pixels[2 * i], eq[i]);
      ASSERT_EQ(out.pixels[2 * i + 1], ga.pixels[2 * i + 1]);
    }
  }
}

TEST(HistEqCpu, BadImagesAreRefused) {
  EXPECT_THROW(split(make(2, 2, 5, std::vector<uint8_t>(20)), Colour::Luminance), std::invalid_argument);
  EXPECT_THROW(split(make(2, 2, 3, std::vector<uint8_t>(11)), Colour::Luminance), std::invalid_argument);
  EXPECT_THROW(process_cpu(make(2, 2, 0, {}), Mode::Equalize, Colour::Luminance), std::invalid_argument);
  const image::Image empty = make(0, 5, 3, {});
  EXPECT_EQ(process_cpu(empty, Mode::Equalize, Colour::Luminance), empty);
  std::vector<uint8_t> out(3);
  EXPECT_THROW(apply_lut_cpu(std::vector<uint8_t>(4), out, identity_lut()), std::invalid_argument);
  const Planes p = split(random_image(4, 4, 3, 1), Colour::Luminance);
  EXPECT_THROW(merge(p, p.planes), std::invalid_argument);  // 3 planes for 1 processed
  const std::vector<std::vector<uint8_t>> short_plane{std::vector<uint8_t>(15)};
  EXPECT_THROW(merge(p, short_plane), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// remap_histogram.

TEST(HistEqCpu, RemapHistogramIsTheOutputsHistogram) {
  for (uint64_t seed = 0; seed < 8; ++seed) {
    const image::Image img = random_image(int(50 + seed * 13), int(30 + seed * 7), 1, seed);
    const Histogram h = histogram_cpu(img.pixels);
    for (const Lut& lut : {equalize_lut(h), stretch_lut(minmax_cpu(img.pixels)), identity_lut()}) {
      std::vector<uint8_t> out(img.pixels.size());
      apply_lut_cpu(img.pixels, out, lut);
      ASSERT_EQ(remap_histogram(h, lut), histogram_cpu(out)) << seed;
    }
  }
  // A LUT that merges bins.
  Histogram h{};
  h[3] = 5;
  h[4] = 7;
  h[9] = 1;
  Lut merge_lut{};
  merge_lut[3] = 100;
  merge_lut[4] = 100;
  merge_lut[9] = 2;
  Histogram expected{};
  expected[100] = 12;
  expected[2] = 1;
  expected[0] = 0;
  EXPECT_EQ(remap_histogram(h, merge_lut), expected);
}

// ---------------------------------------------------------------------------------------------
// The CPU engine.

std::vector<uint8_t> to_rgba(const image::Image& img) {
  std::vector<uint8_t> out(img.pixel_count() * 4);
  for (size_t i = 0; i < img.pixel_count(); ++i) {
    const uint8_t* s = &img.pixels[i * size_t(img.channels)];
    uint8_t* d = &out[4 * i];
    switch (img.channels) {
      case 1:
        d[0] = d[1] = d[2] = s[0], d[3] = 255;
        break;
      case 2:
        d[0] = d[1] = d[2] = s[0], d[3] = s[1];
        break;
      case 3:
        d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = 255;
        break;
      default:
        d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = s[3];
        break;
    }
  }
  return out;
}

TEST(HistEqCpu, EngineRunsEveryStageLikeTheReference) {
  auto e = make_cpu_engine();
  EXPECT_EQ(e->backend(), Backend::Cpu);
  EXPECT_FALSE(e->device_name().empty());
  EXPECT_EQ(e->device_name().substr(0, 3), "CPU");
  for (int c = 1; c <= 4; ++c)
    for (Colour colour : {Colour::Luminance, Colour::PerChannel}) {
      const image::Image img = random_image(61, 19, c, uint64_t(c * 10 + int(colour)));
      const Planes p = split(img, colour);
      e->upload(p);
      ASSERT_EQ(e->width(), 61);
      ASSERT_EQ(e->height(), 19);
      // Before any stage the display shows the source.
      std::vector<uint8_t> rgba(img.pixel_count() * 4);
      e->compose(rgba.data());
      EXPECT_EQ(rgba, to_rgba(merge(p, std::span(p.planes.data(), size_t(p.processed())))));

      for (Mode mode : {Mode::Equalize, Mode::Stretch}) {
        std::vector<std::vector<uint8_t>> outputs;
        for (int k = 0; k < p.processed(); ++k) {
          const std::vector<uint8_t>& plane = p.planes[size_t(k)];
          if (mode == Mode::Equalize) {
            e->run(variant("hist-cpu"), 0, k);
            ASSERT_EQ(e->histogram(k), histogram_cpu(plane));
            e->run(variant("scan-cpu"), 0, k);
            ASSERT_EQ(e->lut(k), equalize_lut(histogram_cpu(plane)));
          } else {
            e->run(variant("reduce-cpu"), 0, k);
            ASSERT_EQ(e->minmax(k), minmax_cpu(plane));
            ASSERT_EQ(e->lut(k), stretch_lut(minmax_cpu(plane)));
          }
          e->run(variant("apply-cpu"), 0, k);
          outputs.push_back(e->output(k));
        }
        const image::Image expected = process_cpu(img, mode, colour);
        EXPECT_EQ(merge(p, outputs), expected) << c << " channels";
        e->compose(rgba.data());
        EXPECT_EQ(rgba, to_rgba(expected)) << c << " channels";
      }
    }
}

TEST(HistEqCpu, EngineRefusesBadInput) {
  auto e = make_cpu_engine();
  EXPECT_THROW(e->upload(Planes{}), std::invalid_argument);
  EXPECT_THROW(e->run(variant("hist-cpu"), 0, 0), std::logic_error);  // nothing uploaded
  const Planes good = split(random_image(8, 6, 3, 2), Colour::Luminance);
  e->upload(good);

  Planes bad = good;
  bad.planes[1].pop_back();
  EXPECT_THROW(e->upload(bad), std::invalid_argument);
  bad = good;
  bad.planes.pop_back();
  EXPECT_THROW(e->upload(bad), std::invalid_argument);
  bad = good;
  bad.alpha.assign(7, 255);
  EXPECT_THROW(e->upload(bad), std::invalid_argument);
  bad = good;
  bad.width = 0;
  EXPECT_THROW(e->upload(bad), std::invalid_argument);
  bad = good;
  bad.height = 7;  // planes of 8 x 6
  EXPECT_THROW(e->upload(bad), std::invalid_argument);
  // The previous image stays after a refused upload.
  EXPECT_EQ(e->width(), 8);
  EXPECT_EQ(e->height(), 6);
  e->run(variant("hist-cpu"), 0, 0);
  EXPECT_EQ(e->histogram(0), histogram_cpu(good.planes[0]));

  for (const Variant& v : variants()) {
    if (v.backend == Backend::Cuda) {
      EXPECT_THROW(e->run(v, v.default_block, 0), std::invalid_argument) << v.id;
    }
  }
  EXPECT_THROW(e->run(variant("hist-cpu"), 0, 1), std::out_of_range);  // YCrCb processes Y only
  EXPECT_THROW(e->run(variant("hist-cpu"), 0, -1), std::out_of_range);
  EXPECT_THROW(e->histogram(3), std::out_of_range);
}

}  // namespace
}  // namespace gpulab::histeq

namespace gpulab::histeq {
namespace {

// The library lecture's NPP rungs are in the table of every build, marked as the library's; where
// NPP was not found when gpulab was built (CI, the development machines), they say so.
TEST(HistEqNpp, TheNppRungsAreListedAndSayWhyWhereNppIsMissing) {
  for (const char* id : {"hist-npp", "apply-npp"}) {
    const Variant* v = find_variant(id);
    ASSERT_NE(v, nullptr) << id;
    EXPECT_TRUE(v->library) << id;
    EXPECT_EQ(v->backend, Backend::Cuda) << id;
    const std::string why = library_unavailable(*v);
#if defined(GPULAB_HAVE_CUDA) && !defined(GPULAB_HAVE_NPP)
    EXPECT_NE(why.find("NPP was not found when gpulab was built"), std::string::npos) << id << ": " << why;
#else
    EXPECT_EQ(why, "") << id;  // NPP built in, or no CUDA at all (the engine says that)
#endif
  }
  EXPECT_EQ(library_unavailable(*find_variant("hist-cub")), "");
  EXPECT_EQ(library_unavailable(*find_variant("apply-cpu")), "");
}

}  // namespace
}  // namespace gpulab::histeq

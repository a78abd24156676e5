// "Equals OpenCV byte for byte", checked against OpenCV itself (Debian's 4.6, core + imgproc):
// cv::equalizeHist on many grey images, cv::cvtColor RGB <-> YCrCb on every one of the 2^24 triples
// in each direction, and the whole colour recipe (YCrCb, equalize Y, back; or each channel alone).
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "histeq/histeq.h"

namespace gpulab::histeq {
namespace {

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 7) {}
  uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 33);
  }
  uint32_t below(uint32_t n) { return next() % n; }
};

image::Image make(int w, int h, int c) {
  image::Image img;
  img.width = w;
  img.height = h;
  img.channels = c;
  img.pixels.assign(size_t(w) * size_t(h) * size_t(c), 0);
  return img;
}

// A view of the image's bytes (no copy).
cv::Mat view(const image::Image& img) {
  return cv::Mat(img.height, img.width, CV_8UC(img.channels), const_cast<uint8_t*>(img.pixels.data()));
}

std::vector<uint8_t> bytes(const cv::Mat& m) {
  EXPECT_TRUE(m.isContinuous());
  return std::vector<uint8_t>(m.data, m.data + m.total() * m.elemSize());
}

// Kinds of grey content: the distributions that make LUTs interesting in different ways.
enum class Kind { Uniform, Constant, NarrowBand, TwoLevel, Sparse, Skewed, DominantFirst };
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Uniform:
      return "uniform";
    case Kind::Constant:
      return "constant";
    case Kind::NarrowBand:
      return "narrow band 100..123";
    case Kind::TwoLevel:
      return "two-level";
    case Kind::Sparse:
      return "sparse";
    case Kind::Skewed:
      return "skewed";
    case Kind::DominantFirst:
      return "dominant first bin";
  }
  return "?";
}

image::Image grey(int w, int h, Kind kind, uint64_t seed) {
  image::Image img = make(w, h, 1);
  Rng r(seed);
  const uint8_t a = uint8_t(r.below(256)), b = uint8_t(r.below(256));
  uint8_t levels[5];
  for (auto& l : levels) l = uint8_t(r.below(256));
  for (auto& v : img.pixels) {
    switch (kind) {
      case Kind::Uniform:
        v = uint8_t(r.below(256));
        break;
      case Kind::Constant:
        v = a;
        break;
      case Kind::NarrowBand:
        v = uint8_t(100 + r.below(24));
        break;
      case Kind::TwoLevel:
        v = r.below(3) == 0 ? a : b;
        break;
      case Kind::Sparse:
        v = levels[r.below(5)];
        break;
      case Kind::Skewed:
        v = uint8_t(std::min<uint32_t>(255, r.below(16) * r.below(16) + r.below(8)));
        break;
      case Kind::DominantFirst:
        v = r.below(10) ? uint8_t(30) : uint8_t(30 + r.below(200));
        break;
    }
  }
  return img;
}

::testing::AssertionResult equals_opencv_equalize(const image::Image& img) {
  cv::Mat dst;
  cv::equalizeHist(view(img), dst);
  const std::vector<uint8_t> expected = bytes(dst);
  const image::Image ours = process_cpu(img, Mode::Equalize, Colour::Luminance);
  std::vector<uint8_t> via_lut(img.pixels.size());
  apply_lut_cpu(img.pixels, via_lut, equalize_lut(histogram_cpu(img.pixels)));
  if (ours.pixels.size() != expected.size() || ours.channels != 1)
    return ::testing::AssertionFailure() << "the output's size or channels differ from OpenCV's";
  const std::vector<uint8_t>* results[] = {&ours.pixels, &via_lut};
  for (const std::vector<uint8_t>* got : results)
    for (size_t i = 0; i < expected.size(); ++i)
      if ((*got)[i] != expected[i])
        return ::testing::AssertionFailure()
               << img.width << "x" << img.height << ": pixel " << i << " value " << int(img.pixels[i])
               << " -> " << int((*got)[i]) << ", OpenCV " << int(expected[i]);
  return ::testing::AssertionSuccess();
}

TEST(HistEqOpenCv, EqualizeHistOnManyGreyImages) {
  const Kind kinds[] = {Kind::Uniform, Kind::Constant, Kind::NarrowBand,   Kind::TwoLevel,
                        Kind::Sparse,  Kind::Skewed,   Kind::DominantFirst};
  const std::pair<int, int> sizes[] = {{1, 1}, {1, 7},   {7, 1},     {2, 2},
                                       {3, 5}, {64, 64}, {317, 211}, {1000, 1000}};
  uint64_t seed = 1;
  for (Kind kind : kinds)
    for (auto [w, h] : sizes)
      for (int rep = 0; rep < 3; ++rep) {
        const image::Image img = grey(w, h, kind, seed++);
        ASSERT_TRUE(equals_opencv_equalize(img)) << kind_name(kind) << " seed " << seed - 1;
      }
  // Many small random images of random sizes and kinds.
  Rng r(99);
  for (int i = 0; i < 500; ++i) {
    const int w = 1 + int(r.below(40)), h = 1 + int(r.below(40));
    const Kind kind = kinds[r.below(7)];
    ASSERT_TRUE(equals_opencv_equalize(grey(w, h, kind, 1000 + uint64_t(i)))) << kind_name(kind) << " " << i;
  }
}

TEST(HistEqOpenCv, EqualizeHistTiesRoundToEven) {
  // 511 pixels: one 0, one 1, two each of 2, 3, 4, 503 of 255: N - h0 = 510, scale = 0.5, and the
  // sums 1, 3, 5, 7 are exact ties (OpenCV: 0, 2, 2, 4).
  image::Image img = make(7, 73, 1);
  const int counts[] = {1, 1, 2, 2, 2};
  size_t i = 0;
  for (int v = 0; v < 5; ++v)
    for (int k = 0; k < counts[v]; ++k) img.pixels[i++] = uint8_t(v);
  for (; i < img.pixels.size(); ++i) img.pixels[i] = 255;
  Rng r(5);  // shuffled, so position does not matter
  for (size_t j = img.pixels.size() - 1; j > 0; --j)
    std::swap(img.pixels[j], img.pixels[r.below(uint32_t(j + 1))]);
  ASSERT_TRUE(equals_opencv_equalize(img));
  cv::Mat dst;
  cv::equalizeHist(view(img), dst);
  for (size_t j = 0; j < img.pixels.size(); ++j) {
    if (img.pixels[j] == 3) {
      EXPECT_EQ(dst.data[j], 2);  // 2.5 -> 2: OpenCV rounds ties to even
    }
  }
}

TEST(HistEqOpenCv, EqualizeHistLargeImages) {
  // 4096 x 4096 of skewed content.
  ASSERT_TRUE(equals_opencv_equalize(grey(4096, 4096, Kind::Skewed, 4096)));
  // 8192 x 8192 (2^26 pixels) built so that single precision decides a value: one 0, 2^25 - 1 ones,
  // the rest 2. float(2^26 - 1) = 2^26 and float(2^25 - 1) = 2^25, so lut[1] = rint(127.5) = 128;
  // exact arithmetic gives 127.
  image::Image big = make(8192, 8192, 1);
  std::fill(big.pixels.begin() + 1, big.pixels.begin() + (1 << 25), uint8_t(1));
  std::fill(big.pixels.begin() + (1 << 25), big.pixels.end(), uint8_t(2));
  ASSERT_TRUE(equals_opencv_equalize(big));
  EXPECT_EQ(equalize_lut(histogram_cpu(big.pixels))[1], 128);
}

// A 4096 x 4096 RGB image whose pixel i is (i >> 16, i >> 8, i) & 255: every triple once.
image::Image all_triples() {
  image::Image img = make(4096, 4096, 3);
  for (uint32_t i = 0; i < (1u << 24); ++i) {
    img.pixels[3 * size_t(i)] = uint8_t(i >> 16);
    img.pixels[3 * size_t(i) + 1] = uint8_t(i >> 8);
    img.pixels[3 * size_t(i) + 2] = uint8_t(i);
  }
  return img;
}

// Our conversion convert(a, b, c, &x, &y, &z) of every triple (a, b, c) = pixel i of all_triples()
// against OpenCV's result `e` (3 bytes a pixel); the first 5 mismatches reported, all counted.
template <class Convert>
size_t count_mismatches(const char* from, const uint8_t* e, Convert convert) {
  size_t mismatches = 0;
  for (uint32_t i = 0; i < (1u << 24); ++i) {
    uint8_t x, y, z;
    convert(int(i >> 16), int((i >> 8) & 255), int(i & 255), &x, &y, &z);
    if (x != e[3 * size_t(i)] || y != e[3 * size_t(i) + 1] || z != e[3 * size_t(i) + 2]) {
      if (++mismatches <= 5)
        ADD_FAILURE() << from << " " << (i >> 16) << "," << ((i >> 8) & 255) << "," << (i & 255) << ": ours "
                      << int(x) << "," << int(y) << "," << int(z) << ", OpenCV " << int(e[3 * size_t(i)])
                      << "," << int(e[3 * size_t(i) + 1]) << "," << int(e[3 * size_t(i) + 2]);
    }
  }
  return mismatches;
}

TEST(HistEqOpenCv, RgbToYCrCbOnAllTriples) {
  const image::Image img = all_triples();
  cv::Mat dst;
  cv::cvtColor(view(img), dst, cv::COLOR_RGB2YCrCb);
  ASSERT_TRUE(dst.isContinuous());
  EXPECT_EQ(count_mismatches("RGB", dst.data, rgb_to_ycrcb), 0u);
  // And split() uses exactly this conversion.
  const Planes p = split(img, Colour::Luminance);
  std::vector<cv::Mat> ch;
  cv::split(dst, ch);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(p.planes[size_t(k)], bytes(ch[size_t(k)])) << k;
}

TEST(HistEqOpenCv, YCrCbToRgbOnAllTriples) {
  const image::Image img = all_triples();
  cv::Mat dst;
  cv::cvtColor(view(img), dst, cv::COLOR_YCrCb2RGB);
  ASSERT_TRUE(dst.isContinuous());
  EXPECT_EQ(count_mismatches("YCrCb", dst.data, ycrcb_to_rgb), 0u);
}

image::Image colour_image(int w, int h, int c, uint64_t seed) {
  image::Image img = make(w, h, c);
  Rng r(seed);
  // Hazy content: a narrow range per channel with a gradient, so equalizing moves every channel.
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = &img.pixels[(size_t(y) * size_t(w) + size_t(x)) * size_t(c)];
      const int base = 90 + (x * 40) / std::max(1, w) + (y * 20) / std::max(1, h);
      p[0] = uint8_t(base + int(r.below(30)));
      p[1] = uint8_t(base - 20 + int(r.below(25)));
      p[2] = uint8_t(std::min(255, base + 30 + int(r.below(60))));
      if (c == 4) p[3] = uint8_t(r.below(256));
    }
  return img;
}

// OpenCV's recipe for colour images: to YCrCb, equalize Y, merge, back to RGB.
std::vector<uint8_t> opencv_luminance(const image::Image& rgb) {
  cv::Mat ycrcb;
  cv::cvtColor(view(rgb), ycrcb, cv::COLOR_RGB2YCrCb);
  std::vector<cv::Mat> ch;
  cv::split(ycrcb, ch);
  cv::equalizeHist(ch[0], ch[0]);
  cv::merge(ch, ycrcb);
  cv::Mat out;
  cv::cvtColor(ycrcb, out, cv::COLOR_YCrCb2RGB);
  return bytes(out);
}

std::vector<uint8_t> opencv_per_channel(const image::Image& rgb) {
  std::vector<cv::Mat> ch;
  cv::split(view(rgb), ch);
  for (auto& m : ch) cv::equalizeHist(m, m);
  cv::Mat out;
  cv::merge(ch, out);
  return bytes(out);
}

TEST(HistEqOpenCv, ColourPathsFollowTheOpenCvRecipe) {
  for (auto [w, h] : {std::pair{1, 1}, {1, 9}, {9, 1}, {33, 17}, {317, 211}, {1024, 768}}) {
    const image::Image img = colour_image(w, h, 3, uint64_t(w * 7 + h));
    const image::Image lum = process_cpu(img, Mode::Equalize, Colour::Luminance);
    EXPECT_EQ(lum.pixels, opencv_luminance(img)) << w << "x" << h;
    const image::Image per = process_cpu(img, Mode::Equalize, Colour::PerChannel);
    EXPECT_EQ(per.pixels, opencv_per_channel(img)) << w << "x" << h;
    if (w * h > 100) {
      EXPECT_NE(lum.pixels, img.pixels);
    }
  }
  // Every triple once (each Y level appears): the recipe on the 4096 x 4096 image of all colours.
  image::Image all = make(4096, 4096, 3);
  for (uint32_t i = 0; i < (1u << 24); ++i) {
    all.pixels[3 * size_t(i)] = uint8_t(i);
    all.pixels[3 * size_t(i) + 1] = uint8_t(i >> 8);
    all.pixels[3 * size_t(i) + 2] = uint8_t(i >> 16);
  }
  EXPECT_EQ(process_cpu(all, Mode::Equalize, Colour::Luminance).pixels, opencv_luminance(all));
}

TEST(HistEqOpenCv, ColourWithAlphaFollowsTheRecipeAndKeepsAlpha) {
  const image::Image rgba = colour_image(211, 97, 4, 3);
  image::Image rgb = make(211, 97, 3);
  for (size_t i = 0; i < rgba.pixel_count(); ++i)
    for (int k = 0; k < 3; ++k) rgb.pixels[3 * i + size_t(k)] = rgba.pixels[4 * i + size_t(k)];
  for (Colour colour : {Colour::Luminance, Colour::PerChannel}) {
    const std::vector<uint8_t> expected =
        colour == Colour::Luminance ? opencv_luminance(rgb) : opencv_per_channel(rgb);
    const image::Image out = process_cpu(rgba, Mode::Equalize, colour);
    for (size_t i = 0; i < rgba.pixel_count(); ++i) {
      for (int k = 0; k < 3; ++k) ASSERT_EQ(out.pixels[4 * i + size_t(k)], expected[3 * i + size_t(k)]) << i;
      ASSERT_EQ(out.pixels[4 * i + 3], rgba.pixels[4 * i + 3]) << i;
    }
  }
}

}  // namespace
}  // namespace gpulab::histeq

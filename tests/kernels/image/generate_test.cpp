// The generated images: the listed sizes and channels, deterministic, any size, and pictures with
// the histograms their demos rely on (narrow, dark, bright, two peaks).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>

#include "image/image.h"

namespace gpulab::image {
namespace {

using Histogram = std::array<size_t, 256>;

Histogram luminance_histogram(const Image& img) {
  Histogram h{};
  for (uint8_t v : convert_channels(img, 1).pixels) ++h[v];
  return h;
}
double fraction(const Histogram& h, int lo, int hi) {  // of the pixels in [lo, hi)
  size_t in = 0, all = 0;
  for (int v = 0; v < 256; ++v) {
    all += h[size_t(v)];
    if (v >= lo && v < hi) in += h[size_t(v)];
  }
  return double(in) / double(all);
}
int lowest(const Histogram& h) {
  return int(std::find_if(h.begin(), h.end(), [](size_t n) { return n > 0; }) - h.begin());
}
int highest(const Histogram& h) {
  return 255 - int(std::find_if(h.rbegin(), h.rend(), [](size_t n) { return n > 0; }) - h.rbegin());
}

// Generated once at full size for all the tests below.
const Image& full(std::string_view id) {
  static const auto images = [] {
    std::vector<std::pair<std::string, Image>> all;
    for (const Generated& g : generated_images()) all.emplace_back(std::string(g.id), generate(g));
    return all;
  }();
  for (const auto& [name, img] : images)
    if (name == id) return img;
  throw std::invalid_argument(std::string(id));
}

TEST(ImageGenerate, TheListHasTheDemoImages) {
  std::set<std::string> ids;
  for (const Generated& g : generated_images()) {
    EXPECT_TRUE(ids.insert(std::string(g.id)).second) << "listed twice: " << g.id;
    EXPECT_FALSE(g.title.empty());
    EXPECT_EQ(find_generated(g.id), &g);
    const Image& img = full(g.id);
    EXPECT_EQ(img.width, g.width) << g.id;
    EXPECT_EQ(img.height, g.height) << g.id;
    EXPECT_EQ(img.channels, g.channels) << g.id;
    EXPECT_EQ(img.pixels.size(), size_t(g.width) * g.height * g.channels) << g.id;
  }
  for (const char* id : {"hazy-landscape", "dark-room", "bright-snow", "bimodal"})
    EXPECT_TRUE(ids.count(id)) << id;
  EXPECT_EQ(find_generated("hazy-landscape")->channels, 3);
  EXPECT_EQ(find_generated("no-such-image"), nullptr);
}

TEST(ImageGenerate, IsDeterministic) {
  for (const Generated& g : generated_images()) EXPECT_TRUE(generate(g) == full(g.id)) << g.id;
}

TEST(ImageGenerate, AnySizeIncludingOddAndEmptyOnes) {
  for (const Generated& g : generated_images())
    for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 7}, std::pair{17, 5}, std::pair{641, 1},
                        std::pair{1, 33}, std::pair{0, 0}, std::pair{0, 9}}) {
      const Image img = generate(g.id, w, h);
      EXPECT_EQ(img.width, w);
      EXPECT_EQ(img.height, h);
      EXPECT_EQ(img.channels, g.channels);
      EXPECT_EQ(img.pixels.size(), size_t(w) * h * g.channels) << g.id << " " << w << "x" << h;
    }
  EXPECT_THROW(generate("no-such-image", 4, 4), std::invalid_argument);
  EXPECT_THROW(generate("dark-room", -1, 4), std::invalid_argument);
  EXPECT_THROW(generate("dark-room", kMaxSide + 1, 1), std::invalid_argument);
}

TEST(ImageGenerate, SmallSizesShowTheSamePictureAndSurvivePng) {
  const Image small = generate("bimodal", 64, 40);
  const Histogram h = luminance_histogram(small);
  EXPECT_GT(fraction(h, 0, 100), 0.03);
  EXPECT_GT(fraction(h, 150, 256), 0.5);
  const LoadResult r = decode(encode_png(small), "bimodal.png");
  EXPECT_EQ(r.image, small);
}

TEST(ImageGenerate, HazyLandscapeIsColourAndLowContrastButNotFlat) {
  const Image& img = full("hazy-landscape");
  const Histogram h = luminance_histogram(img);
  const int range = highest(h) - lowest(h);
  EXPECT_GT(range, 20);
  EXPECT_LT(range, 90);
  EXPECT_GE(lowest(h), 80);
  EXPECT_LE(highest(h), 180);
  EXPECT_LT(*std::max_element(h.begin(), h.end()), img.pixel_count() / 10);  // spread over many levels
  size_t tinted = 0;  // colour, not grey in three channels
  for (size_t i = 0; i < img.pixel_count(); ++i)
    tinted += std::abs(int(img.pixels[i * 3]) - int(img.pixels[i * 3 + 2])) > 6;
  EXPECT_GT(tinted, img.pixel_count() / 4);
}

TEST(ImageGenerate, DarkRoomIsMostlyDark) {
  const Histogram h = luminance_histogram(full("dark-room"));
  EXPECT_GT(fraction(h, 0, 64), 0.9);
  EXPECT_GT(highest(h) - lowest(h), 60);  // the window is there
}

TEST(ImageGenerate, BrightSnowIsMostlyBright) {
  const Histogram h = luminance_histogram(full("bright-snow"));
  EXPECT_GT(fraction(h, 190, 256), 0.9);
  EXPECT_LT(lowest(h), 170);  // trees and fence posts
}

TEST(ImageGenerate, BimodalHasTwoSeparatedPeaks) {
  const Histogram h = luminance_histogram(full("bimodal"));
  const auto dark = std::max_element(h.begin(), h.begin() + 128),
             bright = std::max_element(h.begin() + 128, h.end());
  EXPECT_LT(dark - h.begin(), 100);
  EXPECT_GT(bright - h.begin(), 170);
  EXPECT_GT(fraction(h, 0, 100), 0.05);  // each population is a real share of the picture
  EXPECT_GT(fraction(h, 150, 256), 0.5);
  EXPECT_LT(fraction(h, 100, 150), 0.01);  // and the valley between them is empty
}

}  // namespace
}  // namespace gpulab::image

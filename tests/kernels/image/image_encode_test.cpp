// PNG encoding and saving with the image's own channel count, and channel conversion as stb does it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "image/image.h"

namespace gpulab::image {
namespace {

namespace fs = std::filesystem;

Image pattern(int w, int h, int channels) {
  Image img{w, h, channels, {}};
  img.pixels.resize(size_t(w) * h * channels);
  for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = uint8_t(i * 29 + (i >> 5) * 7);
  return img;
}

class ImageSave : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("gpulab-image-save-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  fs::path dir_;
};

TEST(ImageEncode, PngStartsWithTheSignatureAndRefusesBadImages) {
  const std::vector<uint8_t> png = encode_png(pattern(3, 3, 1));
  ASSERT_GE(png.size(), 8u);
  EXPECT_EQ(std::string(png.begin(), png.begin() + 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_TRUE(encode_png(Image{}).empty());
  EXPECT_TRUE(encode_png(Image{2, 2, 5, std::vector<uint8_t>(20)}).empty());
  EXPECT_TRUE(encode_png(Image{2, 2, 3, std::vector<uint8_t>(11)}).empty());  // too few pixels
}

TEST_F(ImageSave, EveryChannelCountRoundTripsThroughAFile) {
  for (int channels = 1; channels <= 4; ++channels) {
    const Image img = pattern(13, 7, channels);
    const fs::path path = dir_ / (std::to_string(channels) + "-channels.png");
    ASSERT_EQ(save_png(path, img), "");
    EXPECT_FALSE(fs::exists(fs::path(path.string() + ".tmp"))) << "temporary file left behind";
    const LoadResult r = load(path);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.image, img) << channels << " channels";
  }
  const Image img = pattern(4, 3, 2);
  ASSERT_EQ(save_png(dir_ / "raw.png", 4, 3, 2, img.pixels.data()), "");
  EXPECT_EQ(load(dir_ / "raw.png").image, img);
}

TEST_F(ImageSave, FailuresSayWhyAndLeaveNothing) {
  const Image img = pattern(2, 2, 3);
  const fs::path missing = dir_ / "no-such-folder" / "x.png";
  std::string e = save_png(missing, img);
  EXPECT_NE(e.find("no-such-folder"), std::string::npos) << e;
  EXPECT_NE(e.find("does not exist (gpulab creates no folders)"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(missing));

  e = save_png(dir_ / "empty.png", Image{0, 3, 1, {}});
  EXPECT_NE(e.find("empty.png"), std::string::npos) << e;
  EXPECT_NE(e.find("empty"), std::string::npos) << e;
  e = save_png(dir_ / "five.png", Image{1, 1, 5, std::vector<uint8_t>(5)});
  EXPECT_NE(e.find("channel"), std::string::npos) << e;
  e = save_png(dir_ / "short.png", Image{4, 4, 3, std::vector<uint8_t>(47)});
  EXPECT_NE(e.find("47 bytes"), std::string::npos) << e;
  EXPECT_NE(save_png(dir_ / "null.png", 2, 2, 4, nullptr), "");
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST(ImageConvert, EveryPairOfChannelCountsAsStbDoes) {
  // One pixel, every source layout; r, g, b = 200, 100, 50 give grey (200*77 + 100*150 + 50*29) >> 8.
  const uint8_t y = uint8_t((200 * 77 + 100 * 150 + 50 * 29) >> 8);
  const std::vector<std::vector<uint8_t>> source = {{90}, {90, 7}, {200, 100, 50}, {200, 100, 50, 7}};
  const std::vector<std::vector<std::vector<uint8_t>>> expected = {
      {{90}, {90, 255}, {90, 90, 90}, {90, 90, 90, 255}},
      {{90}, {90, 7}, {90, 90, 90}, {90, 90, 90, 7}},
      {{y}, {y, 255}, {200, 100, 50}, {200, 100, 50, 255}},
      {{y}, {y, 7}, {200, 100, 50}, {200, 100, 50, 7}},
  };
  for (int from = 1; from <= 4; ++from)
    for (int to = 1; to <= 4; ++to) {
      const Image out = convert_channels(Image{1, 1, from, source[size_t(from - 1)]}, to);
      EXPECT_EQ(out.channels, to);
      EXPECT_EQ(out.pixels, expected[size_t(from - 1)][size_t(to - 1)]) << from << " -> " << to;
    }
  const Image big = convert_channels(pattern(5, 3, 3), 4);
  EXPECT_EQ(big.width, 5);
  EXPECT_EQ(big.height, 3);
  EXPECT_EQ(convert_channels(big, 3), pattern(5, 3, 3));  // alpha added, then dropped
  EXPECT_THROW(convert_channels(pattern(2, 2, 3), 5), std::invalid_argument);
  EXPECT_THROW(convert_channels(Image{2, 2, 3, std::vector<uint8_t>(3)}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gpulab::image

// PNG writing/reading and screenshot names, without GL: exact round trips on odd sizes, and
// failures that name the file and the reason.
#include "gl/image_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "image/image.h"

namespace gpulab::gl {
namespace {

namespace fs = std::filesystem;

class ImageIo : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("gpulab-image-io-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(dir_, ignored);
  }
  fs::path dir_;
};

std::vector<uint8_t> pattern(int w, int h) {
  std::vector<uint8_t> rgba(size_t(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = &rgba[(size_t(y) * w + x) * 4];
      p[0] = uint8_t(x * 7);
      p[1] = uint8_t(y * 9 + 5);
      p[2] = uint8_t(x ^ (y * 3));
      p[3] = uint8_t((x + y) % 2 ? 255 : x * 3);  // transparent and opaque pixels both
    }
  return rgba;
}

TEST_F(ImageIo, PngRoundTripIsExactForOddSizes) {
  for (auto [w, h] : {std::pair{37, 23}, std::pair{1, 1}, std::pair{1, 17}, std::pair{255, 3}}) {
    const auto rgba = pattern(w, h);
    const fs::path path = dir_ / ("img-" + std::to_string(w) + "x" + std::to_string(h) + ".png");
    ASSERT_EQ(write_png(path, w, h, rgba.data()), "");
    EXPECT_FALSE(fs::exists(fs::path(path.string() + ".tmp"))) << "temporary file left behind";
    std::string error = "stale";
    const Image image = read_image(path, &error);
    EXPECT_EQ(error, "");
    ASSERT_EQ(image.width, w);
    ASSERT_EQ(image.height, h);
    EXPECT_EQ(image.rgba, rgba) << w << "x" << h;
  }
}

TEST_F(ImageIo, PngFileStartsWithThePngSignature) {
  const auto rgba = pattern(4, 4);
  const fs::path path = dir_ / "sig.png";
  ASSERT_EQ(write_png(path, 4, 4, rgba.data()), "");
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  EXPECT_EQ(std::string(magic, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST_F(ImageIo, WriteFailuresSayWhy) {
  const auto rgba = pattern(2, 2);
  const fs::path missing = dir_ / "no-such-folder" / "x.png";
  const std::string error = write_png(missing, 2, 2, rgba.data());
  EXPECT_NE(error.find("no-such-folder"), std::string::npos) << error;
  EXPECT_NE(error.find("does not exist (gpulab creates no folders)"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(missing));

  EXPECT_NE(write_png(dir_ / "empty.png", 0, 3, rgba.data()).find("empty"), std::string::npos);
  EXPECT_NE(write_png(dir_ / "null.png", 2, 2, nullptr), "");
}

TEST_F(ImageIo, ReadFailuresSayWhy) {
  std::string error;
  Image image = read_image(dir_ / "missing.png", &error);
  EXPECT_EQ(image.width, 0);
  EXPECT_TRUE(image.rgba.empty());
  EXPECT_NE(error.find("missing.png"), std::string::npos) << error;
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;

  const fs::path text = dir_ / "not-an-image.png";
  std::ofstream(text) << "this is not an image";
  error.clear();
  image = read_image(text, &error);
  EXPECT_TRUE(image.rgba.empty());
  EXPECT_NE(error.find("not-an-image.png"), std::string::npos) << error;
  EXPECT_NE(error.find("not a readable image"), std::string::npos) << error;
}

TEST_F(ImageIo, GreyAndGreyAlphaFilesReadAsRgba) {
  // A grey + alpha PNG (written through gpulab::image, which keeps its 2 channels) comes back as
  // RGBA with the grey replicated.
  const fs::path path = dir_ / "grey-alpha.png";
  const std::vector<uint8_t> ga = {10, 255, 200, 0, 77, 128};
  ASSERT_EQ(image::save_png(path, 3, 1, 2, ga.data()), "");
  std::string error = "stale";
  const Image image = read_image(path, &error);
  EXPECT_EQ(error, "");
  ASSERT_EQ(image.width, 3);
  EXPECT_EQ(image.rgba, (std::vector<uint8_t>{10, 10, 10, 255, 200, 200, 200, 0, 77, 77, 77, 128}));
}

TEST_F(ImageIo, ScreenshotPathCreatesTheFolderAndHasATimestamp) {
  const fs::path folder = dir_ / "nested" / "shots";
  const fs::path path = unique_screenshot_path(folder, "life");
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_EQ(path.parent_path(), folder);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(std::regex_match(path.filename().string(), std::regex(R"(life-\d{8}-\d{6}\.png)"))) << path;
}

// F9 with `recordings` a file said "screenshot folder": the folder is named, and what is wrong with it.
TEST_F(ImageIo, ASaveFolderThatIsAFileIsNamedAsSuch) {
  const fs::path file = dir_ / "recordings";
  std::ofstream(file) << "not a folder";
  try {
    (void)unique_screenshot_path(file, "gpulab-life", ".mp4");
    ADD_FAILURE() << "a file was taken for a folder";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot save into '" + file.string() + "': it is a file, not a folder");
  }
  try {
    (void)unique_screenshot_path(file / "inner", "gpulab-life", ".mp4");
    ADD_FAILURE() << "a folder was made under a file";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("cannot create the folder '" + (file / "inner").string() + "': ", 0), 0u)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find("screenshot"), std::string::npos) << e.what();
  }
}

TEST_F(ImageIo, ScreenshotPathNeverReturnsAnExistingFile) {
  // Occupy the names for this second and the next two (the clock may tick during the test), with
  // and without the first suffixes, so the answer has to count past them.
  const std::regex name(R"(shot-(\d{8}-\d{6})(-(\d+))?\.png)");
  std::smatch m;
  const std::string first = unique_screenshot_path(dir_, "shot").filename().string();
  ASSERT_TRUE(std::regex_match(first, m, name)) << first;
  std::set<std::string> taken;
  for (int n = 0; n < 6; ++n) {
    const fs::path path = unique_screenshot_path(dir_, "shot");
    ASSERT_FALSE(fs::exists(path)) << path;
    const std::string file = path.filename().string();
    ASSERT_TRUE(std::regex_match(file, m, name)) << file;
    EXPECT_TRUE(taken.insert(file).second) << "returned twice: " << file;
    std::ofstream(path) << "occupied";
  }
  // Six names were handed out within at most a few seconds: at least one second had several, so
  // the -2, -3 suffixes were used.
  bool suffixed = false;
  for (const auto& file : taken)
    if (std::regex_match(file, m, name) && m[3].matched) suffixed = true;
  EXPECT_TRUE(suffixed);

  // A dangling symlink occupies its name too.
  const fs::path next = unique_screenshot_path(dir_, "link");
  fs::create_symlink(dir_ / "nowhere", next);
  EXPECT_NE(unique_screenshot_path(dir_, "link"), next);
}

TEST_F(ImageIo, ScreenshotPathFailsClearlyWhenTheFolderCannotBeMade) {
  const fs::path file = dir_ / "a-file";
  std::ofstream(file) << "x";
  try {
    unique_screenshot_path(file / "sub", "shot");
    FAIL() << "expected an exception";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("a-file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpulab::gl

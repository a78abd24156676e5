// End to end through the binary, headless (EGL; Mesa's software device where there is no GPU).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "core/demo.h"
#include "gl/image_io.h"
#include "life/life.h"
#include "life/pattern.h"
#include "support/demo_names.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;

namespace {

using gpulab::testing::ProcessResult;

ProcessResult run_gpulab(const std::string& args) { return gpulab::testing::run_gpulab(args, "gpulab-test"); }
fs::path temp_dir() { return gpulab::testing::temp_dir("gpulab-headless"); }

TEST(HeadlessApp, LifeScreenshotShowsLiveAndDeadCells) {
  const fs::path png = temp_dir() / "life.png";
  fs::remove(png);
  // 256x256 cells fitted into 480x270 pixels: about one pixel a cell, so the exact live and dead
  // colours must both be there (a blank or black frame fails).
  const ProcessResult r =
      run_gpulab("--headless --demo life --frames 60 --size 480x270 --grid 256x256 --no-ui --screenshot " +
                 png.string());
  ASSERT_EQ(r.status, 0) << r.output;
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  ASSERT_EQ(img.width, 480) << err;
  ASSERT_EQ(img.height, 270);
  const gpulab::life::View colours;
  size_t alive = 0, dead = 0;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
    const uint32_t c = img.rgba[i] | img.rgba[i + 1] << 8 | img.rgba[i + 2] << 16 | 0xFF000000u;
    alive += c == colours.alive_rgba;
    dead += c == colours.dead_rgba;
  }
  // A random soup after 60 generations: a few percent to a third of the cells alive.
  EXPECT_GT(alive, 480u * 270u / 100u) << "no live cells in the screenshot";
  EXPECT_GT(dead, 480u * 270u / 4u) << "no dead cells in the screenshot";
}

// Every registered demo starts headless and draws: with the UI a varied picture, without it a
// picture that is not one flat colour (the demo's own drawing, not just the clear colour).
class EveryDemo : public ::testing::TestWithParam<std::string> {};

std::set<uint32_t> colours_in(const gpulab::gl::Image& img) {
  std::set<uint32_t> seen;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    seen.insert(img.rgba[i] | img.rgba[i + 1] << 8 | img.rgba[i + 2] << 16);
  return seen;
}

TEST_P(EveryDemo, HeadlessScreenshotWithAndWithoutUiIsNotBlank) {
  const std::string demo = GetParam();
  for (const bool ui : {true, false}) {
    const fs::path png = temp_dir() / (demo + (ui ? "-ui.png" : "-noui.png"));
    fs::remove(png);
    const ProcessResult r =
        run_gpulab("--headless --demo " + demo + " --frames 10 --size 640x480 --caption " +
                   (ui ? "" : "--no-ui ") + "--screenshot " + png.string());
    ASSERT_EQ(r.status, 0) << r.output;
    std::string err;
    const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
    ASSERT_EQ(img.width, 640) << err;
    ASSERT_EQ(img.height, 480);
    const auto seen = colours_in(img);
    if (ui)
      EXPECT_GT(seen.size(), 20u) << demo << ": the UI's text and widgets are missing";
    else
      EXPECT_GT(seen.size(), 1u) << demo << ": a blank frame";
  }
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryDemo, ::testing::ValuesIn(gpulab::testing::demo_names()),
                         [](const auto& info) { return info.param; });

TEST(HeadlessApp, PatternLargerThanTheGridIsRefused) {
  const fs::path out = temp_dir() / "refused.rle";
  fs::remove(out);
  const ProcessResult r =
      run_gpulab("--headless --cpu --grid 8x8 --pattern " + std::string(GPULAB_TEST_ASSETS) +
                 "/patterns/gosper-glider-gun.rle --steps 0 --save-pattern " + out.string());
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("larger than the 8x8 grid"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(HeadlessApp, UnknownDemoIsAnError) {
  const ProcessResult r = run_gpulab("--headless --cpu --frames 1 --demo nosuchdemo");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("no demo 'nosuchdemo'"), std::string::npos) << r.output;
}

TEST(HeadlessApp, ScreenshotWithoutUiShowsOnlyCells) {
  const fs::path png = temp_dir() / "noui.png";
  fs::remove(png);
  // Only cell colours (live, dead, background and the blends of cells sharing a pixel) may appear;
  // the UI's anti-aliased text and widgets would bring dozens more.
  const ProcessResult r = run_gpulab(
      "--headless --cpu --frames 2 --size 128x128 --grid 64x64 --no-ui --screenshot " + png.string());
  ASSERT_EQ(r.status, 0) << r.output;
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  ASSERT_EQ(img.width, 128) << err;
  std::set<uint32_t> colours;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    colours.insert(img.rgba[i] | img.rgba[i + 1] << 8 | img.rgba[i + 2] << 16);
  EXPECT_GE(colours.size(), 2u);
  EXPECT_LE(colours.size(), 10u) << "UI colours in a --no-ui screenshot";
}

TEST(HeadlessApp, SavePatternRunsExactlyKGenerations) {
  const fs::path dir = temp_dir();
  {
    std::ofstream g(dir / "glider.rle");
    g << "#N Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n";
  }
  const fs::path out = dir / "after.rle";
  fs::remove(out);
  const ProcessResult r =
      run_gpulab("--headless --cpu --grid 16x16 --pattern " + (dir / "glider.rle").string() +
                 " --steps 4 --save-pattern " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  auto res = gpulab::life::load_pattern_file(out.string());
  ASSERT_TRUE(res) << res.error.message;
  const gpulab::life::Pattern& p = *res.pattern;
  // After 4 generations a glider is itself again, one cell down and right.
  ASSERT_EQ(p.width, 3);
  ASSERT_EQ(p.height, 3);
  const std::vector<uint8_t> glider{0, 1, 0, 0, 0, 1, 1, 1, 1};
  EXPECT_EQ(p.dense(), glider);
  ASSERT_TRUE(p.offset.has_value());
  EXPECT_EQ(p.offset->x, (16 - 3) / 2 + 1);
  EXPECT_EQ(p.offset->y, (16 - 3) / 2 + 1);
}

TEST(HeadlessApp, MalformedPatternNamesTheLineAndFails) {
  const fs::path dir = temp_dir();
  {
    std::ofstream g(dir / "bad.rle");
    g << "#N Bad\nx = 3, y = 3\nbo$2bo$3q!\n";
  }
  const ProcessResult r = run_gpulab("--headless --cpu --frames 1 --pattern " + (dir / "bad.rle").string());
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("bad.rle:3"), std::string::npos) << r.output;
}

TEST(HeadlessApp, UnknownFlagPrintsUsageAndExits2) {
  const ProcessResult r = run_gpulab("--no-such-flag");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("Usage: gpulab"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--no-such-flag"), std::string::npos) << r.output;
}

TEST(HeadlessApp, ListNamesEveryDemoStageAndVariant) {
  const ProcessResult r = run_gpulab("--list");
  ASSERT_EQ(r.status, 0);
  for (const auto& d : gpulab::make_demos()) {
    EXPECT_NE(r.output.find(std::string(d->name())), std::string::npos) << d->name();
    for (const gpulab::Stage& st : d->stages()) {
      if (d->stages().size() > 1) {
        EXPECT_NE(r.output.find("stage " + std::string(st.id)), std::string::npos) << st.id;
      }
      for (const auto& v : st.variants)
        EXPECT_NE(r.output.find(std::string(v.id)), std::string::npos) << v.id;
    }
  }
}

TEST(HeadlessApp, StepsWithoutABatchOutputIsAnError) {
  const ProcessResult r = run_gpulab("--headless --cpu --frames 1 --steps 5");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("--steps goes with a batch output"), std::string::npos) << r.output;
}

TEST(HeadlessApp, BadValueSaysWhyAndExits1) {
  const ProcessResult r = run_gpulab("--headless --frames 0");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("--frames"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Usage:"), std::string::npos) << "a bad value is not a usage error";
}

}  // namespace

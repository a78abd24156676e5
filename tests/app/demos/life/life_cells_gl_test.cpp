// gl label, through the binary: a fitted Life grid has a whole number of pixels a cell (every cell the
// same size: crisp on a projector, where 7.39 pixels a cell made every third cell a pixel narrower),
// also at a size that is no power of two, and in projector mode. (A lesson fits its grid the same way.)
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "gl/image_io.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;

namespace {

// The lengths of the runs of one colour along row y, the first and last (cut by the grid's edge or
// the view) left out.
std::vector<int> runs(const gpulab::gl::Image& img, int y, int width) {
  std::vector<int> out;
  int start = 0;
  auto at = [&](int x) {
    const uint8_t* p = &img.rgba[(static_cast<size_t>(y) * img.width + x) * 4];
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16;
  };
  for (int x = 1; x <= width; ++x)
    if (x == width || at(x) != at(x - 1)) {
      out.push_back(x - start);
      start = x;
    }
  if (out.size() < 3) return {};
  return std::vector<int>(out.begin() + 1, out.end() - 1);
}

// The cell size a screenshot shows: the greatest common divisor of its inner runs along a few rows;
// 0 when the runs disagree with one size (cells of two widths).
int cell_pixels(const fs::path& png, int* smallest, double x_share = 1.0) {
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  EXPECT_TRUE(err.empty()) << err;
  int g = 0;
  *smallest = 1 << 30;
  for (int y = img.height / 4; y < img.height * 3 / 4; y += img.height / 16)
    for (int r : runs(img, y, static_cast<int>(img.width * x_share))) {
      g = std::gcd(g, r);
      *smallest = std::min(*smallest, r);
    }
  return g;
}

}  // namespace

TEST(LifeCells, AFittedGridHasAWholeNumberOfPixelsACell) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-life-cells");
  // 120x90 cells in 1000x700: 0.95 * min(8.33, 7.78) = 7.39, so 7 pixels a cell (no power of two).
  const fs::path shot = dir / "cells.png";
  const ProcessResult r = gpulab::testing::run_gpulab_in(
      "--headless --demo life --cpu --grid 120x90 --no-ui --size 1000x700 --frames 2 --screenshot " +
          shot.string(),
      dir, "gpulab-life-cells");
  ASSERT_EQ(r.status, 0) << r.output;
  int smallest = 0;
  EXPECT_EQ(cell_pixels(shot, &smallest), 7);
  EXPECT_EQ(smallest, 7) << "a single cell is 7 pixels wide";
}

TEST(LifeCells, InProjectorModeToo) {
  // Projector mode (UI scale 2, the HUD's band): whatever the view's size, one cell size, several
  // pixels wide, the smallest run a single cell.
  const fs::path dir = gpulab::testing::temp_dir("gpulab-life-cells") / "projector";
  const fs::path shot = dir / "cells.png";
  const ProcessResult r = gpulab::testing::run_gpulab_in(
      "--headless --demo life --cpu --grid 200x130 --projector --no-ui --size 1920x1080 --frames 2 "
      "--screenshot " +
          shot.string(),
      dir, "gpulab-life-cells");
  ASSERT_EQ(r.status, 0) << r.output;
  int smallest = 0;
  const int k = cell_pixels(shot, &smallest, 0.6);
  EXPECT_GE(k, 4);
  EXPECT_EQ(k, smallest) << "cells of one size: every run a whole number of cells";
  // Projector mode's light theme gives the view its light palette: dark cells on paper.
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(shot, &err);
  ASSERT_TRUE(err.empty()) << err;
  size_t paper = 0, ink = 0, all = 0;
  for (int y = img.height / 4; y < img.height * 3 / 4; ++y)
    for (int x = img.width / 8; x < img.width / 2; ++x, ++all) {
      const uint8_t* p = &img.rgba[(static_cast<size_t>(y) * img.width + x) * 4];
      paper += p[0] == 0xF7 && p[1] == 0xF5 && p[2] == 0xF2;
      ink += p[0] == 0x12 && p[1] == 0x2A && p[2] == 0x5A;
    }
  EXPECT_GT(paper, all / 3);
  EXPECT_GT(ink, all / 50);
}

// gl label: the ladder's PNG with the counters lines (headless EGL; Mesa on CI): the line is in the
// layout the PNG was drawn from, inside the image and its panel, and drawn (text-coloured pixels in
// its box; none in the kept line of a rung not measured yet).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gl/image_io.h"
#include "presenter/counters_command.h"
#include "presenter/ladder.h"
#include "presenter/ladder_png.h"
#include "support/gl_fixture.h"

namespace gpulab::presenter {
namespace {

namespace fs = std::filesystem;

class LadderCountersPng : public testing::HeadlessGlTest<LadderCountersPng, 64, 48> {};

// Each rung its own variant of the stage's table.
Rung rung(int index, const std::string& variant, bool gpu, double ms) {
  Rung r;
  r.pick = Pick{0, index, 0};
  r.stage_id = r.stage_title = "step";
  r.variant = variant;
  r.lesson = "what " + variant + " teaches";
  r.gpu = gpu;
  r.state = RungState::Measured;
  r.block_label = gpu ? "256" : "-";
  r.row.ms_median = ms;
  return r;
}

// Pixels in `box` of about colour `c` (the text's; the grid lines and the background are far from it).
int inked(const gl::Image& img, const Rect& box, Rgba c) {
  int n = 0;
  for (int y = int(box.y0); y < int(box.y1) && y < img.height; ++y)
    for (int x = int(box.x0); x < int(box.x1) && x < img.width; ++x) {
      const uint8_t* p = &img.rgba[(size_t(y) * size_t(img.width) + size_t(x)) * 4];
      n += std::abs(p[0] - c.r) + std::abs(p[1] - c.g) + std::abs(p[2] - c.b) < 60;
    }
  return n;
}

TEST_F(LadderCountersPng, TheSavedChartShowsEachMeasuredRungsCountersLine) {
  std::vector<Rung> rs = {rung(0, "cpu-naive", false, 400), rung(1, "gpu-naive", true, 2),
                          rung(2, "gpu-shared", true, 1)};
  compute_ladder(rs);
  CounterRow row;
  row.pick = rs[2].pick;
  row.variant = "gpu-shared";
  row.gpu = true;
  row.ideal.items_per_step = 1e6;
  row.ideal.item_unit = "cell updates";
  cuda::KernelCounters k;
  k[cuda::Metric::Duration] = 1e6;
  k[cuda::Metric::DramRead] = 1e6;
  k[cuda::Metric::DramWrite] = 1e6;
  k[cuda::Metric::WarpsActivePct] = 87;
  row.result.kernels = {k};
  row.result.total = cuda::sum_kernels(row.result.kernels);
  const ChartData d =
      ladder_chart(rs, "Game of Life", "NVIDIA H100 80GB HBM3", ladder_chart_counters({row}, 1));

  const fs::path out =
      fs::temp_directory_path() / ("gpulab-ladder-counters-" + std::to_string(::getpid()) + ".png");
  ChartPngInfo info;
  const ChartTheme theme = ChartTheme::dark();
  ASSERT_EQ(save_chart_png(d, 1920, 1080, out, theme, &info), "");
  std::string err;
  const gl::Image img = gl::read_image(out, &err);
  fs::remove(out);
  ASSERT_EQ(err, "");
  std::string problems;
  for (const std::string& p : layout_problems(info.layout)) problems += p + "\n";
  EXPECT_EQ(problems, "");

  const TextRun* t = info.layout.text(TextRole::Counters, 0, 2);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->text, "DRAM 2.00 B/cell update \xC2\xB7 0 bank conflicts \xC2\xB7 87% occupancy");
  EXPECT_TRUE(t->box().inside({0, 0, 1920, 1080}));
  EXPECT_GT(inked(img, t->box(), theme[ChartColour::Text]), int(t->width * t->size * 0.03f));
  // The unmeasured GPU rung keeps its line empty in the PNG (the window's button goes there).
  EXPECT_EQ(info.layout.text(TextRole::Counters, 0, 1), nullptr);
  bool slot = false;
  for (const ChartSlot& s : info.layout.slots)
    if (s.rung == 1) {
      slot = true;
      EXPECT_EQ(inked(img, s.rect, theme[ChartColour::Text]), 0);
    }
  EXPECT_TRUE(slot);
}

}  // namespace
}  // namespace gpulab::presenter

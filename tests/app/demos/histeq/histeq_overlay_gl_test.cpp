// gl label, through the binary: the histogram and CDF over the view (--histogram-overlay, a lesson
// step's overlay = "histogram") are in the picture itself, so a screenshot without the UI (a projected
// screen) shows them: the CDF's blue line in the view's lower left, the bars above a dark box. The
// histogram lesson opens it at its first step and keeps it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>

#include "gl/image_io.h"
#include "support/layout_report.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;

namespace {

ProcessResult run(const std::string& args, const fs::path& dir) {
  return gpulab::testing::run_gpulab_in(args, dir, "gpulab-histeq-overlay");
}

// Pixels of the CDF's blue (86, 180, 233, give or take the line's anti-aliasing) in the part of
// `png` x in [x0, x1), y in [y0, y1) (fractions of its size, y down).
int cdf_pixels(const fs::path& png, double x0, double x1, double y0, double y1) {
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  EXPECT_TRUE(err.empty()) << err;
  int n = 0;
  for (int y = static_cast<int>(y0 * img.height); y < static_cast<int>(y1 * img.height); ++y)
    for (int x = static_cast<int>(x0 * img.width); x < static_cast<int>(x1 * img.width); ++x) {
      const uint8_t* p = &img.rgba[(static_cast<size_t>(y) * img.width + x) * 4];
      n += std::abs(p[0] - 86) < 24 && std::abs(p[1] - 180) < 24 && std::abs(p[2] - 233) < 24;
    }
  return n;
}

}  // namespace

TEST(HisteqOverlay, TheHistogramIsInTheProjectedPicture) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-histeq-overlay");
  const fs::path plain = dir / "plain.png", over = dir / "over.png";
  const std::string common =
      "--headless --demo histeq --cpu --no-ui --size 1280x720 --frames 3 --screenshot ";
  const ProcessResult a = run(common + plain.string(), dir);
  const ProcessResult b = run(common + over.string() + " --histogram-overlay", dir);
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  // The CDF of the before and after plots: two lines across the lower left half of the view.
  EXPECT_GT(cdf_pixels(over, 0.0, 0.5, 0.5, 1.0), 300);
  EXPECT_EQ(cdf_pixels(plain, 0.0, 0.5, 0.5, 1.0), 0);
  // The upper right is the image as it was.
  std::string e;
  const auto pa = gpulab::gl::read_image(plain, &e), pb = gpulab::gl::read_image(over, &e);
  ASSERT_TRUE(e.empty()) << e;
  for (int y = 0; y < 200; y += 7)
    for (int x = 800; x < 1280; x += 7) {
      const size_t i = (static_cast<size_t>(y) * 1280 + x) * 4;
      ASSERT_EQ(pa.rgba[i], pb.rgba[i]) << x << "," << y;
    }
}

TEST(HisteqOverlay, TheHistogramLessonShowsItOnTheProjectedScreen) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-histeq-overlay") / "lesson";
  const fs::path shot = dir / "step3.png";
  const std::string lesson = (fs::path(GPULAB_TEST_ASSETS) / "lessons/02-histogram.toml").string();
  const ProcessResult r =
      run("--headless --cpu --lesson " + lesson +
              " --lesson-step 3 --no-ui --size 1920x1080 --frames 3 --screenshot " + shot.string(),
          dir);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_GT(cdf_pixels(shot, 0.0, 0.7, 0.3, 1.0), 300) << "step 3 still shows the overlay step 1 opened";
}

TEST(HisteqOverlay, LeavesTheUpperHalfOfTheViewToThePicture) {
  // Projector mode at the sizes where the view is shortest (a 720p screen at UI scale 2, a 1080p one
  // at 3): the histogram box takes at most half the view's height, at its bottom; at 1080p and UI
  // scale 1 it keeps its own size, under half. The layout report's view mark "histogram" is the box.
  const std::string lesson = (fs::path(GPULAB_TEST_ASSETS) / "lessons/02-histogram.toml").string();
  for (const auto& [size, scale] :
       {std::pair{"1280x720", "2"}, std::pair{"1920x1080", "3"}, std::pair{"1920x1080", "1"}}) {
    const std::string at = std::string(size) + " at UI scale " + scale;
    const fs::path dir =
        gpulab::testing::temp_dir("gpulab-histeq-overlay") / (std::string("half-") + size + "-" + scale);
    const gpulab::testing::ReportedRun r = gpulab::testing::run_with_layout_report(
        "--headless --cpu --projector --ui-scale " + std::string(scale) + " --lesson " + lesson +
            " --lesson-step 3 --frames 3 --size " + size,
        dir, "gpulab-histeq-overlay");
    ASSERT_EQ(r.process.status, 0) << at << "\n" << r.process.output;
    ASSERT_FALSE(r.report.is_discarded()) << at;
    const auto& view = r.report["regions"]["view"];
    const double vy0 = view[1].get<double>(), vy1 = view[3].get<double>();
    const nlohmann::json* box = nullptr;
    for (const auto& m : r.report["view_marks"])
      if (m["name"] == "histogram") box = &m["box"];
    ASSERT_NE(box, nullptr) << at << ": the histogram is drawn\n" << r.report["view_marks"].dump();
    const double y0 = (*box)[1].get<double>(), y1 = (*box)[3].get<double>();
    EXPECT_LE(y1 - y0, 0.5 * (vy1 - vy0) + 0.5)
        << at << ": box " << box->dump() << " in a view of " << view.dump();
    EXPECT_GE(y0, vy0 + 0.5 * (vy1 - vy0) - 0.5) << at << ": the box is in the view's lower half";
    EXPECT_LE(y1, vy1 + 0.5) << at;
    EXPECT_GE(y1 - y0, 0.25 * (vy1 - vy0)) << at << ": still a readable plot";
  }
}

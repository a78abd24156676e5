// gl label, through the binary in projector mode: the transpose's tile overlay (what one warp reads
// and writes, key T) is in the projected picture, sized by the framebuffer's height. At 1920x1080 and
// 3840x2160 the layout report says where the tile went: inside the view region, clear of the HUD, the
// caption and the panel; its outline twice as wide at 2160 as at 1080 and at least 2 px there. The
// screenshot shows the outline that wide: a dark grey input, so the white outline's pixels are its own.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gl/image_io.h"
#include "image/image.h"
#include "support/image_checks.h"
#include "support/layout_report.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;

namespace {

struct Box {
  float x0, y0, x1, y1;
};
Box box(const nlohmann::json& a) {
  return {a[0].get<float>(), a[1].get<float>(), a[2].get<float>(), a[3].get<float>()};
}
bool inside(const Box& a, const Box& outer) {
  return a.x0 >= outer.x0 - 0.5f && a.y0 >= outer.y0 - 0.5f && a.x1 <= outer.x1 + 0.5f &&
         a.y1 <= outer.y1 + 0.5f;
}
bool overlap(const Box& a, const Box& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

// The longest run of near-white pixels down column x around row y (the outline's width there).
int white_run(const gpulab::gl::Image& img, int x, int y, int reach) {
  int best = 0, run = 0;
  for (int yy = std::max(0, y - reach); yy < std::min(img.height, y + reach); ++yy) {
    const uint8_t* p = &img.rgba[(size_t(yy) * img.width + x) * 4];
    if (p[0] >= 200 && p[1] >= 200 && p[2] >= 200)
      best = std::max(best, ++run);
    else
      run = 0;
  }
  return best;
}

}  // namespace

TEST(MatrixOverlay, TheTileOverlayIsSizedForTheProjectorAndStaysInTheView) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-matrix-overlay");
  const fs::path in = dir / "grey.png";
  gpulab::testing::save_png_checked(in,
                                    gpulab::image::Image{256, 256, 1, std::vector<uint8_t>(256 * 256, 40)});
  float line_at[2] = {};
  int run_at[2] = {};
  for (int i = 0; i < 2; ++i) {
    const std::string size = i == 0 ? "1920x1080" : "3840x2160";
    SCOPED_TRACE(size);
    const fs::path shot = dir / ("tile-" + size + ".png");
    const gpulab::testing::ReportedRun r = gpulab::testing::run_with_layout_report(
        "--headless --cpu --demo matrix --op transpose --image " + in.string() +
            " --projector --frames 3 --size " + size + " --screenshot " + shot.string(),
        dir / size, "gpulab-matrix-overlay");
    ASSERT_EQ(r.process.status, 0) << r.process.output;
    ASSERT_FALSE(r.report.is_discarded());
    const auto& regions = r.report["regions"];
    const Box view = box(regions["view"]);
    const nlohmann::json* tile = nullptr;
    for (const auto& m : r.report["view_marks"]) {
      const Box b = box(m["box"]);
      EXPECT_TRUE(inside(b, view)) << m.dump() << " outside the view " << regions["view"].dump();
      for (const char* band : {"panel", "hud", "lesson", "caption", "code"}) {
        if (regions.contains(band)) {
          EXPECT_FALSE(overlap(b, box(regions[band]))) << m.dump() << " over " << band;
        }
      }
      if (m["name"] == "tile") tile = &m;
    }
    ASSERT_NE(tile, nullptr) << r.report["view_marks"].dump();
    line_at[i] = (*tile)["line_px"].get<float>();
    // The screenshot: down the middle of the tile's bottom edge (its top and left edges carry the
    // warp's strips), the outline is as wide as the report says, give or take its smoothed edges.
    std::string err;
    const gpulab::gl::Image img = gpulab::gl::read_image(shot, &err);
    ASSERT_TRUE(err.empty()) << err;
    const Box t = box((*tile)["box"]);
    run_at[i] = white_run(img, int((t.x0 + t.x1) / 2), int(t.y1), int(4 * line_at[i]) + 4);
    EXPECT_GE(run_at[i], int(line_at[i]) - 1) << "the outline is thinner than reported";
    EXPECT_LE(run_at[i], int(line_at[i]) + 2) << "the outline is wider than reported";
  }
  EXPECT_GE(line_at[1], 2.0f);
  EXPECT_NEAR(line_at[1] / line_at[0], 2.0f, 0.01f);
  EXPECT_GE(run_at[1], 2 * run_at[0] - 2) << "not twice as wide on the 4K screenshot";
}

// gl label, through the binary: the caption line (--caption, the panel's "caption") is set at least
// 28 px tall at 1080p, so that a projector's back row reads it: its band in the layout report and the
// white text's height in the picture.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gl/image_io.h"
#include "support/layout_report.h"

namespace fs = std::filesystem;

TEST(CaptionLine, AtLeast28PixelsAt1080p) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-caption-line");
  const fs::path shot = dir / "caption.png";
  const auto r = gpulab::testing::run_with_layout_report(
      "--headless --demo life --cpu --caption --no-ui --size 1920x1080 --frames 2 --screenshot " +
          shot.string(),
      dir, "gpulab-caption-line");
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  ASSERT_FALSE(r.report.is_discarded());
  ASSERT_TRUE(r.report["regions"].contains("caption")) << r.report.dump();
  const auto band = r.report["regions"]["caption"];
  const float y0 = band[1].get<float>(), y1 = band[3].get<float>();
  EXPECT_GE(y1 - y0, 28.0f + 12.0f);
  // The text: white pixels in the band, from the tallest glyph's top to the lowest's bottom ("|" and
  // "p" span more than the cap height).
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(shot, &err);
  ASSERT_TRUE(err.empty()) << err;
  int top = img.height, bottom = -1;
  for (int y = static_cast<int>(y0); y < static_cast<int>(y1) && y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const uint8_t* p = &img.rgba[(static_cast<size_t>(y) * img.width + x) * 4];
      if (p[0] > 200 && p[1] > 200 && p[2] > 200) {
        top = std::min(top, y);
        bottom = std::max(bottom, y);
      }
    }
  EXPECT_GE(bottom - top + 1, 24) << "the caption's text spans " << bottom - top + 1 << " px";
}

// The transfers timeline as a slide in --png-style's looks: lane colours from the Okabe-Ito palette
// (told apart with colour blindness) in every look, the projector's on black and the light one on
// white, and the PNG drawn with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "demos/transfers/transfers_view.h"
#include "gl/image_io.h"
#include "transfers/transfers.h"

namespace gpulab {
namespace {

namespace fs = std::filesystem;
using transfers::Op;
using transfers::Span;

// 0xAABBGGRR of the Okabe-Ito colours.
constexpr uint32_t kOkabeIto[] = {0xFF000000, 0xFF009FE6, 0xFFE9B456, 0xFF739E00,
                                  0xFF42E4F0, 0xFFB27200, 0xFF005ED5, 0xFFA779CC};

bool okabe_ito(uint32_t c) {
  return std::find(std::begin(kOkabeIto), std::end(kOkabeIto), c) != std::end(kOkabeIto);
}

TEST(TransfersSlide, LaneColoursAreOkabeItoInEveryLook) {
  for (const char* style : {"", "projector", "light"}) {
    SCOPED_TRACE(style);
    const transfers_view::TimelinePalette pal = transfers_view::timeline_palette(style);
    for (uint32_t c : pal.op) EXPECT_TRUE(okabe_ito(c)) << std::hex << c;
    EXPECT_NE(pal.op[0], pal.op[1]);
    EXPECT_NE(pal.op[1], pal.op[2]);
    EXPECT_NE(pal.op[0], pal.op[2]);
    EXPECT_TRUE(okabe_ito(pal.bound)) << std::hex << pal.bound;
    EXPECT_EQ(pal.slide, std::string(style) != "");
  }
  EXPECT_EQ(transfers_view::timeline_palette("projector").background, 0xFF000000u);
  EXPECT_EQ(transfers_view::timeline_palette("light").background, 0xFFFFFFFFu);
  EXPECT_EQ(transfers_view::timeline_palette("").background, 0xFF201A18u) << "the window's look stays";
  // The window's lanes are the default look's.
  EXPECT_EQ(transfers_view::op_colour(Op::H2D), transfers_view::timeline_palette("").op[0]);
  EXPECT_EQ(transfers_view::op_colour(Op::D2H), transfers_view::timeline_palette("").op[2]);
}

TEST(TransfersSlide, TheStyledPngIsDrawnInItsPalette) {
  const std::vector<Span> spans{
      {Op::H2D, 0, 0, 0.0, 4.0}, {Op::Kernel, 0, 0, 4.0, 8.0}, {Op::D2H, 0, 0, 8.0, 12.0}};
  transfers_view::TimelineLayout t = transfers_view::layout_timeline(spans, 1, 12.0, {4.0, 4.0, 4.0});
  t.title = "overlap";
  for (const char* style : {"projector", "light"}) {
    SCOPED_TRACE(style);
    const transfers_view::TimelinePalette pal = transfers_view::timeline_palette(style);
    const fs::path out = fs::temp_directory_path() / (std::string("gpulab-transfers-") + style + ".png");
    ASSERT_EQ(transfers_view::save_timeline_png(out, t, 1920, 1080, style), "");
    std::string err;
    const gl::Image img = gl::read_image(out, &err);
    ASSERT_EQ(err, "");
    auto is = [&](size_t i, uint32_t c) {
      return img.rgba[i] == (c & 0xFF) && img.rgba[i + 1] == ((c >> 8) & 0xFF) &&
             img.rgba[i + 2] == ((c >> 16) & 0xFF);
    };
    EXPECT_TRUE(is(0, pal.background));
    for (int op = 0; op < 3; op += 2) {  // H2D and D2H are opaque (the SMs' lane is blended)
      size_t n = 0;
      for (size_t i = 0; i < img.rgba.size(); i += 4) n += is(i, pal.op[op]);
      EXPECT_GT(n, 4000u) << op;
    }
    fs::remove(out);
  }
}

}  // namespace
}  // namespace gpulab

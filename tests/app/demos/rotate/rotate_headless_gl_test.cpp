// Texture rotation end to end (gl label: headless EGL, Mesa's software device on CI, the CPU backend
// where there is no GPU): the binary's screenshot shows the rotated picture, batch mode writes exactly
// rotate_cpu's bytes (grey stays grey, colour colour), bad numbers, words and files are refused naming
// the option or the file, and the demo itself, attached to a headless GL context, fills the displayed
// texture with the reference's pixels through both output paths, answers its keys and mouse, and its
// inspector's numbers are the definition's.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/timings.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/rotate/rotate_display.h"
#include "gl/gl.h"
#include "gl/image_io.h"
#include "image/image.h"
#include "rotate/rotate.h"
#include "support/demo_gl_fixture.h"
#include "support/gl_fixture.h"
#include "support/imgui_text.h"
#include "support/rotate_params.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;

namespace gpulab {
namespace {

using testing::colours_in_box;
using testing::params;
using testing::ProcessResult;
using testing::rgba_image;
using testing::rgba_of;
using testing::settings;
using testing::texture_bytes;

ProcessResult run_gpulab(const std::string& args) { return testing::run_gpulab(args, "gpulab-rotate"); }
fs::path temp_dir() { return testing::temp_dir("gpulab-rotate"); }

// ---------------------------------------------------------------------------------------------
// Through the binary.

TEST(RotateHeadless, ScreenshotShowsTheRotatedPicture) {
  const fs::path png = temp_dir() / "rotated.png";
  fs::remove(png);
  const ProcessResult r = run_gpulab(
      "--headless --cpu --demo rotate --frames 3 --size 640x400 --angle 30 --no-ui "
      "--screenshot " +
      png.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Texture rotation | cpu | linear, border, normalized | 30.0° x1.00 | 512x512 grey"),
            std::string::npos)
      << r.output;
  std::string err;
  const gl::Image img = gl::read_image(png, &err);
  ASSERT_EQ(img.width, 640) << err;
  ASSERT_EQ(img.height, 400);
  // The 512x512 filter test fitted with a margin: 384x384, centred (x 128..512, y 8..392).
  EXPECT_GT(colours_in_box(img, 200, 80, 440, 320).size(), 30u) << "the picture is flat";
  // Turned by 30° with border addressing, the image's corners show border texels: black.
  for (auto [x, y] : {std::pair{132, 12}, std::pair{507, 12}, std::pair{132, 387}, std::pair{507, 387}}) {
    const uint8_t* p = &img.rgba[(size_t(y) * img.width + x) * 4];
    EXPECT_EQ(p[0] | p[1] << 8 | p[2] << 16, 0u) << "corner " << x << "," << y << " is not a border texel";
  }
  // Outside the image: only the clear colour (letterbox), not black. (The source frame, drawn over
  // the view with the picture, reaches out to x = 58 at 30°: the strip left of it.)
  const auto outside = colours_in_box(img, 0, 0, 50, 400);
  ASSERT_EQ(outside.size(), 1u);
  EXPECT_NE(*outside.begin(), 0u);
}

struct BatchCase {
  image::Image image;
  std::string flags;
  rotate::Params params;
};

TEST(RotateHeadless, BatchWritesRotateCpuByteForByte) {
  const fs::path dir = temp_dir();
  using rotate::Address;
  using rotate::Filter;
  const image::Image grey = image::generate("filter-test", 131, 97);
  const image::Image colour = image::generate("hazy-landscape", 101, 67);
  const image::Image rgba = rgba_image(64, 80);
  const BatchCase cases[] = {
      {grey, "--angle 30", params(30, 1, Filter::Linear, Address::Border)},
      {grey, "--angle 90 --filter point --address clamp", params(90, 1, Filter::Point, Address::Clamp)},
      {colour, "--angle 30 --filter linear --address border", params(30, 1, Filter::Linear, Address::Border)},
      {colour, "--angle 90 --filter point --address clamp --variant cpu",
       params(90, 1, Filter::Point, Address::Clamp)},
      {rgba, "--angle 30", params(30, 1, Filter::Linear, Address::Border)},
      {grey, "--angle=-17.5 --scale 1.6 --address mirror --normalized off --read-mode element",
       params(-17.5f, 1.6f, Filter::Linear, Address::Mirror)},
      {colour, "--angle 200 --scale 0.4 --address wrap", params(200, 0.4f, Filter::Linear, Address::Wrap)},
  };
  int i = 0;
  for (const BatchCase& c : cases) {
    SCOPED_TRACE(c.flags + " on " + std::to_string(c.image.channels) + " channels");
    const fs::path in = dir / ("in" + std::to_string(i) + ".png"),
                   out = dir / ("out" + std::to_string(i) + ".png");
    ++i;
    fs::remove(out);
    const image::Image img = testing::save_png_checked(in, c.image);
    const ProcessResult r = run_gpulab("--headless --cpu --demo rotate --image " + in.string() + " " +
                                       c.flags + " --save-image " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    const image::LoadResult got = image::load(out);
    ASSERT_EQ(got.error, "");
    EXPECT_EQ(got.image.channels, img.channels) << "grey must stay grey, colour colour";
    const image::Image want = rotate::rotate_cpu(img, c.params);
    EXPECT_TRUE(got.image == want);
    EXPECT_NE(want, img) << "the case does not change the image: it proves nothing";
  }
}

TEST(RotateHeadless, BatchWithoutCpuFlagWritesTheInputsSize) {
  // The default variant: tex-array where a device exists (the texture unit's model byte for byte),
  // cpu elsewhere (the reference byte for byte).
  const fs::path in = temp_dir() / "default-in.png", out = temp_dir() / "default-out.png";
  fs::remove(out);
  const image::Image img = testing::save_png_checked(in, image::generate("filter-test", 120, 90));
  const ProcessResult r = run_gpulab("--headless --demo rotate --image " + in.string() +
                                     " --angle 30 --save-image " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const image::LoadResult got = image::load(out);
  ASSERT_EQ(got.error, "");
  const image::Image want =
      rotate::rotate_cpu(img, params(30, 1, rotate::Filter::Linear, rotate::Address::Border));
  ASSERT_EQ(got.image.width, 120);
  ASSERT_EQ(got.image.height, 90);
  ASSERT_EQ(got.image.channels, 1);
  const rotate::Settings s = settings(30, 1, rotate::Filter::Linear, rotate::Address::Border, true);
  EXPECT_TRUE(got.image == want || got.image == rotate::rotate_unit_cpu(img, s))
      << "neither the reference nor the texture unit's model";
}

TEST(RotateHeadless, BadNumbersAndWordsExit1NamingTheOption) {
  const fs::path in = temp_dir() / "ok.png";
  testing::save_png_checked(in, image::generate("filter-test", 32, 32));
  const fs::path out = temp_dir() / "never.png";
  struct Bad {
    const char* args;
    const char* names;
  };
  const Bad cases[] = {
      {"--angle nan", "--angle"},
      {"--angle inf", "--angle"},
      {"--angle=-inf", "--angle"},
      {"--angle 1e300", "--angle"},
      {"--angle thirty", "--angle"},
      {"--scale nan", "--scale"},
      {"--scale inf", "--scale"},
      {"--scale 0", "--scale"},
      {"--scale 100", "--scale"},
      {"--filter bilinear", "--filter"},
      {"--address repeat", "--address"},
      {"--normalized yes", "--normalized"},
      {"--read-mode float", "--read-mode"},
      {"--output texture", "--output"},
      {"--spin nan", "--spin"},
      {"--steps 3", "--steps"},
  };
  for (const Bad& b : cases) {
    fs::remove(out);
    const ProcessResult r = run_gpulab("--headless --cpu --demo rotate --image " + in.string() + " " +
                                       b.args + " --save-image " + out.string());
    EXPECT_EQ(r.status, 1) << b.args << "\n" << r.output;
    EXPECT_NE(r.output.find(b.names), std::string::npos) << b.args << "\n" << r.output;
    EXPECT_EQ(r.output.find("Usage:"), std::string::npos) << "a bad value is not a usage error";
    EXPECT_FALSE(fs::exists(out)) << b.args;
  }
  // Another demo's option is refused, naming the demo it belongs to.
  const ProcessResult r = run_gpulab("--headless --cpu --demo life --frames 1 --angle 30");
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("rotate"), std::string::npos) << r.output;
}

TEST(RotateHeadless, BadImagesExit1NamingTheFile) {
  const fs::path dir = temp_dir();
  const fs::path missing = dir / "no-such-picture.png";
  const fs::path text = dir / "lecture-notes.png";
  {
    std::ofstream t(text);
    t << "rotation matrices, not pixels\n";
  }
  for (const fs::path& bad : {missing, text}) {
    const fs::path out = dir / "never.png";
    fs::remove(out);
    const ProcessResult r = run_gpulab("--headless --cpu --demo rotate --image " + bad.string() +
                                       " --angle 30 --save-image " + out.string());
    EXPECT_EQ(r.status, 1) << bad << "\n" << r.output;
    EXPECT_NE(r.output.find(bad.filename().string()), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out)) << bad;
  }
}

// ---------------------------------------------------------------------------------------------
// The demo on a headless GL context, CPU backend (no CUDA in the Context).

class RotateDemoGl : public testing::CpuDemoGlTest<RotateDemoGl, 320, 200> {};

TEST_F(RotateDemoGl, DisplayedTextureHoldsTheReferenceThroughBothPaths) {
  using rotate::Address;
  using rotate::Filter;
  struct Case {
    image::Image image;
    std::vector<const char*> args;
    rotate::Params params;
  };
  const Case cases[] = {
      {image::generate("filter-test", 97, 61),
       {"--angle", "30"},
       params(30, 1, Filter::Linear, Address::Border)},
      {image::generate("hazy-landscape", 75, 50),
       {"--angle", "90", "--filter", "point", "--address", "clamp"},
       params(90, 1, Filter::Point, Address::Clamp)},
      {rgba_image(40, 52),
       {"--angle", "45", "--scale", "1.3", "--address", "mirror"},
       params(45, 1.3f, Filter::Linear, Address::Mirror)},
  };
  for (const Case& c : cases) {
    for (const RotateOutput out : {RotateOutput::Surface, RotateOutput::Pbo}) {
      SCOPED_TRACE(std::to_string(c.image.channels) + " channels, " + std::string(name(out)));
      RotateDemo demo;
      std::vector<const char*> args = c.args;
      args.push_back("--output");
      args.push_back(out == RotateOutput::Surface ? "surface" : "pbo");
      ASSERT_NO_FATAL_FAILURE(configure(demo, args));
      EXPECT_EQ(demo.output_path(), out);
      std::string err;
      ASSERT_TRUE(demo.set_image(c.image, "case", &err)) << err;
      demo.attach(ctx_);
      EXPECT_EQ(demo.variant().id, "cpu");
      Frame f = frame(/*playing=*/false);  // paused: a new image still rotates once
      demo.compute(f);
      ASSERT_TRUE(demo.display()->has_image());
      EXPECT_EQ(demo.display()->last_output(), out);
      EXPECT_EQ(demo.display()->last_path(), DisplayPath::Host) << demo.display()->path_description();
      EXPECT_EQ(
          demo.display()->path_description().rfind(out == RotateOutput::Surface ? "surface: " : "PBO", 0), 0u)
          << demo.display()->path_description();
      const image::Image want = rotate::rotate_cpu(c.image, c.params);
      EXPECT_EQ(texture_bytes(demo.display()->output()), rgba_of(want));
      EXPECT_EQ(texture_bytes(demo.display()->source()), rgba_of(c.image));
      EXPECT_TRUE(demo.output_image() == want);
      EXPECT_NE(demo.verify().find("matches rotate_cpu byte for byte"), std::string::npos) << demo.verify();
      EXPECT_TRUE(demo.verify_ok());
      if (out == RotateOutput::Pbo) {
        ASSERT_NE(demo.display()->pixel_buffer(), nullptr);
        EXPECT_EQ(demo.display()->pixel_buffer()->size(), c.image.pixel_count() * 4);
      }
      demo.detach();
    }
  }
}

TEST_F(RotateDemoGl, RenderDrawsTheOutputInsideTheImageArea) {
  RotateDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {"--angle", "90", "--filter", "point"}));
  // Two halves, 40 left and 200 right; a quarter turn counter-clockwise puts the 200s on top.
  image::Image img{20, 20, 1, std::vector<uint8_t>(400, 40)};
  for (int y = 0; y < 20; ++y)
    for (int x = 10; x < 20; ++x) img.pixels[y * 20 + x] = 200;
  std::string err;
  ASSERT_TRUE(demo.set_image(img, "halves", &err)) << err;
  demo.attach(ctx_);
  gl::Framebuffer fb(320, 200);
  Frame f = frame(false);
  const std::vector<uint8_t> px = draw_frame(demo, f, fb);
  // The image fitted: 192x192 at (64, 4).
  std::set<int> top, bottom;
  for (int x = 80; x < 240; ++x) {
    for (int y = 10; y < 90; ++y) top.insert(px[(size_t(y) * 320 + x) * 4]);
    for (int y = 110; y < 190; ++y) bottom.insert(px[(size_t(y) * 320 + x) * 4]);
  }
  EXPECT_EQ(top, std::set<int>{200});
  EXPECT_EQ(bottom, std::set<int>{40});
  EXPECT_EQ(px[2], 255) << "outside the image: the clear colour";
  // S: the source left of the split (unturned: 40 on its left half), the output right of it.
  Frame compare = frame(false);
  compare.input.keys = {GLFW_KEY_S};
  const std::vector<uint8_t> cmp = draw_frame(demo, compare, fb);
  std::set<int> left_top, right_top;
  for (int y = 10; y < 90; ++y) {
    for (int x = 70; x < 150; ++x) left_top.insert(cmp[(size_t(y) * 320 + x) * 4]);
    for (int x = 170; x < 250; ++x) right_top.insert(cmp[(size_t(y) * 320 + x) * 4]);
  }
  EXPECT_EQ(left_top, std::set<int>{40}) << "left of the split: the source";
  EXPECT_EQ(right_top, std::set<int>{200}) << "right of the split: the output";
  demo.detach();
}

TEST_F(RotateDemoGl, QuarterTurnKeysChangeTheAngleBy90) {
  RotateDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {"--angle", "30"}));
  const image::Image img = image::generate("filter-test", 48, 36);
  std::string err;
  ASSERT_TRUE(demo.set_image(img, "filter", &err)) << err;
  demo.attach(ctx_);
  EXPECT_EQ(demo.spin(), 0.0f) << "--angle holds the angle";
  auto press = [&](int key, bool shift) {
    Frame f = frame(false);
    f.input.keys = {key};
    f.input.shift = shift;
    demo.compute(f);
  };
  press(GLFW_KEY_Q, false);
  EXPECT_EQ(demo.angle(), 120.0f);
  EXPECT_EQ(
      texture_bytes(demo.display()->output()),
      rgba_of(rotate::rotate_cpu(img, params(120, 1, rotate::Filter::Linear, rotate::Address::Border))));
  press(GLFW_KEY_Q, true);
  EXPECT_EQ(demo.angle(), 30.0f);
  press(GLFW_KEY_LEFT_BRACKET, false);
  EXPECT_EQ(demo.angle(), 120.0f);
  press(GLFW_KEY_RIGHT_BRACKET, false);
  press(GLFW_KEY_RIGHT_BRACKET, false);
  EXPECT_EQ(demo.angle(), 300.0f) << "30 - 90, reduced into [0, 360)";
  EXPECT_EQ(
      texture_bytes(demo.display()->output()),
      rgba_of(rotate::rotate_cpu(img, params(300, 1, rotate::Filter::Linear, rotate::Address::Border))));
  // L switches the filter, A the address mode, P the output path.
  Frame f = frame(false);
  f.input.keys = {GLFW_KEY_L, GLFW_KEY_A, GLFW_KEY_P};
  demo.compute(f);
  EXPECT_EQ(demo.settings().params.filter, rotate::Filter::Point);
  EXPECT_EQ(demo.settings().params.address, rotate::Address::Wrap) << "border -> wrap, in the table's order";
  EXPECT_EQ(demo.output_path(), RotateOutput::Pbo);
  EXPECT_EQ(demo.display()->last_output(), RotateOutput::Pbo);
  EXPECT_EQ(texture_bytes(demo.display()->output()),
            rgba_of(rotate::rotate_cpu(img, params(300, 1, rotate::Filter::Point, rotate::Address::Wrap))));
  // R goes back to the command line's angle.
  Frame reset = frame(false);
  reset.reset = true;
  demo.compute(reset);
  EXPECT_EQ(demo.angle(), 30.0f);
  demo.detach();
}

TEST_F(RotateDemoGl, LeftDragTurnsAboutTheCentreAndTheWheelScales) {
  RotateDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {"--angle", "0"}));
  std::string err;
  ASSERT_TRUE(demo.set_image(image::generate("filter-test", 64, 64), "filter", &err)) << err;
  demo.attach(ctx_);
  Frame f = frame(false);
  demo.compute(f);  // lays the view out: the image fitted, centred at (160, 100)
  // Press right of the centre, drag to above it: a quarter turn counter-clockwise.
  Frame press = frame(false);
  press.input.mouse_x = 220;
  press.input.mouse_y = 100;
  press.input.pressed[0] = press.input.down[0] = true;
  demo.compute(press);
  Frame drag = frame(false);
  drag.input.mouse_x = 160;
  drag.input.mouse_y = 40;
  drag.input.down[0] = drag.input.dragging[0] = true;
  demo.compute(drag);
  EXPECT_NEAR(demo.angle(), 90.0f, 1e-3f);
  Frame release = frame(false);
  release.input.mouse_x = 100;
  release.input.mouse_y = 100;
  demo.compute(release);
  EXPECT_NEAR(demo.angle(), 90.0f, 1e-3f) << "released: the cursor no longer turns it";
  // The inspector follows the cursor: (100, 100) on screen is left of the centre, middle row.
  ASSERT_TRUE(demo.hovered_pixel());
  EXPECT_LT(demo.hovered_pixel()->first, 20);
  EXPECT_EQ(demo.hovered_pixel()->second, 32);
  // Four wheel clicks double the scale; Ctrl+wheel zooms the view instead.
  Frame wheel = frame(false);
  wheel.input.mouse_x = 160;
  wheel.input.mouse_y = 100;
  wheel.input.wheel = 4;
  demo.compute(wheel);
  EXPECT_FLOAT_EQ(demo.settings().params.scale, 2.0f);
  wheel.input.ctrl = true;
  demo.compute(wheel);
  EXPECT_FLOAT_EQ(demo.settings().params.scale, 2.0f);
  wheel.input.ctrl = false;
  wheel.input.wheel = 1000;
  demo.compute(wheel);
  EXPECT_EQ(demo.settings().params.scale, rotate::kMaxScale) << "clamped";
  demo.detach();
}

TEST_F(RotateDemoGl, InspectorNumbersAreTheDefinitions) {
  using rotate::Address;
  using rotate::Filter;
  const image::Image img = rgba_image(37, 29);
  struct Case {
    std::vector<const char*> args;
    rotate::Params params;
    int x, y;
  };
  const Case cases[] = {
      {{"--angle", "30"}, params(30, 1, Filter::Linear, Address::Border), 20, 11},
      {{"--angle", "30"}, params(30, 1, Filter::Linear, Address::Border), 0, 0},  // a corner: border texels
      {{"--angle", "123.4", "--scale", "0.6", "--address", "wrap"},
       params(123.4f, 0.6f, Filter::Linear, Address::Wrap),
       3,
       27},
      {{"--angle", "-71", "--scale", "0.5", "--address", "mirror", "--filter", "point"},
       params(-71, 0.5f, Filter::Point, Address::Mirror),
       35,
       2},
      {{"--angle", "10", "--scale", "0.7", "--address", "clamp"},
       params(10, 0.7f, Filter::Linear, Address::Clamp),
       1,
       1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.params.angle_deg) + "° at (" + std::to_string(c.x) + ", " +
                 std::to_string(c.y) + ")");
    RotateDemo demo;
    std::vector<const char*> args = c.args;
    args.insert(args.end(), {"--variant", "cpu"});
    ASSERT_NO_FATAL_FAILURE(configure(demo, args));
    std::string err;
    ASSERT_TRUE(demo.set_image(img, "rgba", &err)) << err;
    const auto r = demo.inspect(c.x, c.y);
    ASSERT_TRUE(r);
    EXPECT_FALSE(demo.inspect(-1, 0));
    EXPECT_FALSE(demo.inspect(37, 0));
    EXPECT_EQ(r->channels, 4);
    EXPECT_FALSE(r->lecture);
    // The definition, written out here from rotate.h's formulas.
    const double t = double(c.params.angle_deg) * 3.14159265358979323846 / 180.0;
    const double dx = c.x + 0.5 - 37 / 2.0, dy = c.y + 0.5 - 29 / 2.0;
    const double sx = 37 / 2.0 + (dx * std::cos(t) - dy * std::sin(t)) / c.params.scale;
    const double sy = 29 / 2.0 + (dy * std::cos(t) + dx * std::sin(t)) / c.params.scale;
    EXPECT_NEAR(r->source.x, sx, 1e-4);
    EXPECT_NEAR(r->source.y, sy, 1e-4);
    // ... and bit for bit with the shared arithmetic.
    const rotate::Coord s = rotate::source_coord(c.x, c.y, 37, 29, rotate::coefficients(c.params));
    EXPECT_EQ(r->source.x, s.x);
    EXPECT_EQ(r->source.y, s.y);
    auto texel = [&](int i, int j, int ch) -> float {
      i = rotate::address_index(i, 37, c.params.address);
      j = rotate::address_index(j, 29, c.params.address);
      return i < 0 || j < 0 ? 0.0f : float(img.pixels[(size_t(j) * 37 + i) * 4 + ch]);
    };
    if (c.params.filter == Filter::Point) {
      ASSERT_EQ(r->taps, 1);
      EXPECT_EQ(r->raw_i[0], int(std::floor(sx)));
      EXPECT_EQ(r->raw_j[0], int(std::floor(sy)));
      for (int ch = 0; ch < 4; ++ch) EXPECT_EQ(r->texel[0][ch], texel(r->raw_i[0], r->raw_j[0], ch));
    } else {
      ASSERT_EQ(r->taps, 4);
      const int i0 = int(std::floor(sx - 0.5)), j0 = int(std::floor(sy - 0.5));
      const double fx = sx - 0.5 - i0, fy = sy - 0.5 - j0;
      EXPECT_EQ(r->raw_i[0], i0);
      EXPECT_EQ(r->raw_j[0], j0);
      EXPECT_EQ(r->raw_i[3], i0 + 1);
      EXPECT_EQ(r->raw_j[3], j0 + 1);
      EXPECT_NEAR(r->fx, fx, 1e-4);
      EXPECT_NEAR(r->fy, fy, 1e-4);
      const double w[4] = {(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy};
      const int di[4] = {0, 1, 0, 1}, dj[4] = {0, 0, 1, 1};
      for (int q = 0; q < 4; ++q) {
        EXPECT_NEAR(r->weight[q], w[q], 1e-4) << q;
        EXPECT_EQ(r->i[q], rotate::address_index(i0 + di[q], 37, c.params.address)) << q;
        for (int ch = 0; ch < 4; ++ch) EXPECT_EQ(r->texel[q][ch], texel(i0 + di[q], j0 + dj[q], ch)) << q;
      }
      for (int ch = 0; ch < 4; ++ch) {
        double v = 0;
        for (int q = 0; q < 4; ++q) v += w[q] * r->texel[q][ch];
        EXPECT_NEAR(r->filtered[ch], v, 1e-3) << ch;
      }
    }
    // The blended value is the reference's output pixel.
    const image::Image want = rotate::rotate_cpu(img, c.params);
    for (int ch = 0; ch < 4; ++ch)
      EXPECT_EQ(r->value[ch], want.pixels[(size_t(c.y) * 37 + c.x) * 4 + ch]) << ch;
    if (c.x == 0 && c.y == 0) {
      EXPECT_LT(r->j[3], 0) << "the corner at 30° samples above the source";
      EXPECT_EQ(r->value[3], 0) << "border texels are transparent";
    }
  }
}

TEST_F(RotateDemoGl, OpenFileRefusesBadFilesAndKeepsTheImage) {
  RotateDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {}));
  demo.attach(ctx_);
  const image::Image start = demo.source_image();
  ASSERT_EQ(start.width, 512) << "the filter test to start with";
  EXPECT_EQ(start.channels, 1);
  EXPECT_GT(demo.spin(), 0.0f) << "without --angle the picture turns while playing";
  std::string err;
  EXPECT_FALSE(demo.open_file(temp_dir() / "missing-photo.png", &err));
  EXPECT_NE(err.find("missing-photo.png"), std::string::npos) << err;
  EXPECT_TRUE(demo.source_image() == start);
  const fs::path good = temp_dir() / "good.png";
  const image::Image img = testing::save_png_checked(good, image::generate("hazy-landscape", 50, 40));
  err.clear();
  EXPECT_TRUE(demo.open_file(good, &err)) << err;
  EXPECT_TRUE(demo.source_image() == img);
  Frame f = frame(false);
  demo.compute(f);
  EXPECT_EQ(texture_bytes(demo.display()->output()), rgba_of(demo.output_image()));
  demo.detach();
}

TEST_F(RotateDemoGl, PlayingSpinsAndThePanelShowsTheInspector) {
  RotateDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {"--angle", "30", "--spin", "20"}));
  std::string err;
  ASSERT_TRUE(demo.set_image(image::generate("filter-test", 64, 48), "filter", &err)) << err;
  demo.attach(ctx_);
  Frame f = frame(true);
  f.dt = 0.5;
  demo.compute(f);
  EXPECT_FLOAT_EQ(demo.angle(), 40.0f) << "20°/s for half a second";
  timings_.collect();
  f.playing = false;  // held still: the inspector reads the displayed pixel back

  std::string text;
  {
    testing::ImGuiText ui(ImVec2(900, 1200));
    text = ui.run([&] { demo.ui(f); });
  }
  EXPECT_NE(text.find("pixel (32, 24)"), std::string::npos) << text;
  EXPECT_NE(text.find("linear: i0 = floor(sx - 0.5)"), std::string::npos) << text;
  EXPECT_NE(text.find("displayed: RGBA"), std::string::npos) << text;
  EXPECT_NE(text.find("display: surface: CPU"), std::string::npos) << text;

  const auto rows = demo.throughput();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].label, "rotate (per frame)");
  ASSERT_NE(timings_.find(rows[0].timed), nullptr);
  EXPECT_EQ(timings_.find(rows[0].timed)->name(), "rotate (CPU)");
  EXPECT_EQ(rows[0].steps, 2);
  EXPECT_EQ(rows[0].items_per_step, 64.0 * 48);
  EXPECT_EQ(rows[0].item_unit, "pixels");
  EXPECT_EQ(rows[0].bytes_per_step, 64.0 * 48 * 2);
  EXPECT_TRUE(timings_.find("rotate (CPU)"));
  const std::string caption = demo.caption();
  EXPECT_EQ(
      caption.rfind("Texture rotation | cpu | linear, border, normalized | 40.0° x1.00 | 64x48 grey | ", 0),
      0u)
      << caption;
  EXPECT_EQ(caption.substr(caption.size() - 10), " per frame") << caption;  // the HUD's words
  EXPECT_TRUE(demo.kernels().empty());
  // The stage: every variant of the table, the GPU ones unavailable here, saying why.
  const auto st = demo.stages();
  ASSERT_EQ(st.size(), 1u);
  ASSERT_EQ(st[0].variants.size(), rotate::variants().size());
  for (const VariantChoice& v : st[0].variants) {
    EXPECT_TRUE(v.square_blocks);
    EXPECT_EQ(v.needs_cuda, v.id != "cpu") << v.id;
    EXPECT_EQ(v.available, v.id == "cpu") << v.id;
    if (!v.available) {
      EXPECT_FALSE(v.unavailable_reason.empty()) << v.id;
    }
  }
  std::string why;
  EXPECT_FALSE(testing::choose_variant(demo, "tex-array", &why));
  EXPECT_FALSE(why.empty());
  demo.detach();
}

}  // namespace
}  // namespace gpulab

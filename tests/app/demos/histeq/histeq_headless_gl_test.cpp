// Histogram equalization end to end (gl label: headless EGL, Mesa's software device on CI, the CPU
// backend where there is no GPU): the binary's screenshot shows before | after, batch mode writes
// exactly the CPU reference's bytes (grey stays grey, colour stays colour), bad images are refused
// naming the file, and the demo itself, attached to a headless GL context, fills the displayed
// texture with the reference's pixels, draws the split and answers its keys.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/timings.h"
#include "demos/histeq/histeq_demo.h"
#include "demos/histeq/histeq_display.h"
#include "gl/gl.h"
#include "gl/image_io.h"
#include "histeq/histeq.h"
#include "image/image.h"
#include "support/demo_gl_fixture.h"
#include "support/gl_fixture.h"
#include "support/imgui_text.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;

namespace gpulab {
namespace {

using testing::colours_in_box;
using testing::ProcessResult;
using testing::rgba_of;
using testing::texture_bytes;

ProcessResult run_gpulab(const std::string& args) { return testing::run_gpulab(args, "gpulab-histeq"); }
fs::path temp_dir() { return testing::temp_dir("gpulab-histeq"); }

// A generated image of any size written as PNG (the binary's input), and the image as it reads back.
image::Image write_input(const fs::path& path, std::string_view id, int w, int h) {
  return testing::save_png_checked(path, image::generate(id, w, h));
}

// ---------------------------------------------------------------------------------------------
// Through the binary.

TEST(HisteqHeadless, ScreenshotShowsBeforeAndAfterAcrossTheSplit) {
  const fs::path png = temp_dir() / "split.png";
  fs::remove(png);
  const ProcessResult r = run_gpulab(
      "--headless --cpu --demo histeq --frames 3 --size 640x400 --no-ui --screenshot " + png.string());
  ASSERT_EQ(r.status, 0) << r.output;
  std::string err;
  const gl::Image img = gl::read_image(png, &err);
  ASSERT_EQ(img.width, 640) << err;
  ASSERT_EQ(img.height, 400);
  // The default image (640x400) fitted with a margin: about 614x384, centred; the split in the middle.
  EXPECT_GT(colours_in_box(img, 40, 40, 300, 360).size(), 30u) << "the before side is flat";
  EXPECT_GT(colours_in_box(img, 340, 40, 600, 360).size(), 30u) << "the after side is flat";
  // The split line's light core, on the middle column(s).
  size_t line = 0;
  for (int y = 20; y < 380; ++y)
    for (int x = 317; x <= 322; ++x) {
      const uint8_t* p = &img.rgba[(size_t(y) * img.width + x) * 4];
      line += p[0] == 255 && p[1] >= 215 && p[1] <= 222 && p[2] >= 60 && p[2] <= 68;
    }
  EXPECT_GT(line, 300u) << "no split line in the middle of the image";
  // Outside the image: only the clear colour (letterbox).
  EXPECT_EQ(colours_in_box(img, 0, 0, 640, 4).size(), 1u);
}

struct BatchCase {
  const char* id;
  int w, h;
  const char* flags;
  histeq::Mode mode;
  histeq::Colour colour;
};

TEST(HisteqHeadless, BatchWritesTheCpuReferenceByteForByte) {
  const fs::path dir = temp_dir();
  const BatchCase cases[] = {
      {"dark-room", 123, 77, "", histeq::Mode::Equalize, histeq::Colour::Luminance},
      {"dark-room", 64, 3, "--mode stretch", histeq::Mode::Stretch, histeq::Colour::Luminance},
      {"hazy-landscape", 101, 67, "", histeq::Mode::Equalize, histeq::Colour::Luminance},
      {"hazy-landscape", 101, 67, "--per-channel", histeq::Mode::Equalize, histeq::Colour::PerChannel},
      {"hazy-landscape", 90, 31, "--mode stretch --per-channel", histeq::Mode::Stretch,
       histeq::Colour::PerChannel},
      {"hazy-landscape", 90, 31, "--mode equalize --variant apply-cpu", histeq::Mode::Equalize,
       histeq::Colour::Luminance},
  };
  int i = 0;
  for (const BatchCase& c : cases) {
    const fs::path in = dir / ("in" + std::to_string(i) + ".png"),
                   out = dir / ("out" + std::to_string(i) + ".png");
    ++i;
    fs::remove(out);
    const image::Image img = write_input(in, c.id, c.w, c.h);
    const ProcessResult r = run_gpulab("--headless --cpu --demo histeq --image " + in.string() + " " +
                                       c.flags + " --save-image " + out.string());
    ASSERT_EQ(r.status, 0) << c.flags << "\n" << r.output;
    const image::LoadResult got = image::load(out);
    ASSERT_EQ(got.error, "");
    EXPECT_EQ(got.image.channels, img.channels) << "grey must stay grey, colour colour";
    const image::Image want = histeq::process_cpu(img, c.mode, c.colour);
    EXPECT_TRUE(got.image == want) << c.id << " " << c.w << "x" << c.h << " " << c.flags;
    EXPECT_NE(want, img) << "the case does not change the image: it proves nothing";
  }
}

TEST(HisteqHeadless, BatchWithoutCpuFlagMatchesToo) {
  // The default backend: the GPU variants where a device exists (exact ones), the CPU's elsewhere.
  const fs::path in = temp_dir() / "gpu-in.png", out = temp_dir() / "gpu-out.png";
  fs::remove(out);
  const image::Image img = write_input(in, "bimodal", 257, 129);
  const ProcessResult r =
      run_gpulab("--headless --demo histeq --image " + in.string() + " --save-image " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const image::LoadResult got = image::load(out);
  ASSERT_EQ(got.error, "");
  EXPECT_TRUE(got.image == histeq::process_cpu(img, histeq::Mode::Equalize, histeq::Colour::Luminance));
}

// The README: headless --image larger than the GL texture limit exits 1. Refused from the header before
// it is decoded (the shell gives configure the GL limit); --save-image, which shows nothing, takes it.
TEST(HisteqHeadless, AnImageOverTheGlTextureLimitExits1BeforeDecoding) {
  const fs::path dir = temp_dir();
  const fs::path wide = dir / "wide-16385.png", out = dir / "wide-out.png";
  image::Image img{16385, 2, 1, std::vector<uint8_t>(size_t(16385) * 2, 77)};
  img.pixels[3] = 200;
  ASSERT_EQ(image::save_png(wide, img), "");
  const std::string show = "--headless --cpu --demo histeq --image " + wide.string() + " --frames 1";
  ProcessResult shown = run_gpulab(show);
  if (shown.output.find("pixels a side") == std::string::npos) {
    // A GL whose textures take 16385 pixels (NVIDIA's take 32768, as many as the image readers take;
    // Mesa's llvmpipe 16384, as CI's): it shows the file, and under a lower limit it refuses it.
    EXPECT_EQ(shown.status, 0) << shown.output;
    EXPECT_NE(shown.output.find("| 16385x2 grey;"), std::string::npos) << shown.output;
    ::setenv("GPULAB_MAX_TEXTURE", "16384", 1);
    shown = run_gpulab(show);
    ::unsetenv("GPULAB_MAX_TEXTURE");
  }
  EXPECT_EQ(shown.status, 1) << shown.output;
  EXPECT_NE(shown.output.find(
                "wide-16385.png: 16385x2 is larger than the largest GL texture here (16384 pixels a side)"),
            std::string::npos)
      << shown.output;
  fs::remove(out);
  const ProcessResult batch =
      run_gpulab("--headless --cpu --demo histeq --image " + wide.string() + " --save-image " + out.string());
  EXPECT_EQ(batch.status, 0) << batch.output;
  EXPECT_TRUE(fs::exists(out));
}

TEST(HisteqHeadless, BadImagesExit1NamingTheFile) {
  const fs::path dir = temp_dir();
  const fs::path missing = dir / "no-such-image.png";
  const fs::path text = dir / "notes.png";
  {
    std::ofstream t(text);
    t << "these are lecture notes, not an image\n";
  }
  const fs::path truncated = dir / "cut.png";
  {
    const std::vector<uint8_t> png = image::encode_png(image::generate("hazy-landscape", 200, 100));
    ASSERT_GT(png.size(), 200u);
    std::ofstream t(truncated, std::ios::binary);
    t.write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size() / 2));
  }
  for (const fs::path& bad : {missing, text, truncated}) {
    const fs::path out = dir / "never.png";
    fs::remove(out);
    const ProcessResult r = run_gpulab("--headless --cpu --demo histeq --image " + bad.string() +
                                       " --save-image " + out.string());
    EXPECT_EQ(r.status, 1) << bad << "\n" << r.output;
    EXPECT_NE(r.output.find(bad.filename().string()), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out)) << bad;
  }
}

TEST(HisteqHeadless, BadOptionsAreRefused) {
  ProcessResult r = run_gpulab("--headless --cpu --demo histeq --frames 1 --mode sideways");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("--mode must be equalize or stretch"), std::string::npos) << r.output;

  r = run_gpulab("--headless --cpu --demo histeq --frames 1 --variant hist-cpu --variant scan-block");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("mix the backends"), std::string::npos) << r.output;

  r = run_gpulab("--headless --cpu --demo life --frames 1 --image " + (temp_dir() / "x.png").string());
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("--image"), std::string::npos) << r.output;

  r = run_gpulab("--headless --cpu --demo nbody --frames 1 --save-image " + (temp_dir() / "x.png").string());
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("--save-image"), std::string::npos) << r.output;

  r = run_gpulab("--headless --cpu --demo histeq --steps 3 --save-image " + (temp_dir() / "s.png").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("--steps"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(temp_dir() / "s.png"));

  r = run_gpulab("--headless --cpu --demo life --frames 1 --mode stretch");  // histeq's own option
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("histeq"), std::string::npos) << r.output;
}

// ---------------------------------------------------------------------------------------------
// The demo on a headless GL context, CPU backend (no CUDA in the Context).

class HisteqDemoGl : public testing::CpuDemoGlTest<HisteqDemoGl, 320, 200> {};

TEST_F(HisteqDemoGl, DisplayedTextureHoldsTheReferenceOutput) {
  struct Case {
    const char* id;
    int w, h;
    std::vector<const char*> args;
    histeq::Mode mode;
    histeq::Colour colour;
  };
  const Case cases[] = {
      {"dark-room", 97, 61, {}, histeq::Mode::Equalize, histeq::Colour::Luminance},
      {"hazy-landscape", 75, 50, {}, histeq::Mode::Equalize, histeq::Colour::Luminance},
      {"hazy-landscape",
       75,
       50,
       {"--mode", "stretch", "--per-channel"},
       histeq::Mode::Stretch,
       histeq::Colour::PerChannel},
  };
  for (const Case& c : cases) {
    HisteqDemo demo;
    ASSERT_NO_FATAL_FAILURE(configure(demo, c.args));
    const image::Image img = image::generate(c.id, c.w, c.h);
    std::string err;
    ASSERT_TRUE(demo.set_image(img, c.id, &err)) << err;
    demo.attach(ctx_);
    Frame f = frame(320, 200, /*playing=*/false);  // paused: a new image still runs once
    demo.compute(f);
    ASSERT_TRUE(demo.display()->has_image());
    EXPECT_EQ(demo.display()->last_path(), DisplayPath::Host) << demo.display()->path_description();
    const image::Image want = histeq::process_cpu(img, c.mode, c.colour);
    EXPECT_EQ(texture_bytes(demo.display()->after()), rgba_of(want)) << c.id;
    EXPECT_EQ(texture_bytes(demo.display()->before()), rgba_of(img)) << c.id;
    EXPECT_TRUE(demo.output_image() == want);
    EXPECT_NE(demo.verify().find("matches the CPU reference byte for byte"), std::string::npos)
        << demo.verify();
    demo.detach();
  }
}

TEST_F(HisteqDemoGl, RenderShowsBeforeLeftAndAfterRightOfTheSplit) {
  HisteqDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {}));
  // Two grey levels in a checkerboard: before, 40 and 60; equalized, 0 and 255. Magnified with
  // nearest filtering, so the screen holds exactly those values on either side of the split.
  image::Image img{32, 20, 1, std::vector<uint8_t>(32 * 20, 50)};
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 32; ++x) img.pixels[y * 32 + x] = (x + y) % 2 ? 40 : 60;
  std::string err;
  ASSERT_TRUE(demo.set_image(img, "checker", &err)) << err;
  demo.attach(ctx_);
  gl::Framebuffer fb(320, 200);
  Frame f = frame(320, 200, true);
  const std::vector<uint8_t> px = draw_frame(demo, f, fb);
  std::set<int> left, right;
  for (int y = 20; y < 180; ++y) {
    for (int x = 40; x < 150; ++x) left.insert(px[(size_t(y) * 320 + x) * 4]);
    for (int x = 170; x < 280; ++x) right.insert(px[(size_t(y) * 320 + x) * 4]);
  }
  EXPECT_EQ(left, (std::set<int>{40, 60})) << "before: the source's two values";
  EXPECT_EQ(right, (std::set<int>{0, 255})) << "after: equalized to the ends";

  // Around the image, the clear colour; zoomed in (wheel at the centre) the image covers the
  // corners; F fits it again.
  std::vector<uint8_t> last;
  auto corner_is_clear = [&](Frame& fr) {
    last = draw_frame(demo, fr, fb);
    return last[0] == 0 && last[1] == 0 && last[2] == 255;
  };
  Frame still = frame(320, 200, false);
  EXPECT_TRUE(corner_is_clear(still));
  Frame zoom = frame(320, 200, false);
  zoom.input.mouse_x = 160;
  zoom.input.mouse_y = 100;
  zoom.input.wheel = 3;
  EXPECT_FALSE(corner_is_clear(zoom)) << "zoomed in, the image covers the framebuffer";
  Frame pan = frame(320, 200, false);
  pan.input.dragging[1] = pan.input.down[1] = true;
  pan.input.delta_x = 1000;  // the image slides right, out of the top-left corner
  EXPECT_TRUE(corner_is_clear(pan));
  Frame fit = frame(320, 200, false);
  fit.input.keys = {GLFW_KEY_F};
  EXPECT_TRUE(corner_is_clear(fit));
  EXPECT_EQ(last, px) << "F restores the fitted view";
  demo.detach();
}

TEST_F(HisteqDemoGl, KeysSwitchModeAndColourAndMoveTheSplit) {
  HisteqDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {}));
  std::string err;
  ASSERT_TRUE(demo.set_image(image::generate("hazy-landscape", 40, 30), "hazy", &err)) << err;
  demo.attach(ctx_);
  Frame f = frame(320, 200, false);
  f.input.keys = {GLFW_KEY_E, GLFW_KEY_C, GLFW_KEY_RIGHT};
  demo.compute(f);
  EXPECT_EQ(demo.mode(), histeq::Mode::Stretch);
  EXPECT_EQ(demo.colour(), histeq::Colour::PerChannel);
  EXPECT_GT(demo.split(), 0.5f);
  EXPECT_TRUE(demo.output_image() ==
              histeq::process_cpu(demo.source_image(), histeq::Mode::Stretch, histeq::Colour::PerChannel));
  // The stages follow the mode: stretch runs reduce and apply.
  for (const Stage& st : demo.stages()) {
    const bool want = st.id == "reduce" || st.id == "apply";
    EXPECT_EQ(st.active, want) << st.id;
    if (!st.active) {
      EXPECT_EQ(st.inactive_reason, "runs in equalize mode only");
    }
  }
  // A left click on the image puts the split under the cursor.
  Frame click = frame(320, 200, false);
  click.input.mouse_x = 80;  // a quarter of the way: the image is fitted across the framebuffer
  click.input.mouse_y = 100;
  click.input.pressed[0] = click.input.down[0] = true;
  demo.compute(click);
  EXPECT_LT(demo.split(), 0.3f);
  EXPECT_GT(demo.split(), 0.1f);
  demo.detach();
}

TEST_F(HisteqDemoGl, OpenFileRefusesBadFilesAndKeepsTheImage) {
  HisteqDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {}));
  demo.attach(ctx_);
  const image::Image before = demo.source_image();
  ASSERT_FALSE(before.empty()) << "a generated image to start with";
  std::string err;
  const fs::path missing = temp_dir() / "missing-photo.png";
  EXPECT_FALSE(demo.open_file(missing, &err));
  EXPECT_NE(err.find("missing-photo.png"), std::string::npos) << err;
  EXPECT_TRUE(demo.source_image() == before);

  const fs::path good = temp_dir() / "good.png";
  const image::Image img = write_input(good, "bright-snow", 50, 40);
  err.clear();
  EXPECT_TRUE(demo.open_file(good, &err)) << err;
  EXPECT_TRUE(demo.source_image() == img);
  // Wider than GL can show: refused, naming the file and the limit; the image stays.
  GLint max_texture = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
  if (max_texture > 0 && max_texture < image::kMaxSide) {
    image::Image wide{max_texture + 1, 1, 1, std::vector<uint8_t>(size_t(max_texture) + 1, 9)};
    err.clear();
    EXPECT_FALSE(demo.set_image(std::move(wide), "wide.png", &err));
    EXPECT_NE(err.find("wide.png"), std::string::npos) << err;
    EXPECT_NE(err.find("larger than the largest GL texture"), std::string::npos) << err;
    EXPECT_TRUE(demo.source_image() == img);
  }
  Frame f = frame(320, 200, false);
  demo.compute(f);
  EXPECT_TRUE(demo.output_image() ==
              histeq::process_cpu(img, histeq::Mode::Equalize, histeq::Colour::Luminance));
  demo.detach();
}

TEST_F(HisteqDemoGl, PanelDrawsPlotsAndThroughputRows) {
  HisteqDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {}));
  demo.attach(ctx_);
  Frame f = frame(320, 200, true);
  demo.compute(f);
  timings_.collect();

  std::string text;
  {
    testing::ImGuiText ui(ImVec2(800, 900));
    text = ui.run([&] { demo.ui(f); });
  }
  EXPECT_NE(text.find("before: "), std::string::npos) << text;
  EXPECT_NE(text.find("after: histogram"), std::string::npos) << text;
  EXPECT_NE(text.find("equalize"), std::string::npos) << text;

  const auto rows = demo.throughput();
  ASSERT_EQ(rows.size(), 4u);  // pipeline, histogram, scan, apply
  ASSERT_NE(timings_.find(rows[0].timed), nullptr);
  EXPECT_EQ(timings_.find(rows[0].timed)->name(), "pipeline (CPU)");
  EXPECT_EQ(rows[0].steps, 2);
  EXPECT_EQ(rows[0].item_unit, "pixels");
  ASSERT_NE(timings_.find(rows[1].timed), nullptr);
  EXPECT_EQ(timings_.find(rows[1].timed)->name(), "histogram (CPU)");
  ASSERT_NE(timings_.find(rows[3].timed), nullptr);
  EXPECT_EQ(timings_.find(rows[3].timed)->name(), "apply (CPU)");
  EXPECT_TRUE(timings_.find("pipeline (CPU)")) << "the pipeline's timing section";
  EXPECT_TRUE(timings_.find("scan (CPU)"));
  const std::string caption = demo.caption();
  EXPECT_EQ(caption.rfind("Histogram equalization | hist-cpu > scan-cpu > apply-cpu | ", 0), 0u) << caption;
  EXPECT_NE(caption.find(" per image"), std::string::npos) << caption;  // the HUD's words
  EXPECT_TRUE(demo.kernels().empty());
  demo.detach();
}

}  // namespace
}  // namespace gpulab

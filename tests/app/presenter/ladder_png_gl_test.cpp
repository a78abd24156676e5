// The ladder chart as a PNG, on a headless GL context (Mesa llvmpipe on CI): the asked size, bars
// where the layout put them in the bar colour, the background elsewhere, the caller's GL and ImGui
// state untouched, and bad paths and sizes refused with nothing written.
#include <gtest/gtest.h>
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gl/image_io.h"
#include "presenter/ladder_png.h"
#include "support/font_dir.h"
#include "support/gl_fixture.h"
#include "ui/fonts.h"

namespace gpulab::presenter {
namespace {

namespace fs = std::filesystem;

class LadderPng : public testing::HeadlessGlTest<LadderPng, 64, 48> {
 protected:
  void SetUp() override {
    HeadlessGlTest::SetUp();
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("gpulab-ladder-png-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
    HeadlessGlTest::TearDown();
  }
  size_t files_in_dir() const {
    return size_t(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

ChartData life_chart() {
  ChartData d;
  d.title = "Game of Life";
  d.input = "16384x16384, B3/S23, density 0.25";
  d.device = "NVIDIA H100 80GB HBM3";
  d.date = "2026-11-25";
  ChartPanel p;
  p.title = "step";
  p.baseline = "cpu-naive";
  struct R {
    const char* name;
    double ms;
  };
  const R rungs[] = {{"cpu-naive", 41000},    {"cpu-lut", 22000},  {"gpu-global", 9.1},
                     {"gpu-lut-local", 14.2}, {"gpu-shared", 4.2}, {"gpu-swar", 1.3},
                     {"gpu-bitpacked", 0.21}};
  double prev = 0;
  for (const R& r : rungs) {
    ChartRung c;
    c.name = r.name;
    c.lesson = "one thread per cell, all neighbours from global memory; ghost rows by 1D kernels";
    c.block = "32x8";
    c.ms_per_step = r.ms;
    c.speedup_vs_baseline = 41000 / r.ms;
    c.speedup_vs_previous = prev > 0 ? prev / r.ms : 0;
    c.pct_peak = r.ms < 100 ? 80 * 0.21 / r.ms * 10 : 0;
    c.peak_label = "of DRAM bandwidth";
    prev = r.ms;
    p.rungs.push_back(c);
  }
  ChartRung failed;
  failed.name = "gpu-broken";
  failed.state = ChartRungState::Failed;
  failed.reason = "differs from the CPU reference at (3, 4)";
  p.rungs.insert(p.rungs.begin() + 5, failed);
  ChartRung off;
  off.name = "gpu-tensor";
  off.state = ChartRungState::Unavailable;
  off.reason = "no CUDA device";
  p.rungs.push_back(off);
  d.panels.push_back(p);
  return d;
}

const uint8_t* pixel(const gl::Image& img, int x, int y) {
  return &img.rgba[(size_t(y) * img.width + x) * 4];
}

bool near(const uint8_t* p, Rgba c, int tol = 2) {
  return std::abs(p[0] - c.r) <= tol && std::abs(p[1] - c.g) <= tol && std::abs(p[2] - c.b) <= tol &&
         p[3] == 255;
}

std::string rgb(const uint8_t* p) {
  return std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]) + "," +
         std::to_string(p[3]);
}

TEST_F(LadderPng, WritesTheAskedSizeWithBarsWhereTheLayoutPutThem) {
  const ChartTheme theme = ChartTheme::dark();
  for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const fs::path out = dir_ / ("ladder-" + std::to_string(w) + ".png");
    ChartPngInfo info;
    ASSERT_EQ(save_chart_png(life_chart(), w, h, out, theme, &info), "");
    std::string why;
    if (!ui::find_font(ui::FontFace::Sans, &why).empty()) {
      EXPECT_EQ(info.font_warning, "");
    }
    std::string err;
    const gl::Image img = gl::read_image(out, &err);
    ASSERT_EQ(err, "");
    ASSERT_EQ(img.width, w);
    ASSERT_EQ(img.height, h);

    // Laid out with the real font, the labels still keep apart.
    std::string problems;
    for (const std::string& p : layout_problems(info.layout)) problems += p + "\n";
    EXPECT_EQ(problems, "");
    EXPECT_EQ(info.layout.width, float(w));

    // Not blank: the grey levels vary.
    double sum = 0, sum2 = 0;
    const size_t n = size_t(w) * h;
    for (size_t i = 0; i < n; ++i) {
      const double g = (img.rgba[i * 4] + img.rgba[i * 4 + 1] + img.rgba[i * 4 + 2]) / 3.0;
      sum += g;
      sum2 += g * g;
    }
    const double variance = sum2 / double(n) - (sum / double(n)) * (sum / double(n));
    EXPECT_GT(variance, 100.0);

    // The background in the corners and margins.
    for (auto [x, y] : {std::pair{2, 2}, std::pair{w - 3, 2}, std::pair{2, h - 3}, std::pair{w - 3, h - 3}})
      EXPECT_TRUE(near(pixel(img, x, y), theme[ChartColour::Background]))
          << x << "," << y << ": " << rgb(pixel(img, x, y));

    // Each bar's inside in the bar colour; the failed and unavailable rungs have none.
    int bars = 0;
    for (const ChartBox& b : info.layout.boxes) {
      if (b.role != BoxRole::Bar) continue;
      ++bars;
      const float inset = std::min(b.rect.width(), b.rect.height()) * 0.2f;
      const int ys[] = {int(b.rect.y0 + b.rect.height() * 0.5f), int(std::ceil(b.rect.y0 + inset)),
                        int(b.rect.y1 - inset) - 1};
      const int xs[] = {int(std::ceil(b.rect.x0 + inset)), int((b.rect.x0 + b.rect.x1) * 0.5f),
                        int(b.rect.x1 - inset) - 1};
      for (int y : ys)
        for (int x : xs)
          EXPECT_TRUE(near(pixel(img, x, y), theme[ChartColour::Bar]))
              << "rung " << b.rung << " at " << x << "," << y << ": " << rgb(pixel(img, x, y));
      // Just past the bar's end and before its time label: not the bar colour.
      const int after = int(b.rect.x1) + 2;
      EXPECT_FALSE(near(pixel(img, after, ys[0]), theme[ChartColour::Bar], 10)) << "rung " << b.rung;
    }
    EXPECT_EQ(bars, 7);
    EXPECT_EQ(info.layout.bar(0, 5), nullptr);
    bool tag = false;
    for (const ChartBox& b : info.layout.boxes)
      if (b.role == BoxRole::FailedTag) {
        tag = true;
        const uint8_t* p = pixel(img, int(b.rect.x0 + 2), int((b.rect.y0 + b.rect.y1) / 2));
        EXPECT_TRUE(near(p, theme[ChartColour::Failed])) << rgb(p);
      }
    EXPECT_TRUE(tag);

    // Text is drawn: the rows of the title line are not all background.
    const TextRun* title = info.layout.text(TextRole::Title);
    ASSERT_NE(title, nullptr);
    int lit = 0;
    for (int y = int(title->y); y < int(title->y + title->size); ++y)
      for (int x = int(title->x); x < int(title->x + title->width); ++x)
        lit += near(pixel(img, x, y), theme[ChartColour::Title], 40);
    EXPECT_GT(lit, int(title->size * title->size));
  }
}

TEST_F(LadderPng, LightThemeAndFourPanels) {
  ChartData d = life_chart();
  d.panels.resize(4, d.panels[0]);
  d.panels[1].title = "histogram";
  const fs::path out = dir_ / "light.png";
  ChartPngInfo info;
  ASSERT_EQ(save_chart_png(d, 1920, 1080, out, ChartTheme::light(), &info), "");
  std::string err;
  const gl::Image img = gl::read_image(out, &err);
  ASSERT_EQ(err, "");
  EXPECT_TRUE(near(pixel(img, 1, 1), Rgba{255, 255, 255}));
  EXPECT_TRUE(layout_problems(info.layout).empty());
  const ChartBox* bar = info.layout.bar(3, 0);
  ASSERT_NE(bar, nullptr);
  EXPECT_TRUE(near(pixel(img, int(bar->rect.x0 + bar->rect.x1) / 2, int(bar->rect.y0 + bar->rect.y1) / 2),
                   ChartTheme::light()[ChartColour::Bar]));
}

TEST_F(LadderPng, WithoutUsableFontsImGuisDefaultFontStillDrawsIt) {
  // GPULAB_FONT_DIR is looked in first: files there that are no fonts stand for a broken install.
  const fs::path fonts = dir_ / "fonts";
  fs::create_directories(fonts);
  for (ui::FontFace f : {ui::FontFace::Sans, ui::FontFace::SansBold, ui::FontFace::Mono}) {
    std::ofstream(fonts / ui::font_file_name(f)) << "not a font";
  }
  ChartPngInfo info;
  std::string why;
  {
    const testing::FontDir env(fonts.c_str());
    why = save_chart_png(life_chart(), 1920, 1080, dir_ / "fallback.png", ChartTheme::dark(), &info);
  }
  ASSERT_EQ(why, "");
  EXPECT_NE(info.font_warning.find("not a TrueType font"), std::string::npos) << info.font_warning;
  EXPECT_NE(info.font_warning.find("default font"), std::string::npos) << info.font_warning;
  std::string err;
  const gl::Image img = gl::read_image(dir_ / "fallback.png", &err);
  ASSERT_EQ(err, "");
  EXPECT_EQ(img.width, 1920);
  EXPECT_TRUE(layout_problems(info.layout).empty());
  const TextRun* title = info.layout.text(TextRole::Title);
  ASSERT_NE(title, nullptr);
  int lit = 0;
  for (int y = int(title->y); y < int(title->y + title->size); ++y)
    for (int x = int(title->x); x < int(title->x + title->width); ++x)
      lit += near(pixel(img, x, y), ChartTheme::dark()[ChartColour::Title], 40);
  EXPECT_GT(lit, int(title->size * 10)) << "the title is drawn (in thin strokes)";
  const ChartBox* bar = info.layout.bar(0, 0);
  ASSERT_NE(bar, nullptr);
  EXPECT_TRUE(near(pixel(img, int(bar->rect.x0 + bar->rect.x1) / 2, int(bar->rect.y0 + bar->rect.y1) / 2),
                   ChartTheme::dark()[ChartColour::Bar]));
}

TEST_F(LadderPng, LeavesTheCallersGlAndImGuiStateAlone) {
  ImGuiContext* mine = ImGui::CreateContext();
  ImGui::SetCurrentContext(mine);
  const int fonts_before = ImGui::GetIO().Fonts->Fonts.Size;
  const GLuint fbo = platform_->target_framebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glViewport(3, 4, 50, 40);
  glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
  glEnable(GL_SCISSOR_TEST);
  glScissor(1, 2, 30, 20);
  ASSERT_EQ(save_chart_png(life_chart(), 1920, 1080, dir_ / "state.png"), "");
  EXPECT_EQ(ImGui::GetCurrentContext(), mine);
  EXPECT_EQ(ImGui::GetIO().Fonts->Fonts.Size, fonts_before);
  GLint draw = -1, read = -1, vp[4] = {}, sc[4] = {};
  GLfloat clear[4] = {};
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
  glGetIntegerv(GL_VIEWPORT, vp);
  glGetIntegerv(GL_SCISSOR_BOX, sc);
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
  EXPECT_EQ(GLuint(draw), fbo);
  EXPECT_EQ(GLuint(read), fbo);
  EXPECT_EQ(vp[0], 3);
  EXPECT_EQ(vp[1], 4);
  EXPECT_EQ(vp[2], 50);
  EXPECT_EQ(vp[3], 40);
  EXPECT_EQ(sc[0], 1);
  EXPECT_EQ(sc[2], 30);
  EXPECT_TRUE(glIsEnabled(GL_SCISSOR_TEST));
  EXPECT_FLOAT_EQ(clear[2], 0.75f);
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, 64, 48);
  ImGui::DestroyContext(mine);
  EXPECT_EQ(ImGui::GetCurrentContext(), nullptr);
}

TEST_F(LadderPng, BadPathsAndSizesWriteNothing) {
  // A missing folder.
  const fs::path missing = dir_ / "no-such-folder" / "ladder.png";
  std::string why = save_chart_png(life_chart(), 1920, 1080, missing);
  EXPECT_NE(why, "");
  EXPECT_NE(why.find("no-such-folder"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(dir_ / "no-such-folder"));

  // A FIFO: refused without blocking on it, and left a FIFO.
  const fs::path fifo = dir_ / "fifo.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  why = save_chart_png(life_chart(), 1920, 1080, fifo);
  EXPECT_NE(why, "");
  EXPECT_NE(why.find("FIFO"), std::string::npos) << why;
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(files_in_dir(), 1u) << "no temporary file left behind";

  // Sizes that are not 16:9, or absurd.
  for (auto [w, h] : {std::pair{1000, 1000}, std::pair{1920, 1200}, std::pair{0, 0}, std::pair{-1920, -1080},
                      std::pair{320, 180}, std::pair{15360, 8640}}) {
    why = save_chart_png(life_chart(), w, h, dir_ / "size.png");
    EXPECT_NE(why, "") << w << "x" << h;
    EXPECT_NE(why.find(std::to_string(w) + "x" + std::to_string(h)), std::string::npos) << why;
  }
  EXPECT_FALSE(fs::exists(dir_ / "size.png"));
  EXPECT_EQ(check_chart_png_size(1920, 1080), "");
  EXPECT_EQ(check_chart_png_size(3840, 2160), "");
  EXPECT_EQ(files_in_dir(), 1u);
}

// The slide as drawn with DejaVu: every speed-up's digits stand at least 28 px tall at 1080 lines
// (measured on the PNG's pixels, the ink rows of the label), the yardstick an outline in its colour,
// the colours those of the theme.
TEST_F(LadderPng, SlideSpeedupsAreAtLeast28PxTallOnThePng) {
  std::string why;
  if (ui::find_font(ui::FontFace::SansBold, &why).empty()) GTEST_SKIP() << "no DejaVu Sans Bold: " << why;
  ChartData d;
  d.title = "Matrix transpose and multiply";
  d.device = "NVIDIA H100 80GB HBM3";
  ChartPanel p;
  p.title = "multiply";
  p.baseline = "gemm-cpu";
  auto rung = [&](const char* name, double ms) {
    ChartRung r;
    r.name = name;
    r.ms_per_step = ms;
    r.speedup_vs_baseline = 300 / ms;  // no thousands separator: a comma would hang below the digits
    return r;
  };
  p.rungs = {rung("gemm-cpu", 300), rung("gemm-naive", 30), rung("gemm-tensor-bf16", 0.95)};
  ChartRung y = rung("mma-sync-peak-bf16", 0.5);
  y.yardstick = true;
  y.speedup_vs_baseline = 0;
  y.bounds = "gemm-tensor-bf16";
  p.rungs.push_back(y);
  d.panels.push_back(p);
  for (const ChartTheme& theme : {ChartTheme::projector(), ChartTheme::light()}) {
    for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) {
      const fs::path out = dir_ / ("slide-" + std::to_string(w) + ".png");
      ChartPngInfo info;
      ASSERT_EQ(save_slide_png(d, 0, w, h, out, theme, &info), "");
      ASSERT_EQ(info.font_warning, "");
      EXPECT_TRUE(layout_problems(info.layout).empty());
      std::string err;
      const gl::Image img = gl::read_image(out, &err);
      ASSERT_EQ(err, "");
      int labels = 0;
      for (const TextRun& t : info.layout.texts) {
        if (t.role != TextRole::SpeedupBaseline || t.text.rfind("\xC3\x97", 0) != 0) continue;
        ++labels;
        // Ink: pixels near the speed-up colour inside the label's box (and a little around it).
        int top = -1, bottom = -1;
        for (int yy = std::max(0, int(t.y) - 8); yy < std::min(h, int(t.y + t.size) + 8); ++yy)
          for (int x = int(t.x); x < std::min(w, int(t.x + t.width)); ++x)
            if (near(pixel(img, x, yy), theme[ChartColour::Speedup], 60)) {
              if (top < 0) top = yy;
              bottom = yy;
              break;
            }
        ASSERT_GE(top, 0) << t.text;
        EXPECT_GE(bottom - top + 1, 28 * h / 1080) << t.text << " at " << w << "x" << h;
      }
      EXPECT_EQ(labels, 2);
      // The yardstick's outline is in its colour, its inside only faintly tinted.
      for (const ChartBox& b : info.layout.boxes)
        if (b.role == BoxRole::Yardstick) {
          const int cy = int((b.rect.y0 + b.rect.y1) * 0.5f);
          EXPECT_TRUE(near(pixel(img, int(b.rect.x0) + 1, cy), theme[ChartColour::Yardstick], 12))
              << rgb(pixel(img, int(b.rect.x0) + 1, cy));
          EXPECT_FALSE(
              near(pixel(img, int((b.rect.x0 + b.rect.x1) * 0.5f), cy), theme[ChartColour::Yardstick], 30));
        }
    }
  }
}

}  // namespace
}  // namespace gpulab::presenter

// gl label: the rotation's overlay sized for a projector. The demo on a headless GL context (CPU
// backend), its render() drawing into an ImGui frame the size of a 1920x1080 and a 3840x2160
// framebuffer, with a view rectangle such as the projector layout gives (the panel on the left, the
// bands below): the magnifier, its squares and its label are twice as large at 2160 as at 1080, its
// lines at least 2 px there, and it stays inside the view wherever the cursor is (it moves to the other
// side of the cursor at the view's right and bottom edges); nothing of the overlay is drawn outside the
// view. Through the binary in projector mode, the layout report says where the outline went.
#include <backends/imgui_impl_opengl3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <filesystem>
#include <string>
#include <vector>

#include "core/demo.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/rotate/rotate_display.h"
#include "gl/gl.h"
#include "gl/image_io.h"
#include "image/image.h"
#include "support/demo_gl_fixture.h"
#include "support/layout_report.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;

namespace gpulab {
namespace {

class RotateOverlayGl : public testing::CpuDemoGlTest<RotateOverlayGl, 64, 64> {};

struct Bounds {
  float x0 = FLT_MAX, y0 = FLT_MAX, x1 = -FLT_MAX, y1 = -FLT_MAX;
  void add(float x, float y) {
    x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
  }
  bool empty() const { return x1 < x0; }
};

// What one frame's overlay drew: the marks the demo reports, the bounds of the magnifier's squares
// (the draw commands of the output texture) and of every clip rectangle used, and the frame's pixels
// (RGBA, top row first) as ImGui's OpenGL renderer drew them over the demo's picture.
struct Drawn {
  std::vector<ViewMark> marks;
  Bounds squares, clips;
  std::vector<uint8_t> rgba;
  const ViewMark* find(const std::string& name) const {
    for (const ViewMark& m : marks)
      if (m.name == name) return &m;
    return nullptr;
  }
};

bool inside(const ViewMark& m, const Frame::Rect& v) {
  return m.x0 >= v.x - 0.01f && m.y0 >= v.y - 0.01f && m.x1 <= v.x + v.w + 0.01f && m.y1 <= v.y + v.h + 0.01f;
}
bool inside(const Bounds& b, const Frame::Rect& v) {
  return b.x0 >= v.x - 0.01f && b.y0 >= v.y - 0.01f && b.x1 <= v.x + v.w + 0.01f && b.y1 <= v.y + v.h + 0.01f;
}

// The view of a 16:9 framebuffer `height` px high as projector mode lays it out: the compact panel's
// strip on the left, the HUD and caption bands below; scaled with the height.
Frame::Rect projector_view(int height) {
  const float k = height / 1080.0f;
  return {int(120 * k), 0, int(1800 * k), int(800 * k)};
}

// An ImGui context of the framebuffer's size with its OpenGL renderer, as the app has.
class ImGuiFrame {
 public:
  ImGuiFrame(int width, int height) : ctx_(ImGui::CreateContext()) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(width), float(height));
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    ok_ = ImGui_ImplOpenGL3_Init("#version 450 core");
  }
  ~ImGuiFrame() {
    if (ok_) ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext(ctx_);
  }
  ImGuiFrame(const ImGuiFrame&) = delete;
  ImGuiFrame& operator=(const ImGuiFrame&) = delete;
  bool ok() const { return ok_; }

 private:
  ImGuiContext* ctx_;
  bool ok_ = false;
};

// The red of the magnifier's mark around the hovered pixel.
bool red(const uint8_t* p) { return p[0] >= 200 && p[1] <= 110 && p[2] <= 100; }

Drawn draw_with_cursor(RotateDemo& demo, int width, int height, Frame::Rect view, float mx, float my) {
  Drawn d;
  ImGuiFrame imgui(width, height);
  EXPECT_TRUE(imgui.ok());
  gl::Framebuffer fb(width, height);
  Frame f;
  f.width = width;
  f.height = height;
  f.playing = false;
  f.view = view;
  f.input.mouse_x = mx;
  f.input.mouse_y = my;
  demo.compute(f);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  glViewport(0, 0, width, height);
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  demo.render(f);
  d.marks = demo.view_marks();
  const ImDrawList* dl =
      ImGui::GetBackgroundDrawList();  // the demo draws its marks there, under every window
  const ImTextureID output =
      reinterpret_cast<ImTextureID>(static_cast<intptr_t>(demo.display()->output().id()));
  for (const ImDrawCmd& cmd : dl->CmdBuffer) {
    if (cmd.ElemCount == 0) continue;
    d.clips.add(cmd.ClipRect.x, cmd.ClipRect.y);
    d.clips.add(cmd.ClipRect.z, cmd.ClipRect.w);
    if (cmd.TextureId != output) continue;
    for (unsigned i = 0; i < cmd.ElemCount; ++i) {
      const ImDrawVert& v = dl->VtxBuffer[dl->IdxBuffer[cmd.IdxOffset + i] + cmd.VtxOffset];
      d.squares.add(v.pos.x, v.pos.y);
    }
  }
  ImGui::Render();
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  glViewport(0, 0, width, height);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  d.rgba = gl::read_pixels_top_down(fb.id(), width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return d;
}

// The red mark's bounds and its left side's width across the middle row, from the pixels.
struct RedMark {
  Bounds bounds;
  int left_width = 0;
};
RedMark red_mark(const Drawn& d, int width, int height) {
  RedMark m;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (red(&d.rgba[(size_t(y) * width + x) * 4])) m.bounds.add(float(x), float(y));
  if (m.bounds.empty()) return m;
  // Its smoothed edge is red only in part (over the black border texels not at all): the run starts at
  // the first fully red pixel.
  const int y = int((m.bounds.y0 + m.bounds.y1) / 2);
  int x = int(m.bounds.x0);
  while (x < width && !red(&d.rgba[(size_t(y) * width + x) * 4])) ++x;
  for (; x < width && red(&d.rgba[(size_t(y) * width + x) * 4]); ++x) ++m.left_width;
  return m;
}

TEST_F(RotateOverlayGl, TheMagnifierScalesWithTheFramebufferAndStaysInTheView) {
  RotateDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {"--angle", "30"}));
  std::string err;
  ASSERT_TRUE(demo.set_image(image::generate("filter-test", 256, 256), "filter", &err)) << err;
  demo.attach(ctx_);
  float width_at[2] = {}, text_at[2] = {}, cell_at[2] = {}, red_at[2] = {};
  for (int i = 0; i < 2; ++i) {
    const int h = i == 0 ? 1080 : 2160, w = h * 16 / 9;
    const float k = h / 1080.0f;
    const Frame::Rect v = projector_view(h);
    SCOPED_TRACE("framebuffer " + std::to_string(w) + "x" + std::to_string(h));
    // The fitted image: 0.96 of the view's height, centred. The cursor near its middle, near its
    // bottom-right corner (the view's bottom and, at this zoom, nowhere near its right edge), and near
    // its top-left corner.
    const float side = 0.96f * v.h, left = v.x + (v.w - side) / 2, top = v.y + (v.h - side) / 2;
    const float cursors[3][2] = {{left + side * 0.5f, top + side * 0.5f},
                                 {left + side - 2 * k, top + side - 2 * k},
                                 {left + 2 * k, top + 2 * k}};
    for (const auto& c : cursors) {
      SCOPED_TRACE("cursor at " + std::to_string(c[0]) + "," + std::to_string(c[1]));
      const Drawn d = draw_with_cursor(demo, w, h, v, c[0], c[1]);
      const ViewMark* m = d.find("magnifier");
      ASSERT_NE(m, nullptr) << "no magnifier drawn";
      EXPECT_TRUE(inside(*m, v)) << "magnifier at " << m->x0 << "," << m->y0 << " .. " << m->x1 << ","
                                 << m->y1;
      ASSERT_FALSE(d.squares.empty()) << "the output texture was not drawn";
      EXPECT_TRUE(inside(d.squares, v)) << "squares at " << d.squares.x0 << "," << d.squares.y0 << " .. "
                                        << d.squares.x1 << "," << d.squares.y1;
      EXPECT_TRUE(inside(d.clips, v)) << "the overlay is clipped to more than the view";
      EXPECT_GE(m->line_px, h == 2160 ? 2.0f : 1.0f);
      EXPECT_GT(m->text_px, 0.0f) << "no label";
      // The pixels: the red mark around the hovered pixel inside the view, its line as wide as
      // designed (2 px at mark scale 1, give or take a smoothed edge).
      const RedMark rm = red_mark(d, w, h);
      ASSERT_FALSE(rm.bounds.empty()) << "no red mark in the picture";
      EXPECT_TRUE(inside(rm.bounds, v));
      EXPECT_GE(rm.left_width, int(2.0f * 1.5f * k) - 1);
      EXPECT_LE(rm.left_width, int(2.0f * 1.5f * k) + 2);
      red_at[i] = rm.bounds.x1 - rm.bounds.x0;
      {
        const int n = int(&c - &cursors[0]);
        const fs::path png = testing::temp_dir("gpulab-rotate-overlay") /
                             ("magnifier-" + std::to_string(h) + "-" + std::to_string(n) + ".png");
        EXPECT_EQ(gl::write_png(png, w, h, d.rgba.data()), "");
      }
      width_at[i] = m->x1 - m->x0;
      text_at[i] = m->text_px;
      cell_at[i] = (d.squares.x1 - d.squares.x0) / 16.0f;
      // Never over the cursor: it sits beside it.
      EXPECT_FALSE(c[0] > m->x0 && c[0] < m->x1 && c[1] > m->y0 && c[1] < m->y1);
    }
    // The outline and the source frame: lines that grow too, clipped to the view.
    const Drawn d = draw_with_cursor(demo, w, h, v, 0, 0);  // the cursor off the image: no magnifier
    EXPECT_EQ(d.find("magnifier"), nullptr);
    for (const char* name : {"outline", "source frame"}) {
      const ViewMark* m = d.find(name);
      ASSERT_NE(m, nullptr) << name;
      EXPECT_TRUE(inside(*m, v)) << name;
      EXPECT_GE(m->line_px, h == 2160 ? 2.0f : 1.0f) << name;
    }
  }
  // Twice as large at 2160 as at 1080: the box, the squares, the label.
  EXPECT_NEAR(width_at[1] / width_at[0], 2.0f, 0.02f);
  EXPECT_NEAR(cell_at[1] / cell_at[0], 2.0f, 0.02f);
  EXPECT_NEAR(text_at[1] / text_at[0], 2.0f, 0.02f);
  EXPECT_NEAR(red_at[1] / red_at[0], 2.0f, 0.3f) << "the hovered pixel's mark in the picture";
  EXPECT_GE(cell_at[0], 8.0f) << "smaller than on a laptop";
  demo.detach();
}

TEST_F(RotateOverlayGl, AViewTooSmallForTheMagnifierShrinksItInside) {
  RotateDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {"--angle", "0"}));
  std::string err;
  ASSERT_TRUE(demo.set_image(image::generate("filter-test", 64, 64), "filter", &err)) << err;
  demo.attach(ctx_);
  // A 2160-px framebuffer with a view 300 px square: the magnifier at full size (402 px) cannot fit.
  const Frame::Rect v{1000, 500, 300, 300};
  const Drawn d = draw_with_cursor(demo, 3840, 2160, v, 1150, 650);
  const ViewMark* m = d.find("magnifier");
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(inside(*m, v)) << m->x0 << "," << m->y0 << " .. " << m->x1 << "," << m->y1;
  EXPECT_TRUE(inside(d.squares, v));
  demo.detach();
}

// Through the binary in projector mode: the layout report lists the outline and the source frame,
// inside the view region, their lines twice as wide at 2160 as at 1080.
TEST(RotateOverlayHeadless, TheLayoutReportSaysWhereTheOverlayWent) {
  float line_at[2] = {};
  for (int i = 0; i < 2; ++i) {
    const std::string size = i == 0 ? "1920x1080" : "3840x2160";
    SCOPED_TRACE(size);
    const fs::path dir = testing::temp_dir("gpulab-rotate-overlay") / size;
    const testing::ReportedRun r = testing::run_with_layout_report(
        "--headless --cpu --demo rotate --angle 30 --projector --frames 3 --size " + size, dir,
        "gpulab-rotate-overlay");
    ASSERT_EQ(r.process.status, 0) << r.process.output;
    ASSERT_FALSE(r.report.is_discarded());
    const auto& view = r.report["regions"]["view"];
    bool outline = false;
    for (const auto& m : r.report["view_marks"]) {
      const auto& b = m["box"];
      EXPECT_GE(b[0].get<float>(), view[0].get<float>() - 0.5f) << m.dump();
      EXPECT_GE(b[1].get<float>(), view[1].get<float>() - 0.5f) << m.dump();
      EXPECT_LE(b[2].get<float>(), view[2].get<float>() + 0.5f) << m.dump();
      EXPECT_LE(b[3].get<float>(), view[3].get<float>() + 0.5f) << m.dump();
      if (m["name"] == "outline") {
        outline = true;
        line_at[i] = m["line_px"].get<float>();
      }
    }
    EXPECT_TRUE(outline) << r.report["view_marks"].dump();
  }
  EXPECT_GE(line_at[1], 2.0f);
  EXPECT_NEAR(line_at[1] / line_at[0], 2.0f, 0.01f);
}

}  // namespace
}  // namespace gpulab

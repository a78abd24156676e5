// The ladder chart rendered offscreen to a PNG. Two font passes: the layout is measured with each
// face at a reference size (ImGui's stb_truetype advances scale linearly with the pixel size, so
// the widths hold at any size), then every (face, size) the layout uses is rasterised for drawing,
// with only the glyphs it needs, so a 4K chart's atlas stays small.
#include "presenter/ladder_png.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>
#include <deque>
#include <exception>
#include <fstream>
#include <functional>
#include <map>
#include <utility>

#include "common/file_io.h"
#include "common/text.h"
#include "core/cli.h"
#include "gl/gl.h"
#include "gl/image_io.h"
#include "presenter/ladder_draw.h"
#include "ui/fonts.h"

namespace gpulab::presenter {

namespace {

constexpr float kReferencePx = 32.0f;

// The caller's ImGui context comes back whatever happens.
class OwnImGuiContext {
 public:
  OwnImGuiContext() : previous_(ImGui::GetCurrentContext()), own_(ImGui::CreateContext()) {
    ImGui::SetCurrentContext(own_);
  }
  ~OwnImGuiContext() {
    ImGui::DestroyContext(own_);
    ImGui::SetCurrentContext(previous_);
  }
  OwnImGuiContext(const OwnImGuiContext&) = delete;
  OwnImGuiContext& operator=(const OwnImGuiContext&) = delete;

 private:
  ImGuiContext* previous_;
  ImGuiContext* own_;
};

// ImGui's OpenGL renderer for the own context (its GL objects are deleted with it).
class OwnRenderer {
 public:
  OwnRenderer() : ok_(ImGui_ImplOpenGL3_Init("#version 450 core")) {}
  ~OwnRenderer() {
    if (ok_) ImGui_ImplOpenGL3_Shutdown();
  }
  OwnRenderer(const OwnRenderer&) = delete;
  OwnRenderer& operator=(const OwnRenderer&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_;
};

// The GL state this file changes itself (ImGui's renderer restores its own).
class SavedGlState {
 public:
  SavedGlState() {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo_);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo_);
    glGetIntegerv(GL_VIEWPORT, viewport_);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_);
    scissor_ = glIsEnabled(GL_SCISSOR_TEST);
  }
  ~SavedGlState() {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(draw_fbo_));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(read_fbo_));
    glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
    glClearColor(clear_[0], clear_[1], clear_[2], clear_[3]);
    if (scissor_)
      glEnable(GL_SCISSOR_TEST);
    else
      glDisable(GL_SCISSOR_TEST);
  }
  SavedGlState(const SavedGlState&) = delete;
  SavedGlState& operator=(const SavedGlState&) = delete;

 private:
  GLint draw_fbo_ = 0, read_fbo_ = 0, viewport_[4] = {};
  GLfloat clear_[4] = {};
  GLboolean scissor_ = GL_FALSE;
};

ui::FontFace ui_face(TextFace f) {
  switch (f) {
    case TextFace::SansBold:
      return ui::FontFace::SansBold;
    case TextFace::Mono:
      return ui::FontFace::Mono;
    case TextFace::Sans:
      break;
  }
  return ui::FontFace::Sans;
}

// ImGui asserts on a file stb_truetype cannot parse: only a file that starts like a TrueType or
// OpenType font (or a collection of them) goes to it.
bool looks_like_font(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  if (!in.read(magic, 4)) return false;
  const std::string m(magic, 4);
  return m == std::string("\0\1\0\0", 4) || m == "true" || m == "OTTO" || m == "ttcf";
}

// Adds `face` at `px` with the glyphs of `ranges` (kept alive by the caller until the atlas is
// built); ImGui's default font at that size when the DejaVu file is missing or unreadable.
ImFont* add_font(ImFontAtlas& atlas, TextFace face, float px, const ImWchar* ranges, std::string* warning) {
  ImFontConfig cfg;
  cfg.OversampleH = px < 24 ? 2 : 1;
  cfg.OversampleV = 1;
  cfg.SizePixels = px;
  std::string why;
  const std::filesystem::path path = ui::find_font(ui_face(face), &why);
  if (!path.empty()) {
    if (!looks_like_font(path))
      why = path.string() + " is not a TrueType font";
    else if (ImFont* f = atlas.AddFontFromFileTTF(path.c_str(), px, &cfg, ranges))
      return f;
    else
      why = "cannot read " + path.string();
  }
  if (warning && warning->empty()) *warning = why + "; ImGui's default font is used";
  cfg.OversampleH = 1;
  return atlas.AddFontDefault(&cfg);
}

void add_text_glyphs(ImFontGlyphRangesBuilder& b, const std::string& s) {
  b.AddText(s.data(), s.data() + s.size());
}

using LayOut = std::function<ChartLayout(const TextMeasure&)>;

std::string render(const LayOut& lay_out, const std::string& glyph_text, int width, int height,
                   const ChartTheme& theme, std::vector<uint8_t>* rgba, ChartPngInfo* info) {
  GLint max_rb = 0, max_tex = 0, dims[2] = {};
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_tex);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, dims);
  const int limit = std::min({max_rb, max_tex, dims[0], dims[1]});
  if (width > limit || height > limit)
    return "this OpenGL context draws at most " + std::to_string(limit) + " pixels a side";

  SavedGlState saved_gl;
  OwnImGuiContext context;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = 1.0f / 60.0f;
  std::string warning;

  // Pass 1: measure with each face at the reference size, lay out.
  ChartLayout layout;
  {
    ImFontGlyphRangesBuilder glyphs;
    glyphs.AddRanges(io.Fonts->GetGlyphRangesDefault());
    add_text_glyphs(glyphs, "\xE2\x80\xA6\xC2\xB5\xC3\x97\xC2\xB7");
    add_text_glyphs(glyphs, glyph_text);
    ImVector<ImWchar> ranges;
    glyphs.BuildRanges(&ranges);
    std::map<TextFace, ImFont*> reference;
    for (TextFace f : {TextFace::Sans, TextFace::SansBold, TextFace::Mono})
      reference[f] = add_font(*io.Fonts, f, kReferencePx, ranges.Data, &warning);
    if (!io.Fonts->Build()) return "cannot build the font atlas for measuring";
    layout = lay_out(imgui_text_measure([&](TextFace f, float) { return reference[f]; }));
    io.Fonts->Clear();
  }

  // Pass 2: each (face, size) the layout uses, with the glyphs drawn in it.
  std::map<std::pair<TextFace, int>, ImFontGlyphRangesBuilder> needed;
  for (const TextRun& t : layout.texts) {
    ImFontGlyphRangesBuilder& b = needed[{t.face, int(t.size)}];
    add_text_glyphs(b, t.text + "?");
  }
  std::deque<ImVector<ImWchar>> ranges;  // a deque: the atlas keeps pointers into them until Build
  std::map<std::pair<TextFace, int>, ImFont*> fonts;
  for (auto& [key, builder] : needed) {
    ranges.emplace_back();
    builder.BuildRanges(&ranges.back());
    fonts[key] = add_font(*io.Fonts, key.first, float(key.second), ranges.back().Data, &warning);
  }
  if (fonts.empty()) add_font(*io.Fonts, TextFace::Sans, 16, nullptr, &warning);
  const ChartFonts chart_fonts = [&](TextFace f, float px) -> ImFont* {
    auto it = fonts.find({f, int(px)});
    return it == fonts.end() ? nullptr : it->second;
  };

  OwnRenderer renderer;
  if (!renderer.ok()) return "ImGui's OpenGL renderer did not start on this context";
  gl::Framebuffer target(width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, target.id());
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  const Rgba bg = theme[ChartColour::Background];
  glClearColor(bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);

  ImGui_ImplOpenGL3_NewFrame();  // uploads the atlas
  ImGui::NewFrame();
  draw_chart(ImGui::GetBackgroundDrawList(), layout, theme, chart_fonts);
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  *rgba = gl::read_pixels_top_down(target.id(), width, height);
  if (info) {
    info->layout = std::move(layout);
    info->font_warning = warning;
  }
  return "";
}

std::string chart_glyphs(const ChartData& data) {
  std::string glyphs = data.title + data.input + data.device + data.date;
  for (const ChartPanel& p : data.panels) {
    glyphs += p.title + p.baseline;
    for (const ChartRung& r : p.rungs)
      glyphs += r.name + r.lesson + r.block + r.reason + r.peak_label + r.note + r.bounds;
  }
  return glyphs;
}

}  // namespace

std::string check_chart_png_size(int width, int height) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width <= 0 || height <= 0 || int64_t(width) * 9 != int64_t(height) * 16)
    return "chart size " + size + " is not 16:9 (use 1920x1080 or 3840x2160)";
  if (width < 640 || width > 7680)
    return "chart size " + size + " is out of range (16:9 from 640x360 to 7680x4320; 1920x1080 or 3840x2160)";
  return "";
}

std::string save_chart_png(const ChartData& data, int width, int height, const std::filesystem::path& path,
                           const ChartTheme& theme, ChartPngInfo* info) {
  const std::string glyphs = chart_glyphs(data);
  return save_layout_png(
      [&](const TextMeasure& m) { return layout_chart(data, float(width), float(height), m); }, glyphs, width,
      height, path, theme, info);
}

std::string save_slide_png(const ChartData& data, int panel, int width, int height,
                           const std::filesystem::path& path, const ChartTheme& theme, ChartPngInfo* info) {
  std::string glyphs = chart_glyphs(data) + "Not run here: bar time per step speed-up over (log scale)";
  return save_layout_png(
      [&](const TextMeasure& m) { return layout_slide(data, panel, float(width), float(height), m); }, glyphs,
      width, height, path, theme, info);
}

std::string save_layout_png(const std::function<ChartLayout(const TextMeasure&)>& lay_out,
                            const std::string& glyphs, int width, int height,
                            const std::filesystem::path& path, const ChartTheme& theme, ChartPngInfo* info) {
  if (std::string why = check_chart_png_size(width, height); !why.empty()) return why;
  // Before any drawing: a missing folder or a FIFO is named at once, and nothing is written.
  if (std::string why = files::check_writable(path); !why.empty()) return why;
  if (glGetString == nullptr || glGetString(GL_VERSION) == nullptr)
    return "cannot draw the chart: no current OpenGL context";
  std::vector<uint8_t> rgba;
  try {
    if (std::string why = render(lay_out, glyphs, width, height, theme, &rgba, info); !why.empty())
      return "cannot draw the chart: " + why;
  } catch (const std::exception& e) {
    return std::string("cannot draw the chart: ") + e.what();
  }
  return gl::write_png(path, width, height, rgba.data());
}

LadderPngRequest ladder_png_request(const Options& o) {
  return {o.ladder_png, o.ladder_png_width, o.ladder_png_height, o.png_style, o.ladder_png_stages};
}

ChartTheme png_style_theme(const std::string& style) {
  if (style == "projector") return ChartTheme::projector();
  if (style == "light") return ChartTheme::light();
  return ChartTheme::dark();
}

bool write_ladder_pngs(const ChartData& chart, const LadderPngRequest& o) {
  const int w = o.width, h = o.height;
  const ChartTheme theme = png_style_theme(o.style);
  bool ok = true;
  auto write = [&](const std::string& path, int panel) {
    ChartPngInfo info;
    const std::string why = o.style.empty() ? save_chart_png(chart, w, h, path, theme, &info)
                                            : save_slide_png(chart, panel, w, h, path, theme, &info);
    if (!why.empty()) {
      std::fprintf(stderr, "gpulab: ladder --png: %s\n", why.c_str());
      ok = false;
      return;
    }
    if (!info.font_warning.empty()) std::fprintf(stderr, "ladder: %s\n", info.font_warning.c_str());
    std::fprintf(stderr, "ladder: wrote %s (%dx%d)\n", text::escape(path, 4096).c_str(), w, h);
  };
  const int first = default_slide_panel(chart);
  write(o.path, first);
  if (o.style.empty() || !o.stages) return ok;
  for (size_t i = 0; i < chart.panels.size(); ++i) {
    if (int(i) == first) continue;
    const std::filesystem::path p(o.path);
    const std::string id = chart.panels[i].id.empty() ? std::to_string(i) : chart.panels[i].id;
    write((p.parent_path() / (p.stem().string() + "-" + id + p.extension().string())).string(), int(i));
  }
  return ok;
}

}  // namespace gpulab::presenter

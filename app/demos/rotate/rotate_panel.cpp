// Texture rotation: the panel and what is drawn over the image. The image picker, angle and scale,
// texture options, output path, view switches, verify; the overlay (outline, source frame, magnifier);
// the caption.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "base/stats.h"
#include "core/timings.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/rotate/rotate_demo_internal.h"
#include "ui/verify_button.h"

namespace gpulab {
namespace {

using rotate::Filter;
using rotate::ReadMode;
using rotate_internal::kRed;
using rotate_internal::kYellow;

// The magnifier's design, in pixels at view mark scale 1 (view_mark_scale: 1.5 times these on a
// 1080-px framebuffer, 3 times at 2160).
constexpr int kMagnified = 16;          // output pixels a side in the magnifier
constexpr float kMagnification = 8.0f;  // pixels per output pixel there
constexpr float kMagnifierGap = 24.0f;  // from the cursor to the magnifier
constexpr float kMagnifierPad = 3.0f;   // the dark margin around the squares and the label
constexpr float kLabelPx = 14.0f;       // the label's text ("pixel (x, y)")

}  // namespace

std::string RotateDemo::caption() const {
  char view[64];
  std::snprintf(view, sizeof view, "%.1f° x%.2f", double(settings_.params.angle_deg),
                double(settings_.params.scale));
  std::string s = "Texture rotation | " + std::string(variant().id) + " | " + settings_label() + " | " +
                  view + " | " + image_label(image_);
  if (const auto ms = ctx_ && ctx_->timings ? ctx_->timings->median_per_step(TimingKey{pick(0)}, last_runs_)
                                            : std::nullopt) {
    s += " | " + format_time_per(*ms, rotate_internal::kThroughputLabel);  // the HUD's words
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// UI.

void RotateDemo::ui_angle(float w) {
  float a = angle();
  ImGui::SetNextItemWidth(w);
  if (ImGui::SliderFloat("angle", &a, 0.0f, 360.0f, "%.1f°")) set_angle(a);
  ImGui::SameLine();
  if (ImGui::SmallButton("+90")) set_angle(angle() + 90.0f);
  ImGui::SameLine();
  if (ImGui::SmallButton("-90")) set_angle(angle() - 90.0f);
  ImGui::SameLine();
  if (ImGui::SmallButton("0")) set_angle(0.0f);
  ImGui::SetNextItemWidth(w);
  ImGui::SliderFloat("spin", &spin_, -90.0f, 90.0f, "%.0f°/s");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("degrees a second while playing (Space plays and pauses); 0 holds the angle");
  ImGui::SameLine();
  if (ImGui::SmallButton("stop")) spin_ = 0.0f;
  float scale = settings_.params.scale;
  ImGui::SetNextItemWidth(w);
  if (ImGui::SliderFloat("scale", &scale, rotate::kMinScale, rotate::kMaxScale, "x%.3f",
                         ImGuiSliderFlags_Logarithmic)) {
    rotate::Settings s = settings_;
    s.params.scale = scale;
    set_settings(s);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("x1")) {
    rotate::Settings s = settings_;
    s.params.scale = 1.0f;
    set_settings(s);
  }
}

void RotateDemo::ui_texture_options() {
  rotate::Settings s = settings_;
  int filter = s.params.filter == Filter::Point ? 0 : 1;
  ImGui::TextUnformatted("filter ");
  ImGui::SameLine();
  bool changed = ImGui::RadioButton("point", &filter, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("linear", &filter, 1);
  ImGui::SameLine();
  ImGui::TextDisabled("(L)");
  if (changed) s.params.filter = filter == 0 ? Filter::Point : Filter::Linear;

  ImGui::TextUnformatted("address");
  int address = 0;
  for (int i = 0; i < static_cast<int>(std::size(rotate::kAddresses)); ++i)
    if (rotate::kAddresses[i] == s.params.address) address = i;
  for (int i = 0; i < static_cast<int>(std::size(rotate::kAddresses)); ++i) {
    ImGui::SameLine();
    if (ImGui::RadioButton(std::string(rotate::name(rotate::kAddresses[i])).c_str(), &address, i))
      s.params.address = rotate::kAddresses[i];
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(A)");

  ImGui::Checkbox("normalized coordinates", &s.normalized);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("on: the kernel samples at (sx / W, sy / H) in [0, 1); off: at (sx, sy) in texels");
  int read = s.read_mode == ReadMode::ElementType ? 0 : 1;
  ImGui::TextUnformatted("read mode");
  ImGui::SameLine();
  changed = ImGui::RadioButton("element type", &read, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("normalized float", &read, 1);
  if (changed) s.read_mode = read == 0 ? ReadMode::ElementType : ReadMode::NormalizedFloat;
  set_settings(s);

  // What CUDA does not allow for this variant, and what runs instead.
  const std::string why = rotate::cuda_restriction(variant(), settings_);
  if (!why.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kYellow);
    ImGui::TextWrapped("%s: %s. Runs as: %s", std::string(variant().id).c_str(), why.c_str(),
                       settings_label().c_str());
    ImGui::PopStyleColor();
  }
}

void RotateDemo::ui_output(float w) {
  int out = output_ == RotateOutput::Surface ? 0 : 1;
  ImGui::TextUnformatted("output ");
  ImGui::SameLine();
  bool changed = ImGui::RadioButton("surface", &out, 0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the kernel writes the displayed GL texture through a surface object (surf2Dwrite)");
  ImGui::SameLine();
  changed |= ImGui::RadioButton("PBO", &out, 1);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the kernel writes RGBA8 rows into a mapped GL pixel buffer; GL then copies it into the texture "
        "(glTextureSubImage2D from the bound PBO)");
  ImGui::SameLine();
  ImGui::TextDisabled("(P)");
  if (changed) set_output_path(out == 0 ? RotateOutput::Surface : RotateOutput::Pbo);
  const std::string path = display_ ? display_->path_description() : std::string();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w * 1.8f);
  ImGui::TextWrapped("display: %s", path.empty() ? "-" : path.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

void RotateDemo::draw_overlay(const Frame& frame) {
  // Drawn with the render, not with the panel: in projector mode the demo's ui() is not called, and
  // the magnifier is what the hall reads the texels in. Framebuffer pixels throughout, turned into
  // ImGui's points (DisplayFramebufferScale) only where drawn; every size is a design size times the
  // view mark scale, so that a 4K projection shows the same picture as a 1080p one.
  marks_.clear();
  if (!ImGui::GetCurrentContext() || view_.scale <= 0 || image_.width <= 0 || image_.height <= 0) return;
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float sx = fs.x > 0 ? fs.x : 1.0f, sy = fs.y > 0 ? fs.y : 1.0f;
  auto pt = [&](double x, double y) {
    return ImVec2(static_cast<float>(x / sx), static_cast<float>(y / sy));
  };
  const float mark = view_mark_scale(frame);
  const float thin = std::max(1.0f, mark);  // the thinnest line, in pixels: never below one
  const Frame::Rect& v = view_.area;
  const float vx0 = float(v.x), vy0 = float(v.y), vx1 = float(v.x + v.w), vy1 = float(v.y + v.h);
  auto clipped = [&](const char* name, float x0, float y0, float x1, float y1, float line_px, float text_px) {
    add_view_mark(marks_, v, {name, x0, y0, x1, y1, line_px, text_px});
  };
  ImDrawList* dl = ImGui::GetBackgroundDrawList();  // part of the picture: under every window (F1, code)
  dl->PushClipRect(pt(vx0, vy0), pt(vx1, vy1), false);
  const double w = image_.width * view_.scale, h = image_.height * view_.scale;
  auto to_px = [&](double px, double py) {  // output pixel coordinates to framebuffer pixels
    return std::pair<double, double>(view_.left + px * view_.scale, view_.top + py * view_.scale);
  };
  auto to_screen = [&](double px, double py) {
    const auto [x, y] = to_px(px, py);
    return pt(x, y);
  };
  // The output's frame, so that border texels (black) stand apart from the background.
  dl->AddRect(to_screen(0, 0), to_screen(image_.width, image_.height), IM_COL32(110, 110, 110, 200), 0.0f, 0,
              thin / sx);
  clipped("outline", float(view_.left), float(view_.top), float(view_.left + w), float(view_.top + h), thin,
          0);
  if (show_frame_ && w > 0 && h > 0) {
    // Where the source's edges land: q = c + s * R^T (p - c), the definition solved for the output.
    const double t = double(angle()) * (3.14159265358979323846 / 180.0), s = settings_.params.scale;
    const double cs = std::cos(t), sn = std::sin(t), cx = image_.width * 0.5, cy = image_.height * 0.5;
    const double corners[4][2] = {{0, 0},
                                  {double(image_.width), 0},
                                  {double(image_.width), double(image_.height)},
                                  {0, double(image_.height)}};
    ImVec2 pts[4];
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (int i = 0; i < 4; ++i) {
      const double u = corners[i][0] - cx, vv = corners[i][1] - cy;
      const auto [px, py] = to_px(cx + s * (u * cs + vv * sn), cy + s * (-u * sn + vv * cs));
      pts[i] = pt(px, py);
      x0 = std::min(x0, px), y0 = std::min(y0, py), x1 = std::max(x1, px), y1 = std::max(y1, py);
    }
    const float line = std::max(1.0f, 1.5f * mark), dot = 3.5f * mark;
    dl->AddPolyline(pts, 4, IM_COL32(255, 200, 60, 200), ImDrawFlags_Closed, line / sx);
    dl->AddCircleFilled(pts[0], dot / sx, IM_COL32(255, 200, 60, 230));  // the source's top-left
    clipped("source frame", float(x0), float(y0), float(x1), float(y1), line, 0);
  }
  // The magnifier: the output around the cursor, nearest filtering, one output pixel per square, the
  // pixel's coordinates under it; beside the cursor, inside the view (on the other side of the cursor
  // where it would leave it), smaller only where the view cannot hold it.
  if (magnifier_ && hovering_ && display_ && display_->has_image()) {
    const int nx = std::min(kMagnified, image_.width), ny = std::min(kMagnified, image_.height);
    const int x0 = std::clamp(hover_x_ - nx / 2, 0, image_.width - nx);
    const int y0 = std::clamp(hover_y_ - ny / 2, 0, image_.height - ny);
    const float pad = kMagnifierPad * mark, gap = kMagnifierGap * mark, room_w = v.w - 2 * pad;
    char label[64];
    std::snprintf(label, sizeof label, "pixel (%d, %d)", hover_x_, hover_y_);
    ImFont* font = ImGui::GetFont();
    float text_px = kLabelPx * mark;
    float label_w = font->CalcTextSizeA(text_px / sy, FLT_MAX, 0.0f, label).x * sx;
    if (label_w > room_w && label_w > 0) {  // a view narrower than the label: the label shrinks
      text_px *= room_w / label_w;
      label_w = room_w;
    }
    const float cell = std::min({kMagnification * mark, room_w / nx, (v.h - 3 * pad - text_px) / ny});
    const float box_w = std::max(nx * cell, label_w) + 2 * pad, box_h = ny * cell + 3 * pad + text_px;
    if (cell >= 1.0f && text_px >= 1.0f) {
      float bx = mouse_x_ + gap, by = mouse_y_ + gap;  // the block's top-left, pixels
      if (bx + box_w > vx1) bx = mouse_x_ - gap - box_w;
      if (by + box_h > vy1) by = mouse_y_ - gap - box_h;
      bx = std::clamp(bx, vx0, vx1 - box_w);
      by = std::clamp(by, vy0, vy1 - box_h);
      const float ax = bx + pad, ay = by + pad;  // the squares' top-left
      const ImVec2 a = pt(ax, ay), b = pt(ax + nx * cell, ay + ny * cell);
      const ImVec2 uv0(float(x0) / image_.width, float(y0) / image_.height);
      const ImVec2 uv1(float(x0 + nx) / image_.width, float(y0 + ny) / image_.height);
      dl->AddRectFilled(pt(bx, by), pt(bx + box_w, by + box_h), IM_COL32(0, 0, 0, 220));
      dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(display_->output().id())), a, b, uv0,
                   uv1);
      dl->AddRect(pt(ax - thin, ay - thin), pt(ax + nx * cell + thin, ay + ny * cell + thin),
                  IM_COL32(200, 200, 200, 255), 0.0f, 0, thin / sx);
      // The hovered pixel's mark last: over the frame where the pixel is at the squares' edge.
      const float px = ax + (hover_x_ - x0) * cell, py = ay + (hover_y_ - y0) * cell;
      dl->AddRect(pt(px, py), pt(px + cell, py + cell), IM_COL32(255, 60, 40, 255), 0.0f, 0,
                  std::max(1.0f, 2.0f * mark) / sx);
      dl->AddText(font, text_px / sy, pt(ax, ay + ny * cell + pad), IM_COL32(255, 255, 255, 255), label);
      marks_.push_back({"magnifier", bx, by, bx + box_w, by + box_h, thin, text_px});
    }
  }
  dl->PopClipRect();
}

void RotateDemo::ui(Frame& frame) {
  const float w = 220.0f * frame.ui_scale;
  pick_and_open(
      picker_, w, origin_,
      [&](const image::Generated& g, std::string* err) { return load_generated(g, err); },
      [&](const std::filesystem::path& p, std::string* err) { return load_path(p, err); },
      [&](std::string line) { notify(std::move(line)); });
  ImGui::Text("%s, %s", image_label(image_).c_str(),
              format_count(static_cast<double>(image_.pixel_count()), "pixels").c_str());

  ImGui::Separator();
  ui_angle(w);
  ImGui::Separator();
  ui_texture_options();
  ImGui::Separator();
  ui_output(w);

  ImGui::Separator();
  ImGui::Checkbox("compare (S)", &compare_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the source left of a split line, the output right of it");
  ImGui::SameLine();
  ImGui::Checkbox("source frame", &show_frame_);
  ImGui::SameLine();
  ImGui::Checkbox("magnifier (M)", &magnifier_);
  ImGui::SameLine();
  if (ImGui::Button("fit (F)")) view_.fitted = false;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w * 1.8f);
  ImGui::TextWrapped(
      "left drag on the image: rotate about the centre; wheel: scale; Ctrl+wheel: zoom the view, right drag: "
      "pan. Keys: Q / Shift+Q or [ / ] quarter turns, Left/Right 1° (Shift 15°), L filter, A address mode, "
      "P surface/PBO, S compare, M magnifier, F fit; Space plays the spin");
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();

  ImGui::Separator();
  try {
    // Dragging the angle changes the picture every frame too: no read-back (it would wait for GL).
    ui_inspector((frame.playing && spin_ != 0.0f) || dragging_angle_);
  } catch (const std::exception& e) {
    ImGui::TextColored(kRed, "inspector: %s", e.what());
  }

  ImGui::Separator();
  if (ui::verify_button(
          "compare this variant's output with the CPU reference (rotate_cpu with the settings CUDA "
          "runs): point filtering exactly, linear within 1 level",
          [&] { return verify(); }, &verify_result_, &verify_ok_))
    notify(verify_result_);
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
}

}  // namespace gpulab

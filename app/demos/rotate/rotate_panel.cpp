// Texture rotation: the panel and what is drawn over the image. The image picker, angle and scale,
// texture options, output path, view switches, verify; the overlay (outline, source frame, magnifier);
// the caption.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

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

constexpr int kMagnified = 16;          // output pixels a side in the magnifier
constexpr float kMagnification = 8.0f;  // screen pixels per output pixel there

}  // namespace

std::string RotateDemo::caption() const {
  char view[64];
  std::snprintf(view, sizeof view, "%.1f° x%.2f", double(settings_.params.angle_deg),
                double(settings_.params.scale));
  std::string s = "Texture rotation | " + std::string(variant().id) + " | " + settings_label() + " | " +
                  view + " | " + image_label(image_);
  if (const auto ms = ctx_ && ctx_->timings ? ctx_->timings->median_per_step(TimingKey{pick(0)}, last_runs_)
                                            : std::nullopt) {
    s += " | " + format_time_per(*ms, "rotate (per frame)");  // the HUD's words
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

void RotateDemo::ui_overlay(const Frame& frame) {
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float sx = fs.x > 0 ? fs.x : 1.0f, sy = fs.y > 0 ? fs.y : 1.0f;
  const float mark = view_mark_scale(frame);  // lines and the magnifier grow with the framebuffer
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->PushClipRect(ImVec2(static_cast<float>(view_.area.x) / sx, static_cast<float>(view_.area.y) / sy),
                   ImVec2(static_cast<float>(view_.area.x + view_.area.w) / sx,
                          static_cast<float>(view_.area.y + view_.area.h) / sy));
  const double w = image_.width * view_.scale, h = image_.height * view_.scale;
  auto to_screen = [&](double px, double py) {  // output pixel coordinates to ImGui points
    return ImVec2(static_cast<float>((view_.left + px * view_.scale) / sx),
                  static_cast<float>((view_.top + py * view_.scale) / sy));
  };
  // The output's frame, so that border texels (black) stand apart from the background.
  dl->AddRect(to_screen(0, 0), to_screen(image_.width, image_.height), IM_COL32(110, 110, 110, 200));
  if (show_frame_ && w > 0 && h > 0) {
    // Where the source's edges land: q = c + s * R^T (p - c), the definition solved for the output.
    const double t = double(angle()) * (3.14159265358979323846 / 180.0), s = settings_.params.scale;
    const double cs = std::cos(t), sn = std::sin(t), cx = image_.width * 0.5, cy = image_.height * 0.5;
    const double corners[4][2] = {{0, 0},
                                  {double(image_.width), 0},
                                  {double(image_.width), double(image_.height)},
                                  {0, double(image_.height)}};
    ImVec2 pts[4];
    for (int i = 0; i < 4; ++i) {
      const double u = corners[i][0] - cx, v = corners[i][1] - cy;
      pts[i] = to_screen(cx + s * (u * cs + v * sn), cy + s * (-u * sn + v * cs));
    }
    dl->AddPolyline(pts, 4, IM_COL32(255, 200, 60, 200), ImDrawFlags_Closed, 1.5f * mark);
    dl->AddCircleFilled(pts[0], 3.5f * mark, IM_COL32(255, 200, 60, 230));  // the source's top-left
  }
  // The magnifier: the output around the cursor, nearest filtering, one output pixel per square.
  if (magnifier_ && hovering_ && display_ && display_->has_image()) {
    const int nx = std::min(kMagnified, image_.width), ny = std::min(kMagnified, image_.height);
    const int x0 = std::clamp(hover_x_ - nx / 2, 0, image_.width - nx);
    const int y0 = std::clamp(hover_y_ - ny / 2, 0, image_.height - ny);
    const float cell = kMagnification * mark / sx;
    const float mw = nx * cell, mh = ny * cell;
    ImVec2 a(mouse_x_ / sx + 24.0f, mouse_y_ / sy + 24.0f);
    if (a.x + mw > view_.fb_w / sx) a.x = mouse_x_ / sx - 24.0f - mw;
    if (a.y + mh > view_.fb_h / sy) a.y = mouse_y_ / sy - 24.0f - mh;
    const ImVec2 b(a.x + mw, a.y + mh);
    const ImVec2 uv0(float(x0) / image_.width, float(y0) / image_.height);
    const ImVec2 uv1(float(x0 + nx) / image_.width, float(y0 + ny) / image_.height);
    dl->AddRectFilled(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), IM_COL32(0, 0, 0, 220));
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(display_->output().id())), a, b, uv0,
                 uv1);
    const ImVec2 p(a.x + (hover_x_ - x0) * cell, a.y + (hover_y_ - y0) * cell);
    dl->AddRect(p, ImVec2(p.x + cell, p.y + cell), IM_COL32(255, 60, 40, 255), 0.0f, 0, 2.0f * mark);
    dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), IM_COL32(200, 200, 200, 255));
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
  ui_overlay(frame);
}

}  // namespace gpulab

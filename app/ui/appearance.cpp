#include "ui/appearance.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/theme.h"

namespace gpulab::ui {

float clamp_scale(float scale) {
  if (!std::isfinite(scale)) return 1.0f;
  return std::clamp(scale, kMinUiScale, kMaxUiScale);
}

float fit_scale(float scale, int framebuffer_height) {
  scale = clamp_scale(scale);
  if (framebuffer_height <= 0) return scale;
  const float most = static_cast<float>(framebuffer_height) / (kBaseFontPx * kMinTextLines);
  return std::min(scale, std::max(most, 1.0f));
}

float step_scale(float scale, int direction) {
  scale = clamp_scale(scale);
  if (direction > 0) {
    for (float s : kScaleSteps)
      if (s > scale + 1e-3f) return s;
    return kMaxUiScale;
  }
  for (auto it = std::rbegin(kScaleSteps); it != std::rend(kScaleSteps); ++it)
    if (*it < scale - 1e-3f) return *it;
  return kMinUiScale;
}

bool Appearance::update(float scale, Theme theme, int framebuffer_height, bool backend_ready) {
  asked_ = clamp_scale(scale);
  scale = fit_scale(scale, framebuffer_height);
  const float hud_px = hud_font_px(framebuffer_height);
  const bool rebuild = !fonts_.ui || fonts_.scale != scale || fonts_.hud_px != hud_px;
  const bool restyle = !styled_ || rebuild || theme != theme_;
  if (!rebuild && !restyle) return false;
  if (restyle) {
    apply_style(theme, scale);
    theme_ = theme;
    styled_ = true;
  }
  if (rebuild) {
    ImGuiIO& io = ImGui::GetIO();
    if (backend_ready) ImGui_ImplOpenGL3_DestroyFontsTexture();
    fonts_ = build_fonts(*io.Fonts, scale, hud_px);
    io.FontGlobalScale = 1.0f;  // the glyphs are rasterised at the size drawn: never scaled up
    io.FontDefault = fonts_.ui;
    if (backend_ready) ImGui_ImplOpenGL3_CreateFontsTexture();
    if (fonts_.problem != told_) {
      told_ = fonts_.problem;
      pending_ = fonts_.problem;
    }
  }
  return true;
}

std::string Appearance::take_problem() {
  std::string p;
  p.swap(pending_);
  return p;
}

}  // namespace gpulab::ui

#include "ui/theme.h"

namespace gpulab::ui {
namespace {

Theme g_theme = Theme::Dark;

// Black on white, dark-blue accents, every frame outlined: legible on a projector that washes out
// greys and pale blues.
void high_contrast_light(ImGuiStyle& s) {
  ImGui::StyleColorsLight(&s);
  ImVec4* c = s.Colors;
  const ImVec4 black(0.0f, 0.0f, 0.0f, 1.0f), white(1.0f, 1.0f, 1.0f, 1.0f);
  const ImVec4 blue(0.05f, 0.20f, 0.60f, 1.0f), pale(0.80f, 0.86f, 1.0f, 1.0f),
      mid(0.62f, 0.72f, 0.98f, 1.0f);
  c[ImGuiCol_Text] = black;
  c[ImGuiCol_TextDisabled] = ImVec4(0.25f, 0.25f, 0.25f, 1.0f);
  c[ImGuiCol_WindowBg] = white;
  c[ImGuiCol_ChildBg] = white;
  c[ImGuiCol_PopupBg] = white;
  c[ImGuiCol_Border] = black;
  c[ImGuiCol_FrameBg] = ImVec4(0.93f, 0.93f, 0.93f, 1.0f);
  c[ImGuiCol_FrameBgHovered] = pale;
  c[ImGuiCol_FrameBgActive] = mid;
  c[ImGuiCol_TitleBg] = ImVec4(0.85f, 0.85f, 0.85f, 1.0f);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.75f, 0.80f, 0.95f, 1.0f);
  c[ImGuiCol_CheckMark] = blue;
  c[ImGuiCol_SliderGrab] = blue;
  c[ImGuiCol_SliderGrabActive] = black;
  c[ImGuiCol_Button] = ImVec4(0.86f, 0.89f, 0.98f, 1.0f);
  c[ImGuiCol_ButtonHovered] = pale;
  c[ImGuiCol_ButtonActive] = mid;
  c[ImGuiCol_Header] = ImVec4(0.86f, 0.89f, 0.98f, 1.0f);
  c[ImGuiCol_HeaderHovered] = pale;
  c[ImGuiCol_HeaderActive] = mid;
  c[ImGuiCol_Separator] = black;
  c[ImGuiCol_PlotLines] = blue;
  c[ImGuiCol_PlotHistogram] = blue;
  c[ImGuiCol_TableHeaderBg] = ImVec4(0.86f, 0.89f, 0.98f, 1.0f);
  c[ImGuiCol_TableBorderStrong] = black;
  c[ImGuiCol_TableBorderLight] = ImVec4(0.45f, 0.45f, 0.45f, 1.0f);
  s.WindowBorderSize = 1.0f;
  s.FrameBorderSize = 1.0f;
  s.PopupBorderSize = 1.0f;
}

}  // namespace

void apply_style(Theme theme, float scale) {
  ImGuiStyle s;  // ImGui's defaults: the pristine sizes
  if (theme == Theme::Light)
    high_contrast_light(s);
  else
    ImGui::StyleColorsDark(&s);
  s.ScaleAllSizes(scale);
  ImGui::GetStyle() = s;
  g_theme = theme;
}

Theme current_theme() { return g_theme; }

ImVec4 tone(Tone t) {
  const bool light = g_theme == Theme::Light;
  switch (t) {
    case Tone::Warning:
      return light ? ImVec4(0.55f, 0.27f, 0.0f, 1.0f) : ImVec4(1.0f, 0.75f, 0.2f, 1.0f);
    case Tone::Error:
      return light ? ImVec4(0.70f, 0.0f, 0.0f, 1.0f) : ImVec4(1.0f, 0.4f, 0.3f, 1.0f);
    case Tone::Good:
      return light ? ImVec4(0.0f, 0.45f, 0.0f, 1.0f) : ImVec4(0.4f, 0.9f, 0.4f, 1.0f);
    case Tone::Accent:
      return light ? ImVec4(0.05f, 0.20f, 0.60f, 1.0f) : ImVec4(0.55f, 0.75f, 1.0f, 1.0f);
  }
  return ImVec4(1, 1, 1, 1);
}

}  // namespace gpulab::ui

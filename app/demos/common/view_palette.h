#pragma once
// The view's palette follows the app's theme: a light theme (projector mode's) gets light pictures,
// since a dark picture inside a light screen reads poorly from a projector. The theme is the app's
// ImGui style, the one thing every demo already draws with.
#include <imgui.h>

namespace gpulab {

// True when the app's theme is light (its window background is light).
inline bool light_theme() {
  if (!ImGui::GetCurrentContext()) return false;
  const ImVec4 c = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z > 0.5f;
}

}  // namespace gpulab

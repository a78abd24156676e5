#include "ui/verify_button.h"

#include <imgui.h>

#include <exception>

namespace gpulab::ui {

bool verify_button(const char* tooltip, const std::function<std::string()>& run, std::string* result, bool* ok) {
  const bool pressed = ImGui::Button("verify");
  if (pressed) {
    try {
      *result = run();
    } catch (const std::exception& e) {
      *ok = false;
      *result = std::string("verify failed: ") + e.what();
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  if (!result->empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, *ok ? ImVec4(0.4f, 0.9f, 0.4f, 1.0f) : ImVec4(1.0f, 0.4f, 0.3f, 1.0f));
    ImGui::TextWrapped("%s", result->c_str());
    ImGui::PopStyleColor();
  }
  return pressed;
}

}  // namespace gpulab::ui

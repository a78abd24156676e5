#include "ui/verify_button.h"

#include <imgui.h>

#include <exception>

#include "ui/theme.h"

namespace gpulab::ui {

bool verify_button(const char* tooltip, const std::function<std::string()>& run, std::string* result,
                   bool* ok) {
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
    ImGui::PushStyleColor(ImGuiCol_Text, tone(*ok ? Tone::Good : Tone::Error));
    ImGui::TextWrapped("%s", result->c_str());
    ImGui::PopStyleColor();
  }
  return pressed;
}

}  // namespace gpulab::ui

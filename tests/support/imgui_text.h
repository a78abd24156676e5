#pragma once
// Panel code run in a test: an ImGui context (font atlas built, nothing drawn on a GPU) and the text a
// body drew, read from ImGui's log capture.
#include <imgui.h>
#include <imgui_internal.h>

#include <functional>
#include <string>

namespace gpulab::testing {

class ImGuiText {
 public:
  explicit ImGuiText(ImVec2 display = ImVec2(1280, 900)) : ctx_(ImGui::CreateContext()) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = display;
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas; no texture upload needed
  }
  ~ImGuiText() { ImGui::DestroyContext(ctx_); }
  ImGuiText(const ImGuiText&) = delete;
  ImGuiText& operator=(const ImGuiText&) = delete;

  // Runs `body` in a window for `frames` frames (what opens or lays out on the first settles by the
  // second) and returns the text of the last.
  std::string run(const std::function<void()>& body, int frames = 2) {
    std::string text;
    for (int i = 0; i < frames; ++i) {
      ImGui::NewFrame();
      ImGui::Begin("panel");
      ImGui::LogToBuffer();
      body();
      text = ImGui::GetCurrentContext()->LogBuffer.c_str();
      ImGui::LogFinish();
      ImGui::End();
      ImGui::Render();
    }
    return text;
  }

 private:
  ImGuiContext* ctx_;
};

}  // namespace gpulab::testing

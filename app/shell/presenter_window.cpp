// The presenter's window: see presenter_window.h.
#include "shell/presenter_window.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "gl/gl.h"
#include "platform/platform.h"

namespace gpulab {

namespace {
// Scroll and text reach this window's ImGui context (its GLFW backend installs no callbacks: with two
// contexts, ImGui 1.86's would send every window's events to whichever context is current).
ImGuiContext* g_presenter_imgui = nullptr;
void on_scroll(GLFWwindow*, double dx, double dy) {
  if (!g_presenter_imgui) return;
  ImGuiContext* prev = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_presenter_imgui);
  ImGui::GetIO().MouseWheelH += static_cast<float>(dx);
  ImGui::GetIO().MouseWheel += static_cast<float>(dy);
  ImGui::SetCurrentContext(prev);
}
void on_char(GLFWwindow*, unsigned int c) {
  if (!g_presenter_imgui) return;
  ImGuiContext* prev = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_presenter_imgui);
  ImGui::GetIO().AddInputCharacter(c);
  ImGui::SetCurrentContext(prev);
}
}  // namespace

std::unique_ptr<PresenterWindow> PresenterWindow::open(platform::Platform& pf, int monitor,
                                                       KeyCallback on_key, std::string* why) {
  std::unique_ptr<platform::SecondWindow> w = pf.open_second_window(monitor, "gpulab - presenter", why);
  if (!w) return nullptr;
  std::unique_ptr<PresenterWindow> p(new PresenterWindow());
  p->window_ = std::move(w);
  p->monitor_ = monitor;
  p->first_ = ImGui::GetCurrentContext();
  GLFWwindow* gw = p->window_->glfw_window();
  glfwSetKeyCallback(gw, on_key);
  glfwSetScrollCallback(gw, on_scroll);
  glfwSetCharCallback(gw, on_char);
  p->window_->make_current();
  p->imgui_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(p->imgui_);
  ImGui::GetIO().IniFilename = nullptr;
  ImGui_ImplGlfw_InitForOpenGL(gw, false);
  ImGui_ImplOpenGL3_Init("#version 450 core");
  g_presenter_imgui = p->imgui_;
  ImGui::SetCurrentContext(p->first_);
  pf.make_current();
  return p;
}

PresenterWindow::~PresenterWindow() {
  if (imgui_) {
    ImGuiContext* prev = ImGui::GetCurrentContext();
    window_->make_current();
    ImGui::SetCurrentContext(imgui_);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(imgui_);
    g_presenter_imgui = nullptr;
    ImGui::SetCurrentContext(prev == imgui_ ? first_ : prev);
  }
  window_.reset();
}

bool PresenterWindow::should_close() const { return window_->should_close(); }

void PresenterWindow::frame(float ui_scale, Theme theme, double dt,
                            const std::function<void(float, float)>& draw, platform::Platform& pf) {
  window_->make_current();
  ImGui::SetCurrentContext(imgui_);
  const int fw = window_->framebuffer_width(), fh = window_->framebuffer_height();
  appearance_.update(ui_scale, theme, fh, started_);
  started_ = true;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::GetIO().DeltaTime = static_cast<float>(std::max(dt, 1e-4));
  ImGui::NewFrame();
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  draw(size.x, size.y);
  ImGui::Render();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fw, fh);
  glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  window_->swap_buffers();
  ImGui::SetCurrentContext(first_);
  pf.make_current();
}

}  // namespace gpulab

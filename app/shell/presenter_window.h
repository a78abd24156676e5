#pragma once
// The presenter's window in projector mode (with two monitors, or --presenter-window to rehearse on
// one): a second window on the laptop's monitor, with an ImGui context and fonts of its own, showing
// what only the lecturer should see: the step's notes, the next step, a clock since the lesson
// started, and the panel with every control. The projected window keeps the view, the caption and
// the HUD, and paces the frames (this window never waits for its display).
#include <functional>
#include <memory>
#include <string>

#include "core/settings.h"
#include "ui/appearance.h"

struct ImGuiContext;
struct GLFWwindow;

namespace gpulab {
namespace platform {
class Platform;
class SecondWindow;
}  // namespace platform

class PresenterWindow {
 public:
  using KeyCallback = void (*)(GLFWwindow*, int key, int scancode, int action, int mods);
  // Opens it on monitor `monitor` (-1: wherever the system puts it); keys pressed in it go to `on_key`
  // (the app's queue: a clicker works whichever window has the focus). Null and *why when it cannot.
  static std::unique_ptr<PresenterWindow> open(platform::Platform& pf, int monitor, KeyCallback on_key,
                                               std::string* why);
  ~PresenterWindow();
  PresenterWindow(const PresenterWindow&) = delete;
  PresenterWindow& operator=(const PresenterWindow&) = delete;

  bool should_close() const;
  int monitor() const { return monitor_; }
  // One frame of it: `draw(width, height)` lays out its content in its own ImGui context (window
  // points); then the first window's context is current again.
  void frame(float ui_scale, Theme theme, double dt, const std::function<void(float, float)>& draw,
             platform::Platform& pf);

 private:
  PresenterWindow() = default;
  std::unique_ptr<platform::SecondWindow> window_;
  ImGuiContext* imgui_ = nullptr;
  ImGuiContext* first_ = nullptr;  // the projected window's context
  ui::Appearance appearance_;
  int monitor_ = -1;
  bool started_ = false;
};

}  // namespace gpulab

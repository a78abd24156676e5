#pragma once
// The application: the frame loop, the platform (window or headless EGL), ImGui, the panel, the
// presentation (UI scale, theme, projector mode) and the settings file, and the registry of the
// presenter's elements (presenter/elements.h), each called through its hooks. What runs (the demos,
// their Setups, the backend) is the Session's (shell/session.h).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"
#include "core/settings.h"
#include "core/timings.h"
#include "gl/gl.h"
#include "presenter/element.h"
#include "presenter/layout_report.h"
#include "presenter/screen_layout.h"
#include "ui/appearance.h"
#include "ui/panels.h"

namespace gpulab {
namespace platform {
class Platform;
}
class ShellSession;
class PresenterWindow;

class App {
 public:
  // `demos` are the ones the command line was parsed with, `params` their parameters as parsed (in the
  // same order; empty: every demo's defaults).
  App(Options options, std::vector<std::unique_ptr<Demo>> demos, std::vector<Params> params = {});
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  // Runs until the window closes (or --frames are rendered headless); returns the exit status.
  int run();

  using KeyPress = presenter::KeyPress;
  // What the last frame drawn showed and where: what the layout tests check and --layout-report writes.
  using PanelLayout = presenter::LayoutReport;
  const PanelLayout& panel_layout() const { return report_; }

 private:
  bool init(std::string* error);
  void shutdown();
  void frame();
  int run_headless();
  int run_lesson_check();  // --lesson FILE --check (app_check.cpp)
  void hotkeys();
  void key_action(const KeyBinding& b, const KeyPress& k);  // the shell's own keys; the rest to the elements
  presenter::ScreenLayout lay_out(const Frame& f);          // this frame's regions (one layout function)
  void draw_ui(Frame& f, const presenter::Rect& region);
  void draw_controls(Frame& f);
  void draw_pickers(Frame& f, bool compact);  // the demo and variant pickers (all the compact panel has)
  void draw_status();                         // the backend's line and the demo's start error
  void draw_caption(const presenter::Rect& region);
  float caption_px() const;  // the caption line's text: at least 28 px at 1080p
  void draw_view_controls();
  void draw_presenter(Frame& f, float width, float height);  // the presenter's window (presenter_window.h)
  Input read_input(const Frame& f);
  void select_demo(size_t index);
  bool write_screenshot(const std::filesystem::path& path);
  // The registered element of type E (presenter/elements.h), or null.
  template <class E>
  E* element() const {
    for (const auto& e : elements_)
      if (e->name() == E::kName) return dynamic_cast<E*>(e.get());
    return nullptr;
  }

  // Presentation and settings (app_settings.cpp).
  void load_settings_for_run();
  void save_settings_if_due(bool at_exit);
  float ui_scale() const;  // the chosen scale, or the display's content scale
  void set_ui_scale(std::optional<float> chosen);
  void set_theme(Theme theme);
  void set_projector(bool on);
  void record_panel(bool compact);  // the panel's place and state, for the report
  void record_appearance();         // the display, the scale, the fonts and the theme, for the report
  bool write_layout_report(const std::filesystem::path& path) const;

  Options options_;
  std::unique_ptr<platform::Platform> platform_;  // complete type in app.cpp, where ~App is
  std::unique_ptr<ShellSession> session_;
  std::vector<std::unique_ptr<presenter::Element>> elements_;  // the registry, in call order
  ui::Appearance appearance_;
  bool imgui_ = false;

  // What is on the screen: the presentation, in effect (command line over settings).
  struct View {
    std::optional<float> chosen_scale;  // none: the display's content scale
    Theme theme = Theme::Dark;
    bool ui_visible = true;
    bool caption = false;
    bool vsync = true;
    bool compact = false;          // only the pickers (projector mode)
    float compact_w = 0;           // the compact panel's width on the last frame (points)
    double mouse_moved_at = -1e9;  // the compact panel starts folded, and opens when the mouse moves
    int blank = 0;                 // 0, or the view blanked: 1 black, 2 white
    struct ProjectorRestore {
      std::optional<float> scale;
      Theme theme;
      bool hud, compact, fullscreen;
    };
    std::optional<ProjectorRestore> projector;  // set while projector mode is on
  } view_;
  // The per-user settings: to be saved (window runs only), as on disk, where.
  struct Store {
    Settings settings, on_disk;
    std::filesystem::path path;  // empty: settings are neither read nor written
    bool dirty = false;
    double saved_at = 0;
    // --size: the window's size as the command line gave it (its first frame's), not saved until the
    // user resizes the window away from it (the command line wins and is not saved).
    std::optional<std::pair<int, int>> cli_size;
  } store_;
  struct Shots {
    bool with_ui = true;
    bool pending = false;
    std::filesystem::path dir = "screenshots";
  } shots_;
  struct Clock {
    int frame_index = 0;
    double last_time = 0;
    int last_steps_per_frame = 1;
    double started_at = 0;
    RollingSeries frame_ms{"frame", "ms"};
  } clock_;
  struct Keys {
    std::vector<KeyPress> queue;
    std::vector<int> demo;  // this frame's key presses the app did not take
  } keys_;
  std::unique_ptr<PresenterWindow> presenter_;  // projector mode's second window, when there is one
  ui::OccupancySection occupancy_;              // the Occupancy tab and its cache of analyses
  std::string backend_banner_;
  void gpu_fault_hooks();           // the tests' GPULAB_TEST_GPU_FAULT
  presenter::ScreenLayout layout_;  // this frame's regions
  gl::Fence drawn_;                 // after the last frame's drawing (a step waits for it on the GPU)
  PanelLayout report_;
};

// Entry point shared by main() and the tests: parses argv, runs the app or the bench.
int gpulab_main(int argc, const char* const* argv);

}  // namespace gpulab

#pragma once
// The application: a platform (window or headless EGL), the compute backend (CUDA when a device
// exists, else CPU), ImGui, the demos, the frame loop, hotkeys and screenshots.
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"
#include "core/settings.h"
#include "core/timings.h"
#include "presenter/ab.h"
#include "presenter/code_panel.h"
#include "presenter/hud.h"
#include "ui/appearance.h"

namespace gpulab {
namespace presenter {
class LadderView;
class LessonPlayer;
class Recorder;
class AbCompare;
class CountersView;
}  // namespace presenter
namespace cuda {
struct DeviceInfo;
}

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

  struct KeyPress {
    int key;
    int mods;
    bool repeat;
  };

  // Where the panel was and what it held on the last frame drawn with the UI, in window points:
  // what the layout tests check (nothing cut off at 3x) and --layout-report writes.
  struct PanelLayout {
    struct Item {
      std::string name;
      float y0 = 0, y1 = 0;
    };
    bool drawn = false;
    float display_w = 0, display_h = 0;
    float x = 0, y = 0, w = 0, h = 0;                              // the panel window
    float inner_x0 = 0, inner_y0 = 0, inner_x1 = 0, inner_y1 = 0;  // inside title bar and scrollbars
    float work_x1 = 0;                                             // right end of the space widgets may use
    float content_x1 = 0, content_y1 = 0;  // right and bottom end of what was laid out
    bool scrollbar_x = false, scrollbar_y = false;
    bool compact = false;
    std::vector<Item> sections;  // the collapsing headers, top to bottom
    float ui_scale = 0, font_px = 0, font_global_scale = 0, hud_px = 0, hud_digit_px = 0;
    bool truetype = false;
    std::string theme;
    // The HUD as drawn on that frame (window points) and the view's middle it must leave free.
    struct Hud {
      bool shown = false;
      float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
      float view_x0 = 0, view_x1 = 0, view_y1 = 0;
      std::string title;
      std::vector<std::string> values, captions;  // the figures drawn
    } hud;
    // The key list (F1 / ?) as drawn on that frame.
    struct Help {
      bool shown = false;
      float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
      std::vector<std::string> keys;  // the keys listed, as written ("F5", "F1 / ?")
      bool scroll_y = false;          // it did not fit: scrolls
    } help;
    // The lesson as shown on that frame: its step, the demo and variants running, the overlay.
    struct LessonShown {
      bool running = false;
      int step = 0, steps = 0;  // 1-based
      std::string title, progress, caption, problem, demo;
      std::vector<std::string> variants;  // the running variant of each active stage
      float caption_y0 = 0, caption_y1 = 0;
      bool notes_shown = false;  // the step's notes are in the panel
    } lesson;
    presenter::CodePanelShown code;  // the code panel (F4)
    bool recording = false;          // a clip is being recorded (the red dot is drawn in a window)
    presenter::AbShown ab;           // A/B (F8)
    // The Counters tab as drawn on that frame (only when it is the open tab).
    struct CountersShown {
      bool tab_open = false;
      std::string unavailable;            // why nothing can be measured ("" when something may be)
      std::string meters;                 // the live meters' status ("" while sampling)
      size_t meter_samples = 0;           // samples in the meters' history
      double meter_span_s = 0;            // the time they cover
      std::vector<std::string> measured;  // the variants with counters, in the order measured
    } counters;
  };
  const PanelLayout& panel_layout() const { return layout_; }

 private:
  struct Gpu;  // CUDA state (stream, device info); empty without CUDA

  bool init(std::string* error);
  void shutdown();
  void frame();
  void hotkeys();
  void key_action(const KeyBinding& b, const KeyPress& k);  // what a shell key does (core/keymap.h)
  void draw_help();  // F1 / ?: every key of the app and the current demo
  void draw_hud(const Frame& f);
  void feed_hud_from_ladder();  // the finished ladder's CPU rung is the HUD's baseline
  void draw_ui(Frame& f);
  void draw_controls(Frame& f);
  void draw_pickers(Frame& f, bool compact);  // the demo and variant pickers (all the compact panel has)
  void draw_messages();
  void draw_caption();
  void cycle_variant(int direction);
  void choose_variant(size_t stage, int variant);
  void choose_block(size_t stage, int block);
  // Gives the running demo `next` (a copy of its Setup with other picks): every changed pick must run
  // here and the demo must take it (Demo::picks_changed); else the Setup stays and *why says why.
  bool change_picks(const Setup& next, std::string* why);
  // Binds a fresh `demo` to `setup` and configures it for a run that writes nothing: "" or why not.
  std::string configure_fresh(Demo& demo, const Setup& setup);
  bool attach_current();
  Input read_input(const Frame& f);
  void select_demo(size_t index);
  // Detaches the current demo and attaches demo `index`, first replaced by `fresh` running `setup`
  // when they are given (the ladder and A/B end, the timings restart); `remember` saves it as the last
  // demo. Returns whether it attached.
  bool replace_demo(size_t index, std::unique_ptr<Demo> fresh, bool remember, const Setup* setup = nullptr);
  // The part of the display the panel leaves free (window points), above the caption strip when it
  // is shown and, with `above_lesson_band`, above the lesson's caption band.
  presenter::HudBox view_box(const Frame& f, bool above_lesson_band = true) const;
  void notify(std::string line);
  void guarded(const char* phase, const std::function<void()>& fn);
  bool write_screenshot(const std::filesystem::path& path);
  void start_ladder();
  void start_counters();
  const cuda::DeviceInfo* cuda_device_info() const;  // null without a CUDA device (Gpu is app.cpp's)
  // Lessons (app_lesson.cpp): open one, go to a step, what is drawn for it.
  bool open_lesson(const std::filesystem::path& path, int first_step, std::string* error);
  void go_to_step(int k);
  void draw_lesson_overlay(const Frame& f);
  void draw_lesson_section();
  void record_lesson_layout();
  void draw_code(const Frame& f);  // the code panel (F4)
  void toggle_recording();         // F9
  // A/B (app_ab.cpp): the Setups `a` and `b` (b = a with one pick changed) side by side: A becomes the
  // app's demo (started afresh from `a`), B runs beside it.
  bool start_ab(const Setup& a, const Setup& b, std::string* why);
  // The B half beside the running demo (the A half): a fresh demo running `b`. `a_asked` is what A was
  // asked to run: a pick that fell back to another (it cannot run here) ends the A/B.
  bool start_ab_b(const Setup& a_asked, const Setup& b, std::string* why);
  void stop_ab();
  void toggle_ab();  // F8
  void compute_ab(Frame& f);
  void render_ab(Frame& f);
  void draw_ab_overlay(const Frame& f);
  void record_frame();  // after a frame is drawn: its read-back, and the red dot

  // Presentation and settings (app_settings.cpp).
  void load_settings_for_run();
  void save_settings_if_due(bool at_exit);
  float ui_scale() const;  // the chosen scale, or the display's content scale
  void set_ui_scale(std::optional<float> chosen);
  void set_theme(Theme theme);
  void set_projector(bool on);
  void draw_view_controls();
  void record_layout();
  bool write_layout_report(const std::filesystem::path& path) const;

  Options options_;
  std::unique_ptr<presenter::LadderView> ladder_;    // shown over the view while it exists
  std::unique_ptr<presenter::LessonPlayer> lesson_;  // the lesson running, if any
  float lesson_band_ = 0;              // the caption band's height (points): the HUD goes above it
  char lesson_path_input_[1024] = {};  // the panel's "open a lesson" field
  bool lesson_tab_select_ = false;     // bring the Lesson tab to the front (a lesson opened)
  bool counters_tab_select_ = false;   // bring the Counters tab to the front (F3)
  float lesson_top_ = 0;               // below the lesson's progress line (points)
  bool code_panel_ = false;            // F4
  std::unique_ptr<presenter::Recorder> recorder_;  // F9 / --record
  std::unique_ptr<presenter::AbCompare> ab_;       // F8 / a lesson step with two variants
  size_t code_stage_ = 0;                          // the stage whose code it shows
  presenter::CodePanelCache code_cache_;           // what it shows, made again when the variant changes
  std::optional<std::vector<std::filesystem::path>>
      shipped_lessons_;                                // listed on the Lesson tab's first draw
  std::unique_ptr<presenter::CountersView> counters_;  // F3 / the Counters tab; made on first use
  std::unique_ptr<platform::Platform> platform_;       // complete type in app.cpp, where ~App is
  std::unique_ptr<Gpu> gpu_;
  Timings timings_;
  Context ctx_;
  std::vector<std::unique_ptr<Demo>> demos_;
  // What each demo runs (demos_[i] is bound to setups_[i]): sized once, never reallocated.
  std::vector<Setup> setups_;
  size_t demo_ = 0;
  bool attached_ = false;
  bool imgui_ = false;

  // Controls.
  bool playing_ = true;
  int steps_per_frame_ = 1;
  int last_steps_per_frame_ = 1;
  bool step_once_ = false;
  bool reset_ = false;
  bool ui_visible_ = true;
  bool vsync_ = true;
  bool caption_ = false;
  bool shot_with_ui_ = true;
  bool shot_pending_ = false;
  std::filesystem::path shot_dir_ = "screenshots";
  int frame_index_ = 0;
  int panel_right_ = 0;
  double last_time_ = 0.0;
  RollingSeries frame_ms_{"frame", "ms"};

  struct Message {
    std::string text;
    double time;
  };
  std::deque<Message> messages_;
  std::vector<KeyPress> key_queue_;
  std::string backend_banner_;
  std::string attach_error_;    // why the current demo could not start (shown in the panel)
  std::vector<int> demo_keys_;  // this frame's key presses the app did not take
  bool had_error_ = false;

  // Presentation: what is in effect (command line over settings), and the settings as saved.
  ui::Appearance appearance_;
  std::optional<float> chosen_scale_;  // none: the display's content scale
  Theme theme_ = Theme::Dark;
  bool hud_ = false;
  bool help_ = false;           // the key list is shown
  presenter::Hud hud_view_;     // its reading (kept up to date while hidden: the CPU baseline)
  bool ladder_fed_hud_ = true;  // the finished ladder's CPU baseline went to the HUD
  bool compact_panel_ = false;  // only the pickers (projector mode)
  struct ProjectorRestore {
    std::optional<float> scale;
    Theme theme;
    bool hud, compact, fullscreen;
  };
  std::optional<ProjectorRestore> projector_;  // set while projector mode is on
  float panel_laid_out_for_ = 0;               // the scale the panel's size was last set for
  float panel_display_w_ = 0, panel_display_h_ = 0;
  Settings settings_;  // to be saved (window runs only)
  Settings settings_on_disk_;
  std::filesystem::path settings_path_;  // empty: settings are neither read nor written
  bool settings_dirty_ = false;
  double settings_saved_at_ = 0.0;
  PanelLayout layout_;
};

// Entry point shared by main() and the tests: parses argv, runs the app or the bench.
int gpulab_main(int argc, const char* const* argv);

}  // namespace gpulab

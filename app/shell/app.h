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
#include "core/timings.h"

namespace gpulab {
namespace presenter {
class LadderView;
}

class App {
 public:
  // `demos` are the ones the command line was parsed with (their options are set in them).
  App(Options options, std::vector<std::unique_ptr<Demo>> demos);
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

 private:
  struct Gpu;  // CUDA state (stream, device info); empty without CUDA

  bool init(std::string* error);
  void shutdown();
  void frame();
  void hotkeys();
  void draw_ui(Frame& f);
  void draw_controls(Frame& f);
  void draw_caption();
  void cycle_variant(int direction);
  void choose_variant(size_t stage, std::string_view id);
  void choose_block(size_t stage, int block);
  bool attach_current();
  Input read_input(const Frame& f);
  void select_demo(size_t index);
  std::optional<size_t> demo_for_key(int key) const;  // keys 1 to 9, as far as there are demos
  void notify(std::string line);
  void guarded(const char* phase, const std::function<void()>& fn);
  bool write_screenshot(const std::filesystem::path& path);
  void start_ladder();  // F5 / "compare all": the speed-up ladder of the current demo

  Options options_;
  std::unique_ptr<presenter::LadderView> ladder_;  // shown over the view while it exists
  std::unique_ptr<platform::Platform> platform_;  // complete type in app.cpp, where ~App is
  std::unique_ptr<Gpu> gpu_;
  Timings timings_;
  Context ctx_;
  std::vector<std::unique_ptr<Demo>> demos_;
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
  std::string attach_error_;  // why the current demo could not start (shown in the panel)
  std::vector<int> demo_keys_;  // this frame's key presses the app did not take
  bool had_error_ = false;
};

// Entry point shared by main() and the tests: parses argv, runs the app or the bench.
int gpulab_main(int argc, const char* const* argv);

}  // namespace gpulab

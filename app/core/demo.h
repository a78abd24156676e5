#pragma once
// The interface every demo plugs in through (ARCHITECTURE.md): attach / compute / render / ui /
// detach, kept apart so that CUDA work, GL drawing and ImGui never mix.
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/hd.h"
#include "core/cli.h"
#include "life/life.h"

namespace gpulab {
namespace platform {
class Platform;
}
class Timings;
struct BenchSuite;

// What the UI shows for one variant of a demo.
struct VariantChoice {
  std::string_view id, title, lesson;
  bool available = true;
  std::string unavailable_reason;
  std::span<const int> blocks;
  bool square_blocks = false;
  int default_block = 0;
};

// What the app gives a demo when it attaches.
struct Context {
  platform::Platform* platform = nullptr;
  bool cuda = false;                 // a CUDA device is in use
  std::string cuda_reason;           // why not, when cuda is false
  int cuda_device = -1;
  Stream stream = nullptr;           // the compute stream (CUDA builds with a device)
  bool interop = false;              // GL resources can be registered with CUDA
  std::string interop_reason;        // why not, when interop is false
  Timings* timings = nullptr;
  double peak_bandwidth_gbps = 0.0;  // of the CUDA device, 0 when unknown
  std::filesystem::path assets;      // assets/ folder
  std::function<void(std::string)> notify;  // a line for the message area (errors, saved files)
};

// Per-frame state the app hands to each phase.
struct Frame {
  int width = 0, height = 0;  // the framebuffer the demo draws into (pixels)
  double dt = 0.0;            // seconds since the last frame
  bool playing = true;
  int steps_per_frame = 1;
  bool step_once = false;     // N pressed / Step clicked while paused
  bool reset = false;         // R pressed / Reset clicked
  bool mouse_free = true;     // the UI does not want the mouse
  int inset_left = 0;         // pixels on the left covered by the UI panel (0 when hidden)
  float ui_scale = 1.0f;
};

// Throughput the timings panel shows for the demo's main kernel section.
struct Throughput {
  std::string section;        // timing section holding one frame's steps ("step")
  double steps = 0;           // steps inside that section in the last frame
  double items_per_step = 0;  // e.g. cell updates per generation
  std::string item_unit;      // "cell updates"
  double bytes_per_step = 0;  // fewest bytes a step moves
};

class Demo {
 public:
  virtual ~Demo() = default;
  virtual std::string_view name() const = 0;   // stable id: "life"
  virtual std::string_view title() const = 0;  // "Game of Life"

  virtual std::vector<VariantChoice> variants() const = 0;
  virtual int variant_index() const = 0;
  virtual bool set_variant(std::string_view id, std::string* why) = 0;
  virtual int block() const = 0;
  virtual bool set_block(int block, std::string* why) = 0;

  // Applies command-line settings before attach (pattern, rule, grid, variant, block...).
  // Returns an error message for settings that cannot be used; the app prints it and exits 1.
  virtual std::string configure(const Options& options) = 0;

  virtual void attach(Context& ctx) = 0;
  virtual void compute(Frame& frame) = 0;
  virtual void render(Frame& frame) = 0;
  virtual void ui(Frame& frame) = 0;
  virtual void detach() = 0;

  // A file dropped on the window or given on the command line (patterns, images...).
  virtual bool open_file(const std::filesystem::path& path, std::string* error) = 0;
  // Headless batch work asked for on the command line (e.g. --steps K --save-pattern PATH);
  // returns "" on success or when there is none, else the error.
  virtual std::string run_batch(const Options& options) { return {}; }

  // Benchmark rows for `gpulab bench --demo NAME` (no GL needed); false when the demo has none.
  virtual bool bench(const Options& options, BenchSuite* out) { return false; }

  virtual std::vector<gpulab::KernelInfo> kernels() const { return {}; }
  virtual Throughput throughput() const { return {}; }
  virtual std::string caption() const = 0;  // "Game of Life | gpu-shared | 32x32 | 0.21 ms"
};

// The explicit list of demos (no static self-registration, which a static library can drop).
std::vector<std::unique_ptr<Demo>> make_demos();

}  // namespace gpulab

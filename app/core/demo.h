#pragma once
// The interface every demo plugs in through (ARCHITECTURE.md): attach / compute / render / ui /
// detach, kept apart so that CUDA work, GL drawing and ImGui never mix. The shell knows no demo by
// name: stages, variants, options, batch outputs, benchmark rows, kernels and throughput rows are
// all described through this header.
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/hd.h"
#include "common/kernel_info.h"
#include "common/variant.h"
#include "core/cli.h"
#include "core/keymap.h"
#include "core/probe.h"

namespace CLI {
class App;
}

namespace gpulab {
namespace platform {
class Platform;
}
class Timings;
struct BenchSpec;
struct BenchSuite;

// What the UI shows for one variant of a stage: its table row's record (variant_choice makes it) and
// whether it can run here.
struct VariantChoice : VariantRecord {
  bool available = true;
  std::string unavailable_reason;
  bool needs_cuda = false;  // a GPU variant (`gpulab --list` marks it where CUDA is unavailable)
};

// The choice of a demo's table row, available until the demo says otherwise.
VariantChoice variant_choice(const VariantRecord& v, bool needs_cuda);

// Whether `block` is one of v's block sizes; *why says otherwise ("gpu-swar takes blocks of 64, ...
// threads", "cpu-lut has no block size (it runs on the CPU)"). Every demo's set_block and probe check
// blocks with it.
bool check_block(const VariantChoice& v, int block, std::string* why);

// One stage of a demo's pipeline (Life: the step and the ghost copies; histogram equalization:
// histogram, scan, apply...): its own variants, block size and timing row. Variant ids are unique
// across the stages of a demo, so `--variant ID` finds its stage.
struct Stage {
  std::string_view id;     // stable: "step", "ghost"; `--block ID=N` names it
  std::string_view title;  // shown beside the pickers
  std::vector<VariantChoice> variants;
  int variant = 0;              // index of the current variant
  int block = 0;                // current block size (0: the variant has none)
  bool active = true;           // false: the current configuration does not run this stage
  std::string inactive_reason;  // why, when !active

  const VariantChoice& current() const { return variants[static_cast<size_t>(variant)]; }
};

// The first of `stages` that offers variant `id`, or null when none does.
inline const Stage* stage_offering(const std::vector<Stage>& stages, std::string_view id) {
  for (const Stage& st : stages)
    for (const VariantChoice& v : st.variants)
      if (v.id == id) return &st;
  return nullptr;
}

// The variant running in the stage that offers `id` ("" when no stage offers it): not `id` when
// `id` cannot run here and the demo runs another in its place.
inline std::string running_in_stage_of(const std::vector<Stage>& stages, std::string_view id) {
  const Stage* st = stage_offering(stages, id);
  return st ? std::string(st->current().id) : std::string();
}

// What the app gives a demo when it attaches.
struct Context {
  platform::Platform* platform = nullptr;
  bool cuda = false;        // a CUDA device is in use
  std::string cuda_reason;  // why not, when cuda is false
  int cuda_device = -1;
  Stream stream = nullptr;     // the compute stream (CUDA builds with a device)
  bool interop = false;        // GL resources can be registered with CUDA
  std::string interop_reason;  // why not, when interop is false
  // Why a display target cannot share GL resources with CUDA: no device, or the registration failed.
  std::string interop_unavailable_reason() const {
    if (!cuda) return cuda_reason.empty() ? "no CUDA device" : cuda_reason;
    return interop_reason;
  }
  Timings* timings = nullptr;
  double peak_bandwidth_gbps = 0.0;         // of the CUDA device, 0 when unknown
  double peak_fp32_gflops = 0.0;            // of the CUDA device, 0 when unknown
  std::filesystem::path assets;             // assets/ folder
  std::function<void(std::string)> notify;  // a line for the message area (errors, saved files)
};

// Mouse and keys for this frame, in framebuffer pixels (HiDPI scale applied), read once by the app.
struct Input {
  float mouse_x = 0, mouse_y = 0;  // cursor position
  float delta_x = 0, delta_y = 0;  // movement since the last frame
  float wheel = 0;                 // wheel clicks (positive: away from the user)
  bool down[3] = {};               // left, right, middle held
  bool pressed[3] = {};            // went down this frame
  bool dragging[3] = {};           // held and moved
  bool shift = false, ctrl = false, alt = false;
  std::vector<int> keys;  // GLFW key codes pressed this frame that the app did not take
};

// Per-frame state the app hands to each phase.
struct Frame {
  int width = 0, height = 0;  // the framebuffer the demo draws into (pixels)
  double dt = 0.0;            // seconds since the last frame
  bool playing = true;
  int steps_per_frame = 1;
  bool step_once = false;  // N pressed / Step clicked while paused
  bool reset = false;      // R pressed / Reset clicked
  bool mouse_free = true;  // the UI does not want the mouse: input is the demo's
  Input input;
  int inset_left = 0;  // pixels on the left covered by the UI panel (0 when hidden)
  float ui_scale = 1.0f;
};

// One throughput read-out of the timings panel: a timed section, what one step in it does.
struct Throughput {
  std::string label;            // "step (per generation)", "force (per step)"
  std::string section;          // timing section holding one frame's steps ("step")
  double steps = 0;             // steps inside that section in the last frame (0: nothing ran)
  double items_per_step = 0;    // e.g. cell updates per generation
  std::string item_unit;        // "cell updates"
  double bytes_per_step = 0;    // fewest bytes a step moves (0: no bandwidth figure)
  double flops_per_step = 0;    // floating-point operations a step (0: no GFLOP/s figure)
  bool whole_pipeline = false;  // times every stage together (else the first stage's step)
};

// One step of a whole pipeline (Demo::pipeline_probe): a stage's variant at a block.
struct PipelineStep {
  size_t stage = 0;
  std::string variant;
  int block = 0;
};

class Demo {
 public:
  virtual ~Demo() = default;
  virtual std::string_view name() const = 0;   // stable id: "life"
  virtual std::string_view title() const = 0;  // "Game of Life"

  // The pipeline's stages, the first being the one V / Shift+V cycles.
  virtual std::vector<Stage> stages() const = 0;
  virtual bool set_variant(size_t stage, std::string_view id, std::string* why) = 0;
  virtual bool set_block(size_t stage, int block, std::string* why) = 0;

  // The demo's own command-line options, as an option group of `cli` bound to the demo's settings
  // (so they show under the demo's heading in --help). Called once, before parsing.
  virtual void add_options(CLI::App& cli) {}
  // Validates the parsed options (its own and the common ones) before attach. Returns an error
  // message for settings that cannot be used; the app prints it and exits 1.
  virtual std::string configure(const Options& options) = 0;

  virtual void attach(Context& ctx) = 0;
  virtual void compute(Frame& frame) = 0;
  virtual void render(Frame& frame) = 0;
  virtual void ui(Frame& frame) = 0;
  virtual void detach() = 0;

  // A file dropped on the window or given on the command line (patterns, images...).
  virtual bool open_file(const std::filesystem::path& path, std::string* error) = 0;
  // Headless batch work: true when the command line asked for one of the demo's batch outputs
  // (Life: --save-pattern). run_batch() then does it and returns "" or the error.
  virtual bool batch_requested() const { return false; }
  virtual std::string run_batch(const Options& options) { return {}; }

  // The benchmark of `gpulab bench --demo NAME` (no GL needed, never attached): its cases, the
  // variants --variant picks from, baselines, targets, notes and a probe factory that makes each job's
  // Probe on a case's input with the same code as probe() (core/bench_stepper.h measures it); false
  // when the demo has none.
  virtual bool bench(const Options& options, BenchSpec* out) { return false; }

  // A probe of variant `id` of `stage` at `block` (0: the variant's default) on a copy of the current
  // input, the other stages at their current choice (Probe says why not where it cannot run). Called
  // between frames, after attach. The ladder measures every variant through it.
  virtual Probe probe(size_t stage, std::string_view id, int block) {
    Probe p;
    p.unavailable = "the " + std::string(name()) + " demo cannot be measured variant by variant";
    return p;
  }

  // Demos whose stages make one result together (histogram equalization) offer the whole pipeline as
  // one step: `steps` (a variant and block for each stage that runs, in stage order, all of one
  // backend) on a copy of the current input, as Demo::probe does for one stage. The ladder's last
  // panel times the CPU pipeline and the pipeline at its best with it. Probe::note says what ran.
  virtual bool offers_pipeline() const { return false; }
  virtual Probe pipeline_probe(const std::vector<PipelineStep>& steps) {
    Probe p;
    p.unavailable = "the " + std::string(name()) + " demo has no pipeline of stages";
    return p;
  }

  // The demo's own keys (group: its title), for the help (F1 / ?) and --help. They reach the demo in
  // Frame::input.keys; a test checks that none clashes with the shell's keys (core/keymap.h).
  virtual std::vector<KeyBinding> keys() const { return {}; }

  // What the current variants launch (every stage), for the occupancy panel.
  virtual std::vector<KernelInfo> kernels() const { return {}; }
  virtual std::vector<Throughput> throughput() const { return {}; }
  virtual std::string caption() const = 0;  // "Game of Life | gpu-shared | 32x32 | 0.21 ms"
};

// The explicit list of demos (no static self-registration, which a static library can drop).
std::vector<std::unique_ptr<Demo>> make_demos();

// Applies --variant and --block to a demo's stages (before attach): each variant id finds its stage;
// a block is "N" (the stage of the only --variant given, else the first stage) or "STAGE=N".
std::string apply_variant_options(Demo& demo, const Options& options);

// "16x16" for a square block edge, "256" for 1D threads, "-" for a variant without blocks.
std::string block_label(std::span<const int> blocks, bool square, int block);
inline std::string block_label(const VariantChoice& v, int block) {
  return block_label(v.blocks, v.square_blocks, block);
}

}  // namespace gpulab

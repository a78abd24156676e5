#pragma once
// The interface every demo plugs in through (ARCHITECTURE.md): attach / compute / render / ui /
// detach, kept apart so that CUDA work, GL drawing and ImGui never mix. The shell knows no demo by
// name: stages, variants, options, batch outputs, benchmark rows, kernels and throughput rows are
// all described through this header.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/hd.h"
#include "common/kernel_info.h"
#include "common/variant.h"
#include "core/keymap.h"
#include "core/probe.h"
#include "core/setup.h"
#include "core/timings.h"

namespace CLI {
class App;
}

namespace gpulab {

// The command line (core/cli.h, which depends on this header, not the other way).
struct Options;
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
// threads", "cpu-lut has no block size (it runs on the CPU)"). The command line's --block and every
// demo's probe check blocks with it.
bool check_block(const VariantChoice& v, int block, std::string* why);

// One stage of a demo's pipeline as its table (Life: the step and the ghost copies; histogram
// equalization: histogram, scan, reduce, apply...): its variants, which a Pick indexes, and the
// variant a stage starts on. Variant ids are unique across the stages of a demo, so `--variant ID`
// finds its stage.
struct StageTable {
  std::string_view id;     // stable: "step", "ghost"; `--block ID=N` names it
  std::string_view title;  // shown beside the pickers
  std::vector<VariantChoice> variants;
  int gpu_default = 0;  // the variant picked when none is given and a CUDA device is present
  int cpu_default = 0;  // the variant picked when none is given and there is none
};

// A demo's stages as data (Demo::stage_tables): made once, never changed.
struct StageTables {
  std::vector<StageTable> stages;
  bool one_backend = false;  // every stage runs on the CPU or every stage on the GPU (a pick moves all)
  bool pipeline = false;     // the stages make one result together: Demo::probe(picks, kWholePipeline)
};

// Demo::probe's stage for the whole pipeline (every running stage's pick, in order, as one step).
inline constexpr size_t kWholePipeline = static_cast<size_t>(-1);

// One stage as the UI shows it (Demo::stages): its table, the current pick, whether it runs now and
// which of its variants can run here.
struct Stage {
  std::string_view id;
  std::string_view title;
  std::vector<VariantChoice> variants;
  int variant = 0;              // index of the current variant
  int block = 0;                // current block size (0: the variant has none)
  bool active = true;           // false: the current configuration does not run this stage
  std::string inactive_reason;  // why, when !active

  const VariantChoice& current() const { return variants[static_cast<size_t>(variant)]; }
};

// A yardstick: a row of the bench and the ladder that is not a variant (it computes no result of its
// own, so it is never a pick): a bound the rungs are read against, such as the matrix demo's
// register-only mma.sync rate, the instruction ceiling its mma.sync rungs sit under. The demo
// publishes its yardsticks (Demo::yardsticks) and measures each through Demo::yardstick_probe; the
// ladder charts them beside the rungs of their stage, with no speed-up of their own.
struct Yardstick {
  std::string id;                   // stable, as the bench's row and the ladder's CSV: "mma-sync-peak-bf16"
  size_t stage = 0;                 // the stage whose panel shows it
  std::string title;                // "mma.sync ceiling (BF16)"
  std::string lesson;               // one line: what it measures
  std::vector<std::string> bounds;  // the variants it is the yardstick of (it is listed after the last)
};

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
  // Where the demo's picture goes (the screen layout's view region), framebuffer pixels, y down: the
  // demo fits its picture into it (the shell clips the drawing to it). The whole framebuffer when no
  // region is set.
  struct Rect {
    int x = 0, y = 0, w = 0, h = 0;
    bool operator==(const Rect&) const = default;
  } view;
  // The view as given, or the whole framebuffer when none was set.
  Rect view_or_all() const { return view.w > 0 && view.h > 0 ? view : Rect{0, 0, width, height}; }
  float ui_scale = 1.0f;
};

// One throughput read-out of the timings panel: a timed section, what one step in it does.
struct Throughput {
  std::string label;            // "step (per generation)", "force (per step)"
  TimingKey timed;              // the picks its timing section ran (Timings::find)
  double steps = 0;             // steps inside that section in the last frame (0: nothing ran)
  double items_per_step = 0;    // e.g. cell updates per generation
  std::string item_unit;        // "cell updates"
  double bytes_per_step = 0;    // fewest bytes a step moves (0: no bandwidth figure)
  double flops_per_step = 0;    // floating-point operations a step (0: no GFLOP/s figure)
  bool whole_pipeline = false;  // times every stage together (else the first stage's step)
};

// A mark a demo drew over its view on the last frame (the rotation's magnifier, the transpose's tile
// outline), in framebuffer pixels, y down: the layout report lists them, so that tests can check that
// each stays inside the view and grows with the framebuffer (demos/common/image_view.h's scale).
struct ViewMark {
  std::string name;                      // "magnifier", "tile", "source frame"
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // what was drawn (a clipped mark: its part inside the view)
  float line_px = 0;                     // its thinnest line (0: none)
  float text_px = 0;                     // its label's size (0: no label)
};

class Demo {
 public:
  virtual ~Demo() = default;
  virtual std::string_view name() const = 0;   // stable id: "life"
  virtual std::string_view title() const = 0;  // "Game of Life"

  // The pipeline's stages as data: each stage's variant table and the picks it starts on.
  virtual const StageTables& stage_tables() const = 0;
  // The demo's parameters at their defaults (its option group binds to them: DemoParams).
  virtual std::unique_ptr<DemoParams> make_params() const = 0;

  // The Setup this demo runs: the shell's (or A/B's half, or a lesson check's). The demo reads its
  // parameters and picks from it and keeps no copy; the Setup must outlive the binding.
  void bind(const Setup& s) { setup_ = &s; }
  bool bound() const { return setup_ != nullptr; }
  const Setup& setup() const;
  const Pick& pick(size_t stage) const { return setup().picks.at(stage); }
  template <class P>
  const P& params() const {
    return setup().params.as<P>();
  }

  // Validates the bound Setup (its parameters and shared inputs, read into the demo's state) and the
  // batch options of `options` (--steps, --save-image) before attach. Returns an error message for
  // settings that cannot be used; the app prints it and exits 1.
  virtual std::string configure(const Options& options) = 0;
  // The bound Setup's picks were changed from `before` by the shell (a picker, V, a lesson step):
  // the demo moves its state to the engines the new picks run on. False with *why: the shell puts
  // `before` back (the demo left as it was).
  virtual bool picks_changed(const Picks& before, std::string* why) { return true; }
  // "" when `stage` runs with the current picks and settings, else why not.
  virtual std::string inactive_reason(size_t stage) const { return {}; }
  // "" when variant `variant` of `stage` can run here (once attached: the demo's engines), else why.
  virtual std::string why_unavailable(size_t stage, int variant) const { return {}; }
  // The stage V cycles, A/B compares and the HUD's baseline is of: the first, or the one running
  // (the matrix demo's op).
  virtual size_t lead_stage() const { return 0; }
  // The row `gpulab bench` gives `variant` of `stage` run with this demo's parameters, which recorded
  // results are looked up by: the variant's id, unless a parameter makes it another row (Life's
  // gpu-bit-multistep at 1 generation a pass is the row "gpu-bit-multistep k=1").
  virtual std::string recorded_row(size_t stage, std::string_view variant) const {
    return std::string(variant);
  }

  // The stages as the UI shows them: the tables, the picks of the bound Setup (the first variant of
  // each when none is bound), which stages run and which variants can run here.
  std::vector<Stage> stages() const;

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

  // The benchmark of `gpulab bench --demo NAME` for `setup` (no GL needed, never attached): its cases,
  // the variants --variant picks from, baselines, targets, notes and a probe factory that makes each
  // job's Probe on a case's input with the same code as probe() (core/bench_stepper.h measures it);
  // false when the demo has none. Every parameter the Setup sets pins that dimension of the sweep (a
  // note says so); one the bench cannot honour is refused (it throws std::invalid_argument).
  virtual bool bench(const Setup& setup, const Options& options, BenchSpec* out) { return false; }

  // A probe of picks[stage] (block 0: the variant's default), the other stages at their picks, on a
  // copy of the current input (Probe says why not where it cannot run); stage kWholePipeline: every
  // running stage's pick chained, as one step (StageTables::pipeline). Called between frames, after
  // attach. The ladder and the counters measure every variant through it.
  virtual Probe probe(const Picks& picks, size_t stage) {
    Probe p;
    p.unavailable = "the " + std::string(name()) + " demo cannot be measured variant by variant";
    return p;
  }

  // The demo's yardsticks (rows of the ladder that are not variants), and a probe of yardsticks()[index]
  // on a copy of the current input with the stages at `picks`, as probe() makes one (Probe says why
  // not where it cannot run here: no CUDA device, no tensor cores). Called between frames, after attach.
  virtual std::vector<Yardstick> yardsticks() const { return {}; }
  virtual Probe yardstick_probe(const Picks& picks, size_t index) {
    return probe_unavailable("the " + std::string(name()) + " demo has no yardstick " +
                             std::to_string(index));
  }

  // The demo's own keys (group: its title), for the help (F1 / ?) and --help. They reach the demo in
  // Frame::input.keys; a test checks that none clashes with the shell's keys (core/keymap.h).
  virtual std::vector<KeyBinding> keys() const { return {}; }

  // What the current variants launch (every stage), for the occupancy panel.
  virtual std::vector<KernelInfo> kernels() const { return {}; }
  virtual std::vector<Throughput> throughput() const { return {}; }
  // The marks the last render() drew over the view (ViewMark), for the layout report.
  virtual std::vector<ViewMark> view_marks() const { return {}; }
  virtual std::string caption() const = 0;  // "Game of Life | gpu-shared | 32x32 | 0.21 ms"

 private:
  const Setup* setup_ = nullptr;
};

// The explicit list of demos (no static self-registration, which a static library can drop).
std::vector<std::unique_ptr<Demo>> make_demos();
// A fresh instance of the demo named `name` (null when there is none).
std::unique_ptr<Demo> make_demo(std::string_view name);

// ---------------------------------------------------------------------------------------------
// Picks: made from the stage tables, ids only at the edges.

// The picks a demo starts on: each stage's default for `device` (a CUDA device is present: the
// device probe, injected by tests), at the variant's default block.
Picks default_picks(const StageTables& tables, bool device);
// The pick of `variant` of `stage` at its default block.
Pick pick_of(const StageTables& tables, size_t stage, int variant);
// The stage offering variant `id` and its index there (at its default block); none when no stage does.
std::optional<Pick> find_pick(const StageTables& tables, std::string_view id);
// The variant a pick names.
const VariantChoice& variant_of(const StageTables& tables, const Pick& p);
// After picks[changed] was chosen: the other stages follow the demo's rules (StageTables::one_backend:
// a CPU variant takes every stage to its CPU variant; a GPU one brings every CPU stage to its GPU
// default). `changed` becomes the focus.
void settle(const StageTables& tables, Picks& picks, size_t changed);
void choose(const StageTables& tables, Setup& setup, const Pick& p);  // setup.picks[p.stage] = p, settled

// The stages in the order the presenter lists them (ladder, counters): the lead stage first, then the
// others in table order.
std::vector<size_t> stage_order(const Demo& demo);

// Gives `demo` (bound to `setup`) the picks of `next` (a copy of `setup` with other picks): every changed
// pick must run here and the demo must take it (Demo::picks_changed); else `setup` stays as it was and
// *why says why. What the shell's pickers, V and a lesson step on the same input go through.
bool change_picks(Demo& demo, Setup& setup, const Setup& next, std::string* why);

// Replaces each pick `demo` cannot run here (Demo::why_unavailable; after attach: no CUDA device) by its
// stage's CPU default, settled; true when any changed.
bool runnable_picks(const Demo& demo, Picks& picks);

// Applies the command line's --variant ids and --block N / STAGE=N to setup.picks, in its order and by
// its rules (each id finds its stage; once per stage; a block is "N" for the stage of the only
// --variant given, else the first stage, or "STAGE=N"; a block must be one of the variant's): "" or
// why not.
std::string apply_choices(const Demo& demo, const std::vector<std::string>& variants,
                          const std::vector<std::string>& blocks, Setup& setup);
// The Setup the command line asks for: `params` and the shared inputs of `options`, every stage at its
// default pick for `device`, then --variant and --block applied (apply_choices). "" or why not.
std::string resolve_setup(const Demo& demo, const Options& options, Params params, bool device, Setup* out);
// A demo's Setup at its defaults (fresh parameters, default picks for `device`).
Setup default_setup(const Demo& demo, bool device);
// The shared inputs of the command line (--image, --seed, --init).
SharedInputs shared_inputs(const Options& options);
// The Setup `gpulab bench` runs: the command line's parameters (`params`, its demo's) and shared
// inputs, every stage at its default pick for `device` (the bench's --variant chooses its rows, not a
// pick).
Setup bench_setup(const Demo& demo, const Options& options, Params params, bool device);
// The bench's check of the Setup it was given (Demo::bench): `demo` is configured on it as a run
// would be (its parameters read, files loaded, bad values refused with the run's message), --seed
// left to the bench (its random inputs), and no batch output may be asked for. "" or why not; the demo
// is left bound to `setup`.
std::string configure_for_bench(Demo& demo, const Setup& setup, const Options& options);
// The bench's note for the options of the Setup that pin its sweep ("" when none):
// "the command line pins: --angle 45, --filter point".
std::string pinned_note(const Setup& setup);

// What configure needs besides the Setup for a run that writes nothing (A/B, lessons): no batch output.
Options options_without_outputs(bool cpu);

// "16x16" for a square block edge, "256" for 1D threads, "-" for a variant without blocks.
std::string block_label(std::span<const int> blocks, bool square, int block);
inline std::string block_label(const VariantChoice& v, int block) {
  return block_label(v.blocks, v.square_blocks, block);
}

}  // namespace gpulab

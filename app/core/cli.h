#pragma once
// Command line (CLI11): `gpulab [options]` runs the app (window, or --headless), `gpulab bench
// [options]` runs the benchmark, `gpulab ladder [options]` charts every variant on the demo's input. The
// shell's options live here; each demo adds an option group of its own, bound to its parameters value
// (DemoParams::add_options), shown under the demo's heading in --help. Unknown flags print the usage and exit
// with status 2; a bad value prints the reason and exits with status 1.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/setup.h"

namespace gpulab {

class Demo;

// The type name (shown in --help) of every option that names a file gpulab writes: such a path is
// checked when the command line is read (a regular file or a free name in an existing folder,
// common/file_io.h), before any work is done. Demos mark their own output options with it too.
inline constexpr const char* kOutputPath = "OUT";

// --steps at most: a billion steps of the smallest Life grid already takes minutes.
inline constexpr long long kMaxSteps = 1000000000LL;

// A benchmark size: "N" (width = N, height = 0: the demo decides, e.g. N×N cells or N bodies) or
// "WxH".
struct BenchSize {
  long long width = 0;
  long long height = 0;  // 0 when given as one number
};

struct Options {
  enum class Mode { Run, Bench, Ladder, Counters, Help, List, CheckDisplay } mode = Mode::Run;

  // Run mode
  bool headless = false;
  int width = 1600, height = 900;  // window size, or the headless framebuffer (--size WxH)
  int frames = 0;                  // headless: frames to render (0: 120)
  long long max_image_pixels = 0;  // --max-image-pixels N: the readers' decoded-size limit (0: theirs)
  std::string screenshot;          // headless: PNG written after the last frame
  bool screenshot_ui = true;       // include the UI in --screenshot (--no-ui excludes it)
  bool caption = false;            // caption line on screenshots
  std::string demo = "life";
  std::vector<std::string> variants;  // --variant ID, once per stage (run) or any number (bench)
  std::vector<std::string> blocks;    // --block N or STAGE=N
  long long steps = -1;               // --steps K: batch runs exactly K steps (-1: not given)
  std::optional<uint64_t> seed;       // --seed S: the demo's random contents
  std::string init;  // --init NAME: the demo's generated contents (nbody, matrix); "": default
  bool cpu = false;  // --cpu: force the CPU backend
  // GL_MAX_TEXTURE_SIZE of the run's GL context, set by the shell once the context exists (0: not
  // known): an image demo that shows --image refuses a larger one from its header, before decoding.
  int gl_max_texture = 0;
  bool software_gl = false;  // --software-gl: Mesa's software EGL device headless
  bool vsync = true;
  // --overlap-drawing: the next step may start while the GPU still draws the last frame (GL and CUDA
  // then share the GPU in time slices, and the step's time includes the drawing's slices); by default
  // the step waits for the frame's drawing, so that it is timed alone, as the bench times it.
  bool overlap_drawing = false;
  bool start_ladder = false;    // --start-ladder: the ladder (F5) from the first frame
  bool start_counters = false;  // --start-counters: the Counters tab, its meters and F3 at once
  bool demo_given = false;      // --demo was given (else the last demo of the settings, or life)
  bool size_given = false;      // --size was given (else the window size of the settings)

  // Presentation (window; --ui-scale also headless). Settings (app/core/settings.h) fill in what is
  // not given; nothing given here is written back to them.
  std::optional<float> ui_scale;    // --ui-scale S, 0.75..4
  bool projector = false;           // --projector: fullscreen, light theme, scale 2, HUD, compact panel
  std::optional<int> monitor;       // --monitor N: the monitor projector mode fills
  bool presenter_window = false;    // --presenter-window: the presenter's window even on one monitor
  bool reset_settings = false;      // --reset-settings: forget the saved settings first
  bool hud = false;                 // --hud: the heads-up display on (F2)
  bool show_keys = false;           // the key list (F1) open from the first frame (tests; not in --help)
  bool blank = false;               // the view blanked (B) from the first frame (tests; not in --help)
  bool demo_options_given = false;  // an option of --demo's own group was given
  std::string layout_report;        // headless: the panel's layout as JSON (tests; not in --help)
  std::string lesson;               // --lesson PATH: a lesson script (assets/lessons/*.toml)
  std::string results;              // --results FILE.json: figures recorded on a GPU (bench/ladder JSON)
  int lesson_step = 0;              // --lesson-step K: start at step K (1-based; 0: the first)
  bool lesson_check = false;        // --check: every step of --lesson prepared headless, a report printed
  std::string record;               // headless: --record OUT.mp4 records the --frames as a clip
  bool record_ui = false;           // --record-ui: the clip shows the whole frame, UI included

  // Image demos (histogram equalization, texture rotation): shared here so that the demos' option
  // groups do not clash in CLI11. A demo that takes no image refuses them (reject_image_options).
  std::string image;       // --image PATH: the input image
  std::string save_image;  // --save-image OUT.png: batch output, the processed image

  // Bench mode
  std::vector<BenchSize> bench_sizes;
  int bench_steps = 0;  // 0: chosen per variant
  int bench_repeats = 7;
  std::string bench_json;
  bool bench_all_blocks = false;
  // Ladder mode (`gpulab ladder`): headless, every variant of the demo on its input, charted.
  std::string ladder_png, ladder_csv, ladder_json;  // outputs (at least one)
  int ladder_png_width = 1920, ladder_png_height = 1080;
  bool ladder_counters = false;    // ladder --counters: counter columns and the roofline PNG beside --png
  bool ladder_png_stages = false;  // ladder --png-stages: a slide for every other stage beside --png
  // --png-style projector|light: slides (ladder --png, a demo's slide PNGs such as --save-timeline) in
  // the slide style, on black (projector) or on white (light); "": the detailed dark chart.
  std::string png_style;
  // Counters mode (`gpulab counters`): headless, the GPU's counters for the demo's variants.
  std::string counters_json, counters_csv;
  std::vector<std::string> counters_variants;  // counters --variant ID (any number; default: all)
  bool counters_phase_times = false;  // counters --phase-times: where each measurement's host time went
  int counters_repeats = 1;           // counters --repeats N: measurements of each variant (the last shown)
};

struct ParseResult {
  std::optional<Options> options;
  std::string error;  // set when options is empty: what was wrong
  int exit_code = 0;  // when options is empty: 2 usage (unknown flag), 1 bad value
  // Each demo's parameters (in the order of `demos`), its option group's values: the defaults but for
  // --demo's, which hold what the command line gave.
  std::vector<Params> params;
};

// Parses argv; `demos` add their option groups first, each bound to a parameters value of its own
// (Demo::make_params). An option of a demo other than --demo's is an error.
ParseResult parse_command_line(int argc, const char* const* argv, std::span<Demo* const> demos = {});
std::string usage(std::span<Demo* const> demos = {});

// A lesson step's parameters, written as the command line writes them ("--grid", "512x512", ...):
// parsed into `params` (a demo's option group) and `shared` (--image, --seed, --init) and checked as
// the command line's values are. "" or why not.
std::string parse_demo_options(const std::vector<std::string>& args, DemoParams& params,
                               SharedInputs& shared);

// For the configure() of a demo that takes no image: "" when neither --image (a shared input) nor
// --save-image was given, else the message saying which demos take them.
std::string reject_image_options(const SharedInputs& in, const Options& options, std::string_view demo);

// For the configure() or bench of a demo with nothing random in it: "" when --seed was not given,
// else the message saying so (a seed that changes nothing must not look as if it had been used).
std::string reject_seed(const SharedInputs& in, std::string_view what);

// For the configure() of a demo that generates nothing from --init (shared by nbody and matrix): "" when it
// was not given, else the message saying which demos take it.
std::string reject_init(const SharedInputs& in, std::string_view demo);

}  // namespace gpulab

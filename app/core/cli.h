#pragma once
// Command line: `gpulab [options]` runs the app (window, or --headless), `gpulab bench [options]`
// runs the benchmark. Unknown flags print the usage and exit with status 2.
#include <optional>
#include <string>
#include <vector>

namespace gpulab {

struct Options {
  enum class Mode { Run, Bench, Help, List, CheckDisplay } mode = Mode::Run;

  // Run mode
  bool headless = false;
  int width = 1600, height = 900;  // window size, or the headless framebuffer (--size WxH)
  int frames = 0;                  // headless: frames to render (0: 120)
  std::string screenshot;          // headless: PNG written after the last frame
  bool screenshot_ui = true;       // include the UI in --screenshot (--no-ui excludes it)
  bool caption = false;            // caption line on screenshots
  std::string demo = "life";
  std::string variant;             // empty: the demo's default
  int block = 0;                   // 0: the variant's default
  std::string pattern;             // --pattern PATH
  std::string rule;                // --rule B3/S23
  int grid_w = 0, grid_h = 0;      // --grid WxH (0: the demo's default)
  long long steps = -1;            // --steps K (with --save-pattern: exactly K generations)
  std::string save_pattern;        // --save-pattern PATH
  bool cpu = false;                // --cpu: force the CPU backend
  bool software_gl = false;        // --software-gl: Mesa's software EGL device headless
  bool vsync = true;
  double density = 0.25;           // random fill density when no pattern is given
  unsigned long long seed = 1;

  // Bench mode
  std::vector<std::string> bench_variants;
  std::vector<int> bench_sizes;
  int bench_steps = 0;   // 0: chosen per variant
  int bench_repeats = 7;
  std::string bench_json;
  bool bench_all_blocks = false;
};

struct ParseResult {
  std::optional<Options> options;
  std::string error;  // set when options is empty: what was wrong
};

ParseResult parse_command_line(int argc, const char* const* argv);
std::string usage();

}  // namespace gpulab

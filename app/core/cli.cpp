#include "core/cli.h"

#include <charconv>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace gpulab {
namespace {

bool parse_int(std::string_view s, long long lo, long long hi, long long* out) {
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool parse_size(std::string_view s, int* w, int* h) {
  const size_t x = s.find_first_of("xX");
  long long a = 0, b = 0;
  if (x == std::string_view::npos) {
    if (!parse_int(s, 1, 1 << 20, &a)) return false;
    *w = *h = static_cast<int>(a);
    return true;
  }
  if (!parse_int(s.substr(0, x), 1, 1 << 20, &a) || !parse_int(s.substr(x + 1), 1, 1 << 20, &b))
    return false;
  *w = static_cast<int>(a);
  *h = static_cast<int>(b);
  return true;
}

}  // namespace

std::string usage() {
  return R"(gpulab — GPU programming lessons, live and measurable

usage: gpulab [options]
       gpulab bench [bench options]

options:
  --demo NAME            demo to start on (life)
  --variant ID           variant id (see --list)
  --block N              block shape: edge of a square block (8, 16, 32) or threads (64..1024)
  --grid WxH             Game of Life grid size (default 1024x1024)
  --rule RULE            B/S rule, e.g. B3/S23, B36/S23, B3678/S34678, B2/S
  --pattern PATH         load a pattern (.rle or .cells) at the grid's centre
  --density D            random fill density when no pattern is given (default 0.25)
  --seed N               seed of the random fill (default 1)
  --cpu                  use the CPU backend even when a CUDA device exists
  --no-vsync             window: do not wait for the display's refresh
  --size WxH             window size, or the headless framebuffer size (default 1600x900)
  --headless             no window: render offscreen with EGL
  --frames N             headless: frames to render (default 120)
  --screenshot PATH      headless: write a PNG of the last frame
  --no-ui                headless: leave the UI out of the screenshot
  --caption              add a caption line (demo, variant, block, kernel time, GPU) to screenshots
  --steps K              with --save-pattern: run exactly K generations first
  --save-pattern PATH    write the grid as RLE (after --steps K) and exit
  --software-gl          headless: use Mesa's software EGL device
  --list                 list demos and variant ids
  --help                 this text

bench options:
  --demo NAME            demo to benchmark (life)
  --variant ID           a variant to time (repeatable; default: all)
  --size N               grid edge N (N×N, repeatable; default 16384)
  --steps K              generations per timed repeat (default: chosen per variant)
  --repeats R            timed repeats, the median is reported (default 7)
  --all-blocks           time every allowed block shape, not just the default
  --json FILE            also write the results as JSON

keys: Space pause, N step, R reset, 1-4 demos, V / Shift+V variants, H hide UI, F11 fullscreen,
      F12 screenshot, +/- speed
)";
}

ParseResult parse_command_line(int argc, const char* const* argv) {
  Options o;
  int i = 1;
  if (argc > 1 && std::string_view(argv[1]) == "bench") {
    o.mode = Options::Mode::Bench;
    i = 2;
  }
  const bool bench = o.mode == Options::Mode::Bench;
  auto fail = [](std::string msg) { return ParseResult{std::nullopt, std::move(msg)}; };
  for (; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    long long n = 0;
    if (a == "--help" || a == "-h") {
      o.mode = Options::Mode::Help;
    } else if (a == "--list") {
      o.mode = Options::Mode::List;
    } else if (a == "--check-display" && !bench) {
      o.mode = Options::Mode::CheckDisplay;
    } else if (a == "--demo") {
      const char* v = value();
      if (!v) return fail("--demo needs a name");
      o.demo = v;
    } else if (a == "--variant") {
      const char* v = value();
      if (!v) return fail("--variant needs an id");
      if (bench) o.bench_variants.emplace_back(v);
      else o.variant = v;
    } else if (a == "--block") {
      const char* v = value();
      if (!v || !parse_int(v, 1, 1024, &n)) return fail("--block needs a number from 1 to 1024");
      o.block = static_cast<int>(n);
    } else if (a == "--steps") {
      const char* v = value();
      if (!v || !parse_int(v, 0, 1LL << 40, &n)) return fail("--steps needs a whole number >= 0");
      if (bench) {
        if (n < 1 || n > 1000000) return fail("bench --steps needs a number from 1 to 1000000");
        o.bench_steps = static_cast<int>(n);
      } else {
        o.steps = n;
      }
    } else if (a == "--size") {
      const char* v = value();
      if (!v) return fail("--size needs a value");
      if (bench) {
        if (!parse_int(v, 1, 65536, &n)) return fail(std::string("bench --size needs an edge from 1 to 65536, got '") + v + "'");
        o.bench_sizes.push_back(static_cast<int>(n));
      } else if (!parse_size(v, &o.width, &o.height) || o.width > 16384 || o.height > 16384) {
        return fail(std::string("--size needs WxH (1..16384), got '") + v + "'");
      }
    } else if (a == "--repeats" && bench) {
      const char* v = value();
      if (!v || !parse_int(v, 1, 1000, &n)) return fail("--repeats needs a number from 1 to 1000");
      o.bench_repeats = static_cast<int>(n);
    } else if (a == "--json" && bench) {
      const char* v = value();
      if (!v) return fail("--json needs a file name");
      o.bench_json = v;
    } else if (a == "--all-blocks" && bench) {
      o.bench_all_blocks = true;
    } else if (a == "--cpu") {
      o.cpu = true;
    } else if (bench) {
      return fail("unknown bench option '" + std::string(a) + "'");
    } else if (a == "--headless") {
      o.headless = true;
    } else if (a == "--frames") {
      const char* v = value();
      if (!v || !parse_int(v, 1, 1000000, &n)) return fail("--frames needs a number from 1 to 1000000");
      o.frames = static_cast<int>(n);
    } else if (a == "--screenshot") {
      const char* v = value();
      if (!v) return fail("--screenshot needs a path");
      o.screenshot = v;
    } else if (a == "--no-ui") {
      o.screenshot_ui = false;
    } else if (a == "--caption") {
      o.caption = true;
    } else if (a == "--pattern") {
      const char* v = value();
      if (!v) return fail("--pattern needs a path");
      o.pattern = v;
    } else if (a == "--rule") {
      const char* v = value();
      if (!v) return fail("--rule needs a rule such as B3/S23");
      o.rule = v;
    } else if (a == "--grid") {
      const char* v = value();
      if (!v || !parse_size(v, &o.grid_w, &o.grid_h))
        return fail("--grid needs WxH, e.g. 1024x1024");
    } else if (a == "--save-pattern") {
      const char* v = value();
      if (!v) return fail("--save-pattern needs a path");
      o.save_pattern = v;
    } else if (a == "--density") {
      const char* v = value();
      char* end = nullptr;
      const double d = v ? std::strtod(v, &end) : -1.0;
      if (!v || *end || d < 0.0 || d > 1.0) return fail("--density needs a number from 0 to 1");
      o.density = d;
    } else if (a == "--seed") {
      const char* v = value();
      if (!v || !parse_int(v, 0, (1LL << 62), &n)) return fail("--seed needs a whole number");
      o.seed = static_cast<unsigned long long>(n);
    } else if (a == "--software-gl") {
      o.software_gl = true;
    } else if (a == "--no-vsync") {
      o.vsync = false;
    } else {
      return fail("unknown option '" + std::string(a) + "'");
    }
  }
  if (o.mode == Options::Mode::Run && !o.headless && (!o.screenshot.empty() || o.frames || !o.screenshot_ui))
    return fail("--screenshot, --frames and --no-ui go with --headless (in a window: F12)");
  if (o.mode == Options::Mode::Bench && o.block)
    return fail("bench takes no --block: it times each variant's default block, or all with --all-blocks");
  if (o.steps >= 0 && o.save_pattern.empty() && o.mode == Options::Mode::Run)
    return fail("--steps goes with --save-pattern (run exactly K generations, then save)");
  if (o.mode == Options::Mode::Run && o.headless && o.frames == 0) o.frames = 120;
  return ParseResult{o, {}};
}

}  // namespace gpulab

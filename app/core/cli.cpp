// The command line with CLI11: the shell's options here, each demo's in its own option group.
#include "core/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string_view>
#include <utility>

#include "common/file_io.h"
#include "common/text.h"
#include "core/cli_number.h"
#include "core/demo.h"
#include "core/keymap.h"
#include "core/settings.h"
#include "image/image.h"

namespace gpulab {
namespace {

constexpr const char* kImageGroup = "Image demos (histeq, rotate)";

// The keys (the app's and each demo's, from the one key map) and where settings are kept.
std::string keys_footer(std::span<Demo* const> demos) {
  std::string out = "keys (F1 or ? shows them in the window):\n" + keys_text(shell_keys());
  for (const Demo* d : demos) {
    const std::vector<KeyBinding> keys = d->keys();
    if (!keys.empty()) out += keys_text(keys);
  }
  return out +
         "settings (UI scale, theme, HUD, last demo, window size): $XDG_CONFIG_HOME/gpulab/settings.toml\n"
         "      (default ~/.config/gpulab/settings.toml)";
}

bool parse_int(std::string_view s, long long lo, long long hi, long long* out) {
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return false;
  *out = v;
  return true;
}

// "N" or "WxH" with each edge in [1, max]; height 0 when given as one number.
bool parse_size(std::string_view s, long long max, long long* w, long long* h) {
  const size_t x = s.find_first_of("xX");
  if (x == std::string_view::npos) {
    *h = 0;
    return parse_int(s, 1, max, w);
  }
  return parse_int(s.substr(0, x), 1, max, w) && parse_int(s.substr(x + 1), 1, max, h);
}

// Every option of `app`, its option groups and subcommands (CLI11 lists a group's options with the
// group only).
void all_options(CLI::App* app, std::vector<const CLI::Option*>& out, std::set<const CLI::Option*>& seen) {
  for (const CLI::Option* o : app->get_options())
    if (seen.insert(o).second) out.push_back(o);
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) all_options(sub, out, seen);
}

// An option's name for messages: CLI11's get_name() is empty for hidden options (group ""), such as
// --layout-report.
std::string option_name(const CLI::Option* o) {
  if (!o->get_lnames().empty()) return "--" + o->get_lnames().front();
  if (!o->get_snames().empty()) return "-" + o->get_snames().front();
  return o->get_name(true);
}

// A flag is an option that expects no value (CLI11 keeps its type size; its expected count is 0).
bool takes_value(const CLI::Option* o) { return o->get_items_expected_max() > 0; }

// What every option value must be, whatever the option: not empty (an empty --rule or --pattern must
// not quietly mean "the default"), not another option swallowed as a value (`--save-pattern --cpu`
// must not write a file named --cpu), a finite number where a number is expected (CLI11's Range
// lets NaN through), and an output path that can be written (checked before any work is done).
std::string check_values(CLI::App& app) {
  std::vector<const CLI::Option*> options;
  std::set<const CLI::Option*> seen;
  all_options(&app, options, seen);
  std::vector<std::pair<std::string, std::filesystem::path>> outputs;  // option, the file it writes
  for (const CLI::Option* opt : options) {
    if (opt->count() == 0 || !takes_value(opt)) continue;  // not given, or a flag
    const std::string name = option_name(opt);
    const std::string type = opt->get_type_name();
    for (const std::string& v : opt->results()) {
      if (text::trim(v).empty()) return name + " needs a value, got an empty one";
      if (v.size() > 2 && v.compare(0, 2, "--") == 0 && std::isalpha(static_cast<unsigned char>(v[2])))
        return name + " needs a value, got the option " + text::quote(v) + " (a file of that name: ./" +
               text::escape(v) + ")";
      // The type name carries the validators' descriptions after it ("FLOAT:FLOAT in [0 - 1]").
      if (type.rfind("FLOAT", 0) == 0) {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (!std::isfinite(d) && end && *end == '\0')
          return name + " needs a finite number, got " + text::quote(v);
      }
      if (type.rfind(kOutputPath, 0) == 0) {
        if (std::string why = files::check_writable(v); !why.empty()) return name + ": " + why;
        // Two outputs naming one file would overwrite each other (ladder --png X --csv X).
        // Made absolute first: weakly_canonical leaves a relative name whose first part does not exist as
        // it is ("a.csv"), while "./a.csv" becomes absolute, so the two spellings compared unequal.
        std::error_code ec;
        std::filesystem::path given = std::filesystem::absolute(v, ec);
        if (ec) given = v;
        std::filesystem::path file = std::filesystem::weakly_canonical(given, ec);
        if (ec) file = given.lexically_normal();
        for (const auto& [other, path] : outputs)
          if (path == file)
            return other + " and " + name + " name the same file " + text::quote(v) + ": give each its own";
        outputs.emplace_back(name, file);
      }
    }
  }
  return {};
}

// An empty argument is refused before CLI11 sees it: CLI11 2.1 takes one that is no option's value
// for a positional argument and never returns ("" --cpu loops in its parser), and one that is an
// option's value is that option's error (an empty --rule or --pattern must not mean "the default").
// Returns the message and the exit code (2: a usage error, 1: a bad value); code 0 when none is empty.
std::pair<std::string, int> check_empty_arguments(CLI::App& app, int argc, const char* const* argv) {
  std::vector<const CLI::Option*> options;
  std::set<const CLI::Option*> seen;
  all_options(&app, options, seen);
  for (int i = 1; i < argc; ++i) {
    if (argv[i] != nullptr && argv[i][0] != '\0') continue;
    const std::string before = i > 1 && argv[i - 1] ? argv[i - 1] : "";
    if (before.size() > 1 && before[0] == '-' && before.find('=') == std::string::npos)
      for (const CLI::Option* o : options)
        if (takes_value(o) && o->check_name(before))
          return {option_name(o) + " needs a value, got an empty one", 1};
    return {"an empty argument (argument " + std::to_string(i) +
                (before.empty() ? "" : ", after " + text::quote(before)) +
                "): leave it out, or give the option before it a value",
            2};
  }
  return {{}, 0};
}

struct Parser {
  CLI::App app{"gpulab — GPU programming lessons, live and measurable", "gpulab"};
  CLI::App* bench = nullptr;
  CLI::App* ladder = nullptr;
  CLI::App* counters = nullptr;
  std::string ladder_png_size;
  std::vector<std::string> sizes;        // run: --size WxH
  std::vector<std::string> bench_sizes;  // bench: --size N or WxH, repeatable
  std::vector<std::string> bench_variants;
  bool no_ui = false, no_vsync = false, list = false, check_display = false;
  int bench_steps = 0;
  long long seed = -1;
  float ui_scale = 0.0f;
  CLI::Option* ui_scale_option = nullptr;
  CLI::Option* demo_option = nullptr;

  Parser(Options& o, std::span<Demo* const> demos) {
    app.set_help_flag("-h,--help", "this text");
    app.fallthrough();  // shell options may follow `bench`
    app.footer(keys_footer(demos));
    demo_option = app.add_option("--demo", o.demo,
                                 "demo to start on, or to benchmark (default: the last one, or life)");
    app.add_option("--variant", o.variants, "variant id (see --list), once per stage");
    app.add_option("--block", o.blocks,
                   "block size of a stage: N (threads, or the edge of a square block) or STAGE=N");
    app.add_option(
           "--steps", o.steps,
           "with a batch output (--save-pattern, --save-bodies...): run exactly K steps first (at most 10^9)")
        ->check(whole_number(0, kMaxSteps));
    app.add_option("--seed", seed, "seed of the demo's random contents")->check(whole_number(0, 1LL << 62));
    // Shared by the demos that generate their contents (each would otherwise add its own and clash).
    app.add_option(
           "--init", o.init,
           "generated contents: nbody plummer (default), sphere, disk, galaxies; matrix (--op multiply) "
           "random, identity, pattern (default)")
        ->type_name("NAME");
    app.add_flag("--cpu", o.cpu, "use the CPU backend even when a CUDA device exists");
    app.add_flag("--no-vsync", no_vsync, "window: do not wait for the display's refresh");
    app.add_flag(
        "--overlap-drawing", o.overlap_drawing,
        "GPU: start the next step while the last frame is still drawn (the step's time then includes "
        "the drawing's time slices; by default a step is timed alone, as the bench times it)");
    app.add_option("--size", sizes, "window size, or the headless framebuffer size (default 1600x900)");
    app.add_flag("--headless", o.headless, "no window: render offscreen with EGL");
    app.add_option("--frames", o.frames, "headless: frames to render (default 120)")
        ->check(whole_number(1, 1000000));
    app.add_option("--max-image-pixels", o.max_image_pixels,
                   "the most pixels an image file may decode to, checked from its header before decoding "
                   "(default " +
                       std::to_string(image::kDefaultMaxPixels) + ", up to " +
                       std::to_string(image::kMaxPixels) + ")")
        ->check(whole_number(1, (long long)image::kMaxPixels));
    app.add_option("--screenshot", o.screenshot, "headless: write a PNG of the last frame")
        ->type_name(kOutputPath);
    app.add_flag("--no-ui", no_ui, "headless: leave the UI out of the screenshot");
    app.add_flag("--caption", o.caption,
                 "add a caption line (demo, variant, block, kernel time, GPU) to screenshots");
    app.add_flag("--software-gl", o.software_gl, "headless: use Mesa's software EGL device");
    app.add_flag(
        "--start-ladder", o.start_ladder,
        "start the speed-up ladder (F5) at once; headless: render until it is measured, then --frames more");
    app.add_flag(
        "--start-counters", o.start_counters,
        "open the Counters tab with its live meters and measure the current variant (F3) at once; "
        "headless: render until it is measured and the meters have a second of samples, then --frames more");
    app.add_flag("--list", list, "list demos, their stages and variant ids");
    ui_scale_option = app.add_option("--ui-scale", ui_scale,
                                     "UI scale, 0.75 to 4 (default: the saved one, or the display's)")
                          ->check(CLI::Range(0.75f, 4.0f));
    app.add_flag("--projector", o.projector,
                 "projector mode: fullscreen, light theme, UI scale 2, HUD on, the panel reduced to the "
                 "variant picker");
    app.add_option(
           "--monitor", o.monitor,
           "projector mode's monitor, 0-based as the system lists them (default: the saved one, or "
           "with two monitors the one the window is not on; the presenter's window goes on the other)")
        ->check(whole_number(0, kMaxMonitor));
    app.add_flag(
        "--presenter-window", o.presenter_window,
        "projector mode: the presenter's window (panel, notes, next step, clock) beside the projected "
        "one even on one monitor (to rehearse); with two monitors it comes by itself");
    app.add_flag("--hud", o.hud, "heads-up display: time per step, speed-up over the CPU, % of peak (F2)");
    app.add_flag("--show-keys", o.show_keys)->group("");  // tests: the key list (F1) from the first frame
    app.add_flag("--blank", o.blank)->group("");          // tests: the view blanked (B) from the first frame
    app.add_flag("--reset-settings", o.reset_settings,
                 "forget the saved settings (UI scale, theme, last demo...)");
    app.add_flag("--check-display", check_display)->group("");  // scripts/run: is there a display?
    app.add_option("--lesson", o.lesson,
                   "start a lesson script (assets/lessons/*.toml; PageDown / PageUp step through it)");
    app.add_option(
        "--results", o.results,
        "a bench's or ladder's JSON recorded on a GPU (gpulab bench --json): where a variant cannot "
        "run here, the HUD and the ladder show its recorded figures, labelled with the device and date");
    app.add_option("--lesson-step", o.lesson_step, "with --lesson: start at step K (headless: render step K)")
        ->check(whole_number(1, 100000));
    app.add_flag("--check", o.lesson_check,
                 "with --lesson: before class, step through every step on this machine without a window and "
                 "list what falls back, what is missing and the steps slow to prepare (exit 1: something is "
                 "missing)");
    app.add_option("--record", o.record,
                   "headless: record the --frames as a clip of the view (1920x1080 unless --size), 30 "
                   "frames/s, OUT.mp4 or OUT.webm with ffmpeg, else a PNG sequence (in a window: F9)")
        ->type_name(kOutputPath);
    app.add_option("--png-style", o.png_style,
                   "slides: ladder --png and --save-timeline as projector slides (big type, 1-2-5 axis, "
                   "colour-blind-safe colours), projector (on black) or light (on white)")
        ->check(CLI::IsMember({"projector", "light"}))
        ->type_name("STYLE");
    app.add_flag("--record-ui", o.record_ui,
                 "with --record: the clip shows the whole frame, the panel and the rest of the UI included");
    app.add_option("--layout-report", o.layout_report)
        ->type_name(kOutputPath)
        ->group("");  // tests: the layout of the last frame (headless: at the end; a window: when it closes)

    // Shared by the image demos (each would otherwise add its own and clash): the demos that take
    // no image refuse them in configure().
    CLI::Option_group* images = app.add_option_group(kImageGroup);
    images->add_option("--image", o.image, "input image (PNG, JPEG, BMP, TGA, PGM/PPM, GIF)");
    images->add_option("--save-image", o.save_image, "write the processed image as PNG (OUT.png) and exit")
        ->type_name(kOutputPath);

    bench = app.add_subcommand("bench", "time every variant of a demo (gpulab bench --help)");
    bench->add_option("--variant", bench_variants, "a variant to time (repeatable; default: all)");
    bench->add_option("--size", bench_sizes, "a size: N (N×N cells, N bodies...) or WxH (repeatable)");
    bench->add_option("--steps", bench_steps, "steps per timed repeat (default: chosen per variant)")
        ->check(whole_number(1, 1000000));
    bench->add_option("--repeats", o.bench_repeats, "timed repeats, the median is reported (default 7)")
        ->check(whole_number(1, 1000));
    bench->add_flag("--all-blocks", o.bench_all_blocks,
                    "time every allowed block size, not just the default");
    bench->add_option("--json", o.bench_json, "also write the results as JSON")->type_name(kOutputPath);

    ladder = app.add_subcommand(
        "ladder",
        "the speed-up ladder: measure and chart every variant of a demo on its input (gpulab ladder --help)");
    ladder->add_option("--png", o.ladder_png, "write the chart as a PNG slide")->type_name(kOutputPath);
    ladder->add_option("--csv", o.ladder_csv, "write the rungs as CSV")->type_name(kOutputPath);
    ladder->add_option("--json", o.ladder_json, "write the rungs as JSON (the bench's schema)")
        ->type_name(kOutputPath);
    ladder->add_option("--png-size", ladder_png_size, "the PNG's size: 1920x1080 (default) or 3840x2160");
    ladder->add_flag("--png-stages", o.ladder_png_stages,
                     "with --png-style: also a slide for each other stage, beside --png (OUT-STAGE.png)");
    ladder->add_flag("--counters", o.ladder_counters,
                     "add the GPU's counters (CUPTI) as columns, and a roofline PNG beside --png");

    counters = app.add_subcommand(
        "counters", "the GPU's own counters for each variant of a demo (gpulab counters --help)");
    counters->add_option("--variant", o.counters_variants, "a variant to measure (repeatable; default: all)");
    counters->add_option("--json", o.counters_json, "also write the counters as JSON")
        ->type_name(kOutputPath);
    counters->add_option("--csv", o.counters_csv, "also write the counters as CSV")->type_name(kOutputPath);
    counters->add_flag("--phase-times", o.counters_phase_times,
                       "print where each measurement's host time went (and add it to --json)");
    counters
        ->add_option("--repeats", o.counters_repeats,
                     "measure each variant N times (default 1; the last is shown, all are timed)")
        ->check(whole_number(1, 100));

    // Each demo's option groups, bound to a parameters value of its own and remembered so that an
    // option of another demo can be refused.
    for (Demo* d : demos) {
      params.emplace_back(d->make_params());
      const size_t before = all_groups().size();
      params.back().get()->add_options(app);
      const auto after = all_groups();
      for (size_t i = before; i < after.size(); ++i) demo_groups.push_back({d, after[i]});
    }
  }

  std::vector<CLI::App*> all_groups() {
    return app.get_subcommands([](CLI::App* a) { return a->get_name().empty(); });
  }
  std::vector<Params> params;  // each demo's, in the order of `demos` (CLI11 binds to the values they hold)
  std::vector<std::pair<Demo*, CLI::App*>> demo_groups;
};

}  // namespace

std::string reject_image_options(const SharedInputs& in, const Options& o, std::string_view demo) {
  const char* flag = !in.image.empty() ? "--image" : !o.save_image.empty() ? "--save-image" : nullptr;
  if (!flag) return {};
  return std::string(flag) + " is an option of the image demos (--demo histeq, --demo rotate); the " +
         std::string(demo) + " demo takes no image";
}

std::string reject_seed(const SharedInputs& in, std::string_view what) {
  if (!in.seed) return {};
  return "--seed: " + std::string(what) + " has nothing random to seed";
}

std::string reject_init(const SharedInputs& in, std::string_view demo) {
  if (in.init.empty()) return {};
  return "--init is an option of the nbody and matrix demos; the " + std::string(demo) +
         " demo takes no --init";
}

std::string parse_demo_options(const std::vector<std::string>& args, DemoParams& params,
                               SharedInputs& shared) {
  CLI::App app{"", "gpulab"};
  long long seed = -1;
  app.add_option("--seed", seed)->check(CLI::Range(0LL, 1LL << 62));
  app.add_option("--init", shared.init)->type_name("NAME");
  app.add_option("--image", shared.image);
  params.add_options(app);
  std::vector<const char*> argv{"gpulab"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return text::escape(e.what());
  }
  if (std::string bad = check_values(app); !bad.empty()) return bad;
  if (seed >= 0) shared.seed = static_cast<uint64_t>(seed);
  return {};
}

std::string usage(std::span<Demo* const> demos) {
  Options o;
  Parser p(o, demos);
  return p.app.help();
}

ParseResult parse_command_line(int argc, const char* const* argv, std::span<Demo* const> demos) {
  Options o;
  Parser p(o, demos);
  auto fail = [](std::string msg, int code) { return ParseResult{std::nullopt, std::move(msg), code, {}}; };
  if (auto [bad, code] = check_empty_arguments(p.app, argc, argv); code != 0)
    return fail(std::move(bad), code);
  try {
    p.app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    o.mode = Options::Mode::Help;
    ParseResult r{o, {}, 0, {}};
    r.params = std::move(p.params);
    return r;
  } catch (const CLI::ConversionError& e) {
    return fail(text::escape(e.what()), 1);
  } catch (const CLI::ValidationError& e) {
    return fail(text::escape(e.what()), 1);
  } catch (const CLI::ParseError& e) {
    // Unknown flags, missing values, a subcommand out of place: the usage.
    return fail(text::escape(e.what()), 2);
  }
  if (std::string bad = check_values(p.app); !bad.empty()) return fail(bad, 1);
  if (!demos.empty()) {
    std::string names;
    bool known = false;
    for (const Demo* d : demos) {
      names += (names.empty() ? "" : ", ") + std::string(d->name());
      known = known || d->name() == o.demo;
    }
    if (!known) return fail("no demo " + text::quote(o.demo) + " (demos: " + names + ")", 1);
  }
  const bool bench = p.bench->parsed();
  if (bench) o.mode = Options::Mode::Bench;
  const bool ladder = p.ladder->parsed();
  if (ladder) {
    if (bench) return fail("bench and ladder are two commands: give one", 2);
    o.mode = Options::Mode::Ladder;
    if (o.ladder_png.empty() && o.ladder_csv.empty() && o.ladder_json.empty())
      return fail("ladder needs an output: --png OUT.png, --csv OUT.csv or --json OUT.json", 2);
    if (!p.ladder_png_size.empty()) {
      if (p.ladder_png_size == "1920x1080") {
        o.ladder_png_width = 1920, o.ladder_png_height = 1080;
      } else if (p.ladder_png_size == "3840x2160") {
        o.ladder_png_width = 3840, o.ladder_png_height = 2160;
      } else {
        return fail(
            "--png-size is 1920x1080 or 3840x2160 (16:9 slides), got " + text::quote(p.ladder_png_size), 1);
      }
    }
    if ((!o.png_style.empty() || o.ladder_png_stages) && o.ladder_png.empty())
      return fail("--png-style and --png-stages go with ladder --png OUT.png", 2);
    if (o.ladder_png_stages && o.png_style.empty())
      return fail("--png-stages writes slides: give --png-style projector or light", 2);
    if (o.headless || o.frames || !o.screenshot.empty())
      return fail("--headless, --frames and --screenshot are run options; ladder is always headless", 2);
    if (o.steps >= 0) return fail("--steps goes with a batch output, not with ladder", 2);
    o.headless = true;
  }
  if (p.counters->parsed()) {
    if (bench || ladder)
      return fail("counters is a command of its own: give one of bench, ladder and counters", 2);
    o.mode = Options::Mode::Counters;
    if (o.headless || o.frames || !o.screenshot.empty())
      return fail("--headless, --frames and --screenshot are run options; counters is always headless", 2);
    if (o.steps >= 0) return fail("--steps goes with a batch output, not with counters", 2);
    o.headless = true;
  }
  if (p.list) o.mode = Options::Mode::List;
  if (p.check_display) o.mode = Options::Mode::CheckDisplay;
  o.screenshot_ui = !p.no_ui;
  o.vsync = !p.no_vsync;
  if (p.seed >= 0) o.seed = static_cast<uint64_t>(p.seed);
  if (p.ui_scale_option->count() > 0) o.ui_scale = p.ui_scale;
  o.demo_given = p.demo_option->count() > 0;
  o.size_given = !p.sizes.empty();
  if (!p.sizes.empty()) {
    long long w = 0, h = 0;
    const std::string& s = p.sizes.back();
    if (!parse_size(s, 16384, &w, &h) || h == 0)
      return fail("--size needs WxH (1..16384), got " + text::quote(s), 1);
    o.width = static_cast<int>(w);
    o.height = static_cast<int>(h);
  }
  for (const std::string& s : p.bench_sizes) {
    BenchSize b;
    if (!parse_size(s, 1LL << 26, &b.width, &b.height))
      return fail("bench --size needs N or WxH (each from 1 to 67108864), got " + text::quote(s), 1);
    o.bench_sizes.push_back(b);
  }
  for (const std::string& b : o.blocks) {
    long long n = 0;
    const size_t eq = b.find('=');
    const std::string num = eq == std::string::npos ? b : b.substr(eq + 1);
    if ((eq != std::string::npos && eq == 0) || !parse_int(num, 1, 1024, &n))
      return fail("--block needs N or STAGE=N with N from 1 to 1024, got " + text::quote(b), 1);
  }
  if (bench) {
    o.variants.insert(o.variants.end(), p.bench_variants.begin(), p.bench_variants.end());
    o.bench_steps = p.bench_steps;
    if (!o.blocks.empty())
      return fail("bench takes no --block: it times each variant's default block, or all with --all-blocks",
                  2);
    if (o.headless || o.frames || !o.screenshot.empty() || !p.sizes.empty())
      return fail("--headless, --frames and --screenshot are run options, not bench options", 2);
    if (o.ui_scale || o.projector || o.reset_settings || o.hud || o.monitor || o.presenter_window)
      return fail(
          "--ui-scale, --projector, --monitor, --presenter-window, --hud and --reset-settings are run "
          "options, not bench options",
          2);
  }
  if (o.mode == Options::Mode::Run && !o.headless && (!o.screenshot.empty() || o.frames || !o.screenshot_ui))
    return fail("--screenshot, --frames and --no-ui go with --headless (in a window: F12)", 2);
  if (!o.record.empty() && !o.headless) return fail("--record goes with --headless (in a window: F9)", 2);
  if (!o.record.empty()) {
    // ffmpeg picks the clip's format by the extension (a name without one failed inside ffmpeg, quoting
    // an internal temporary name).
    std::string ext = std::filesystem::path(o.record).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ext != ".mp4" && ext != ".webm")
      return fail("--record " + text::quote(o.record) +
                      ": name the clip OUT.mp4 or OUT.webm (the format is picked by the extension; without "
                      "ffmpeg the frames are OUT-00001.png...)",
                  2);
  }
  if (o.record_ui && o.record.empty()) return fail("--record-ui goes with --record", 2);
  if (o.record_ui && !o.screenshot_ui) return fail("--record-ui and --no-ui contradict each other", 2);
  if (!o.record.empty() && !o.size_given) o.width = 1920, o.height = 1080;  // a clip for a 16:9 slide
  if (o.lesson_step > 0 && o.lesson.empty()) return fail("--lesson-step goes with --lesson", 2);
  if (!o.results.empty() && o.mode == Options::Mode::Ladder && o.ladder_png.empty())
    return fail(
        "--results with ladder goes with --png OUT.png (the chart shows the recorded figures; the CSV and "
        "JSON hold what was measured here)",
        2);
  if (!o.results.empty() && o.mode != Options::Mode::Run && o.mode != Options::Mode::Ladder)
    return fail(
        "--results goes with a run (it shows recorded figures in the window) or with ladder --png, not "
        "with bench",
        2);
  if (o.lesson_check) {
    if (o.lesson.empty()) return fail("--check goes with --lesson FILE", 2);
    if (o.lesson_step > 0 || o.frames || !o.screenshot.empty() || !o.record.empty() || o.start_ladder ||
        o.start_counters)
      return fail(
          "--check steps through the whole lesson: no --lesson-step, --frames, --screenshot, --record, "
          "--start-ladder or --start-counters",
          2);
    o.headless = true;  // no window: every step prepared offscreen, as the window would
  }
  if (!o.lesson.empty() && o.mode != Options::Mode::Run)
    return fail("--lesson goes with a run, not with bench or ladder", 2);
  // A demo's options belong to that demo: --bodies with --demo life is a mistake worth saying.
  for (const auto& [demo, group] : p.demo_groups) {
    if (demo->name() == o.demo) {
      for (const CLI::Option* opt : group->get_options())
        o.demo_options_given = o.demo_options_given || opt->count() > 0;
      continue;
    }
    for (const CLI::Option* opt : group->get_options()) {
      if (opt->count() > 0)
        return fail(option_name(opt) + " is an option of the " + std::string(demo->name()) +
                        " demo (add --demo " + std::string(demo->name()) + ")",
                    2);
    }
  }
  if (o.mode == Options::Mode::Run && o.headless && o.frames == 0) o.frames = 120;
  ParseResult r{o, {}, 0, {}};
  r.params = std::move(p.params);
  return r;
}

}  // namespace gpulab

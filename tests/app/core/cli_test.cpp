#include <gtest/gtest.h>

#include "core/bench.h"
#include "core/cli.h"
#include "core/demo.h"
#include "demos/life/life_demo.h"

#include <deque>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab {
namespace {

// Parses with every registered demo's option group, as gpulab_main does.
struct Parsed {
  std::vector<std::unique_ptr<Demo>> demos = make_demos();
  ParseResult result;
  std::deque<Setup> setups;  // what the demos are bound to

  // Demo `name` bound to the Setup the app would resolve from the command line (the picks of a
  // machine without a CUDA device unless `device`), then configured: "" or why not.
  std::string configure(std::string_view name, bool device = false) {
    for (size_t i = 0; i < demos.size(); ++i) {
      if (demos[i]->name() != name) continue;
      setups.emplace_back();
      if (std::string bad =
              resolve_setup(*demos[i], *result.options, result.params.at(i), device, &setups.back());
          !bad.empty())
        return bad;
      demos[i]->bind(setups.back());
      return demos[i]->configure(*result.options);
    }
    return "no demo " + std::string(name);
  }
};

Parsed parse(std::vector<const char*> args) {
  Parsed p;
  std::vector<Demo*> views;
  for (const auto& d : p.demos) views.push_back(d.get());
  args.insert(args.begin(), "gpulab");
  p.result = parse_command_line(static_cast<int>(args.size()), args.data(), views);
  return p;
}

TEST(Cli, DefaultsRunTheWindowedApp) {
  auto r = parse({}).result;
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->mode, Options::Mode::Run);
  EXPECT_FALSE(r.options->headless);
  EXPECT_EQ(r.options->demo, "life");
  EXPECT_FALSE(r.options->seed);
  EXPECT_EQ(r.options->steps, -1);
  EXPECT_FALSE(r.options->overlap_drawing) << "a GPU step is timed alone by default";
  auto o = parse({"--overlap-drawing"}).result;
  ASSERT_TRUE(o.options) << o.error;
  EXPECT_TRUE(o.options->overlap_drawing);
}

TEST(Cli, HeadlessCaptureOptions) {
  auto p = parse({"--headless", "--demo", "life", "--frames", "60", "--screenshot", "x.png", "--size",
                  "640x360", "--variant", "gpu-shared", "--block", "16", "--block", "ghost=128", "--grid",
                  "300x200", "--seed", "9"});
  const ParseResult& r = p.result;
  ASSERT_TRUE(r.options) << r.error;
  const Options& o = *r.options;
  EXPECT_TRUE(o.headless);
  EXPECT_EQ(o.frames, 60);
  EXPECT_EQ(o.screenshot, "x.png");
  EXPECT_EQ(o.width, 640);
  EXPECT_EQ(o.height, 360);
  EXPECT_EQ(o.variants, (std::vector<std::string>{"gpu-shared"}));
  EXPECT_EQ(o.blocks, (std::vector<std::string>{"16", "ghost=128"}));
  ASSERT_TRUE(o.seed);
  EXPECT_EQ(*o.seed, 9u);
  // The demo's own options reached its Setup: configure accepts them and the stages follow the picks.
  Demo& life = *p.demos.front();
  ASSERT_EQ(p.configure("life"), "");
  EXPECT_EQ(life.params<LifeParams>().grid, "300x200");
  const auto stages = life.stages();
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0].variants[stages[0].variant].id, "gpu-shared");
  EXPECT_EQ(stages[0].block, 16);
  EXPECT_EQ(stages[1].id, "ghost");
  EXPECT_EQ(stages[1].block, 128);
}

// --record names a clip ffmpeg can pick the format of (without an extension ffmpeg failed, quoting the
// internal temporary name); --max-image-pixels is a whole number within the readers' hard limit.
TEST(Cli, RecordNamesAnMp4OrWebmClipAndTheImageLimitIsAWholeNumber) {
  for (const char* ok : {"clip.mp4", "talk.WEBM", "x.Mp4"}) {
    auto p = parse({"--headless", "--record", ok});
    EXPECT_TRUE(p.result.options) << ok << ": " << p.result.error;
  }
  for (const char* bad : {"clip", "clip.mkv", "clip.mp4.png", ".mp4x"}) {
    auto p = parse({"--headless", "--record", bad});
    EXPECT_FALSE(p.result.options) << bad;
    EXPECT_EQ(p.result.exit_code, 2) << bad;
    EXPECT_NE(p.result.error.find("--record '" + std::string(bad) + "': name the clip OUT.mp4 or OUT.webm"),
              std::string::npos)
        << p.result.error;
  }
  auto p = parse({"--max-image-pixels", "1000"});
  ASSERT_TRUE(p.result.options) << p.result.error;
  EXPECT_EQ(p.result.options->max_image_pixels, 1000);
  for (const char* bad : {"0", "1073741825", "nan", "", "2.5"})
    EXPECT_FALSE(parse({"--max-image-pixels", bad}).result.options) << bad;
}

TEST(Cli, HeadlessDefaultsTo120Frames) {
  auto r = parse({"--headless"}).result;
  ASSERT_TRUE(r.options);
  EXPECT_EQ(r.options->frames, 120);
}

TEST(Cli, UnknownFlagIsAUsageErrorNamingIt) {
  auto r = parse({"--frobnicate"}).result;
  EXPECT_FALSE(r.options);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("--frobnicate"), std::string::npos) << r.error;
}

TEST(Cli, BadValuesAreErrorsWithStatus1) {
  for (std::vector<const char*> args : {std::vector<const char*>{"--frames", "abc"},
                                        {"--size", "12y"},
                                        {"--density", "1.5"},
                                        {"--block", "0"},
                                        {"--block", "ghost=x"},
                                        {"--steps", "-3"}}) {
    auto r = parse(args).result;
    EXPECT_FALSE(r.options) << args[0] << " " << args[1];
    EXPECT_EQ(r.exit_code, 1) << args[0] << " " << args[1] << ": " << r.error;
    EXPECT_FALSE(r.error.empty());
  }
  auto missing = parse({"--frames"}).result;  // a missing value is a usage error
  EXPECT_FALSE(missing.options);
  EXPECT_EQ(missing.exit_code, 2);
}

TEST(Cli, AnotherDemosOptionIsRefused) {
  // The life options are unknown to no one, but they belong to life: with another --demo they are
  // a mistake. Only one demo may be registered in some builds: then there is no other demo to test.
  Parsed p = parse({});
  if (p.demos.size() < 2) GTEST_SKIP() << "one demo registered";
  const std::string other(p.demos[1]->name());
  auto r = parse({"--demo", other.c_str(), "--rule", "B3/S23"}).result;
  EXPECT_FALSE(r.options);
  EXPECT_NE(r.error.find("--rule"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("life"), std::string::npos) << r.error;
}

TEST(Cli, BenchOptions) {
  auto r = parse({"bench", "--demo", "life", "--variant", "gpu-swar", "--variant", "gpu-bitpacked", "--size",
                  "16384", "--size", "300x200", "--steps", "50", "--json", "b.json", "--repeats", "5"})
               .result;
  ASSERT_TRUE(r.options) << r.error;
  const Options& o = *r.options;
  EXPECT_EQ(o.mode, Options::Mode::Bench);
  EXPECT_EQ(o.variants, (std::vector<std::string>{"gpu-swar", "gpu-bitpacked"}));
  ASSERT_EQ(o.bench_sizes.size(), 2u);
  EXPECT_EQ(o.bench_sizes[0].width, 16384);
  EXPECT_EQ(o.bench_sizes[0].height, 0);
  EXPECT_EQ(o.bench_sizes[1].width, 300);
  EXPECT_EQ(o.bench_sizes[1].height, 200);
  EXPECT_EQ(o.bench_steps, 50);
  EXPECT_EQ(o.bench_repeats, 5);
  EXPECT_EQ(o.bench_json, "b.json");
}

TEST(Cli, CountersPhaseTimesAndRepeats) {
  auto r = parse({"counters", "--demo", "life", "--variant", "gpu-shared", "--phase-times", "--repeats", "5"})
               .result;
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->mode, Options::Mode::Counters);
  EXPECT_TRUE(r.options->counters_phase_times);
  EXPECT_EQ(r.options->counters_repeats, 5);
  r = parse({"counters", "--demo", "life"}).result;
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_FALSE(r.options->counters_phase_times);
  EXPECT_EQ(r.options->counters_repeats, 1);
  for (const char* bad : {"0", "101", "1e3", "x"}) {
    r = parse({"counters", "--repeats", bad}).result;
    EXPECT_FALSE(r.options) << bad;
    EXPECT_EQ(r.exit_code, 1) << bad << ": " << r.error;
  }
  EXPECT_NE(parse({"counters", "--repeats", "1e3"}).result.error.find("needs a whole number"),
            std::string::npos);
}

TEST(Cli, BenchRejectsRunOnlyFlags) {
  EXPECT_FALSE(parse({"bench", "--headless"}).result.options);
  EXPECT_FALSE(parse({"bench", "--size", "0"}).result.options);
  EXPECT_FALSE(parse({"bench", "--block", "8"}).result.options);
}

TEST(Cli, CaptureFlagsNeedHeadless) {
  EXPECT_FALSE(parse({"--screenshot", "a.png"}).result.options);
  EXPECT_FALSE(parse({"--frames", "10"}).result.options);
  EXPECT_FALSE(parse({"--no-ui"}).result.options);
  EXPECT_TRUE(parse({"--headless", "--no-ui", "--frames", "3", "--screenshot", "a.png"}).result.options);
}

TEST(Cli, UsageListsTheHotkeysCommandsAndEachDemosGroup) {
  Parsed p = parse({});
  std::vector<Demo*> views;
  for (const auto& d : p.demos) views.push_back(d.get());
  const std::string u = usage(views);
  EXPECT_NE(u.find("--headless"), std::string::npos);
  EXPECT_NE(u.find("bench"), std::string::npos);
  EXPECT_NE(u.find("F12"), std::string::npos);
  EXPECT_NE(u.find("Game of Life (--demo life)"), std::string::npos) << u;
  EXPECT_NE(u.find("--save-pattern"), std::string::npos);
}

// The command line's --variant and --block on a fresh Setup of `demo` (no CUDA device): "" or why not.
std::string choices(const Demo& demo, std::vector<std::string> variants, std::vector<std::string> blocks,
                    Setup* out = nullptr) {
  gpulab::Setup s = default_setup(demo, false);
  const std::string why = apply_choices(demo, variants, blocks, s);
  if (out) *out = s;
  return why;
}

TEST(Cli, VariantOptionsFindTheirStage) {
  Parsed p = parse({});
  Demo& life = *p.demos.front();
  gpulab::Setup s;
  EXPECT_EQ(choices(life, {"gpu-ghost-1d", "gpu-swar"}, {"ghost=1024"}, &s), "");
  EXPECT_EQ(s.picks[1].block, 1024);
  EXPECT_EQ(variant_of(life.stage_tables(), s.picks[0]).id, "gpu-swar");
  EXPECT_EQ(s.focus, std::optional<size_t>(0)) << "the stage of the variant given last";
  EXPECT_NE(choices(life, {"gpu-ghost-1d", "gpu-swar"}, {"ghost=96"}), "");
  // two for the same stage
  EXPECT_NE(choices(life, {"gpu-swar", "gpu-global"}, {}).find("once per stage"), std::string::npos);
  EXPECT_NE(choices(life, {"no-such-variant"}, {}).find("no-such-variant"), std::string::npos);
  EXPECT_NE(choices(life, {}, {"nostage=64"}).find("no stage 'nostage'"), std::string::npos);
}

// The picks are resolved once, defaults included, before anything checks them: a --block without a
// --variant is the block of the stage's default pick, which depends on the device (the device probe,
// injected here), not of the table's first variant.
TEST(Cli, ABlockWithoutAVariantIsCheckedAgainstTheDefaultPickOfTheDevice) {
  Parsed p = parse({"--demo", "life", "--block", "16"});
  ASSERT_TRUE(p.result.options) << p.result.error;
  const Demo& life = *p.demos.front();
  const StageTables& t = life.stage_tables();
  gpulab::Setup gpu, cpu;
  // A CUDA device is present: Life starts on gpu-global, whose blocks include 16x16.
  EXPECT_EQ(resolve_setup(life, *p.result.options, Params(life.make_params()), true, &gpu), "");
  EXPECT_EQ(variant_of(t, gpu.picks[0]).id, "gpu-global");
  EXPECT_EQ(gpu.picks[0].block, 16);
  EXPECT_FALSE(gpu.focus) << "no variant was given";
  // None: cpu-lut, which has none (the message names the default, not the table's first row).
  const std::string why = resolve_setup(life, *p.result.options, Params(life.make_params()), false, &cpu);
  EXPECT_NE(why.find("cpu-lut has no block size"), std::string::npos) << why;
  // Each demo's default picks with and without a device, and a block of the default GPU pick taken.
  for (const auto& d : p.demos) {
    const StageTables& dt = d->stage_tables();
    const Picks with = default_picks(dt, true), without = default_picks(dt, false);
    for (size_t s = 0; s < dt.stages.size(); ++s) {
      const VariantChoice& g = variant_of(dt, with[s]);
      if (dt.stages[s].variants.size() > 1) {
        EXPECT_TRUE(g.needs_cuda) << d->name() << " stage " << s << ": " << g.id;
        EXPECT_FALSE(variant_of(dt, without[s]).needs_cuda) << d->name() << " stage " << s;
      }
      if (g.blocks.empty()) continue;
      gpulab::Setup ok = default_setup(*d, true);
      EXPECT_EQ(
          apply_choices(*d, {}, {std::string(dt.stages[s].id) + "=" + std::to_string(g.blocks.back())}, ok),
          "")
          << d->name();
    }
  }
}

Demo& demo_named(Parsed& p, std::string_view name) {
  for (const auto& d : p.demos)
    if (d->name() == name) return *d;
  throw std::runtime_error("no demo " + std::string(name));
}

TEST(Cli, ImageOptionsAreTheShellsAndOnlyImageDemosTakeThem) {
  auto p = parse({"--headless", "--demo", "histeq", "--image", "in.png", "--save-image", "out.png", "--mode",
                  "stretch", "--per-channel"});
  ASSERT_TRUE(p.result.options) << p.result.error;
  const Options& o = *p.result.options;
  EXPECT_EQ(o.image, "in.png");
  EXPECT_EQ(o.save_image, "out.png");
  // histeq reads the image in configure: a missing file is refused there, naming it.
  const std::string err = p.configure("histeq");
  EXPECT_NE(err.find("in.png"), std::string::npos) << err;
  // The demos without images refuse both options, saying who takes them.
  for (const char* flag : {"--image", "--save-image"}) {
    auto q = parse({"--demo", "life", flag, "x.png"});
    ASSERT_TRUE(q.result.options) << q.result.error;
    for (const char* name : {"life", "nbody"}) {
      const std::string why = q.configure(name);
      EXPECT_NE(why.find(flag), std::string::npos) << name << ": " << why;
      EXPECT_NE(why.find("histeq"), std::string::npos) << name << ": " << why;
    }
  }
  EXPECT_EQ(reject_image_options(SharedInputs{}, Options{}, "life"), "");
}

TEST(Cli, HisteqOptionsBelongToHisteq) {
  auto r = parse({"--demo", "life", "--mode", "stretch"}).result;
  EXPECT_FALSE(r.options);
  EXPECT_NE(r.error.find("--mode"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("histeq"), std::string::npos) << r.error;
  auto p = parse({"--demo", "histeq", "--mode", "sideways"});
  ASSERT_TRUE(p.result.options) << p.result.error;
  const std::string err = p.configure("histeq");
  EXPECT_NE(err.find("--mode must be equalize or stretch"), std::string::npos) << err;
  Parsed all = parse({});
  std::vector<Demo*> views;
  for (const auto& d : all.demos) views.push_back(d.get());
  const std::string help = usage(views);
  EXPECT_NE(help.find("Image demos (histeq, rotate)"), std::string::npos) << help;
  EXPECT_NE(help.find("--save-image"), std::string::npos);
  EXPECT_NE(help.find("Histogram equalization (--demo histeq)"), std::string::npos);
  EXPECT_NE(help.find("--per-channel"), std::string::npos);
}

TEST(Cli, HisteqVariantsMoveTheBackendOfEveryStage) {
  Parsed p = parse({"--demo", "histeq"});
  ASSERT_EQ(p.configure("histeq"), "");
  Demo& h = demo_named(p, "histeq");
  const auto stages = h.stages();
  ASSERT_EQ(stages.size(), 4u);
  EXPECT_EQ(stages[0].id, "histogram");
  EXPECT_EQ(stages[1].id, "scan");
  EXPECT_EQ(stages[2].id, "reduce");
  EXPECT_EQ(stages[3].id, "apply");
  EXPECT_FALSE(stages[2].active) << "equalize is the default";
  EXPECT_EQ(stages[2].inactive_reason, "runs in stretch mode only");

  gpulab::Setup s = default_setup(h, true);  // a CUDA device: every stage starts on its GPU default
  auto ids = [&] {
    std::vector<std::string> out;
    for (const Pick& pk : s.picks) out.emplace_back(variant_of(h.stage_tables(), pk).id);
    return out;
  };
  EXPECT_EQ(ids(), (std::vector<std::string>{"hist-bank-private", "scan-block", "reduce-warp-shuffle",
                                             "apply-shared"}));
  ASSERT_EQ(apply_choices(h, {"scan-cpu"}, {}, s), "");  // one CPU variant takes every stage to the CPU
  EXPECT_EQ(ids(), (std::vector<std::string>{"hist-cpu", "scan-cpu", "reduce-cpu", "apply-cpu"}));
  ASSERT_EQ(apply_choices(h, {"hist-atomic-global"}, {"histogram=128"}, s), "");
  // A GPU variant brings every CPU stage to its GPU default.
  EXPECT_EQ(ids(), (std::vector<std::string>{"hist-atomic-global", "scan-block", "reduce-warp-shuffle",
                                             "apply-shared"}));
  EXPECT_EQ(s.picks[0].block, 128);
  // scan-cub fixes its own launch
  EXPECT_NE(apply_choices(h, {"scan-cub"}, {"scan=256"}, s).find("no block size"), std::string::npos);

  // A CPU and a GPU variant together is a mistake: resolving the command line says so.
  Parsed q = parse({"--demo", "histeq", "--variant", "hist-cpu", "--variant", "apply-shared"});
  ASSERT_TRUE(q.result.options) << q.result.error;
  EXPECT_NE(q.configure("histeq").find("mix the backends"), std::string::npos);
  // A variant id finds its own stage.
  const std::optional<Pick> scan = find_pick(h.stage_tables(), "scan-block");
  ASSERT_TRUE(scan);
  EXPECT_EQ(scan->stage, 1u);
}

}  // namespace
}  // namespace gpulab

namespace gpulab {
namespace {

// Every numeric option rejects NaN, infinities and empty values, naming the option: CLI11's Range
// alone lets NaN through (every comparison with it is false).
TEST(CliValues, NanInfinityAndEmptyValuesAreRefusedWithTheOptionNamed) {
  struct Case {
    std::vector<const char*> args;
    const char* option;
  };
  const std::vector<Case> cases = {
      {{"--density", "nan"}, "--density"},
      {{"--density", "NaN"}, "--density"},
      {{"--density", "inf"}, "--density"},
      {{"--density", ""}, "--density"},
      {{"--demo", "nbody", "--dt", "nan"}, "--dt"},
      {{"--demo", "nbody", "--softening", "-inf"}, "--softening"},
      {{"--demo", "nbody", "--gravity", "nan"}, "--gravity"},
      {{"--demo", "nbody", "--bodies", ""}, "--bodies"},
      {{"--frames", ""}, "--frames"},
      {{"--steps", ""}, "--steps"},
      {{"--seed", ""}, "--seed"},
      {{"--rule", ""}, "--rule"},
      {{"--rule", "  "}, "--rule"},
      {{"--variant", ""}, "--variant"},
      {{"--pattern", ""}, "--pattern"},
      {{"--grid", ""}, "--grid"},
      {{"--demo", ""}, "--demo"},
      {{"--headless", "--screenshot", ""}, "--screenshot"},
      {{"bench", "--json", ""}, "--json"},
      {{"bench", "--size", ""}, "--size"},
      {{"--demo", "rotate", "--angle", ""}, "--angle"},
      {{"--demo", "histeq", "--image", ""}, "--image"},
  };
  for (const Case& c : cases) {
    const ParseResult r = parse(c.args).result;
    std::string shown;
    for (const char* a : c.args) shown += std::string(a) + " ";
    EXPECT_FALSE(r.options) << shown;
    EXPECT_EQ(r.exit_code, 1) << shown << ": " << r.error;
    EXPECT_NE(r.error.find(c.option), std::string::npos) << shown << ": " << r.error;
  }
}

TEST(CliValues, AnOptionIsNotSwallowedAsTheValueOfAnother) {
  for (std::vector<const char*> args : {std::vector<const char*>{"--save-pattern", "--cpu"},
                                        {"--headless", "--screenshot=--no-ui"},
                                        {"--pattern=--headless"}}) {
    const ParseResult r = parse(args).result;
    EXPECT_FALSE(r.options) << args[0];
    EXPECT_NE(r.error.find("./--"), std::string::npos) << args[0] << ": " << r.error;
  }
  // Negative numbers are values, not options.
  EXPECT_TRUE(parse({"--demo", "rotate", "--angle", "-30"}).result.options);
}

TEST(CliValues, StepsAreCappedAtABillion) {
  EXPECT_FALSE(parse({"--steps", "1099511627776"}).result.options);
  const ParseResult r = parse({"--steps", "1000000001"}).result;
  EXPECT_FALSE(r.options);
  EXPECT_NE(r.error.find("--steps"), std::string::npos) << r.error;
  const ParseResult ok = parse({"--steps", "1000000000"}).result;
  ASSERT_TRUE(ok.options) << ok.error;
  EXPECT_EQ(ok.options->steps, kMaxSteps);
}

// One rule for every writer (--screenshot, --save-pattern, --save-bodies, --save-image, bench
// --json): no folder is created, a missing one is named, a special file is refused, and all of it
// before any work is done.
TEST(CliValues, OutputPathsAreCheckedWhenTheCommandLineIsRead) {
  const std::string missing = "/nonexistent-gpulab-dir/sub/out.file";
  const std::vector<std::vector<const char*>> writers = {
      {"--headless", "--screenshot", missing.c_str()},
      {"--save-pattern", missing.c_str()},
      {"--demo", "nbody", "--save-bodies", missing.c_str()},
      {"--demo", "histeq", "--image", "in.png", "--save-image", missing.c_str()},
      {"bench", "--json", missing.c_str()},
  };
  for (const auto& args : writers) {
    const ParseResult r = parse(args).result;
    EXPECT_FALSE(r.options) << args[args.size() - 2];
    EXPECT_EQ(r.exit_code, 1) << r.error;
    EXPECT_NE(r.error.find("'/nonexistent-gpulab-dir/sub' does not exist"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(args[args.size() - 2]), std::string::npos) << r.error;
  }
  const ParseResult dev = parse({"--save-pattern", "/dev/null"}).result;
  EXPECT_FALSE(dev.options);
  EXPECT_NE(dev.error.find("character device"), std::string::npos) << dev.error;
  EXPECT_FALSE(std::filesystem::exists("/nonexistent-gpulab-dir"));
}

TEST(CliValues, ControlBytesInValuesAreEscapedInEveryMessage) {
  const std::string esc = "\x1B[2J";
  const std::vector<std::vector<std::string>> cases = {
      {"--frames", esc},
      {"--size", esc},
      {"--grid", esc},
      {"--block", esc},
      {"--" + esc},
      {"--demo", esc},
      {"--density", esc},
      {"bench", "--size", esc},
      {"--demo", "rotate", "--filter", esc},
  };
  for (const auto& c : cases) {
    std::vector<const char*> args;
    for (const std::string& a : c) args.push_back(a.c_str());
    Parsed p = parse(args);
    std::string message = p.result.error;
    if (p.result.options) {
      // Values a demo checks: resolving its Setup or its configure() says why.
      message = p.configure(p.result.options->demo);
      if (message.empty()) message = "(accepted) " + p.result.options->demo;
    }
    EXPECT_EQ(message.find('\x1B'), std::string::npos) << c[0] << ": " << message;
    EXPECT_NE(message.find("\\x1B"), std::string::npos) << c[0] << ": " << message;
  }
}

}  // namespace
}  // namespace gpulab

namespace gpulab {
namespace {

TEST(CliValues, SeedIsUsedOrRefusedNeverIgnored) {
  for (const char* name : {"histeq", "rotate"}) {
    Parsed p = parse({"--demo", name, "--seed", "3"});
    ASSERT_TRUE(p.result.options) << p.result.error;
    const std::string why = p.configure(name);
    EXPECT_NE(why.find("--seed"), std::string::npos) << name << ": " << why;
    EXPECT_NE(why.find("nothing random"), std::string::npos) << name << ": " << why;
  }
  for (const char* name : {"life", "nbody"}) {
    Parsed p = parse({"--demo", name, "--seed", "3"});
    ASSERT_TRUE(p.result.options) << p.result.error;
    EXPECT_EQ(p.configure(name), "") << name;
  }
  // The benches with random contents take it; the rotation bench, whose picture is fixed, refuses it.
  Options o;
  EXPECT_EQ(bench_seed(o), 42u);
  o.seed = 7;
  EXPECT_EQ(bench_seed(o), 7u);
  EXPECT_NE(reject_seed(shared_inputs(o), "the rotate bench"), "");
  o.seed.reset();
  EXPECT_EQ(reject_seed(shared_inputs(o), "the rotate bench"), "");
}

}  // namespace
}  // namespace gpulab

namespace gpulab {
namespace {

// Found by the command-line fuzz target: an empty argument that is no option's value made CLI11 2.1
// loop for ever; it is refused before parsing, saying where it stood.
TEST(CliValues, AnEmptyArgumentIsRefusedInsteadOfHangingTheParser) {
  for (std::vector<const char*> args : {std::vector<const char*>{"", "--cpu"},
                                        {"--demo", "life", "", "--grid", "8x8"},
                                        {"bench", ""},
                                        {"--cpu", ""},
                                        {"--cpu", "", "--headless"}}) {
    const ParseResult r = parse(args).result;
    EXPECT_FALSE(r.options);
    EXPECT_EQ(r.exit_code, 2) << r.error;
    EXPECT_NE(r.error.find("an empty argument"), std::string::npos) << r.error;
  }
  // As an option's value it is that option's error.
  const ParseResult rule = parse({"--rule", "", "--cpu"}).result;
  EXPECT_FALSE(rule.options);
  EXPECT_NE(rule.error.find("--rule needs a value"), std::string::npos) << rule.error;
}

TEST(CliValues, ABlockOfAnUnknownStageIsEscapedInTheMessage) {
  Parsed p = parse({});
  const std::string why = choices(*p.demos.front(), {}, {"a\x1B[31m=16"});
  EXPECT_EQ(why.find('\x1B'), std::string::npos) << why;
  EXPECT_NE(why.find("no stage"), std::string::npos) << why;
}

}  // namespace
}  // namespace gpulab

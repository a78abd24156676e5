#include <gtest/gtest.h>

#include "core/bench.h"
#include "core/cli.h"
#include "core/demo.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab {
namespace {

// Parses with every registered demo's option group, as gpulab_main does.
struct Parsed {
  std::vector<std::unique_ptr<Demo>> demos = make_demos();
  ParseResult result;
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
  // The demo's own options reached the demo: configure accepts them and the stages follow.
  Demo& life = *p.demos.front();
  ASSERT_EQ(apply_variant_options(life, o), "");
  ASSERT_EQ(life.configure(o), "");
  const auto stages = life.stages();
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0].variants[stages[0].variant].id, "gpu-shared");
  EXPECT_EQ(stages[0].block, 16);
  EXPECT_EQ(stages[1].id, "ghost");
  EXPECT_EQ(stages[1].block, 128);
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

TEST(Cli, VariantOptionsFindTheirStage) {
  Parsed p = parse({});
  Demo& life = *p.demos.front();
  Options o;
  o.variants = {"gpu-ghost-1d", "gpu-swar"};
  o.blocks = {"ghost=1024"};
  EXPECT_EQ(apply_variant_options(life, o), "");
  EXPECT_EQ(life.stages()[1].block, 1024);
  o.blocks = {"ghost=96"};
  EXPECT_NE(apply_variant_options(life, o), "");
  o.variants = {"gpu-swar", "gpu-global"};  // two for the same stage
  EXPECT_NE(apply_variant_options(life, o).find("once per stage"), std::string::npos);
  o.variants = {"no-such-variant"};
  EXPECT_NE(apply_variant_options(life, o).find("no-such-variant"), std::string::npos);
  o.variants = {};
  o.blocks = {"nostage=64"};
  EXPECT_NE(apply_variant_options(life, o).find("no stage 'nostage'"), std::string::npos);
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
  Demo& histeq = demo_named(p, "histeq");
  const std::string err = histeq.configure(o);
  EXPECT_NE(err.find("in.png"), std::string::npos) << err;
  // The demos without images refuse both options, saying who takes them.
  for (const char* flag : {"--image", "--save-image"}) {
    auto q = parse({"--demo", "life", flag, "x.png"});
    ASSERT_TRUE(q.result.options) << q.result.error;
    for (const char* name : {"life", "nbody"}) {
      const std::string why = demo_named(q, name).configure(*q.result.options);
      EXPECT_NE(why.find(flag), std::string::npos) << name << ": " << why;
      EXPECT_NE(why.find("histeq"), std::string::npos) << name << ": " << why;
    }
  }
  EXPECT_EQ(reject_image_options(Options{}, "life"), "");
}

TEST(Cli, HisteqOptionsBelongToHisteq) {
  auto r = parse({"--demo", "life", "--mode", "stretch"}).result;
  EXPECT_FALSE(r.options);
  EXPECT_NE(r.error.find("--mode"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("histeq"), std::string::npos) << r.error;
  auto p = parse({"--demo", "histeq", "--mode", "sideways"});
  ASSERT_TRUE(p.result.options) << p.result.error;
  const std::string err = demo_named(p, "histeq").configure(*p.result.options);
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

std::vector<std::string> current_variants(const Demo& d) {
  std::vector<std::string> ids;
  for (const Stage& st : d.stages()) ids.emplace_back(st.variants[st.variant].id);
  return ids;
}

TEST(Cli, HisteqVariantsMoveTheBackendOfEveryStage) {
  Parsed p = parse({});
  Demo& h = demo_named(p, "histeq");
  const auto stages = h.stages();
  ASSERT_EQ(stages.size(), 4u);
  EXPECT_EQ(stages[0].id, "histogram");
  EXPECT_EQ(stages[1].id, "scan");
  EXPECT_EQ(stages[2].id, "reduce");
  EXPECT_EQ(stages[3].id, "apply");
  EXPECT_FALSE(stages[2].active) << "equalize is the default";
  EXPECT_EQ(stages[2].inactive_reason, "runs in stretch mode only");

  Options o;
  o.variants = {"scan-cpu"};  // one CPU variant takes every stage to the CPU
  ASSERT_EQ(apply_variant_options(h, o), "");
  EXPECT_EQ(current_variants(h),
            (std::vector<std::string>{"hist-cpu", "scan-cpu", "reduce-cpu", "apply-cpu"}));
  o.variants = {"hist-atomic-global"};  // a GPU variant brings the others back to their GPU choice
  ASSERT_EQ(apply_variant_options(h, o), "");
  EXPECT_EQ(current_variants(h), (std::vector<std::string>{"hist-atomic-global", "scan-block",
                                                           "reduce-warp-shuffle", "apply-shared"}));
  o.variants = {"scan-cub"};
  o.blocks = {"histogram=128"};
  ASSERT_EQ(apply_variant_options(h, o), "");
  o.variants = {"apply-cpu"};
  o.blocks = {};
  ASSERT_EQ(apply_variant_options(h, o), "");
  o.variants = {"apply-global"};  // each stage returns to its last GPU choice, block and all
  ASSERT_EQ(apply_variant_options(h, o), "");
  EXPECT_EQ(current_variants(h), (std::vector<std::string>{"hist-atomic-global", "scan-cub",
                                                           "reduce-warp-shuffle", "apply-global"}));
  EXPECT_EQ(h.stages()[0].block, 128);
  o.blocks = {"scan=256"};  // scan-cub fixes its own launch
  EXPECT_NE(apply_variant_options(h, o).find("no block size"), std::string::npos);

  // A CPU and a GPU variant together is a mistake: configure says so.
  Parsed q = parse({"--demo", "histeq", "--variant", "hist-cpu", "--variant", "apply-shared"});
  ASSERT_TRUE(q.result.options) << q.result.error;
  Demo& h2 = demo_named(q, "histeq");
  ASSERT_EQ(apply_variant_options(h2, *q.result.options), "");
  EXPECT_NE(h2.configure(*q.result.options).find("mix the backends"), std::string::npos);
  // A variant of another stage's table is not this stage's.
  std::string why;
  EXPECT_FALSE(h2.set_variant(0, "scan-block", &why));
  EXPECT_NE(why.find("scan-block"), std::string::npos) << why;
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
      // Values a demo checks: its configure() says why.
      for (const auto& d : p.demos)
        if (d->name() == p.result.options->demo) message = d->configure(*p.result.options);
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
    for (const auto& d : p.demos) {
      if (d->name() != name) continue;
      const std::string why = d->configure(*p.result.options);
      EXPECT_NE(why.find("--seed"), std::string::npos) << name << ": " << why;
      EXPECT_NE(why.find("nothing random"), std::string::npos) << name << ": " << why;
    }
  }
  for (const char* name : {"life", "nbody"}) {
    Parsed p = parse({"--demo", name, "--seed", "3"});
    ASSERT_TRUE(p.result.options) << p.result.error;
    for (const auto& d : p.demos)
      if (d->name() == name) {
        EXPECT_EQ(d->configure(*p.result.options), "") << name;
      }
  }
  // The benches with random contents take it; the rotation bench, whose picture is fixed, refuses it.
  Options o;
  EXPECT_EQ(bench_seed(o), 42u);
  o.seed = 7;
  EXPECT_EQ(bench_seed(o), 7u);
  EXPECT_NE(reject_seed(o, "the rotate bench"), "");
  o.seed.reset();
  EXPECT_EQ(reject_seed(o, "the rotate bench"), "");
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
  Options o;
  o.blocks = {"a\x1B[31m=16"};
  const std::string why = apply_variant_options(*p.demos.front(), o);
  EXPECT_EQ(why.find('\x1B'), std::string::npos) << why;
  EXPECT_NE(why.find("no stage"), std::string::npos) << why;
}

}  // namespace
}  // namespace gpulab

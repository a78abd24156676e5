#include <gtest/gtest.h>

#include "core/cli.h"

namespace gpulab {
namespace {

ParseResult parse(std::vector<const char*> args) {
  args.insert(args.begin(), "gpulab");
  return parse_command_line(static_cast<int>(args.size()), args.data());
}

TEST(Cli, DefaultsRunTheWindowedApp) {
  auto r = parse({});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->mode, Options::Mode::Run);
  EXPECT_FALSE(r.options->headless);
  EXPECT_EQ(r.options->demo, "life");
}

TEST(Cli, HeadlessCaptureOptions) {
  auto r = parse({"--headless", "--demo", "life", "--frames", "60", "--screenshot", "x.png", "--size",
                  "640x360", "--variant", "gpu-shared", "--block", "16", "--grid", "300x200"});
  ASSERT_TRUE(r.options) << r.error;
  const Options& o = *r.options;
  EXPECT_TRUE(o.headless);
  EXPECT_EQ(o.frames, 60);
  EXPECT_EQ(o.screenshot, "x.png");
  EXPECT_EQ(o.width, 640);
  EXPECT_EQ(o.height, 360);
  EXPECT_EQ(o.variant, "gpu-shared");
  EXPECT_EQ(o.block, 16);
  EXPECT_EQ(o.grid_w, 300);
  EXPECT_EQ(o.grid_h, 200);
}

TEST(Cli, HeadlessDefaultsTo120Frames) {
  auto r = parse({"--headless"});
  ASSERT_TRUE(r.options);
  EXPECT_EQ(r.options->frames, 120);
}

TEST(Cli, UnknownFlagIsAnErrorNamingIt) {
  auto r = parse({"--frobnicate"});
  EXPECT_FALSE(r.options);
  EXPECT_NE(r.error.find("--frobnicate"), std::string::npos);
}

TEST(Cli, MissingAndBadValuesAreErrors) {
  EXPECT_FALSE(parse({"--frames"}).options);
  EXPECT_FALSE(parse({"--frames", "abc"}).options);
  EXPECT_FALSE(parse({"--size", "12y"}).options);
  EXPECT_FALSE(parse({"--density", "1.5"}).options);
  EXPECT_FALSE(parse({"--block", "0"}).options);
}

TEST(Cli, StepsGoWithSavePattern) {
  EXPECT_FALSE(parse({"--steps", "10"}).options);
  auto r = parse({"--headless", "--steps", "10", "--save-pattern", "out.rle"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->steps, 10);
  EXPECT_EQ(r.options->save_pattern, "out.rle");
}

TEST(Cli, BenchOptions) {
  auto r = parse({"bench", "--demo", "life", "--variant", "gpu-swar", "--variant", "gpu-bitpacked", "--size",
                  "16384", "--size", "32768", "--steps", "50", "--json", "b.json", "--repeats", "5"});
  ASSERT_TRUE(r.options) << r.error;
  const Options& o = *r.options;
  EXPECT_EQ(o.mode, Options::Mode::Bench);
  EXPECT_EQ(o.bench_variants, (std::vector<std::string>{"gpu-swar", "gpu-bitpacked"}));
  EXPECT_EQ(o.bench_sizes, (std::vector<int>{16384, 32768}));
  EXPECT_EQ(o.bench_steps, 50);
  EXPECT_EQ(o.bench_repeats, 5);
  EXPECT_EQ(o.bench_json, "b.json");
}

TEST(Cli, BenchRejectsRunOnlyFlags) {
  EXPECT_FALSE(parse({"bench", "--headless"}).options);
  EXPECT_FALSE(parse({"bench", "--size", "0"}).options);
  EXPECT_FALSE(parse({"bench", "--block", "8"}).options);
}

TEST(Cli, CaptureFlagsNeedHeadless) {
  EXPECT_FALSE(parse({"--screenshot", "a.png"}).options);
  EXPECT_FALSE(parse({"--frames", "10"}).options);
  EXPECT_FALSE(parse({"--no-ui"}).options);
  EXPECT_TRUE(parse({"--headless", "--no-ui", "--frames", "3", "--screenshot", "a.png"}).options);
}

TEST(Cli, UsageListsTheHotkeysAndCommands) {
  const std::string u = usage();
  EXPECT_NE(u.find("--headless"), std::string::npos);
  EXPECT_NE(u.find("gpulab bench"), std::string::npos);
  EXPECT_NE(u.find("F12"), std::string::npos);
}

}  // namespace
}  // namespace gpulab

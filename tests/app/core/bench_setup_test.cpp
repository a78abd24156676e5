// cpu label: `gpulab bench` runs the Setup it is given. Every demo option on the command line pins that
// dimension of the sweep (each demo: one option that changes the measured case, and the note that says
// so); an option the bench cannot honour is refused, never ignored.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/bench.h"
#include "core/bench_stepper.h"
#include "core/cli.h"
#include "core/demo.h"
#include "support/configure_demo.h"
#include "support/demo_names.h"

namespace gpulab {
namespace {

// What `gpulab bench --demo NAME ARGS` measures, as run_bench makes it (no CUDA device): the spec, or
// why the bench refused.
struct Bench {
  std::unique_ptr<Demo> demo;
  BenchSpec spec;
  std::string error;
  Options options;
};
Bench bench_of(const std::string& name, std::vector<const char*> args) {
  args.insert(args.begin(), {"bench", "--demo", name.c_str()});
  ParseResult r = testing::parse_with_every_demo(args);
  Bench b;
  if (!r.options) {
    b.error = "parse: " + r.error;
    return b;
  }
  b.options = *r.options;
  const std::vector<std::unique_ptr<Demo>> all = make_demos();
  size_t index = 0;
  while (index < all.size() && all[index]->name() != name) ++index;
  b.demo = make_demo(name);
  const gpulab::Setup setup = bench_setup(*b.demo, b.options, std::move(r.params.at(index)), false);
  try {
    if (!b.demo->bench(setup, b.options, &b.spec)) b.error = "no bench";
  } catch (const std::exception& e) {
    b.error = e.what();
  }
  return b;
}

std::vector<std::string> case_sizes(const BenchSpec& s) {
  std::vector<std::string> out;
  for (const BenchCase& c : s.cases) out.push_back(c.size);
  return out;
}

bool has_note(const BenchSpec& s, const std::string& text) {
  return std::any_of(s.suite.notes.begin(), s.suite.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

TEST(BenchSetup, NothingGivenPinsNothing) {
  for (const std::string& name : gpulab::testing::demo_names()) {
    const Bench b = bench_of(name, {});
    ASSERT_EQ(b.error, "") << name;
    EXPECT_FALSE(has_note(b.spec, "the command line pins")) << name;
  }
}

TEST(BenchSetup, LifesGridIsTheSize) {
  const Bench b = bench_of("life", {"--grid", "64x48", "--rule", "B36/S23"});
  ASSERT_EQ(b.error, "");
  EXPECT_EQ(case_sizes(b.spec), std::vector<std::string>{"64x48"});
  EXPECT_TRUE(has_note(b.spec, "the command line pins: --grid 64x48, --rule B36/S23"));
  EXPECT_NE(bench_of("life", {"--grid", "64x48", "--size", "128"}).error.find("give one"), std::string::npos);
}

TEST(BenchSetup, NbodysBodiesAreTheSize) {
  const Bench b = bench_of("nbody", {"--bodies", "300", "--init", "galaxies"});
  ASSERT_EQ(b.error, "");
  EXPECT_EQ(case_sizes(b.spec), std::vector<std::string>{"N=300"});
  EXPECT_TRUE(has_note(b.spec, "--bodies 300, --init galaxies"));
  EXPECT_NE(bench_of("nbody", {"--init", "sideways"}).error.find("unknown --init"), std::string::npos);
}

TEST(BenchSetup, HisteqsModeKeepsItsStagesAndPipelines) {
  const Bench b = bench_of("histeq", {"--mode", "stretch"});
  ASSERT_EQ(b.error, "");
  for (const BenchVariant& v : b.spec.variants)
    EXPECT_TRUE(v.stage_id == "reduce" || v.stage_id == "apply") << v.id;
  for (const BenchJob& j : b.spec.extra) EXPECT_EQ(j.stage_id, "stretch") << j.variant;
  EXPECT_FALSE(b.spec.variants.empty());
  EXPECT_TRUE(has_note(b.spec, "--mode stretch"));
  // --per-channel splits a colour image; the bench's own inputs are grey.
  EXPECT_NE(bench_of("histeq", {"--per-channel"}).error.find("--per-channel"), std::string::npos);
}

TEST(BenchSetup, RotatesFilterAndAngleAreThoseOfEveryCase) {
  Bench b = bench_of("rotate", {"--angle", "45", "--filter", "point", "--variant", "cpu", "--size", "32x24",
                                "--steps", "1", "--repeats", "1"});
  ASSERT_EQ(b.error, "");
  ASSERT_FALSE(b.spec.cases.empty());
  for (const BenchCase& c : b.spec.cases) EXPECT_EQ(c.input.substr(c.input.size() - 5), "point") << c.input;
  EXPECT_TRUE(has_note(b.spec, "--angle 45, --filter point"));
  b.options.cpu = true;
  const BenchSuite suite = bench_run(std::move(b.spec), b.options);
  EXPECT_TRUE(
      std::find(suite.notes.begin(), suite.notes.end(),
                "45° rotation at scale 1, border addressing, normalized coordinates, normalized-float "
                "reads") != suite.notes.end());
}

TEST(BenchSetup, MatrixsOpAndShapeAreTheCase) {
  const Bench m = bench_of("matrix", {"--m", "32", "--n", "24", "--k", "16"});
  ASSERT_EQ(m.error, "");
  EXPECT_EQ(case_sizes(m.spec), std::vector<std::string>{"32x24x16"});
  const Bench t = bench_of("matrix", {"--op", "transpose", "--size", "64"});
  ASSERT_EQ(t.error, "");
  EXPECT_EQ(case_sizes(t.spec), std::vector<std::string>{"64x64"}) << "no multiply case";
  EXPECT_TRUE(has_note(t.spec, "--op transpose"));
  // A transpose's case may be WxH (the live demo's image is 600x360): the words are H rows of W.
  const Bench r = bench_of("matrix", {"--op", "transpose", "--size", "600x360"});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(case_sizes(r.spec), std::vector<std::string>{"600x360"});
  EXPECT_EQ(r.spec.cases[0].width, 600);
  EXPECT_EQ(r.spec.cases[0].height, 360);
  // Not square without --op transpose: a multiply's case is N³, so the bench says what to add.
  EXPECT_NE(bench_of("matrix", {"--size", "600x360"}).error.find("add --op transpose"), std::string::npos);
}

// The matrix bench's closing notes put each tensor rung against the mma.sync ceiling (the
// mma-sync-peak-* yardstick rows) and cuBLAS at its precision, from the rows of the same case.
TEST(BenchSetup, MatrixNotesTheTensorRungsAgainstTheMmaSyncCeiling) {
  Bench m = bench_of("matrix", {"--op", "multiply", "--size", "64"});
  ASSERT_EQ(m.error, "");
  ASSERT_TRUE(m.spec.finish);
  auto row = [](const char* variant, double ms) {
    BenchRow r;
    r.demo = "matrix";
    r.stage = "multiply";
    r.variant = variant;
    r.size = "64x64x64";
    r.width = r.height = 64;
    r.input = "multiply random";
    r.ms_median = ms;
    r.gflops = 1000.0 / ms;  // made-up figures: only the notes' arithmetic is checked
    return r;
  };
  BenchSuite& suite = m.spec.suite;
  for (const auto& [v, ms] : std::vector<std::pair<const char*, double>>{{"mma-sync-peak-bf16", 1.0},
                                                                         {"cublas-bf16", 0.9},
                                                                         {"gemm-tensor-bf16", 2.0},
                                                                         {"gemm-tensor-wgmma-bf16", 1.0},
                                                                         {"mma-sync-peak-tf32", 2.0},
                                                                         {"gemm-tensor-wgmma-tf32", 2.5}})
    suite.rows.push_back(row(v, ms));
  m.spec.finish(suite);
  auto has = [&](const std::string& text) {
    return std::any_of(suite.notes.begin(), suite.notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(
      has("gemm-tensor-bf16 500 GFLOP/s = 0.50 x the mma.sync ceiling (mma-sync-peak-bf16, 1000 GFLOP/s), "
          "0.45 x cuBLAS"));
  EXPECT_TRUE(has("gemm-tensor-wgmma-bf16 1000 GFLOP/s = 1.00 x the mma.sync ceiling"));
  EXPECT_TRUE(has("the mma.sync ceiling mma-sync-peak-bf16 = 0.90 x cuBLAS BF16"));
  // No cuBLAS TF32 row: the TF32 note stops at the ceiling.
  EXPECT_TRUE(has(
      "gemm-tensor-wgmma-tf32 400 GFLOP/s = 0.80 x the mma.sync ceiling (mma-sync-peak-tf32, 500 GFLOP/s)"));
  EXPECT_FALSE(has("x cuBLAS TF32"));
}

// The transfers bench's bandwidth rows at each size of --sweep (the window's curve as a table), the
// pipeline at --bytes; without a sweep, every row at --bytes.
TEST(BenchSetup, TransfersSweepIsTheBandwidthSizes) {
  // (By the start of the input: on a GPU the pipeline's intensity is balanced there, "pipeline x268".)
  auto cases_of = [](const BenchSpec& s, const std::string& input) {
    std::vector<std::string> out;
    for (const BenchCase& c : s.cases)
      if (c.input.rfind(input, 0) == 0) out.push_back(c.size + "=" + std::to_string(c.width));
    return out;
  };
  const Bench swept = bench_of("transfers", {"--sweep", "1MiB..5MiB", "--bytes", "8MiB"});
  ASSERT_EQ(swept.error, "");
  EXPECT_EQ(cases_of(swept.spec, "bandwidth"),
            (std::vector<std::string>{"1 MiB=1048576", "2 MiB=2097152", "4 MiB=4194304", "5 MiB=5242880"}));
  EXPECT_EQ(cases_of(swept.spec, "pipeline x"), std::vector<std::string>{"8 MiB=8388608"});
  EXPECT_TRUE(has_note(swept.spec, "the command line pins: --bytes 8MiB, --sweep 1MiB..5MiB"));
  const Bench plain = bench_of("transfers", {"--bytes", "8MiB"});
  ASSERT_EQ(plain.error, "");
  EXPECT_EQ(cases_of(plain.spec, "bandwidth"), std::vector<std::string>{"8 MiB=8388608"});
  EXPECT_NE(bench_of("transfers", {"--sweep", "4MiB..1MiB"}).error, "");
  // A target at 256 MiB that did not run names the option that gives that size (--size is refused).
  const std::vector<BenchTargetResult> targets = check_targets(plain.spec.suite);
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(targets[0].status, "not run");
  EXPECT_NE(targets[0].detail.find("--bytes 256MiB and input 'bandwidth'"), std::string::npos)
      << targets[0].detail;
}

// An option the bench cannot honour is refused with the run's own message, or its own reason.
TEST(BenchSetup, WhatTheBenchCannotHonourIsRefused) {
  struct Case {
    std::string demo;
    std::vector<const char*> args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"rotate", {"--angle", "45", "--filter", "nearest"}, "--filter must be point or linear"},
      {"rotate", {"--spin", "5"}, "--spin changes how the rotation is shown"},
      {"rotate", {"--output", "pbo"}, "--output changes how the rotation is shown"},
      {"rotate", {"--seed", "3"}, "--seed"},
      {"life", {"--save-pattern", "out.rle"}, "goes with a run"},
      {"life", {"--rule", "B9"}, "bad --rule"},
      {"nbody", {"--bodies", "100", "--size", "300"}, "give one"},
      {"matrix", {"--op", "transpose", "--m", "8"}, "belong to --op multiply"},
      {"histeq", {"--mode", "sideways"}, "--mode must be equalize or stretch"},
  };
  for (const Case& c : cases) {
    const Bench b = bench_of(c.demo, c.args);
    EXPECT_NE(b.error.find(c.says), std::string::npos) << c.demo << " " << c.args.front() << ": " << b.error;
  }
}

}  // namespace
}  // namespace gpulab

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
  for (const char* name : {"life", "nbody", "histeq", "rotate", "matrix"}) {
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

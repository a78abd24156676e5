// cpu label: the bench's stepper on made-up specs (the order of its jobs, baseline rows, errors, the
// skip rule, the finish hook) and on the demos' own specs (histogram's pipelines, N-body's CPU rule),
// and the one measurement the ladder shares (verify first, cancel).
#include "core/bench_stepper.h"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "demos/histeq/histeq_demo.h"
#include "demos/nbody/nbody_demo.h"

namespace gpulab {
namespace {

constexpr int kBlocksA[] = {8, 16};
constexpr int kBlocksB[] = {32};

// About 20 µs of host work a step, so that every timing is above zero.
void spin(int steps) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(20 * steps);
  while (std::chrono::steady_clock::now() < end) {
  }
}

Probe cpu_probe(double items, std::function<void(int)> run = spin) {
  Probe p;
  p.device = "test CPU";
  p.items_per_step = items;
  p.bytes_per_step = 2 * items;
  p.run = std::move(run);
  return p;
}

// Two cases; a CPU variant without blocks (the baseline), "a" with two blocks, square "b" with one.
BenchSpec spec() {
  BenchSpec s;
  s.suite.demo = "test";
  s.suite.baselines = {"cpu"};
  s.item_unit = "things";
  s.cases = {{"8x8", 8, 8, "flat"}, {"16x16", 16, 16, ""}};
  s.variants.resize(3);
  s.variants[0].id = "cpu";
  s.variants[0].stage_id = "step";
  s.variants[1].id = "a";
  s.variants[1].stage_id = "step";
  s.variants[1].blocks = kBlocksA;
  s.variants[1].default_block = 16;
  s.variants[2].id = "b";
  s.variants[2].stage_id = "step";
  s.variants[2].blocks = kBlocksB;
  s.variants[2].square_blocks = true;
  s.variants[2].default_block = 32;
  s.probe = [](const BenchCase& c, const BenchJob&) {
    return cpu_probe(static_cast<double>(c.width * c.height));
  };
  return s;
}

Options options() {
  Options o;
  o.bench_steps = 2;
  o.bench_repeats = 3;
  return o;
}

std::vector<std::string> labels(const std::vector<BenchJob>& jobs) {
  std::vector<std::string> out;
  for (const BenchJob& j : jobs)
    out.push_back(std::to_string(j.case_index) + " " + j.variant + (j.baseline_only ? "*" : "") + " " +
                  j.block_label);
  return out;
}

TEST(BenchStepper, JobsAreCasesByPlanByBlocksThenTheExtraJobs) {
  BenchSpec s = spec();
  BenchJob ceiling;
  ceiling.stage_id = "step";
  ceiling.variant = "ceiling";
  ceiling.block_label = "-";
  s.extra = {ceiling};
  Options o = options();
  o.variants = {"b", "a"};
  o.bench_all_blocks = true;
  const BenchStepper stepper(s, o);
  EXPECT_EQ(labels(stepper.jobs()),
            (std::vector<std::string>{"0 cpu* -", "0 b 32x32", "0 a 8", "0 a 16", "0 ceiling -", "1 cpu* -",
                                      "1 b 32x32", "1 a 8", "1 a 16", "1 ceiling -"}));
  o.bench_all_blocks = false;
  o.variants = {};
  EXPECT_EQ(labels(BenchStepper(s, o).jobs()),
            (std::vector<std::string>{"0 cpu -", "0 a 16", "0 b 32x32", "0 ceiling -", "1 cpu -", "1 a 16",
                                      "1 b 32x32", "1 ceiling -"}));
  o.variants = {"nope"};
  EXPECT_THROW(BenchStepper(s, o), std::invalid_argument);
}

TEST(BenchStepper, RowsCarryTheCaseTheJobAndTheTiming) {
  Options o = options();
  o.variants = {"a"};
  const BenchSuite suite = bench_run(spec(), o);
  ASSERT_EQ(suite.rows.size(), 4u);  // cpu* and a, in each case
  const BenchRow& base = suite.rows[0];
  EXPECT_EQ(base.variant, "cpu");
  EXPECT_TRUE(base.baseline_only);
  EXPECT_EQ(base.block, "-");
  EXPECT_EQ(base.size, "8x8");
  EXPECT_EQ(base.input, "flat");
  EXPECT_EQ(base.item_unit, "things");
  EXPECT_EQ(base.device, "test CPU");
  const BenchRow& a = suite.rows[3];
  EXPECT_EQ(a.variant, "a");
  EXPECT_FALSE(a.baseline_only);
  EXPECT_EQ(a.block, "16");
  EXPECT_EQ(a.stage, "step");
  EXPECT_EQ(a.size, "16x16");
  EXPECT_EQ(a.width, 16);
  EXPECT_EQ(a.input, "");
  EXPECT_EQ(a.demo, "test");
  for (const BenchRow& r : suite.rows) {
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.steps, 2);
    EXPECT_EQ(r.repeats, 3);
    EXPECT_GT(r.ms_median, 0.0);
    EXPECT_DOUBLE_EQ(r.items_per_s, r.width * r.height / (r.ms_median * 1e-3));
    EXPECT_DOUBLE_EQ(r.pct_peak, 0.0);  // a CPU row
    ASSERT_EQ(r.speedups.size(), 1u);   // finish computed them
    EXPECT_GT(r.speedups[0], 0.0);
  }
}

TEST(BenchStepper, WhatAProbeCannotDoBecomesItsRowsErrorAndTheRestGoesOn) {
  BenchSpec s = spec();
  s.probe = [](const BenchCase&, const BenchJob& job) {
    if (job.variant == "cpu") throw std::runtime_error("out of memory");
    if (job.variant == "b") return probe_unavailable("no CUDA device");
    if (job.block == 8) return cpu_probe(1, [](int) { throw std::runtime_error("launch failed"); });
    return cpu_probe(1);
  };
  Options o = options();
  o.bench_all_blocks = true;
  BenchStepper stepper(s, o);
  std::vector<std::string> errors;
  while (!stepper.done()) {
    const BenchRow* r = stepper.step();
    ASSERT_NE(r, nullptr);
    errors.push_back(r->variant + " " + r->block + ": " + r->error);
  }
  EXPECT_EQ(stepper.step(), nullptr);
  EXPECT_EQ(errors, (std::vector<std::string>{"cpu -: out of memory", "a 8: launch failed",
                                              "a 16: ", "b 32x32: no CUDA device", "cpu -: out of memory",
                                              "a 8: launch failed", "a 16: ", "b 32x32: no CUDA device"}));
  const BenchSuite suite = stepper.finish();
  EXPECT_EQ(suite.rows[2].item_unit, "things");  // a row not measured keeps the spec's unit
  EXPECT_EQ(suite.rows[3].item_unit, "things");
  EXPECT_DOUBLE_EQ(suite.rows[2].speedups[0], 0.0);  // no baseline measured
}

TEST(BenchStepper, TheSkipRuleLeavesJobsOutWithItsNoteAndFinishAddsItsOwn) {
  BenchSpec s = spec();
  s.suite.notes = {"up front"};
  std::vector<std::string> seen;
  s.skip = [&](const BenchCase& c, const BenchJob& job, const BenchSuite& so_far, std::string* note) {
    seen.push_back(job.variant + " after " + std::to_string(so_far.rows.size()));
    if (job.variant != "cpu" || c.width < 16) return false;
    *note = "cpu skipped at " + c.size;
    return true;
  };
  s.finish = [](BenchSuite& suite) { suite.notes.push_back(std::to_string(suite.rows.size()) + " rows"); };
  const BenchSuite suite = bench_run(s, options());
  std::vector<std::string> rows;
  for (const BenchRow& r : suite.rows) rows.push_back(r.size + " " + r.variant);
  EXPECT_EQ(rows, (std::vector<std::string>{"8x8 cpu", "8x8 a", "8x8 b", "16x16 a", "16x16 b"}));
  EXPECT_EQ(suite.notes, (std::vector<std::string>{"up front", "cpu skipped at 16x16", "5 rows"}));
  EXPECT_EQ(seen, (std::vector<std::string>{"cpu after 0", "a after 1", "b after 2", "cpu after 3",
                                            "a after 3", "b after 4"}));
  EXPECT_DOUBLE_EQ(suite.rows[3].speedups[0], 0.0);  // no cpu row at 16x16
}

TEST(BenchStepper, OneMeasurementVerifiesFirstAndStopsOnCancel) {
  BenchSuite peaks;
  int runs = 0;
  auto probe = [&](std::string diff) {
    Probe p = cpu_probe(1, [&](int steps) {
      ++runs;
      spin(steps);
    });
    p.note = "a note";
    p.verify = [diff] { return diff; };
    return p;
  };
  BenchMeasure how;
  how.verify = true;
  how.steps = 1;
  how.repeats = 1;
  BenchRow row;
  BenchMeasured m = bench_measure_probe(
      row, [&] { return probe("differs at 3"); }, how, peaks);
  EXPECT_EQ(m.outcome, BenchOutcome::Mismatch);
  EXPECT_EQ(row.error, "differs at 3");
  EXPECT_EQ(runs, 0);

  row = BenchRow{};
  m = bench_measure_probe(
      row, [&] { return probe(""); }, how, peaks);
  EXPECT_EQ(m.outcome, BenchOutcome::Measured);
  EXPECT_TRUE(m.verified);
  EXPECT_EQ(m.note, "a note");
  EXPECT_GT(runs, 0);
  EXPECT_TRUE(row.error.empty());
  EXPECT_GT(row.ms_median, 0.0);

  how.verify = false;  // verify is never called: a difference goes unseen
  row = BenchRow{};
  m = bench_measure_probe(
      row, [&] { return probe("differs"); }, how, peaks);
  EXPECT_EQ(m.outcome, BenchOutcome::Measured);
  EXPECT_FALSE(m.verified);

  const int before = runs;
  how.cancelled = [&] { return runs > before; };  // after the first (warm-up) run
  row = BenchRow{};
  m = bench_measure_probe(
      row, [&] { return probe(""); }, how, peaks);
  EXPECT_EQ(m.outcome, BenchOutcome::Cancelled);
  EXPECT_EQ(runs, before + 1);

  row = BenchRow{};
  m = bench_measure_probe(
      row, [] { return Probe{}; }, how, peaks);  // no run, no reason
  EXPECT_EQ(m.outcome, BenchOutcome::Unavailable);
  EXPECT_EQ(row.error, "cannot be run here");
}

// The histogram bench asked for one pipeline: that pipeline and the pipeline baselines, no stage rows,
// in every case (3 inputs at one size).
TEST(BenchStepper, HistogramPipelinesAskedAloneBringTheirBaselinesAndNoStageRows) {
  Options o = options();
  o.cpu = true;
  o.variants = {"pipeline-best"};
  o.bench_sizes = {{64, 32}};
  HisteqDemo demo;
  BenchSpec s;
  ASSERT_TRUE(demo.bench(default_setup(demo, false), o, &s));
  const BenchStepper stepper(s, o);
  ASSERT_EQ(stepper.jobs().size(), 3u * 5u);
  std::vector<std::string> first;
  for (size_t i = 0; i < 5; ++i)
    first.push_back(stepper.jobs()[i].stage_id + " " + stepper.jobs()[i].variant);
  EXPECT_EQ(first, (std::vector<std::string>{"equalize pipeline-cpu", "equalize pipeline-naive",
                                             "equalize pipeline-best", "stretch stretch-cpu",
                                             "stretch stretch-naive"}));
  EXPECT_EQ(s.cases[2].input, "narrow 100..123");
  EXPECT_EQ(s.cases[2].size, "64x32");
}

// N-body's rule: the CPU is left out where the rate it reached at a smaller size says a step would
// take more than a few seconds, and the note says so; other variants never are.
TEST(BenchStepper, NbodySkipsTheCpuWhereItsLastRateSaysItIsTooSlow) {
  Options o = options();
  o.cpu = true;
  NbodyDemo demo;
  BenchSpec s;
  ASSERT_TRUE(demo.bench(default_setup(demo, false), o, &s));
  ASSERT_TRUE(s.skip);
  BenchSuite so_far;
  BenchRow cpu;
  cpu.variant = "cpu";
  cpu.items_per_s = 1e9;
  const BenchCase small{"N=16384", 16384, 1, ""}, large{"N=1048576", 1048576, 1, ""};
  BenchJob job;
  job.variant = "cpu";
  std::string note;
  EXPECT_FALSE(s.skip(large, job, so_far, &note));  // no rate yet: it runs
  so_far.rows.push_back(cpu);
  EXPECT_FALSE(s.skip(small, job, so_far, &note));  // 0.27 s a step
  EXPECT_TRUE(s.skip(large, job, so_far, &note));   // 1100 s a step
  EXPECT_EQ(
      note,
      "cpu skipped at N = 1048576: about 1100 s a step at the 1.00e+09 interactions/s it reached below");
  job.variant = "gpu-naive-aos";
  EXPECT_FALSE(s.skip(large, job, so_far, &note));
  so_far.rows.back().error = "failed";  // an error row gives no rate
  job.variant = "cpu";
  EXPECT_FALSE(s.skip(large, job, so_far, &note));
}

}  // namespace
}  // namespace gpulab

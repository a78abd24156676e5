#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/bench.h"
#include "demos/life/life_demo.h"

namespace gpulab {
namespace {

BenchRow row(std::string v, int n, double ms, std::string stage = "step") {
  BenchRow r;
  r.stage = std::move(stage);
  r.variant = std::move(v);
  r.width = r.height = n;
  r.size = std::to_string(n) + "x" + std::to_string(n);
  r.ms_median = ms;
  r.items_per_s = static_cast<double>(n) * n / (ms * 1e-3);
  r.block = "16";
  return r;
}

TEST(Bench, SpeedupsAreAgainstBaselinesOfTheSameStageAndSize) {
  BenchSuite s;
  s.demo = "life";
  s.baselines = {"cpu-naive", "gpu-global"};
  s.rows = {row("cpu-naive", 1024, 10.0), row("gpu-global", 1024, 0.5), row("gpu-swar", 1024, 0.1),
            row("cpu-naive", 2048, 40.0), row("gpu-swar", 2048, 0.4),
            row("cpu-naive", 1024, 1.0, "other"), row("gpu-swar", 1024, 0.5, "other")};
  compute_speedups(s);
  ASSERT_EQ(s.rows[2].speedups.size(), 2u);
  EXPECT_DOUBLE_EQ(s.rows[2].speedups[0], 100.0);
  EXPECT_DOUBLE_EQ(s.rows[2].speedups[1], 5.0);
  EXPECT_DOUBLE_EQ(s.rows[4].speedups[0], 100.0);
  EXPECT_DOUBLE_EQ(s.rows[4].speedups[1], 0.0);  // no gpu-global at 2048
  EXPECT_DOUBLE_EQ(s.rows[6].speedups[0], 2.0);  // the other stage's own baseline
}

TEST(Bench, TargetsPassOrMissOnTheBestMatchingRow) {
  BenchSuite s;
  s.demo = "life";
  s.device = "NVIDIA H100 80GB HBM3";
  s.rows = {row("gpu-shared", 64, 1.0), row("gpu-swar", 64, 0.001)};
  s.targets = {{"fast", {"gpu-shared", "gpu-swar"}, 64, 64, 1e9, "H100"},
               {"too fast", {"gpu-shared"}, 64, 64, 1e12, "H100"},
               {"other size", {"gpu-swar"}, 128, 128, 1.0, "H100"}};
  const std::string out = format_bench(s);
  EXPECT_NE(out.find("target: fast: PASS (gpu-swar"), std::string::npos) << out;
  EXPECT_NE(out.find("target: too fast: MISS"), std::string::npos) << out;
  EXPECT_NE(out.find("target: other size: not run"), std::string::npos) << out;
}

TEST(Bench, TableShowsStagesAndFlopsOnlyWhenPresent) {
  BenchSuite s;
  s.demo = "x";
  s.rows = {row("a", 8, 1.0), row("b", 8, 1.0)};
  std::string out = format_bench(s);
  EXPECT_EQ(out.find("stage"), std::string::npos) << out;
  EXPECT_EQ(out.find("GFLOP/s"), std::string::npos) << out;
  s.rows[1].stage = "scan";
  s.rows[1].gflops = 123;
  out = format_bench(s);
  EXPECT_NE(out.find("stage"), std::string::npos) << out;
  EXPECT_NE(out.find("GFLOP/s"), std::string::npos) << out;
  EXPECT_NE(out.find("123"), std::string::npos) << out;
}

TEST(Bench, JsonHasEveryRowAndParses) {
  BenchSuite s;
  s.demo = "life";
  s.baselines = {"cpu-naive", "gpu-global"};
  s.rows = {row("cpu-naive", 8, 1.0), row("cpu-lut", 8, 0.5)};
  compute_speedups(s);
  const nlohmann::json j = nlohmann::json::parse(bench_json(s));
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["variant"], "cpu-naive");
  EXPECT_EQ(j["rows"][1]["variant"], "cpu-lut");
  EXPECT_DOUBLE_EQ(j["rows"][1]["speedup_vs_cpu-naive"].get<double>(), 2.0);
  EXPECT_EQ(j["demo"], "life");
}

TEST(Bench, MeasureWarmsUpSizesStepsAndTakesTheMedian) {
  int calls = 0;
  std::vector<int> steps_seen;
  // 2 ms a step, except one slow outlier repeat: the median ignores it.
  auto run = [&](int steps) {
    ++calls;
    steps_seen.push_back(steps);
    return (calls == 4 ? 100.0 : 2.0) * steps;
  };
  BenchPlan p;
  p.repeats = 5;
  const BenchTiming t = bench_measure(run, p);
  EXPECT_EQ(calls, 2 + 5);  // two warm-up steps on the GPU, then the repeats
  EXPECT_EQ(t.steps, 10);   // 20 ms target / 2 ms a step
  EXPECT_EQ(t.repeats, 5);
  EXPECT_DOUBLE_EQ(t.ms_median, 2.0);
  EXPECT_DOUBLE_EQ(t.ms_max, 100.0);
}

TEST(Bench, CpuRunMeasuresTheAskedVariantAndTheBaselines) {
  Options o;
  o.mode = Options::Mode::Bench;
  o.cpu = true;
  o.variants = {"cpu-lut"};
  o.bench_sizes = {{97, 0}};
  o.bench_steps = 3;
  o.bench_repeats = 3;
  BenchSuite s = bench_life(o);
  ASSERT_GE(s.rows.size(), 3u);  // cpu-naive and gpu-global (baselines), cpu-lut
  bool lut = false;
  for (const BenchRow& r : s.rows) {
    EXPECT_EQ(r.width, 97);
    EXPECT_EQ(r.height, 97);
    if (r.variant == "gpu-global") {
      EXPECT_FALSE(r.error.empty());  // --cpu: no CUDA engine
      continue;
    }
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_GT(r.ms_median, 0.0);
    EXPECT_LE(r.ms_min, r.ms_median);
    EXPECT_EQ(r.steps, 3);
    EXPECT_EQ(r.repeats, 3);
    lut |= r.variant == "cpu-lut" && !r.baseline_only;
  }
  EXPECT_TRUE(lut);
}

}  // namespace
}  // namespace gpulab

#include <gtest/gtest.h>

#include "core/bench.h"

namespace gpulab {
namespace {

BenchRow row(std::string v, int n, double ms) {
  BenchRow r;
  r.variant = std::move(v);
  r.width = r.height = n;
  r.ms_median = ms;
  r.items_per_s = static_cast<double>(n) * n / (ms * 1e-3);
  r.block = "16";
  return r;
}

TEST(Bench, SpeedupsAreAgainstBaselinesOfTheSameSize) {
  BenchSuite s;
  s.demo = "life";
  s.baselines = {"cpu-naive", "gpu-global"};
  s.rows = {row("cpu-naive", 1024, 10.0), row("gpu-global", 1024, 0.5), row("gpu-swar", 1024, 0.1),
            row("cpu-naive", 2048, 40.0), row("gpu-swar", 2048, 0.4)};
  compute_speedups(s);
  EXPECT_DOUBLE_EQ(s.rows[2].speedup_vs_first_baseline, 100.0);
  EXPECT_DOUBLE_EQ(s.rows[2].speedup_vs_second_baseline, 5.0);
  EXPECT_DOUBLE_EQ(s.rows[4].speedup_vs_first_baseline, 100.0);
  EXPECT_DOUBLE_EQ(s.rows[4].speedup_vs_second_baseline, 0.0);  // no gpu-global at 2048
}

TEST(Bench, TargetsPassOrMissOnTheBestMatchingRow) {
  BenchSuite s;
  s.demo = "life";
  s.device = "NVIDIA H100 80GB HBM3";
  s.rows = {row("gpu-shared", 64, 1.0), row("gpu-swar", 64, 0.001)};
  s.targets = {{"fast", {"gpu-shared", "gpu-swar"}, 64, 1e9, "H100"},
               {"too fast", {"gpu-shared"}, 64, 1e12, "H100"},
               {"other size", {"gpu-swar"}, 128, 1.0, "H100"}};
  const std::string out = format_bench(s);
  EXPECT_NE(out.find("target: fast: PASS (gpu-swar"), std::string::npos) << out;
  EXPECT_NE(out.find("target: too fast: MISS"), std::string::npos) << out;
  EXPECT_NE(out.find("target: other size: not run"), std::string::npos) << out;
}

TEST(Bench, JsonHasEveryRow) {
  BenchSuite s;
  s.demo = "life";
  s.baselines = {"cpu-naive", "gpu-global"};
  s.rows = {row("cpu-naive", 8, 1.0), row("cpu-lut", 8, 0.5)};
  const std::string j = bench_json(s);
  EXPECT_NE(j.find("\"variant\": \"cpu-naive\""), std::string::npos);
  EXPECT_NE(j.find("\"variant\": \"cpu-lut\""), std::string::npos);
  EXPECT_NE(j.find("speedup_vs_cpu-naive"), std::string::npos);
}

TEST(Bench, CpuRunMeasuresTheAskedVariantAndTheBaselines) {
  Options o;
  o.mode = Options::Mode::Bench;
  o.cpu = true;
  o.bench_variants = {"cpu-lut"};
  o.bench_sizes = {97};
  o.bench_steps = 3;
  o.bench_repeats = 3;
  BenchSuite s = bench_life(o);
  ASSERT_GE(s.rows.size(), 3u);  // cpu-naive and gpu-global (baselines), cpu-lut
  bool lut = false;
  for (const BenchRow& r : s.rows) {
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

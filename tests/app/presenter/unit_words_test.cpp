// cpu label: one set of unit words. The HUD's figure and caption ("18.2 µs", "per generation"), the
// demos' captions (format_time_per) and the bench's table (printed by `gpulab bench` and, from the same
// rows, by `gpulab ladder`) say a step's time with one formatter and the demo's own words for a step;
// the JSON keeps its machine-readable keys.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "base/stats.h"
#include "core/bench.h"
#include "presenter/hud.h"

namespace gpulab {
namespace {

BenchRow measured(const std::string& stage, const std::string& variant, double ms, const std::string& per) {
  BenchRow r;
  r.stage = stage;
  r.variant = variant;
  r.block = "-";
  r.size = "64x64";
  r.width = r.height = 64;
  r.ms_median = r.ms_min = r.ms_max = ms;
  r.items_per_s = 4096 / (ms * 1e-3);
  r.item_unit = "cell updates";
  r.per = per;
  return r;
}

TEST(UnitWords, TheHudAndTheSharedFormatterWriteTheSameFigure) {
  for (double ms : {0.000512, 0.0182, 0.1234, 0.9996, 1.0, 2.09, 12.345, 999.4, 1234.0, 65432.1})
    EXPECT_EQ(presenter::hud_time(ms), format_time(ms)) << ms;
  EXPECT_EQ(format_time(0.0182), "18.2 \xC2\xB5s");
  EXPECT_EQ(format_time(2.09), "2.09 ms");
  EXPECT_EQ(per_words("step (per generation)"), "per generation");
  EXPECT_EQ(per_words("rotate (per frame)"), "per frame");
  EXPECT_EQ(per_words("no words"), "per step");
  EXPECT_EQ(per_words(""), "per step");
  EXPECT_EQ(format_time_per(0.0182, "step (per generation)"), format_time(0.0182) + " per generation");
}

TEST(UnitWords, TheBenchTableSaysAStepsTimeInTheHudsWords) {
  BenchSuite s;
  s.demo = "life";
  s.device = "CPU";
  s.rows = {measured("step", "cpu-naive", 11.2, "per generation"),
            measured("step", "cpu-lut", 0.0182, "per generation"), measured("step", "gpu-swar", 0.0, "")};
  s.rows[2].error = "no CUDA device";
  const std::string out = format_bench(s);
  // The column says what a step is, as the HUD's caption under the figure does; the cells are the
  // HUD's figures.
  EXPECT_NE(out.find("| time per generation |"), std::string::npos) << out;
  EXPECT_NE(out.find(" " + presenter::hud_time(11.2) + " |"), std::string::npos) << out;
  EXPECT_NE(out.find(" " + presenter::hud_time(0.0182) + " |"), std::string::npos) << out;
  EXPECT_NE(out.find("time per generation: median of the timed repeats"), std::string::npos) << out;
  EXPECT_EQ(out.find("ms/step"), std::string::npos) << out;
  EXPECT_EQ(out.find("per step"), std::string::npos) << out;
  // Columns line up in characters: "µs" is two bytes and one column.
  size_t lines = 0, width = 0;
  for (size_t a = 0; a < out.size();) {
    const size_t b = out.find('\n', a);
    const std::string line = out.substr(a, b - a);
    a = b + 1;
    if (line.empty() || line[0] != '|' || line.find("not measured") != std::string::npos) continue;
    size_t cols = 0;
    for (char ch : line) cols += (ch & 0xC0) != 0x80;
    if (lines++ == 0) width = cols;
    EXPECT_EQ(cols, width) << line;
  }
  EXPECT_EQ(lines, 4u) << out;  // head, rule, two measured rows
}

TEST(UnitWords, StepsOfDifferentKindsSayTheirWordsInEachCell) {
  // The matrix demo's stages: a transpose is timed per matrix, a multiply per product.
  BenchSuite s;
  s.demo = "matrix";
  s.device = "CPU";
  s.rows = {measured("transpose", "transpose-cpu", 0.00232, "per matrix"),
            measured("multiply", "gemm-cpu", 2.09, "per product")};
  const std::string out = format_bench(s);
  EXPECT_NE(out.find("  time |"), std::string::npos) << out;  // the column says only "time"
  EXPECT_NE(out.find(" " + format_time_per(0.00232, "transpose (per matrix)") + " |"), std::string::npos)
      << out;
  EXPECT_NE(out.find(" " + format_time_per(2.09, "A·B (per product)") + " |"), std::string::npos) << out;
  EXPECT_NE(out.find("\ntime: median of the timed repeats"), std::string::npos) << out;
}

TEST(UnitWords, AMaxTimeTargetSaysItsTimeInTheTableAndKeepsItsJsonDetail) {
  BenchSuite s;
  s.demo = "histeq";
  s.device = "CPU";
  s.rows = {measured("apply", "apply-cpu", 0.0061, "per image")};
  s.targets = {{.what = "apply under 10 us", .variants = {"apply-cpu"}, .max_ms = 0.01}};
  const std::string out = format_bench(s);
  EXPECT_NE(out.find("target: apply under 10 us: PASS (apply-cpu block - at 64x64: 6.1 \xC2\xB5s per image)"),
            std::string::npos)
      << out;
  const std::vector<BenchTargetResult> r = check_targets(s);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].detail, "apply-cpu block - at 64x64: 6.100 \xC2\xB5s/step");  // the JSON's, as before
  EXPECT_NE(bench_json(s).find("\"detail\": \"apply-cpu block - at 64x64: 6.100 \xC2\xB5s/step\""),
            std::string::npos);
}

}  // namespace
}  // namespace gpulab

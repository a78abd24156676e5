#include "core/bench.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/bench_stepper.h"
#include "demos/life/life_demo.h"
#include "demos/rotate/rotate_demo.h"

namespace gpulab {
namespace {

BenchRow row(std::string v, int n, double ms, std::string stage = "step", std::string input = "") {
  BenchRow r;
  r.stage = std::move(stage);
  r.input = std::move(input);
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
  s.rows = {row("cpu-naive", 1024, 10.0),       row("gpu-global", 1024, 0.5),
            row("gpu-swar", 1024, 0.1),         row("cpu-naive", 2048, 40.0),
            row("gpu-swar", 2048, 0.4),         row("cpu-naive", 1024, 1.0, "other"),
            row("gpu-swar", 1024, 0.5, "other")};
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

TEST(Bench, ALongRowIsEstimatedOnceItsFirstStepIsTimed) {
  // 5 s a CPU step (Life at 65536x65536 on two cores): a warm-up step, then three repeats of one step.
  BenchPlan p;
  p.cpu = true;
  p.what = "bench cpu-lut at 65536x65536";
  int calls = 0;
  ::testing::internal::CaptureStderr();
  const BenchTiming t = bench_measure(
      [&](int steps) {
        ++calls;
        return 5000.0 * steps;
      },
      p);
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(t.repeats, 3);
  EXPECT_EQ(calls, 1 + 3);
  EXPECT_EQ(said, "gpulab: bench cpu-lut at 65536x65536: about 20 s in all, 15 s more (Ctrl+C stops)\n");
  // A quick row says nothing.
  ::testing::internal::CaptureStderr();
  bench_measure([](int steps) { return 2.0 * steps; }, BenchPlan{});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
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

// A Life-style suite (one stage, no input, single-id baselines, rate targets) prints exactly so: the
// time a step in the HUD's words ("900 µs" in a column "time per generation"), the rest as it did
// before inputs, baseline groups and target kinds.
TEST(Bench, LifeStyleSuiteFormatsExactly) {
  BenchSuite s;
  s.demo = "life";
  s.device = "NVIDIA H100 80GB HBM3 (132 SMs, CUDA 12.4)";
  s.peak_bandwidth_gbps = 3350;
  s.peak_fp32_gflops = 66900;
  s.baselines = {"cpu-naive", "gpu-global"};
  s.rows = {row("cpu-naive", 1024, 0.9), row("gpu-global", 1024, 0.5), row("gpu-swar", 1024, 0.1234),
            row("cpu-naive", 2048, 0.4), row("gpu-swar", 2048, 0.4)};
  s.rows[0].baseline_only = true;
  s.rows[1].gbps = 100;
  s.rows[1].pct_peak = 3;
  s.rows[4].error = "no CUDA device";
  s.rows[2].gflops = 1234;
  s.rows[2].pct_peak_flops = 2;
  s.rows[2].item_unit = "cell updates";
  s.notes = {"a note"};
  for (size_t i = 0; i < 4; ++i) s.rows[i].per = "per generation";  // the probes' words (not the error row's)
  s.targets = {{"fast", {"gpu-global", "gpu-swar"}, 1024, 1024, 1e9, "H100"},
               {"too fast", {"gpu-global"}, 1024, 1024, 1e14, "A100"},
               {"other size", {"gpu-swar"}, 4096, 4096, 1.0, "H100"},
               {"N", {"gpu-swar"}, 16384, 1, 1.0, "H100"}};
  compute_speedups(s);
  const std::string expected =
      "gpulab bench: life on NVIDIA H100 80GB HBM3 (132 SMs, CUDA 12.4) (peak memory bandwidth 3350 GB/s, "
      "peak FP32 66.9 TFLOP/s)\n"
      "| variant    | block | size      | time per generation | cell updates/s |  GB/s | %peak | GFLOP/s | "
      "%fp32 "
      "| x cpu-naive | x gpu-global |\n"
      "|------------|-------|-----------|---------------------|----------------|-------|-------|---------|---"
      "---"
      "-|-------------|--------------|\n"
      "| cpu-naive* | 16    | 1024x1024 |              900 \u00b5s |      1.165e+09 |     - |     - |       "
      "- |    "
      " - |           1 |        0.556 |\n"
      "| gpu-global | 16    | 1024x1024 |              500 \u00b5s |      2.097e+09 | 100.0 |   3.0 |       "
      "- |    "
      " - |         1.8 |            1 |\n"
      "| gpu-swar   | 16    | 1024x1024 |              123 \u00b5s |      8.497e+09 |     - |     - |    "
      "1234 |   "
      "2.0 |        7.29 |         4.05 |\n"
      "| cpu-naive  | 16    | 2048x2048 |              400 \u00b5s |      1.049e+10 |     - |     - |       "
      "- |    "
      " - |           1 |            - |\n"
      "| gpu-swar   | 16    | 2048x2048 | not measured: no CUDA device |\n"
      "(* measured as a baseline for the speedup columns)\n"
      "time per generation: median of the timed repeats after a warm-up; GB/s counts the fewest bytes a step "
      "must move.\n"
      "note: a note\n"
      "target: fast: PASS (gpu-swar block 16: 8.497e+09)\n"
      "target: too fast: MISS (gpu-global block 16: 2.097e+09) [the target is for an A100]\n"
      "target: other size: not run (needs --size 4096x4096)\n"
      "target: N: not run (needs --size 16384)\n";
  EXPECT_EQ(format_bench(s), expected);
}

TEST(Bench, TimeColumnWritesTheHudsFigures) {
  // Three significant figures in µs, ms or s, as the HUD and the captions write a step's time
  // (format_time); the JSON keeps the full value.
  BenchSuite s;
  s.demo = "x";
  s.rows = {row("a", 8, 0.00512), row("b", 8, 12.3456), row("c", 8, 1234.7), row("d", 8, 0.0123456),
            row("e", 8, 9.99996)};
  const std::string out = format_bench(s);
  EXPECT_NE(out.find(" 5.12 \u00b5s |"), std::string::npos) << out;
  EXPECT_NE(out.find(" 12.3 ms |"), std::string::npos) << out;
  EXPECT_NE(out.find(" 1.23 s |"), std::string::npos) << out;
  EXPECT_NE(out.find(" 12.3 \u00b5s |"), std::string::npos) << out;
  EXPECT_NE(out.find(" 10 ms |"), std::string::npos) << out;
  EXPECT_NE(out.find("| time per step |"), std::string::npos) << out;  // rows that do not say what a step is
  EXPECT_NE(bench_json(s).find("\"ms_per_step_median\": 12.3456"), std::string::npos);
}

TEST(Bench, InputColumnOnlyWhenARowHasOne) {
  BenchSuite s;
  s.demo = "x";
  s.rows = {row("a", 8, 1.0), row("b", 8, 1.0)};
  std::string out = format_bench(s);
  EXPECT_EQ(out.find("input"), std::string::npos) << out;
  s.rows[1].input = "narrow 100..123";
  out = format_bench(s);
  EXPECT_NE(out.find("| size | input           | time per step |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 8x8  | narrow 100..123 |"), std::string::npos) << out;
  EXPECT_NE(out.find("| 8x8  |                 |"), std::string::npos) << out;  // the row without one
  s.rows[0].error = "boom";
  out = format_bench(s);
  EXPECT_NE(out.find("| 8x8  |                 | not measured: boom |"), std::string::npos) << out;
}

// A long reason (the driver's loader error on every GPU rung without a driver) is said once.
TEST(Bench, ARepeatedReasonIsGivenInFullOnceThenNamed) {
  BenchSuite s;
  s.demo = "x";
  s.rows = {row("cpu", 8, 1.0), row("gpu-a", 8, 1.0), row("gpu-b", 8, 1.0), row("gpu-c", 8, 1.0),
            row("gpu-a", 16, 1.0)};
  const std::string driver =
      "no NVIDIA driver: libcuda.so.1 is not installed (cannot open shared object file)";
  s.rows[1].error = s.rows[2].error = s.rows[4].error = driver;
  s.rows[3].error = "needs compute capability 9.0";
  const std::string out = format_bench(s);
  size_t at = 0, n = 0;
  while ((at = out.find(driver, at)) != std::string::npos) ++n, ++at;
  EXPECT_EQ(n, 1u) << out;
  // Each table row by its variant and size: what its last cell says.
  auto said = [&](const std::string& variant, const std::string& size) {
    std::istringstream lines(out);
    for (std::string l; std::getline(lines, l);)
      if (l.rfind("| " + variant + " ", 0) == 0 && l.find("| " + size + " ") != std::string::npos) {
        const size_t m = l.find("not measured: ");
        return m == std::string::npos ? l : l.substr(m, l.rfind(" |") - m);
      }
    return std::string("(no row)");
  };
  EXPECT_EQ(said("gpu-a", "8x8"), "not measured: " + driver) << out;
  EXPECT_EQ(said("gpu-b", "8x8"), "not measured: the same reason as gpu-a") << out;
  EXPECT_EQ(said("gpu-c", "8x8"), "not measured: needs compute capability 9.0") << out;
  EXPECT_EQ(said("gpu-a", "16x16"), "not measured: the same reason as above") << out;
  // The JSON keeps each row's reason whole (data, not a table for reading).
  const std::string json = bench_json(s);
  n = 0, at = 0;
  while ((at = json.find(driver, at)) != std::string::npos) ++n, ++at;
  EXPECT_EQ(n, 3u);
}

TEST(Bench, SpeedupsNeverCrossInputsOrStages) {
  BenchSuite s;
  s.demo = "histeq";
  s.baselines = {"hist-cpu"};
  s.rows = {row("hist-cpu", 64, 10.0, "hist", "uniform"), row("hist-cpu", 64, 40.0, "hist", "constant"),
            row("hist-smem", 64, 1.0, "hist", "uniform"), row("hist-smem", 64, 2.0, "hist", "constant"),
            row("hist-smem", 64, 2.0, "scan", "uniform"),  // no hist-cpu in the scan stage
            row("hist-smem", 64, 2.0, "hist", "narrow")};  // nor on the narrow input
  compute_speedups(s);
  EXPECT_DOUBLE_EQ(s.rows[2].speedups[0], 10.0);
  EXPECT_DOUBLE_EQ(s.rows[3].speedups[0], 20.0);
  EXPECT_DOUBLE_EQ(s.rows[4].speedups[0], 0.0);
  EXPECT_DOUBLE_EQ(s.rows[5].speedups[0], 0.0);
  EXPECT_TRUE(bench_same_case(s.rows[0], s.rows[2]));
  EXPECT_FALSE(bench_same_case(s.rows[0], s.rows[1]));
  EXPECT_FALSE(bench_same_case(s.rows[2], s.rows[4]));
}

TEST(Bench, GroupedBaselinesPickTheFastestMemberInEachStage) {
  BenchSuite s;
  s.demo = "histeq";
  s.baselines = {{"cpu", {"hist-cpu", "scan-cpu"}}, {"gpu naive", {"hist-atomic-global", "scan-serial"}}};
  s.rows = {
      row("hist-cpu", 64, 8.0, "hist"),    row("hist-atomic-global", 64, 4.0, "hist"),
      row("hist-smem", 64, 1.0, "hist"),   row("scan-cpu", 64, 0.5, "scan"),
      row("scan-serial", 64, 3.0, "scan"), row("scan-serial", 64, 2.0, "scan"),  // two blocks: the faster
      row("scan-warp", 64, 0.25, "scan")};
  s.rows[5].block = "32";
  compute_speedups(s);
  EXPECT_DOUBLE_EQ(s.rows[2].speedups[0], 8.0);
  EXPECT_DOUBLE_EQ(s.rows[2].speedups[1], 4.0);
  EXPECT_DOUBLE_EQ(s.rows[6].speedups[0], 2.0);  // scan-cpu, not hist-cpu
  EXPECT_DOUBLE_EQ(s.rows[6].speedups[1], 8.0);  // the faster scan-serial row
  EXPECT_DOUBLE_EQ(s.rows[3].speedups[0], 1.0);
  const std::string out = format_bench(s);
  EXPECT_NE(out.find("| x cpu | x gpu naive |"), std::string::npos) << out;
  const nlohmann::json j = nlohmann::json::parse(bench_json(s));
  EXPECT_DOUBLE_EQ(j["rows"][6]["speedup_vs_gpu naive"].get<double>(), 8.0);
  EXPECT_EQ(j["baselines"][0], "cpu");
  EXPECT_EQ(j["baseline_groups"][1]["variants"][1], "scan-serial");
}

struct PlanVariant {
  std::string id;
};

TEST(Bench, PlanAddsEveryIdOfEveryBaselineGroupOnce) {
  const std::vector<PlanVariant> table = {{"hist-cpu"}, {"hist-atomic-global"}, {"hist-smem"},
                                          {"scan-cpu"}, {"scan-serial"},        {"scan-warp"}};
  const std::span<const PlanVariant> span(table);
  const std::vector<BenchBaseline> baselines = {{"cpu", {"hist-cpu", "scan-cpu"}},
                                                {"gpu naive", {"hist-atomic-global", "scan-serial"}},
                                                "hist-cpu"};  // a single id too, and a repeat
  auto plan = bench_plan(span, {"scan-warp", "scan-cpu"}, baselines);
  std::vector<std::string> ids;
  for (auto [v, baseline_only] : plan) ids.push_back(v->id + (baseline_only ? "*" : ""));
  EXPECT_EQ(ids, (std::vector<std::string>{"hist-cpu*", "hist-atomic-global*", "scan-serial*", "scan-warp",
                                           "scan-cpu"}));
  EXPECT_EQ(bench_plan(span, {}, baselines).size(), table.size());
  EXPECT_THROW(bench_plan(span, {}, {{"cpu", {"hist-cpu", "nope"}}}), std::invalid_argument);
}

TEST(Bench, RateTargetWithoutInputMustHoldOnEveryInput) {
  BenchSuite s;
  s.demo = "histeq";
  s.rows = {row("hist-smem", 64, 0.001, "hist", "uniform"), row("hist-vec", 64, 0.002, "hist", "uniform"),
            row("hist-smem", 64, 0.01, "hist", "constant"), row("hist-vec", 64, 0.004, "hist", "constant")};
  s.targets = {{"any input", {"hist-smem", "hist-vec"}, 64, 64, 1e9, ""},
               {"every input", {"hist-smem", "hist-vec"}, 64, 64, 2e9, ""},
               {.what = "uniform only",
                .variants = {"hist-smem", "hist-vec"},
                .width = 64,
                .height = 64,
                .min_items_per_s = 2e9,
                .input = "uniform"},
               {.what = "narrow",
                .variants = {"hist-vec"},
                .width = 64,
                .height = 64,
                .min_items_per_s = 1,
                .input = "narrow"}};
  const std::vector<BenchTargetResult> r = check_targets(s);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].kind, BenchTarget::Kind::Rate);
  EXPECT_TRUE(r[0].pass);
  EXPECT_EQ(r[0].cases, 2);
  EXPECT_EQ(r[0].input, "constant");  // the worst input's best: hist-vec at 4 µs
  EXPECT_EQ(r[0].variant, "hist-vec");
  EXPECT_FALSE(r[1].pass);
  EXPECT_EQ(r[1].status, "MISS");
  EXPECT_TRUE(r[2].pass);
  EXPECT_EQ(r[2].variant, "hist-smem");
  EXPECT_EQ(r[2].cases, 1);
  EXPECT_FALSE(r[3].measured);
  const std::string out = format_bench(s);
  EXPECT_NE(out.find("target: any input: PASS (worst: hist-vec block 16 at 64x64 constant: 1.024e+09)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("target: uniform only: PASS (hist-smem block 16: 4.096e+09)"), std::string::npos) << out;
  EXPECT_NE(out.find("target: narrow: not run (needs --size 64x64 and input 'narrow')"), std::string::npos)
      << out;
}

TEST(Bench, MaxTimeTargetPassMissAndNotRun) {
  BenchSuite s;
  s.demo = "histeq";
  s.device = "NVIDIA H100 80GB HBM3";
  s.rows = {row("reduce-warp", 4096, 0.00512, "reduce", "uniform"),
            row("reduce-warp", 4096, 0.0061, "reduce", "constant"),
            row("apply-global", 4096, 0.25, "apply", "uniform")};
  s.targets = {
      {.what = "reduce under 10 us",
       .variants = {"reduce-warp"},
       .width = 4096,
       .height = 4096,
       .device_hint = "H100",
       .max_ms = 0.01},
      {.what = "reduce under 6 us",
       .variants = {"reduce-warp"},
       .width = 4096,
       .height = 4096,
       .device_hint = "A100",
       .max_ms = 0.006},
      {.what = "apply under 0.2 ms", .variants = {"apply-global"}, .max_ms = 0.2},
      {.what = "reduce at 8192", .variants = {"reduce-warp"}, .width = 8192, .height = 8192, .max_ms = 1}};
  const std::vector<BenchTargetResult> r = check_targets(s);
  EXPECT_EQ(r[0].kind, BenchTarget::Kind::MaxTime);
  EXPECT_TRUE(r[0].pass);
  EXPECT_DOUBLE_EQ(r[0].value, 0.0061);  // the slower input decides
  EXPECT_FALSE(r[1].pass);
  EXPECT_FALSE(r[2].pass);
  EXPECT_FALSE(r[3].measured);
  const std::string out = format_bench(s);
  // The table says a time as the HUD does; the JSON's detail keeps its four digits.
  EXPECT_NE(out.find("target: reduce under 10 us: PASS (worst: reduce-warp block 16 at 4096x4096 constant: "
                     "6.1 \u00b5s per step)\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("target: reduce under 6 us: MISS (worst: reduce-warp block 16 at 4096x4096 constant: "
                     "6.1 \u00b5s per step) [the target is for an A100]"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("target: apply under 0.2 ms: MISS (apply-global block 16 at 4096x4096 uniform: 250 "
                     "\u00b5s per step)"),
            std::string::npos)
      << out;
  EXPECT_EQ(r[0].detail, "worst: reduce-warp block 16 at 4096x4096 constant: 6.100 \u00b5s/step");
  EXPECT_EQ(r[2].detail, "apply-global block 16 at 4096x4096 uniform: 0.2500 ms/step");
  EXPECT_NE(out.find("target: reduce at 8192: not run (needs --size 8192x8192)"), std::string::npos) << out;
}

TEST(Bench, ATargetStatesItsThresholdForTheCardPresent) {
  // A memory-bound rate set for the H100 and scaled for the H200; a ratio the same on both.
  BenchTarget rate{.what = "copy >= 3e12 B/s (H100)",
                   .variants = {"copy"},
                   .width = 4096,
                   .height = 4096,
                   .min_items_per_s = 3e12,
                   .device_hint = "H100"};
  rate.on_cards = {{"H200", "copy >= 4.3e12 B/s (H200: x 4.8/3.35 TB/s)", 4.3e12}};
  BenchTarget ratio{.what = "copy >= 0.9x memcpy (H100)",
                    .variants = {"copy"},
                    .width = 4096,
                    .height = 4096,
                    .device_hint = "H100",
                    .versus = {"memcpy"},
                    .min_ratio = 0.9};
  same_target_on(ratio, "H200", "a ratio within one run");
  ASSERT_EQ(ratio.on_cards.size(), 1u);
  EXPECT_EQ(ratio.on_cards[0].what, "copy >= 0.9x memcpy (H200, a ratio within one run)");
  EXPECT_DOUBLE_EQ(ratio.on_cards[0].threshold, 0.9);
  // The hint at the end of a longer parenthesis keeps the rest of it (the matrix targets' "(…; H100)").
  BenchTarget sized = ratio;
  sized.what = "copy >= 0.9x memcpy (every size measured; H100)";
  sized.on_cards.clear();
  same_target_on(sized, "H200", "a ratio within one run");
  EXPECT_EQ(sized.on_cards[0].what,
            "copy >= 0.9x memcpy (every size measured; H200, a ratio within one run)");
  BenchSuite s;
  s.demo = "copy";
  s.rows = {row("copy", 4096, 4096.0 * 4096 / 3.5e12 * 1e3),
            row("memcpy", 4096, 4096.0 * 4096 / 3.6e12 * 1e3)};
  s.targets = {rate, ratio};
  for (const char* device : {"NVIDIA H100 80GB HBM3 (132 SMs, CUDA 13.0)", "NVIDIA H200 (132 SMs, CUDA 13.0)",
                             "NVIDIA A100-SXM4-80GB (108 SMs)"}) {
    SCOPED_TRACE(device);
    s.device = device;
    const bool h200 = std::string(device).find("H200") != std::string::npos;
    const bool h100 = std::string(device).find("H100") != std::string::npos;
    const std::vector<BenchTargetResult> r = check_targets(s);
    ASSERT_EQ(r.size(), 2u);
    // 3.5e12 items/s: over the H100's 3e12, under the H200's 4.3e12.
    EXPECT_EQ(r[0].pass, !h200);
    EXPECT_EQ(r[0].what, h200 ? "copy >= 4.3e12 B/s (H200: x 4.8/3.35 TB/s)" : "copy >= 3e12 B/s (H100)");
    EXPECT_EQ(r[0].device_hint, h200 ? "H200" : "H100");
    EXPECT_EQ(r[0].other_device, !h100 && !h200);
    EXPECT_TRUE(r[1].pass);
    const std::string out = format_bench(s);
    EXPECT_EQ(out.find("[the target is for an"),
              h100 || h200 ? std::string::npos : out.find("[the target is for an H100]"))
        << out;
    const nlohmann::json j = nlohmann::json::parse(bench_json(s));
    EXPECT_EQ(j["targets"][0]["min_items_per_s"].get<double>(), h200 ? 4.3e12 : 3e12);
    EXPECT_EQ(j["targets"][0]["device_hint"].get<std::string>(), h200 ? "H200" : "H100");
  }
}

TEST(Bench, RatioTargetReportsTheWorstCase) {
  BenchSuite s;
  s.demo = "histeq";
  s.rows = {row("hist-cub", 1024, 2.0, "hist", "uniform"),
            row("hist-vec", 1024, 1.0, "hist", "uniform"),
            row("hist-cub", 1024, 2.0, "hist", "constant"),
            row("hist-lane-private", 1024, 1.5, "hist", "constant"),
            row("hist-vec", 1024, 4.0, "hist", "constant"),
            row("hist-cub", 16384, 40.0, "hist", "constant"),
            row("hist-lane-private", 16384, 30.5, "hist", "constant"),
            row("hist-cub", 16384, 10.0, "hist", "uniform"),
            row("hist-vec", 2048, 1.0, "hist", "uniform")};  // no hist-cub at 2048: not a case
  const std::vector<std::string> ours = {"hist-vec", "hist-lane-private"};
  s.targets = {
      {.what = "best histogram faster than hist-cub on every size and input",
       .variants = ours,
       .versus = {"hist-cub"},
       .min_ratio = 1.2},
      {.what = "1.2x at 1024",
       .variants = ours,
       .width = 1024,
       .height = 1024,
       .versus = {"hist-cub"},
       .min_ratio = 1.2},
      {.what = "2x at 1024 uniform",
       .variants = ours,
       .width = 1024,
       .height = 1024,
       .input = "uniform",
       .versus = {"hist-cub"},
       .min_ratio = 2},
      {.what = "vs a missing one", .variants = ours, .versus = {"hist-atomic-global"}, .min_ratio = 1}};
  const std::vector<BenchTargetResult> r = check_targets(s);
  EXPECT_EQ(r[0].kind, BenchTarget::Kind::Ratio);
  EXPECT_EQ(r[0].cases, 3);  // 1024 uniform and constant, 16384 constant
  EXPECT_TRUE(
      r[0].pass);  // 1024: 2x and 1.33x; 16384 constant: 40 / 30.5 = 1.31 (16384 uniform: none of ours)
  EXPECT_EQ(r[0].size, "16384x16384");
  EXPECT_EQ(r[0].input, "constant");
  EXPECT_EQ(r[0].variant, "hist-lane-private");
  EXPECT_EQ(r[0].versus_variant, "hist-cub");
  EXPECT_TRUE(r[1].pass);  // 1024 only: uniform 2x, constant 1.33x
  EXPECT_NEAR(r[1].value, 2.0 / 1.5, 1e-12);
  EXPECT_TRUE(r[2].pass);
  EXPECT_EQ(r[2].cases, 1);
  EXPECT_FALSE(r[3].measured);
  const std::string out = format_bench(s);
  EXPECT_NE(out.find("target: best histogram faster than hist-cub on every size and input: PASS (worst: "
                     "hist-lane-private 1.31x at 16384x16384 constant)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("target: 1.2x at 1024: PASS (worst: hist-lane-private 1.33x at 1024x1024 constant)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("target: 2x at 1024 uniform: PASS (hist-vec 2x at 1024x1024 uniform)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("target: vs a missing one: not run (needs one of hist-vec, hist-lane-private and "
                     "hist-atomic-global measured in the same case)"),
            std::string::npos)
      << out;
  s.targets[0].min_ratio = 1.4;
  EXPECT_NE(format_bench(s).find(
                "on every size and input: MISS (worst: hist-lane-private 1.31x at 16384x16384 constant)"),
            std::string::npos);
}

// "Within 1.10x of the floor" is a ratio under 1 (floor / graph): the line says it as time too, so
// that the figure a reader compares with the target's 1.10x is there.
TEST(Bench, ARatioUnderOneIsAlsoSaidAsTime) {
  BenchSuite s;
  s.demo = "transfers";
  s.rows = {row("graph", 1024, 5.912, "overlap", "pipeline"),
            row("streams-4", 1024, 6.02, "overlap", "pipeline"),
            row("floor", 1024, 5.47, "overlap", "pipeline"), row("other", 1024, 4.0, "overlap", "pipeline")};
  s.targets = {
      {.what = "within 1.10x of the floor",
       .variants = {"graph", "streams-4"},
       .versus = {"floor"},
       .min_ratio = 1.0 / 1.10},
      {.what = "against two", .variants = {"graph"}, .versus = {"floor", "other"}, .min_ratio = 0.5}};
  const std::vector<BenchTargetResult> r = check_targets(s);
  EXPECT_TRUE(r[0].pass);
  EXPECT_NEAR(r[0].value, 5.47 / 5.912, 1e-12);
  const std::string out = format_bench(s);
  EXPECT_NE(out.find("target: within 1.10x of the floor: PASS (graph 0.925x (1.08x the time of floor) at "
                     "1024x1024 pipeline)"),
            std::string::npos)
      << out;
  // Against the best of two, the one it is timed against is named once.
  EXPECT_NE(
      out.find("target: against two: PASS (graph 0.677x (1.48x the time of other) at 1024x1024 pipeline)"),
      std::string::npos)
      << out;
}

// The library lecture's note: in each case where a library rung ran, our fastest against each library
// rung, in the order given; cases without both, and rows with errors, say nothing.
TEST(Bench, OursAgainstTheLibraryIsSaidOnceACase) {
  BenchSuite s;
  s.rows = {row("hist-thrust-sort", 1024, 62.0, "histogram", "uniform"),
            row("hist-cub", 1024, 14.0, "histogram", "uniform"),
            row("hist-shared-vec", 1024, 12.0, "histogram", "uniform"),
            row("hist-bank-private", 1024, 10.0, "histogram", "uniform"),
            row("hist-cub", 2048, 40.0, "histogram", "uniform"),  // none of ours at 2048
            row("hist-thrust-sort", 1024, 50.0, "histogram", "constant"),
            row("hist-bank-private", 1024, 100.0, "histogram", "constant"),
            row("scan-thrust", 1024, 9.0, "scan", "uniform"),
            row("scan-block", 1024, 3.0, "scan", "uniform")};
  BenchRow broken = row("hist-shared-vec", 1024, 1.0, "histogram", "constant");
  broken.error = "out of memory";
  s.rows.push_back(broken);
  const std::vector<std::string> lines =
      ours_against_library(s, {"hist-shared-vec", "hist-bank-private", "scan-block"},
                           {"hist-cub", "hist-thrust-sort", "scan-thrust"});
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "histogram at 1024x1024 uniform: our best, hist-bank-private, is 1.4x hist-cub, 6.2x "
            "hist-thrust-sort");
  EXPECT_EQ(lines[1],
            "histogram at 1024x1024 constant: our best, hist-bank-private, is 0.5x hist-thrust-sort");
  EXPECT_EQ(lines[2], "scan at 1024x1024 uniform: our best, scan-block, is 3x scan-thrust");
}

TEST(Bench, InvalidTargetsAreReportedNotPassed) {
  BenchSuite s;
  s.demo = "x";
  s.rows = {row("a", 8, 1.0)};
  s.targets = {{.what = "nothing", .variants = {"a"}},
               {.what = "two", .variants = {"a"}, .min_items_per_s = 1, .max_ms = 1},
               {.what = "no versus", .variants = {"a"}, .min_ratio = 1}};
  for (const BenchTargetResult& r : check_targets(s)) {
    EXPECT_EQ(r.kind, BenchTarget::Kind::Invalid) << r.what;
    EXPECT_FALSE(r.pass);
    EXPECT_EQ(r.status, "invalid");
  }
  EXPECT_NE(format_bench(s).find("target: two: invalid (more than one"), std::string::npos);
}

TEST(Bench, JsonCarriesInputAndTargetResults) {
  BenchSuite s;
  s.demo = "histeq";
  s.baselines = {{"cpu", {"hist-cpu"}}};
  s.rows = {row("hist-cpu", 64, 4.0, "hist", "constant"), row("hist-smem", 64, 1.0, "hist", "constant")};
  s.targets = {{.what = "4x", .variants = {"hist-smem"}, .versus = {"hist-cpu"}, .min_ratio = 4},
               {.what = "fast", .variants = {"hist-smem"}, .width = 128, .height = 128, .max_ms = 1}};
  compute_speedups(s);
  const nlohmann::json j = nlohmann::json::parse(bench_json(s));
  EXPECT_EQ(j["rows"][1]["input"], "constant");
  EXPECT_DOUBLE_EQ(j["rows"][1]["speedup_vs_cpu"].get<double>(), 4.0);
  ASSERT_EQ(j["targets"].size(), 2u);
  EXPECT_EQ(j["targets"][0]["kind"], "ratio");
  EXPECT_EQ(j["targets"][0]["pass"], true);
  EXPECT_EQ(j["targets"][0]["status"], "PASS");
  EXPECT_DOUBLE_EQ(j["targets"][0]["value"].get<double>(), 4.0);
  EXPECT_EQ(j["targets"][0]["case"]["input"], "constant");
  EXPECT_EQ(j["targets"][0]["case"]["versus_variant"], "hist-cpu");
  EXPECT_EQ(j["targets"][0]["detail"], "hist-smem 4x at 64x64 constant");
  EXPECT_EQ(j["targets"][1]["kind"], "max_time");
  EXPECT_EQ(j["targets"][1]["measured"], false);
  EXPECT_EQ(j["targets"][1]["status"], "not run");
}

TEST(Bench, MeasureTimesWholePassesOfAMultiStepVariant) {
  // A variant that advances 16 steps a pass through memory: a pass costs 0.2 ms plus 0.04 ms a step,
  // whatever its length. Warm-ups are whole passes, and the sized runs whole multiples of 16, so the
  // rate is the steady one (0.0525 ms a step), not lowered by a short last pass.
  std::vector<int> steps_seen;
  auto run = [&](int steps) {
    steps_seen.push_back(steps);
    const int passes = (steps + 15) / 16;
    return 0.2 * passes + 0.04 * steps;
  };
  BenchPlan p;
  p.repeats = 3;
  p.step_multiple = 16;
  const BenchTiming t = bench_measure(run, p);
  ASSERT_GE(steps_seen.size(), 2u + 3u);
  EXPECT_EQ(steps_seen[0], 16);
  EXPECT_EQ(steps_seen[1], 16);
  EXPECT_EQ(t.steps % 16, 0) << t.steps;
  EXPECT_GE(t.steps, 20.0 / 0.0525);
  for (int s : steps_seen) EXPECT_EQ(s % 16, 0) << s;
  EXPECT_NEAR(t.ms_median, 0.0525, 1e-6);
  // One step a pass: as before (two one-step warm-ups).
  steps_seen.clear();
  p.step_multiple = 1;
  bench_measure(run, p);
  EXPECT_EQ(steps_seen[0], 1);
}

TEST(Bench, MeasureFillsTheRepeatForMicrosecondSteps) {
  // One step alone times 15 µs (the launch), back-to-back steps 5 µs each: sized again from a
  // sized run, up to 4000 steps (20 ms), past the old cap of 2000.
  std::vector<int> steps_seen;
  auto run = [&](int steps) {
    steps_seen.push_back(steps);
    return steps == 1 ? 0.015 : 0.005 * steps;
  };
  BenchPlan p;
  p.repeats = 3;
  const BenchTiming t = bench_measure(run, p);
  EXPECT_EQ(steps_seen.size(), 2u + 1u + 3u);  // two warm-ups, the sizing run, the repeats
  EXPECT_EQ(steps_seen[2], 1334);              // 20 ms / 15 µs
  EXPECT_EQ(t.steps, 4000);
  EXPECT_NEAR(t.ms_median, 0.005, 1e-9);
  // The CPU is sized from one step as before, at most 50 steps.
  steps_seen.clear();
  p.cpu = true;
  EXPECT_EQ(bench_measure(run, p).steps, 50);
  EXPECT_EQ(steps_seen.size(), 2u + 3u);
}

TEST(Bench, CpuRunMeasuresTheAskedVariantAndTheBaselines) {
  Options o;
  o.mode = Options::Mode::Bench;
  o.cpu = true;
  o.variants = {"cpu-lut"};
  o.bench_sizes = {{97, 0}};
  o.bench_steps = 3;
  o.bench_repeats = 3;
  LifeDemo demo;
  BenchSpec spec;
  ASSERT_TRUE(demo.bench(default_setup(demo, false), o, &spec));
  BenchSuite s = bench_run(std::move(spec), o);
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

// The rotation bench's grey line: the best variant of each case as a fraction of the fetch-only
// ceiling measured in the same run, the CPU and the ceiling itself left out.
TEST(Bench, RotationCeilingReportTakesTheBestVariantOfEachCase) {
  BenchSuite s;
  s.rows = {row("cpu", 8192, 200.0, "rotate", "grey linear"),
            row("tex-array", 8192, 0.2, "rotate", "grey linear"),
            row("tex-array-x4", 8192, 0.1, "rotate", "grey linear"),
            row("fetch-ceiling", 8192, 0.08, "rotate", "grey linear"),
            row("tex-array-x4", 8192, 0.3, "rotate", "RGBA8 linear")};
  const std::vector<std::string> lines = ceiling_report(s);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("grey linear 8192x8192: best tex-array-x4"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("= 80% of the fetch-only ceiling"), std::string::npos) << lines[0];
  s.rows[3].error = "out of memory";
  EXPECT_TRUE(ceiling_report(s).empty());
}

}  // namespace
}  // namespace gpulab

// cpu label: the ladder's arithmetic from given timings (baseline per stage, speed-ups over it and
// over the previous rung, % of peak), its CSV and its suite in the bench's terms; a demo's yardstick
// rows (not variants) listed after the rung they bound, measured or skipped with the reason.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "common/cuda_probe.h"
#include "presenter/ladder.h"

namespace gpulab::presenter {
namespace {

Rung rung(size_t stage, const char* id, bool gpu, RungState state, double ms, double pct_bw = 0,
          double pct_flops = 0) {
  Rung r;
  r.pick.stage = stage;
  r.stage_id = stage == 0 ? "histogram" : "apply";
  r.variant = id;
  r.gpu = gpu;
  r.state = state;
  r.block_label = gpu ? "256" : "-";
  r.row.ms_median = ms;
  r.row.pct_peak = pct_bw;
  r.row.pct_peak_flops = pct_flops;
  if (state != RungState::Measured) r.reason = "no CUDA device";
  return r;
}

// Why there is no GPU is said in full once; then "needs an NVIDIA GPU".
TEST(Ladder, TheNoGpuReasonIsSaidInFullOnceThenBriefly) {
  CudaStatus none;
  none.reason =
      "no NVIDIA driver: libcuda.so.1 is not installed (libcuda.so.1: cannot open shared object file)";
  none.short_reason = "no NVIDIA driver";
  EXPECT_EQ(brief_cuda_reason(none.reason, none), "needs an NVIDIA GPU");
  EXPECT_EQ(brief_cuda_reason("needs sm_90a", none), "needs sm_90a");
  EXPECT_EQ(brief_cuda_reason("", none), "");
  CudaStatus old = none;
  old.reason = "the NVIDIA driver (CUDA 11.4) is older than this build's runtime (CUDA 13.0)";
  old.short_reason = "driver too old";
  EXPECT_EQ(brief_cuda_reason(old.reason, old), "needs an NVIDIA GPU: driver too old");
  CudaStatus unbuilt = none;
  unbuilt.reason = "this gpulab was built without CUDA (no nvcc found at configure time)";
  unbuilt.short_reason = "built without CUDA";
  EXPECT_EQ(brief_cuda_reason(unbuilt.reason, unbuilt), "built without CUDA");
  CudaStatus here;
  here.available = true;
  here.reason = none.reason;
  EXPECT_EQ(brief_cuda_reason(none.reason, here), none.reason) << "a GPU is here: nothing to shorten";

  // The chart, with this machine's own status (no reason to shorten where a GPU is here; the short
  // form is this build's: a build without CUDA says so).
  const CudaStatus cs = cuda_status();
  const std::string brief = cs.available ? "" : brief_cuda_reason(cs.reason, cs);
  if (!cs.available) EXPECT_NE(brief, cs.reason);
  std::vector<Rung> rs = {
      rung(0, "cpu", false, RungState::Measured, 2.0), rung(0, "gpu-a", true, RungState::Unavailable, 0),
      rung(0, "gpu-b", true, RungState::Unavailable, 0), rung(1, "gpu-c", true, RungState::Unavailable, 0),
      rung(1, "gpu-d", true, RungState::Unavailable, 0)};
  rs[1].reason = rs[2].reason = rs[3].reason = cs.available ? "no CUDA device" : cs.reason;
  rs[4].reason = "needs sm_90a";
  const ChartData c = ladder_chart(rs, "Histogram", "CPU");
  ASSERT_EQ(c.panels.size(), 1u) << "the second stage measured nothing: no panel";
  ASSERT_EQ(c.panels[0].rungs.size(), 3u);
  EXPECT_EQ(c.panels[0].rungs[1].reason, rs[1].reason);
  EXPECT_EQ(c.panels[0].rungs[2].reason, cs.available ? rs[2].reason : brief);
  rs[3].state = RungState::Measured;  // the second stage drawn too: its rungs follow the first's
  rs[3].reason.clear();
  rs.push_back(rung(1, "gpu-e", true, RungState::Unavailable, 0));
  rs.back().reason = rs[1].reason;
  const ChartData c2 = ladder_chart(rs, "Histogram", "CPU");
  ASSERT_EQ(c2.panels.size(), 2u);
  ASSERT_EQ(c2.panels[1].rungs.size(), 3u);
  EXPECT_EQ(c2.panels[1].rungs[1].reason, "needs sm_90a");
  EXPECT_EQ(c2.panels[1].rungs[2].reason, cs.available ? rs[1].reason : brief);
}

TEST(Ladder, SpeedupsAreOverTheStagesCpuRungAndThePreviousMeasuredRung) {
  std::vector<Rung> rs = {rung(0, "cpu", false, RungState::Measured, 40.0),
                          rung(0, "naive", true, RungState::Measured, 4.0, 10),
                          rung(0, "racy", true, RungState::Failed, 0.5),
                          rung(0, "shared", true, RungState::Measured, 1.0, 40),
                          rung(1, "apply-cpu", false, RungState::Measured, 9.0),
                          rung(1, "apply-gpu", true, RungState::Measured, 3.0, 0, 25)};
  compute_ladder(rs);
  EXPECT_EQ(ladder_baseline(rs, 0), "cpu");
  EXPECT_EQ(ladder_baseline(rs, 1), "apply-cpu");
  EXPECT_DOUBLE_EQ(rs[0].speedup_vs_baseline, 1.0);
  EXPECT_DOUBLE_EQ(rs[0].speedup_vs_previous, 0.0);  // the first rung has none
  EXPECT_DOUBLE_EQ(rs[1].speedup_vs_baseline, 10.0);
  EXPECT_DOUBLE_EQ(rs[1].speedup_vs_previous, 10.0);
  // A failed rung is never charted: no speed-up, and the next rung compares with the last measured.
  EXPECT_DOUBLE_EQ(rs[2].speedup_vs_baseline, 0.0);
  EXPECT_DOUBLE_EQ(rs[3].speedup_vs_baseline, 40.0);
  EXPECT_DOUBLE_EQ(rs[3].speedup_vs_previous, 4.0);
  EXPECT_DOUBLE_EQ(rs[3].pct_peak, 40.0);
  EXPECT_EQ(rs[3].peak_label, "of DRAM bandwidth");
  // Stages do not mix: apply's speed-ups are over apply-cpu.
  EXPECT_DOUBLE_EQ(rs[5].speedup_vs_baseline, 3.0);
  EXPECT_DOUBLE_EQ(rs[5].speedup_vs_previous, 3.0);
  // FP32 is the peak where the row counts FLOPs.
  EXPECT_DOUBLE_EQ(rs[5].pct_peak, 25.0);
  EXPECT_EQ(rs[5].peak_label, "of FP32 peak");
}

TEST(Ladder, WithoutACpuRungTheFirstMeasuredRungIsTheBaseline) {
  std::vector<Rung> rs = {rung(0, "cpu", false, RungState::Unavailable, 0),
                          rung(0, "gpu-a", true, RungState::Measured, 2.0),
                          rung(0, "gpu-b", true, RungState::Measured, 0.5)};
  compute_ladder(rs);
  EXPECT_EQ(ladder_baseline(rs, 0), "gpu-a");
  EXPECT_DOUBLE_EQ(rs[2].speedup_vs_baseline, 4.0);
  EXPECT_DOUBLE_EQ(rs[0].speedup_vs_baseline, 0.0);
  EXPECT_EQ(ladder_baseline(std::vector<Rung>{rung(0, "x", true, RungState::Failed, 1)}, 0), "");
}

TEST(Ladder, CsvHasAHeaderAndOneQuotedLineARung) {
  std::vector<Rung> rs = {rung(0, "cpu", false, RungState::Measured, 40.0),
                          rung(0, "gpu", true, RungState::Unavailable, 0)};
  rs[1].reason = "no CUDA device, \"really\"";
  compute_ladder(rs);
  const std::string csv = ladder_csv(rs);
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 3u) << csv;
  EXPECT_EQ(lines[0].rfind("stage,variant,block,state,ms_per_step", 0), 0u);
  EXPECT_EQ(lines[1].rfind("histogram,cpu,-,measured,40,", 0), 0u) << lines[1];
  EXPECT_NE(lines[2].find("unavailable"), std::string::npos);
  EXPECT_NE(lines[2].find("\"no CUDA device, \"\"really\"\"\""), std::string::npos) << lines[2];
}

TEST(Ladder, TheSuiteKeepsEveryRungWithItsReasonAndSpeedups) {
  std::vector<Rung> rs = {rung(0, "cpu", false, RungState::Measured, 40.0),
                          rung(0, "gpu", true, RungState::Measured, 2.0),
                          rung(0, "gpu2", true, RungState::Unavailable, 0)};
  compute_ladder(rs);
  Context ctx;
  const BenchSuite s = ladder_suite(rs, "histeq", ctx);
  ASSERT_EQ(s.rows.size(), 3u);
  ASSERT_EQ(s.baselines.size(), 1u);
  EXPECT_EQ(s.rows[2].error, "no CUDA device");
  ASSERT_EQ(s.rows[1].speedups.size(), 1u);
  EXPECT_DOUBLE_EQ(s.rows[1].speedups[0], 20.0);
  EXPECT_NE(bench_json(s).find("\"speedup_vs_baseline\""), std::string::npos);
}

TEST(Ladder, AYardstickHasNoSpeedupAndIsNoStepOfTheChain) {
  std::vector<Rung> rs = {rung(0, "cpu", false, RungState::Measured, 40.0),
                          rung(0, "tensor", true, RungState::Measured, 4.0, 0, 50),
                          rung(0, "peak", true, RungState::Measured, 1.0, 0, 200),
                          rung(0, "wgmma", true, RungState::Measured, 2.0, 0, 100)};
  rs[2].yardstick = true;
  rs[2].lesson = "mma.sync on registers only";
  compute_ladder(rs);
  EXPECT_EQ(ladder_baseline(rs, 0), "cpu");
  EXPECT_DOUBLE_EQ(rs[2].speedup_vs_baseline, 0.0);
  EXPECT_DOUBLE_EQ(rs[2].speedup_vs_previous, 0.0);
  EXPECT_DOUBLE_EQ(rs[2].pct_peak, 200.0);  // its rate is still a figure
  EXPECT_DOUBLE_EQ(rs[3].speedup_vs_previous, 2.0) << "over the tensor rung, not the yardstick";
  EXPECT_DOUBLE_EQ(rs[3].speedup_vs_baseline, 20.0);
  // A yardstick is never a baseline, even the only measured row.
  std::vector<Rung> only = {rs[2]};
  EXPECT_EQ(ladder_baseline(only, 0), "");

  const std::string csv = ladder_csv(rs);
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[3].rfind("histogram,peak,256,measured,1,", 0), 0u) << lines[3];
  EXPECT_NE(lines[3].find(",200,of FP32 peak,,,"), std::string::npos) << "no speed-ups: " << lines[3];

  Context ctx;
  const BenchSuite s = ladder_suite(rs, "matrix", ctx);
  ASSERT_EQ(s.rows.size(), 4u);
  EXPECT_DOUBLE_EQ(s.rows[2].speedups.at(0), 0.0);
  EXPECT_DOUBLE_EQ(s.rows[3].speedups.at(0), 20.0);
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_EQ(s.notes[0],
            "peak: a yardstick, not a variant (no speed-up of its own): mma.sync on registers only");
  // Without yardsticks the suite has no such note (the existing outputs stay as they were).
  std::vector<Rung> plain = {rs[0], rs[1]};
  EXPECT_TRUE(ladder_suite(plain, "matrix", ctx).notes.empty());
}

// A demo of one stage (two CPU variants and a GPU one that cannot run here) with two yardsticks:
// one that runs, after the GPU rung it bounds, and one that cannot run here.
class YardstickDemo : public Demo {
 public:
  YardstickDemo() {
    s_.picks = default_picks(stage_tables(), false);
    bind(s_);
  }
  std::string_view name() const override { return "yard"; }
  std::string_view title() const override { return "Yardstick demo"; }
  const StageTables& stage_tables() const override {
    static const StageTables t = [] {
      StageTable s;
      s.id = "multiply";
      s.title = "multiply";
      VariantChoice cpu, gpu, lut;
      cpu.id = "cpu-naive";
      gpu.id = "gpu-tensor";
      gpu.needs_cuda = true;
      lut.id = "cpu-blocked";
      s.variants = {cpu, gpu, lut};
      StageTables out;
      out.stages = {s};
      return out;
    }();
    return t;
  }
  std::string why_unavailable(size_t, int variant) const override {
    return variant == 1 ? "no CUDA device" : "";
  }
  std::vector<Yardstick> yardsticks() const override {
    Yardstick a, b;
    a.id = "peak-runs";
    a.title = "a ceiling";
    a.lesson = "registers only";
    a.bounds = {"gpu-tensor"};
    b.id = "peak-skipped";
    b.bounds = {"nothing-listed"};
    return {a, b};
  }
  Probe yardstick_probe(const Picks&, size_t index) override {
    ++yardstick_probes;
    if (index == 1) return probe_unavailable("the tensor cores are missing here");
    return spin_probe(0.02);
  }
  Probe probe(const Picks& picks, size_t stage) override {
    const int v = picks.at(stage).variant;
    if (v == 1) return probe_unavailable("no CUDA device");
    return spin_probe(v == 0 ? 0.2 : 0.1);
  }
  std::unique_ptr<DemoParams> make_params() const override { return nullptr; }
  std::string configure(const Options&) override { return {}; }
  void attach(Context&) override {}
  void compute(Frame&) override {}
  void render(Frame&) override {}
  void ui(Frame&) override {}
  void detach() override {}
  bool open_file(const std::filesystem::path&, std::string*) override { return false; }
  std::string caption() const override { return "yard"; }
  int yardstick_probes = 0;

 private:
  // A step that takes about `ms` of host time.
  static Probe spin_probe(double ms) {
    Probe p;
    p.device = "CPU";
    p.items_per_step = 100;
    p.item_unit = "items";
    p.size = "10x10";
    p.run = [ms](int steps) {
      const auto until =
          std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(ms * steps);
      while (std::chrono::steady_clock::now() < until) {
      }
    };
    return p;
  }
  Setup s_;
};

TEST(Ladder, YardsticksAreRowsAfterTheRungTheyBoundMeasuredOrSkippedWithTheReason) {
  YardstickDemo demo;
  Context ctx;
  LadderOptions o;
  o.repeats = 1;
  LadderRun run(demo, ctx, o);
  std::vector<Rung> rs = run.rungs();
  ASSERT_EQ(rs.size(), 5u);
  const char* order[] = {"cpu-naive", "gpu-tensor", "peak-runs", "cpu-blocked", "peak-skipped"};
  for (size_t i = 0; i < rs.size(); ++i) EXPECT_EQ(rs[i].variant, order[i]) << i;
  EXPECT_TRUE(rs[2].yardstick);
  EXPECT_EQ(rs[2].pick.variant, -1) << "a yardstick is never a pick";
  EXPECT_EQ(rs[2].bounds, "gpu-tensor");
  EXPECT_EQ(rs[2].lesson, "registers only");
  run.run_here();
  EXPECT_EQ(run.error(), "");
  rs = run.rungs();
  EXPECT_EQ(demo.yardstick_probes, 2);
  EXPECT_EQ(rs[2].state, RungState::Measured);
  EXPECT_GT(rs[2].row.ms_median, 0.0);
  EXPECT_DOUBLE_EQ(rs[2].speedup_vs_baseline, 0.0);
  EXPECT_EQ(rs[4].state, RungState::Unavailable);
  EXPECT_EQ(rs[4].reason, "the tensor cores are missing here");
  EXPECT_EQ(rs[1].reason, "no CUDA device");
  EXPECT_GT(rs[3].speedup_vs_previous, 0.0);
  EXPECT_NEAR(rs[3].speedup_vs_previous, rs[0].row.ms_median / rs[3].row.ms_median, 1e-9)
      << "cpu-blocked's previous rung is cpu-naive: the yardstick between is no step";

  // The chart: the yardstick flagged with what it bounds, the skipped one there with its reason.
  const ChartData chart = ladder_chart(rs, demo.title(), "CPU");
  ASSERT_EQ(chart.panels.size(), 1u);
  EXPECT_EQ(chart.panels[0].id, "multiply");
  EXPECT_FALSE(chart.panels[0].whole_pipeline);
  const ChartRung& y = chart.panels[0].rungs[2];
  EXPECT_TRUE(y.yardstick);
  EXPECT_EQ(y.bounds, "gpu-tensor");
  EXPECT_EQ(chart.panels[0].rungs[4].state, ChartRungState::Unavailable);
  EXPECT_FALSE(chart.panels[0].rungs[0].gpu);

  // Asking for some variants leaves out the yardsticks not named.
  LadderOptions only;
  only.variants = {"cpu-naive", "peak-skipped"};
  LadderRun some(demo, ctx, only);
  const std::vector<Rung> rs2 = some.rungs();
  ASSERT_EQ(rs2.size(), 2u);
  EXPECT_EQ(rs2[1].variant, "peak-skipped");
}

}  // namespace
}  // namespace gpulab::presenter

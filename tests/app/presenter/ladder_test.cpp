// cpu label: the ladder's arithmetic from given timings (baseline per stage, speed-ups over it and
// over the previous rung, % of peak), its CSV and its suite in the bench's terms.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace gpulab::presenter

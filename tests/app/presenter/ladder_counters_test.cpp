// The counters in the ladder chart, without GL: each measured GPU rung's compact counters line from
// given counter values, laid out under its bar inside the chart (its own line where the rows have
// room, else at the end of the details line), a line kept for the window's "measure counters" button
// under every GPU rung a measure applies to, and nothing overlapping at either PNG size.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "presenter/counters_command.h"
#include "presenter/ladder.h"
#include "presenter/ladder_chart.h"

namespace gpulab::presenter {
namespace {

using cuda::Metric;

// The pick of variant `id` of `stage` (each id its own index, as a stage's table gives them).
Pick pick_of(size_t stage, const std::string& id) {
  static std::vector<std::string> ids;
  auto it = std::find(ids.begin(), ids.end(), id);
  if (it == ids.end()) it = ids.insert(ids.end(), id);
  return Pick{stage, static_cast<int>(it - ids.begin()), 0};
}

CounterRow measured_row(size_t stage, const std::string& variant, double dram_bytes, double conflicts,
                        double occ) {
  CounterRow r;
  r.pick = pick_of(stage, variant);
  r.variant = variant;
  r.gpu = true;
  r.ideal.items_per_step = 1e6;
  r.ideal.item_unit = "cell updates";
  cuda::KernelCounters k;
  k.kernel = "step";
  k[Metric::Duration] = 1e6;
  k[Metric::DramRead] = dram_bytes / 2;
  k[Metric::DramWrite] = dram_bytes / 2;
  k[Metric::BankConflicts] = conflicts;
  k[Metric::WarpsActivePct] = occ;
  r.result.kernels = {k};
  r.result.total = cuda::sum_kernels(r.result.kernels);
  return r;
}

Rung rung(size_t stage, const std::string& variant, bool gpu, RungState state, double ms) {
  Rung r;
  r.pick = pick_of(stage, variant);
  r.stage_id = "step";
  r.stage_title = "step";
  r.variant = variant;
  r.lesson = "what " + variant + " teaches, in a line";
  r.gpu = gpu;
  r.state = state;
  r.block_label = gpu ? "256" : "-";
  r.row.ms_median = ms;
  if (state == RungState::Unavailable) r.reason = "needs a CUDA device";
  return r;
}

std::string problems_of(const ChartLayout& L) {
  std::string s;
  for (const std::string& p : layout_problems(L)) s += p + "\n";
  return s;
}

TEST(LadderCounters, TheLineSaysBytesPerItemConflictsAndOccupancy) {
  EXPECT_EQ(counters_chart_line(measured_row(0, "gpu-shared", 2e6, 0, 87.4)),
            "DRAM 2.00 B/cell update \xC2\xB7 0 bank conflicts \xC2\xB7 87% occupancy");
  EXPECT_EQ(counters_chart_line(measured_row(0, "gpu-naive", 3.9e6, 1, 50)),
            "DRAM 3.90 B/cell update \xC2\xB7 1 bank conflict \xC2\xB7 50% occupancy");
  CounterRow no_items = measured_row(0, "x", 33.6e6, 1.25e6, 12);
  no_items.ideal.items_per_step = 0;
  EXPECT_EQ(counters_chart_line(no_items),
            "DRAM 33.6 MB a step \xC2\xB7 1.25e+06 bank conflicts \xC2\xB7 12% occupancy");
  CounterRow failed;
  failed.gpu = true;
  failed.unavailable = "the driver lets only administrators read the counters";
  EXPECT_EQ(counters_chart_line(failed), "counters: the driver lets only administrators read the counters");
}

// A Life-like ladder: a CPU baseline, three GPU rungs (one measured by the counters, one not yet),
// one unavailable GPU rung, and the whole pipeline's panel (stage 1 of a demo with one stage).
std::vector<Rung> ladder() {
  std::vector<Rung> rs = {rung(0, "cpu-naive", false, RungState::Measured, 400),
                          rung(0, "gpu-naive", true, RungState::Measured, 2),
                          rung(0, "gpu-shared", true, RungState::Measured, 1),
                          rung(0, "gpu-bitpacked", true, RungState::Measured, 0.2),
                          rung(0, "gpu-tex", true, RungState::Unavailable, 0),
                          rung(1, "pipeline (best)", true, RungState::Measured, 0.2)};
  rs.back().stage_id = rs.back().stage_title = "pipeline";
  compute_ladder(rs);
  return rs;
}

TEST(LadderCounters, MeasuredRungsShowTheirLineUnderTheBarAndEveryGpuRungKeepsOne) {
  const std::vector<Rung> rs = ladder();
  const std::vector<CounterRow> rows = {measured_row(0, "gpu-shared", 2e6, 0, 87),
                                        measured_row(0, "gpu-naive", 3.9e6, 12345, 60)};
  const ChartData d =
      ladder_chart(rs, "Game of Life", "NVIDIA H100 80GB HBM3", ladder_chart_counters(rows, 1));
  ASSERT_EQ(d.panels.size(), 2u);
  const ChartPanel& p = d.panels[0];
  ASSERT_EQ(p.rungs.size(), 5u);
  EXPECT_EQ(p.rungs[2].counters, counters_chart_line(rows[0]));
  EXPECT_EQ(p.rungs[1].counters, counters_chart_line(rows[1]));
  EXPECT_EQ(p.rungs[3].counters, "");  // not measured yet
  EXPECT_EQ(p.rungs[3].source, 3);
  // The slots: the measured GPU rungs of the demo's stage, not the CPU one, not the unavailable one,
  // not the whole pipeline's.
  EXPECT_FALSE(p.rungs[0].counters_slot);
  EXPECT_TRUE(p.rungs[1].counters_slot && p.rungs[2].counters_slot && p.rungs[3].counters_slot);
  EXPECT_FALSE(p.rungs[4].counters_slot);
  EXPECT_FALSE(d.panels[1].rungs[0].counters_slot);

  for (auto [w, h] : {std::pair{1920.0f, 1080.0f}, std::pair{3840.0f, 2160.0f}, std::pair{1280.0f, 720.0f}}) {
    SCOPED_TRACE(std::to_string(int(w)));
    const ChartLayout L = layout_chart(d, w, h, approximate_text_measure());
    EXPECT_EQ(problems_of(L), "");
    // What the user reads: the line of each measured rung, inside the image, under its bar and
    // inside its row (above the next rung's name).
    for (int ri : {1, 2}) {
      const TextRun* t = L.text(TextRole::Counters, 0, ri);
      ASSERT_NE(t, nullptr) << ri;
      EXPECT_EQ(t->text, p.rungs[size_t(ri)].counters);
      EXPECT_TRUE(t->box().inside({0, 0, w, h}));
      const ChartBox* bar = L.bar(0, ri);
      ASSERT_NE(bar, nullptr);
      EXPECT_GE(t->y, bar->rect.y1);
      const TextRun* next = L.text(TextRole::Name, 0, ri + 1);
      ASSERT_NE(next, nullptr);
      EXPECT_LE(t->y + t->size, next->y + 0.01f);
      EXPECT_GE(t->size, 6.0f);
    }
    EXPECT_EQ(L.text(TextRole::Counters, 0, 3), nullptr);
    // The kept lines: one a GPU rung with a slot, each under its bar.
    ASSERT_EQ(L.slots.size(), 3u);
    for (const ChartSlot& s : L.slots) {
      EXPECT_EQ(s.panel, 0);
      const ChartBox* bar = L.bar(0, s.rung);
      ASSERT_NE(bar, nullptr);
      EXPECT_GE(s.rect.y0, bar->rect.y1);
      EXPECT_GE(s.rect.height(), 6.0f);
      EXPECT_GE(s.rect.x0, bar->rect.x0 - 0.01f);
    }
  }
}

TEST(LadderCounters, ACrowdedLadderStillShowsTheCountersWithoutOverlap) {
  std::vector<Rung> rs = {rung(0, "cpu-naive", false, RungState::Measured, 400)};
  std::vector<CounterRow> rows;
  for (int i = 1; i < 16; ++i) {
    rs.push_back(rung(0, "gpu-variant-" + std::to_string(i), true, RungState::Measured, 100.0 / i));
    rows.push_back(measured_row(0, rs.back().variant, 1e6 * i, 100 * i, 40 + i));
  }
  compute_ladder(rs);
  const ChartData d =
      ladder_chart(rs, "Game of Life", "NVIDIA H100 80GB HBM3", ladder_chart_counters(rows, 1));
  for (auto [w, h] : {std::pair{1920.0f, 1080.0f}, std::pair{3840.0f, 2160.0f}}) {
    const ChartLayout L = layout_chart(d, w, h, approximate_text_measure());
    EXPECT_EQ(problems_of(L), "");
    int shown = 0;
    for (int ri = 1; ri < 16; ++ri)
      if (const TextRun* t = L.text(TextRole::Counters, 0, ri)) {
        ++shown;
        EXPECT_NE(t->text.find("occupancy"), std::string::npos) << t->text;
        EXPECT_TRUE(t->box().inside({0, 0, w, h}));
      }
    EXPECT_EQ(shown, 15) << w;
  }
}

}  // namespace
}  // namespace gpulab::presenter

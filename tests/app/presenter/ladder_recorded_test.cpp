// cpu label: figures recorded on a GPU (--results) on the speed-up ladder of a machine without one. A
// rung that cannot run here and is in the file for the same case gets the recorded time and the
// file's own speed-up (never one over a time measured here), a hatched bar and a "recorded" tag, and
// the chart (detailed and slide) names the device and date; a variant recorded at another size only,
// one not recorded, a rung left by a cancel and another demo's file change nothing; and a chart given
// no recorded figures is laid out exactly as before.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/recorded.h"
#include "presenter/ladder.h"
#include "presenter/ladder_chart.h"
#include "support/test_paths.h"

namespace gpulab::presenter {
namespace {

namespace fs = std::filesystem;

// Life's step stage on the CPU backend at 512x512, as a ladder leaves it: the CPU rungs measured, the
// GPU ones unavailable, one left by a cancel.
std::vector<Rung> life_on_the_cpu() {
  auto rung = [](const char* id, bool gpu, RungState state, double ms, const char* reason = "") {
    Rung r;
    r.pick.stage = 0;
    r.stage_id = "step";
    r.stage_title = "step";
    r.variant = id;
    r.lesson = std::string("the lesson of ") + id;
    r.gpu = gpu;
    r.state = state;
    r.reason = reason;
    r.block_label = gpu ? "16x16" : "-";
    if (state == RungState::Measured) {
      r.row.ms_median = ms;
      r.row.size = "512x512";
      r.row.items_per_s = 512.0 * 512.0 / (ms * 1e-3);
      r.row.item_unit = "cell updates";
      r.row.device = "CPU";
    }
    return r;
  };
  std::vector<Rung> rs = {rung("cpu-naive", false, RungState::Measured, 1.6),
                          rung("cpu-lut", false, RungState::Measured, 1.2),
                          rung("gpu-global", true, RungState::Unavailable, 0, "no CUDA device"),
                          rung("gpu-lut-local", true, RungState::Unavailable, 0, "cancelled"),
                          rung("gpu-shared", true, RungState::Unavailable, 0, "no CUDA device"),
                          rung("gpu-bitpacked", true, RungState::Unavailable, 0, "no CUDA device")};
  compute_ladder(rs);
  return rs;
}

RecordedResults h100() {
  std::string why;
  std::optional<RecordedResults> r =
      load_recorded_results(fs::path(GPULAB_TEST_DATA) / "results" / "life-h100.json", &why);
  EXPECT_TRUE(r) << why;
  return r ? *r : RecordedResults{};
}

// Everything a layout holds, one line each, to compare two layouts.
std::string dump(const ChartLayout& l) {
  std::ostringstream o;
  o << l.width << "x" << l.height << "\n";
  for (const ChartBox& b : l.boxes)
    o << "box " << int(b.role) << " " << int(b.colour) << " " << b.panel << " " << b.rung << " " << b.rect.x0
      << " " << b.rect.y0 << " " << b.rect.x1 << " " << b.rect.y1 << "\n";
  for (const TextRun& t : l.texts)
    o << "text " << int(t.role) << " " << int(t.colour) << " " << t.panel << " " << t.rung << " " << t.x
      << " " << t.y << " " << t.size << " " << t.text << "\n";
  for (const ChartSlot& s : l.slots) o << "slot " << s.panel << " " << s.rung << "\n";
  return o.str();
}

std::string problems_text(const ChartLayout& l) {
  std::string s;
  for (const std::string& p : layout_problems(l)) s += p + "\n";
  return s;
}

int boxes(const ChartLayout& l, BoxRole role) {
  int n = 0;
  for (const ChartBox& b : l.boxes) n += b.role == role;
  return n;
}

TEST(LadderRecorded, ARungThatCannotRunHereGetsTheFilesFiguresForTheSameCase) {
  const std::vector<Rung> rs = life_on_the_cpu();
  const ChartData live = ladder_chart(rs, "Game of Life", "CPU");
  ChartData c = live;
  ASSERT_EQ(add_recorded(c, rs, "life", h100()), 1u);
  EXPECT_EQ(c.recorded, "recorded on NVIDIA H100 80GB HBM3, 2026-11-27");
  ASSERT_EQ(c.panels.size(), 1u);
  const std::vector<ChartRung>& r = c.panels[0].rungs;
  ASSERT_EQ(r.size(), 6u);
  // gpu-global is in the file at 512x512: its time and the file's speed-up over its own cpu-naive.
  EXPECT_EQ(r[2].state, ChartRungState::Recorded);
  EXPECT_DOUBLE_EQ(r[2].ms_per_step, 0.004);
  EXPECT_DOUBLE_EQ(r[2].speedup_vs_baseline, 200.0) << "the file's speed-up, not 1.6 ms / 4 µs = 400";
  EXPECT_EQ(r[2].recorded_baseline, "cpu-naive");
  EXPECT_DOUBLE_EQ(r[2].speedup_vs_previous, 0.0) << "no chain through a time measured here";
  EXPECT_EQ(r[2].block, "256") << "the block it was recorded with";
  // Recorded at 4096x4096 only: not charted against 512x512 times, and the reason says so.
  EXPECT_EQ(r[4].state, ChartRungState::Unavailable);
  EXPECT_EQ(r[4].reason, "no CUDA device; recorded only at 4096x4096");
  // Not in the file, and a rung a cancel left (it could run here): as they were.
  EXPECT_EQ(r[5].state, ChartRungState::Unavailable);
  EXPECT_EQ(r[5].reason, "no CUDA device");
  EXPECT_EQ(r[3].state, ChartRungState::Unavailable);
  EXPECT_EQ(r[3].reason, "cancelled");
  // The rungs measured here keep their own figures, over the baseline measured here.
  for (size_t i : {0, 1}) {
    EXPECT_EQ(r[i].state, ChartRungState::Measured);
    EXPECT_DOUBLE_EQ(r[i].ms_per_step, live.panels[0].rungs[i].ms_per_step);
    EXPECT_DOUBLE_EQ(r[i].speedup_vs_baseline, live.panels[0].rungs[i].speedup_vs_baseline);
  }
  // What the ladder measured (its CSV and JSON) holds no recorded figure.
  EXPECT_EQ(ladder_csv(rs).find("0.004"), std::string::npos);
  EXPECT_EQ(ladder_csv(rs).find("H100"), std::string::npos);
}

TEST(LadderRecorded, AnotherDemosFileOrAnotherSizeChangesNothing) {
  const std::vector<Rung> rs = life_on_the_cpu();
  const ChartData live = ladder_chart(rs, "Game of Life", "CPU");
  const TextMeasure m = approximate_text_measure();
  const std::string before = dump(layout_chart(live, 1920, 1080, m));
  ChartData c = live;
  EXPECT_EQ(add_recorded(c, rs, "nbody", h100()), 0u) << "the file is life's";
  EXPECT_EQ(c.recorded, "");
  EXPECT_EQ(dump(layout_chart(c, 1920, 1080, m)), before);
  // The ladder of a 256x256 grid: gpu-global is recorded at 512x512 and 4096x4096 only.
  std::vector<Rung> small = rs;
  for (Rung& r : small)
    if (r.state == RungState::Measured) {
      r.row.size = "256x256";
      r.row.items_per_s = 256.0 * 256.0 / (r.row.ms_median * 1e-3);
    }
  ChartData s = ladder_chart(small, "Game of Life", "CPU");
  EXPECT_EQ(add_recorded(s, small, "life", h100()), 0u);
  EXPECT_EQ(s.recorded, "");
  EXPECT_EQ(s.panels[0].rungs[2].state, ChartRungState::Unavailable);
  EXPECT_EQ(s.panels[0].rungs[2].reason, "no CUDA device; recorded only at 4096x4096");
}

TEST(LadderRecorded, WhileNothingIsMeasuredYetTheCaseIsUnknownAndNothingIsAdded) {
  // The window's ladder early on: the first CPU rung failed, the next pending, the GPU ones unavailable.
  // Which size the file's rows must have is not known yet: no recorded figure, no "recorded only at".
  std::vector<Rung> rs = life_on_the_cpu();
  rs[0].state = RungState::Failed;
  rs[0].reason = "differs from the CPU reference at (3, 4)";
  rs[0].row = {};
  rs[1].state = RungState::Pending;
  rs[1].row = {};
  compute_ladder(rs);
  ChartData c = ladder_chart(rs, "Game of Life", "CPU");
  ASSERT_EQ(c.panels.size(), 1u) << "a failed rung shows the panel";
  const ChartData before = c;
  EXPECT_EQ(add_recorded(c, rs, "life", h100()), 0u);
  EXPECT_EQ(c.recorded, "");
  ASSERT_EQ(c.panels.size(), before.panels.size());
  for (size_t p = 0; p < c.panels.size(); ++p)
    for (size_t i = 0; i < c.panels[p].rungs.size(); ++i) {
      EXPECT_EQ(c.panels[p].rungs[i].state, before.panels[p].rungs[i].state);
      EXPECT_EQ(c.panels[p].rungs[i].reason, before.panels[p].rungs[i].reason);
    }
}

TEST(LadderRecorded, WithoutRecordedFiguresTheLayoutsAreAsBefore) {
  // A chart given no recorded figures has no recorded line, tag or hatched bar, and the same layout as
  // one that never heard of them (each field set as ladder_chart leaves it).
  const std::vector<Rung> rs = life_on_the_cpu();
  const ChartData live = ladder_chart(rs, "Game of Life", "CPU");
  const TextMeasure m = approximate_text_measure();
  for (const bool slide : {false, true}) {
    const ChartLayout l = slide ? layout_slide(live, 0, 1920, 1080, m) : layout_chart(live, 1920, 1080, m);
    EXPECT_EQ(boxes(l, BoxRole::Recorded), 0);
    for (const TextRun& t : l.texts) {
      EXPECT_NE(t.role, TextRole::Recorded) << t.text;
      EXPECT_EQ(t.text.find("recorded"), std::string::npos) << t.text;
    }
  }
  // A recorded-looking field left empty changes nothing either.
  ChartData c = live;
  c.recorded.clear();
  EXPECT_EQ(dump(layout_chart(c, 1920, 1080, m)), dump(layout_chart(live, 1920, 1080, m)));
  EXPECT_EQ(dump(layout_slide(c, 0, 1920, 1080, m)), dump(layout_slide(live, 0, 1920, 1080, m)));
}

TEST(LadderRecorded, TheDetailedChartHatchesTheBarTagsItAndNamesTheDevice) {
  const std::vector<Rung> rs = life_on_the_cpu();
  ChartData c = ladder_chart(rs, "Game of Life", "CPU");
  ASSERT_EQ(add_recorded(c, rs, "life", h100()), 1u);
  const TextMeasure m = approximate_text_measure();
  for (const float h : {1080.0f, 2160.0f, 540.0f}) {
    const ChartLayout l = layout_chart(c, h * 16 / 9, h, m);
    EXPECT_EQ(problems_text(l), "") << h;
    // The chart's line: where the figures come from, under the subtitle, above the panel.
    const TextRun* line = l.text(TextRole::Recorded, -1, -1);
    ASSERT_NE(line, nullptr) << h;
    EXPECT_NE(line->text.find("recorded on NVIDIA H100 80GB HBM3, 2026-11-27"), std::string::npos)
        << line->text;
    const TextRun* sub = l.text(TextRole::Subtitle);
    ASSERT_NE(sub, nullptr);
    EXPECT_GE(line->y, sub->y + sub->size) << "under the subtitle";
    const TextRun* heading = l.text(TextRole::Heading, 0, -1);
    ASSERT_NE(heading, nullptr);
    EXPECT_LE(line->y + line->size, heading->y) << "above the panel";
    // gpu-global: one hatched bar (no solid one), its time, its tag, its speed-up said as recorded.
    EXPECT_EQ(boxes(l, BoxRole::Recorded), 1) << h;
    const ChartBox* bar = l.bar(0, 2);
    ASSERT_NE(bar, nullptr) << h;
    EXPECT_EQ(bar->role, BoxRole::Recorded);
    EXPECT_EQ(boxes(l, BoxRole::Bar), 2) << "cpu-naive and cpu-lut, measured here";
    const TextRun* time = l.text(TextRole::Time, 0, 2);
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->text, "4.00 \xC2\xB5s");
    const TextRun* tag = l.text(TextRole::Recorded, 0, 2);
    ASSERT_NE(tag, nullptr) << h;
    EXPECT_EQ(tag->text, "recorded");
    EXPECT_GE(tag->x, time->x + time->width) << "after its time";
    const TextRun* x = l.text(TextRole::SpeedupBaseline, 0, 2);
    ASSERT_NE(x, nullptr) << h;
    EXPECT_EQ(x->text.rfind("\xC3\x97"
                            "200",
                            0),
              0u)
        << x->text;
    EXPECT_NE(x->text.find("(recorded)"), std::string::npos) << x->text;
    EXPECT_EQ(l.text(TextRole::SpeedupPrevious, 0, 2), nullptr) << "no ratio over a time measured here";
    // The longest bar is still cpu-naive's, the recorded one the shortest: one axis, in time.
    EXPECT_LT(bar->rect.x1, l.bar(0, 1)->rect.x1);
    // The rungs that stay unavailable have no bar.
    for (int k : {3, 4, 5}) EXPECT_EQ(l.bar(0, k), nullptr) << k;
  }
}

TEST(LadderRecorded, TheSlideShowsTheRecordedRowWithItsLabelNotInTheFootnote) {
  const std::vector<Rung> rs = life_on_the_cpu();
  ChartData c = ladder_chart(rs, "Game of Life", "CPU");
  ASSERT_EQ(add_recorded(c, rs, "life", h100()), 1u);
  const TextMeasure m = approximate_text_measure();
  for (const float h : {1080.0f, 2160.0f}) {
    const float s = h / 1080.0f;
    const ChartLayout l = layout_slide(c, 0, h * 16 / 9, h, m);
    EXPECT_EQ(problems_text(l), "") << h;
    for (const TextRun& t : l.texts) EXPECT_GE(t.size, std::floor(kSlideMinPx * s)) << t.text;
    const TextRun* line = l.text(TextRole::Recorded, 0, -1);
    ASSERT_NE(line, nullptr) << h;
    EXPECT_NE(line->text.find("recorded on NVIDIA H100 80GB HBM3, 2026-11-27"), std::string::npos)
        << line->text;
    const TextRun* legend = l.text(TextRole::Legend, 0, -1);
    ASSERT_NE(legend, nullptr);
    EXPECT_GE(line->y, legend->y + legend->size);
    // The row: a hatched bar, the big speed-up (the file's), the tag after it.
    const ChartBox* bar = l.bar(0, 2);
    ASSERT_NE(bar, nullptr);
    EXPECT_EQ(bar->role, BoxRole::Recorded);
    const TextRun* x = l.text(TextRole::SpeedupBaseline, 0, 2);
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->text,
              "\xC3\x97"
              "200");
    EXPECT_GE(x->size * kCapHeightPerPx, 28.0f * s) << "the largest label, as the measured rows'";
    const TextRun* tag = l.text(TextRole::Recorded, 0, 2);
    ASSERT_NE(tag, nullptr);
    EXPECT_EQ(tag->text, "recorded");
    EXPECT_GE(tag->x, x->x + x->width);
    // The footnote names the rows that still cannot run, not the recorded one.
    std::string foot;
    for (const TextRun& t : l.texts)
      if (t.role == TextRole::Footnote) foot += t.text + " ";
    EXPECT_NE(foot.find("gpu-bitpacked"), std::string::npos) << foot;
    EXPECT_NE(foot.find("recorded only at 4096x4096"), std::string::npos) << foot;
    EXPECT_EQ(foot.find("gpu-global"), std::string::npos) << foot;
  }
}

}  // namespace
}  // namespace gpulab::presenter

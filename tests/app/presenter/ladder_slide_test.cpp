// The ladder's slide style, without GL: the speed-up is the largest label with a cap height of at
// least 28 px at 1080 lines (from the layout's pixel sizes and DejaVu Sans Bold's cap height), the axis
// is titled and ticked at 1, 2 and 5 times powers of ten, the rows that cannot run fold into one
// footnote, a yardstick row is outlined with no speed-up, nothing is smaller than the slide's floor,
// the colours are Okabe-Ito with enough contrast; and the detailed chart's smallest text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "presenter/ladder_chart.h"

namespace gpulab::presenter {
namespace {

ChartRung measured(const std::string& name, double ms, double base_ms, bool gpu = true) {
  ChartRung r;
  r.name = name;
  r.lesson = "a lesson line that the slide leaves out";
  r.block = gpu ? "32x8" : "-";
  r.gpu = gpu;
  r.ms_per_step = ms;
  r.speedup_vs_baseline = base_ms / ms;
  return r;
}

ChartRung unavailable(const std::string& name, const std::string& reason) {
  ChartRung r;
  r.name = name;
  r.state = ChartRungState::Unavailable;
  r.reason = reason;
  return r;
}

// Life on an H100 as the ladder charts it, with two rungs that cannot run here.
ChartData life_slide() {
  ChartData d;
  d.title = "Game of Life";
  d.input = "16384x16384, B3/S23, density 0.25";
  d.device = "NVIDIA H100 80GB HBM3";
  d.date = "2026-11-27";
  ChartPanel p;
  p.id = "step";
  p.title = "generation";
  p.baseline = "cpu-naive";
  p.per = "per generation";  // the HUD's words for a step of Life
  const double base = 41000;
  p.rungs = {measured("cpu-naive", base, base, false), measured("cpu-lut", 22000, base, false),
             measured("gpu-global", 9.1, base),        measured("gpu-lut-local", 14.2, base),
             measured("gpu-shared", 4.2, base),        unavailable("gpu-swar", "no CUDA device"),
             measured("gpu-bitpacked", 0.21, base),    unavailable("gpu-bit-multistep", "too slow here")};
  d.panels.push_back(p);
  return d;
}

bool is_125(double v) {
  const double m = v / std::pow(10.0, std::floor(std::log10(v) + 1e-9));
  return std::abs(m - 1) < 1e-6 || std::abs(m - 2) < 1e-6 || std::abs(m - 5) < 1e-6;
}

std::string problems_text(const ChartLayout& l) {
  std::string s;
  for (const std::string& p : layout_problems(l)) s += p + "\n";
  return s;
}

TEST(LadderSlide, TheSpeedupIsTheLargestLabelAt28PxCapHeight) {
  const TextMeasure measure = approximate_text_measure();
  for (float h : {1080.0f, 2160.0f}) {
    const float s = h / 1080.0f;
    const ChartLayout l = layout_slide(life_slide(), 0, h * 16 / 9, h, measure);
    EXPECT_EQ(problems_text(l), "") << h;
    int speedups = 0;
    float largest_other = 0;
    for (const TextRun& t : l.texts) {
      EXPECT_GE(t.size, std::floor(kSlideMinPx * s)) << "\"" << t.text << "\" at " << h;
      if (t.role == TextRole::SpeedupBaseline && t.text.rfind("\xC3\x97", 0) == 0) {
        ++speedups;
        EXPECT_GE(t.size * kCapHeightPerPx, 28.0f * s) << t.text << " at " << h;
      } else {
        largest_other = std::max(largest_other, t.size);
      }
    }
    EXPECT_EQ(speedups, 5) << "every measured rung but the baseline has its speed-up";
    const TextRun* sp = l.text(TextRole::SpeedupBaseline, 0, 6);  // gpu-bitpacked
    ASSERT_NE(sp, nullptr);
    EXPECT_EQ(sp->text,
              "\xC3\x97"
              "195,238");
    EXPECT_GT(sp->size, largest_other) << "the speed-up is the largest label";
    // The baseline says it is the baseline, with no speed-up of its own.
    const TextRun* base = l.text(TextRole::SpeedupBaseline, 0, 0);
    ASSERT_NE(base, nullptr);
    EXPECT_EQ(base->text, "baseline");
    // Name, bar and speed-up of a rung share its row; the speed-up follows the bar's end.
    const ChartBox* bar = l.bar(0, 6);
    const TextRun* name = l.text(TextRole::Name, 0, 6);
    ASSERT_NE(bar, nullptr);
    ASSERT_NE(name, nullptr);
    EXPECT_LT(name->x + name->width, bar->rect.x0);
    EXPECT_GE(sp->x, bar->rect.x1);
    const float mid = (bar->rect.y0 + bar->rect.y1) * 0.5f;
    EXPECT_NEAR(sp->y + sp->size * 0.5f, mid, 1.0f);
    EXPECT_NEAR(name->y + name->size * 0.5f, mid, 1.0f);
    // No lesson lines on a stage's slide.
    EXPECT_EQ(l.text(TextRole::Lesson, 0, 2), nullptr);
  }
}

TEST(LadderSlide, FourteenRowsFitAndTheWindowsStripLeavesTheTypeAsLarge) {
  // The matrix multiply on an H100: twelve rungs and two yardsticks, every one a row of its own.
  ChartData d = life_slide();
  d.panels[0].rungs.clear();
  for (int i = 0; i < 14; ++i)
    d.panels[0].rungs.push_back(measured("gemm-rung-" + std::to_string(i), 9000.0 / (1 << i), 9000));
  const TextMeasure measure = approximate_text_measure();
  const ChartLayout l = layout_slide(d, 0, 1920, 1080, measure);
  EXPECT_EQ(problems_text(l), "");
  for (int i = 0; i < 14; ++i) EXPECT_NE(l.text(TextRole::Name, 0, i), nullptr) << i;
  // The window draws the slide under its strip (88 px at UI scale 2) with the type of a 1080-line screen.
  const ChartLayout w = layout_slide(life_slide(), 0, 1920, 1080 - 88, measure, 1080);
  EXPECT_EQ(problems_text(w), "");
  int speedups = 0;
  for (const TextRun& t : w.texts)
    if (t.role == TextRole::SpeedupBaseline && t.text.rfind("\xC3\x97", 0) == 0) {
      ++speedups;
      EXPECT_GE(t.size * kCapHeightPerPx, 28.0f) << t.text;
    }
  EXPECT_EQ(speedups, 5);
}

TEST(LadderSlide, TheAxisIsTitledAndTickedAtOneTwoFive) {
  const ChartLayout l = layout_slide(life_slide(), 0, 1920, 1080, approximate_text_measure());
  ASSERT_GE(l.ticks_ms.size(), 3u);
  for (size_t i = 0; i < l.ticks_ms.size(); ++i) {
    EXPECT_TRUE(is_125(l.ticks_ms[i])) << l.ticks_ms[i];
    if (i) {
      EXPECT_GT(l.ticks_ms[i], l.ticks_ms[i - 1]);
    }
  }
  // The axis covers every time: 0.21 ms to 41 s.
  EXPECT_LE(l.ticks_ms.front(), 0.21 / 1.5);
  EXPECT_GE(l.ticks_ms.back(), 41000.0);
  const TextRun* title = l.text(TextRole::AxisTitle, 0);
  ASSERT_NE(title, nullptr);
  EXPECT_EQ(title->text, "time per generation (log scale)");
  const TextRun* legend = l.text(TextRole::Legend, 0);
  ASSERT_NE(legend, nullptr);
  EXPECT_EQ(legend->text.rfind("bar: time per generation ", 0), 0u) << legend->text;
  // Six decades: the labels are the powers of ten (the 2s and 5s are grid lines only).
  std::vector<std::string> labels;
  for (const TextRun& t : l.texts)
    if (t.role == TextRole::Tick) labels.push_back(t.text);
  ASSERT_GE(labels.size(), 4u);
  for (const std::string& lab : labels) EXPECT_EQ(lab[0], '1') << lab;
  EXPECT_NE(std::find(labels.begin(), labels.end(), "1 ms"), labels.end());
  EXPECT_NE(std::find(labels.begin(), labels.end(), "1 s"), labels.end());

  // A narrow range labels its 2s and 5s too.
  ChartData narrow = life_slide();
  narrow.panels[0].rungs = {measured("cpu", 9.0, 9.0, false), measured("gpu-a", 3.1, 9.0),
                            measured("gpu-b", 1.3, 9.0)};
  const ChartLayout n = layout_slide(narrow, 0, 1920, 1080, approximate_text_measure());
  std::vector<std::string> nl;
  for (const TextRun& t : n.texts)
    if (t.role == TextRole::Tick) nl.push_back(t.text);
  EXPECT_EQ(nl, (std::vector<std::string>{"500 \xC2\xB5s", "1 ms", "2 ms", "5 ms", "10 ms"}));
  EXPECT_EQ(n.ticks_ms, (std::vector<double>{0.5, 1, 2, 5, 10}));

  EXPECT_EQ(ticks_125(0.013, 0.8), (std::vector<double>{0.02, 0.05, 0.1, 0.2, 0.5}));
  EXPECT_EQ(ticks_125(1, 1), (std::vector<double>{1}));
  EXPECT_TRUE(ticks_125(0, 5).empty());
  EXPECT_EQ(format_tick_ms(0.02), "20 \xC2\xB5s");
  EXPECT_EQ(format_tick_ms(0.0005), "500 ns");
  EXPECT_EQ(format_tick_ms(2000), "2 s");
  EXPECT_EQ(format_tick_ms(5), "5 ms");
}

TEST(LadderSlide, RowsThatCannotRunFoldIntoOneFootnote) {
  const ChartData d = life_slide();
  EXPECT_EQ(slide_footnote(d.panels[0]),
            "Not run here: gpu-swar (no CUDA device); gpu-bit-multistep (too slow here)");
  ChartPanel gpu_less = d.panels[0];
  for (size_t i = 2; i < gpu_less.rungs.size(); ++i)
    gpu_less.rungs[i] = unavailable(gpu_less.rungs[i].name, "no CUDA device");
  EXPECT_EQ(
      slide_footnote(gpu_less),
      "Not run here: gpu-global, gpu-lut-local, gpu-shared, gpu-swar, gpu-bitpacked, gpu-bit-multistep (no "
      "CUDA device)");
  EXPECT_EQ(slide_footnote(ChartPanel{}), "");

  const ChartLayout l = layout_slide(d, 0, 1920, 1080, approximate_text_measure());
  // The unavailable rungs have no row: no name, no bar, no message.
  for (int r : {5, 7}) {
    for (const TextRun& t : l.texts) EXPECT_NE(t.rung, r) << t.text;
    EXPECT_EQ(l.bar(0, r), nullptr);
  }
  std::string foot;
  float foot_top = 1e9f;
  for (const TextRun& t : l.texts)
    if (t.role == TextRole::Footnote) {
      foot += (foot.empty() ? "" : " ") + t.text;
      foot_top = std::min(foot_top, t.y);
    }
  EXPECT_EQ(foot, slide_footnote(d.panels[0]));
  // Under everything else: the axis title is above it.
  EXPECT_LT(l.text(TextRole::AxisTitle, 0)->y, foot_top);

  // More rows than fit at the speed-up's size: the rest join the footnote, the speed-ups keep their size.
  ChartData many = d;
  many.panels[0].rungs.clear();
  for (int i = 0; i < 24; ++i)
    many.panels[0].rungs.push_back(measured("gpu-rung-" + std::to_string(i), 100.0 / (i + 1), 100.0));
  const ChartLayout m = layout_slide(many, 0, 1920, 1080, approximate_text_measure());
  EXPECT_EQ(problems_text(m), "");
  int rows = 0;
  for (const TextRun& t : m.texts)
    if (t.role == TextRole::Name) ++rows;
  EXPECT_GT(rows, 6);
  EXPECT_LT(rows, 24);
  std::string mfoot;
  for (const TextRun& t : m.texts)
    if (t.role == TextRole::Footnote) mfoot += t.text;
  EXPECT_NE(mfoot.find("not shown (no room): gpu-rung-"), std::string::npos) << mfoot;
  for (const TextRun& t : m.texts) {
    if (t.role == TextRole::SpeedupBaseline) {
      EXPECT_GE(t.size * kCapHeightPerPx, 28.0f);
    }
  }
}

TEST(LadderSlide, AYardstickIsOutlinedWithNoSpeedupOfItsOwn) {
  ChartData d;
  d.title = "Matrix transpose and multiply";
  ChartPanel p;
  p.id = "multiply";
  p.title = "multiply";
  p.baseline = "gemm-cpu";
  p.rungs = {measured("gemm-cpu", 900, 900, false), measured("gemm-tensor-bf16", 0.5, 900)};
  ChartRung y = measured("mma-sync-peak-bf16", 0.22, 900);
  y.yardstick = true;
  y.speedup_vs_baseline = 0;
  y.bounds = "gemm-tensor-bf16";
  y.block = "-";
  p.rungs.push_back(y);
  p.rungs.push_back(unavailable("mma-sync-peak-tf32", "no CUDA device"));
  p.rungs.back().yardstick = true;
  d.panels.push_back(p);
  for (bool slide : {true, false}) {
    SCOPED_TRACE(slide ? "slide" : "detailed");
    const ChartLayout l = slide ? layout_slide(d, 0, 1920, 1080, approximate_text_measure())
                                : layout_chart(d, 1920, 1080, approximate_text_measure());
    EXPECT_EQ(problems_text(l), "");
    EXPECT_EQ(l.bar(0, 2), nullptr) << "a yardstick is not a bar";
    int outlines = 0;
    for (const ChartBox& b : l.boxes)
      if (b.role == BoxRole::Yardstick) {
        ++outlines;
        EXPECT_EQ(b.rung, 2);
        EXPECT_EQ(b.colour, ChartColour::Yardstick);
        // As long as its time says: shorter than the bf16 rung's bar, which it bounds.
        EXPECT_LT(b.rect.x1, l.bar(0, 1)->rect.x1);
      }
    EXPECT_EQ(outlines, 1);
    EXPECT_EQ(l.text(TextRole::SpeedupBaseline, 0, 2), nullptr);
    EXPECT_EQ(l.text(TextRole::SpeedupPrevious, 0, 2), nullptr);
    const TextRun* name = l.text(TextRole::Name, 0, 2);
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(name->colour, ChartColour::Yardstick);
    const TextRun* tag = l.text(TextRole::Message, 0, 2);
    ASSERT_NE(tag, nullptr);
    EXPECT_EQ(tag->text.rfind("yardstick", 0), 0u) << tag->text;
    EXPECT_EQ(tag->colour, ChartColour::Yardstick);
  }
  const ChartLayout l = layout_slide(d, 0, 1920, 1080, approximate_text_measure());
  std::string foot;
  for (const TextRun& t : l.texts)
    if (t.role == TextRole::Footnote) foot += t.text;
  EXPECT_EQ(foot, "Not run here: mma-sync-peak-tf32 (no CUDA device)");
  const TextRun* what = l.text(TextRole::Lesson, 0, 2);
  ASSERT_NE(what, nullptr);
  EXPECT_EQ(what->text, "the ceiling of gemm-tensor-bf16");
}

TEST(LadderSlide, APipelineDemoShowsItsWholePipelineFirstAndEachStageOnRequest) {
  ChartData d;
  d.title = "Histogram equalization";
  const char* stages[] = {"histogram", "scan", "reduce", "apply"};
  for (const char* id : stages) {
    ChartPanel p;
    p.id = id;
    p.title = id;
    p.baseline = std::string(id) + "-cpu";
    p.rungs.push_back(measured(p.baseline, 2.0, 2.0, false));
    for (int i = 0; i < 10; ++i)
      p.rungs.push_back(measured(std::string(id) + "-gpu-variant-" + std::to_string(i), 0.5 / (i + 1), 2.0));
    d.panels.push_back(p);
  }
  ChartPanel whole;
  whole.id = "pipeline";
  whole.title = "whole pipeline";
  whole.whole_pipeline = true;
  whole.baseline = "pipeline-cpu";
  whole.rungs = {measured("pipeline-cpu", 3.1, 3.1, false), measured("pipeline-best", 0.105, 3.1)};
  whole.rungs[0].lesson = "each stage's CPU variant, one after the other";
  whole.rungs[1].lesson = "hist-fused-scan 1024 \xE2\x86\x92 apply-shared 256";
  d.panels.push_back(whole);
  EXPECT_EQ(default_slide_panel(d), 4);
  EXPECT_EQ(default_slide_panel(ChartData{}), -1);
  d.panels[4].whole_pipeline = false;
  EXPECT_EQ(default_slide_panel(d), 0);
  d.panels[4].whole_pipeline = true;

  for (int panel = 0; panel < 5; ++panel) {
    SCOPED_TRACE(panel);
    const ChartLayout l = layout_slide(d, panel, 1920, 1080, approximate_text_measure());
    EXPECT_EQ(problems_text(l), "");
    for (const TextRun& t : l.texts) EXPECT_GE(t.size, kSlideMinPx) << t.text;
    EXPECT_NE(l.text(TextRole::Title)->text.find(d.panels[size_t(panel)].title), std::string::npos);
  }
  // The pipeline's slide says what ran, under the row's name, legibly.
  const ChartLayout l = layout_slide(d, 4, 1920, 1080, approximate_text_measure());
  const TextRun* ran = l.text(TextRole::Lesson, 4, 1);
  ASSERT_NE(ran, nullptr);
  EXPECT_EQ(ran->text, "hist-fused-scan 1024 \xE2\x86\x92 apply-shared 256");
  EXPECT_GE(ran->size, 24.0f);
  EXPECT_EQ(l.text(TextRole::SpeedupBaseline, 4, 1)->text,
            "\xC3\x97"
            "29.5");
}

TEST(LadderChartLayout, TheDetailedChartDrawsNoTextUnderNinePixels) {
  // Histogram equalization's detailed chart: five panels of up to eleven rungs with long lessons,
  // where descriptions came out at 5 to 7 px.
  ChartData d;
  d.title = "Histogram equalization";
  for (int p = 0; p < 5; ++p) {
    ChartPanel panel;
    panel.title = "stage " + std::to_string(p);
    panel.baseline = "cpu";
    panel.rungs.push_back(measured("cpu", 2.0, 2.0, false));
    for (int i = 0; i < 10; ++i) {
      panel.rungs.push_back(measured("gpu-variant-" + std::to_string(i), 0.5 / (i + 1), 2.0));
      panel.rungs.back().lesson =
          "privatisation down to the lane: 256 byte counters per lane in its own shared-memory bank";
    }
    d.panels.push_back(panel);
  }
  for (float h : {1080.0f, 2160.0f}) {
    const ChartLayout l = layout_chart(d, h * 16 / 9, h, approximate_text_measure());
    EXPECT_EQ(problems_text(l), "");
    for (const TextRun& t : l.texts) EXPECT_GE(t.size, std::floor(9 * h / 1080)) << t.text;
  }
}

TEST(LadderChartFormat, ColoursAreOkabeItoAndStandOutFromTheBackground) {
  auto in_palette = [](Rgba c) {
    return std::find(std::begin(okabe_ito::kAll), std::end(okabe_ito::kAll), c) != std::end(okabe_ito::kAll);
  };
  for (const ChartTheme& t : {ChartTheme::dark(), ChartTheme::light(), ChartTheme::projector()}) {
    const Rgba bg = t[ChartColour::Background];
    for (ChartColour c : {ChartColour::Bar, ChartColour::Speedup, ChartColour::Slowdown, ChartColour::Failed,
                          ChartColour::Yardstick}) {
      EXPECT_TRUE(in_palette(t[c])) << int(c);
      EXPECT_GE(contrast_ratio(t[c], bg), 3.0) << int(c);  // large text and graphics (WCAG 2)
    }
    for (ChartColour c : {ChartColour::Title, ChartColour::Text, ChartColour::Dim})
      EXPECT_GE(contrast_ratio(t[c], bg), 4.5) << int(c);  // body text
    // A yardstick never looks like a rung's bar, a failure never like a speed-up.
    EXPECT_NE(t[ChartColour::Yardstick], t[ChartColour::Bar]);
    EXPECT_NE(t[ChartColour::Failed], t[ChartColour::Speedup]);
    EXPECT_NE(t[ChartColour::Failed], t[ChartColour::Bar]);
  }
  EXPECT_EQ(ChartTheme::projector()[ChartColour::Background], (Rgba{0, 0, 0, 255}));
  EXPECT_EQ(ChartTheme::light()[ChartColour::Background], (Rgba{255, 255, 255, 255}));
  EXPECT_NEAR(contrast_ratio({0, 0, 0, 255}, {255, 255, 255, 255}), 21.0, 1e-9);
  EXPECT_NEAR(contrast_ratio({10, 20, 30, 255}, {10, 20, 30, 255}), 1.0, 1e-9);
}

}  // namespace
}  // namespace gpulab::presenter

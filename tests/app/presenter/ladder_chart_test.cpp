// The ladder chart's layout, without GL: labels never overlap or leave the image at both PNG sizes,
// for 2 to 12 rungs, long names and lessons, 1 and 4 panels; bars follow the log axis; failed and
// unavailable rungs have no bar; the speed-ups are written where they exist.
#include "presenter/ladder_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace gpulab::presenter {
namespace {

std::string repeat_to(const std::string& word, size_t length) {
  std::string s;
  while (s.size() < length) s += (s.empty() ? "" : " ") + word;
  return s.substr(0, length);
}

// A ladder like the Life demo's: a slow CPU baseline, each rung faster (one slower, as the local-
// memory lookup table is), one failed and one unavailable rung where there are enough rungs.
ChartPanel make_panel(const std::string& title, size_t rungs, size_t name_len, size_t lesson_len) {
  ChartPanel p;
  p.title = title;
  p.baseline = "cpu-naive";
  double ms = 4000, base = 4000, prev = 0;
  for (size_t i = 0; i < rungs; ++i) {
    ChartRung r;
    r.name =
        i == 0 ? "cpu-naive" : repeat_to("gpu-variant-" + std::to_string(i), std::max<size_t>(name_len, 6));
    r.lesson = repeat_to("shared-memory tile: each cell loaded once per block", lesson_len);
    r.block = i == 0 ? "-" : "32x8";
    if (i == 3 && rungs >= 5) {
      r.state = ChartRungState::Failed;
      r.reason = "differs from the CPU reference at (3, 4)";
      r.ms_per_step = 2.5;
    } else if (i == 4 && rungs >= 6) {
      r.state = ChartRungState::Unavailable;
      r.reason = "too slow for the CPU at 16384x16384";
    } else {
      r.ms_per_step = ms;
      r.speedup_vs_baseline = i == 0 ? 1.0 : base / ms;
      r.speedup_vs_previous = prev > 0 ? prev / ms : 0;
      r.pct_peak = i == 0 ? 0 : 7.5 * double(i);
      r.peak_label = "of DRAM bandwidth";
      if (i == 1) r.note = "measured at 2048x2048: the CPU at full size takes 40 s";
      prev = ms;
    }
    ms = (i == 5) ? ms * 1.7 : ms / (3.0 + double(i % 4));  // rung 6 is slower than rung 5
    p.rungs.push_back(r);
  }
  return p;
}

ChartData make_chart(size_t panels, size_t rungs, size_t name_len = 10, size_t lesson_len = 50) {
  ChartData d;
  d.title = "Game of Life";
  d.input = "16384x16384, B3/S23, density 0.25";
  d.device = "NVIDIA H100 80GB HBM3";
  d.date = "2026-11-25";
  const char* titles[] = {"histogram", "scan", "apply", "whole pipeline", "reduce"};
  for (size_t i = 0; i < panels; ++i)
    d.panels.push_back(make_panel(panels == 1 ? "step" : titles[i % 5], rungs, name_len, lesson_len));
  return d;
}

std::string problems_text(const ChartLayout& l) {
  std::string s;
  for (const std::string& p : layout_problems(l)) s += p + "\n";
  return s;
}

TEST(LadderChartLayout, LabelsNeverOverlapOrLeaveTheImage) {
  const TextMeasure measure = approximate_text_measure();
  int layouts = 0;
  for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}})
    for (size_t panels : {1, 4})
      for (size_t rungs = 2; rungs <= 12; ++rungs)
        for (size_t name_len : {9, 40})
          for (size_t lesson_len : {20, 100}) {
            const ChartData d = make_chart(panels, rungs, name_len, lesson_len);
            const ChartLayout l = layout_chart(d, float(w), float(h), measure);
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + ", " + std::to_string(panels) +
                         " panels, " + std::to_string(rungs) + " rungs, names " + std::to_string(name_len) +
                         ", lessons " + std::to_string(lesson_len));
            ASSERT_EQ(problems_text(l), "");
            for (size_t p = 0; p < panels; ++p)
              for (size_t r = 0; r < rungs; ++r) {
                const TextRun* name = l.text(TextRole::Name, int(p), int(r));
                ASSERT_NE(name, nullptr) << "panel " << p << " rung " << r << " has no name";
                EXPECT_GE(name->size, 9.0f * float(h) / 1080.0f);
                EXPECT_NE(l.text(TextRole::Lesson, int(p), int(r)), nullptr)
                    << "rung " << r << " lost its lesson";
              }
            ++layouts;
          }
  EXPECT_EQ(layouts, 2 * 2 * 11 * 2 * 2);
}

TEST(LadderChartLayout, ReadableFromTheBackOfTheHall) {
  const TextMeasure measure = approximate_text_measure();
  for (size_t rungs = 2; rungs <= 8; ++rungs) {
    const ChartLayout l = layout_chart(make_chart(1, rungs), 1920, 1080, measure);
    for (size_t r = 0; r < rungs; ++r) {
      const TextRun* name = l.text(TextRole::Name, 0, int(r));
      ASSERT_NE(name, nullptr);
      EXPECT_GE(name->size, 28.0f) << rungs << " rungs, rung " << r;
    }
    const TextRun* title = l.text(TextRole::Title);
    ASSERT_NE(title, nullptr);
    EXPECT_EQ(title->text, "Game of Life");
    EXPECT_GE(title->size, 40.0f);
  }
  // The same chart at 4K is the 1080p one at twice the size.
  const ChartLayout hd = layout_chart(make_chart(1, 8), 1920, 1080, measure);
  const ChartLayout uhd = layout_chart(make_chart(1, 8), 3840, 2160, measure);
  EXPECT_NEAR(uhd.text(TextRole::Name, 0, 0)->size, 2 * hd.text(TextRole::Name, 0, 0)->size, 1.0f);
}

// A library's rung (CUB, Thrust, cuBLAS) is tagged "library" after its time, on the window's chart and on
// the slide, so the class sees which rungs are not ours; our rungs carry no tag, and nothing overlaps.
TEST(LadderChartLayout, ALibraryRungIsTaggedAfterItsTime) {
  const TextMeasure measure = approximate_text_measure();
  ChartData d = make_chart(1, 4);
  d.panels[0].rungs[2].library = true;
  d.panels[0].rungs[2].name = "hist-thrust-sort";
  for (bool slide : {false, true}) {
    SCOPED_TRACE(slide ? "slide" : "chart");
    const ChartLayout l =
        slide ? layout_slide(d, 0, 1920, 1080, measure) : layout_chart(d, 1920, 1080, measure);
    ASSERT_EQ(problems_text(l), "");
    const TextRun* tag = l.text(TextRole::Library, 0, 2);
    ASSERT_NE(tag, nullptr);
    EXPECT_EQ(tag->text, "library");
    const TextRun* time = l.text(TextRole::Time, 0, 2);
    ASSERT_NE(time, nullptr);
    EXPECT_GE(tag->x, time->x + time->width) << "the tag comes after the time";
    EXPECT_NEAR(tag->y + tag->size * 0.5f, time->y + time->size * 0.5f, 1.0f) << "on the time's line";
    for (int r : {0, 1, 3}) EXPECT_EQ(l.text(TextRole::Library, 0, r), nullptr) << "rung " << r;
  }
}

TEST(LadderChartLayout, LongTextIsElidedWithinItsColumn) {
  ChartData d = make_chart(1, 4, 40, 100);
  d.panels[0].rungs[1].name = std::string(200, 'W');
  d.panels[0].rungs[1].lesson = std::string(300, 'm');
  d.title = std::string(300, 'T');
  const ChartLayout l = layout_chart(d, 1920, 1080, approximate_text_measure());
  EXPECT_EQ(problems_text(l), "");
  const TextRun* name = l.text(TextRole::Name, 0, 1);
  ASSERT_NE(name, nullptr);
  EXPECT_LT(name->text.size(), 200u);
  EXPECT_EQ(name->text.substr(name->text.size() - 3), "\xE2\x80\xA6");
  const TextRun* title = l.text(TextRole::Title);
  ASSERT_NE(title, nullptr);
  EXPECT_EQ(title->text.substr(title->text.size() - 3), "\xE2\x80\xA6");
  EXPECT_LE(title->x + title->width, 1920.0f);
}

TEST(LadderChartLayout, BarsFollowTheLogAxis) {
  ChartPanel p;
  p.title = "step";
  p.baseline = "a";
  const double times[] = {3000, 0.004, 12, 12, 0.5, 80, 0.02, 7e-4};
  for (size_t i = 0; i < std::size(times); ++i) {
    ChartRung r;
    r.name = std::string(1, char('a' + i));
    r.ms_per_step = times[i];
    p.rungs.push_back(r);
  }
  ChartData d;
  d.title = "x";
  d.panels = {p};
  for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) {
    const ChartLayout l = layout_chart(d, float(w), float(h), approximate_text_measure());
    EXPECT_EQ(problems_text(l), "");
    const ChartBox* first = l.bar(0, 0);
    ASSERT_NE(first, nullptr);
    for (size_t i = 0; i < std::size(times); ++i) {
      const ChartBox* a = l.bar(0, int(i));
      ASSERT_NE(a, nullptr) << i;
      EXPECT_FLOAT_EQ(a->rect.x0, first->rect.x0) << "bars start on one axis";
      EXPECT_GT(a->rect.width(), 0.0f);
      for (size_t j = 0; j < std::size(times); ++j) {
        const ChartBox* b = l.bar(0, int(j));
        if (times[i] < times[j]) {
          EXPECT_LT(a->rect.width(), b->rect.width()) << i << " vs " << j;
        } else if (times[i] == times[j]) {
          EXPECT_FLOAT_EQ(a->rect.width(), b->rect.width());
        }
      }
    }
    // Log scale: equal time ratios make equal length differences (12 ms / 0.004 ms vs 0.02 / 7e-4...).
    auto end = [&](int i) { return l.bar(0, i)->rect.x1; };
    const float per_decade = (end(0) - end(1)) / float(std::log10(3000 / 0.004));
    EXPECT_NEAR(end(5) - end(4), per_decade * float(std::log10(80 / 0.5)), 0.5f);
    EXPECT_NEAR(end(6) - end(7), per_decade * float(std::log10(0.02 / 7e-4)), 0.5f);
    // Ticks at decades: a labelled 1 µs and 1 s, whose grid lines lie where those times would end.
    bool us = false, s = false;
    for (const TextRun& t : l.texts) {
      if (t.role != TextRole::Tick) continue;
      us |= t.text == "1 \xC2\xB5s";
      s |= t.text == "1 s";
    }
    EXPECT_TRUE(us);
    EXPECT_TRUE(s);
    const float x_1ms = end(2) - per_decade * float(std::log10(12.0));
    bool grid_at_1ms = false;
    for (const ChartBox& b : l.boxes)
      if (b.role == BoxRole::Grid && std::abs((b.rect.x0 + b.rect.x1) / 2 - x_1ms) < 0.5f) grid_at_1ms = true;
    EXPECT_TRUE(grid_at_1ms);
  }
}

TEST(LadderChartLayout, FailedAndUnavailableRungsHaveNoBar) {
  const ChartData d = make_chart(1, 8);
  const ChartLayout l = layout_chart(d, 1920, 1080, approximate_text_measure());
  ASSERT_EQ(problems_text(l), "");
  ASSERT_EQ(d.panels[0].rungs[3].state, ChartRungState::Failed);
  ASSERT_EQ(d.panels[0].rungs[4].state, ChartRungState::Unavailable);
  EXPECT_EQ(l.bar(0, 3), nullptr) << "a failed rung is never charted, though it has a time";
  EXPECT_EQ(l.bar(0, 4), nullptr);
  bool tag = false;
  for (const ChartBox& b : l.boxes) {
    if (b.role == BoxRole::FailedTag) {
      EXPECT_EQ(b.rung, 3);
      EXPECT_EQ(b.colour, ChartColour::Failed);
      tag = true;
    }
    if (b.role == BoxRole::Bar) {
      EXPECT_NE(b.rung, 3);
      EXPECT_NE(b.rung, 4);
      EXPECT_EQ(b.colour, ChartColour::Bar);
    }
  }
  EXPECT_TRUE(tag);
  const TextRun* failed = l.text(TextRole::Reason, 0, 3);
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->text, "differs from the CPU reference at (3, 4)");
  EXPECT_EQ(failed->colour, ChartColour::Failed);
  EXPECT_EQ(l.text(TextRole::Name, 0, 3)->colour, ChartColour::Failed);
  ASSERT_NE(l.text(TextRole::FailedTag, 0, 3), nullptr);
  const TextRun* unavailable = l.text(TextRole::Reason, 0, 4);
  ASSERT_NE(unavailable, nullptr);
  EXPECT_EQ(unavailable->text, "too slow for the CPU at 16384x16384");
  EXPECT_EQ(unavailable->colour, ChartColour::Unavailable);
  EXPECT_EQ(l.text(TextRole::Name, 0, 4)->colour, ChartColour::Unavailable);
  EXPECT_EQ(l.text(TextRole::Lesson, 0, 4)->colour, ChartColour::Unavailable);
  EXPECT_EQ(l.text(TextRole::Time, 0, 3), nullptr);
  EXPECT_EQ(l.text(TextRole::SpeedupBaseline, 0, 3), nullptr);
  EXPECT_EQ(l.text(TextRole::SpeedupBaseline, 0, 4), nullptr);
  // Every other rung has its bar.
  for (int r : {0, 1, 2, 5, 6, 7}) EXPECT_NE(l.bar(0, r), nullptr) << r;
}

TEST(LadderChartLayout, SpeedupsArePresentWhereNonZero) {
  const TextMeasure measure = approximate_text_measure();
  for (size_t panels : {1, 4})
    for (size_t rungs : {2, 8, 12})
      for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) {
        const ChartData d = make_chart(panels, rungs, 40, 100);
        const ChartLayout l = layout_chart(d, float(w), float(h), measure);
        ASSERT_EQ(problems_text(l), "");
        for (size_t p = 0; p < panels; ++p)
          for (size_t i = 0; i < rungs; ++i) {
            const ChartRung& r = d.panels[p].rungs[i];
            SCOPED_TRACE(std::to_string(panels) + " panels, rung " + std::to_string(i) + " of " +
                         std::to_string(rungs) + " at " + std::to_string(w));
            if (r.state != ChartRungState::Measured) continue;
            const TextRun* time = l.text(TextRole::Time, int(p), int(i));
            ASSERT_NE(time, nullptr);
            EXPECT_EQ(time->text, format_time_ms(r.ms_per_step));
            const TextRun* base = l.text(TextRole::SpeedupBaseline, int(p), int(i));
            if (r.name == d.panels[p].baseline) {
              ASSERT_NE(base, nullptr);
              EXPECT_EQ(base->text, "the baseline");
            } else {
              ASSERT_NE(base, nullptr);
              EXPECT_EQ(base->text.rfind(format_speedup(r.speedup_vs_baseline), 0), 0u) << base->text;
              EXPECT_EQ(base->colour,
                        r.speedup_vs_baseline >= 1 ? ChartColour::Speedup : ChartColour::Slowdown);
            }
            const TextRun* prev = l.text(TextRole::SpeedupPrevious, int(p), int(i));
            if (r.speedup_vs_previous > 0) {
              ASSERT_NE(prev, nullptr);
              EXPECT_EQ(prev->text.rfind(format_speedup(r.speedup_vs_previous) + " vs prev", 0), 0u)
                  << prev->text;
              EXPECT_EQ(prev->colour,
                        r.speedup_vs_previous >= 1 ? ChartColour::Speedup : ChartColour::Slowdown);
            } else {
              EXPECT_EQ(prev, nullptr);
            }
            const TextRun* peak = l.text(TextRole::Peak, int(p), int(i));
            if (r.pct_peak > 0) {
              ASSERT_NE(peak, nullptr);
              EXPECT_NE(peak->text.find('%'), std::string::npos);
            } else {
              EXPECT_EQ(peak, nullptr);
            }
          }
      }
  // At 1080p with one panel there is room for the long forms.
  const ChartLayout l = layout_chart(make_chart(1, 8), 1920, 1080, measure);
  EXPECT_EQ(l.text(TextRole::SpeedupBaseline, 0, 2)->text,
            format_speedup(4000 / (4000 / 3.0 / 4.0)) + " vs cpu-naive");
  EXPECT_EQ(l.text(TextRole::SpeedupPrevious, 0, 2)->text,
            "\xC3\x97"
            "4.00 vs previous");
  EXPECT_EQ(l.text(TextRole::Peak, 0, 2)->text, "15% of DRAM bandwidth");
}

TEST(LadderChartLayout, PanelsTileWithoutOverlap) {
  for (size_t panels = 1; panels <= 5; ++panels) {
    const ChartLayout l = layout_chart(make_chart(panels, 5), 1920, 1080, approximate_text_measure());
    EXPECT_EQ(problems_text(l), "") << panels << " panels";
    std::vector<Rect> frames;
    for (const ChartBox& b : l.boxes)
      if (b.role == BoxRole::Panel) frames.push_back(b.rect);
    EXPECT_EQ(frames.size(), panels == 1 ? 0u : panels);
    for (size_t i = 0; i < frames.size(); ++i)
      for (size_t j = i + 1; j < frames.size(); ++j)
        EXPECT_FALSE(frames[i].overlaps(frames[j])) << i << ", " << j;
    for (size_t p = 0; p < panels; ++p) EXPECT_NE(l.text(TextRole::Heading, int(p)), nullptr);
  }
  // Four ladders of twelve rungs fill a 2x2 grid rather than a column or a row.
  const ChartLayout four = layout_chart(make_chart(4, 12), 1920, 1080, approximate_text_measure());
  std::vector<float> xs;
  for (const ChartBox& b : four.boxes)
    if (b.role == BoxRole::Panel) xs.push_back(b.rect.x0);
  ASSERT_EQ(xs.size(), 4u);
  EXPECT_EQ(xs[0], xs[2]);
  EXPECT_LT(xs[0], xs[1]);
}

TEST(LadderChartLayout, EmptyAndDegenerateCharts) {
  const TextMeasure m = approximate_text_measure();
  ChartData none;
  none.title = "Game of Life";
  const ChartLayout l = layout_chart(none, 1920, 1080, m);
  EXPECT_EQ(problems_text(l), "");
  ASSERT_NE(l.text(TextRole::Message), nullptr);
  EXPECT_EQ(l.text(TextRole::Message)->text, "nothing measured");
  EXPECT_TRUE(layout_chart(make_chart(1, 3), 0, 1080, m).texts.empty());
  // A panel whose rungs all could not run: no axis, only the reasons.
  ChartData off = make_chart(1, 3);
  for (ChartRung& r : off.panels[0].rungs) {
    r.state = ChartRungState::Unavailable;
    r.reason = "no CUDA device";
  }
  const ChartLayout ol = layout_chart(off, 1920, 1080, m);
  EXPECT_EQ(problems_text(ol), "");
  for (const ChartBox& b : ol.boxes) EXPECT_NE(b.role, BoxRole::Bar);
  EXPECT_EQ(ol.text(TextRole::Tick, 0), nullptr);
  EXPECT_EQ(ol.text(TextRole::Reason, 0, 2)->text, "no CUDA device");
  // Small images still keep everything apart.
  EXPECT_EQ(problems_text(layout_chart(make_chart(4, 12, 40, 100), 640, 360, m)), "");
}

TEST(LadderChartLayout, ProblemsAreFound) {
  // The checker the other tests lean on must itself catch overlaps and escapes.
  ChartLayout l;
  l.width = 100;
  l.height = 50;
  l.texts.push_back({"a", 10, 10, 10, 20, TextFace::Sans, ChartColour::Text, TextRole::Name, 0, 0});
  EXPECT_TRUE(layout_problems(l).empty());
  l.texts.push_back({"b", 25, 15, 10, 20, TextFace::Sans, ChartColour::Text, TextRole::Name, 0, 1});
  EXPECT_EQ(layout_problems(l).size(), 1u);
  l.texts[1].x = 30;  // touching is fine
  EXPECT_TRUE(layout_problems(l).empty());
  l.texts[1].x = 90;  // out on the right
  EXPECT_EQ(layout_problems(l).size(), 1u);
  l.texts[1].x = 30;
  l.boxes.push_back({{5, 12, 15, 18}, ChartColour::Bar, BoxRole::Bar, 0, 2});
  EXPECT_EQ(layout_problems(l).size(), 1u) << "text over a bar";
  l.boxes.back().rect = {0, 45, 101, 49};
  EXPECT_EQ(layout_problems(l).size(), 1u) << "a box out of the image";
}

TEST(LadderChartFormat, TimesSpeedupsAndTicks) {
  EXPECT_EQ(format_time_ms(1.234), "1.23 ms");
  EXPECT_EQ(format_time_ms(12.34), "12.3 ms");
  EXPECT_EQ(format_time_ms(123.4), "123 ms");
  EXPECT_EQ(format_time_ms(999.7), "1.00 s");
  EXPECT_EQ(format_time_ms(40000), "40.0 s");
  EXPECT_EQ(format_time_ms(0.0123), "12.3 \xC2\xB5s");
  EXPECT_EQ(format_time_ms(0.0005), "500 ns");
  EXPECT_EQ(format_time_ms(0), "-");
  EXPECT_EQ(format_time_ms(-1), "-");
  EXPECT_EQ(format_time_ms(std::nan("")), "-");
  EXPECT_EQ(format_speedup(1.234),
            "\xC3\x97"
            "1.23");
  EXPECT_EQ(format_speedup(1234.4),
            "\xC3\x97"
            "1234");
  EXPECT_EQ(format_speedup(0.52),
            "\xC3\x97"
            "0.52");
  EXPECT_EQ(format_speedup(31538.2),
            "\xC3\x97"
            "31,538");
  EXPECT_EQ(format_speedup(195238),
            "\xC3\x97"
            "195,238");
  EXPECT_EQ(format_speedup(1234567),
            "\xC3\x97"
            "1,234,567");
  EXPECT_EQ(format_time_ms(12345678), "12,346 s");
  EXPECT_EQ(format_decade_ms(-6), "1 ns");
  EXPECT_EQ(format_decade_ms(-4), "100 ns");
  EXPECT_EQ(format_decade_ms(-3), "1 \xC2\xB5s");
  EXPECT_EQ(format_decade_ms(-1), "100 \xC2\xB5s");
  EXPECT_EQ(format_decade_ms(0), "1 ms");
  EXPECT_EQ(format_decade_ms(2), "100 ms");
  EXPECT_EQ(format_decade_ms(3), "1 s");
  EXPECT_EQ(format_decade_ms(6), "1000 s");
  EXPECT_EQ(format_decade_ms(7), "1e4 s");
}

TEST(LadderChartFormat, ThemesTellBarsFromBackground) {
  for (const ChartTheme& t : {ChartTheme::dark(), ChartTheme::light()}) {
    EXPECT_NE(t[ChartColour::Bar], t[ChartColour::Background]);
    EXPECT_NE(t[ChartColour::Failed], t[ChartColour::Bar]);
    EXPECT_NE(t[ChartColour::Text], t[ChartColour::Background]);
    EXPECT_NE(t[ChartColour::PanelBackground], t[ChartColour::Bar]);
  }
}

}  // namespace
}  // namespace gpulab::presenter

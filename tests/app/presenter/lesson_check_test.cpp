// cpu label: the lesson check's report: one line a step with its time, what runs and its first note,
// further notes under it; the steps over a second marked and counted; the exit status 1 only when
// something is missing or the lesson does not read (falling back is not an error).
#include <gtest/gtest.h>

#include <string>

#include "core/recorded.h"
#include "presenter/lesson_check.h"

using gpulab::RecordedResults;
using gpulab::RecordedRow;
using namespace gpulab::presenter;

TEST(LessonCheckReport, ListsEachStepAndSumsUp) {
  LessonCheck c;
  c.file = "lessons/a.toml";
  c.title = "A lesson";
  c.machine = "CPU backend (no NVIDIA driver: ...); OpenGL: llvmpipe";
  c.read_s = 0.25;
  c.steps.push_back({1, "cpu", 0.12, -1, "life cpu-naive", "", {}, "", false});
  c.steps.push_back({2,
                     "gpu",
                     1.5,
                     -1,
                     "life cpu-lut",
                     "gpu-global cannot run here (no CUDA device): cpu-lut is shown",
                     {},
                     "",
                     false});
  c.steps.push_back({3, "ladder", 0.05, 3.3, "life cpu-lut", "", {}, "", false});
  const std::string out = format_lesson_check(c);
  EXPECT_NE(out.find("lesson 'lessons/a.toml': A lesson (3 steps)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("machine: CPU backend (no NVIDIA driver: ...); OpenGL: llvmpipe\n"), std::string::npos);
  EXPECT_NE(out.find("read and checked in 0.25 s"), std::string::npos) << out;
  EXPECT_NE(out.find("\n   1   0.12 s  life cpu-naive  ok\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\n   2   1.50 s  life cpu-lut    slow: over 1 s to prepare\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("\n" + std::string(15 + 14 + 2, ' ') + "falls back: gpu-global cannot run here"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("ladder: measured in 3.3 s"), std::string::npos) << out;
  EXPECT_NE(out.find("summary: 3 steps; 1 fall back; 0 missing; 1 over 1 s to prepare (step 2)\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(lesson_check_status(c), 0);  // falling back and slow: not errors

  c.steps[0].missing.push_back("caption: no glyph for U+65E5 日 (drawn as '?')");
  EXPECT_EQ(lesson_check_status(c), 1);
  EXPECT_NE(format_lesson_check(c).find("missing: caption: no glyph for U+65E5"), std::string::npos);
  c.steps[0].missing.clear();
  c.missing.push_back("font DejaVuSans.ttf not found in ...");
  EXPECT_EQ(lesson_check_status(c), 1);
  EXPECT_NE(format_lesson_check(c).find("\nmissing: font DejaVuSans.ttf"), std::string::npos);
}

TEST(LessonCheckReport, ARefusedLessonSaysWhyAndFails) {
  LessonCheck c;
  c.file = "bad\x1b.toml";
  c.machine = "m";
  c.refused = "bad.toml:3: step 1: unknown key 'captoin'";
  const std::string out = format_lesson_check(c);
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;  // the file's name escaped
  EXPECT_NE(out.find("refused: bad.toml:3: step 1: unknown key 'captoin'\n"), std::string::npos) << out;
  EXPECT_NE(out.find("summary: the lesson does not read"), std::string::npos) << out;
  EXPECT_EQ(lesson_check_status(c), 1);
}

TEST(LessonCheckReport, SaysWhichStandInStepsHaveRecordedFigures) {
  RecordedResults rec;
  rec.path = "results/life\x1b.json";
  rec.demo = "life";
  rec.device = "NVIDIA H100 80GB HBM3";
  rec.date = "2026-11-27";
  RecordedRow g;
  g.stage = "step";
  g.variant = "gpu-global";
  g.ms_per_step = 0.004;
  g.items_per_step = 512.0 * 512.0;
  g.size = "512x512";
  g.speedup = 200.0;
  g.speedup_baseline = "cpu-naive";
  RecordedRow s = g;
  s.variant = "gpu-shared";
  s.ms_per_step = 0.03;
  s.items_per_step = 4096.0 * 4096.0;
  s.size = "4096x4096";
  s.speedup = 680.0;
  rec.rows = {g, s};
  bool found = false;
  EXPECT_EQ(recorded_step_line(rec, "life", "gpu-global", 512.0 * 512.0, &found),
            "gpu-global: 4.00 \xC2\xB5s, \xC3\x97"
            "200 vs cpu-naive");
  EXPECT_TRUE(found);
  EXPECT_EQ(recorded_step_line(rec, "life", "gpu-shared", 512.0 * 512.0, &found),
            "gpu-shared at 4096x4096: 30.0 \xC2\xB5s, \xC3\x97"
            "680 vs cpu-naive");
  EXPECT_TRUE(found);
  EXPECT_EQ(recorded_step_line(rec, "life", "gpu-swar", 512.0 * 512.0, &found), "none for gpu-swar");
  EXPECT_FALSE(found);
  EXPECT_EQ(recorded_step_line(rec, "nbody", "gpu-tiled", 4096, &found), "none: the file is life's");
  EXPECT_FALSE(found);
  const std::string src = recorded_source_line(rec);
  EXPECT_EQ(src.find('\x1b'), std::string::npos) << src;
  EXPECT_EQ(src, "'results/life\\x1B.json', recorded on NVIDIA H100 80GB HBM3, 2026-11-27");

  LessonCheck c;
  c.file = "lessons/a.toml";
  c.title = "A lesson";
  c.machine = "CPU backend";
  c.recorded = src + " (named in the lesson)";
  c.steps.push_back({1, "cpu", 0.1, -1, "life cpu-naive", "", {}, "", false});
  c.steps.push_back({2, "global", 0.1, -1, "life cpu-lut", "gpu-global needs an NVIDIA GPU", {}, "", false});
  c.steps.back().recorded = recorded_step_line(rec, "life", "gpu-global", 512.0 * 512.0, &found);
  c.steps.back().recorded_found = found;
  c.steps.push_back({3, "swar", 0.1, -1, "life cpu-lut", "gpu-swar needs an NVIDIA GPU", {}, "", false});
  c.steps.back().recorded = recorded_step_line(rec, "life", "gpu-swar", 512.0 * 512.0, &found);
  c.steps.back().recorded_found = found;
  const std::string out = format_lesson_check(c);
  EXPECT_NE(out.find("\nrecorded results: 'results/life\\x1B.json', recorded on NVIDIA H100 80GB HBM3, "
                     "2026-11-27 (named in the lesson)\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("recorded figures: gpu-global: 4.00 \xC2\xB5s"), std::string::npos) << out;
  EXPECT_NE(out.find("recorded figures: none for gpu-swar"), std::string::npos) << out;
  EXPECT_NE(out.find("summary: 3 steps; 2 fall back (1 with recorded figures); 0 missing; "),
            std::string::npos)
      << out;
  EXPECT_EQ(lesson_check_status(c), 0) << "recorded figures or none: not an error";
  // Without recorded results the report is as it was.
  c.recorded.clear();
  for (LessonCheckStep& st : c.steps) st.recorded.clear();
  const std::string plain = format_lesson_check(c);
  EXPECT_EQ(plain.find("recorded"), std::string::npos) << plain;
  EXPECT_NE(plain.find("summary: 3 steps; 2 fall back; 0 missing; "), std::string::npos) << plain;
  // The lesson's results file that does not read is missing: exit status 1.
  c.missing.push_back("the lesson's results file 'x.json': not found");
  EXPECT_EQ(lesson_check_status(c), 1);
  EXPECT_NE(format_lesson_check(c).find("\nmissing: the lesson's results file 'x.json'"), std::string::npos);
}

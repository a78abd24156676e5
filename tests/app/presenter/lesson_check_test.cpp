// cpu label: the lesson check's report: one line a step with its time, what runs and its first note,
// further notes under it; the steps over a second marked and counted; the exit status 1 only when
// something is missing or the lesson does not read (falling back is not an error).
#include <gtest/gtest.h>

#include <string>

#include "presenter/lesson_check.h"

using namespace gpulab::presenter;

TEST(LessonCheckReport, ListsEachStepAndSumsUp) {
  LessonCheck c;
  c.file = "lessons/a.toml";
  c.title = "A lesson";
  c.machine = "CPU backend (no NVIDIA driver: ...); OpenGL: llvmpipe";
  c.read_s = 0.25;
  c.steps.push_back({1, "cpu", 0.12, -1, "life cpu-naive", "", {}});
  c.steps.push_back({2,
                     "gpu",
                     1.5,
                     -1,
                     "life cpu-lut",
                     "gpu-global cannot run here (no CUDA device): cpu-lut is shown",
                     {}});
  c.steps.push_back({3, "ladder", 0.05, 3.3, "life cpu-lut", "", {}});
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

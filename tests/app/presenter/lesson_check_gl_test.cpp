// gl label, through the binary (headless EGL): `--lesson FILE --check` steps through every step of each
// shipped lesson and lists it (what runs, what falls back), exit 0; a lesson with a character the fonts
// lack, one that does not read, and a machine without the fonts are named, exit 1. What the report says
// of the machine is checked on the machine at hand: with a CUDA device (the GPU machine) every step
// runs its own variant on it and nothing falls back; without one (CI: Mesa and the CPU backend) the
// GPU steps fall back to the CPU reference and say so.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/cuda_probe.h"
#include "core/demo.h"
#include "presenter/lesson.h"
#include "support/font_dir.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;

namespace {

ProcessResult check(const fs::path& lesson, const fs::path& dir, const std::string& more = "") {
  return gpulab::testing::run_gpulab_in("--lesson " + lesson.string() + " --check --size 960x540" + more, dir,
                                        "gpulab-check");
}

// The step's lines of the report: "   3   0.02 s  life cpu-lut  falls back: ..." and the notes indented
// under it, up to the next step's line (or the summary).
std::string step_lines(const std::string& out, size_t k) {
  char head[16], next[16];
  std::snprintf(head, sizeof head, "\n%4zu  ", k);
  std::snprintf(next, sizeof next, "\n%4zu  ", k + 1);
  const size_t at = out.find(head);
  if (at == std::string::npos) return {};
  size_t end = out.find(next, at + 1);
  if (end == std::string::npos) end = out.find("\nsummary:", at + 1);
  return out.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
}

}  // namespace

TEST(LessonCheck, EveryShippedLessonIsSteppedThroughAndListed) {
  const bool gpu = gpulab::cuda_status().available;
  const fs::path dir = gpulab::testing::temp_dir("gpulab-check");
  for (const fs::path& file : gpulab::presenter::shipped_lessons(GPULAB_TEST_ASSETS)) {
    SCOPED_TRACE(file.filename().string());
    const gpulab::presenter::LessonLoad load = gpulab::presenter::load_lesson(file, gpulab::make_demos);
    ASSERT_TRUE(load.lesson) << load.error;
    const ProcessResult r = check(file, dir);
    EXPECT_EQ(r.status, 0) << r.output;
    const size_t n = load.lesson->steps.size();
    EXPECT_NE(r.output.find("summary: " + std::to_string(n) + " steps; "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("; 0 missing; "), std::string::npos) << r.output;
    if (gpu) {
      EXPECT_NE(r.output.find("machine: CUDA on "), std::string::npos) << r.output;
      // "0 fall back; " or, for a lesson that names its results, "0 fall back (0 with recorded figures); ".
      EXPECT_NE(r.output.find("summary: " + std::to_string(n) + " steps; 0 fall back"), std::string::npos)
          << r.output;
    } else {
      EXPECT_NE(r.output.find("machine: CPU backend ("), std::string::npos) << r.output;
    }
    for (size_t k = 1; k <= n; ++k) {
      const gpulab::presenter::LessonStep& s = load.lesson->steps[k - 1];
      const std::string line = step_lines(r.output, k);
      ASSERT_FALSE(line.empty()) << "no line for step " << k << "\n" << r.output;
      EXPECT_NE(line.find(" s  " + s.demo + " "), std::string::npos) << line;
      // Every variant the step asks for (both halves of an A/B step) is listed as running on a GPU.
      if (gpu) {
        for (const std::string& v : s.variants) EXPECT_NE(line.find(" " + v), std::string::npos) << line;
        EXPECT_EQ(line.find("falls back"), std::string::npos) << line;
        EXPECT_EQ(line.find("recorded figures"), std::string::npos) << "no stand-in on a GPU: " << line;
        continue;
      }
      const std::string& want = s.variants.front();
      // The step's variant runs, or the line says it falls back and what stands in.
      if (line.find(" " + want) == std::string::npos || line.find("falls back") != std::string::npos) {
        EXPECT_NE(line.find("falls back: "), std::string::npos) << line;
      }
      if ((want.rfind("gpu-", 0) == 0 || want.rfind("hist-", 0) == 0) &&
          line.find("falls back") != std::string::npos) {
        EXPECT_TRUE(line.find(want + " needs an NVIDIA GPU") != std::string::npos ||
                    line.find(want + " cannot run here") != std::string::npos)
            << line;
      }
    }
  }
  fs::remove_all(dir);
}

TEST(LessonCheck, MissingGlyphsAndALessonThatDoesNotReadAreNamedWithExitStatus1) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-check-broken");
  const fs::path lesson = dir / "broken.toml";
  std::ofstream(lesson) << "title = \"Žižek's Жизнь\"\n[[step]]\ndemo = \"life\"\nvariant = \"cpu-lut\"\n"
                           "params = { grid = \"64x64\" }\ncaption = \"čćđšž Жизнь 日本\"\n"
                           "[[step]]\nvariant = \"gpu-shared\"\nnotes = \"✓ done\"\n";
  ProcessResult r = check(lesson, dir);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("missing: caption: no glyph for U+65E5 日, U+672C 本 (drawn as '?')"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("missing: notes: no glyph for U+2713 ✓"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("U+017E"), std::string::npos) << r.output;  // ž, Ж...: drawn
  EXPECT_EQ(r.output.find("U+0416"), std::string::npos) << r.output;
  // Step 2's gpu-shared runs on a GPU; without one it falls back to the CPU reference.
  const std::string falls = gpulab::cuda_status().available ? "0 fall back" : "1 fall back";
  EXPECT_NE(r.output.find("summary: 2 steps; " + falls + "; 2 missing; "), std::string::npos) << r.output;

  // A pattern file that is not there: the lesson does not read; file, line and step named.
  std::ofstream(lesson, std::ios::trunc) << "title = \"t\"\n[[step]]\ndemo = \"life\"\n[[step]]\n"
                                            "params = { pattern = \"nonesuch.rle\" }\n";
  r = check(lesson, dir);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("refused: " + lesson.string() + ":5: step 2: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nonesuch.rle"), std::string::npos) << r.output;

  // No fonts on this machine: said, exit 1.
  const fs::path nofonts = dir / "nofonts";
  fs::create_directories(nofonts);
  {
    const gpulab::testing::FontDir env(nofonts.c_str());  // put back after: the next tests need the fonts
    r = check(fs::path(GPULAB_TEST_ASSETS) / "lessons" / "01-life.toml", dir);
  }
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("missing: font DejaVuSans.ttf not found"), std::string::npos) << r.output;

  // --check needs a lesson.
  r = gpulab::testing::run_gpulab_in("--check", dir, "gpulab-check");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--check goes with --lesson FILE"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

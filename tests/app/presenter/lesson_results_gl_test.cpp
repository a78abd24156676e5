// gl label, through the binary (headless EGL; Mesa and the CPU backend here): a lesson that names its
// results file (`results = "life-h100.json"`, beside it). Where a step cannot run here, the HUD and the
// ladder show the file's figures, labelled; --results wins over it; a file that does not read is said
// (its name escaped) and the lesson opens all the same; `--check` lists it as missing, or says which
// stand-in steps have recorded figures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "common/cuda_probe.h"
#include "support/layout_report.h"
#include "support/recorded_fixture.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;
using gpulab::testing::ReportedRun;

namespace {

const fs::path kResults = gpulab::testing::recorded_fixture();
const std::string& kLabel = gpulab::testing::kRecordedFixtureLabel;

// A Life lesson in `dir` naming `results` (as written in the file), with its copy of the H100's file.
fs::path write_lesson(const fs::path& dir, const std::string& results, bool ladder_step = false) {
  fs::create_directories(dir);
  fs::copy_file(kResults, dir / "life-h100.json", fs::copy_options::overwrite_existing);
  const fs::path file = dir / "recorded.toml";
  std::ofstream(file) << "title = \"recorded\"\n"
                      << "results = \"" << results << "\"\n"
                      << "[[step]]\ndemo = \"life\"\nvariant = \"cpu-naive\"\n"
                      << "params = { grid = \"512x512\", density = 0.3, seed = 7 }\n"
                      << "[[step]]\nvariant = \"gpu-global\"\n"
                      << "[[step]]\nvariant = \"gpu-lut-local\"\n"
                      << "[[step]]\nvariant = \"gpu-shared\"\n"
                      << (ladder_step ? "[[step]]\nvariant = \"cpu-lut\"\nladder = true\n" : "");
  return file;
}

ReportedRun step(const fs::path& lesson, int k, const std::string& more, const fs::path& dir) {
  return gpulab::testing::run_with_layout_report("--headless --cpu --projector --lesson " + lesson.string() +
                                                     " --lesson-step " + std::to_string(k) +
                                                     " --frames 2 --size 1920x1080" + more,
                                                 dir, "gpulab-lesson-results");
}

ProcessResult check(const fs::path& lesson, const fs::path& dir, const std::string& more = "") {
  return gpulab::testing::run_gpulab_in("--lesson " + lesson.string() + " --check --size 960x540" + more, dir,
                                        "gpulab-lesson-results");
}

}  // namespace

TEST(LessonResults, TheLessonsFileGivesTheHudItsRecordedFigures) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-lesson-results") / "hud";
  const fs::path lesson = write_lesson(dir, "life-h100.json");
  const ReportedRun r = step(lesson, 2, "", dir);
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  const nlohmann::json& hud = r.report["hud"];
  EXPECT_EQ(hud.value("title", std::string()), "Game of Life — gpu-global, " + kLabel) << hud;
  ASSERT_EQ(hud["values"].size(), 2u) << hud;
  EXPECT_EQ(hud["values"][1].get<std::string>(), "200×");
  EXPECT_EQ(hud["captions"][1].get<std::string>(), "vs cpu-naive (recorded)");
  EXPECT_NE(r.process.output.find("lesson: figures " + kLabel), std::string::npos) << r.process.output;

  // --results wins over the lesson's file (the same figures, from another device here).
  std::ifstream in(kResults);
  nlohmann::json other = nlohmann::json::parse(in);
  other["device"] = "NVIDIA H200";
  std::ofstream(dir / "h200.json") << other.dump();
  const ReportedRun w = step(lesson, 2, " --results " + (dir / "h200.json").string(), dir);
  ASSERT_EQ(w.process.status, 0) << w.process.output;
  EXPECT_EQ(w.report["hud"].value("title", std::string()),
            "Game of Life — gpu-global, recorded on NVIDIA H200, 2026-11-27")
      << w.report["hud"];
  EXPECT_NE(w.process.output.find("is shown, not the lesson's"), std::string::npos) << w.process.output;
  fs::remove_all(dir);
}

TEST(LessonResults, TheLadderAtALessonStepShowsTheLessonsRecordedFigures) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-lesson-results") / "ladder";
  const fs::path lesson = write_lesson(dir, "life-h100.json", true);
  const ReportedRun r = step(lesson, 5, "", dir);
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  ASSERT_TRUE(r.report["ladder"].get<bool>()) << r.process.output;
  const nlohmann::json& c = r.report["ladder_chart"];
  EXPECT_NE(c["recorded"].get<std::string>().find(kLabel), std::string::npos) << c;
  EXPECT_EQ(c["recorded_bars"].get<int>(), 1) << c;
  ASSERT_EQ(c["recorded_rungs"].size(), 1u) << c;
  EXPECT_EQ(c["recorded_rungs"][0].get<std::string>().rfind("gpu-global: ", 0), 0u) << c;
  fs::remove_all(dir);
}

TEST(LessonResults, AFileThatDoesNotReadIsSaidAndTheLessonStillOpens) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-lesson-results") / "missing";
  const fs::path lesson = write_lesson(dir, "gone\\u001b.json");
  const ReportedRun r = step(lesson, 2, "", dir);
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  const std::string said = "lesson: the lesson's results file '" + (dir / "gone\\x1B.json").string() + "'";
  EXPECT_NE(r.process.output.find(said), std::string::npos) << r.process.output;
  EXPECT_EQ(r.process.output.find('\x1b'), std::string::npos) << "control bytes escaped";
  EXPECT_TRUE(r.report["lesson"].value("running", false));
  EXPECT_EQ(r.report["lesson"].value("step", 0), 2);
  ASSERT_EQ(r.report["hud"]["values"].size(), 2u) << r.report["hud"];
  EXPECT_EQ(r.report["hud"]["values"][1].get<std::string>(), "not run here");
  // Not JSON: the same, with what is wrong.
  std::ofstream(dir / "bad.json") << "{ not json";
  const ReportedRun b = step(write_lesson(dir, "bad.json"), 2, "", dir);
  ASSERT_EQ(b.process.status, 0) << b.process.output;
  EXPECT_NE(b.process.output.find("is not JSON"), std::string::npos) << b.process.output;
  fs::remove_all(dir);
}

TEST(LessonResults, CheckListsAMissingFileAndTheStandInStepsRecordedFigures) {
  // On the machine at hand: with a CUDA device every GPU step runs and no recorded figure stands in;
  // on the CPU backend (here without a GPU, with --cpu on the GPU machine) the three GPU steps fall
  // back and each names the file's row for what it asked for.
  const bool gpu = gpulab::cuda_status().available;
  const fs::path dir = gpulab::testing::temp_dir("gpulab-lesson-results") / "check";
  const fs::path lesson = write_lesson(dir, "life-h100.json");
  const std::string source =
      "recorded results: '" + (dir / "life-h100.json").string() + "', " + kLabel + " (named in the lesson)\n";
  ProcessResult r = check(lesson, dir);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(source), std::string::npos) << r.output;
  if (gpu) {
    EXPECT_NE(r.output.find("summary: 4 steps; 0 fall back (0 with recorded figures); 0 missing; "),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("recorded figures: "), std::string::npos) << "no stand-in on a GPU: " << r.output;
    EXPECT_NE(r.output.find("life gpu-shared"), std::string::npos) << r.output;
    r = check(lesson, dir, " --cpu");  // the CPU backend's stand-ins, on this machine too
    ASSERT_EQ(r.status, 0) << r.output;
  }
  EXPECT_NE(r.output.find(source), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("recorded figures: gpu-global: 4.00 \xC2\xB5s, \xC3\x97"
                          "200 vs cpu-naive\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("recorded figures: none for gpu-lut-local\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("recorded figures: gpu-shared at 4096x4096: 30.0 \xC2\xB5s"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("summary: 4 steps; 3 fall back (2 with recorded figures); 0 missing; "),
            std::string::npos)
      << r.output;

  r = check(write_lesson(dir, "gone.json"), dir);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("\nmissing: the lesson's results file '" + (dir / "gone.json").string() + "'"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(std::string("summary: 4 steps; ") + (gpu ? "0" : "3") + " fall back; 1 missing; "),
            std::string::npos)
      << "every step still prepared: " << r.output;
  fs::remove_all(dir);
}

TEST(LessonResults, TheShippedLifeLessonHasFiguresForEveryStepThatFallsBack) {
  // The lesson's own file (measured on an H100): every GPU step has its row, and the steps that set
  // gpu-bit-multistep's generations a pass get that k's row (the bench's "k=1" row at step 10, its own
  // k = 16 row at step 11), stepping through the lesson as the room would.
  const fs::path dir = gpulab::testing::temp_dir("gpulab-lesson-results") / "shipped";
  fs::create_directories(dir);
  const ProcessResult r = gpulab::testing::run_gpulab_in(
      "--cpu --lesson " + (fs::path(GPULAB_TEST_ASSETS) / "lessons/01-life.toml").string() + " --check", dir,
      "gpulab-lesson-results");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("summary: 11 steps; 9 fall back (9 with recorded figures); 0 missing"),
            std::string::npos)
      << r.output;
  const size_t k1 = r.output.find("recorded figures: gpu-bit-multistep k=1: ");
  const size_t k16 = r.output.find("recorded figures: gpu-bit-multistep: ");
  EXPECT_NE(k1, std::string::npos) << r.output;
  EXPECT_NE(k16, std::string::npos) << r.output;
  EXPECT_LT(k1, k16) << "step 10 (k = 1) before step 11 (k = 16)\n" << r.output;
  fs::remove_all(dir);
}

// gl label, end to end through the binary (headless EGL; Mesa here): every step of every shipped
// lesson, rendered with --lesson-step, lands on its demo and variant (or says on screen why the
// variant cannot run here, and shows what runs instead), draws its caption under the view and the
// "step K of N" line, and writes a PNG whose view is not blank. Projector mode hides the notes; a
// malformed lesson ends a headless run with the file, line and step named.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/demo.h"
#include "gl/image_io.h"
#include "presenter/lesson.h"
#include "support/image_checks.h"
#include "support/layout_report.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;
using gpulab::testing::ReportedRun;

namespace {

fs::path temp_dir() { return gpulab::testing::temp_dir("gpulab-lesson"); }

ProcessResult run(const std::string& args, const fs::path& dir) {
  return gpulab::testing::run_gpulab_in(args, dir, "gpulab-lesson");
}

ReportedRun run_reported(const std::string& args, const fs::path& dir) {
  return gpulab::testing::run_with_layout_report(args, dir, "gpulab-lesson");
}

std::vector<std::string> lesson_names() {
  std::vector<std::string> out;
  for (const fs::path& p : gpulab::presenter::shipped_lessons(GPULAB_TEST_ASSETS))
    out.push_back(p.stem().string());
  return out;
}

class EveryLesson : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryLesson, EveryStepLandsOnItsDemoAndVariantAndDrawsIt) {
  const fs::path file = fs::path(GPULAB_TEST_ASSETS) / "lessons" / (GetParam() + ".toml");
  const gpulab::presenter::LessonLoad load = gpulab::presenter::load_lesson(file, gpulab::make_demos);
  ASSERT_TRUE(load.lesson) << load.error;
  const auto& steps = load.lesson->steps;
  const fs::path dir = temp_dir() / GetParam();
  for (size_t k = 0; k < steps.size(); ++k) {
    SCOPED_TRACE("step " + std::to_string(k + 1));
    const gpulab::presenter::LessonStep& s = steps[k];
    const fs::path png = dir / ("step" + std::to_string(k + 1) + ".png");
    const ReportedRun run =
        run_reported("--headless --lesson " + file.string() + " --lesson-step " + std::to_string(k + 1) +
                         " --frames 2 --size 1280x720 --ui-scale 1 --screenshot " + png.string(),
                     dir);
    const ProcessResult& r = run.process;
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json& j = run.report;
    ASSERT_FALSE(j.is_discarded());
    const nlohmann::json& l = j["lesson"];
    ASSERT_TRUE(l.value("running", false)) << l;
    EXPECT_EQ(l.value("step", 0), static_cast<int>(k + 1));
    EXPECT_EQ(l.value("steps", 0), static_cast<int>(steps.size()));
    EXPECT_EQ(l.value("demo", std::string()), s.demo);
    EXPECT_EQ(l.value("caption", std::string()), s.caption);
    const std::string progress = l.value("progress", std::string());
    EXPECT_EQ(progress.rfind("step " + std::to_string(k + 1) + " of " + std::to_string(steps.size()), 0), 0u)
        << progress;
    // The intended variant runs, or the step says on screen that it cannot run here: without a GPU in
    // one calm line naming the CPU reference that stands in.
    const std::vector<std::string> running = l.value("variants", std::vector<std::string>{});
    const std::string problem = l.value("problem", std::string());
    const std::string& want = s.variants.front();
    const bool stand_in = std::find(running.begin(), running.end(), want) == running.end();
    if (stand_in) {
      const bool said =
          problem.find(want + " needs an NVIDIA GPU: the picture is the CPU reference, ") == 0 ||
          problem.find(want + " cannot run here") != std::string::npos;
      EXPECT_TRUE(said) << "running " << l["variants"] << ": " << problem;
    } else {
      EXPECT_EQ(problem, "") << "the step's variant runs, so nothing is said";
    }
    // The code panel is open from the step that asks for it, showing the step's own variant's source
    // (also where a CPU reference stands in for it).
    const nlohmann::json& code = j["code"];
    EXPECT_EQ(code.value("shown", false), s.code.value_or(false)) << code;
    if (s.code.value_or(false)) {
      EXPECT_GT(code.value("lines", 0), 2) << code;
      if (stand_in) {
        EXPECT_EQ(code.value("variant", std::string()), want) << code;
      } else {
        EXPECT_NE(std::find(running.begin(), running.end(), code.value("variant", std::string())),
                  running.end())
            << code;
        // An A/B step that runs (a GPU): both halves run, and the panel shows B's code against A's.
        if (s.variants.size() > 1) {
          EXPECT_EQ(code.value("variant", std::string()), s.variants.back()) << code;
          EXPECT_EQ(code.value("previous", std::string()), want) << code;
          EXPECT_NE(std::find(running.begin(), running.end(), s.variants.back()), running.end()) << l;
        }
      }
    }
    // The caption band sits at the bottom of the view, above nothing; the PNG's view is not blank.
    const auto band = l["caption_band"];
    EXPECT_GT(band[1].get<float>() - band[0].get<float>(), 30.0f) << band;
    EXPECT_NEAR(band[1].get<float>(), 720.0f, 0.5f);
    std::string err;
    const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
    ASSERT_TRUE(err.empty()) << err;
    ASSERT_EQ(img.width, 1280);
    const auto win = j["window"];
    const int view_x0 = static_cast<int>(win[0].get<float>() + win[2].get<float>()) + 2;
    ASSERT_LT(view_x0 + 100, img.width);
    const auto view = gpulab::testing::colours_in_box(img, view_x0, 100, img.width,
                                                      static_cast<int>(band[0].get<float>()) - 1);
    EXPECT_GE(view.size(), 2u) << "the view is blank";
    const auto caption = gpulab::testing::colours_in_box(
        img, view_x0, static_cast<int>(band[0].get<float>()) + 1, img.width, 719);
    EXPECT_GE(caption.size(), 3u) << "no caption text drawn";
  }
}

INSTANTIATE_TEST_SUITE_P(Lessons, EveryLesson, ::testing::ValuesIn(lesson_names()),
                         [](const auto& info) { return info.param.substr(info.param.find('-') + 1); });

TEST(LessonGl, TheCodePanelMarksWhatChangedFromThePreviousRung) {
  const fs::path dir = temp_dir() / "code";
  const fs::path png = dir / "shot.png";
  const ReportedRun run = run_reported(
      "--headless --lesson " + (fs::path(GPULAB_TEST_ASSETS) / "lessons" / "01-life.toml").string() +
          " --lesson-step 2 --frames 2 --size 1600x900 --ui-scale 1 --screenshot " + png.string(),
      dir);
  ASSERT_EQ(run.process.status, 0) << run.process.output;
  const nlohmann::json& j = run.report;
  const nlohmann::json& c = j["code"];
  ASSERT_TRUE(c.value("shown", false)) << c;
  EXPECT_EQ(c.value("variant", std::string()), "cpu-lut");
  EXPECT_EQ(c.value("previous", std::string()), "cpu-naive");
  EXPECT_EQ(c.value("snippet", std::string()), "life_cpu_lut");
  EXPECT_GT(c.value("changed", 0), 0);
  EXPECT_LT(c.value("changed", 0), c.value("lines", 0)) << "the loop over the cells did not change";
  // The panel sits right of the settings panel, inside the display, above the caption.
  const auto box = c["box"];
  EXPECT_GE(box[0].get<float>(), j["window"][2].get<float>());
  EXPECT_LE(box[2].get<float>(), 1600.0f);
  EXPECT_LE(box[3].get<float>(), j["lesson"]["caption_band"][0].get<float>());
  // Marked lines are drawn in the panel: its box holds the highlight's colour band and text.
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  ASSERT_TRUE(err.empty()) << err;
  const auto colours = gpulab::testing::colours_in_box(
      img, static_cast<int>(box[0].get<float>()) + 4, static_cast<int>(box[1].get<float>()) + 4,
      static_cast<int>(box[2].get<float>()) - 4, static_cast<int>(box[3].get<float>()) - 4);
  EXPECT_GE(colours.size(), 8u) << "highlighted source is drawn";
}

TEST(LessonGl, ProjectorModeShowsTheCaptionButNeverTheNotes) {
  const fs::path dir = temp_dir() / "projector";
  const fs::path file = fs::path(GPULAB_TEST_ASSETS) / "lessons" / "01-life.toml";
  const ReportedRun projector = run_reported(
      "--headless --projector --lesson " + file.string() + " --lesson-step 2 --frames 2 --size 1280x720",
      dir);
  ASSERT_EQ(projector.process.status, 0) << projector.process.output;
  const nlohmann::json& p = projector.report["lesson"];
  EXPECT_FALSE(p.value("notes_shown", true));
  EXPECT_FALSE(p.value("caption", std::string()).empty());
  const ReportedRun window = run_reported(
      "--headless --lesson " + file.string() + " --lesson-step 2 --frames 2 --size 1280x720", dir);
  ASSERT_EQ(window.process.status, 0) << window.process.output;
  EXPECT_TRUE(window.report["lesson"].value("notes_shown", false)) << "the window's panel shows them";
}

TEST(LessonGl, AMalformedLessonEndsAHeadlessRunNamingLineAndStep) {
  const fs::path dir = temp_dir() / "malformed";
  fs::create_directories(dir);
  const fs::path file = dir / "bad.toml";
  std::ofstream(file) << "title = \"t\"\n[[step]]\ndemo = \"life\"\n[[step]]\nvariant = \"gpu-magic\"\n";
  ProcessResult r = run("--headless --lesson " + file.string() + " --frames 1", dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("bad.toml:5: step 2: unknown variant 'gpu-magic'"), std::string::npos) << r.output;
  r = run("--headless --lesson " + (fs::path(GPULAB_TEST_ASSETS) / "lessons" / "04-nbody.toml").string() +
              " --lesson-step 99 --frames 1",
          dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("no step 99"), std::string::npos) << r.output;
}

}  // namespace

TEST(LessonGl, WithoutAGpuTheHudShowsRecordedFiguresLabelledWithTheirDevice) {
  // --results: where a step's variant cannot run here, the HUD shows the figures recorded on the GPU
  // that ran it, labelled with that device and the date; never as live figures.
  const fs::path dir = temp_dir() / "recorded";
  const fs::path file = fs::path(GPULAB_TEST_ASSETS) / "lessons" / "01-life.toml";
  const fs::path results = fs::path(GPULAB_TEST_DATA) / "results" / "life-h100.json";
  const ReportedRun r =
      run_reported("--headless --cpu --projector --lesson " + file.string() +
                       " --lesson-step 3 --frames 2 --size 1920x1080 --results " + results.string(),
                   dir);
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  const nlohmann::json& hud = r.report["hud"];
  EXPECT_EQ(hud.value("title", std::string()),
            "Game of Life — gpu-global, recorded on NVIDIA H100 80GB HBM3, 2026-11-27");
  ASSERT_EQ(hud["values"].size(), 2u) << hud;
  EXPECT_EQ(hud["values"][0].get<std::string>(), "4 µs");
  EXPECT_EQ(hud["captions"][0].get<std::string>(), "per generation (recorded)");
  EXPECT_EQ(hud["values"][1].get<std::string>(), "200×");
  EXPECT_EQ(hud["captions"][1].get<std::string>(), "vs cpu-naive (recorded)");
  // Without --results the lesson's own file (measured on an H100) gives the figures, labelled.
  const ReportedRun own = run_reported("--headless --cpu --projector --lesson " + file.string() +
                                           " --lesson-step 3 --frames 2 --size 1920x1080",
                                       dir);
  ASSERT_EQ(own.process.status, 0) << own.process.output;
  const nlohmann::json& h = own.report["hud"];
  ASSERT_EQ(h["values"].size(), 2u) << h;
  EXPECT_EQ(h.value("title", std::string()).rfind("Game of Life — gpu-global, recorded on NVIDIA H100", 0),
            0u)
      << h;
  EXPECT_EQ(h["captions"][1].get<std::string>(), "vs cpu-naive (recorded)") << h;
  EXPECT_NE(h["values"][1].get<std::string>(), "200×") << "the lesson's file, not --results' fixture";
  // A results file that cannot be read ends the run, naming it.
  const ProcessResult bad =
      run("--headless --cpu --frames 1 --results " + (dir / "missing.json").string(), dir);
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("results file"), std::string::npos) << bad.output;
}

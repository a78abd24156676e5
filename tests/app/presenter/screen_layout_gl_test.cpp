// gl label, end to end through the binary (headless EGL; Mesa where there is no GPU): a lesson step with
// its code, the HUD and the caption line, rendered at 1280x720 and 1920x1080 at UI scale 1 to 3 and in
// projector mode. The layout report (--layout-report) says where each region and each element went:
// no two regions overlap, every element is drawn inside its own region, no HUD figure is dropped where
// there is room, and the code is never set below 20 px at 1080p at UI scale 2 or more.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;

namespace {

struct Box {
  float x0, y0, x1, y1;
};
Box box(const nlohmann::json& a) {
  return {a[0].get<float>(), a[1].get<float>(), a[2].get<float>(), a[3].get<float>()};
}
bool overlap(const Box& a, const Box& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }
bool inside(const Box& a, const Box& outer, float slack = 0.5f) {
  return a.x0 >= outer.x0 - slack && a.y0 >= outer.y0 - slack && a.x1 <= outer.x1 + slack &&
         a.y1 <= outer.y1 + slack;
}

nlohmann::json layout_of(const std::string& args, const std::string& name) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-screen") / name;
  fs::create_directories(dir);
  const fs::path report = dir / "layout.json";
  const ProcessResult r = gpulab::testing::run_gpulab_in(
      "--headless --cpu --frames 4 " + args + " --layout-report " + report.string(), dir, "gpulab-screen");
  EXPECT_EQ(r.status, 0) << r.output;
  std::ifstream in(report);
  EXPECT_TRUE(in) << "no layout report: " << r.output;
  return nlohmann::json::parse(in, nullptr, false);
}

// `min_figures`: the HUD figures that must be shown (the CPU backend has two: time and speed-up).
void expect_lecture_screen(const nlohmann::json& j, const std::string& what, float min_code_px,
                           size_t min_figures = 2) {
  ASSERT_TRUE(j.is_object()) << what;
  const auto& regions = j["regions"];
  for (const char* name : {"view", "hud", "lesson", "caption", "code"})
    ASSERT_TRUE(regions.contains(name)) << what << ": no " << name << " region";
  // No two regions overlap.
  for (auto a = regions.begin(); a != regions.end(); ++a)
    for (auto b = std::next(a); b != regions.end(); ++b) {
      if (a.key() == "ab" || b.key() == "ab") continue;
      EXPECT_FALSE(overlap(box(a.value()), box(b.value()))) << what << ": " << a.key() << " over " << b.key();
    }
  // Each element inside its region.
  ASSERT_TRUE(j["hud"]["shown"].get<bool>()) << what;
  EXPECT_TRUE(inside(box(j["hud"]["box"]), box(regions["hud"]))) << what << ": the HUD leaves its band";
  EXPECT_GE(j["hud"]["values"].size(), min_figures) << what << ": a HUD figure was dropped";
  ASSERT_TRUE(j["code"]["shown"].get<bool>()) << what;
  EXPECT_TRUE(inside(box(j["code"]["box"]), box(regions["code"]))) << what << ": the code leaves its column";
  EXPECT_GE(j["code"]["font_px"].get<float>(), min_code_px) << what << ": code text below the minimum";
  // The stages' radios (one a stage that runs) wrap inside the panel, never past its right edge.
  EXPECT_LE(j["code"]["stages_x1"].get<float>(), box(j["code"]["box"]).x1 + 0.5f)
      << what << ": a stage's radio is cut at the code panel's right edge";
  const auto band = j["lesson"]["caption_band"];
  const Box lesson = box(regions["lesson"]);
  EXPECT_GE(band[0].get<float>(), lesson.y0 - 0.5f) << what;
  // Where the caption's last line ends as set (not where the band cuts it).
  EXPECT_LE(band[1].get<float>(), lesson.y1 + 0.5f) << what << ": the caption is cut at the band's foot";
  if (j["window"].size() == 4 && j["drawn"].get<bool>()) {
    EXPECT_FALSE(overlap(
        box({j["window"][0], j["window"][1], j["window"][0].get<float>() + j["window"][2].get<float>(),
             j["window"][1].get<float>() + j["window"][3].get<float>()}),
        box(regions["view"])))
        << what << ": the panel covers the view";
  }
}

}  // namespace

TEST(LectureScreen, ALessonStepWithCodeAndHudNeverOverlaps) {
  const std::string lesson = (fs::path(GPULAB_TEST_ASSETS) / "lessons/01-life.toml").string();
  // Step 2 runs on the CPU; step 6 (gpu-shared) stands in with the CPU reference and says so in a
  // line of the band above the caption.
  for (int step : {2, 6})
    for (const auto& [size, w] : {std::pair{"1280x720", 1280.0f}, {"1920x1080", 1920.0f}})
      for (int scale : {1, 2, 3}) {
        const std::string what =
            std::string(size) + " @" + std::to_string(scale) + " step " + std::to_string(step);
        const nlohmann::json j =
            layout_of("--size " + std::string(size) + " --ui-scale " + std::to_string(scale) +
                          " --hud --caption --lesson " + lesson + " --lesson-step " + std::to_string(step),
                      std::string(size) + "-" + std::to_string(scale) + "-" + std::to_string(step));
        // 20 px at 1080p (scaled with the screen's height) from UI scale 2 up.
        const float min_px = scale >= 2 ? 20.0f * (w == 1920.0f ? 1.0f : 720.0f / 1080.0f) : 0.0f;
        expect_lecture_screen(j, what, min_px - 0.5f);
        EXPECT_FLOAT_EQ(j["ui_scale_asked"].get<float>(), static_cast<float>(scale)) << what;
        // Nothing over the picture when a lesson opens: its band says what the notices would.
        EXPECT_FALSE(j["toasts"]["shown"].get<bool>()) << what << ": " << j["toasts"];
        if (step == 6) {
          EXPECT_NE(j["lesson"]["problem"].get<std::string>().find("needs an NVIDIA GPU"), std::string::npos)
              << what;
        }
      }
}

TEST(LectureScreen, AStepWithSeveralStagesKeepsTheirRadiosInsideTheCodePanel) {
  // The histogram lesson's step 3 runs three stages (histogram, scan, apply): their radios name the
  // stage and the rung, wider than the code column at 2x and 3x, so they wrap to rows of their own.
  const std::string lesson = (fs::path(GPULAB_TEST_ASSETS) / "lessons/02-histogram.toml").string();
  for (int scale : {2, 3}) {
    const std::string what = "histogram step 3 @" + std::to_string(scale);
    const nlohmann::json j = layout_of("--size 1920x1080 --projector --hud --caption --ui-scale " +
                                           std::to_string(scale) + " --lesson " + lesson + " --lesson-step 3",
                                       "stages-" + std::to_string(scale));
    expect_lecture_screen(j, what, 19.5f);
    EXPECT_GT(j["code"]["stages_x1"].get<float>(), box(j["code"]["box"]).x0) << what << ": no radios";
  }
}

TEST(LectureScreen, AShortWindowHoldsTheUiScaleToItsHeight) {
  // 1280x720 at 3x would be 1080p at 4.5x (17 lines of text on the screen): the scale is held at what
  // gives 25 lines (720 / 14 / 25 = 2.06x), the same share of the height as 1080p at 3x.
  const std::string lesson = (fs::path(GPULAB_TEST_ASSETS) / "lessons/01-life.toml").string();
  const nlohmann::json j =
      layout_of("--size 1280x720 --projector --ui-scale 3 --lesson " + lesson + " --lesson-step 6", "held");
  ASSERT_TRUE(j.is_object());
  EXPECT_NEAR(j["ui_scale"].get<float>(), 720.0f / (14.0f * 25.0f), 1e-3f);
  EXPECT_FLOAT_EQ(j["ui_scale_asked"].get<float>(), 3.0f);
  EXPECT_NEAR(j["font_px"].get<float>(), 29.0f, 0.5f);
  // 1080p at 3x is not held.
  const nlohmann::json k = layout_of("--size 1920x1080 --ui-scale 3", "not-held");
  ASSERT_TRUE(k.is_object());
  EXPECT_FLOAT_EQ(k["ui_scale"].get<float>(), 3.0f);
}

TEST(LectureScreen, ProjectorModeKeepsHalfTheWidthForThePicture) {
  const std::string lesson = (fs::path(GPULAB_TEST_ASSETS) / "lessons/01-life.toml").string();
  const nlohmann::json j = layout_of(
      "--size 1920x1080 --projector --caption --lesson " + lesson + " --lesson-step 2", "projector");
  expect_lecture_screen(j, "projector", 19.5f);
  const Box view = box(j["regions"]["view"]);
  EXPECT_GE(view.x1 - view.x0, 960.0f - 0.5f) << "the view keeps at least half the width";
  // The presenter's notes are never on the projected screen.
  EXPECT_FALSE(j["lesson"]["notes_shown"].get<bool>());
}

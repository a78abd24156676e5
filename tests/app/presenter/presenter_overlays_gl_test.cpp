// gl label, end to end through the binary (headless EGL; Mesa where there is no GPU): the heads-up
// display of every demo is drawn where the layout report says, off the view's middle, with digits
// of at least 48 px at 1080p and a measured time; projector mode shows it by default; the key list
// (F1 / ?) of every demo lists the shell's keys and the demo's own, inside the screen at 3x.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "core/demo.h"
#include "gl/image_io.h"
#include "support/demo_names.h"
#include "support/layout_report.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;
using gpulab::testing::ReportedRun;

namespace {

fs::path temp_dir() { return gpulab::testing::temp_dir("gpulab-overlays"); }

// gpulab with XDG_CONFIG_HOME in a scratch folder (never the user's settings).
ProcessResult run(const std::string& args, const fs::path& dir) {
  return gpulab::testing::run_gpulab_in(args, dir, "gpulab-overlays");
}

// The same, with its layout report parsed.
ReportedRun run_reported(const std::string& args, const fs::path& dir) {
  return gpulab::testing::run_with_layout_report(args, dir, "gpulab-overlays");
}

class EveryDemoOverlay : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryDemoOverlay, HudIsReadableAndLeavesTheMiddleFree) {
  const std::string demo = GetParam();
  const fs::path dir = temp_dir() / ("hud-" + demo);
  const fs::path png = dir / "shot.png";
  // Enough frames for a measured step and a refresh of the read-out (twice a second at most).
  const ReportedRun rr =
      run_reported("--headless --demo " + demo + " --hud --frames 24 --size 1920x1080 --ui-scale 1 " +
                       "--screenshot " + png.string(),
                   dir);
  const ProcessResult& r = rr.process;
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json& j = rr.report;
  ASSERT_FALSE(j.is_discarded());
  const nlohmann::json& h = j["hud"];
  ASSERT_TRUE(h.value("shown", false)) << h;
  EXPECT_GE(j.value("hud_digit_px", 0.0f), 48.0f);
  const float x0 = h["box"][0], y0 = h["box"][1], x1 = h["box"][2], y1 = h["box"][3];
  const float view_x0 = h["view"][0], view_x1 = h["view"][1], view_y1 = h["view"][2];
  // In its own band of the screen layout, under the view: it covers neither the panel nor the picture.
  const nlohmann::json& band = j["regions"]["hud"];
  ASSERT_EQ(band.size(), 4u) << j["regions"];
  EXPECT_GE(x0, band[0].get<float>()) << "the HUD is under the panel";
  EXPECT_LE(x1, band[2].get<float>() + 0.5f);
  EXPECT_GE(y0, band[1].get<float>() - 0.5f);
  EXPECT_LE(y1, band[3].get<float>() + 0.5f);
  EXPECT_GE(y0, view_y1 - 0.5f) << "the HUD covers the view";
  EXPECT_GE(x0, view_x0);
  EXPECT_LE(x1, view_x1 + 0.5f);
  EXPECT_LT(x0, (view_x0 + view_x1) / 2);
  // What it says: the demo and variant, a time per step, a speed-up figure and a % of peak.
  EXPECT_NE(h.value("title", "").find(" — "), std::string::npos) << h;
  // The time and the speed-up; the % of peak where the device's peak is known (not on the CPU backend).
  ASSERT_GE(h["values"].size(), 2u) << h;
  ASSERT_LE(h["values"].size(), 3u) << h;
  for (const auto& c : h["captions"])
    EXPECT_EQ(c.get<std::string>().find("unknown on the CPU backend"), std::string::npos) << h;
  const std::string time = h["values"][0];
  EXPECT_TRUE(std::regex_match(time, std::regex("[0-9.]+ (µs|ms|s)"))) << "not a measured time: " << time;
  EXPECT_FALSE(h["captions"][1].get<std::string>().empty());
  // Drawn where it says: the dark theme's white digits in the box's value row.
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  ASSERT_EQ(img.width, 1920) << err;
  size_t white = 0;
  for (int y = static_cast<int>(y0); y < static_cast<int>(y1); ++y)
    for (int x = static_cast<int>(x0); x < static_cast<int>(x1); ++x) {
      const size_t i = (static_cast<size_t>(y) * img.width + x) * 4;
      white += img.rgba[i] > 240 && img.rgba[i + 1] > 240 && img.rgba[i + 2] > 240;
    }
  EXPECT_GT(white, 2000u) << "no large white digits inside the HUD's box";
}

TEST_P(EveryDemoOverlay, KeyListShowsTheShellsAndTheDemosKeysInsideTheScreen) {
  const std::string demo = GetParam();
  std::vector<std::string> own;
  for (const auto& d : gpulab::make_demos())
    if (d->name() == demo)
      for (const gpulab::KeyBinding& k : d->keys()) own.emplace_back(k.shown);
  for (const float scale : {2.0f, 3.0f}) {
    const std::string at = demo + " at " + std::to_string(scale);
    const fs::path dir = temp_dir() / ("keys-" + demo + std::to_string(static_cast<int>(scale)));
    const ReportedRun rr =
        run_reported("--headless --cpu --demo " + demo + " --show-keys --frames 3 --size 1920x1080 " +
                         "--ui-scale " + std::to_string(scale),
                     dir);
    const ProcessResult& r = rr.process;
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json& j = rr.report;
    ASSERT_FALSE(j.is_discarded());
    const nlohmann::json& h = j["help"];
    ASSERT_TRUE(h.value("shown", false)) << at;
    EXPECT_GE(h["box"][0].get<float>(), 0.0f) << at;
    EXPECT_GE(h["box"][1].get<float>(), 0.0f) << at;
    EXPECT_LE(h["box"][2].get<float>(), 1920.0f) << at;
    EXPECT_LE(h["box"][3].get<float>(), 1080.0f) << at;
    if (scale == 2.0f) {
      EXPECT_FALSE(h.value("scrolls", true)) << at << ": the list does not fit";
    }
    const std::string listed = h["keys"].dump();
    for (const char* k : {"F1 / ?", "F2", "F5 / Ctrl+L", "F6", "F7", "F11", "F12", "Ctrl+=", "Space", "1-9",
                          "H", "B / .", "PageDown / Right", "PageUp / Left"})
      EXPECT_NE(listed.find(std::string("\"") + k + "\""), std::string::npos)
          << at << ": " << k << " not listed";
    for (const std::string& k : own)
      EXPECT_NE(listed.find(k), std::string::npos) << at << ": the demo's " << k;
  }
}

// B / W blanks the projector: nothing but the colour, in projector mode (HUD and bands on) and for every
// demo, those that draw their own marks over the picture (transfers' chart, rotation's magnifier, the
// matrix tiles, the histogram's labels) included.
TEST_P(EveryDemoOverlay, ABlankIsNothingButItsColour) {
  const std::string demo = GetParam();
  const fs::path dir = temp_dir() / ("blank-" + demo);
  const fs::path png = dir / "shot.png";
  const ReportedRun rr =
      run_reported("--headless --cpu --demo " + demo +
                       " --projector --blank --frames 3 --size 1280x720 --screenshot " + png.string(),
                   dir);
  ASSERT_EQ(rr.process.status, 0) << rr.process.output;
  EXPECT_TRUE(rr.report.value("blanked", false));
  EXPECT_FALSE(rr.report["hud"].value("shown", true)) << "the HUD is drawn over the blank";
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  ASSERT_EQ(img.width, 1280) << err;
  size_t lit = 0;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    lit += img.rgba[i] || img.rgba[i + 1] || img.rgba[i + 2];
  EXPECT_EQ(lit, 0u) << demo << ": pixels that are not the blank's black";
}

// The key list (F1) is drawn last: over it, nothing of the HUD or the lesson's bands.
TEST_P(EveryDemoOverlay, TheKeyListIsDrawnOverEverything) {
  const std::string demo = GetParam();
  const fs::path dir = temp_dir() / ("keys-last-" + demo);
  const ReportedRun rr = run_reported(
      "--headless --cpu --demo " + demo + " --projector --show-keys --frames 3 --size 1920x1080", dir);
  ASSERT_EQ(rr.process.status, 0) << rr.process.output;
  EXPECT_TRUE(rr.report["help"].value("shown", false));
  EXPECT_FALSE(rr.report["hud"].value("shown", true)) << "the HUD is drawn with the key list";
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryDemoOverlay, ::testing::ValuesIn(gpulab::testing::demo_names()),
                         [](const auto& info) { return info.param; });

TEST(ProjectorMode, ShowsTheHud) {
  const fs::path dir = temp_dir() / "projector";
  const ReportedRun rr = run_reported("--headless --cpu --projector --frames 3 --size 1920x1080", dir);
  const ProcessResult& r = rr.process;
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json& j = rr.report;
  EXPECT_TRUE(j["hud"].value("shown", false));
  EXPECT_FALSE(j["help"].value("shown", true));
}

TEST(Hud, TheSpeedUpIsThereWithoutRunningTheBaselineLive) {
  // cpu-lut runs; its baseline (cpu-naive) never does: it is measured in the background on a copy of
  // the same grid, and the headless run waits for it, so the last frame has the speed-up.
  const fs::path dir = temp_dir() / "hud-baseline";
  const ReportedRun rr =
      run_reported("--headless --cpu --demo life --variant cpu-lut --grid 96x80 --hud --frames 3", dir);
  ASSERT_EQ(rr.process.status, 0) << rr.process.output;
  const nlohmann::json& h = rr.report["hud"];
  ASSERT_TRUE(h.value("shown", false)) << h;
  ASSERT_GE(h["values"].size(), 2u) << h;
  const std::string speedup = h["values"][1].get<std::string>();
  // Where the drawing (a software GL here) kept the cores busy the whole time, no figure but the
  // reason; never "measuring…" or "not measured yet" (the job's own tests inject the clocks).
  if (speedup == "–") {
    EXPECT_EQ(h["captions"][1].get<std::string>(), "vs cpu-naive (CPU): cores busy, F5 measures it");
    return;
  }
  ASSERT_EQ(speedup.substr(speedup.size() - 2), "×") << speedup;  // "1.62×": a number, not "measuring…"
  // Timed with the live step held: a figure, "≈ 1.6×" where the drawing still kept the cores busy
  // (software GL here; the job's own tests inject the clocks).
  const bool approximate = speedup.rfind("≈ ", 0) == 0;
  const std::string number = approximate ? speedup.substr(std::string("≈ ").size()) : speedup;
  ASSERT_TRUE(std::isdigit(static_cast<unsigned char>(number[0]))) << speedup;
  EXPECT_GT(std::stod(number), 0.1) << speedup;
  EXPECT_EQ(h["captions"][1].get<std::string>(),
            approximate ? "vs cpu-naive (CPU), on busy cores" : "vs cpu-naive (CPU)");
}

TEST(ProjectorMode, TheWindowsLadderFollowsTheLightTheme) {
  const fs::path dir = temp_dir() / "projector-ladder";
  const fs::path png = dir / "shot.png";
  const ProcessResult r =
      run("--headless --cpu --demo nbody --projector --start-ladder --frames 2 --size 1920x1080 "
          "--screenshot " +
              png.string(),
          dir);
  ASSERT_EQ(r.status, 0) << r.output;
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  ASSERT_EQ(img.width, 1920) << err;
  // The chart's background near the bottom right corner (below the axis labels, right of the bars).
  const size_t i = (static_cast<size_t>(1070) * 1920 + 1910) * 4;
  EXPECT_GT(img.rgba[i] + img.rgba[i + 1] + img.rgba[i + 2], 3 * 220)
      << "the ladder is not drawn in the light theme";
}

}  // namespace

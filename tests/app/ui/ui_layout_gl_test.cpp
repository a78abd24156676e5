// gl label, end to end through the binary (headless EGL; Mesa where there is no GPU): every demo's
// panel at --ui-scale 3 on a 1920x1080 framebuffer keeps every widget inside the framebuffer or
// scrolls (the layout's bounds, from --layout-report, not just pixels); the text is rasterised at
// 3x; at 1600x900 and 1x the Timings and Occupancy sections are in view; projector mode shows the
// compact light panel; and headless runs neither read nor write the user's settings.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "core/demo.h"
#include "gl/image_io.h"
#include "support/demo_names.h"
#include "support/png_colours.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;

namespace {

fs::path temp_dir() { return gpulab::testing::temp_dir("gpulab-layout"); }

// Runs gpulab with XDG_CONFIG_HOME in a scratch folder (never the user's settings).
ProcessResult run_with_config(const std::string& args, const fs::path& config) {
  fs::create_directories(config);
  const char* old = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  ProcessResult r = gpulab::testing::run_gpulab(args, "gpulab-layout");
  if (old)
    ::setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  else
    ::unsetenv("XDG_CONFIG_HOME");
  return r;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  EXPECT_TRUE(in) << "no layout report " << p;
  return nlohmann::json::parse(in, nullptr, false);
}

size_t colours(const fs::path& png) { return gpulab::testing::distinct_colours(png); }

// Nothing of the panel outside the framebuffer, and nothing laid out beyond what the panel shows
// unless it scrolls that way.
void expect_fits(const nlohmann::json& j, const std::string& what) {
  ASSERT_TRUE(j.value("drawn", false)) << what << ": no panel drawn";
  const auto d = j["display"], w = j["window"], inner = j["inner"], content = j["content"];
  const float dw = d[0], dh = d[1], x = w[0], y = w[1], ww = w[2], wh = w[3];
  EXPECT_GE(x, 0.0f) << what;
  EXPECT_GE(y, 0.0f) << what;
  EXPECT_LE(x + ww, dw + 0.5f) << what << ": the panel runs off the right of the framebuffer";
  EXPECT_LE(y + wh, dh + 0.5f) << what << ": the panel runs off the bottom of the framebuffer";
  const float work_x1 = j["work_x1"], inner_y1 = inner[3];
  const float content_x1 = content[0], content_y1 = content[1];
  if (!j.value("scrollbar_x", false)) {
    EXPECT_LE(content_x1, work_x1 + 1.0f)
        << what << ": widgets end at x=" << content_x1 << ", the panel's room at " << work_x1
        << ", and it does not scroll sideways";
  }
  if (!j.value("scrollbar_y", false)) {
    EXPECT_LE(content_y1, inner_y1 + 1.0f)
        << what << ": widgets below the panel's bottom, and it does not scroll";
  }
}

class EveryDemoLayout : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryDemoLayout, NothingIsCutOffAtScale3On1080p) {
  const std::string demo = GetParam();
  const fs::path dir = temp_dir() / ("scale3-" + demo);
  fs::create_directories(dir);
  const fs::path png = dir / "shot.png", report = dir / "layout.json", config = dir / "config";
  const ProcessResult r =
      run_with_config("--headless --demo " + demo + " --frames 4 --size 1920x1080 --ui-scale 3" +
                          " --screenshot " + png.string() + " --layout-report " + report.string(),
                      config);
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json j = read_json(report);
  ASSERT_FALSE(j.is_discarded());
  expect_fits(j, demo + " at 3x");
  // Crisp text: DejaVu rasterised at 3x the base size, never a 1x atlas stretched by FontGlobalScale.
  EXPECT_TRUE(j.value("truetype", false)) << r.output;
  EXPECT_EQ(j.value("ui_scale", 0.0f), 3.0f);
  EXPECT_GE(j.value("base_font_px", 0.0f), 13.0f);
  EXPECT_GE(j.value("font_px", 0.0f), 3.0f * j.value("base_font_px", 100.0f));
  EXPECT_EQ(j.value("font_global_scale", 0.0f), 1.0f);
  EXPECT_GE(j.value("hud_digit_px", 0.0f), 48.0f);
  EXPECT_GT(colours(png), 20u) << demo << ": the UI is missing from the screenshot";
  // A headless run writes no settings.
  EXPECT_FALSE(fs::exists(config / "gpulab")) << "a headless run wrote settings";
}

TEST_P(EveryDemoLayout, TimingsAndOccupancyAreInViewAt1600x900) {
  const std::string demo = GetParam();
  const fs::path dir = temp_dir() / ("fold-" + demo);
  fs::create_directories(dir);
  const fs::path report = dir / "layout.json";
  const ProcessResult r =
      run_with_config("--headless --demo " + demo +
                          " --frames 3 --size 1600x900 --ui-scale 1 --layout-report " + report.string(),
                      dir / "config");
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json j = read_json(report);
  ASSERT_FALSE(j.is_discarded());
  expect_fits(j, demo + " at 1x");
  const float bottom = j["inner"][3];
  std::set<std::string> seen;
  for (const auto& s : j["sections"]) {
    const std::string name = s["name"];
    seen.insert(name);
    if (name == "Timings" || name == "Occupancy") {
      EXPECT_LE(s["y1"].get<float>(), bottom) << demo << ": the " << name << " header is below the fold";
    }
  }
  EXPECT_TRUE(seen.count("Timings") && seen.count("Occupancy")) << j["sections"];
}

// Projector mode with the panel folded to its strip: the demo's picture is still drawn in the view
// (the transfers demo once drew its charts only from the panel's code, so a folded panel left the
// view black). At least a few hundred of the view's pixels differ from its corner's colour.
TEST_P(EveryDemoLayout, TheViewShowsThePictureWithThePanelFolded) {
  const std::string demo = GetParam();
  const fs::path dir = temp_dir() / ("folded-" + demo);
  fs::create_directories(dir);
  const fs::path png = dir / "shot.png", report = dir / "layout.json";
  const ProcessResult r =
      run_with_config("--headless --projector --demo " + demo + " --frames 3 --size 1280x720 --screenshot " +
                          png.string() + " --layout-report " + report.string(),
                      dir / "config");
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json j = read_json(report);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_TRUE(j.value("compact", false)) << demo << ": the panel is not folded";
  const auto v = j["regions"]["view"];
  ASSERT_TRUE(v.is_array() && v.size() == 4) << j["regions"];
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  ASSERT_EQ(img.width, 1280) << err;
  const int x0 = static_cast<int>(v[0].get<float>()), y0 = static_cast<int>(v[1].get<float>());
  const int x1 = static_cast<int>(v[2].get<float>()), y1 = static_cast<int>(v[3].get<float>());
  ASSERT_GT(x1 - x0, 400) << j["regions"];
  auto at = [&](int x, int y) {
    const size_t i = (static_cast<size_t>(y) * img.width + x) * 4;
    return uint32_t(img.rgba[i]) | uint32_t(img.rgba[i + 1]) << 8 | uint32_t(img.rgba[i + 2]) << 16;
  };
  const uint32_t corner = at(x0 + 1, y1 - 2);
  size_t differ = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) differ += at(x, y) != corner;
  EXPECT_GT(differ, 500u) << demo << ": the view (" << v << ") is one colour with the panel folded";
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryDemoLayout, ::testing::ValuesIn(gpulab::testing::demo_names()),
                         [](const auto& info) { return info.param; });

TEST(ProjectorMode, CompactLightPanelAtScale2) {
  const fs::path dir = temp_dir() / "projector";
  fs::create_directories(dir);
  const fs::path report = dir / "layout.json", png = dir / "shot.png";
  const ProcessResult r = run_with_config("--headless --projector --frames 3 --size 1920x1080 --screenshot " +
                                              png.string() + " --layout-report " + report.string(),
                                          dir / "config");
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json j = read_json(report);
  expect_fits(j, "projector mode");
  EXPECT_TRUE(j.value("compact", false));
  EXPECT_EQ(j.value("theme", ""), "light");
  EXPECT_EQ(j.value("ui_scale", 0.0f), 2.0f);
  EXPECT_TRUE(j["sections"].empty()) << "the compact panel has only the pickers";
  // The compact panel is small: the picture keeps most of the screen.
  EXPECT_LT(j["window"][2].get<float>(), 1920.0f / 2) << j["window"];
  // The light theme's white panel is in the picture.
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  ASSERT_EQ(img.width, 1920) << err;
  const int px = static_cast<int>(j["window"][0].get<float>()) + 30,
            py = static_cast<int>(j["window"][1].get<float>() + j["window"][3].get<float>()) - 6;
  const size_t i = (static_cast<size_t>(py) * 1920 + px) * 4;
  EXPECT_GT(img.rgba[i] + img.rgba[i + 1] + img.rgba[i + 2], 3 * 230)
      << "not a white panel at " << px << "," << py;
}

TEST(HeadlessSettings, AreNeitherReadNorWritten) {
  const fs::path dir = temp_dir() / "noread";
  const fs::path config = dir / "config";
  fs::create_directories(config / "gpulab");
  {
    std::ofstream(config / "gpulab" / "settings.toml")
        << "theme = \"light\"\nui_scale = 3.5\nlast_demo = \"nbody\"\n";
  }
  const auto before = fs::last_write_time(config / "gpulab" / "settings.toml");
  const fs::path report = dir / "layout.json";
  const ProcessResult r = run_with_config(
      "--headless --cpu --frames 2 --size 800x600 --ui-scale 1 --layout-report " + report.string(), config);
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json j = read_json(report);
  EXPECT_EQ(j.value("theme", ""), "dark") << "a headless run read the user's settings";
  EXPECT_NE(r.output.find("Game of Life"), std::string::npos) << "not the default demo:\n" << r.output;
  EXPECT_EQ(fs::last_write_time(config / "gpulab" / "settings.toml"), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(config / "gpulab"), fs::directory_iterator{}), 1);
}

}  // namespace

// The windowed app end to end: real key presses (xdotool) on a GLFW window (Xvfb under scripts/test):
// F12 saves a screenshot, H hides the UI, and a later F12 saves a second file without overwriting.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fstream>

#include <nlohmann/json.hpp>

#include "gl/image_io.h"
#include "support/png_colours.h"
#include "support/test_paths.h"
#include "support/window_app.h"

namespace fs = std::filesystem;

namespace {

using namespace gpulab::testing;

size_t colours(const fs::path& png) { return gpulab::testing::distinct_colours(png); }

// The windowed app on Life's CPU backend, started in a scratch folder (its screenshots/ go there)
// and stopped, the folder removed, when the test ends.
struct RunningApp : WindowApp {
  explicit RunningApp(const std::string& prefix, const std::string& extra = "")
      : WindowApp(fresh_dir(prefix), "--cpu --size 800x600 --grid 128x128 " + extra) {
    EXPECT_TRUE(started());
  }
};

TEST(WindowHotkeys, F12SavesAndHHidesTheUi) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  const RunningApp app("gpulab-window-");
  const fs::path dir = app.dir;
  wait_until_ready(dir);

  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 1)) << "F12 saved nothing";
  key("h");
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 2))
      << "the second F12 saved nothing (or overwrote the first)";
  const auto files = pngs(dir / "screenshots");
  ASSERT_EQ(files.size(), 2u);
  // With the UI the image has the panel's many colours; without it only the cells' few.
  EXPECT_GT(colours(files[0]), 20u);
  EXPECT_LT(colours(files[1]), 12u);
}

// F9 twice: a clip for a slide, 16:9 at 1920x1080 whatever the window's size (800x600 here: the view
// scaled to fit, centred), not the window's odd size.
TEST(WindowHotkeys, F9RecordsA1080pClip) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  GPULAB_SKIP_WITHOUT_TOOL(missing_ffmpeg());
  const RunningApp app("gpulab-window-clip-");
  const fs::path dir = app.dir;
  wait_until_ready(dir);
  key("F9");
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  key("F9");
  ASSERT_TRUE(wait_for_text(dir / "app.log", "wrote ")) << app.log();
  std::vector<fs::path> clips;
  for (const auto& e : fs::directory_iterator(dir / "recordings"))
    if (e.path().extension() == ".mp4") clips.push_back(e.path());
  ASSERT_EQ(clips.size(), 1u) << app.log();
  const std::string size =
      output_of("ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 '" +
                clips[0].string() + "'");
  EXPECT_EQ(size.substr(0, size.find_last_not_of("\n") + 1), "1920,1080") << app.log();
}

TEST(WindowHotkeys, F2ShowsTheHudAndF1TheKeysOverAHiddenPanel) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  const RunningApp app("gpulab-window-hud-");
  const fs::path dir = app.dir;
  wait_until_ready(dir);

  key("h");  // the panel hidden: what is left is the cells, then what F2 and F1 add
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 1)) << "F12 saved nothing";
  key("F2");
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 2));
  key("F2");
  key("F1");
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 3));
  key("Escape");  // closes the list
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 4));
  const auto files = pngs(dir / "screenshots");
  ASSERT_EQ(files.size(), 4u);
  EXPECT_LT(colours(files[0]), 12u) << "the panel is still shown";
  EXPECT_GT(colours(files[1]), 20u) << "F2 drew no heads-up display";
  EXPECT_GT(colours(files[2]), 20u) << "F1 drew no list of keys";
  EXPECT_LT(colours(files[3]), 12u) << "Esc did not close the list, or F2 did not hide the HUD";
}

}  // namespace

namespace {
// The colour at the middle of a PNG (r, g, b packed), or -1 when it cannot be read.
long middle_colour(const fs::path& png) {
  std::string err;
  const gpulab::gl::Image img = gpulab::gl::read_image(png, &err);
  if (img.width <= 0 || img.height <= 0) return -1;
  const size_t i = (static_cast<size_t>(img.height / 2) * img.width + img.width / 2) * 4;
  return long(img.rgba[i]) | long(img.rgba[i + 1]) << 8 | long(img.rgba[i + 2]) << 16;
}
}  // namespace

TEST(WindowClicker, BlankKeysAndF5DuringALesson) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  const fs::path lesson = fs::path(GPULAB_TEST_ASSETS) / "lessons" / "01-life.toml";
  RunningApp app("gpulab-window-clicker-", "--lesson " + lesson.string() + " --layout-report layout.json");
  const fs::path dir = app.dir;
  wait_until_ready(dir);
  // B blanks the view to black, W to white, and the same key again brings the picture back.
  key("b");
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 1));
  key("w");
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 2));
  key("w");
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 3));
  const auto files = pngs(dir / "screenshots");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(middle_colour(files[0]), 0x000000) << "B: black";
  EXPECT_EQ(middle_colour(files[1]), 0xffffff) << "W: white";
  EXPECT_GT(colours(files[2]), 20u) << "W again: the picture and the panel are back";
  // Ctrl+P: the spotlight where the mouse points over the picture.
  ASSERT_EQ(std::system("xdotool search --onlyvisible --name '^gpulab - ' mousemove --window %1 400 150 "
                        ">/dev/null 2>&1"),
            0);
  key("ctrl+p");
  // F5 is a clicker's slideshow key: during a lesson it starts no ladder, and a toast names Ctrl+L.
  key("F5");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const nlohmann::json j = app.stop_and_report();
  ASSERT_TRUE(j.is_object()) << "no layout report written at exit (or not JSON)";
  EXPECT_FALSE(j["ladder"].get<bool>()) << "F5 started a ladder during a lesson";
  bool named = false;
  for (const auto& line : j["toasts"]["lines"])
    named = named || line.get<std::string>().find("Ctrl+L") != std::string::npos;
  EXPECT_TRUE(named) << j["toasts"].dump();
  EXPECT_TRUE(j["lesson"]["running"].get<bool>());
  EXPECT_TRUE(j["pointer"]["shown"].get<bool>()) << j["pointer"].dump() << j["regions"].dump();
}

TEST(WindowClicker, AbEndsOnTheVariantThatRanBeforeIt) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  RunningApp app("gpulab-window-ab-", "--variant cpu-lut --layout-report layout.json");
  const fs::path dir = app.dir;
  wait_until_ready(dir);
  key("F8");  // A/B: the baseline (cpu-naive) against what ran (cpu-lut)
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 1));
  key("F8");  // ends it: back on cpu-lut, not on A's baseline
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 2));
  const nlohmann::json j = app.stop_and_report();
  ASSERT_TRUE(j.is_object()) << "no layout report written at exit (or not JSON)";
  EXPECT_FALSE(j["ab"]["shown"].get<bool>());
  ASSERT_FALSE(j["running"].empty());
  EXPECT_EQ(j["running"][0].get<std::string>(), "cpu-lut");
}

TEST(WindowPresenter, TheNotesAreOnThePresentersWindowAndThePictureOnTheProjectedOne) {
  // Xvfb has one monitor: --presenter-window opens the presenter's window anyway (the way to rehearse
  // on one screen); with two monitors projector mode opens it by itself (monitors_test.cpp).
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  const fs::path lesson = fs::path(GPULAB_TEST_ASSETS) / "lessons" / "01-life.toml";
  RunningApp app("gpulab-window-presenter-", "--projector --presenter-window --lesson " + lesson.string() +
                                                 " --layout-report layout.json");
  const fs::path dir = app.dir;
  wait_until_ready(dir);
  key("Next");  // PageDown, from whichever of the two windows has the focus
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 1));
  const nlohmann::json j = app.stop_and_report();
  ASSERT_TRUE(j.is_object()) << "no layout report written at exit (or not JSON)";
  const nlohmann::json& p = j["presenter"];
  EXPECT_TRUE(p["shown"].get<bool>()) << p;
  EXPECT_TRUE(p["notes_shown"].get<bool>()) << "the step's notes are on the presenter's window";
  EXPECT_FALSE(p["next"].get<std::string>().empty()) << "the next step is named";
  EXPECT_FALSE(j["regions"].contains("panel")) << "the projected window has no panel: " << j["regions"];
  EXPECT_TRUE(j["regions"].contains("view"));
  EXPECT_EQ(j["lesson"]["step"].get<int>(), 2) << "PageDown went to the lesson";
}

TEST(WindowPresenter, TheSpotlightIsPointedFromThePresentersPad) {
  // The presenter's window has a pad at the foot of its left column, the projected view in small:
  // with the spotlight on, the mouse over the pad moves the spotlight on the projected picture.
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  RunningApp app("gpulab-window-pad-", "--projector --presenter-window --layout-report layout.json");
  const fs::path dir = app.dir;
  wait_until_ready(dir);
  key("ctrl+p");
  // The pad's middle, a little above its foot: the left column is 42% of the presenter's window.
  const std::string move =
      "id=$(xdotool search --sync --onlyvisible --name '^gpulab - presenter$' | head -1) && "
      "eval $(xdotool getwindowgeometry --shell $id) && "
      "for dy in 34 32 30; do xdotool mousemove --window $id $((WIDTH * 21 / 100)) $((HEIGHT - dy)); "
      "sleep 0.3; done";
  {
    std::ofstream script(dir / "move.sh");
    script << move << "\n";
  }
  ASSERT_EQ(std::system(("bash " + (dir / "move.sh").string()).c_str()), 0) << move;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const nlohmann::json j = app.stop_and_report();
  ASSERT_TRUE(j.is_object()) << "no layout report written at exit (or not JSON)";
  const nlohmann::json& p = j["pointer"];
  ASSERT_TRUE(p["shown"].get<bool>()) << p << j["presenter"];
  EXPECT_EQ(p["from"].get<std::string>(), "presenter") << p;
  const auto view = j["regions"]["view"];
  const float x = p["at"][0].get<float>(), y = p["at"][1].get<float>();
  const float x0 = view[0].get<float>(), y0 = view[1].get<float>(), x1 = view[2].get<float>(),
              y1 = view[3].get<float>();
  // The pad's middle is the view's middle across; near its foot is near the view's foot.
  EXPECT_NEAR(x, (x0 + x1) / 2, (x1 - x0) * 0.1f) << p << view;
  EXPECT_GT(y, y0 + (y1 - y0) * 0.5f) << p << view;
  EXPECT_LE(y, y1) << p << view;
  const auto pad = j["presenter"]["pad"];
  EXPECT_GT(pad[2].get<float>() - pad[0].get<float>(), 40.0f) << pad;
}

TEST(WindowLesson, AStepThatNeedsAGpuShowsTheSameCpuReferenceAndSaysSoOnce) {
  // On the CPU backend, a lesson's GPU steps run the stage's CPU reference (cpu-lut for Life) whatever
  // ran before (step 1 runs cpu-naive), say so in one line that each step replaces, show the step's own
  // kernel in the code panel, and the HUD gives the step's recorded figures (not the stand-in's).
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  const fs::path lesson = fs::path(GPULAB_TEST_ASSETS) / "lessons" / "01-life.toml";
  RunningApp app("gpulab-window-standin-",
                 "--projector --lesson " + lesson.string() + " --layout-report layout.json");
  const fs::path dir = app.dir;
  wait_until_ready(dir);
  key("Next");  // step 2: cpu-lut
  key("Next");  // step 3: gpu-global
  key("Next");  // step 4: gpu-lut-local (a lesson shows the code panel)
  key("F12");
  ASSERT_TRUE(wait_for_pngs(dir / "screenshots", 1));
  const nlohmann::json j = app.stop_and_report();
  ASSERT_TRUE(j.is_object()) << "no layout report written at exit (or not JSON)";
  EXPECT_EQ(j["lesson"]["step"].get<int>(), 4) << j["lesson"];
  ASSERT_FALSE(j["running"].empty());
  EXPECT_EQ(j["running"][0].get<std::string>(), "cpu-lut") << "the stage's CPU reference stands in";
  EXPECT_EQ(j["lesson"]["problem"].get<std::string>(),
            "gpu-lut-local needs an NVIDIA GPU: the picture is the CPU reference, cpu-lut");
  // The band says it, in one line that the next step replaces: no toast of it over the picture, nor
  // the demo's own notice of the fallback; stderr has each step's line.
  for (const auto& line : j["toasts"]["lines"]) {
    const std::string t = line.get<std::string>();
    EXPECT_EQ(t.rfind("lesson step", 0), std::string::npos) << j["toasts"];
    EXPECT_EQ(t.find("not available"), std::string::npos) << j["toasts"];
  }
  const std::string log = slurp(dir / "app.log");
  EXPECT_NE(log.find("lesson step 4: gpu-lut-local needs an NVIDIA GPU"), std::string::npos) << log;
  EXPECT_EQ(j["code"]["variant"].get<std::string>(), "gpu-lut-local")
      << "the step's own kernel: " << j["code"];
  // The shipped lesson names its H100 results: the HUD gives the step's recorded figures, labelled,
  // never the stand-in's.
  EXPECT_NE(j["hud"]["title"].get<std::string>().find("gpu-lut-local, recorded on NVIDIA H100"),
            std::string::npos)
      << j["hud"].dump();
  bool recorded = false;
  for (const auto& c : j["hud"]["captions"])
    recorded = recorded || c.get<std::string>().find("(recorded)") != std::string::npos;
  EXPECT_TRUE(recorded) << j["hud"].dump();
}

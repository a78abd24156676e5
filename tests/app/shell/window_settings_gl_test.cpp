// The windowed app's settings end to end (Xvfb and xdotool, as window_hotkeys_gl_test): Ctrl+=, F6
// and a demo key are written to $XDG_CONFIG_HOME/gpulab/settings.toml within a second or two (a
// scratch folder, never the user's), and a corrupt settings file is reported while the app runs on.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include "support/test_paths.h"
#include "support/window_app.h"

namespace fs = std::filesystem;

namespace {

using namespace gpulab::testing;

TEST(WindowSettings, ScaleThemeAndDemoKeysAreSaved) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  GPULAB_SKIP_WITHOUT_TOOL(missing_program("xdotool", "xdotool"));
  WindowApp app(fresh_dir("gpulab-window-settings"), "--cpu --size 800x600");
  ASSERT_TRUE(app.started());
  const fs::path file = app.dir / "config" / "gpulab" / "settings.toml";
  key("ctrl+equal");  // Xvfb's content scale is 1: one step up is 1.25
  ASSERT_TRUE(wait_for_text(file, "ui_scale = 1.25")) << slurp(file) << slurp(app.dir / "app.log");
  key("F6");
  ASSERT_TRUE(wait_for_text(file, "theme = \"light\"")) << slurp(file);
  // The command line's --size and the demo it started (Life, the default) are not saved: only what the
  // user changes in the window is.
  EXPECT_EQ(slurp(file).find("window_width = 800"), std::string::npos) << slurp(file);
  EXPECT_EQ(slurp(file).find("last_demo"), std::string::npos) << slurp(file);
  key("2");
  ASSERT_TRUE(wait_for_text(file, "last_demo = \"nbody\"")) << slurp(file);
  key("ctrl+0");  // back to the display's scale: the key goes
  const auto t0 = std::chrono::steady_clock::now();
  while (slurp(file).find("ui_scale") != std::string::npos &&
         std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20))
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(slurp(file).find("ui_scale"), std::string::npos) << slurp(file);
  EXPECT_NE(slurp(file).find("theme = \"light\""), std::string::npos) << slurp(file);
  EXPECT_TRUE(app.running());
}

TEST(WindowSettings, ACorruptFileIsReportedAndTheAppRuns) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  const fs::path dir = fresh_dir("gpulab-window-corrupt");
  fs::create_directories(dir / "config" / "gpulab");
  const fs::path file = dir / "config" / "gpulab" / "settings.toml";
  const std::string text = "# mine\ntheme = \"light\"\nui_scale = = 2\n";
  std::ofstream(file) << text;
  WindowApp app(dir, "--cpu --size 800x600 --grid 64x64");
  ASSERT_TRUE(app.started());
  ASSERT_TRUE(wait_for_text(dir / "app.log", "settings.toml:3: not valid TOML")) << slurp(dir / "app.log");
  EXPECT_TRUE(wait_for_text(dir / "app.log", "is left as it is")) << slurp(dir / "app.log");
  // Past the first second, when the file used to be replaced by the defaults (issue 30).
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_TRUE(app.running()) << slurp(dir / "app.log");
  EXPECT_EQ(slurp(file), text) << "the user's file must stay as it was";
}

}  // namespace

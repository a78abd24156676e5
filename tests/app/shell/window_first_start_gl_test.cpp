// gl label, a window under Xvfb (xdotool, as window_settings_gl_test): a first start (no settings
// file, no --size) opens the window over the monitor's work area, not a fixed 1600x900, and shows the
// one-line hint until one of its keys is used; F1 uses it, and the settings remember that (hint_used),
// with the window's size, when the app is closed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "support/test_paths.h"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string command_output(const std::string& cmd) {
  std::string out;
  if (FILE* f = ::popen(cmd.c_str(), "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, f)) out += buf;
    ::pclose(f);
  }
  return out;
}

}  // namespace

TEST(WindowFirstStart, TheWindowFillsTheWorkAreaAndTheHintGoesOnceUsed) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (scripts/test runs the gl tests under Xvfb)";
  ASSERT_EQ(std::system("command -v xdotool >/dev/null 2>&1"), 0)
      << "xdotool is in scripts/debian-packages.txt";
  int screen_w = 0, screen_h = 0;
  ASSERT_EQ(std::sscanf(command_output("xdotool getdisplaygeometry").c_str(), "%d %d", &screen_w, &screen_h),
            2);
  const fs::path dir = fs::temp_directory_path() / ("gpulab-first-start-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "config");
  const fs::path pid = dir / "pid", file = dir / "config" / "gpulab" / "settings.toml";
  const std::string start = "cd " + dir.string() + " && XDG_CONFIG_HOME=" + (dir / "config").string() +
                            " exec " + GPULAB_BINARY + " --cpu --grid 64x64 >app.log 2>&1 & echo $! >" +
                            pid.string();
  ASSERT_EQ(std::system(start.c_str()), 0);
  // F1 once the window is there: the key list opens, the hint has done its work.
  const std::string f1 =
      "xdotool search --sync --onlyvisible --name '^gpulab - ' windowactivate --sync >/dev/null 2>&1; "
      "sleep 1; xdotool key F1";
  EXPECT_EQ(std::system(f1.c_str()), 0);
  // The app saves a changed setting within a second or so of its frame; a loaded machine (llvmpipe
  // beside other builds) takes longer to draw that frame, so wait for the file, not a fixed time.
  for (const auto t_key = std::chrono::steady_clock::now();
       slurp(file).find("hint_used = true") == std::string::npos &&
       std::chrono::steady_clock::now() - t_key < std::chrono::seconds(20);)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Closed (SIGTERM): the settings are written, the window's size with them.
  std::system(("kill $(cat " + pid.string() + ")").c_str());
  const auto t0 = std::chrono::steady_clock::now();
  while (std::system(("kill -0 $(cat " + pid.string() + ") 2>/dev/null").c_str()) == 0 &&
         std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20))
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::string saved = slurp(file);
  // No window manager under Xvfb: the work area is the screen.
  EXPECT_NE(saved.find("window_width = " + std::to_string(screen_w) + "\n"), std::string::npos)
      << saved << slurp(dir / "app.log");
  EXPECT_NE(saved.find("window_height = " + std::to_string(screen_h) + "\n"), std::string::npos) << saved;
  EXPECT_NE(saved.find("hint_used = true"), std::string::npos) << saved << slurp(dir / "app.log");
  fs::remove_all(dir);
}

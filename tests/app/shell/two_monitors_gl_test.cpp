// Two monitors for real: Xorg's dummy driver with two outputs turned on by xrandr (GLFW reports Xvfb's
// screen as one monitor). Projector mode puts the projected window full-screen on the projector and the
// presenter's window (notes, next step, clock, panel) on the laptop, whichever side the laptop is on.
// Where the windows went is read from the X server (xwininfo), what they showed from the layout report.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/test_paths.h"
#include "support/window_app.h"

namespace fs = std::filesystem;

namespace {

using namespace gpulab::testing;

// The last 3000 bytes of a file (a log).
std::string tail(const fs::path& file) {
  const std::string t = slurp(file);
  return t.size() > 3000 ? t.substr(t.size() - 3000) : t;
}

// An Xorg server of the dummy driver on a free display, stopped when the test ends.
struct DummyXorg {
  fs::path dir;
  std::string display;
  DummyXorg() : dir(fs::temp_directory_path() / ("gpulab-xorg-" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    int n = 70;
    while (n < 99 && fs::exists("/tmp/.X11-unix/X" + std::to_string(n))) ++n;
    display = ":";
    display += std::to_string(n);  // (":" + to_string(n) makes GCC 12 warn, -Wrestrict)
    const fs::path conf = fs::path(GPULAB_TEST_DATA) / "xorg" / "two-monitors.conf";
    const std::string cmd = "cd " + dir.string() + " && exec Xorg " + display + " -config " + conf.string() +
                            " -noreset -nolisten tcp -novtswitch -sharevts -logfile " +
                            (dir / "xorg.log").string() + " >xorg.out 2>&1 & echo $! >" +
                            (dir / "pid").string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  bool ready() const {
    for (int i = 0; i < 100; ++i) {
      if (std::system(("xrandr -d " + display + " >/dev/null 2>&1").c_str()) == 0) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  int run(const std::string& what) const {
    return std::system(("export DISPLAY=" + display + "; " + what).c_str());
  }
  ~DummyXorg() {
    std::system(("kill $(cat " + (dir / "pid").string() + ") 2>/dev/null; sleep 0.3").c_str());
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  DummyXorg(const DummyXorg&) = delete;
  DummyXorg& operator=(const DummyXorg&) = delete;
};

struct Geometry {
  int w = 0, h = 0, x = 0, y = 0;
  bool found = false;
};

// A window's size and position on the root, by its title, from `xwininfo -root -tree`.
Geometry window(const std::string& tree, const std::string& title) {
  std::istringstream in(tree);
  std::string line;
  const std::regex g("\\s(\\d+)x(\\d+)\\+-?\\d+\\+-?\\d+\\s+\\+(-?\\d+)\\+(-?\\d+)");
  while (std::getline(in, line)) {
    if (line.find("\"" + title + "\"") == std::string::npos) continue;
    std::smatch m;
    if (!std::regex_search(line, m, g)) continue;
    return {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4]), true};
  }
  return {};
}

// Runs the app (projector mode with --projector) with a lesson on `x` for a few seconds; returns the X
// server's window tree as it ran, and the layout report written at exit. `then`: a shell command run once the
// app's window is mapped (with its X id in $W), e.g. to move it and press F7 rather than start in projector
// mode.
std::pair<std::string, nlohmann::json> project(const DummyXorg& x, const std::string& extra,
                                               const std::string& then = "") {
  const fs::path lesson = fs::path(GPULAB_TEST_ASSETS) / "lessons" / "01-life.toml";
  const fs::path report = x.dir / "layout.json";
  fs::remove(report);
  const std::string cmd = "cd " + x.dir.string() + " && DISPLAY=" + x.display +
                          " XDG_CONFIG_HOME=" + (x.dir / "config").string() + " exec " + GPULAB_BINARY +
                          " --cpu --grid 128x128 --lesson " + lesson.string() + " --layout-report " +
                          report.string() + " " + extra + " >app.log 2>&1 & echo $! >" +
                          (x.dir / "app.pid").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::string tree;
  if (!then.empty()) {
    for (int i = 0; i < 150 && !window(tree, "gpulab - Game of Life").found; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      tree = output_of("xwininfo -display " + x.display + " -root -tree 2>/dev/null");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // reading events
    EXPECT_EQ(x.run("W=$(xdotool search --name '^gpulab - Game of Life$' | head -1); " + then), 0) << then;
  }
  for (int i = 0; i < 150; ++i) {  // until both windows are mapped (at most 15 s)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    tree = output_of("xwininfo -display " + x.display + " -root -tree 2>/dev/null");
    if (window(tree, "gpulab - presenter").found && window(tree, "gpulab - Game of Life").found) break;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // placed and full-screen
  tree = output_of("xwininfo -display " + x.display + " -root -tree 2>/dev/null");
  const std::string pid = "$(cat " + (x.dir / "app.pid").string() + ")";
  std::system(("kill -TERM " + pid + " 2>/dev/null").c_str());
  for (int i = 0; i < 100 && std::system(("kill -0 " + pid + " 2>/dev/null").c_str()) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::ifstream in(report);
  nlohmann::json j = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
  return {tree, j};
}

void check_presenter_report(const nlohmann::json& j, int laptop) {
  ASSERT_TRUE(j.is_object());
  const nlohmann::json& p = j["presenter"];
  EXPECT_TRUE(p["shown"].get<bool>()) << p;
  EXPECT_EQ(p["monitor"].get<int>(), laptop) << "the presenter's window is on the laptop: " << p;
  EXPECT_TRUE(p["notes_shown"].get<bool>()) << "the step's notes are on the presenter's window: " << p;
  EXPECT_FALSE(j["regions"].contains("panel")) << "the projected window has no panel: " << j["regions"];
  EXPECT_TRUE(j["regions"].contains("view"));
}

}  // namespace

TEST(TwoMonitors, TheProjectedWindowFillsTheProjectorAndThePresentersIsOnTheLaptop) {
  GPULAB_SKIP_WITHOUT_TOOL(missing_xorg_dummy());
  DummyXorg x;
  ASSERT_TRUE(x.ready()) << "Xorg's dummy driver did not start:\n" << tail(x.dir / "xorg.log");
  // A 1280x800 laptop with a 1920x1080 projector on its right.
  ASSERT_EQ(x.run("xrandr --output DUMMY0 --mode 1280x800 --primary && xrandr --addmode DUMMY1 1920x1080 && "
                  "xrandr --output DUMMY1 --mode 1920x1080 --right-of DUMMY0"),
            0);
  const std::string monitors = output_of("xrandr -d " + x.display + " --listmonitors");
  ASSERT_NE(monitors.find("Monitors: 2"), std::string::npos) << monitors;
  {
    const auto [tree, j] = project(x, "--projector");
    const Geometry projected = window(tree, "gpulab - Game of Life");
    const Geometry presenter = window(tree, "gpulab - presenter");
    ASSERT_TRUE(projected.found && presenter.found) << tree << tail(x.dir / "app.log");
    EXPECT_EQ(projected.x, 1280) << tree;
    EXPECT_EQ(projected.y, 0) << tree;
    EXPECT_EQ(projected.w, 1920) << tree;
    EXPECT_EQ(projected.h, 1080) << tree;
    EXPECT_GE(presenter.x, 0) << tree;
    EXPECT_LE(presenter.x + presenter.w, 1280) << "the presenter's window is on the laptop: " << tree;
    check_presenter_report(j, 0);
    EXPECT_FALSE(j["presenter"]["blanked"].get<bool>()) << j["presenter"];
  }
  // The laptop on the right of the projector this time, and the lecturer's window on the laptop when F7
  // turns projector mode on. (Without a window manager a window opens at 0,0: on the projector here.)
  // The projected view is blanked (B) from the start: the presenter's window says so.
  ASSERT_EQ(
      x.run("xrandr --output DUMMY1 --mode 1920x1080 --pos 0x0 && xrandr --output DUMMY0 --mode 1280x800 "
            "--pos 1920x0"),
      0);
  {
    const auto [tree, j] =
        project(x, "--blank",
                "xdotool windowmove $W 2000 100 && sleep 0.5 && xdotool mousemove 2300 300 && "
                "sleep 0.3 && xdotool key F7");
    const Geometry projected = window(tree, "gpulab - Game of Life");
    const Geometry presenter = window(tree, "gpulab - presenter");
    ASSERT_TRUE(projected.found && presenter.found) << tree << tail(x.dir / "app.log");
    EXPECT_EQ(projected.x, 0) << tree;
    EXPECT_EQ(projected.w, 1920) << tree;
    EXPECT_EQ(projected.h, 1080) << tree;
    EXPECT_GE(presenter.x, 1920) << "the presenter's window is on the laptop: " << tree;
    check_presenter_report(j, 0);
    EXPECT_TRUE(j["presenter"]["blanked"].get<bool>())
        << "the presenter's window does not say so: " << j["presenter"];
    EXPECT_TRUE(j["blanked"].get<bool>());
  }
}

#pragma once
// The windowed app in tests (an X server: Xvfb under scripts/test, or Xorg's dummy driver): the app
// started in the background in a scratch folder with its settings there, real key presses through
// xdotool, and waits for what it writes (screenshots, a settings file, its log).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/test_paths.h"
#include "support/tool_skip.h"

namespace gpulab::testing {

// A file's text ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A command's standard output.
inline std::string output_of(const std::string& cmd) {
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  return out;
}

// Waits up to `limit` for `file` to contain `text`.
inline bool wait_for_text(const std::filesystem::path& file, const std::string& text,
                          std::chrono::seconds limit = std::chrono::seconds(20)) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < limit) {
    if (slurp(file).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// The PNG files in `dir`, oldest first ("name-2.png" sorts before "name.png", so not by name).
inline std::vector<std::filesystem::path> pngs(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".png") out.push_back(e.path());
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
    return fs::last_write_time(a) < fs::last_write_time(b);
  });
  return out;
}

// Waits up to `limit` for `dir` to hold `n` PNG files.
inline bool wait_for_pngs(const std::filesystem::path& dir, size_t n,
                          std::chrono::seconds limit = std::chrono::seconds(20)) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < limit) {
    if (pngs(dir).size() >= n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// Presses `name` (an xdotool key name) in the app's window, activated first. A short tap: press and
// release may fall between two frames; the app must still see it. Returns the command's status (0 when
// sent); the callers assert on it.
inline int press_key(const char* name) {
  const std::string cmd = std::string(
                              "xdotool search --sync --onlyvisible --name '^gpulab - ' windowactivate --sync "
                              ">/dev/null 2>&1; xdotool key ") +
                          name;
  return std::system(cmd.c_str());
}

// press_key, asserted.
inline void key(const char* name) { ASSERT_EQ(press_key(name), 0) << "xdotool key " << name; }

// Waits until the app takes keys: on a loaded machine the window can be mapped before the app reads
// its first events, and a key sent then is lost. F12 until a screenshot appears in dir/screenshots,
// then removes it.
inline void wait_until_ready(const std::filesystem::path& dir) {
  bool ready = false;
  for (int attempt = 0; attempt < 6 && !ready; ++attempt) {
    key("F12");
    ready = wait_for_pngs(dir / "screenshots", 1, std::chrono::seconds(5));
  }
  ASSERT_TRUE(ready) << "the window never saved a screenshot on F12";
  for (const std::filesystem::path& f : pngs(dir / "screenshots")) std::filesystem::remove(f);
}

// A scratch folder temp/<name>-<pid> (emptied), with config/ for the app's settings.
inline std::filesystem::path fresh_dir(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "config");
  return dir;
}

// `GPULAB_BINARY args` in the background in `dir` (its screenshots/ go there, its output to app.log,
// its settings to dir/config), on $DISPLAY or `display` when given; stopped, and `dir` removed, when
// the object goes.
class WindowApp {
 public:
  WindowApp(std::filesystem::path dir, const std::string& args, const std::string& display = "")
      : dir(std::move(dir)) {
    const std::string cmd = "cd " + this->dir.string() + " && " +
                            (display.empty() ? std::string() : "DISPLAY=" + display + " ") +
                            "XDG_CONFIG_HOME=" + (this->dir / "config").string() + " exec " + GPULAB_BINARY +
                            " " + args + " >app.log 2>&1 & echo $! >" + (this->dir / "pid").string();
    started_ = std::system(cmd.c_str()) == 0;
  }
  ~WindowApp() {
    std::system(("kill " + pid() + " 2>/dev/null; sleep 0.2").c_str());
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  WindowApp(const WindowApp&) = delete;
  WindowApp& operator=(const WindowApp&) = delete;

  bool started() const { return started_; }
  bool running() const { return std::system(("kill -0 " + pid() + " 2>/dev/null").c_str()) == 0; }
  // Ends the app as Ctrl+C would (it finishes the frame and writes its --layout-report) and waits up
  // to 10 s for it to exit.
  void stop() const {
    std::system(("kill -TERM " + pid() + " 2>/dev/null").c_str());
    for (int i = 0; i < 100 && running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::string log() const { return slurp(dir / "app.log"); }
  // stop(), then the layout report it wrote at exit (--layout-report `file`, in dir): discarded JSON
  // when there is none or it does not parse.
  nlohmann::json stop_and_report(const std::string& file = "layout.json") const {
    stop();
    std::ifstream in(dir / file);
    return in ? nlohmann::json::parse(in, nullptr, false)
              : nlohmann::json(nlohmann::json::value_t::discarded);
  }

  const std::filesystem::path dir;

 private:
  std::string pid() const { return "$(cat " + (dir / "pid").string() + ")"; }
  bool started_ = false;
};

}  // namespace gpulab::testing

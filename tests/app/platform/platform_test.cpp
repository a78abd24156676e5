// Window platform without a display: it must say why instead of crashing or exiting, so the App
// can fall back to headless. (Opening a real window is left to manual runs with a display.)
#include "platform/platform.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace gpulab::platform {
namespace {

// Unsets a variable for the scope of a test and puts it back afterwards.
class ScopedUnsetEnv {
 public:
  explicit ScopedUnsetEnv(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) saved_ = v;
    ::unsetenv(name);
  }
  ~ScopedUnsetEnv() {
    if (saved_) ::setenv(name_, saved_->c_str(), 1);
  }

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

TEST(WindowPlatform, NoDisplayIsReportedNotFatal) {
  ScopedUnsetEnv x11("DISPLAY"), wayland("WAYLAND_DISPLAY");
  std::string why;
  EXPECT_FALSE(display_available(&why));
  EXPECT_NE(why.find("DISPLAY"), std::string::npos) << why;
  EXPECT_FALSE(display_available());  // a null reason pointer is allowed

  std::string error;
  auto window = create_window(WindowOptions{}, &error);
  EXPECT_FALSE(window);
  EXPECT_NE(error.find("DISPLAY"), std::string::npos) << error;
}

TEST(WindowPlatform, UnreachableDisplayIsReportedNotFatal) {
  // A display name no X server answers to: GLFW itself fails and its message is passed on.
  ScopedUnsetEnv wayland("WAYLAND_DISPLAY");
  const char* old = std::getenv("DISPLAY");
  const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  ::setenv("DISPLAY", ":4077", 1);
  std::string why;
  const bool available = display_available(&why);
  std::string error;
  auto window = create_window(WindowOptions{}, &error);
  if (saved)
    ::setenv("DISPLAY", saved->c_str(), 1);
  else
    ::unsetenv("DISPLAY");
  EXPECT_FALSE(available);
  EXPECT_NE(why.find("glfwInit failed"), std::string::npos) << why;
  EXPECT_FALSE(window);
  EXPECT_NE(error.find("glfwInit failed"), std::string::npos) << error;
}

}  // namespace
}  // namespace gpulab::platform

// A GLFW window with an OpenGL 4.5 core context: HiDPI aware, vsync, fullscreen toggle, file drops.
//
// GLFW is process-global (one glfwInit, one error callback), so initialisation is counted: a window
// and display_available() may both init GLFW, and only the last user terminates it.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <utility>

#include "gl/gl.h"
#include "platform/gl_info.h"
#include "platform/monitors.h"
#include "platform/platform.h"

namespace gpulab::platform {

namespace {

std::mutex g_glfw_mutex;
int g_glfw_users = 0;
std::string g_glfw_last_error;  // what GLFW last complained about, for the error messages

void record_glfw_error(int code, const char* description) {
  char code_text[16];
  std::snprintf(code_text, sizeof code_text, "0x%05X", unsigned(code));
  g_glfw_last_error = std::string(description ? description : "unknown") + " (GLFW error " + code_text + ")";
}

// Returns false and says why when GLFW cannot initialise.
bool acquire_glfw(std::string* why) {
  std::lock_guard lock(g_glfw_mutex);
  if (g_glfw_users == 0) {
    glfwSetErrorCallback(record_glfw_error);
    g_glfw_last_error.clear();
    if (!glfwInit()) {
      if (why)
        *why = "glfwInit failed: " + (g_glfw_last_error.empty() ? "no reason given" : g_glfw_last_error);
      return false;
    }
  }
  ++g_glfw_users;
  return true;
}

void release_glfw() {
  std::lock_guard lock(g_glfw_mutex);
  if (g_glfw_users > 0 && --g_glfw_users == 0) glfwTerminate();
}

bool display_variable_set(std::string* why_not) {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((x11 && *x11) || (wayland && *wayland)) return true;
  if (why_not) *why_not = "no display: neither DISPLAY nor WAYLAND_DISPLAY is set";
  return false;
}

// A window's framebuffer size in pixels (width, height).
std::pair<int, int> framebuffer_size(GLFWwindow* w) {
  int x = 0, y = 0;
  glfwGetFramebufferSize(w, &x, &y);
  return {x, y};
}

// The hints of every window: an OpenGL 4.5 core context, RGBA8 with depth and stencil, resizable,
// sized at scale 1 (on a 2x monitor the window doubles).
void window_hints() {
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
#ifndef NDEBUG
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  glfwWindowHint(GLFW_RED_BITS, 8);
  glfwWindowHint(GLFW_GREEN_BITS, 8);
  glfwWindowHint(GLFW_BLUE_BITS, 8);
  glfwWindowHint(GLFW_ALPHA_BITS, 8);
  glfwWindowHint(GLFW_DEPTH_BITS, 24);
  glfwWindowHint(GLFW_STENCIL_BITS, 8);
}

class GlfwWindow final : public Platform {
 public:
  GlfwWindow() = default;
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  ~GlfwWindow() override {
    if (window_) {
      glfwDestroyWindow(window_);
      window_ = nullptr;
    }
    if (glfw_acquired_) release_glfw();
  }

  // Returns an empty string on success, else why the window or context could not be made.
  std::string create(const WindowOptions& options) {
    std::string why;
    if (!display_variable_set(&why)) return why;
    if (!acquire_glfw(&why)) return why;
    glfw_acquired_ = true;

    window_hints();

    g_glfw_last_error.clear();
    int width = options.width, height = options.height;
    std::optional<Monitor> fill;  // a first start: the primary monitor's work area
    if (width <= 0 || height <= 0) {
      Monitor work;
      if (GLFWmonitor* m = glfwGetPrimaryMonitor())
        glfwGetMonitorWorkarea(m, &work.x, &work.y, &work.w, &work.h);
      fill = first_window(work);
      width = fill->w;
      height = fill->h;
      glfwWindowHint(GLFW_MAXIMIZED, GLFW_TRUE);  // the window manager fits the frame into the work area
    }
    window_ =
        glfwCreateWindow(std::max(width, 1), std::max(height, 1), options.title.c_str(), nullptr, nullptr);
    glfwWindowHint(GLFW_MAXIMIZED, GLFW_FALSE);
    if (!window_)
      return "glfwCreateWindow (OpenGL 4.5 core) failed: " +
             (g_glfw_last_error.empty() ? std::string("no reason given") : g_glfw_last_error);
    glfwSetWindowUserPointer(window_, this);
    glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) {
      auto* self = static_cast<GlfwWindow*>(glfwGetWindowUserPointer(w));
      if (!self || !self->drop_callback_) return;
      std::vector<std::string> files(paths, paths + std::max(count, 0));
      // An exception must not unwind through GLFW's C code.
      try {
        self->drop_callback_(std::move(files));
      } catch (...) {
      }
    });

    glfwMakeContextCurrent(window_);
    const int gl_version = gladLoadGL(glfwGetProcAddress);
    if (gl_version == 0) return "gladLoadGL(glfwGetProcAddress) failed: no GL entry points";
    info_.api = "GLFW window";
    if (std::string err = describe_gl_context(gl_version, info_); !err.empty()) return err;
    // Which CUDA device drives the window is for the CUDA side to find out (cudaGLGetDevices).
    info_.cuda_device = -1;

    set_vsync(options.vsync);
    return {};
  }

  bool headless() const override { return false; }
  bool should_close() const override { return glfwWindowShouldClose(window_); }
  void request_close() override { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
  void poll_events() override { glfwPollEvents(); }
  void swap_buffers() override { glfwSwapBuffers(window_); }
  int framebuffer_width() const override { return framebuffer_size(window_).first; }
  int framebuffer_height() const override { return framebuffer_size(window_).second; }
  float content_scale() const override {
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(window_, &x, &y);
    const float scale = std::max(x, y);
    return scale > 0.0f ? scale : 1.0f;
  }
  unsigned int target_framebuffer() const override { return 0; }

  void set_vsync(bool on) override {
    vsync_ = on;
    glfwSwapInterval(on ? 1 : 0);
  }

  bool fullscreen() const override { return glfwGetWindowMonitor(window_) != nullptr; }

  std::vector<Monitor> monitors() const override {
    std::vector<Monitor> out;
    int n = 0;
    GLFWmonitor** list = glfwGetMonitors(&n);
    GLFWmonitor* primary = glfwGetPrimaryMonitor();
    for (int i = 0; i < n; ++i) {
      Monitor m;
      const char* name = glfwGetMonitorName(list[i]);
      m.name = name ? name : "monitor " + std::to_string(i);
      glfwGetMonitorPos(list[i], &m.x, &m.y);
      if (const GLFWvidmode* mode = glfwGetVideoMode(list[i])) {
        m.w = mode->width;
        m.h = mode->height;
      }
      m.primary = list[i] == primary;
      out.push_back(m);
    }
    return out;
  }
  bool window_rect(int* x, int* y, int* w, int* h) const override {
    glfwGetWindowPos(window_, x, y);
    glfwGetWindowSize(window_, w, h);
    return true;
  }
  void make_current() override { glfwMakeContextCurrent(window_); }

  void set_fullscreen(bool on) override {
    if (!on) {
      set_windowed();
      return;
    }
    set_fullscreen_on(-1);
  }
  void set_fullscreen_on(int index) override {
    int n = 0;
    GLFWmonitor** list = glfwGetMonitors(&n);
    if (n == 0) return;  // no monitor to go fullscreen on: stay windowed
    if (index < 0 || index >= n) {
      // The monitor holding most of the window (fullscreen already: the one it is on).
      if (GLFWmonitor* now = glfwGetWindowMonitor(window_)) {
        for (int i = 0; i < n; ++i)
          if (list[i] == now) index = i;
      } else {
        int x = 0, y = 0, w = 0, h = 0;
        window_rect(&x, &y, &w, &h);
        index = std::max(0, monitor_of(monitors(), x, y, w, h));
      }
    }
    GLFWmonitor* monitor = list[index];
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    if (!mode) return;
    if (glfwGetWindowMonitor(window_) == monitor) return;
    if (!fullscreen()) {
      glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
      glfwGetWindowSize(window_, &windowed_w_, &windowed_h_);
    }
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    set_vsync(vsync_);  // some drivers reset the swap interval when the window changes monitor
  }
  void set_windowed() {
    if (!fullscreen()) return;
    glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_w_, windowed_h_,
                         GLFW_DONT_CARE);
    set_vsync(vsync_);
  }
  std::unique_ptr<SecondWindow> open_second_window(int index, const std::string& title,
                                                   std::string* why) override;

  void set_title(const std::string& title) override { glfwSetWindowTitle(window_, title.c_str()); }
  void on_drop(std::function<void(std::vector<std::string>)> callback) override {
    drop_callback_ = std::move(callback);
  }
  GLFWwindow* glfw_window() override { return window_; }
  const ContextInfo& info() const override { return info_; }

 private:
  GLFWwindow* window_ = nullptr;
  bool glfw_acquired_ = false;
  bool vsync_ = true;
  int windowed_x_ = 0, windowed_y_ = 0, windowed_w_ = 0, windowed_h_ = 0;
  std::function<void(std::vector<std::string>)> drop_callback_;
  ContextInfo info_;
};

class GlfwSecondWindow final : public SecondWindow {
 public:
  explicit GlfwSecondWindow(GLFWwindow* w) : window_(w) {}
  ~GlfwSecondWindow() override {
    if (window_) glfwDestroyWindow(window_);
  }
  bool should_close() const override { return glfwWindowShouldClose(window_) != 0; }
  void make_current() override { glfwMakeContextCurrent(window_); }
  void swap_buffers() override { glfwSwapBuffers(window_); }
  int framebuffer_width() const override { return framebuffer_size(window_).first; }
  int framebuffer_height() const override { return framebuffer_size(window_).second; }
  GLFWwindow* glfw_window() override { return window_; }

 private:
  GLFWwindow* window_ = nullptr;
};

std::unique_ptr<SecondWindow> GlfwWindow::open_second_window(int index, const std::string& title,
                                                             std::string* why) {
  const std::vector<Monitor> ms = monitors();
  int x = 60, y = 60, w = 1280, h = 800;
  if (index >= 0 && index < static_cast<int>(ms.size())) {
    const Monitor& m = ms[static_cast<size_t>(index)];
    w = std::max(400, m.w * 3 / 4);
    h = std::max(300, m.h * 3 / 4);
    x = m.x + (m.w - w) / 2;
    y = m.y + (m.h - h) / 2;
  }
  window_hints();
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* second = glfwCreateWindow(w, h, title.c_str(), nullptr, window_);  // shares window_'s objects
  if (!second) {
    *why = "glfwCreateWindow failed: " +
           (g_glfw_last_error.empty() ? std::string("no reason given") : g_glfw_last_error);
    return nullptr;
  }
  glfwSetWindowPos(second, x, y);
  glfwShowWindow(second);
  glfwMakeContextCurrent(second);
  glfwSwapInterval(0);  // the projected window's swap paces the frames
  glfwMakeContextCurrent(window_);
  return std::make_unique<GlfwSecondWindow>(second);
}

}  // namespace

bool display_available(std::string* why_not) {
  if (!display_variable_set(why_not)) return false;
  std::string why;
  if (!acquire_glfw(&why)) {
    if (why_not) *why_not = why;
    return false;
  }
  release_glfw();
  return true;
}

std::unique_ptr<Platform> create_window(const WindowOptions& options, std::string* error) {
  auto window = std::make_unique<GlfwWindow>();
  std::string why = window->create(options);
  if (!why.empty()) {
    if (error) *error = "window: " + why;
    return nullptr;  // the destructor closes the half-made window and releases GLFW
  }
  return window;
}

}  // namespace gpulab::platform

#pragma once
// A platform hands the App a current OpenGL 4.5 core context: a GLFW window, or a headless EGL
// context rendering into an offscreen framebuffer. Everything else in app/ is platform-agnostic.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "platform/monitors.h"

struct GLFWwindow;

namespace gpulab::platform {

struct ContextInfo {
  std::string api;          // "GLFW window" or "EGL device (headless)" / "EGL surfaceless (headless)"
  std::string gl_vendor;    // glGetString(GL_VENDOR)
  std::string gl_renderer;  // glGetString(GL_RENDERER)
  std::string gl_version;   // glGetString(GL_VERSION)
  std::string egl_device;   // headless: which EGL device was chosen and why
  bool software = false;    // Mesa llvmpipe/softpipe: no CUDA-GL interop possible
  int cuda_device = -1;     // CUDA device driving this context, -1 when unknown or none
};

// A second window sharing the first one's GL objects (the presenter's window in projector mode).
class SecondWindow {
 public:
  virtual ~SecondWindow() = default;
  virtual bool should_close() const = 0;
  virtual void make_current() = 0;  // its GL context (the caller makes the first one current again)
  virtual void swap_buffers() = 0;  // never waits for the display: the projected window paces frames
  virtual int framebuffer_width() const = 0;
  virtual int framebuffer_height() const = 0;
  virtual GLFWwindow* glfw_window() = 0;
};

class Platform {
 public:
  virtual ~Platform() = default;
  virtual bool headless() const = 0;
  virtual bool should_close() const = 0;
  virtual void request_close() = 0;
  virtual void poll_events() = 0;
  virtual void swap_buffers() = 0;  // headless: glFlush only
  virtual int framebuffer_width() const = 0;
  virtual int framebuffer_height() const = 0;
  virtual float content_scale() const = 0;  // HiDPI scale for the UI (1 headless)
  // The framebuffer to render the final image into: 0 for a window, the offscreen FBO headless.
  virtual unsigned int target_framebuffer() const = 0;
  virtual void set_vsync(bool on) = 0;
  virtual bool fullscreen() const = 0;
  virtual void set_fullscreen(bool on) = 0;
  virtual void set_title(const std::string& title) = 0;
  // Files dropped on the window (never called headless).
  virtual void on_drop(std::function<void(std::vector<std::string>)> callback) = 0;
  virtual GLFWwindow* glfw_window() { return nullptr; }
  // The monitors (none headless) and the window's rectangle on the desktop (false when unknown).
  virtual std::vector<Monitor> monitors() const { return {}; }
  virtual bool window_rect(int* x, int* y, int* w, int* h) const { return false; }
  // Fullscreen on monitor `index` (-1: the one holding most of the window).
  virtual void set_fullscreen_on(int index) { set_fullscreen(true); }
  // Makes this window's GL context current (after a second window's).
  virtual void make_current() {}
  // A second window `title` on monitor `index` (most of that monitor, not fullscreen), its context sharing
  // this one's objects; null and *why when there is none to be had (headless).
  virtual std::unique_ptr<SecondWindow> open_second_window(int index, const std::string& title,
                                                           std::string* why) {
    *why = "a headless run has no second window";
    return nullptr;
  }
  virtual const ContextInfo& info() const = 0;
};

struct WindowOptions {
  // The window's size in screen coordinates; 0 x 0: the primary monitor's work area (the desktop less
  // its panels and docks), as on a first start.
  int width = 1600;
  int height = 900;
  std::string title = "gpulab";
  bool vsync = true;
};
// Null with a reason in `error` when there is no display or no GL 4.5 context can be made.
std::unique_ptr<Platform> create_window(const WindowOptions& options, std::string* error);
// True when a window can be opened (a display is set and GLFW initialises).
bool display_available(std::string* why_not = nullptr);

struct HeadlessOptions {
  int width = 1280;
  int height = 720;
  // EGL device to prefer: the one whose CUDA device (EGL_NV_device_cuda) is this; -1: first NVIDIA.
  int cuda_device = -1;
  bool force_software = false;  // use Mesa's software device even when NVIDIA's is there
};
// Picks an EGL device (NVIDIA matching cuda_device, else Mesa's software device, else surfaceless
// Mesa), makes a GL 4.5 core context current and an RGBA8 + depth FBO of width × height.
std::unique_ptr<Platform> create_headless(const HeadlessOptions& options, std::string* error);

}  // namespace gpulab::platform

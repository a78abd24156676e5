// Headless OpenGL 4.5 core through EGL, rendering into an offscreen framebuffer.
//
// Which display: EGL device enumeration (EGL_EXT_device_enumeration / _query) lists the GPUs and
// Mesa's software rasteriser. The NVIDIA device whose EGL_NV_device_cuda ordinal matches the
// requested CUDA device comes first, because CUDA-GL interop wants the GL context on the CUDA
// device's own GPU; then Mesa's software device (EGL_MESA_device_software, llvmpipe),
// then any other device; if no device display works at all, the surfaceless platform
// (EGL_MESA_platform_surfaceless, which the NVIDIA driver implements too), then
// the default display. Each candidate is tried through to a current GL >= 4.5 context, and every
// failure is kept so the final error says what was tried and why each attempt failed.
#include <glad/egl.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

#include "gl/gl.h"
#include "platform/gl_info.h"
#include "platform/platform.h"

namespace gpulab::platform {

namespace {

const char* egl_error_name(EGLint e) {
  switch (e) {
    case EGL_SUCCESS:
      return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED:
      return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS:
      return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC:
      return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE:
      return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONTEXT:
      return "EGL_BAD_CONTEXT";
    case EGL_BAD_CONFIG:
      return "EGL_BAD_CONFIG";
    case EGL_BAD_CURRENT_SURFACE:
      return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY:
      return "EGL_BAD_DISPLAY";
    case EGL_BAD_SURFACE:
      return "EGL_BAD_SURFACE";
    case EGL_BAD_MATCH:
      return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER:
      return "EGL_BAD_PARAMETER";
    case EGL_BAD_NATIVE_PIXMAP:
      return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW:
      return "EGL_BAD_NATIVE_WINDOW";
    case EGL_CONTEXT_LOST:
      return "EGL_CONTEXT_LOST";
    default: {
      static thread_local char text[32];
      std::snprintf(text, sizeof text, "EGL error 0x%04X", unsigned(e));
      return text;
    }
  }
}

// "<step> failed (<EGL error name>)"
std::string egl_failure(const char* step) {
  return std::string(step) + " failed (" + egl_error_name(eglGetError()) + ")";
}

bool has_extension(const char* list, const char* name) {
  if (list == nullptr) return false;
  const size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n) {
    const bool starts = p == list || p[-1] == ' ';
    const bool ends = p[n] == '\0' || p[n] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

// Several headless platforms may share one EGLDisplay (eglGetPlatformDisplay returns the same
// handle for the same device), and eglTerminate would pull it from under the others: count users.
std::mutex g_display_mutex;
std::map<EGLDisplay, int> g_display_users;

bool acquire_display(EGLDisplay display, EGLint* major, EGLint* minor) {
  std::lock_guard lock(g_display_mutex);
  if (!eglInitialize(display, major, minor)) return false;
  ++g_display_users[display];
  return true;
}

void release_display(EGLDisplay display) {
  std::lock_guard lock(g_display_mutex);
  auto it = g_display_users.find(display);
  if (it == g_display_users.end()) return;
  if (--it->second == 0) {
    g_display_users.erase(it);
    eglTerminate(display);
  }
}

struct Candidate {
  enum class Kind { device, surfaceless, default_display } kind = Kind::device;
  EGLDeviceEXT device = EGL_NO_DEVICE_EXT;
  int index = -1;        // position in eglQueryDevicesEXT's list
  int cuda_device = -1;  // from EGL_CUDA_DEVICE_NV, -1 when not an NVIDIA CUDA device
  bool nvidia = false;
  bool software = false;    // EGL_MESA_device_software
  std::string description;  // what goes into ContextInfo::egl_device
};

std::string describe_device(const Candidate& c) {
  std::ostringstream s;
  s << "EGL device " << c.index;
  if (c.nvidia) {
    s << " (NVIDIA";
    if (c.cuda_device >= 0) s << ", CUDA device " << c.cuda_device;
    s << ")";
  } else if (c.software) {
    s << " (Mesa software)";
  } else {
    s << " (other)";
  }
  return s.str();
}

class HeadlessEgl final : public Platform {
 public:
  HeadlessEgl(int width, int height) : width_(width), height_(height) {}
  HeadlessEgl(const HeadlessEgl&) = delete;
  HeadlessEgl& operator=(const HeadlessEgl&) = delete;

  ~HeadlessEgl() override { teardown(); }

  // Makes a current GL >= 4.5 core context on `candidate`. On failure returns why (the EGL step
  // and error) and leaves nothing behind.
  std::string try_create(const Candidate& candidate) {
    std::string why = create(candidate);
    if (!why.empty()) teardown();
    return why;
  }

  void set_egl_device(std::string text) { info_.egl_device = std::move(text); }
  // Whether eglInitialize worked, even if a later step failed.
  bool display_initialised() const { return display_initialised_; }

  bool headless() const override { return true; }
  bool should_close() const override { return close_requested_; }
  void request_close() override { close_requested_ = true; }
  void poll_events() override {}
  void swap_buffers() override { glFlush(); }
  int framebuffer_width() const override { return width_; }
  int framebuffer_height() const override { return height_; }
  float content_scale() const override { return 1.0f; }
  unsigned int target_framebuffer() const override { return framebuffer_.id(); }
  void set_vsync(bool) override {}
  bool fullscreen() const override { return false; }
  void set_fullscreen(bool) override {}
  void set_title(const std::string&) override {}
  void on_drop(std::function<void(std::vector<std::string>)>) override {}
  const ContextInfo& info() const override { return info_; }

 private:
  std::string create(const Candidate& candidate) {
    const char* client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    switch (candidate.kind) {
      case Candidate::Kind::device:
        display_ = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, candidate.device, nullptr);
        if (display_ == EGL_NO_DISPLAY)
          return egl_failure("eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)");
        info_.api = "EGL device (headless)";
        break;
      case Candidate::Kind::surfaceless:
        if (!has_extension(client_ext, "EGL_MESA_platform_surfaceless"))
          return "EGL_MESA_platform_surfaceless is not available";
        display_ = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (display_ == EGL_NO_DISPLAY)
          return egl_failure("eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)");
        info_.api = "EGL surfaceless (headless)";
        break;
      case Candidate::Kind::default_display:
        display_ = eglGetDisplay(EGL_DEFAULT_DISPLAY);
        if (display_ == EGL_NO_DISPLAY) return egl_failure("eglGetDisplay(EGL_DEFAULT_DISPLAY)");
        info_.api = "EGL default display (headless)";
        break;
    }

    EGLint major = 0, minor = 0;
    if (!acquire_display(display_, &major, &minor)) {
      display_ = EGL_NO_DISPLAY;  // nothing to terminate
      return egl_failure("eglInitialize");
    }
    initialized_ = true;
    display_initialised_ = true;
    // Now the display's own extensions and the EGL 1.5 entry points can be loaded.
    if (!gladLoaderLoadEGL(display_)) return "gladLoaderLoadEGL(display) failed";
    const char* display_ext = eglQueryString(display_, EGL_EXTENSIONS);
    const bool egl15 = major > 1 || (major == 1 && minor >= 5);
    if (!egl15 && !has_extension(display_ext, "EGL_KHR_create_context"))
      return "EGL " + std::to_string(major) + "." + std::to_string(minor) +
             " without EGL_KHR_create_context cannot make a GL 4.5 core context";

    if (!eglBindAPI(EGL_OPENGL_API)) return egl_failure("eglBindAPI(EGL_OPENGL_API)");

    // A 1x1 pbuffer where the display has pbuffer configs; else no surface at all, which needs
    // EGL_KHR_surfaceless_context. We render into our own FBO either way.
    EGLConfig config = nullptr;
    EGLint count = 0;
    const EGLint pbuffer_attribs[] = {EGL_SURFACE_TYPE,
                                      EGL_PBUFFER_BIT,
                                      EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT,
                                      EGL_RED_SIZE,
                                      8,
                                      EGL_GREEN_SIZE,
                                      8,
                                      EGL_BLUE_SIZE,
                                      8,
                                      EGL_ALPHA_SIZE,
                                      8,
                                      EGL_NONE};
    bool use_pbuffer = eglChooseConfig(display_, pbuffer_attribs, &config, 1, &count) && count > 0;
    if (!use_pbuffer) {
      if (!has_extension(display_ext, "EGL_KHR_surfaceless_context"))
        return "no EGL config with EGL_PBUFFER_BIT | EGL_OPENGL_BIT, and no "
               "EGL_KHR_surfaceless_context (" +
               std::string(egl_error_name(eglGetError())) + ")";
      const EGLint surfaceless_attribs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                            EGL_NONE};
      if (!eglChooseConfig(display_, surfaceless_attribs, &config, 1, &count))
        return egl_failure("eglChooseConfig(EGL_OPENGL_BIT, no surface)");
      if (count == 0) return "eglChooseConfig: no config with EGL_OPENGL_BIT";
    }

    std::vector<EGLint> context_attribs = {
        EGL_CONTEXT_MAJOR_VERSION,          4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
#ifndef NDEBUG
    // Debug builds get a debug context, so gl::enable_debug_output() has messages to report.
    if (egl15) {
      context_attribs.insert(context_attribs.end(), {EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE});
    } else {
      context_attribs.insert(context_attribs.end(),
                             {EGL_CONTEXT_FLAGS_KHR, EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR});
    }
#endif
    context_attribs.push_back(EGL_NONE);
    context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, context_attribs.data());
    if (context_ == EGL_NO_CONTEXT) return egl_failure("eglCreateContext(OpenGL 4.5 core)");

    if (use_pbuffer) {
      const EGLint surface_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
      surface_ = eglCreatePbufferSurface(display_, config, surface_attribs);
      if (surface_ == EGL_NO_SURFACE) return egl_failure("eglCreatePbufferSurface(1x1)");
    }
    if (!eglMakeCurrent(display_, surface_, surface_, context_))
      return egl_failure(use_pbuffer ? "eglMakeCurrent(1x1 pbuffer)" : "eglMakeCurrent(surfaceless)");

    const int gl_version = gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress));
    if (gl_version == 0) return "gladLoadGL(eglGetProcAddress) failed: no GL entry points";
    if (std::string err = describe_gl_context(gl_version, info_); !err.empty()) return err;
    info_.software = info_.software || candidate.software;
    info_.cuda_device = info_.software ? -1 : candidate.cuda_device;

    try {
      framebuffer_ = gl::Framebuffer(width_, height_);
    } catch (const std::exception& e) {
      return std::string("offscreen framebuffer: ") + e.what();
    }
    // Make the offscreen target the default destination, as a window's framebuffer 0 would be.
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.id());
    glViewport(0, 0, width_, height_);
    return {};
  }

  // Safe on a half-made platform; never throws. The framebuffer is deleted with our context
  // current (GL names are per context: deleting "framebuffer 1" in another context would delete
  // that context's), and whatever context was current before is current again afterwards.
  void teardown() noexcept {
    if (context_ != EGL_NO_CONTEXT) {
      const EGLContext previous = eglGetCurrentContext();
      const EGLDisplay previous_display = eglGetCurrentDisplay();
      const EGLSurface previous_draw = eglGetCurrentSurface(EGL_DRAW);
      const EGLSurface previous_read = eglGetCurrentSurface(EGL_READ);
      const bool ours = previous == context_;
      if (framebuffer_.id() != 0 && (ours || eglMakeCurrent(display_, surface_, surface_, context_))) {
        framebuffer_ = gl::Framebuffer();
      }
      if (ours || previous == EGL_NO_CONTEXT) {
        eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      } else {
        eglMakeCurrent(previous_display, previous_draw, previous_read, previous);
      }
    }
    if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    surface_ = EGL_NO_SURFACE;
    context_ = EGL_NO_CONTEXT;
    if (initialized_) release_display(display_);
    initialized_ = false;
    display_ = EGL_NO_DISPLAY;
  }

  int width_, height_;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  EGLSurface surface_ = EGL_NO_SURFACE;
  bool initialized_ = false;
  bool display_initialised_ = false;
  gl::Framebuffer framebuffer_;
  ContextInfo info_;
  bool close_requested_ = false;
};

// Lists the EGL devices. Returns false and says why when device enumeration is unavailable.
bool enumerate_devices(std::vector<Candidate>* devices, std::string* why) {
  const char* client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  // EGL_EXT_device_base is the older name for enumeration + query together; some drivers
  // advertise only it.
  const bool device_base = has_extension(client_ext, "EGL_EXT_device_base");
  for (const char* needed : {"EGL_EXT_platform_base", "EGL_EXT_device_enumeration", "EGL_EXT_device_query",
                             "EGL_EXT_platform_device"}) {
    const bool in_base = std::strcmp(needed, "EGL_EXT_device_enumeration") == 0 ||
                         std::strcmp(needed, "EGL_EXT_device_query") == 0;
    if (!has_extension(client_ext, needed) && !(in_base && device_base)) {
      *why = std::string(needed) + " is not available";
      return false;
    }
  }
  if (!eglQueryDevicesEXT || !eglQueryDeviceStringEXT || !eglQueryDeviceAttribEXT ||
      !eglGetPlatformDisplayEXT) {
    *why = "the EGL device functions did not load";
    return false;
  }
  EGLint count = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &count)) {
    *why = egl_failure("eglQueryDevicesEXT");
    return false;
  }
  std::vector<EGLDeviceEXT> handles(size_t(std::max(count, 0)));
  if (count > 0 && !eglQueryDevicesEXT(count, handles.data(), &count)) {
    *why = egl_failure("eglQueryDevicesEXT");
    return false;
  }
  handles.resize(size_t(std::max(count, 0)));
  for (size_t i = 0; i < handles.size(); ++i) {
    Candidate c;
    c.kind = Candidate::Kind::device;
    c.device = handles[i];
    c.index = int(i);
    const char* ext = eglQueryDeviceStringEXT(handles[i], EGL_EXTENSIONS);
    c.software = has_extension(ext, "EGL_MESA_device_software");
    if (has_extension(ext, "EGL_NV_device_cuda")) {
      c.nvidia = true;
      EGLAttrib ordinal = -1;
      if (eglQueryDeviceAttribEXT(handles[i], EGL_CUDA_DEVICE_NV, &ordinal))
        c.cuda_device = int(ordinal);
      else
        (void)eglGetError();  // an NVIDIA device CUDA cannot see (e.g. hidden): no interop
    }
    devices->push_back(c);
  }
  if (devices->empty()) {
    *why = "eglQueryDevicesEXT found no devices";
    return false;
  }
  return true;
}

// Orders the devices to try; each one's description says why it is where it is.
std::vector<Candidate> order_devices(const std::vector<Candidate>& devices, const HeadlessOptions& options,
                                     std::string* why_none) {
  std::vector<Candidate> order;
  std::vector<bool> used(devices.size(), false);
  auto take = [&](size_t i, const std::string& reason) {
    Candidate c = devices[i];
    c.description = describe_device(c) + ": " + reason;
    order.push_back(std::move(c));
    used[i] = true;
  };

  std::string why_software;
  if (options.force_software) {
    why_software = "software rendering requested";
  } else {
    // NVIDIA first: only a context on the CUDA device's own GPU can share resources with CUDA.
    for (size_t i = 0; i < devices.size(); ++i) {
      const Candidate& c = devices[i];
      if (!c.nvidia || c.cuda_device < 0) continue;
      if (options.cuda_device == -1)
        take(i, order.empty() ? "first NVIDIA device" : "an earlier NVIDIA device failed");
      else if (c.cuda_device == options.cuda_device)
        take(i, "matches the requested CUDA device");
    }
    if (order.empty()) {
      std::string nvidia_list;
      for (const Candidate& c : devices)
        if (c.nvidia) nvidia_list += (nvidia_list.empty() ? "" : ", ") + describe_device(c);
      if (nvidia_list.empty())
        why_software = "no NVIDIA EGL device";
      else if (options.cuda_device == -1)
        why_software = "no NVIDIA EGL device with a CUDA device (" + nvidia_list + ")";
      else
        why_software = "no NVIDIA EGL device for CUDA device " + std::to_string(options.cuda_device) + " (" +
                       nvidia_list + ")";
    } else {
      why_software = "the NVIDIA device failed";
    }
  }
  for (size_t i = 0; i < devices.size(); ++i)
    if (!used[i] && devices[i].software) take(i, why_software);
  // Anything else (a Mesa GPU driver, say) comes last, but never an NVIDIA device that software
  // was forced over or that drives a different CUDA device than the one asked for.
  for (size_t i = 0; i < devices.size(); ++i)
    if (!used[i] && !devices[i].nvidia) take(i, "no NVIDIA or software device worked");
  if (order.empty()) *why_none = why_software + ", and no software device";
  return order;
}

}  // namespace

std::unique_ptr<Platform> create_headless(const HeadlessOptions& options, std::string* error) {
  auto fail = [&](const std::string& why) -> std::unique_ptr<Platform> {
    if (error) *error = "headless EGL: " + why;
    return nullptr;
  };
  if (options.width <= 0 || options.height <= 0)
    return fail("framebuffer size " + std::to_string(options.width) + "x" + std::to_string(options.height) +
                " is empty");

  // First load: client extensions and the entry points that need no display.
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
    return fail(
        "cannot load libEGL.so.1 (install libegl1 and a vendor: Mesa's libegl-mesa0 or "
        "the NVIDIA driver)");

  std::vector<Candidate> candidates;
  std::vector<Candidate> devices;
  std::string no_devices;
  if (enumerate_devices(&devices, &no_devices)) {
    candidates = order_devices(devices, options, &no_devices);
  }
  {
    // EGL_MESA_platform_surfaceless: Mesa's, though the NVIDIA driver implements it too.
    Candidate surfaceless;
    surfaceless.kind = Candidate::Kind::surfaceless;
    surfaceless.description =
        "EGL surfaceless platform: " + (no_devices.empty() ? "no EGL device worked" : no_devices);
    candidates.push_back(surfaceless);
    Candidate fallback;
    fallback.kind = Candidate::Kind::default_display;
    fallback.description = "default EGL display: neither an EGL device nor surfaceless worked";
    candidates.push_back(fallback);
  }

  std::string attempts;
  bool any_initialised = false;
  for (const Candidate& candidate : candidates) {
    auto platform = std::make_unique<HeadlessEgl>(options.width, options.height);
    std::string why = platform->try_create(candidate);
    if (why.empty() && options.force_software && !platform->info().software)
      why = "force_software: this display is not a software renderer (" + platform->info().gl_renderer + ")";
    if (why.empty()) {
      std::string text = candidate.description;
      if (!attempts.empty()) text += " [after: " + attempts + "]";
      platform->set_egl_device(std::move(text));
      return platform;
    }
    any_initialised = any_initialised || platform->display_initialised();
    const std::string name = candidate.kind == Candidate::Kind::device        ? describe_device(candidate)
                             : candidate.kind == Candidate::Kind::surfaceless ? "surfaceless platform"
                                                                              : "default display";
    attempts += (attempts.empty() ? "" : "; ") + name + ": " + why;
  }
  return fail(std::string(any_initialised ? "no usable OpenGL 4.5 core context"
                                          : "no EGL display could be initialised") +
              " (" + attempts + ")");
}

}  // namespace gpulab::platform

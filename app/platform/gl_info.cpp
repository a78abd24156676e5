#include "platform/gl_info.h"

#include <algorithm>
#include <cctype>

#include "gl/gl.h"

namespace gpulab::platform {

std::string describe_gl_context(int gl_version, ContextInfo& info) {
  auto gl_string = [](GLenum name) {
    const GLubyte* s = glGetString(name);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("(null)");
  };
  info.gl_vendor = gl_string(GL_VENDOR);
  info.gl_renderer = gl_string(GL_RENDERER);
  info.gl_version = gl_string(GL_VERSION);
  std::string renderer = info.gl_renderer;
  std::transform(renderer.begin(), renderer.end(), renderer.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  // Mesa's software rasterisers: no CUDA interop is possible on them.
  info.software = renderer.find("llvmpipe") != std::string::npos ||
                  renderer.find("softpipe") != std::string::npos ||
                  renderer.find("software") != std::string::npos;
  if (GLAD_VERSION_MAJOR(gl_version) < 4 ||
      (GLAD_VERSION_MAJOR(gl_version) == 4 && GLAD_VERSION_MINOR(gl_version) < 5))
    return "got OpenGL " + info.gl_version + " (" + info.gl_renderer + "), need 4.5 core";
  return {};
}

}  // namespace gpulab::platform

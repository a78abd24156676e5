#include "demos/common/image_display.h"

#include <iterator>

#include "core/timings.h"

namespace gpulab {
namespace {
constexpr GLenum kDisabledCaps[] = {GL_DEPTH_TEST, GL_BLEND,        GL_SCISSOR_TEST,
                                    GL_CULL_FACE,  GL_STENCIL_TEST, GL_FRAMEBUFFER_SRGB};
}  // namespace

void set_image_display_filter(GLuint texture) {
  glTextureParameteri(texture, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(texture, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

gl::Texture2D image_texture(const image::Image& img) {
  gl::Texture2D tex(GL_RGBA8, img.width, img.height);
  const std::vector<uint8_t> rgba = image::convert_channels(img, 4).pixels;
  tex.upload_rgba8_top_down(reinterpret_cast<const uint32_t*>(rgba.data()));
  set_image_display_filter(tex.id());
  return tex;
}

ImageDrawState::ImageDrawState(int x, int y, int w, int h) {
  static_assert(std::size(kDisabledCaps) == std::size(decltype(enabled_){}));
  glGetIntegerv(GL_VIEWPORT, viewport_);
  for (size_t i = 0; i < std::size(kDisabledCaps); ++i) {
    enabled_[i] = glIsEnabled(kDisabledCaps[i]);
    glDisable(kDisabledCaps[i]);
  }
  glViewport(x, y, w, h);
}

ImageDrawState::~ImageDrawState() {
  glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
  for (size_t i = 0; i < std::size(kDisabledCaps); ++i)
    if (enabled_[i]) glEnable(kDisabledCaps[i]);
}

void time_display_path(Timings* t, DisplayPath path, double map_ms, std::chrono::steady_clock::time_point start) {
  if (!t) return;
  // The host-copy path waits for the GPU (the copy back): the fallback, not the normal frame.
  switch (path) {
    case DisplayPath::Interop: t->cpu("interop map/unmap", map_ms); break;
    case DisplayPath::DeviceCopy: t->cpu("host copy + upload", detail::ms_since(start)); break;
    case DisplayPath::Host: t->cpu("display (CPU)", detail::ms_since(start)); break;
    case DisplayPath::None: break;
  }
}

}  // namespace gpulab

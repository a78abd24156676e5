#pragma once
// GL pieces the image demos' displays share: a texture made from an image, the display filter, the
// GL state around drawing an image quad, and the timing row for the display path taken.
#include <chrono>

#include "cuda/display_target.h"
#include "gl/gl.h"
#include "image/image.h"

namespace gpulab {

class Timings;

// Minified (a large image fitted into the window): linear, so edges do not shimmer as much;
// magnified (zoomed in): nearest, so each image pixel shows as a sharp square.
void set_image_display_filter(GLuint texture);

// An RGBA8 texture of `img` (grey replicated, alpha 255 where the image has none), row 0 at the top,
// with the display filter. Throws gl::GlError when GL refuses it.
gl::Texture2D image_texture(const image::Image& img);

// While it lives: the viewport given, and depth test, blending, scissor, culling, stencil and sRGB
// off; all as they were afterwards.
class ImageDrawState {
 public:
  ImageDrawState(int x, int y, int w, int h);
  ~ImageDrawState();
  ImageDrawState(const ImageDrawState&) = delete;
  ImageDrawState& operator=(const ImageDrawState&) = delete;

 private:
  GLint viewport_[4] = {};
  GLboolean enabled_[6] = {};
};

// The timing row of the path a display target's update (InteropTexture, InteropBuffer) took since
// `start`: interop map/unmap, the host copy and upload, or the CPU fill; nothing without Timings.
void time_display_path(Timings* t, DisplayPath path, double map_ms, std::chrono::steady_clock::time_point start);
template <class Target>
void time_display_path(Timings* t, const Target& target, std::chrono::steady_clock::time_point start) {
  time_display_path(t, target.last_path(), target.last_map_ms(), start);
}

}  // namespace gpulab

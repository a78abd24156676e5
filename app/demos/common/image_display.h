#pragma once
// GL pieces the image demos' displays share: a texture made from an image, the display filter and the
// split drawing of two textures (the display-path pieces every demo shares: display_path.h).
#include "core/demo.h"
#include "cuda/display_target.h"
#include "demos/common/display_path.h"
#include "demos/common/image_view.h"
#include "gl/gl.h"
#include "image/image.h"

namespace gpulab {

// Minified (a large image fitted into the window): linear, so edges do not shimmer as much;
// magnified (zoomed in): nearest, so each image pixel shows as a sharp square.
void set_image_display_filter(GLuint texture);

// An RGBA8 texture of `img` (grey replicated, alpha 255 where the image has none), row 0 at the top,
// with the display filter. Throws gl::GlError when GL refuses it.
gl::Texture2D image_texture(const image::Image& img);

// Where an image goes on screen, in GL window coordinates (lower-left origin, framebuffer pixels).
struct SplitView {
  float image_x = 0, image_y = 0, image_w = 1, image_h = 1;            // may reach past the viewport (zoom)
  int viewport_x = 0, viewport_y = 0, viewport_w = 1, viewport_h = 1;  // the part drawn into
  float split_x = 0;    // window x of the split line: the left texture left of it, the right one right
  float line_half = 1;  // half width of the line's light core, pixels (0: no line)
};
// The image of `view` (laid out for this frame) in the free part of the framebuffer, split at
// `split` (0..1 of the image's width), the line as wide as the UI scale.
SplitView split_view(const ImageView& view, const Frame& frame, int img_w, int img_h, double split);

// Two textures of one image's size side by side across a split line (shaders/split_image.frag),
// transparent pixels over a checkerboard; GL state as it was afterwards (gl::QuadDrawState).
class SplitImageQuad {
 public:
  SplitImageQuad();  // throws gl::GlError when the shader does not build
  void draw(const gl::Texture2D& left, const gl::Texture2D& right, const SplitView& view) const;

 private:
  gl::Program program_;
  gl::VertexArray vao_;
  GLint image_loc_ = -1, split_loc_ = -1, line_loc_ = -1;
};

}  // namespace gpulab

#include "demos/common/image_display.h"

#include <algorithm>

namespace gpulab {
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

SplitView split_view(const ImageView& view, const Frame& frame, int img_w, int img_h, double split) {
  SplitView v;
  // GL's viewport (y up) over the view region; the image's place stays in window coordinates.
  v.viewport_x = view.area.x;
  v.viewport_y = frame.height - (view.area.y + view.area.h);
  v.viewport_w = std::max(1, view.area.w);
  v.viewport_h = std::max(1, view.area.h);
  v.image_w = static_cast<float>(img_w * view.scale);
  v.image_h = static_cast<float>(img_h * view.scale);
  v.image_x = static_cast<float>(view.left);
  v.image_y = static_cast<float>(frame.height - view.top - v.image_h);
  v.split_x = static_cast<float>(view.left + split * v.image_w);
  v.line_half = std::max(1.0f, frame.ui_scale);
  return v;
}

SplitImageQuad::SplitImageQuad()
    : program_(gl::Program::from_files("quad.vert", "split_image.frag")),
      image_loc_(program_.uniform("u_image")),
      split_loc_(program_.uniform("u_split")),
      line_loc_(program_.uniform("u_line")) {
  if (image_loc_ < 0 || split_loc_ < 0) throw gl::GlError("split_image.frag: no uniform u_image or u_split");
}

void SplitImageQuad::draw(const gl::Texture2D& left, const gl::Texture2D& right, const SplitView& v) const {
  if (v.viewport_w <= 0 || v.viewport_h <= 0 || v.image_w <= 0 || v.image_h <= 0) return;
  const gl::QuadDrawState state(v.viewport_x, v.viewport_y, v.viewport_w, v.viewport_h);
  const GLuint p = program_.id();
  glProgramUniform4f(p, image_loc_, v.image_x, v.image_y, v.image_w, v.image_h);
  glProgramUniform1f(p, split_loc_, v.split_x);
  glProgramUniform1f(p, line_loc_, v.line_half);
  glUseProgram(p);
  glBindTextureUnit(0, left.id());
  glBindTextureUnit(1, right.id());
  glBindVertexArray(vao_.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindTextureUnit(1, 0);
  glBindTextureUnit(0, 0);
  glUseProgram(0);
}

}  // namespace gpulab

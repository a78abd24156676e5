#pragma once
// The texture Game of Life is shown in: an InteropTexture (cuda/display_target.h) filled from the
// engine, and the quad that draws it. The paths, as InteropTexture takes them:
//   interop    the CUDA display kernel writes through a surface object over the mapped GL texture;
//   host copy  CUDA renders into a device buffer copied back (the texture cannot be registered, or
//              force_host_copy), or the CPU engine renders into host memory; glTextureSubImage2D.
#include <memory>
#include <string>

#include "core/demo.h"
#include "gl/gl.h"
#include "life/life.h"

namespace gpulab {

class InteropTexture;

class LifeDisplay {
 public:
  explicit LifeDisplay(Context& ctx);
  ~LifeDisplay();

  // Makes the texture the view's size when it is not (resize_display_target), then fills it for `view`
  // from `engine`. `force_host_copy` takes the host path even when
  // interop works (the identical-pixels test compares the two).
  void update(life::Engine& engine, const life::View& view, bool force_host_copy = false);
  void draw(int width, int height);

  const gl::Texture2D& texture() const;
  bool interop_active() const;
  const std::string& path_description() const;

 private:
  Context& ctx_;
  std::unique_ptr<InteropTexture> target_;
  std::unique_ptr<gl::TexturedQuad> quad_;
};

}  // namespace gpulab

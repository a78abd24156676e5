#pragma once
// The texture Game of Life is shown in, and the two ways pixels reach it:
//   interop    the CUDA display kernel writes through a surface object over the mapped GL texture;
//   host copy  the pixels are made in host memory (CPU engine, or CUDA into a device buffer copied
//              back when the texture cannot be registered) and uploaded with glTextureSubImage2D.
#include <memory>
#include <string>
#include <vector>

#include "core/demo.h"
#include "gl/gl.h"
#include "life/life.h"

namespace gpulab {

class LifeDisplay {
 public:
  LifeDisplay(Context& ctx);
  ~LifeDisplay();

  // Makes the texture width × height (and re-registers it) when the size changed.
  void ensure_size(int width, int height);
  // Fills the texture for `view` from `engine`. `force_host_copy` takes the host path even when
  // interop works (the identical-pixels test compares the two).
  void update(life::Engine& engine, const life::View& view, bool force_host_copy = false);
  void draw(int width, int height);

  const gl::Texture2D& texture() const { return texture_; }
  bool interop_active() const;
  const std::string& path_description() const { return path_; }

 private:
  struct Cuda;  // interop registration and device buffer; empty without CUDA
  Context& ctx_;
  gl::Texture2D texture_;
  std::unique_ptr<Cuda> cuda_;  // declared after texture_: unregistered before the texture dies
  std::unique_ptr<gl::TexturedQuad> quad_;
  std::vector<uint32_t> host_pixels_;
  std::string path_;
};

}  // namespace gpulab

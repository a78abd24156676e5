#pragma once
// How histogram equalization reaches the screen: two RGBA8 textures of the image's size, shown side
// by side across a draggable split (SplitImageQuad).
//   before  the source image, uploaded once per image (mode and colour changes leave it alone);
//   after   an InteropTexture the pipeline's output is composed into every frame it runs: by the
//           CUDA engine straight into the mapped GL texture through a surface (interop), else into
//           device memory copied back (host copy), else by the CPU engine into host memory
//           (uploaded). path_description() says which, and why.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/demo.h"
#include "cuda/display_target.h"
#include "demos/common/image_display.h"
#include "gl/gl.h"
#include "histeq/histeq.h"
#include "image/image.h"

namespace gpulab {

class HisteqDisplay {
 public:
  explicit HisteqDisplay(Context& ctx);
  ~HisteqDisplay();
  HisteqDisplay(const HisteqDisplay&) = delete;
  HisteqDisplay& operator=(const HisteqDisplay&) = delete;

  // Makes both textures the image's size (registering the result with CUDA when allowed) and
  // uploads the image as the "before" texture. Throws GlError when GL refuses (too large).
  void set_source(const image::Image& img);
  bool has_image() const;
  // Composes `engine`'s output into the "after" texture (engine.width() x engine.height(), which
  // must match the source). `force_host_copy` takes the host path even when interop works (the
  // identical-pixels test compares the two).
  void update(histeq::Engine& engine, bool force_host_copy = false);
  void draw(const SplitView& view) const;  // before left of the split, after right of it

  const gl::Texture2D& before() const { return before_; }
  const gl::Texture2D& after() const;
  bool interop_active() const;
  DisplayPath last_path() const;
  const std::string& path_description() const;

 private:
  Context& ctx_;
  gl::Texture2D before_;
  std::unique_ptr<InteropTexture> after_;  // unregisters before its texture goes
  SplitImageQuad quad_;
};

}  // namespace gpulab

#pragma once
// How the matrix demo reaches the screen: one RGBA8 InteropTexture of the output's size (the
// transposed picture, or C as a heat map), filled by the CUDA engine straight into the mapped GL
// texture through a surface (interop), else into device memory copied back, else by the CPU on the
// host; drawn fitted into the free area (SplitImageQuad with the split at the left edge).
#include <memory>
#include <string>

#include "core/demo.h"
#include "cuda/display_target.h"
#include "demos/common/image_display.h"
#include "matrix/matrix.h"

namespace gpulab {

class MatrixDisplay {
 public:
  explicit MatrixDisplay(Context& ctx);
  ~MatrixDisplay();
  MatrixDisplay(const MatrixDisplay&) = delete;
  MatrixDisplay& operator=(const MatrixDisplay&) = delete;

  // Fills the texture (made rows x cols, the engine's output of `op`) from `engine`. Throws GlError /
  // GpuError when GL or CUDA fail.
  void update(matrix::Engine& engine, matrix::Op op, int rows, int cols, bool force_host_copy = false);
  void draw(const SplitView& view) const;
  bool has_image() const { return bool(target_->texture()); }
  const gl::Texture2D& texture() const { return target_->texture(); }
  bool interop_active() const { return target_->interop_active(); }
  DisplayPath last_path() const { return target_->last_path(); }
  const std::string& path_description() const { return target_->path_description(); }

 private:
  Context& ctx_;
  std::unique_ptr<InteropTexture> target_;
  SplitImageQuad quad_;
};

// The host fill: the output of `op` as RGBA8 words (the transposed words; C through heat_colour
// between its smallest and largest value).
void compose_host(matrix::Engine& engine, matrix::Op op, uint32_t* rgba);

}  // namespace gpulab

#pragma once
// How texture rotation reaches the screen: the source as an RGBA8 texture (for the source | output
// comparison), the output as an RGBA8 InteropTexture, and, for the pixel-buffer path, a GL buffer of
// width x height RGBA8 pixels (an InteropBuffer: registered with CUDA when allowed).
//   surface  the CUDA engine's kernel writes the mapped texture through a surface object
//            (CudaEngine::run_to_surface): no copy at all;
//   PBO      the kernel writes rows of RGBA8 into the mapped pixel buffer (run_to_buffer), then GL
//            copies the buffer into the texture (glTextureSubImage2D from the bound
//            GL_PIXEL_UNPACK_BUFFER), a copy that stays on the GPU.
// Without interop each falls back as histogram equalization's display does: CUDA writes device
// memory that is copied back and uploaded (into the texture, or into the PBO and on into the
// texture); the CPU engine's compose() fills host memory, uploaded the same way.
// path_description() says which path ran, and why.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/demo.h"
#include "cuda/display_target.h"
#include "demos/common/image_display.h"
#include "gl/gl.h"
#include "image/image.h"
#include "rotate/rotate.h"

namespace gpulab {

enum class RotateOutput : uint8_t { Surface, Pbo };
inline std::string_view name(RotateOutput o) { return o == RotateOutput::Surface ? "surface" : "pbo"; }

// What one fill rotates (the CUDA paths run the variant themselves; the CPU engine's output is run by
// the caller and only composed).
struct RotateRun {
  const rotate::Variant* variant = nullptr;
  int block = 0;
  rotate::Settings settings;
  int runs = 1;     // kernel launches (the last one's result stays); at least 1
  TimingKey timed;  // the pick it runs, for its timing section
};

class RotateDisplay {
 public:
  explicit RotateDisplay(Context& ctx);
  ~RotateDisplay();
  RotateDisplay(const RotateDisplay&) = delete;
  RotateDisplay& operator=(const RotateDisplay&) = delete;

  // Makes the textures (and a pixel buffer already made) the image's size, registering them with
  // CUDA when allowed, and uploads the source. Throws GlError when GL refuses (too large).
  void set_source(const image::Image& img);
  bool has_image() const;
  // Fills the output texture through `out`. A CUDA engine runs run.variant run.runs times (timed
  // "rotate (surface)" / "rotate (PBO)" on its stream); another engine's output (run by the caller)
  // is composed on the host. `force_host_copy` takes the host-copy path even where interop works.
  // The PBO's copy into the texture is timed as "PBO -> texture" with a GL timer query, read later.
  void update(rotate::Engine& engine, const RotateRun& run, RotateOutput out, bool force_host_copy = false);
  // The output; with `compare`, the source left of the split and the output right of it.
  void draw(const SplitView& view, bool compare) const;
  // Folds finished GL timer queries into the timings; never waits.
  void collect();
  // One pixel of the output texture (waits for GL: the inspector reads it once per change).
  std::array<uint8_t, 4> read_pixel(int x, int y) const;

  const gl::Texture2D& source() const { return source_; }
  const gl::Texture2D& output() const;
  const gl::Buffer* pixel_buffer() const;  // null before the PBO path first ran
  RotateOutput last_output() const { return last_output_; }
  DisplayPath last_path() const;
  bool interop_active() const;  // the target of the last path is registered with CUDA
  const std::string& path_description() const { return description_; }

 private:
  void copy_buffer_to_texture();

  Context& ctx_;
  gl::Texture2D source_;
  std::unique_ptr<InteropTexture> output_;  // each unregisters before its GL object goes
  std::unique_ptr<InteropBuffer> pbo_;
  SplitImageQuad quad_;
  RotateOutput last_output_ = RotateOutput::Surface;
  std::string description_;

  // GL timer queries around the PBO -> texture copy, read a few frames late.
  static constexpr int kQueries = 4;
  std::array<GLuint, kQueries> queries_{};
  std::array<bool, kQueries> pending_{};
  int next_query_ = 0;
};

}  // namespace gpulab

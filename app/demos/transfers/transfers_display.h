#pragma once
// The display stage's GL side: one rung's frame into the RGBA8 texture the view draws, on the app's
// own display targets (cuda/display_target.h), and the time the whole frame took.
//   display-cpu        the CPU fills host memory, glTextureSubImage2D (InteropTexture's host path);
//   display-host-copy  the kernel writes device memory, cudaMemcpy to pinned host memory, the host
//                      waits, glTextureSubImage2D (InteropTexture's host copy, forced);
//   display-pbo        the kernel writes the mapped pixel buffer (an InteropBuffer), GL copies it into
//                      the texture on the GPU (rotation's --output pbo);
//   display-interop    the kernel writes the mapped texture through a surface (InteropTexture's
//                      interop path: what every demo's display does).
// A rung that needs interop runs only where the target is registered: it never falls back silently
// (why_unavailable says why). The time of a frame is the host clock from the start of the fill until
// the texture is ready for GL to draw (the CUDA stream synchronised, then glFinish): the same clock
// for every path, the latency a frame costs; the kernel alone is timed apart (CUDA events).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/display_target.h"
#include "gl/gl.h"
#include "transfers/transfers.h"

namespace gpulab {

class FrameDisplay {
 public:
  // `stream`: where the fills run (null without CUDA); `interop_allowed` false: the targets are never
  // registered and `why_not` says why (display-pbo and display-interop are then unavailable).
  FrameDisplay(Stream stream, bool cuda, bool interop_allowed, std::string why_not);
  ~FrameDisplay();
  FrameDisplay(const FrameDisplay&) = delete;
  FrameDisplay& operator=(const FrameDisplay&) = delete;

  // "" when display rung `v` can run here at `size` (its texture made, so that a registration's
  // failure is known), else why.
  std::string why_unavailable(const transfers::Variant& v, transfers::FrameSize size);
  // Frame n of rung v at `size` into the texture, until GL can draw it; the milliseconds that took.
  // Throws std::invalid_argument where v cannot run here (why_unavailable), GpuError / GlError when
  // CUDA or GL fail.
  double run(const transfers::Variant& v, transfers::FrameSize size, uint32_t n);
  // The texture's pixels (row 0 at the top), read back by GL (waits).
  std::vector<uint32_t> read_back() const;
  const gl::Texture2D& texture() const { return texture_->texture(); }
  // The path the last frame took, in the display target's words.
  const std::string& path_description() const { return description_; }
  DisplayPath last_path() const { return last_path_; }

 private:
  void resize(transfers::FrameSize size);

  Stream stream_ = nullptr;
  bool cuda_ = false;
  std::unique_ptr<InteropTexture> texture_;  // each unregisters before its GL object goes
  std::unique_ptr<InteropBuffer> pbo_;
  std::string description_;
  DisplayPath last_path_ = DisplayPath::None;
};

}  // namespace gpulab

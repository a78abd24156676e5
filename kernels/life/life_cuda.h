#pragma once
// The CUDA engine: the GPU variants of kernels/life, display straight into mapped GL textures.
// Free of CUDA headers: every build includes it (one without CUDA links
// <demo>/nocuda/, whose create() throws).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/cuda_probe.h"
#include "life/life.h"

namespace gpulab::life {

// Told around each kernel launch of a step, so the app can time the ghost-copy kernels and the step
// kernel separately (with CUDA events on the engine's stream). Calls with the same name may repeat
// within a frame, once per generation.
class KernelTimer {
 public:
  virtual void begin(std::string_view kernel) = 0;
  virtual void end(std::string_view kernel) = 0;

 protected:
  ~KernelTimer() = default;
};

class CudaEngine : public Engine {
 public:
  // Works on the current CUDA device; every launch and copy goes on `stream`.
  static std::unique_ptr<CudaEngine> create(Stream stream);

  // Display: one thread per pixel writes RGBA8 through a surface object over a mapped GL texture
  // (tex_width × tex_height, row 0 = top of the view) ...
  virtual void render_surface(const View& view, SurfaceObject surface) = 0;
  // ... or into a device buffer of tex_width × tex_height words (the host-copy fallback, tests).
  virtual void render_device(const View& view, uint32_t* d_rgba) = 0;

  // The kernels a variant launches at a block shape (the step kernel first), for the occupancy panel.
  virtual std::vector<KernelInfo> kernels(const Variant& v, int block, int ghost_block = 256) const = 0;
  virtual Stream stream() const = 0;
  // Null (the default) times nothing; the timer must outlive the steps it is set for.
  virtual void set_kernel_timer(KernelTimer* timer) = 0;
  // The bench's yardstick of one generation a pass: a device-to-device copy of the packed grid (the
  // bytes one generation of gpu-bitpacked must read and write). Puts the state in the packed layout.
  virtual void run_packed_copy() = 0;
  // Device bytes the state of a w×h grid needs in a layout (both buffers), for the memory check.
  static size_t bytes_needed(Layout layout, int width, int height);
};

}  // namespace gpulab::life

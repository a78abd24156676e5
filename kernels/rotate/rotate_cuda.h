#pragma once
// The CUDA engine: the GPU variants of kernels/rotate, writing into the engine's own output, straight
// into a mapped GL texture through a surface, or into a mapped GL pixel buffer. Free of CUDA headers: every
// build includes it (one without CUDA links <demo>/nocuda/, whose create() throws).
#include <memory>
#include <vector>

#include "common/cuda_probe.h"
#include "rotate/rotate.h"

namespace gpulab::rotate {

class CudaEngine : public Engine {
 public:
  // Works on the current CUDA device; every launch and copy goes on `stream`.
  static std::unique_ptr<CudaEngine> create(Stream stream);

  // The display paths: the variant's kernel writes RGBA8 (grey replicated, alpha 255 where the source
  // has none) into the surface of a width x height RGBA8 texture, or into device memory with rows of
  // `pitch` bytes (a mapped pixel buffer GL then copies into the texture). On the engine's stream,
  // without synchronising; output() is not updated by these.
  virtual void run_to_surface(const Variant& v, int block, const Settings& s, SurfaceObject surface) = 0;
  virtual void run_to_buffer(const Variant& v, int block, const Settings& s, uint8_t* d_rgba,
                             size_t pitch) = 0;
  // The variant's fetches and arithmetic without its stores (the output is left as it was, but for at
  // most one word): the rate the texture unit sustains alone, which bounds every variant's.
  virtual void run_fetch_only(const Variant& v, int block, const Settings& s) = 0;

  // The kernel a variant launches at a block edge, for the occupancy panel.
  virtual std::vector<KernelInfo> kernels(const Variant& v, int block) const = 0;
  virtual Stream stream() const = 0;
};

}  // namespace gpulab::rotate

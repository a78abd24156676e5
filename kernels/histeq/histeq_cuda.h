#pragma once
// The CUDA engine: the GPU variants of kernels/histeq, the output composed straight into the
// displayed GL texture through a surface. Free of CUDA headers: every build includes it (one without CUDA
// links <demo>/nocuda/, whose create() throws).
#include <memory>
#include <string>
#include <vector>

#include "common/cuda_probe.h"
#include "histeq/histeq.h"

namespace gpulab::histeq {

// Why a library rung cannot run in this build, "" where it can (before any device is asked): hist-npp
// and apply-npp where CMake did not find NPP when gpulab was built. Every other rung: "".
std::string library_unavailable(const Variant& v);

class CudaEngine : public Engine {
 public:
  // Works on the current CUDA device; every launch and copy goes on `stream`.
  static std::unique_ptr<CudaEngine> create(Stream stream);

  // compose() into a surface of a width x height RGBA8 texture (a mapped GL texture), or into
  // device memory (rows of `pitch` bytes), on the engine's stream, without synchronising.
  virtual void compose_surface(SurfaceObject surface) = 0;
  virtual void compose_device(uint8_t* d_rgba, size_t pitch) = 0;

  // The kernels a variant launches at a block size, for the occupancy panel.
  virtual std::vector<KernelInfo> kernels(const Variant& v, int block) const = 0;
  virtual Stream stream() const = 0;
};

}  // namespace gpulab::histeq

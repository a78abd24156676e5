// What a build without CUDA links instead of kernels/nbody's .cu files: the CUDA engine never starts
// (create() throws GpuError with the reason), so the app needs no build conditionals of its own.
#include "common/cuda_probe.h"
#include "nbody/nbody_cuda.h"

namespace gpulab::nbody {

std::unique_ptr<CudaEngine> CudaEngine::create(Stream) {
  engine_device();  // throws: built without CUDA
  return nullptr;
}
size_t CudaEngine::bytes_needed(size_t) { return 0; }

}  // namespace gpulab::nbody

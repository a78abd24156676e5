// What a build without CUDA links instead of kernels/histeq's .cu files: the CUDA engine never starts
// (create() throws GpuError with the reason), so the app needs no build conditionals of its own.
#include "common/cuda_probe.h"
#include "histeq/histeq_cuda.h"

namespace gpulab::histeq {

// Every GPU rung is unavailable for want of CUDA already (the engine says so).
std::string library_unavailable(const Variant&) { return {}; }

std::unique_ptr<CudaEngine> CudaEngine::create(Stream) {
  engine_device();  // throws: built without CUDA
  return nullptr;
}

}  // namespace gpulab::histeq

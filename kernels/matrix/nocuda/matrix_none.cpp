// What a build without CUDA links instead of kernels/matrix's .cu files: the CUDA engine never starts
// (create() throws GpuError with the reason), so the app needs no build conditionals of its own.
#include "common/cuda_probe.h"
#include "matrix/matrix_cuda.h"

namespace gpulab::matrix {

std::unique_ptr<CudaEngine> CudaEngine::create(Stream) {
  engine_device();  // throws: built without CUDA
  return nullptr;
}

}  // namespace gpulab::matrix

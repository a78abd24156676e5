// What a build without CUDA links for cuda/interop.cpp's probe: no GL context is on a CUDA device.
#include "cuda/gl_device.h"

namespace gpulab::cuda {
bool gl_context_on_cuda_device(int* device) {
  if (device) *device = -1;
  return false;
}
}  // namespace gpulab::cuda

// Built instead of the .cu files when there is no CUDA compiler: the app runs on its CPU backend.
#include "common/cuda_probe.h"

namespace gpulab {
CudaStatus cuda_status() {
  return {false, -1, "gpulab was built without CUDA (no CUDA compiler found)", "built without CUDA"};
}
}  // namespace gpulab

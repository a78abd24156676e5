// Built instead of the .cu files when there is no CUDA compiler: the app runs on its CPU backend.
#include "common/cuda_probe.h"
#include "common/error.h"

namespace gpulab {
CudaStatus cuda_status() {
  return {false, -1, "gpulab was built without CUDA (no CUDA compiler found)", "built without CUDA"};
}
EngineDevice engine_device() { throw GpuError("CUDA is not available: " + cuda_status().reason); }
bool cuda_built() { return false; }
void synchronize_stream(Stream) {}
}  // namespace gpulab

#pragma once
// Whether a CUDA device can be used, and if not, why (no driver, no device, no kernels for this
// GPU's architecture, built without CUDA). One probe for the app, every demo, the bench and tests.
#include <string>

namespace gpulab {

struct CudaStatus {
  bool available = false;
  int device = -1;
  std::string reason;  // why not, when !available
};

// Probes once per call (cheap after the first: the runtime is initialised then). Never throws.
CudaStatus cuda_status();

}  // namespace gpulab

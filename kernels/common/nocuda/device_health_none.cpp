// Built without CUDA: no context to break (see device_health.h).
#include "common/device_health.h"

namespace gpulab {

bool sticky_cuda_error(int) { return false; }
std::string broken_cuda_context() { return {}; }
void inject_cuda_fault(Stream) {}

}  // namespace gpulab

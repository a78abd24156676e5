#pragma once
// A GPU fault in the middle of a lecture: whether the CUDA context survived an error, and starting it
// afresh. An illegal address, a kernel's trap or a lost device leave the context unusable ("sticky"
// errors: every later call fails the same way) until cudaDeviceReset; an out-of-memory or a bad
// launch configuration does not. Never throws.
#include <string>

#include "common/hd.h"

namespace gpulab {

// Whether CUDA error `code` (a cudaError_t) leaves the context unusable.
bool sticky_cuda_error(int code);

// "" while the current device's context is usable; else what broke it
// ("cudaErrorIllegalAddress: an illegal memory access was encountered"). Waits for the device's work
// (call it after an error, not every frame). Without CUDA: "".
std::string broken_cuda_context();

// cudaDeviceReset: every allocation, stream, event and graphics registration of the process on the
// device goes; a broken context is usable again afterwards. Without CUDA: nothing.
void reset_cuda_device();

// Tests only: launches on `stream` a kernel that writes through an address no allocation has, the
// fault a wrong index makes (the context breaks when it runs). Without CUDA: nothing.
void inject_cuda_fault(Stream stream);

}  // namespace gpulab

#pragma once
// A GPU fault in the middle of a lecture: whether the CUDA context survived an error. An illegal
// address, a kernel's trap or a lost device leave the context unusable ("sticky" errors: every later
// call fails the same way) for the rest of the process: CUDA's documentation says the process must be
// ended and started again, and on the H100 (driver 580) a new context after cudaDeviceReset is refused
// ("devices busy or unavailable"), while with an OpenGL interop context the reset itself never returns.
// There a fault also outlives its process: later processes' OpenGL contexts stall (Xid 109) until the
// machine restarts (README, "A GPU fault").
// An out-of-memory or a bad launch configuration does not break the context. Never throws.
#include <string>

#include "common/hd.h"

namespace gpulab {

// Whether CUDA error `code` (a cudaError_t) leaves the context unusable.
bool sticky_cuda_error(int code);

// "" while the current device's context is usable; else what broke it
// ("cudaErrorIllegalAddress: an illegal memory access was encountered"): a fault some call has met,
// even one a demo caught and showed itself. Waits for nothing (a query of the default stream), so it
// is cheap enough for every frame. Without CUDA: "".
std::string broken_cuda_context();

// Tests only: launches on `stream` a kernel that writes through an address no allocation has, the
// fault a wrong index makes (the context breaks when it runs). Without CUDA: nothing.
void inject_cuda_fault(Stream stream);

}  // namespace gpulab

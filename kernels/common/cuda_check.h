#pragma once
// Error checks usable from .cu and .cpp files that include the CUDA runtime. Kept in Release builds.
#include <cuda_runtime.h>

#include <sstream>

#include "common/error.h"

namespace gpulab::detail {
[[noreturn]] inline void throw_cuda(cudaError_t err, const char* expr, const char* file, int line) {
  // Clear a sticky "last error" so the next launch check does not report this failure again.
  (void)cudaGetLastError();
  std::ostringstream os;
  os << cudaGetErrorName(err) << ": " << cudaGetErrorString(err) << " (" << expr << " at " << file << ":"
     << line << ")";
  throw GpuError(os.str(), err == cudaErrorMemoryAllocation);
}
// Set GPULAB_SYNC_CHECKS=1 in the environment to synchronise after every launch (debugging).
bool sync_after_launch();
}  // namespace gpulab::detail

#define CUDA_CHECK(expr)                                                                                  \
  do {                                                                                                    \
    cudaError_t gpulab_err_ = (expr);                                                                     \
    if (gpulab_err_ != cudaSuccess) ::gpulab::detail::throw_cuda(gpulab_err_, #expr, __FILE__, __LINE__); \
  } while (0)

// After every kernel launch: launch-configuration errors now, execution errors in sync mode.
#define CUDA_CHECK_LAUNCH(what)                                                     \
  do {                                                                              \
    CUDA_CHECK(cudaGetLastError());                                                 \
    if (::gpulab::detail::sync_after_launch()) CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)

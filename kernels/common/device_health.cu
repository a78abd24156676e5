// Whether the CUDA context survived an error: see device_health.h.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/device_health.h"

namespace gpulab {

bool sticky_cuda_error(int code) {
  switch (static_cast<cudaError_t>(code)) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
    case cudaErrorDevicesUnavailable:
    case cudaErrorExternalDevice:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

std::string broken_cuda_context() {
  // A query of the default stream waits for nothing; on a broken context it returns the fault.
  const cudaError_t e = cudaStreamQuery(nullptr);
  if (e == cudaSuccess || e == cudaErrorNotReady) return {};
  if (!sticky_cuda_error(e)) {
    (void)cudaGetLastError();  // not sticky: cleared, the context goes on
    return {};
  }
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

namespace {
__global__ void write_through_a_wild_pointer(uint32_t* p) { p[threadIdx.x] = 0xDEADu; }
}  // namespace

void inject_cuda_fault(Stream stream) {
  // Past the end of the address space any allocation may have: an illegal address when it runs.
  write_through_a_wild_pointer<<<1, 32, 0, static_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<uint32_t*>(uintptr_t(0xFFFFFFFFF000ull)));
  (void)cudaGetLastError();
}

}  // namespace gpulab

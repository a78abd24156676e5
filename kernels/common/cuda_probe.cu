// The CUDA probe: a driver, a device, and kernels in this build for the device's architecture (a
// build without them fails only at the first launch, so ask up front with a kernel of our own).
#include <cuda_runtime.h>

#include <sstream>

#include "common/cuda_check.h"
#include "common/cuda_driver.h"
#include "common/cuda_probe.h"
#include "common/error.h"

namespace gpulab {
namespace {
__global__ void probe_kernel(int* out) {
  if (out) *out = 1;
}
}  // namespace

CudaStatus cuda_status() {
  CudaStatus status;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    // The runtime says "CUDA driver version is insufficient" both where there is no driver and where
    // it is older than the runtime: the driver itself tells which.
    const DriverProbe driver = probe_driver(CUDART_VERSION);
    status.reason = driver_problem(driver);
    status.short_reason = driver_problem_short(driver);
    if (status.reason.empty()) {
      status.reason = err != cudaSuccess ? std::string("no usable CUDA driver or device (") +
                                               cudaGetErrorName(err) + ": " + cudaGetErrorString(err) + ")"
                                         : "no CUDA device found";
      status.short_reason = "no CUDA device";
    }
    return status;
  }
  int device = 0;
  err = cudaGetDevice(&device);
  cudaDeviceProp prop{};
  if (err == cudaSuccess) err = cudaGetDeviceProperties(&prop, device);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    status.reason = std::string("cannot query the CUDA device (") + cudaGetErrorString(err) + ")";
    status.short_reason = "GPU unusable";
    return status;
  }
  cudaFuncAttributes attr{};
  err = cudaFuncGetAttributes(&attr, probe_kernel);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    std::ostringstream os;
    os << "this build has no kernels for " << prop.name << " (compute capability " << prop.major << "."
       << prop.minor << "): " << cudaGetErrorString(err);
    status.reason = os.str();
    status.short_reason = "no kernels for this GPU";
    return status;
  }
  status.available = true;
  status.device = device;
  return status;
}

EngineDevice engine_device() {
  const CudaStatus status = cuda_status();
  if (!status.available) throw GpuError("CUDA is not available: " + status.reason);
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, status.device));
  return {status.device, prop.name, prop.multiProcessorCount};
}

bool cuda_built() { return true; }

void synchronize_stream(Stream stream) { CUDA_CHECK(cudaStreamSynchronize(stream)); }

}  // namespace gpulab

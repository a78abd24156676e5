// query_device: cudaGetDeviceProperties for the fields CUDA 13 still has, cudaDeviceGetAttribute
// for the clocks (removed from cudaDeviceProp in CUDA 13) and a few others.
#include "cuda/device_info.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <sstream>

#include "common/cuda_check.h"

namespace gpulab::cuda {

namespace {
int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}
}  // namespace

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // "no driver" is an answer here, not an error for the next check
    return 0;
  }
  return n;
}

DeviceInfo query_device(int ordinal) {
  const int count = device_count();
  if (ordinal < 0 || ordinal >= count) {
    std::ostringstream os;
    os << "query_device(" << ordinal << "): no such CUDA device (" << count << " present)";
    throw GpuError(os.str());
  }

  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));

  DeviceInfo d;
  d.name = p.name;
  d.ordinal = ordinal;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  char bus[32] = {};
  std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", static_cast<unsigned>(p.pciDomainID),
                static_cast<unsigned>(p.pciBusID), static_cast<unsigned>(p.pciDeviceID));
  d.pci_bus_id = bus;
  d.integrated = p.integrated != 0;
  d.tcc_driver = p.tccDriver != 0;

  d.sm_count = p.multiProcessorCount;
  d.clock_khz = attribute(cudaDevAttrClockRate, ordinal);
  d.warp_size = p.warpSize;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  for (int i = 0; i < 3; ++i) {
    d.max_block_dim[i] = p.maxThreadsDim[i];
    d.max_grid_dim[i] = p.maxGridSize[i];
  }
  d.regs_per_block = p.regsPerBlock;
  d.regs_per_sm = p.regsPerMultiprocessor;
  d.concurrent_kernels = p.concurrentKernels != 0;
  d.async_engines = p.asyncEngineCount;
  d.kernel_timeout = attribute(cudaDevAttrKernelExecTimeout, ordinal) != 0;
  d.compute_mode = attribute(cudaDevAttrComputeMode, ordinal);

  d.total_global_mem = p.totalGlobalMem;
  d.mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, ordinal);
  d.mem_bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, ordinal);
  d.l2_bytes = p.l2CacheSize;
  d.persisting_l2_max_bytes = p.persistingL2CacheMaxSize;
  d.const_mem = p.totalConstMem;
  d.smem_per_block = p.sharedMemPerBlock;
  d.smem_per_block_optin = p.sharedMemPerBlockOptin;
  d.smem_per_sm = p.sharedMemPerMultiprocessor;
  d.reserved_smem_per_block = p.reservedSharedMemPerBlock;
  d.ecc = p.ECCEnabled != 0;
  d.unified_addressing = p.unifiedAddressing != 0;
  d.managed_memory = p.managedMemory != 0;
  d.concurrent_managed_access = p.concurrentManagedAccess != 0;

  CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));

  // cudaMemGetInfo reports on the current device: switch, ask, switch back (also on failure).
  int previous = 0;
  CUDA_CHECK(cudaGetDevice(&previous));
  size_t free_bytes = 0, total_bytes = 0;
  cudaError_t err = cudaSetDevice(ordinal);
  if (err == cudaSuccess) err = cudaMemGetInfo(&free_bytes, &total_bytes);
  if (previous != ordinal) (void)cudaSetDevice(previous);
  if (err != cudaSuccess) (void)cudaGetLastError();
  CUDA_CHECK(err);
  d.free_global_mem = free_bytes;
  return d;
}

}  // namespace gpulab::cuda

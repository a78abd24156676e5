// analyze_occupancy: the occupancy API gives the answer, the header's formulas say why.
#include "cuda/occupancy.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <exception>

#include "common/cuda_check.h"

namespace gpulab::cuda {

namespace {

OccupancyDevice query_occupancy_device() {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  auto attr = [dev](cudaDeviceAttr a) {
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
    return v;
  };
  OccupancyDevice d;
  d.cc_major = attr(cudaDevAttrComputeCapabilityMajor);
  d.warp_size = attr(cudaDevAttrWarpSize);
  d.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
  d.max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor);
  d.max_threads_per_block = attr(cudaDevAttrMaxThreadsPerBlock);
  d.regs_per_sm = attr(cudaDevAttrMaxRegistersPerMultiprocessor);
  d.regs_per_block = attr(cudaDevAttrMaxRegistersPerBlock);
  d.smem_per_sm = static_cast<size_t>(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  d.smem_per_block_optin = static_cast<size_t>(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  d.reserved_smem_per_block = static_cast<size_t>(attr(cudaDevAttrReservedSharedMemoryPerBlock));
  return d;
}

KernelAttributes query_kernel(const void* func) {
  cudaFuncAttributes a{};
  CUDA_CHECK(cudaFuncGetAttributes(&a, func));
  KernelAttributes k;
  k.num_regs = a.numRegs;
  k.static_smem = a.sharedSizeBytes;
  k.local_bytes = a.localSizeBytes;
  k.const_bytes = a.constSizeBytes;
  k.max_threads_per_block = a.maxThreadsPerBlock;
  k.max_dynamic_smem = a.maxDynamicSharedSizeBytes;
  k.preferred_carveout = a.preferredShmemCarveout;
  k.ptx_version = a.ptxVersion;
  k.binary_version = a.binaryVersion;
  return k;
}

int api_active_blocks(const void* func, int block_threads, size_t dynamic_smem) {
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, block_threads, dynamic_smem));
  return blocks;
}

size_t dynamic_smem_at(const gpulab::KernelInfo& k, int block_threads) {
  // Without a function the kernel's dynamic shared memory does not depend on the block size.
  return k.dynamic_smem_for ? k.dynamic_smem_for(block_threads) : k.dynamic_smem;
}

OccupancyPoint point_at(const gpulab::KernelInfo& k, const OccupancyDevice& dev, const KernelAttributes& attr,
                        int block_threads, size_t dynamic_smem) {
  OccupancyPoint p;
  p.block_threads = block_threads;
  p.dynamic_smem = dynamic_smem;
  const OccupancyLimits limits = occupancy_limits(dev, attr, block_threads, dynamic_smem);
  // A configuration that cannot launch at all (the API may refuse it outright) is 0 blocks on the
  // curve rather than a failed analysis.
  p.active_blocks = 0;
  if (!limits.block_too_large && cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                     &p.active_blocks, k.func, block_threads, dynamic_smem) != cudaSuccess) {
    (void)cudaGetLastError();
    p.active_blocks = 0;
  }
  p.active_warps = p.active_blocks * limits.warps_per_block;
  const int max_warps = dev.max_warps_per_sm();
  p.occupancy = max_warps > 0 ? static_cast<float>(p.active_warps) / static_cast<float>(max_warps) : 0.0f;
  p.limiters = limits.binding(p.active_blocks);
  if (p.limiters == kLimitNone) p.limiters = limits.binding(limits.min());  // formulas disagree
  return p;
}

}  // namespace

OccupancyReport analyze_occupancy(const gpulab::KernelInfo& k) {
  OccupancyReport r;
  r.name = std::string(k.name);
  r.block_threads = k.block_threads;
  r.dynamic_smem = k.dynamic_smem;
  if (!k.func) {
    r.error = "no device function address for kernel '" + r.name + "'";
    return r;
  }
  try {
    r.device = query_occupancy_device();
    r.attr = query_kernel(k.func);
    // The PTX architecture decides the path (__CUDA_ARCH__), also where the driver JIT-compiles PTX.
    r.code_path = std::string(kernel_code_path(k, r.attr.ptx_version));
    r.max_warps_per_sm = r.device.max_warps_per_sm();

    r.limits = occupancy_limits(r.device, r.attr, r.block_threads, r.dynamic_smem);
    r.formula_active_blocks = r.limits.min();
    r.active_blocks_per_sm =
        r.limits.block_too_large ? 0 : api_active_blocks(k.func, r.block_threads, r.dynamic_smem);
    r.active_warps_per_sm = r.active_blocks_per_sm * r.limits.warps_per_block;
    r.occupancy = r.max_warps_per_sm > 0
                      ? static_cast<float>(r.active_warps_per_sm) / static_cast<float>(r.max_warps_per_sm)
                      : 0.0f;
    r.formulas_agree = r.formula_active_blocks == r.active_blocks_per_sm;
    r.limiters = r.limits.binding(r.formulas_agree ? r.active_blocks_per_sm : r.formula_active_blocks);

    const int warp = r.device.warp_size > 0 ? r.device.warp_size : 32;
    const int max_block = std::min(r.attr.max_threads_per_block, r.device.max_threads_per_block);
    for (int b = warp; b <= max_block; b += warp)
      r.curve.push_back(point_at(k, r.device, r.attr, b, dynamic_smem_at(k, b)));

    int min_grid = 0, block = 0;
    if (k.dynamic_smem_for) {
      auto smem_for = [f = k.dynamic_smem_for](int threads) { return f(threads); };
      CUDA_CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, k.func, smem_for));
    } else {
      CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, k.func, k.dynamic_smem));
    }
    r.suggested_block_threads = block;
    r.suggested_min_grid = min_grid;
    for (const auto& p : r.curve)
      if (p.block_threads == block) r.suggested_occupancy = p.occupancy;
  } catch (const std::exception& e) {
    r.error = e.what();
    (void)cudaGetLastError();  // reported in the panel; not again by the next launch check
  }
  return r;
}

std::vector<OccupancyReport> analyze_occupancy(std::span<const gpulab::KernelInfo> kernels) {
  std::vector<OccupancyReport> out;
  out.reserve(kernels.size());
  for (const auto& k : kernels) out.push_back(analyze_occupancy(k));
  return out;
}

const std::vector<OccupancyReport>& OccupancyCache::get(std::span<const gpulab::KernelInfo> kernels) {
  std::vector<Key> keys;
  keys.reserve(kernels.size());
  for (const auto& k : kernels) keys.push_back({k.func, k.block_threads, k.dynamic_smem});
  if (!valid_ || keys != keys_) {
    reports_ = analyze_occupancy(kernels);
    keys_ = std::move(keys);
    valid_ = true;
  }
  return reports_;
}

}  // namespace gpulab::cuda

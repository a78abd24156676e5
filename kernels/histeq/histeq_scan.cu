// Scan kernels: the histogram's inclusive prefix sum (the CDF) and the equalization LUT from it, as
// the definition in histeq.h (equalize_scale / equalize_value, shared with the CPU reference).
//   scan-serial  one thread walks the 256 bins
//   scan-block   256 threads, Hillis-Steele in shared memory (log2 256 = 8 steps, double-buffered)
//   scan-cub     256 threads, cub::BlockScan (warp shuffles, then across the 8 warps)
//   scan-thrust  thrust::inclusive_scan, then a LUT kernel (histeq_thrust.cu)
#include <cub/block/block_scan.cuh>

#include <stdexcept>

#include "common/cuda_check.h"
#include "histeq/histeq_cuda_internal.cuh"
#include "histeq/histeq_lut.cuh"

namespace gpulab::histeq::cuda_detail {
namespace {

// snippet scan_serial
__global__ void scan_serial(const uint32_t* __restrict__ hist, uint8_t* lut) {
  uint32_t n = 0;
  int i0 = -1;
  for (int i = 0; i < kBins; ++i) {
    n += hist[i];
    if (i0 < 0 && hist[i]) i0 = i;
  }
  if (i0 < 0) {  // an empty histogram: nothing to map
    for (int i = 0; i < kBins; ++i) lut[i] = uint8_t(i);
    return;
  }
  const uint32_t h_i0 = hist[i0];
  uint32_t cdf = 0;
  for (int i = 0; i < kBins; ++i) {
    cdf += hist[i];
    lut[i] = lut_entry(i, cdf, i0, h_i0, n);
  }
}
// end snippet

// snippet scan_block
__global__ void __launch_bounds__(kBins) scan_block(const uint32_t* __restrict__ hist, uint8_t* lut) {
  block_equalize_lut(hist[threadIdx.x], lut);
}
// end snippet

// snippet scan_cub
__global__ void __launch_bounds__(kBins) scan_cub(const uint32_t* __restrict__ hist, uint8_t* lut) {
  using BlockScan = cub::BlockScan<uint32_t, kBins>;
  __shared__ typename BlockScan::TempStorage temp;
  __shared__ uint32_t cdf_all[kBins];
  const int tid = threadIdx.x;
  const uint32_t h = hist[tid];
  uint32_t cdf = 0;
  BlockScan(temp).InclusiveSum(h, cdf);
  cdf_all[tid] = cdf;
  __shared__ int first;
  if (tid == 0) first = kBins;
  __syncthreads();
  if (h) atomicMin(&first, tid);
  __syncthreads();
  const int i0 = first;
  if (i0 == kBins) {
    lut[tid] = uint8_t(tid);
    return;
  }
  const uint32_t h_i0 = cdf_all[i0] - (i0 ? cdf_all[i0 - 1] : 0u);
  lut[tid] = lut_entry(tid, cdf, i0, h_i0, cdf_all[kBins - 1]);
}
// end snippet

}  // namespace

void launch_scan(ScanKind k, const uint32_t* d_hist, uint8_t* d_lut, ThrustArena* thrust,
                 cudaStream_t stream) {
  switch (k) {
    case ScanKind::Serial:
      scan_serial<<<1, 1, 0, stream>>>(d_hist, d_lut);
      break;
    case ScanKind::Block:
      scan_block<<<1, kBins, 0, stream>>>(d_hist, d_lut);
      break;
    case ScanKind::Cub:
      scan_cub<<<1, kBins, 0, stream>>>(d_hist, d_lut);
      break;
    case ScanKind::Thrust:
      if (!thrust) throw std::logic_error("scan-thrust: no arena for Thrust");
      thrust_scan(d_hist, d_lut, *thrust, stream);
      break;
  }
  CUDA_CHECK_LAUNCH("scan");
}

std::vector<KernelInfo> scan_kernels(ScanKind k) {
  switch (k) {
    case ScanKind::Serial:
      return {{"scan_serial", reinterpret_cast<const void*>(scan_serial), 1}};
    case ScanKind::Block:
      return {{"scan_block", reinterpret_cast<const void*>(scan_block), kBins}};
    case ScanKind::Cub:
      return {{"scan_cub", reinterpret_cast<const void*>(scan_cub), kBins}};
    case ScanKind::Thrust:
      return {};  // the library's scan (and a 256-thread LUT kernel after it)
  }
  return {};
}

}  // namespace gpulab::histeq::cuda_detail

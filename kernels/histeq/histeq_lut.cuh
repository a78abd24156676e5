#pragma once
// The equalization LUT from a histogram by one block, two ways: scan-block's Hillis-Steele scan in
// shared memory (the lecture's: log2 256 = 8 steps, a __syncthreads each), and the warp-shuffle scan
// the histogram kernel that fuses the scan runs in its last block (one __syncthreads: it sits on that
// kernel's critical path). Both end in lut_entry, the definition's arithmetic.
#include <cuda_runtime.h>

#include <cstdint>

#include "histeq/histeq.h"

namespace gpulab::histeq::cuda_detail {

// The LUT entry of bin i from the inclusive CDF, once i0 (first non-empty bin), h[i0] and N are known.
__device__ __forceinline__ uint8_t lut_entry(int i, uint32_t cdf_i, int i0, uint32_t h_i0, uint32_t n) {
  if (h_i0 == n) return uint8_t(i);  // one value only: the image is unchanged
  if (i <= i0) return 0;
  return equalize_value(cdf_i - h_i0, equalize_scale(n, h_i0));
}

// Every thread of the block calls it (it synchronises); blockDim.x >= 256, thread t < 256 passes
// bin t's count in h (others pass anything).
__device__ __forceinline__ void block_equalize_lut(uint32_t h, uint8_t* lut) {
  __shared__ uint32_t buf[2][kBins];
  __shared__ int first;
  const int tid = threadIdx.x;
  const bool bin = tid < kBins;
  if (bin) buf[0][tid] = h;
  if (tid == 0) first = kBins;
  __syncthreads();
  int in = 0;
  for (int offset = 1; offset < kBins; offset <<= 1) {
    if (bin) buf[in ^ 1][tid] = buf[in][tid] + (tid >= offset ? buf[in][tid - offset] : 0u);
    in ^= 1;
    __syncthreads();
  }
  if (bin && h) atomicMin(&first, tid);
  __syncthreads();
  if (!bin) return;
  const int i0 = first;
  if (i0 == kBins) {  // an empty histogram: nothing to map
    lut[tid] = uint8_t(tid);
    return;
  }
  const uint32_t n = buf[in][kBins - 1];
  const uint32_t h_i0 = buf[in][i0] - (i0 ? buf[in][i0 - 1] : 0u);
  lut[tid] = lut_entry(tid, buf[in][tid], i0, h_i0, n);
}

// Every thread of the block calls it (it synchronises once); blockDim.x >= 256, thread t < 256 passes
// bin t's count in h. Each of the first 8 warps scans its 32 bins with shuffles; warp totals and
// first non-empty bins meet in shared memory.
__device__ __forceinline__ void block_equalize_lut_shuffle(uint32_t h, uint8_t* lut) {
  __shared__ uint32_t counts[kBins];
  __shared__ uint32_t warp_total[kBins / 32];
  __shared__ int warp_first[kBins / 32];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const bool bin = tid < kBins;
  uint32_t cdf = h;
  if (bin) {  // whole warps: blockDim.x >= 256
    counts[tid] = h;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const uint32_t t = __shfl_up_sync(0xFFFFFFFFu, cdf, o);
      if (lane >= o) cdf += t;
    }
    const unsigned nonzero = __ballot_sync(0xFFFFFFFFu, h != 0);
    if (lane == 31) warp_total[warp] = cdf;
    if (lane == 0) warp_first[warp] = nonzero ? warp * 32 + __ffs(nonzero) - 1 : kBins;
  }
  __syncthreads();
  if (!bin) return;
  uint32_t n = 0;
  int i0 = kBins;
#pragma unroll
  for (int w = 0; w < kBins / 32; ++w) {
    if (w < warp) cdf += warp_total[w];
    n += warp_total[w];
    i0 = min(i0, warp_first[w]);
  }
  if (i0 == kBins) {  // an empty histogram: nothing to map
    lut[tid] = uint8_t(tid);
    return;
  }
  lut[tid] = lut_entry(tid, cdf, i0, counts[i0], n);
}

}  // namespace gpulab::histeq::cuda_detail

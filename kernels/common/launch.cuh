#pragma once
// Device-side helpers shared by the kernel files: grid arithmetic and a block reduction that ends in
// one atomicAdd per block (the last rung of the lecture's reduction ladder). Only for .cu files.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpulab::cuda {

// Blocks needed to cover n items with `per_block` items a block.
__host__ __device__ constexpr long long ceil_div(long long n, long long per_block) {
  return (n + per_block - 1) / per_block;
}

__host__ __device__ constexpr size_t round_up(size_t n, size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

// gridDim.y and gridDim.z stop at 65535; a 65536-row grid needs a stride loop over y.
inline constexpr unsigned kMaxGridY = 65535u;

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  return v;
}

// Sums `v` over the block and adds the block's total to *total with a single atomic. Every thread of
// the block must call it (it synchronises); blockDim.x * blockDim.y * blockDim.z <= 1024.
__device__ __forceinline__ void block_sum_to(unsigned long long v, unsigned long long* total) {
  __shared__ unsigned long long warp_totals[32];
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned lane = tid & 31u, warp = tid >> 5;
  v = warp_sum(v);
  if (lane == 0) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = (threads + 31u) >> 5;
    v = lane < warps ? warp_totals[lane] : 0ull;
    v = warp_sum(v);
    if (lane == 0 && v != 0) atomicAdd(total, v);
  }
}

}  // namespace gpulab::cuda

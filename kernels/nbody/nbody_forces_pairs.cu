// gpu-warp-pairs: Newton's third law on the GPU. Every unordered pair {i, j} is evaluated once and
// gives both forces: one r², one rsqrt and one (1/r)³ serve a_i += m_j·d·inv³ and a_j −= m_i·d·inv³,
// 16 FP32 instructions and one MUFU for two interactions instead of 24 and two.
//
// The bodies are cut into chunks of C = 32·B (B = 8 bodies a lane). A warp holds one chunk a in
// registers (B bodies a lane) and walks chunks b >= a: 32 bodies of b at a time, one a lane, are
// rotated through the warp with __shfl_sync (32 steps), each carrying its own partial force, so
// every lane meets every j of the group and adds the pair's force to both sides. Forces leave the
// warp through atomicAdd into acc, which is zeroed first: once per group of 32 j (their side) and
// once per row of chunks (the i side). Diagonal tasks (a = b) would meet each pair twice; there
// the j side is dropped and each pair is taken from both ends, one-sided.
//
// The work, the upper triangle of chunk pairs, is split evenly over a grid that fills the GPU once
// (each warp takes a contiguous run of tasks in row order, so it mostly stays on one row).
// The atomics make the summation order, and so the last bits of the forces, vary from run to run.
#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "nbody/nbody_cuda_internal.cuh"

namespace gpulab::nbody::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

constexpr int kPairB = 8;            // bodies a lane of the i chunk
constexpr int kChunk = 32 * kPairB;  // bodies a chunk

// Index of the first task of row a in the row-major upper triangle (diagonal included) of k rows.
__device__ __forceinline__ long long row_start(long long a, long long k) { return a * k - a * (a - 1) / 2; }

// snippet nbody_warp_pairs
template <bool kGuard>
__global__ void __launch_bounds__(256, 2)
    forces_warp_pairs(const float4* __restrict__ pos, int n, float G, float eps2, long long tasks, int chunks,
                      float4* __restrict__ acc) {
  const int lane = threadIdx.x & 31;
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const long long warps = (static_cast<long long>(gridDim.x) * blockDim.x) >> 5;
  long long t = tasks * warp / warps;
  const long long t_end = tasks * (warp + 1) / warps;
  if (t >= t_end) return;
  // The task t as (a, b): the last row whose start is <= t (binary search), then the column.
  long long lo = 0, hi = chunks;
  while (hi - lo > 1) {
    const long long mid = (lo + hi) / 2;
    if (row_start(mid, chunks) <= t)
      lo = mid;
    else
      hi = mid;
  }
  int a = static_cast<int>(lo);
  int b = a + static_cast<int>(t - row_start(lo, chunks));

  float xi[kPairB], yi[kPairB], zi[kPairB], mi[kPairB], ax[kPairB], ay[kPairB], az[kPairB];
  auto load_row = [&](int row) {
#pragma unroll
    for (int k = 0; k < kPairB; ++k) {
      const float4 p = body_or_zero(pos, static_cast<long long>(row) * kChunk + k * 32 + lane, n);
      xi[k] = p.x;
      yi[k] = p.y;
      zi[k] = p.z;
      mi[k] = p.w;
      ax[k] = ay[k] = az[k] = 0.0f;
    }
  };
  auto flush_row = [&](int row) {
#pragma unroll
    for (int k = 0; k < kPairB; ++k) {
      const long long i = static_cast<long long>(row) * kChunk + k * 32 + lane;
      if (i < n) {
        atomicAdd(&acc[i].x, G * ax[k]);
        atomicAdd(&acc[i].y, G * ay[k]);
        atomicAdd(&acc[i].z, G * az[k]);
      }
    }
  };
  load_row(a);
  const int next_lane = (lane + 1) & 31;
  for (;;) {
    const bool diagonal = a == b;
    for (int g = 0; g < kPairB; ++g) {
      const long long j0 = static_cast<long long>(b) * kChunk + g * 32 + lane;
      float4 pj = body_or_zero(pos, j0, n);
      float jx = 0.0f, jy = 0.0f, jz = 0.0f;  // the force on the body this lane holds now
      if (!diagonal) {
#pragma unroll 2
        for (int r = 0; r < 32; ++r) {
          const float4 p_next = make_float4(
              __shfl_sync(0xFFFFFFFFu, pj.x, next_lane), __shfl_sync(0xFFFFFFFFu, pj.y, next_lane),
              __shfl_sync(0xFFFFFFFFu, pj.z, next_lane), __shfl_sync(0xFFFFFFFFu, pj.w, next_lane));
#pragma unroll
          for (int k = 0; k < kPairB; ++k)
            interact_pair<kGuard>(xi[k], yi[k], zi[k], mi[k], pj, eps2, ax[k], ay[k], az[k], jx, jy, jz);
          // The j body moves one lane down; its force goes with it (32 moves: back home).
          jx = __shfl_sync(0xFFFFFFFFu, jx, next_lane);
          jy = __shfl_sync(0xFFFFFFFFu, jy, next_lane);
          jz = __shfl_sync(0xFFFFFFFFu, jz, next_lane);
          pj = p_next;
        }
        if (j0 < n) {
          atomicAdd(&acc[j0].x, G * jx);
          atomicAdd(&acc[j0].y, G * jy);
          atomicAdd(&acc[j0].z, G * jz);
        }
      } else {
        // Diagonal: one-sided, every ordered pair (the j = i term is zero).
#pragma unroll 2
        for (int r = 0; r < 32; ++r) {
          const float4 p_next = make_float4(
              __shfl_sync(0xFFFFFFFFu, pj.x, next_lane), __shfl_sync(0xFFFFFFFFu, pj.y, next_lane),
              __shfl_sync(0xFFFFFFFFu, pj.z, next_lane), __shfl_sync(0xFFFFFFFFu, pj.w, next_lane));
#pragma unroll
          for (int k = 0; k < kPairB; ++k)
            interact_fast<kGuard>(xi[k], yi[k], zi[k], pj, eps2, ax[k], ay[k], az[k]);
          pj = p_next;
        }
      }
    }
    ++t;
    ++b;
    if (t >= t_end) break;
    if (b == chunks) {  // next row
      flush_row(a);
      ++a;
      b = a;
      load_row(a);
    }
  }
  flush_row(a);
}
// end snippet

using PairKernel = void (*)(const float4*, int, float, float, long long, int, float4*);

PairKernel pair_kernel(bool guard) { return guard ? &forces_warp_pairs<true> : &forces_warp_pairs<false>; }

int pair_blocks_per_sm(int block, bool guard) {
  static std::atomic<int> cache[2][11] = {};
  int log2b = 0;
  while ((1 << log2b) < block && log2b < 10) ++log2b;
  std::atomic<int>& slot = cache[guard ? 1 : 0][log2b];
  int v = slot.load(std::memory_order_relaxed);
  if (v == 0) {
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v, reinterpret_cast<const void*>(pair_kernel(guard)), block, 0));
    v = std::max(v, 1);
    slot.store(v, std::memory_order_relaxed);
  }
  return v;
}

}  // namespace

void launch_pair_forces(const State& st, const ForceParams& fp, int block, const GpuShape& gpu,
                        cudaStream_t stream) {
  if (block > 256)
    throw std::invalid_argument("gpu-warp-pairs: at most 256 threads a block (" + std::to_string(block) +
                                ")");
  CUDA_CHECK(cudaMemsetAsync(st.acc, 0, static_cast<size_t>(st.n) * sizeof(float4), stream));
  const int chunks = static_cast<int>(ceil_div(st.n, kChunk));
  const long long tasks = static_cast<long long>(chunks) * (chunks + 1) / 2;
  const long long warps_per_block = block / 32;
  // One resident wave, but no more warps than tasks.
  const long long resident = static_cast<long long>(gpu.sm_count) * pair_blocks_per_sm(block, fp.guard);
  const long long blocks = std::max<long long>(1, std::min(resident, ceil_div(tasks, warps_per_block)));
  pair_kernel(fp.guard)<<<static_cast<unsigned>(blocks), block, 0, stream>>>(st.pos, st.n, fp.G, fp.eps2,
                                                                             tasks, chunks, st.acc);
  CUDA_CHECK_LAUNCH("forces_warp_pairs");
}

KernelInfo pair_force_info(int block, bool guard) {
  KernelInfo k;
  k.name = guard ? "forces_warp_pairs (ε = 0)" : "forces_warp_pairs";
  k.func = reinterpret_cast<const void*>(pair_kernel(guard));
  k.block_threads = block;
  return k;
}

}  // namespace gpulab::nbody::cuda_detail

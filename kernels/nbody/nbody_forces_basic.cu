// The lecture's first N-body kernels: one thread per body i, a loop over all bodies j, the
// softened force written the way the formula reads (IEEE sqrtf and a division, as the default
// -prec-sqrt=true -prec-div=true compile them).
//
// Variants:
//   gpu-naive-aos    forces_naive_aos: bodies as {float3 pos; float3 vel; float mass} records in
//                    global memory, 28 bytes apart. A warp's own records are read field by field at a
//                    28-byte stride (uncoalesced), no vector load can fetch a record, and every j
//                    record drags its velocity through the caches with the position it is read for.
//   gpu-global-soa   forces_global_soa: separate x, y, z, m arrays. Neighbouring threads read
//                    neighbouring words (coalesced); the j loop reads 16 useful bytes a body.
//   gpu-shared-tile  forces_shared_tile: the lecture's variant 2. The block loads a tile of blockDim
//                    bodies into shared memory (one body a thread, coalesced), synchronises, and
//                    every thread runs over the tile from shared memory: each body j is read from
//                    global memory once a block instead of once a thread.
// In the j loops of the first two every thread of a warp reads the same j at the same time (one
// broadcast transaction), so they are limited by the load instructions and the IEEE sqrt and
// division, not by DRAM; the L1 cache holds the working set.
#include <stdexcept>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "nbody/nbody_cuda_internal.cuh"

namespace gpulab::nbody::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

// a += m_j (r_j − r_i) / (|r_j − r_i|² + ε²)^{3/2}, as written in the lecture.
template <bool kGuard>
__device__ __forceinline__ void interact_basic(float xi, float yi, float zi, float xj, float yj, float zj,
                                               float mj, float eps2, float3& a) {
  const float dx = xj - xi, dy = yj - yi, dz = zj - zi;
  const float d2 = dx * dx + dy * dy + dz * dz;
  float inv = 1.0f / sqrtf(d2 + eps2);
  if constexpr (kGuard) inv = d2 > 0.0f ? inv : 0.0f;  // ε = 0: the j = i term (0/0) is zero
  const float s = mj * inv * inv * inv;
  a.x += dx * s;
  a.y += dy * s;
  a.z += dz * s;
}

// snippet nbody_naive_aos
template <bool kGuard>
__global__ void forces_naive_aos(const BodyAos* bodies, int n, float G, float eps2, float4* acc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float3 ri = bodies[i].pos;
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int j = 0; j < n; ++j) {
    const float3 rj = bodies[j].pos;
    interact_basic<kGuard>(ri.x, ri.y, ri.z, rj.x, rj.y, rj.z, bodies[j].mass, eps2, a);
  }
  acc[i] = make_float4(G * a.x, G * a.y, G * a.z, 0.0f);
}
// end snippet

// snippet nbody_global_soa
template <bool kGuard>
__global__ void forces_global_soa(const float* __restrict__ x, const float* __restrict__ y,
                                  const float* __restrict__ z, const float* __restrict__ m, int n, float G,
                                  float eps2, float4* __restrict__ acc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float xi = x[i], yi = y[i], zi = z[i];
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int j = 0; j < n; ++j) interact_basic<kGuard>(xi, yi, zi, x[j], y[j], z[j], m[j], eps2, a);
  acc[i] = make_float4(G * a.x, G * a.y, G * a.z, 0.0f);
}
// end snippet

// snippet nbody_shared_tile
// Dynamic shared memory: 4 arrays of blockDim floats (x, y, z, m of the tile).
template <bool kGuard>
__global__ void forces_shared_tile(const float* __restrict__ x, const float* __restrict__ y,
                                   const float* __restrict__ z, const float* __restrict__ m, int n, float G,
                                   float eps2, float4* __restrict__ acc) {
  extern __shared__ float tile[];
  float* tx = tile;
  float* ty = tx + blockDim.x;
  float* tz = ty + blockDim.x;
  float* tm = tz + blockDim.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Threads past the last body still load their share of every tile and reach every barrier.
  const int ii = min(i, n - 1);
  const float xi = x[ii], yi = y[ii], zi = z[ii];
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int tile_start = 0; tile_start < n; tile_start += blockDim.x) {
    const int j = tile_start + threadIdx.x;
    // Past the last body: massless bodies at the origin, whose terms are exactly zero.
    tx[threadIdx.x] = j < n ? x[j] : 0.0f;
    ty[threadIdx.x] = j < n ? y[j] : 0.0f;
    tz[threadIdx.x] = j < n ? z[j] : 0.0f;
    tm[threadIdx.x] = j < n ? m[j] : 0.0f;
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k)
      interact_basic<kGuard>(xi, yi, zi, tx[k], ty[k], tz[k], tm[k], eps2, a);
    __syncthreads();  // the tile is overwritten next
  }
  if (i < n) acc[i] = make_float4(G * a.x, G * a.y, G * a.z, 0.0f);
}
// end snippet

size_t shared_tile_smem(int block) { return static_cast<size_t>(block) * 4 * sizeof(float); }

template <bool kGuard>
void launch_basic(ForceKernel kernel, const State& st, const ForceParams& fp, int block,
                  cudaStream_t stream) {
  const unsigned grid = static_cast<unsigned>(ceil_div(st.n, block));
  switch (kernel) {
    case ForceKernel::NaiveAos:
      forces_naive_aos<kGuard><<<grid, block, 0, stream>>>(st.aos, st.n, fp.G, fp.eps2, st.acc);
      CUDA_CHECK_LAUNCH("forces_naive_aos");
      break;
    case ForceKernel::GlobalSoa:
      forces_global_soa<kGuard>
          <<<grid, block, 0, stream>>>(st.x, st.y, st.z, st.m, st.n, fp.G, fp.eps2, st.acc);
      CUDA_CHECK_LAUNCH("forces_global_soa");
      break;
    case ForceKernel::SharedTile:
      forces_shared_tile<kGuard><<<grid, block, shared_tile_smem(block), stream>>>(
          st.x, st.y, st.z, st.m, st.n, fp.G, fp.eps2, st.acc);
      CUDA_CHECK_LAUNCH("forces_shared_tile");
      break;
    default:
      throw std::logic_error("launch_basic: not a basic force kernel");
  }
}

template <bool kGuard>
KernelInfo basic_info(ForceKernel kernel, int block) {
  KernelInfo k;
  k.block_threads = block;
  switch (kernel) {
    case ForceKernel::NaiveAos:
      k.name = kGuard ? "forces_naive_aos (ε = 0)" : "forces_naive_aos";
      k.func = reinterpret_cast<const void*>(&forces_naive_aos<kGuard>);
      break;
    case ForceKernel::GlobalSoa:
      k.name = kGuard ? "forces_global_soa (ε = 0)" : "forces_global_soa";
      k.func = reinterpret_cast<const void*>(&forces_global_soa<kGuard>);
      break;
    default:
      k.name = kGuard ? "forces_shared_tile (ε = 0)" : "forces_shared_tile";
      k.func = reinterpret_cast<const void*>(&forces_shared_tile<kGuard>);
      k.dynamic_smem = shared_tile_smem(block);
      k.dynamic_smem_for = [](int b) { return shared_tile_smem(b); };
      break;
  }
  return k;
}

}  // namespace

// Defined here for the three basic kernels; nbody_forces_tiled.cu handles the others.
void launch_basic_forces(ForceKernel kernel, const State& st, const ForceParams& fp, int block,
                         cudaStream_t stream) {
  if (fp.guard)
    launch_basic<true>(kernel, st, fp, block, stream);
  else
    launch_basic<false>(kernel, st, fp, block, stream);
}

KernelInfo basic_force_info(ForceKernel kernel, int block, bool guard) {
  return guard ? basic_info<true>(kernel, block) : basic_info<false>(kernel, block);
}

}  // namespace gpulab::nbody::cuda_detail

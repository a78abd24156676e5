// The tiled N-body force kernels, from GPU Gems 3 (ch. 31) to an FP32-issue-bound kernel, and the
// dispatcher of all force kernels (launch_forces, force_kernel_infos).
//
// Variants:
//   gpu-tile-float4    forces_tile_float4: GPU Gems 3's kernel. Bodies as float4 (x, y, z, m): one
//                      16-byte load a body into a shared tile of blockDim bodies, rsqrtf instead of
//                      1/sqrtf, the inner loop unrolled 4 times. One body a thread.
//   gpu-tile-split     forces_tile_split: as gpu-tile-float4, but q threads share each body (q a power
//                      of two, chosen so that N·q threads fill every SM): thread slice s runs over the
//                      s-th q-th of every tile, and the q partial forces of a body are summed through
//                      shared memory at the end (in slice order: deterministic). At N = 16384 and one
//                      body a thread the GPU holds 128 warps, one for every 4 of the H100's 528 warp
//                      schedulers; with q = 8 every scheduler has 2.
//   gpu-tile-register  forces_tile_register: B = 8 bodies a thread (4 at 1024 threads) held in
//                      registers, so one shared-memory load of body j (a broadcast LDS.128) serves B
//                      interactions and B independent dependency chains hide the latencies; the
//                      interaction in 12 FP32 instructions and one MUFU.RSQ (rsqrt.approx.ftz through
//                      inline PTX, fma-ordered r², s = m·inv·inv², no denormal fix-ups); the j-range
//                      split over blockIdx.y when N is small so that every SM gets work, the slices'
//                      partial forces summed in order by the kick kernel. Block size and B are
//                      compile-time (one instantiation each), so the tile loop's bounds and shared
//                      offsets are constants and __launch_bounds__ caps the registers at 128 (64 at
//                      1024 threads). Its inner loop is 32 interactions in 416 instructions + 4
//                      LDS.128 + 4 of loop control (SASS): 13.3 issue slots an interaction bound it
//                      at 2.45e12/s on an H100 at 1980 MHz; it runs at 2.07e12, 84% of the issue
//                      slots busy, the rest lost to dispatch stalls (ncu), not to latency (2.5 warps
//                      a scheduler are eligible and not selected).
//
// Every kernel has an unguarded instantiation (ε large enough that the j = i term is 0·finite = 0)
// and a guarded one (ε = 0 or tiny: terms with d = 0 are zeroed by a select).
#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "nbody/nbody_cuda_internal.cuh"

namespace gpulab::nbody::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

// GPU Gems 3, listing 31-1 (bodyBodyInteraction), with the softening ε² in the sum.
template <bool kGuard>
__device__ __forceinline__ void interact_gems(float4 bi, float4 bj, float eps2, float3& ai) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  const float d2 = r.x * r.x + r.y * r.y + r.z * r.z;
  float inv_dist = rsqrtf(d2 + eps2);
  if constexpr (kGuard) inv_dist = d2 > 0.0f ? inv_dist : 0.0f;
  const float inv_dist_cube = inv_dist * inv_dist * inv_dist;
  const float s = bj.w * inv_dist_cube;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
}

// snippet nbody_tile_float4
// Dynamic shared memory: blockDim float4.
template <bool kGuard>
__global__ void forces_tile_float4(const float4* __restrict__ pos, int n, float G, float eps2,
                                   float4* __restrict__ acc) {
  extern __shared__ float4 sh_pos[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 bi = pos[min(i, n - 1)];  // threads past the end compute a copy, and drop it
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int tile_start = 0; tile_start < n; tile_start += blockDim.x) {
    const int j = tile_start + threadIdx.x;
    sh_pos[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // massless padding
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < blockDim.x; ++k) interact_gems<kGuard>(bi, sh_pos[k], eps2, a);
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(G * a.x, G * a.y, G * a.z, 0.0f);
}
// end snippet

// snippet nbody_tile_split
// blockDim = p bodies × q slices (p >= 32, so a warp's threads share one slice and the shared loads
// stay broadcasts). Dynamic shared memory: blockDim float4 (the tile, then the partial forces).
template <bool kGuard>
__global__ void forces_tile_split(const float4* __restrict__ pos, int n, float G, float eps2, int q,
                                  float4* __restrict__ acc) {
  extern __shared__ float4 sh_pos[];
  const int p = blockDim.x / q;  // bodies a block
  const int body = threadIdx.x % p, slice = threadIdx.x / p;
  const int i = blockIdx.x * p + body;
  const float4 bi = pos[min(i, n - 1)];
  const float4* my_part = sh_pos + slice * p;  // this slice's p entries of every tile
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int tile_start = 0; tile_start < n; tile_start += blockDim.x) {
    const int j = tile_start + threadIdx.x;
    sh_pos[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < p; ++k) interact_gems<kGuard>(bi, my_part[k], eps2, a);
    __syncthreads();
  }
  // Combine the q partial forces of each body, slice 0 first.
  sh_pos[threadIdx.x] = make_float4(a.x, a.y, a.z, 0.0f);
  __syncthreads();
  if (slice == 0 && i < n) {
    float3 sum = make_float3(0.0f, 0.0f, 0.0f);
    for (int s = 0; s < q; ++s) {
      const float4 part = sh_pos[s * p + body];
      sum.x += part.x;
      sum.y += part.y;
      sum.z += part.z;
    }
    acc[i] = make_float4(G * sum.x, G * sum.y, G * sum.z, 0.0f);
  }
}
// end snippet

// snippet nbody_tile_register
// T threads a block, B bodies a thread (bodies base + k·T), tiles of T bodies; blockIdx.y is the
// slice of the j-range: tiles [y·tiles_per_slice, (y+1)·tiles_per_slice). Writes G·Σ into
// out[y·n + i].
template <int T, int B, bool kGuard>
__global__ void __launch_bounds__(T, (T >= 1024 ? 1 : 512 / T))
    forces_tile_register(const float4* __restrict__ pos, int n, float G, float eps2, int tiles_per_slice,
                         float4* __restrict__ out) {
  __shared__ float4 tile[T];
  const int base = blockIdx.x * (T * B) + threadIdx.x;
  float xi[B], yi[B], zi[B], ax[B], ay[B], az[B];
#pragma unroll
  for (int k = 0; k < B; ++k) {
    const float4 p = pos[min(base + k * T, n - 1)];
    xi[k] = p.x;
    yi[k] = p.y;
    zi[k] = p.z;
    ax[k] = ay[k] = az[k] = 0.0f;
  }
  const int tiles = (n + T - 1) / T;
  const int t0 = blockIdx.y * tiles_per_slice;
  const int t1 = min(t0 + tiles_per_slice, tiles);
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  // The next tile's body is fetched while the current tile is computed.
  int j = t0 * T + threadIdx.x;
  float4 next = j < n ? pos[j] : zero;
  for (int t = t0; t < t1; ++t) {
    tile[threadIdx.x] = next;
    __syncthreads();
    j += T;
    if (t + 1 < t1) next = j < n ? pos[j] : zero;
#pragma unroll 4
    for (int jj = 0; jj < T; ++jj) {
      const float4 pj = tile[jj];
#pragma unroll
      for (int k = 0; k < B; ++k) interact_fast<kGuard>(xi[k], yi[k], zi[k], pj, eps2, ax[k], ay[k], az[k]);
    }
    __syncthreads();
  }
  float4* dst = out + static_cast<size_t>(blockIdx.y) * static_cast<size_t>(n);
#pragma unroll
  for (int k = 0; k < B; ++k) {
    const int i = base + k * T;
    if (i < n) dst[i] = make_float4(G * ax[k], G * ay[k], G * az[k], 0.0f);
  }
}
// end snippet

size_t float4_tile_smem(int block) { return static_cast<size_t>(block) * sizeof(float4); }

// --- gpu-tile-split: threads a body ------------------------------------------------------------
// The smallest power of two q for which N·q threads give every SM a full complement (2048 threads),
// keeping p = block / q >= 32.
int split_factor(int n, int block, int sm_count) {
  const long long want = static_cast<long long>(sm_count) * 2048;
  int q = 1;
  while (q * 2 <= block / 32 && static_cast<long long>(n) * q < want) q *= 2;
  return q;
}

// --- gpu-tile-register: the instantiations -------------------------------------------------------
using RegisterKernel = void (*)(const float4*, int, float, float, int, float4*);

constexpr std::array<int, 5> kRegisterBlocks{64, 128, 256, 512, 1024};

int block_index(int block) {
  for (size_t b = 0; b < kRegisterBlocks.size(); ++b)
    if (kRegisterBlocks[b] == block) return static_cast<int>(b);
  throw std::invalid_argument("gpu-tile-register: no kernel for a block of " + std::to_string(block) +
                              " threads");
}

template <int T, bool kGuard>
RegisterKernel register_kernel_b(int bodies) {
  if constexpr (T < 1024) {
    if (bodies == 8) return &forces_tile_register<T, 8, kGuard>;
  }
  return &forces_tile_register<T, 4, kGuard>;
}

template <bool kGuard>
RegisterKernel register_kernel_g(int block, int bodies) {
  switch (block) {
    case 64:
      return register_kernel_b<64, kGuard>(bodies);
    case 128:
      return register_kernel_b<128, kGuard>(bodies);
    case 256:
      return register_kernel_b<256, kGuard>(bodies);
    case 512:
      return register_kernel_b<512, kGuard>(bodies);
    default:
      return register_kernel_b<1024, kGuard>(bodies);
  }
}

RegisterKernel register_kernel(int block, int bodies, bool guard) {
  (void)block_index(block);
  return guard ? register_kernel_g<true>(block, bodies) : register_kernel_g<false>(block, bodies);
}

// Resident blocks a multiprocessor of each instantiation, asked once.
int register_blocks_per_sm(int block, int bodies, bool guard) {
  static std::atomic<int> cache[5][2][2] = {};
  std::atomic<int>& slot = cache[block_index(block)][bodies == 8 ? 1 : 0][guard ? 1 : 0];
  int v = slot.load(std::memory_order_relaxed);
  if (v == 0) {
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v, reinterpret_cast<const void*>(register_kernel(block, bodies, guard)), block, 0));
    v = std::max(v, 1);
    slot.store(v, std::memory_order_relaxed);
  }
  return v;
}

// How many slices of the j-range. A launch takes about as long as its busiest SM: m = ⌈blocks / SMs⌉
// blocks of (tiles a slice + ½ for the prologue and the partial sums) each, at a rate that needs
// about 16 resident warps an SM to saturate the FP32 pipes (measured: 8 warps of 8 bodies reach
// 80% of them, 16 all). Ties go to fewer slices.
int choose_slices(long long n, int block, int bodies_per_block, int sm_count, int resident_blocks,
                  int max_slices) {
  const long long tiles = ceil_div(n, block);
  const long long i_blocks = ceil_div(n, bodies_per_block);
  const double warps_per_block = block / 32.0;
  int best = 1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (long long s = 1; s <= max_slices && s <= tiles; ++s) {
    const long long per_slice = ceil_div(tiles, s);
    if (ceil_div(tiles, per_slice) != s) continue;  // the same split as a smaller s
    const long long per_sm = ceil_div(i_blocks * s, sm_count);
    const double warps = static_cast<double>(std::min<long long>(per_sm, resident_blocks)) * warps_per_block;
    const double rate = std::min(1.0, warps / 16.0);
    const double cost = static_cast<double>(per_sm) * (static_cast<double>(per_slice) + 0.5) / rate;
    if (cost < best_cost * 0.999) {
      best_cost = cost;
      best = static_cast<int>(s);
    }
  }
  return best;
}

template <bool kGuard>
void launch_float4(const State& st, const ForceParams& fp, int block, cudaStream_t stream) {
  const unsigned grid = static_cast<unsigned>(ceil_div(st.n, block));
  forces_tile_float4<kGuard>
      <<<grid, block, float4_tile_smem(block), stream>>>(st.pos, st.n, fp.G, fp.eps2, st.acc);
  CUDA_CHECK_LAUNCH("forces_tile_float4");
}

template <bool kGuard>
void launch_split(const State& st, const ForceParams& fp, int block, const GpuShape& gpu,
                  cudaStream_t stream) {
  const int q = split_factor(st.n, block, gpu.sm_count);
  const int p = block / q;
  const unsigned grid = static_cast<unsigned>(ceil_div(st.n, p));
  forces_tile_split<kGuard>
      <<<grid, block, float4_tile_smem(block), stream>>>(st.pos, st.n, fp.G, fp.eps2, q, st.acc);
  CUDA_CHECK_LAUNCH("forces_tile_split");
}

}  // namespace

RegisterTuning& register_tuning() {
  static RegisterTuning tuning;
  return tuning;
}

int register_bodies_per_thread(int block) {
  const int forced = register_tuning().bodies_per_thread;
  if (block >= 1024) return 4;  // 64 registers a thread at most: 8 bodies would spill
  if (forced == 4 || forced == 8) return forced;
  return 8;
}

ForceLaunch launch_forces(ForceKernel kernel, const State& st, const ForceParams& fp, int block,
                          const GpuShape& gpu, float4* partials, int max_slices, cudaStream_t stream) {
  switch (kernel) {
    case ForceKernel::NaiveAos:
    case ForceKernel::GlobalSoa:
    case ForceKernel::SharedTile:
      launch_basic_forces(kernel, st, fp, block, stream);
      return {st.acc, 1};
    case ForceKernel::TileFloat4:
      if (fp.guard)
        launch_float4<true>(st, fp, block, stream);
      else
        launch_float4<false>(st, fp, block, stream);
      return {st.acc, 1};
    case ForceKernel::TileSplit:
      if (fp.guard)
        launch_split<true>(st, fp, block, gpu, stream);
      else
        launch_split<false>(st, fp, block, gpu, stream);
      return {st.acc, 1};
    case ForceKernel::TileRegister: {
      const int bodies = register_bodies_per_thread(block);
      const RegisterKernel k = register_kernel(block, bodies, fp.guard);
      if (partials == nullptr) max_slices = 1;
      int slices = register_tuning().slices > 0
                       ? register_tuning().slices
                       : choose_slices(st.n, block, block * bodies, gpu.sm_count,
                                       register_blocks_per_sm(block, bodies, fp.guard), max_slices);
      slices = std::clamp(slices, 1, std::max(max_slices, 1));
      const long long tiles = ceil_div(st.n, block);
      const int per_slice = static_cast<int>(ceil_div(tiles, slices));
      slices = static_cast<int>(ceil_div(tiles, per_slice));
      float4* out = slices == 1 ? st.acc : partials;
      const dim3 grid(static_cast<unsigned>(ceil_div(st.n, static_cast<long long>(block) * bodies)),
                      static_cast<unsigned>(slices));
      k<<<grid, block, 0, stream>>>(st.pos, st.n, fp.G, fp.eps2, per_slice, out);
      CUDA_CHECK_LAUNCH("forces_tile_register");
      return {out, slices};
    }
    case ForceKernel::WarpPairs:
      launch_pair_forces(st, fp, block, gpu, stream);
      return {st.acc, 1};
    case ForceKernel::PairTiles:
      return launch_pair_tile_forces(st, fp, block, gpu, partials, partials == nullptr ? 1 : max_slices,
                                     stream);
  }
  throw std::logic_error("launch_forces: unknown kernel");
}

std::vector<KernelInfo> force_kernel_infos(ForceKernel kernel, int block, bool guard) {
  KernelInfo k;
  k.block_threads = block;
  switch (kernel) {
    case ForceKernel::NaiveAos:
    case ForceKernel::GlobalSoa:
    case ForceKernel::SharedTile:
      return {basic_force_info(kernel, block, guard)};
    case ForceKernel::TileFloat4:
      k.name = guard ? "forces_tile_float4 (ε = 0)" : "forces_tile_float4";
      k.func = guard ? reinterpret_cast<const void*>(&forces_tile_float4<true>)
                     : reinterpret_cast<const void*>(&forces_tile_float4<false>);
      k.dynamic_smem = float4_tile_smem(block);
      k.dynamic_smem_for = [](int b) { return float4_tile_smem(b); };
      return {k};
    case ForceKernel::TileSplit:
      k.name = guard ? "forces_tile_split (ε = 0)" : "forces_tile_split";
      k.func = guard ? reinterpret_cast<const void*>(&forces_tile_split<true>)
                     : reinterpret_cast<const void*>(&forces_tile_split<false>);
      k.dynamic_smem = float4_tile_smem(block);
      k.dynamic_smem_for = [](int b) { return float4_tile_smem(b); };
      return {k};
    case ForceKernel::TileRegister: {
      const int bodies = register_bodies_per_thread(block);
      k.name = bodies == 8
                   ? (guard ? "forces_tile_register<8 bodies> (ε = 0)" : "forces_tile_register<8 bodies>")
                   : (guard ? "forces_tile_register<4 bodies> (ε = 0)" : "forces_tile_register<4 bodies>");
      k.func = reinterpret_cast<const void*>(register_kernel(block, bodies, guard));
      return {k};  // static shared memory only (one tile of block float4)
    }
    case ForceKernel::WarpPairs:
      return {pair_force_info(block, guard)};
    case ForceKernel::PairTiles:
      return {pair_tile_force_info(block, guard)};
  }
  return {};
}

}  // namespace gpulab::nbody::cuda_detail

// gpu-pair-tiles: each pair once (Newton's third law), as gpu-warp-pairs, but without atomics: the
// forces are summed in a fixed order, so two runs give the same bits.
//
// The bodies are cut into tiles of 256 (kTile). Tile pair (R, c) with c >= R is the work of row R on
// column c. A warp is one worker: it takes a row R (a ticket, in increasing order), holds the 256
// bodies of tile R in registers (8 a lane) and walks the columns c = C−1 down to R. Column c comes
// through shared memory 32 bodies at a time; body j of a group meets lane l at step r = j − l
// (mod 32), its partial force travelling one lane down with __shfl_sync after each step, so each
// pair's r², rsqrt and (1/r)³ serve a_i += m_j·d·inv³ (kept in the lane's registers) and
// a_j −= m_i·d·inv³. After 32 steps each group's reaction force is back in the lane that loaded the
// body and waits in shared memory until the column is done. The diagonal tile (c = R) comes last
// and is taken one-sided: every ordered pair, the j = i term zero.
//
// No atomics on the forces: the sums go into acc in a fixed order, chained by one counter a column.
// Tile c receives the reaction forces of rows 0, 1, …, c−1 and then row c's own forces, in that
// order: row R adds its share (times G) to tile c once done[c] == R (acquire), then sets
// done[c] = R + 1 (release); row 0 writes without reading. Rows start in ticket order and walk the
// columns in the same order, so a row rarely waits long (rows that run together reach a column at
// the same time, one after the other), and it waits only on rows that took their ticket before it,
// which are running: no deadlock whatever the grid.
//
// The grid is one resident wave of warps that take tasks until none is left; rows come longest
// first (row R has C − R tiles), which balances the tail. Below about 700,000 bodies (where the
// partial buffer has room) the rows are cut into segments of columns, about 4096 tasks, a number
// that depends on N alone so that the bits do not depend on the GPU: the reaction forces still go
// through the column counters, and each segment's a_i goes to a slice of its own that the kick
// kernel adds up in order (gpu-tile-register's partial sums), so no warp waits for its row's other
// segments.
//
// Measured on an H100 (SXM, 1980 MHz) at N = 1048576: 2.32–2.69e12 interactions/s over six runs
// (gpu-warp-pairs: 2.77e12). The inner loop is about 565 instructions for 32 pairs at 4 steps an
// iteration (17.7 issue slots a pair: 16 FP32, one MUFU.RSQ, 3/8 SHFL, 1/8 LDS.128), a ceiling of
// 3.8e12. ncu: 54% of the issue slots busy (gpu-warp-pairs 79%), 1.2 eligible warps a scheduler
// (2.4), the largest stalls long-scoreboard and sleeping: the counters' polls. A timing-only copy
// that does not wait (wrong sums) runs at a steady 2.58e12: the counters make the time vary from
// run to run, and the loop with 128 registers and 4 warps a scheduler issues less often than
// gpu-warp-pairs' does.
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "nbody/nbody_cuda.h"
#include "nbody/nbody_cuda_internal.cuh"

namespace gpulab::nbody::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

constexpr int kLaneBodies = 8;               // i bodies a lane holds
constexpr int kTile = 32 * kLaneBodies;      // bodies a tile: a warp's row, and a column
constexpr int kGroups = kTile / 32;          // groups of 32 bodies a column tile
constexpr int kWarpSmemFloat4 = 64 + kTile;  // a group staged twice, the column's reaction forces
constexpr unsigned kAll = 0xFFFFFFFFu;

__device__ __forceinline__ int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_release(int* p, int v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Waits until `count` contributions have gone into a tile (every lane reads the counter).
__device__ __forceinline__ void wait_for(const int* counter, int count) {
  while (load_acquire(counter) < count) __nanosleep(64);
}

// The warp's stores into acc are visible before the counter says so.
__device__ __forceinline__ void publish(int* counter, int count, int lane) {
  __threadfence();
  __syncwarp();
  if (lane == 0) store_release(counter, count);
}

// snippet nbody_pair_tiles
// A task is a segment of a row: row R's columns hi = tiles−1 − s·seg_len down to max(R, hi − seg_len + 1)
// (segment s; the one that reaches R holds the diagonal). Tickets R·segs + s, row-major.
//   segs == 1: whole rows; a_i joins `out` (= acc) last in the chain of its tile, times G.
//   segs > 1:  a_i of segment s goes to islices[s·n + i], times G (zero for an empty segment); `out` is
//              slice 0 of the partial sums, which the kick kernel adds up in order.
// The reaction forces join out[j] (times G) in row order. sync[0]: the next ticket; sync[1 + c]:
// contributions added to tile c. Both zero at launch. Dynamic shared memory: kWarpSmemFloat4 float4 a
// warp. kUnroll: steps a loop iteration.
template <bool kGuard, int kUnroll = 4>
__global__ void __launch_bounds__(256, 2)
    forces_pair_tiles(const float4* __restrict__ pos, int n, float G, float eps2, int tiles, int segs,
                      int seg_len, int workers, int* __restrict__ sync, float4* __restrict__ out,
                      float4* __restrict__ islices) {
  extern __shared__ float4 smem[];
  const int lane = threadIdx.x & 31;
  if ((blockIdx.x * blockDim.x + threadIdx.x) / 32 >= static_cast<unsigned>(workers)) return;
  float4* stage = smem + (threadIdx.x >> 5) * kWarpSmemFloat4;  // 64: group j = 0..31, twice
  float4* reaction = stage + 64;                                // kTile: the column's a_j, unscaled
  int* done = sync + 1;
  const int next_lane = (lane + 1) & 31;
  const long long tickets = static_cast<long long>(tiles) * segs;

  for (;;) {
    int ticket = 0;
    if (lane == 0) ticket = atomicAdd(sync, 1);  // once a task, not in the loop
    ticket = __shfl_sync(kAll, ticket, 0);
    if (ticket >= tickets) break;
    const int row = ticket / segs, seg = ticket % segs;
    const int hi = tiles - 1 - seg * seg_len, lo = max(row, hi - seg_len + 1);
    const long long row0 = static_cast<long long>(row) * kTile;
    if (hi < row) {  // an empty segment of a short row: its slice is zero
#pragma unroll
      for (int k = 0; k < kLaneBodies; ++k)
        if (row0 + k * 32 + lane < n)
          islices[static_cast<long long>(seg) * n + row0 + k * 32 + lane] =
              make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      continue;
    }

    float xi[kLaneBodies], yi[kLaneBodies], zi[kLaneBodies], mi[kLaneBodies];
    float ax[kLaneBodies], ay[kLaneBodies], az[kLaneBodies];
#pragma unroll
    for (int k = 0; k < kLaneBodies; ++k) {
      const float4 p = body_or_zero(pos, row0 + k * 32 + lane, n);
      xi[k] = p.x;
      yi[k] = p.y;
      zi[k] = p.z;
      mi[k] = p.w;
      ax[k] = ay[k] = az[k] = 0.0f;
    }

    for (int c = hi; c >= lo; --c) {
      const long long col = static_cast<long long>(c) * kTile;
      const bool diagonal = c == row;
      float4 next = body_or_zero(pos, col + lane, n);
      for (int g = 0; g < kGroups; ++g) {
        __syncwarp();  // the last group's steps have read the stage
        stage[lane] = next;
        stage[lane + 32] = next;
        __syncwarp();
        if (g + 1 < kGroups) next = body_or_zero(pos, col + (g + 1) * 32 + lane, n);
        const float4* at = stage + lane;  // step r reads body (lane + r) mod 32 at at[r]
        if (!diagonal) {
          float jx = 0.0f, jy = 0.0f, jz = 0.0f;  // the force on the body this lane holds now
#pragma unroll kUnroll
          for (int r = 0; r < 32; ++r) {
            const float4 pj = at[r];
#pragma unroll
            for (int k = 0; k < kLaneBodies; ++k)
              interact_pair<kGuard>(xi[k], yi[k], zi[k], mi[k], pj, eps2, ax[k], ay[k], az[k], jx, jy, jz);
            // The j body's force moves one lane down with it (after 32 moves: back home).
            jx = __shfl_sync(kAll, jx, next_lane);
            jy = __shfl_sync(kAll, jy, next_lane);
            jz = __shfl_sync(kAll, jz, next_lane);
          }
          reaction[g * 32 + lane] = make_float4(jx, jy, jz, 0.0f);  // this lane's own slot
        } else {
          // The diagonal tile: one-sided, every ordered pair (the j = i term is zero).
#pragma unroll 4
          for (int r = 0; r < 32; ++r) {
            const float4 pj = at[r];
#pragma unroll
            for (int k = 0; k < kLaneBodies; ++k)
              interact_fast<kGuard>(xi[k], yi[k], zi[k], pj, eps2, ax[k], ay[k], az[k]);
          }
        }
      }
      if (diagonal) break;
      // Column c's reaction forces join out after rows 0..row−1 (each lane its own bodies).
      if (row > 0) wait_for(&done[c], row);
#pragma unroll
      for (int g = 0; g < kGroups; ++g) {
        const long long j = col + g * 32 + lane;
        if (j < n) {
          const float4 r = reaction[g * 32 + lane];
          float4 sum = make_float4(G * r.x, G * r.y, G * r.z, 0.0f);
          if (row > 0) {
            const float4 a = __ldcg(&out[j]);  // from L2: another SM wrote it
            sum.x = a.x + sum.x;
            sum.y = a.y + sum.y;
            sum.z = a.z + sum.z;
          }
          __stcg(&out[j], sum);
        }
      }
      publish(&done[c], row + 1, lane);
    }
    if (segs > 1) {  // the segment's a_i into its own slice: no order to keep
#pragma unroll
      for (int k = 0; k < kLaneBodies; ++k)
        if (row0 + k * 32 + lane < n)
          islices[static_cast<long long>(seg) * n + row0 + k * 32 + lane] =
              make_float4(G * ax[k], G * ay[k], G * az[k], 0.0f);
      continue;
    }
    // Whole rows: the row's own forces join its tile last (after rows 0..row−1 added theirs).
    if (row > 0) wait_for(&done[row], row);
#pragma unroll
    for (int k = 0; k < kLaneBodies; ++k) {
      const long long i = row0 + k * 32 + lane;
      if (i < n) {
        float4 sum = make_float4(G * ax[k], G * ay[k], G * az[k], 0.0f);
        if (row > 0) {
          const float4 a = __ldcg(&out[i]);
          sum.x = a.x + sum.x;
          sum.y = a.y + sum.y;
          sum.z = a.z + sum.z;
        }
        out[i] = sum;
      }
    }
  }
}
// end snippet

using PairTileKernel = void (*)(const float4*, int, float, float, int, int, int, int, int*, float4*, float4*);

PairTileKernel pair_tile_kernel(bool guard) {
  return guard ? &forces_pair_tiles<true> : &forces_pair_tiles<false>;
}

size_t pair_tile_smem(int block) {
  return static_cast<size_t>(block / 32) * kWarpSmemFloat4 * sizeof(float4);
}

int pair_tile_blocks_per_sm(int block, bool guard) {
  static std::atomic<int> cache[2][9] = {};
  int log2b = 0;
  while ((1 << log2b) < block && log2b < 8) ++log2b;
  std::atomic<int>& slot = cache[guard ? 1 : 0][log2b];
  int v = slot.load(std::memory_order_relaxed);
  if (v == 0) {
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v, reinterpret_cast<const void*>(pair_tile_kernel(guard)), block, pair_tile_smem(block)));
    v = std::max(v, 1);
    slot.store(v, std::memory_order_relaxed);
  }
  return v;
}

// The tests' knobs (set_pair_tile_tuning).
std::atomic<int>& max_workers() {
  static std::atomic<int> cap{0};
  return cap;
}
std::atomic<bool>& force_whole_rows() {
  static std::atomic<bool> whole{false};
  return whole;
}

// Tasks the rows are cut into: about two for each of an H100's 2112 resident warps. A function of
// N alone, so that the summation order (and the bits) are the same on every GPU.
constexpr long long kTasksWanted = 4096;

}  // namespace

size_t pair_tile_sync_count(size_t n) { return n == 0 ? 0 : 1 + (n + kTile - 1) / kTile; }

ForceLaunch launch_pair_tile_forces(const State& st, const ForceParams& fp, int block, const GpuShape& gpu,
                                    float4* partials, int max_slices, cudaStream_t stream) {
  if (block % 32 != 0 || block < 32 || block > 256)
    throw std::invalid_argument("gpu-pair-tiles: blocks of 32 to 256 threads, whole warps (" +
                                std::to_string(block) + ")");
  const long long n = st.n;
  const int tiles = static_cast<int>(ceil_div(n, kTile));
  // One resident wave of warps (or the tests' cap).
  const long long warps_per_block = block / 32;
  long long workers =
      static_cast<long long>(gpu.sm_count) * pair_tile_blocks_per_sm(block, fp.guard) * warps_per_block;
  if (const int cap = max_workers().load(); cap > 0) workers = std::min<long long>(workers, cap);
  // Segments of seg_len columns, about kTasksWanted tasks (a slice of the partial buffer each); whole
  // rows where the rows alone are that many, or the buffer has no room.
  int segs = 1, seg_len = tiles;
  if (partials != nullptr && max_slices > 2 && !force_whole_rows().load()) {
    const long long pairs = static_cast<long long>(tiles) * (tiles + 1) / 2;
    seg_len = static_cast<int>(
        std::min<long long>(tiles, std::max(ceil_div(pairs, kTasksWanted), ceil_div(tiles, max_slices - 1))));
    segs = static_cast<int>(ceil_div(tiles, seg_len));
  }
  const long long tasks = static_cast<long long>(tiles) * segs;
  workers = std::min(workers, tasks);
  float4* out = segs == 1 ? st.acc : partials;
  float4* islices = segs == 1 ? nullptr : partials + n;
  CUDA_CHECK(cudaMemsetAsync(st.pair_sync, 0, pair_tile_sync_count(n) * sizeof(int), stream));
  if (segs > 1)  // tile 0 receives no reaction forces; its slice 0 stays zero
    CUDA_CHECK(cudaMemsetAsync(out, 0, std::min<long long>(n, kTile) * sizeof(float4), stream));
  const long long blocks = ceil_div(workers, warps_per_block);
  pair_tile_kernel(fp.guard)<<<static_cast<unsigned>(blocks), block, pair_tile_smem(block), stream>>>(
      st.pos, st.n, fp.G, fp.eps2, tiles, segs, seg_len, static_cast<int>(workers), st.pair_sync, out,
      islices);
  CUDA_CHECK_LAUNCH("forces_pair_tiles");
  return {out, segs == 1 ? 1 : segs + 1};
}

KernelInfo pair_tile_force_info(int block, bool guard) {
  KernelInfo k;
  k.name = guard ? "forces_pair_tiles (ε = 0)" : "forces_pair_tiles";
  k.func = reinterpret_cast<const void*>(pair_tile_kernel(guard));
  k.block_threads = block;
  k.dynamic_smem = pair_tile_smem(block);
  k.dynamic_smem_for = [](int b) { return pair_tile_smem(b); };
  return k;
}

}  // namespace gpulab::nbody::cuda_detail

namespace gpulab::nbody {

void set_pair_tile_tuning(int max_workers, bool whole_rows) {
  cuda_detail::max_workers().store(std::max(max_workers, 0));
  cuda_detail::force_whole_rows().store(whole_rows);
}

}  // namespace gpulab::nbody

// The lecture's CUDA Game of Life (2_gol cuda, 2_gol cuda_constant) on the byte layout with a ghost
// ring, one thread per cell on a 2D grid of edge×edge blocks.
//
// Variants:
//   gpu-global        every neighbour read from global memory, the rule by a branch (life::next_state)
//   gpu-lut-local     the states[2][9] table built by each thread from the rule masks: an array indexed
//                     at run time cannot live in registers, so it lands in per-thread local memory
//                     (ptxas reports a 72-byte stack frame) and each cell pays a local load
//   gpu-lut-constant  the same table in __constant__ memory, uploaded on set_rule: cached, and broadcast
//                     when the threads of a warp read the same entry
//   gpu-shared        the block's (edge+2)² tile with its one-cell halo staged in shared memory, so each
//                     cell is read from global memory about once per block instead of nine times
// and the ghost kernels all of them share: copy_ghost_cols, then copy_ghost_rows (corners included).
#include <mutex>
#include <optional>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "life/life_cuda_internal.cuh"

namespace gpulab::life::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

// snippet life_ghost
// Lecture: "Right ghost column <== column 1, left ghost column <== column N", for rows 1..H.
__global__ void copy_ghost_cols(uint8_t* grid, int width, int height, size_t pitch) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i <= height) {
    uint8_t* row = grid + static_cast<size_t>(i) * pitch;
    row[width + 1] = row[1];
    row[0] = row[width];
  }
}

// Lecture: "bottom ghost row <== row 1, top ghost row <== row N", columns 0..W+1, so the corners take
// the ghost columns just written and end up holding the diagonally opposite interior cell.
__global__ void copy_ghost_rows(uint8_t* grid, int width, int height, size_t pitch) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= width + 1) {
    grid[static_cast<size_t>(height + 1) * pitch + i] = grid[pitch + i];
    grid[i] = grid[static_cast<size_t>(height) * pitch + i];
  }
}
// end snippet

// Neighbour sum around padded position (row, col), all from global memory.
__device__ __forceinline__ uint32_t neighbours_global(const uint8_t* __restrict__ g, size_t pitch, size_t row,
                                                      size_t col) {
  const uint8_t* up = g + (row - 1) * pitch + col;
  const uint8_t* mid = up + pitch;
  const uint8_t* down = mid + pitch;
  return up[-1] + up[0] + up[1] + mid[-1] + mid[1] + down[-1] + down[0] + down[1];
}

// gridDim.y stops at 65535 blocks, so rows are covered by a stride loop over blockIdx.y.
#define GPULAB_FOR_EACH_ROW(row_var, height)                                    \
  for (int row_var = blockIdx.y * blockDim.y + threadIdx.y; row_var < (height); \
       row_var += gridDim.y * blockDim.y)

// snippet life_gpu_global
__global__ void step_global(const uint8_t* __restrict__ grid, uint8_t* __restrict__ newgrid, int width,
                            int height, size_t pitch, uint32_t birth, uint32_t survive) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  GPULAB_FOR_EACH_ROW(y, height) {
    const size_t row = static_cast<size_t>(y) + 1, col = static_cast<size_t>(x) + 1;
    const uint32_t n = neighbours_global(grid, pitch, row, col);
    newgrid[row * pitch + col] = next_state(birth, survive, grid[row * pitch + col], n);
  }
}
// end snippet

// snippet life_gpu_lut_local
__global__ void step_lut_local(const uint8_t* __restrict__ grid, uint8_t* __restrict__ newgrid, int width,
                               int height, size_t pitch, uint32_t birth, uint32_t survive) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  // The lecture's table, but filled from the rule at run time: states[state][n] with both indices known
  // only per cell forces the array into local memory (the point of this variant).
  // Filled by a rolled loop: with every store also at a run-time index, ptxas cannot turn the array
  // into 18 registers and a select chain (which it does when the fill loop is unrolled).
  int states[2][9];
#pragma unroll 1
  for (int n = 0; n < 9; ++n) {
    states[0][n] = (birth >> n) & 1u;
    states[1][n] = (survive >> n) & 1u;
  }
  GPULAB_FOR_EACH_ROW(y, height) {
    const size_t row = static_cast<size_t>(y) + 1, col = static_cast<size_t>(x) + 1;
    const uint32_t n = neighbours_global(grid, pitch, row, col);
    newgrid[row * pitch + col] = static_cast<uint8_t>(states[grid[row * pitch + col]][n]);
  }
}
// end snippet

__constant__ int c_states[2][9];

// snippet life_gpu_lut_constant
__global__ void step_lut_constant(const uint8_t* __restrict__ grid, uint8_t* __restrict__ newgrid, int width,
                                  int height, size_t pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  GPULAB_FOR_EACH_ROW(y, height) {
    const size_t row = static_cast<size_t>(y) + 1, col = static_cast<size_t>(x) + 1;
    const uint32_t n = neighbours_global(grid, pitch, row, col);
    newgrid[row * pitch + col] = static_cast<uint8_t>(c_states[grid[row * pitch + col]][n]);
  }
}
// end snippet

// Dynamic shared memory: a (edge + 2)² byte tile, edge = blockDim.x = blockDim.y.
// snippet life_gpu_shared
__global__ void step_shared(const uint8_t* __restrict__ grid, uint8_t* __restrict__ newgrid, int width,
                            int height, size_t pitch, uint32_t birth, uint32_t survive) {
  extern __shared__ uint8_t tile[];
  const int edge = blockDim.x, tile_edge = edge + 2;
  const int tid = threadIdx.y * edge + threadIdx.x, threads = edge * edge;
  const int x = blockIdx.x * edge + threadIdx.x;
  // Padded column of the tile's column 0 (the halo column left of the block's first cell).
  const size_t col0 = static_cast<size_t>(blockIdx.x) * edge;
  for (int y0 = blockIdx.y * edge; y0 < height; y0 += gridDim.y * edge) {
    // mark tile-load
    // Load the tile and its halo cooperatively: consecutive threads read consecutive bytes of a row.
    for (int i = tid; i < tile_edge * tile_edge; i += threads) {
      const int r = i / tile_edge, c = i - r * tile_edge;
      const size_t prow = static_cast<size_t>(y0) + r, pcol = col0 + c;
      tile[i] = (prow <= static_cast<size_t>(height) + 1 && pcol <= static_cast<size_t>(width) + 1)
                    ? grid[prow * pitch + pcol]
                    : 0;
    }
    __syncthreads();
    // end mark
    const int y = y0 + threadIdx.y;
    if (x < width && y < height) {
      const uint8_t* up = tile + threadIdx.y * tile_edge + threadIdx.x + 1;
      const uint8_t* mid = up + tile_edge;
      const uint8_t* down = mid + tile_edge;
      const uint32_t n = up[-1] + up[0] + up[1] + mid[-1] + mid[1] + down[-1] + down[0] + down[1];
      newgrid[(static_cast<size_t>(y) + 1) * pitch + x + 1] = next_state(birth, survive, mid[0], n);
    }
    __syncthreads();  // the tile is reloaded for the next band of rows
  }
}
// end snippet

size_t shared_tile_bytes(int block_threads) {
  int edge = 1;
  while ((edge + 1) * (edge + 1) <= block_threads) ++edge;
  return static_cast<size_t>(edge + 2) * (edge + 2);
}

const void* byte_kernel_func(ByteKernel kernel) {
  switch (kernel) {
    case ByteKernel::Global:
      return reinterpret_cast<const void*>(&step_global);
    case ByteKernel::LutLocal:
      return reinterpret_cast<const void*>(&step_lut_local);
    case ByteKernel::LutConstant:
      return reinterpret_cast<const void*>(&step_lut_constant);
    case ByteKernel::Shared:
      return reinterpret_cast<const void*>(&step_shared);
  }
  return nullptr;
}

const char* byte_kernel_name(ByteKernel kernel) {
  switch (kernel) {
    case ByteKernel::Global:
      return "step_global";
    case ByteKernel::LutLocal:
      return "step_lut_local";
    case ByteKernel::LutConstant:
      return "step_lut_constant";
    case ByteKernel::Shared:
      return "step_shared";
  }
  return "?";
}

// What c_states holds, so that several engines (several rules) can share the one __constant__ table.
std::mutex g_constant_mutex;
std::optional<Rule> g_constant_rule;

}  // namespace

void launch_ghosts(const ByteGrid& g, int ghost_block, cudaStream_t stream) {
  copy_ghost_cols<<<static_cast<unsigned>(ceil_div(g.height, ghost_block)), ghost_block, 0, stream>>>(
      g.cells, g.width, g.height, g.pitch);
  CUDA_CHECK_LAUNCH("copy_ghost_cols");
  copy_ghost_rows<<<static_cast<unsigned>(ceil_div(g.width + 2, ghost_block)), ghost_block, 0, stream>>>(
      g.cells, g.width, g.height, g.pitch);
  CUDA_CHECK_LAUNCH("copy_ghost_rows");
}

void upload_constant_rule(const Rule& rule, cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(g_constant_mutex);
  if (g_constant_rule && *g_constant_rule == rule) return;
  int table[2][9];
  const auto t = rule.table();
  for (int s = 0; s < 2; ++s)
    for (int n = 0; n < 9; ++n) table[s][n] = t[s][n];
  // From pageable memory the copy is staged before the call returns, so `table` may go out of scope.
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_states, table, sizeof(table), 0, cudaMemcpyHostToDevice, stream));
  g_constant_rule = rule;
}

void launch_byte_step(ByteKernel kernel, const ByteGrid& in, uint8_t* out, int block_edge, const Rule& rule,
                      cudaStream_t stream) {
  const dim3 block(block_edge, block_edge);
  const unsigned rows = static_cast<unsigned>(ceil_div(in.height, block_edge));
  const dim3 grid(static_cast<unsigned>(ceil_div(in.width, block_edge)),
                  rows < gpulab::cuda::kMaxGridY ? rows : gpulab::cuda::kMaxGridY);
  const uint32_t birth = rule.birth, survive = rule.survive;
  switch (kernel) {
    case ByteKernel::Global:
      step_global<<<grid, block, 0, stream>>>(in.cells, out, in.width, in.height, in.pitch, birth, survive);
      break;
    case ByteKernel::LutLocal:
      step_lut_local<<<grid, block, 0, stream>>>(in.cells, out, in.width, in.height, in.pitch, birth,
                                                 survive);
      break;
    case ByteKernel::LutConstant:
      upload_constant_rule(rule, stream);
      step_lut_constant<<<grid, block, 0, stream>>>(in.cells, out, in.width, in.height, in.pitch);
      break;
    case ByteKernel::Shared: {
      const size_t smem = static_cast<size_t>(block_edge + 2) * (block_edge + 2);
      step_shared<<<grid, block, smem, stream>>>(in.cells, out, in.width, in.height, in.pitch, birth,
                                                 survive);
      break;
    }
  }
  CUDA_CHECK_LAUNCH(byte_kernel_name(kernel));
}

std::vector<KernelInfo> byte_kernel_infos(ByteKernel kernel, int block_edge) {
  KernelInfo step;
  step.name = byte_kernel_name(kernel);
  step.func = byte_kernel_func(kernel);
  step.block_threads = block_edge * block_edge;
  if (kernel == ByteKernel::Shared) {
    step.dynamic_smem = static_cast<size_t>(block_edge + 2) * (block_edge + 2);
    step.dynamic_smem_for = &shared_tile_bytes;
  }
  return {step};
}

std::vector<KernelInfo> ghost_kernel_infos(int ghost_block) {
  KernelInfo cols;
  cols.name = "copy_ghost_cols";
  cols.func = reinterpret_cast<const void*>(&copy_ghost_cols);
  cols.block_threads = ghost_block;
  KernelInfo rows = cols;
  rows.name = "copy_ghost_rows";
  rows.func = reinterpret_cast<const void*>(&copy_ghost_rows);
  return {cols, rows};
}

}  // namespace gpulab::life::cuda_detail

// The transpose kernels, 32-bit words (float32 bits or RGBA8 pixels), any size:
//   transpose_naive   one element a thread (32x8 threads walk a 32x32 tile): reads along a row of
//                     the input (coalesced), writes down a column of the output (32 lines a warp)
//   transpose_shared  the tile through shared memory, read and written by rows; PAD = 1 gives the
//                     tile a 33rd column, SWIZZLE stores column x of row y at x ^ y instead
//   transpose_vector  a 64x64 tile, 256 threads, 16 words a thread moved as four 16-byte loads and
//                     four 16-byte stores (scalar where the tile leaves the matrix or rows are not
//                     multiples of 4 words)
#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "matrix/matrix_cuda_internal.cuh"

namespace gpulab::matrix::detail {
namespace {

constexpr int kTile = 32, kRows = 8;

// snippet transpose_naive
__global__ void transpose_naive(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int rows,
                                int cols) {
  const int x = blockIdx.x * kTile + threadIdx.x;  // column of the input
  for (int j = 0; j < kTile; j += kRows) {
    const int y = blockIdx.y * kTile + threadIdx.y + j;  // row of the input
    if (x < cols && y < rows) out[size_t(x) * rows + y] = in[size_t(y) * cols + x];
  }
}
// end snippet

// snippet transpose_shared
template <int PAD, bool SWIZZLE>
__global__ void transpose_shared(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int rows,
                                 int cols) {
  __shared__ uint32_t tile[kTile][kTile + PAD];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int bx = blockIdx.x * kTile, by = blockIdx.y * kTile;
  for (int j = 0; j < kTile; j += kRows) {
    const int r = ty + j, x = bx + tx, y = by + r;
    if (x < cols && y < rows) tile[r][SWIZZLE ? (tx ^ r) : tx] = in[size_t(y) * cols + x];
  }
  __syncthreads();
  for (int j = 0; j < kTile; j += kRows) {
    const int c = ty + j;               // the tile's column: a row of the output
    const int x = by + tx, y = bx + c;  // output column (an input row), output row (an input column)
    if (x < rows && y < cols) out[size_t(y) * rows + x] = tile[tx][SWIZZLE ? (c ^ tx) : c];
  }
}
// end snippet

// snippet transpose_vector
constexpr int kVecTile = 64, kVecPad = 1;
__global__ void __launch_bounds__(256)
    transpose_vector(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int rows, int cols,
                     bool aligned) {
  __shared__ uint32_t tile[kVecTile][kVecTile + kVecPad];
  const int t = threadIdx.x;
  const int c4 = (t & 15) * 4, r0 = t >> 4;  // 16 groups of 4 words a row, 16 rows a pass
  const int bx = blockIdx.x * kVecTile, by = blockIdx.y * kVecTile;
  const bool full = aligned && bx + kVecTile <= cols && by + kVecTile <= rows;
#pragma unroll
  for (int p = 0; p < 4; ++p) {
    const int r = r0 + 16 * p, y = by + r, x = bx + c4;
    if (full) {
      const uint4 v = __ldg(reinterpret_cast<const uint4*>(in + size_t(y) * cols + x));
      tile[r][c4] = v.x;
      tile[r][c4 + 1] = v.y;
      tile[r][c4 + 2] = v.z;
      tile[r][c4 + 3] = v.w;
    } else {
      for (int i = 0; i < 4; ++i)
        if (y < rows && x + i < cols) tile[r][c4 + i] = in[size_t(y) * cols + x + i];
    }
  }
  __syncthreads();
#pragma unroll
  for (int p = 0; p < 4; ++p) {
    const int c = r0 + 16 * p;          // the tile's column: output row bx + c
    const int y = bx + c, x = by + c4;  // output row (input column), output columns (input rows) x..x+3
    if (full) {
      uint4 v;
      v.x = tile[c4][c];
      v.y = tile[c4 + 1][c];
      v.z = tile[c4 + 2][c];
      v.w = tile[c4 + 3][c];
      *reinterpret_cast<uint4*>(out + size_t(y) * rows + x) = v;
    } else {
      for (int i = 0; i < 4; ++i)
        if (y < cols && x + i < rows) out[size_t(y) * rows + x + i] = tile[c4 + i][c];
    }
  }
}
// end snippet

}  // namespace

void launch_transpose(Kind k, const uint32_t* in, uint32_t* out, int rows, int cols, cudaStream_t s) {
  if (k == Kind::TransposeVector) {
    const dim3 grid(unsigned(cuda::ceil_div(cols, kVecTile)), unsigned(cuda::ceil_div(rows, kVecTile)));
    const bool aligned = cols % 4 == 0 && rows % 4 == 0;
    transpose_vector<<<grid, 256, 0, s>>>(in, out, rows, cols, aligned);
    CUDA_CHECK_LAUNCH("transpose_vector");
    return;
  }
  const dim3 grid(unsigned(cuda::ceil_div(cols, kTile)), unsigned(cuda::ceil_div(rows, kTile)));
  const dim3 block(kTile, kRows);
  switch (k) {
    case Kind::TransposeNaive:
      transpose_naive<<<grid, block, 0, s>>>(in, out, rows, cols);
      break;
    case Kind::TransposeShared:
      transpose_shared<0, false><<<grid, block, 0, s>>>(in, out, rows, cols);
      break;
    case Kind::TransposePadded:
      transpose_shared<1, false><<<grid, block, 0, s>>>(in, out, rows, cols);
      break;
    case Kind::TransposeSwizzled:
      transpose_shared<0, true><<<grid, block, 0, s>>>(in, out, rows, cols);
      break;
    default:
      throw std::logic_error("matrix: not a transpose kernel");
  }
  CUDA_CHECK_LAUNCH("transpose");
}

std::vector<KernelInfo> transpose_kernels(Kind k) {
  switch (k) {
    case Kind::TransposeNaive:
      return {{"transpose_naive", reinterpret_cast<const void*>(&transpose_naive), kTile * kRows}};
    case Kind::TransposeShared:
      return {{"transpose_shared<0,false>", reinterpret_cast<const void*>(&transpose_shared<0, false>),
               kTile * kRows}};
    case Kind::TransposePadded:
      return {{"transpose_shared<1,false>", reinterpret_cast<const void*>(&transpose_shared<1, false>),
               kTile * kRows}};
    case Kind::TransposeSwizzled:
      return {{"transpose_shared<0,true>", reinterpret_cast<const void*>(&transpose_shared<0, true>),
               kTile * kRows}};
    case Kind::TransposeVector:
      return {{"transpose_vector", reinterpret_cast<const void*>(&transpose_vector), 256}};
    default:
      return {};
  }
}

}  // namespace gpulab::matrix::detail

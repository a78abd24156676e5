// The FP32 multiply kernels, any M, N, K (tiles zero-filled past the edges, stores guarded):
//   gemm_naive          one thread an element of C, its row of A and column of B from global memory
//   gemm_shared_tile    the lab's tiled kernel, TILE x TILE threads and tiles (16 or 32)
//   gemm_aat            the lab's A·Aᵀ: the second tile is read down its columns, PAD 0 or 1
//   gemm_register_tile  128x128 block tile, BK = 8, 256 threads, an 8x8 tile of C a thread in registers,
//                       float4 loads (A stored transposed in shared memory)
//   gemm_warp_tile      the same block tile laid out by warps (128 threads, 2x2 warps of 64x64, lanes 8x4
//                       each owning 2x4 quads of 4x4: 8x16 of C a thread), BK = 16, two shared buffers:
//                       the next tile is in flight (A through registers, B by cp.async) while this one
//                       computes, one __syncthreads a tile
#include "common/cp_async.cuh"
#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "matrix/matrix_cuda_internal.cuh"

namespace gpulab::matrix::detail {
namespace {

// snippet gemm_naive
__global__ void gemm_naive(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float s = 0.0f;
  for (int i = 0; i < k; ++i) s += a[size_t(row) * k + i] * b[size_t(i) * n + col];
  c[size_t(row) * n + col] = s;
}
// end snippet

// snippet gemm_shared_tile
template <int T>
__global__ void gemm_shared_tile(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ c, int m, int n, int k) {
  __shared__ float as[T][T], bs[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float s = 0.0f;
  for (int k0 = 0; k0 < k; k0 += T) {
    as[ty][tx] = row < m && k0 + tx < k ? a[size_t(row) * k + k0 + tx] : 0.0f;
    bs[ty][tx] = k0 + ty < k && col < n ? b[size_t(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < T; ++i) s += as[ty][i] * bs[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[size_t(row) * n + col] = s;
}
// end snippet

// snippet gemm_aat
template <int T, int PAD>
__global__ void gemm_aat(const float* __restrict__ a, float* __restrict__ c, int m, int k) {
  __shared__ float as[T][T], at[T][T + PAD];  // at[j][i]: row j of A's tile, read as column j of Aᵀ
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  const int trow = blockIdx.x * T + ty;  // the row of A that column `col` of Aᵀ is
  float s = 0.0f;
  for (int k0 = 0; k0 < k; k0 += T) {
    as[ty][tx] = row < m && k0 + tx < k ? a[size_t(row) * k + k0 + tx] : 0.0f;
    at[ty][tx] = trow < m && k0 + tx < k ? a[size_t(trow) * k + k0 + tx] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < T; ++i) s += as[ty][i] * at[tx][i];  // lanes (tx) read down a column of `at`
    __syncthreads();
  }
  if (row < m && col < m) c[size_t(row) * m + col] = s;
}
// end snippet

// Four floats of row `row` from column `col` of a rows x cols matrix with rows of `ld`: one 16-byte load
// where they are all inside and aligned, else one at a time, zero outside.
__device__ __forceinline__ float4 load4(const float* __restrict__ p, int row, int col, int rows, int cols,
                                        bool vec) {
  float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
  if (row >= rows) return v;
  const float* q = p + size_t(row) * cols + col;
  if (vec && col + 3 < cols) return __ldg(reinterpret_cast<const float4*>(q));
  if (col < cols) v.x = q[0];
  if (col + 1 < cols) v.y = q[1];
  if (col + 2 < cols) v.z = q[2];
  if (col + 3 < cols) v.w = q[3];
  return v;
}
__device__ __forceinline__ void store4(float* __restrict__ p, int row, int col, int rows, int cols, bool vec,
                                       float4 v) {
  if (row >= rows) return;
  float* q = p + size_t(row) * cols + col;
  if (vec && col + 3 < cols) {
    *reinterpret_cast<float4*>(q) = v;
    return;
  }
  if (col < cols) q[0] = v.x;
  if (col + 1 < cols) q[1] = v.y;
  if (col + 2 < cols) q[2] = v.z;
  if (col + 3 < cols) q[3] = v.w;
}

constexpr int kBM = 128, kBN = 128, kBK = 8, kThreads = 256;

// snippet gemm_register_tile
__global__ void __launch_bounds__(kThreads)
    gemm_register_tile(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                       int n, int k, bool vec_a, bool vec_b) {
  __shared__ __align__(16) float as[kBK][kBM];  // transposed: as[k][m]
  __shared__ __align__(16) float bs[kBK][kBN];
  const int tid = threadIdx.x, tr = tid / 16, tc = tid % 16;
  const int bm = blockIdx.y * kBM, bn = blockIdx.x * kBN;
  const int arow = tid / 2, acol = (tid % 2) * 4, brow = tid / 32, bcol = (tid % 32) * 4;
  float acc[8][8] = {};
  for (int k0 = 0; k0 < k; k0 += kBK) {
    const float4 av = load4(a, bm + arow, k0 + acol, m, k, vec_a);
    as[acol + 0][arow] = av.x;
    as[acol + 1][arow] = av.y;
    as[acol + 2][arow] = av.z;
    as[acol + 3][arow] = av.w;
    const float4 bv =
        k0 + brow < k ? load4(b, k0 + brow, bn + bcol, k, n, vec_b) : make_float4(0.f, 0.f, 0.f, 0.f);
    *reinterpret_cast<float4*>(&bs[brow][bcol]) = bv;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kBK; ++i) {
      float ra[8], rb[8];
      *reinterpret_cast<float4*>(ra) = *reinterpret_cast<const float4*>(&as[i][tr * 8]);
      *reinterpret_cast<float4*>(ra + 4) = *reinterpret_cast<const float4*>(&as[i][tr * 8 + 4]);
      *reinterpret_cast<float4*>(rb) = *reinterpret_cast<const float4*>(&bs[i][tc * 8]);
      *reinterpret_cast<float4*>(rb + 4) = *reinterpret_cast<const float4*>(&bs[i][tc * 8 + 4]);
#pragma unroll
      for (int y = 0; y < 8; ++y)
#pragma unroll
        for (int x = 0; x < 8; ++x) acc[y][x] += ra[y] * rb[x];
    }
    __syncthreads();
  }
#pragma unroll
  for (int y = 0; y < 8; ++y)
#pragma unroll
    for (int x = 0; x < 8; x += 4)
      store4(c, bm + tr * 8 + y, bn + tc * 8 + x, m, n, vec_b,
             make_float4(acc[y][x], acc[y][x + 1], acc[y][x + 2], acc[y][x + 3]));
}
// end snippet

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define GEMM_CP_ASYNC 1  // cp.async: Ampere on
#else
#define GEMM_CP_ASYNC 0
#endif

// snippet gemm_warp_tile
// The block's BM x BN tile of C is split among warps, WM x WN each; a warp's 32 lanes are LM x LN and
// each lane owns QM x QN quads of 4x4 spaced WM/QM rows and WN/QN columns apart (gemm-warp-tile: 64x64
// and 2x4, lanes 8x4, 8x16 of C a lane). A k-step's shared reads are then float4s that 4 or 8 lanes
// share: broadcasts, no bank conflicts. A is stored transposed, as[k][m], its rows padded by 4 floats
// (float4 reads stay aligned; the transposed stores conflict 2-way instead of 4-way).
// Two shared buffers: while the block computes on one, the next tile travels into the other — A through
// registers (it is transposed on the way), B by cp.async straight into shared memory (GEMM_CP_ASYNC: code
// built for sm_80 on; older GPUs take B through registers too). VEC: K and N multiples of 4, so 16-byte
// loads.
template <int BM, int BN, int BK, int WM, int WN, int QM, int QN, int MINB, bool VEC>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, MINB)
    gemm_warp_tile(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                   int n, int k) {
  constexpr int T = (BM / WM) * (BN / WN) * 32, LN = WN / (4 * QN), TM = 4 * QM, TN = 4 * QN;
  constexpr int LA = BM * BK / 4 / T, LB = BK * BN / 4 / T;  // chunks of 4 floats of A and B a thread moves
  static_assert(LA * 4 * T == BM * BK && LB * 4 * T == BK * BN && (WM / (4 * QM)) * LN == 32, "layout");
  __shared__ __align__(16) float as[2][BK][BM + 4];
  __shared__ __align__(16) float bs[2][BK][BN];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;  // the warp's tile of C
  const int lm = (lane / LN) * 4, ln = (lane % LN) * 4;                  // the lane's first quad in it
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float4 av[LA];
#if !GEMM_CP_ASYNC
  float4 bv[LB];
#endif
  // Start moving the tile at k0 towards buffer `buf`: chunk ch of A is row ch / (BK/4) of its tile, of
  // B row ch / (BN/4). Zeros past the matrix's edges.
  auto fetch = [&](int k0, int buf) {
#pragma unroll
    for (int i = 0; i < LA; ++i) {
      const int ch = tid + i * T, row = bm + ch / (BK / 4), col = k0 + (ch % (BK / 4)) * 4;
      if constexpr (VEC)
        av[i] = row < m && col < k ? __ldg(reinterpret_cast<const float4*>(a + size_t(row) * k + col))
                                   : make_float4(0.f, 0.f, 0.f, 0.f);
      else
        av[i] = load4(a, row, col, m, k, false);
    }
#pragma unroll
    for (int i = 0; i < LB; ++i) {
      const int ch = tid + i * T, r = ch / (BN / 4), cc = (ch % (BN / 4)) * 4, row = k0 + r, col = bn + cc;
#if GEMM_CP_ASYNC
      const float* src = b + size_t(row) * n + col;
      if constexpr (VEC) {
        cuda::cp_async16(&bs[buf][r][cc], row < k && col < n ? src : b, row < k && col < n);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          cuda::cp_async4(&bs[buf][r][cc + j], row < k && col + j < n ? src + j : b, row < k && col + j < n);
      }
#else
      bv[i] = row < k ? load4(b, row, col, k, n, VEC) : make_float4(0.f, 0.f, 0.f, 0.f);
#endif
    }
#if GEMM_CP_ASYNC
    cuda::cp_commit();
#endif
  };
  // Finish the move into `buf`: A's chunks as four stores down a column of as; B's copies waited for.
  auto put = [&](int buf) {
#pragma unroll
    for (int i = 0; i < LA; ++i) {
      const int ch = tid + i * T, r = ch / (BK / 4), col = (ch % (BK / 4)) * 4;
      as[buf][col + 0][r] = av[i].x;
      as[buf][col + 1][r] = av[i].y;
      as[buf][col + 2][r] = av[i].z;
      as[buf][col + 3][r] = av[i].w;
    }
#if GEMM_CP_ASYNC
    cuda::cp_wait<0>();
#else
#pragma unroll
    for (int i = 0; i < LB; ++i) {
      const int ch = tid + i * T, r = ch / (BN / 4), col = (ch % (BN / 4)) * 4;
      *reinterpret_cast<float4*>(&bs[buf][r][col]) = bv[i];
    }
#endif
  };
  fetch(0, 0);
  put(0);
  __syncthreads();
  const int tiles = (k + BK - 1) / BK;
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    const bool more = t + 1 < tiles;
    // The next tile into the other buffer (everyone finished reading it before the last sync) while
    // this one computes.
    if (more) fetch((t + 1) * BK, cur ^ 1);
#pragma unroll
    for (int i = 0; i < BK; ++i) {  // one k-step: QM + QN float4 reads, TM x TN FMAs
      float ra[TM], rb[TN];
#pragma unroll
      for (int q = 0; q < QM; ++q)
        *reinterpret_cast<float4*>(ra + 4 * q) =
            *reinterpret_cast<const float4*>(&as[cur][i][wm + lm + q * (WM / QM)]);
#pragma unroll
      for (int q = 0; q < QN; ++q)
        *reinterpret_cast<float4*>(rb + 4 * q) =
            *reinterpret_cast<const float4*>(&bs[cur][i][wn + ln + q * (WN / QN)]);
#pragma unroll
      for (int y = 0; y < TM; ++y)
#pragma unroll
        for (int x = 0; x < TN; ++x) acc[y][x] += ra[y] * rb[x];
    }
    if (more) put(cur ^ 1);
    __syncthreads();
  }
  // Epilogue: each quad row of C as a float4 store.
#pragma unroll
  for (int y = 0; y < TM; ++y) {
    const int row = bm + wm + lm + (y / 4) * (WM / QM) + y % 4;
#pragma unroll
    for (int q = 0; q < QN; ++q)
      store4(c, row, bn + wn + ln + q * (WN / QN), m, n, VEC,
             make_float4(acc[y][4 * q], acc[y][4 * q + 1], acc[y][4 * q + 2], acc[y][4 * q + 3]));
  }
}
// end snippet

// The instances gemm-warp-tile launches: 128x128 tiles, BK = 16, 2x2 warps of 64x64 (128 threads), lanes
// 8x4 owning 2x4 quads (8x16 of C), two blocks an SM; VEC where K and N are multiples of 4.
constexpr int kWarpBK = 16, kWarpWM = 64, kWarpWN = 64, kWarpQM = 2, kWarpQN = 4;
constexpr int kWarpThreads = (kBM / kWarpWM) * (kBN / kWarpWN) * 32;
template <bool VEC>
constexpr auto gemm_warp_tile_k =
    gemm_warp_tile<kBM, kBN, kWarpBK, kWarpWM, kWarpWN, kWarpQM, kWarpQN, 2, VEC>;

template <class F>
KernelInfo info(const char* name, F* f, int threads) {
  return {name, reinterpret_cast<const void*>(f), threads};
}

}  // namespace

void launch_gemm(Kind kind, int block, const float* a, const float* b, float* c, int m, int n, int k,
                 cudaStream_t s) {
  const bool aat = kind == Kind::GemmAat || kind == Kind::GemmAatPadded;
  const int cols = aat ? m : n;
  switch (kind) {
    case Kind::GemmNaive: {
      const dim3 blk(block, block),
          grid(unsigned(cuda::ceil_div(n, block)), unsigned(cuda::ceil_div(m, block)));
      gemm_naive<<<grid, blk, 0, s>>>(a, b, c, m, n, k);
      break;
    }
    case Kind::GemmSharedTile:
    case Kind::GemmAat:
    case Kind::GemmAatPadded: {
      if (block != 16 && block != 32) throw std::invalid_argument("matrix: tiles of 16 or 32 only");
      const dim3 blk(block, block),
          grid(unsigned(cuda::ceil_div(cols, block)), unsigned(cuda::ceil_div(m, block)));
      if (kind == Kind::GemmSharedTile) {
        if (block == 16)
          gemm_shared_tile<16><<<grid, blk, 0, s>>>(a, b, c, m, n, k);
        else
          gemm_shared_tile<32><<<grid, blk, 0, s>>>(a, b, c, m, n, k);
      } else if (kind == Kind::GemmAat) {
        if (block == 16)
          gemm_aat<16, 0><<<grid, blk, 0, s>>>(a, c, m, k);
        else
          gemm_aat<32, 0><<<grid, blk, 0, s>>>(a, c, m, k);
      } else {
        if (block == 16)
          gemm_aat<16, 1><<<grid, blk, 0, s>>>(a, c, m, k);
        else
          gemm_aat<32, 1><<<grid, blk, 0, s>>>(a, c, m, k);
      }
      break;
    }
    case Kind::GemmRegisterTile:
    case Kind::GemmWarpTile: {
      const dim3 grid(unsigned(cuda::ceil_div(n, kBN)), unsigned(cuda::ceil_div(m, kBM)));
      const bool vec_a = k % 4 == 0, vec_b = n % 4 == 0;
      if (kind == Kind::GemmRegisterTile)
        gemm_register_tile<<<grid, kThreads, 0, s>>>(a, b, c, m, n, k, vec_a, vec_b);
      else
        (vec_a && vec_b ? gemm_warp_tile_k<true> : gemm_warp_tile_k<false>)<<<grid, kWarpThreads, 0, s>>>(
            a, b, c, m, n, k);
      break;
    }
    default:
      throw std::logic_error("matrix: not an FP32 gemm kernel");
  }
  CUDA_CHECK_LAUNCH("gemm");
}

std::vector<KernelInfo> gemm_kernels(Kind kind, int block) {
  const int t = block * block;
  switch (kind) {
    case Kind::GemmNaive:
      return {info("gemm_naive", &gemm_naive, t)};
    case Kind::GemmSharedTile:
      return {block == 16 ? info("gemm_shared_tile<16>", &gemm_shared_tile<16>, t)
                          : info("gemm_shared_tile<32>", &gemm_shared_tile<32>, t)};
    case Kind::GemmAat:
      return {block == 16 ? info("gemm_aat<16,0>", &gemm_aat<16, 0>, t)
                          : info("gemm_aat<32,0>", &gemm_aat<32, 0>, t)};
    case Kind::GemmAatPadded:
      return {block == 16 ? info("gemm_aat<16,1>", &gemm_aat<16, 1>, t)
                          : info("gemm_aat<32,1>", &gemm_aat<32, 1>, t)};
    case Kind::GemmRegisterTile:
      return {info("gemm_register_tile", &gemm_register_tile, kThreads)};
    case Kind::GemmWarpTile: {
      // One of the two runs, by the shape; the first's name is the one the counters' kernel name contains.
      KernelInfo v = info("gemm_warp_tile", gemm_warp_tile_k<true>, kWarpThreads);
      KernelInfo e = info("gemm_warp_tile, K or N not multiples of 4", gemm_warp_tile_k<false>, kWarpThreads);
      for (KernelInfo* x : {&v, &e}) {
        x->path_min_arch = 80;
        x->path_new = "B tile by cp.async";
        x->path_old = "B tile through registers";
      }
      return {v, e};
    }
    default:
      return {};
  }
}

}  // namespace gpulab::matrix::detail

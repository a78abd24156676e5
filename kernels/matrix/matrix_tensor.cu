// The tensor-core multiply (gemm_tensor): raw mma.sync, fp32 accumulate.
//   BF16: mma.sync.m16n8k16 (bf16 x bf16 + f32), operands rounded to bfloat16 once when they are set;
//   TF32: mma.sync.m16n8k8 (tf32 x tf32 + f32) on the float32 operands as stored (the tensor core keeps
//         10 mantissa bits of each, truncated).
// Both operands are K-contiguous: A (M x K) as given, B as its transpose Bt (N x K), made once when the
// operands are set (launch_pad_transposed_*). Then A and B tiles are the same thing in shared memory:
// rows of 128 bytes (64 bf16 or 32 floats of K), eight 16-byte chunks a row, chunk c of row r stored
// at chunk c ^ (r % 8) (an XOR swizzle instead of padding: the eight rows an ldmatrix phase reads hit
// eight different chunks, so all 32 banks, and the 16-byte cp.async stores stay whole).
// Fragments come out of shared memory with ldmatrix.x4 (for TF32 a 32-bit element is a pair of b16:
// an 8x8 b16 matrix is 8 rows x 4 floats, exactly the m16n8k8 fragment layout), one k-step ahead of
// the mma.sync that uses them (double-buffered registers).
// Block tile 128x256 of 8 warps (2x4), each 64x64 (4x8 mma tiles, 128 accumulators a thread, about 250
// registers), three cp.async stages of 48 KiB (zero-filled past M, N and K): one block an SM.
// What bounds it: mma.sync is issued by one warp for a 16x8 tile at a time and its operands go through
// registers (ldmatrix), where Hopper's wgmma lets a warpgroup multiply 64xN tiles straight out of
// shared memory while TMA moves the tiles; cuBLAS uses both. Without them the tensor cores are fed at a
// fraction of their peak: the issue rate of mma.sync + ldmatrix and the registers it costs are the limit.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "common/cp_async.cuh"
#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "matrix/matrix_cuda_internal.cuh"

// mma.sync with TF32 / BF16 operands, ldmatrix and cp.async need compute capability 8.0 (Ampere): for
// the older architectures of the default list (sm_75) the kernel compiles to a trap, and the launch
// refuses these variants there with the reason (prepare<T>, before any launch).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define GPULAB_MATRIX_TENSOR 1
#endif

namespace gpulab::matrix::detail {
namespace {

constexpr int kRowBytes = 128;  // a shared-memory row: 8 chunks of 16 bytes, the K extent of a tile

// The block tile: BM x BN of C, warps of 64x64, STAGES shared-memory stages.
template <int BM_, int BN_, int STAGES_>
struct Tile {
  static constexpr int BM = BM_, BN = BN_, STAGES = STAGES_;
  static constexpr int kThreads = (BM / 64) * (BN / 64) * 32;
  static constexpr int kMinBlocks = kThreads <= 128 ? 2 : 1;  // what the registers allow an SM
  static constexpr size_t kStageBytes = size_t(BM + BN) * kRowBytes;
  static constexpr size_t kSmem = kStageBytes * STAGES;
};
// Measured on an H200 (4096^3 and 8192^3): 128x256 (8 warps, one block an SM) beat 128x128 (4 warps,
// two blocks an SM), 256x128 and four stages for both precisions.
using TileBf16 = Tile<128, 256, 3>;
using TileTf32 = Tile<128, 256, 3>;
template <class T>
using TileOf = std::conditional_t<sizeof(T) == 2, TileBf16, TileTf32>;

#if defined(GPULAB_MATRIX_TENSOR)
using cuda::cp_async16;
using cuda::cp_commit;
using cuda::cp_wait;
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
// d += a (16 x k) · b (k x 8): k = 16 bf16 or 8 tf32; a and b fragments as ldmatrix leaves them.
template <class T>
__device__ __forceinline__ void mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  if constexpr (sizeof(T) == 2)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#endif

// snippet gemm_tensor
// C (M x N) = A (M x K) · Btᵀ, A and Bt both K-contiguous (rows of lda / ldb elements, zero past K).
template <class T, class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
    gemm_tensor(const T* __restrict__ a, int lda, const T* __restrict__ bt, int ldb, float* __restrict__ c,
                int m, int n, int k) {
#if defined(GPULAB_MATRIX_TENSOR)
  constexpr int BM = Cfg::BM, BN = Cfg::BN, S = Cfg::STAGES, THREADS = Cfg::kThreads;
  constexpr int E = 16 / int(sizeof(T)), BK = kRowBytes / int(sizeof(T));  // elements a chunk, a row
  constexpr unsigned kStage = unsigned(Cfg::kStageBytes), kB = unsigned(BM * kRowBytes);
  extern __shared__ __align__(128) unsigned char smem[];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;

  // Which tile of C: groups of 8 block rows walk the columns together, so the A and B panels that the
  // blocks in flight read stay in L2.
  const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, group = 8 * tiles_n;
  const int first = int(blockIdx.x) / group * 8, rows_in = min(tiles_m - first, 8);
  const int bm = (first + int(blockIdx.x) % group % rows_in) * BM;
  const int bn = (int(blockIdx.x) % group / rows_in) * BN;
  const int ktiles = (k + BK - 1) / BK;

  // Global -> shared: each thread copies chunk (tid % 8) of rows tid / 8 + i·THREADS/8, 16 bytes with
  // cp.async, swizzled; rows past M / N and chunks past the padded K are zero-filled.
  const int lchunk = tid % 8, lrow = tid / 8;
  const unsigned lswz = unsigned((lchunk ^ (lrow % 8)) * 16);
  auto load_tile = [&](int t, int s) {
    const int k0 = t * BK + lchunk * E;
    const unsigned sa = base + unsigned(s) * kStage + unsigned(lrow * kRowBytes) + lswz, sb = sa + kB;
#pragma unroll
    for (int i = 0; i < BM * 8 / THREADS; ++i) {
      const int r = bm + lrow + i * (THREADS / 8);
      const bool ok = r < m && k0 < lda;
      cp_async16(sa + unsigned(i * THREADS / 8 * kRowBytes), ok ? a + size_t(r) * lda + k0 : a, ok);
    }
#pragma unroll
    for (int i = 0; i < BN * 8 / THREADS; ++i) {
      const int r = bn + lrow + i * (THREADS / 8);
      const bool ok = r < n && k0 < ldb;
      cp_async16(sb + unsigned(i * THREADS / 8 * kRowBytes), ok ? bt + size_t(r) * ldb + k0 : bt, ok);
    }
  };

  // Shared -> registers: per k-step (32 bytes of K: 2 chunks) a warp takes 4 A fragments (16 rows) and
  // 8 B fragments (8 columns of C) with ldmatrix.x4. Lane l addresses row l % 16 (A) or
  // l % 8 + 8·(l / 16) (B) of the fragment, chunk l / 16 (A) or (l / 8) % 2 (B); every row it addresses
  // is ≡ l (mod 8), so its swizzle is l % 8.
  const int wm = warp / (BN / 64) * 64, wn = warp % (BN / 64) * 64;
  const unsigned a_row = unsigned((wm + lane % 16) * kRowBytes);
  const unsigned b_row = kB + unsigned((wn + lane % 8 + 8 * (lane / 16)) * kRowBytes);
  const int a_ch = lane / 16, b_ch = (lane / 8) % 2, swz = lane % 8;
  auto load_frags = [&](int s, int ks, unsigned(&fa)[4][4], unsigned(&fb)[8][2]) {
    const unsigned st = base + unsigned(s) * kStage;
    const unsigned ca = unsigned(((2 * ks + a_ch) ^ swz) * 16), cb = unsigned(((2 * ks + b_ch) ^ swz) * 16);
#pragma unroll
    for (int i = 0; i < 4; ++i) ldmatrix_x4(fa[i], st + a_row + unsigned(i * 16 * kRowBytes) + ca);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      unsigned r[4];
      ldmatrix_x4(r, st + b_row + unsigned(j * 16 * kRowBytes) + cb);
      fb[2 * j][0] = r[0];
      fb[2 * j][1] = r[1];
      fb[2 * j + 1][0] = r[2];
      fb[2 * j + 1][1] = r[3];
    }
  };

  float acc[4][8][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;
  unsigned fa[2][4][4], fb[2][8][2];

  // Prologue: S-1 tiles in flight, the first k-step's fragments loaded.
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < ktiles) load_tile(s, s);
    cp_commit();
  }
  cp_wait<S - 2>();
  __syncthreads();
  load_frags(0, 0, fa[0], fb[0]);

  // Main loop: per tile 4 k-steps; the fragments of step ks+1 load while step ks multiplies; the
  // copy of tile t+S-1 goes into the stage that tile t-1 left; at the last step, wait for tile t+1.
  constexpr int KS = kRowBytes / 32;
  for (int t = 0; t < ktiles; ++t) {
#pragma unroll
    for (int ks = 0; ks < KS; ++ks) {
      if (ks == KS - 1) {
        cp_wait<S - 2>();
        __syncthreads();  // tile t+1 is in; every warp is done reading the stage of tile t-1
      }
      if (ks < KS - 1)
        load_frags(t % S, ks + 1, fa[(ks + 1) % 2], fb[(ks + 1) % 2]);
      else if (t + 1 < ktiles)
        load_frags((t + 1) % S, 0, fa[(ks + 1) % 2], fb[(ks + 1) % 2]);
      if (ks == 0) {
        if (t + S - 1 < ktiles) load_tile(t + S - 1, (t + S - 1) % S);
        cp_commit();
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const int jj = (i % 2) ? 7 - j : j;  // serpentine: consecutive mma share a fragment
          mma<T>(acc[i][jj], fa[ks % 2][i], fb[ks % 2][jj]);
        }
    }
  }
  cp_wait<0>();

  // Epilogue: lane l holds rows l/4 and l/4 + 8, columns 2·(l%4) and +1 of each 16x8 tile: float2
  // stores (8 rows of 32 bytes a warp instruction) where N is even, single floats at odd N and edges.
  const bool pairs = n % 2 == 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int col = bn + wn + j * 8 + 2 * (lane % 4);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = bm + wm + i * 16 + lane / 4 + 8 * h;
        if (row >= m || col >= n) continue;
        float* p = c + size_t(row) * n + col;
        if (pairs) {
          *reinterpret_cast<float2*>(p) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
        } else {
          p[0] = acc[i][j][2 * h];
          if (col + 1 < n) p[1] = acc[i][j][2 * h + 1];
        }
      }
    }
#else
  __trap();
#endif
}
// end snippet

// snippet mma_peak
// The mma.sync ceiling: each warp issues `iters` rounds of 8 independent mma.sync (8 accumulator
// chains, operands fixed in registers: no loads, no ldmatrix), the instruction's own rate. The
// operands are random-looking finite values (data that toggles costs power, zeros would flatter).
template <class T>
__global__ void __launch_bounds__(256) mma_peak(int iters, float* __restrict__ sink) {
#if defined(GPULAB_MATRIX_TENSOR)
  unsigned a[4], b[2];
  unsigned h = (blockIdx.x * 256u + threadIdx.x) * 0x9E3779B9u;
  auto next = [&h] {
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    // two bf16 or one float of magnitude in [1/8, 1/4), either sign
    return sizeof(T) == 2 ? (h & 0x807F807Fu) | 0x3E003E00u : (h & 0x807FFFFFu) | 0x3E000000u;
  };
  for (unsigned& x : a) x = next();
  for (unsigned& x : b) x = next();
  float acc[8][4] = {};
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int c = 0; c < 8; ++c) mma<T>(acc[c], a, b);
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < 8; ++c) s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  if (s == 1234.5f) sink[0] = s;  // keeps the work; never true in practice
#else
  __trap();
#endif
}
// end snippet

template <class T>
__device__ __forceinline__ T from_float(float v) {
  if constexpr (sizeof(T) == 2)
    return __float2bfloat16_rn(v);
  else
    return v;
}

template <class T>
__global__ void pad_convert(const float* __restrict__ src, int rows, int cols, T* __restrict__ dst,
                            int dcols) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(rows) * dcols) return;
  const int r = int(i / dcols), cc = int(i % dcols);
  dst[i] = from_float<T>(cc < cols ? src[size_t(r) * cols + cc] : 0.0f);
}

// dst (cols x dcols) = srcᵀ converted, zero in columns rows..dcols-1: a 32x32 tile through shared
// memory so both sides are coalesced.
template <class T>
__global__ void pad_transpose(const float* __restrict__ src, int rows, int cols, T* __restrict__ dst,
                              int dcols) {
  __shared__ float tile[32][33];
  const int x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;  // x: src rows = dst columns; y: src columns
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int sr = x0 + j, sc = y0 + threadIdx.x;
    tile[j][threadIdx.x] = sr < rows && sc < cols ? src[size_t(sr) * cols + sc] : 0.0f;
  }
  __syncthreads();
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int dr = y0 + j, dc = x0 + threadIdx.x;
    if (dr < cols && dc < dcols) dst[size_t(dr) * dcols + dc] = from_float<T>(tile[threadIdx.x][j]);
  }
}

// Once a process: the GPU's compute capability checked (a throw with the reason below 8.0, every
// time) and the kernel's dynamic shared-memory limit raised, so that launches and occupancy queries
// (tensor_kernels) both see the 144 KiB the kernel asks for.
template <class T, class Cfg = TileOf<T>>
void prepare() {
  static const std::string refusal = [] {
    int device = 0, major = 0, minor = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    if (major < 8)
      return "the tensor-core variants (mma.sync on TF32 / BF16 fed by cp.async) need compute "
             "capability 8.0 or newer; this GPU has " +
             std::to_string(major) + "." + std::to_string(minor);
    CUDA_CHECK(cudaFuncSetAttribute(gemm_tensor<T, Cfg>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(Cfg::kSmem)));
    return std::string();
  }();
  if (!refusal.empty()) throw std::runtime_error(refusal);
}

template <class T, class Cfg = TileOf<T>>
void launch(const T* a, int lda, const T* bt, int ldb, float* c, int m, int n, int k, cudaStream_t s) {
  prepare<T, Cfg>();
  const long long blocks = cuda::ceil_div(m, Cfg::BM) * cuda::ceil_div(n, Cfg::BN);
  gemm_tensor<T, Cfg><<<unsigned(blocks), Cfg::kThreads, Cfg::kSmem, s>>>(a, lda, bt, ldb, c, m, n, k);
  CUDA_CHECK_LAUNCH("gemm_tensor");
}

template <class T>
void pad_transposed(const float* src, int rows, int cols, T* dst, int dcols, cudaStream_t s) {
  const dim3 grid(unsigned(cuda::ceil_div(dcols, 32)), unsigned(cuda::ceil_div(cols, 32)));
  pad_transpose<T><<<grid, dim3(32, 8), 0, s>>>(src, rows, cols, dst, dcols);
  CUDA_CHECK_LAUNCH("pad_transpose");
}

}  // namespace

void launch_tensor_tf32(const float* a, int lda, const float* bt, int ldb, float* c, int m, int n, int k,
                        cudaStream_t s) {
  launch<float>(a, lda, bt, ldb, c, m, n, k, s);
}
void launch_tensor_bf16(const __nv_bfloat16* a, int lda, const __nv_bfloat16* bt, int ldb, float* c, int m,
                        int n, int k, cudaStream_t s) {
  launch<__nv_bfloat16>(a, lda, bt, ldb, c, m, n, k, s);
}

std::vector<KernelInfo> tensor_kernels(Precision p) {
  // The occupancy panel asks before any launch: raise the shared-memory limit first (below 8.0 the
  // variants cannot run, and their launch says why).
  try {
    if (p == Precision::Bf16)
      prepare<__nv_bfloat16>();
    else
      prepare<float>();
  } catch (const std::exception&) {
  }
  if (p == Precision::Bf16)
    return {{"gemm_tensor<bf16>", reinterpret_cast<const void*>(&gemm_tensor<__nv_bfloat16, TileBf16>),
             TileBf16::kThreads, TileBf16::kSmem}};
  return {{"gemm_tensor<tf32>", reinterpret_cast<const void*>(&gemm_tensor<float, TileTf32>),
           TileTf32::kThreads, TileTf32::kSmem}};
}

void launch_mma_peak(Precision p, double flops, cudaStream_t s) {
  static const int sms = [] {
    int device = 0, n = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
    return n;
  }();
  if (p == Precision::Bf16)
    prepare<__nv_bfloat16>();  // the same compute capability check as the rungs
  else
    prepare<float>();
  static float* sink = [] {
    float* q = nullptr;
    CUDA_CHECK(cudaMalloc(&q, sizeof(float)));  // one word for the whole process, never written in practice
    return q;
  }();
  // 4 blocks of 8 warps an SM (8 warps a scheduler), 8 chains a warp: enough mma.sync in flight.
  const unsigned blocks = unsigned(sms) * 4u;
  const double per_mma = p == Precision::Bf16 ? 2.0 * 16 * 8 * 16 : 2.0 * 16 * 8 * 8;
  const double rounds = flops / (per_mma * 8.0 * double(blocks) * 8.0);
  const int iters = std::max(1, int(rounds + 0.5));
  if (p == Precision::Bf16)
    mma_peak<__nv_bfloat16><<<blocks, 256, 0, s>>>(iters, sink);
  else
    mma_peak<float><<<blocks, 256, 0, s>>>(iters, sink);
  CUDA_CHECK_LAUNCH("mma_peak");
}

void launch_pad_f32(const float* src, int rows, int cols, float* dst, int dcols, cudaStream_t s) {
  const size_t n = size_t(rows) * dcols;
  pad_convert<float><<<unsigned(cuda::ceil_div(n, 256)), 256, 0, s>>>(src, rows, cols, dst, dcols);
  CUDA_CHECK_LAUNCH("pad_convert");
}
void launch_pad_bf16(const float* src, int rows, int cols, __nv_bfloat16* dst, int dcols, cudaStream_t s) {
  const size_t n = size_t(rows) * dcols;
  pad_convert<__nv_bfloat16><<<unsigned(cuda::ceil_div(n, 256)), 256, 0, s>>>(src, rows, cols, dst, dcols);
  CUDA_CHECK_LAUNCH("pad_convert");
}
void launch_pad_transposed_f32(const float* src, int rows, int cols, float* dst, int dcols, cudaStream_t s) {
  pad_transposed<float>(src, rows, cols, dst, dcols, s);
}
void launch_pad_transposed_bf16(const float* src, int rows, int cols, __nv_bfloat16* dst, int dcols,
                                cudaStream_t s) {
  pad_transposed<__nv_bfloat16>(src, rows, cols, dst, dcols, s);
}

}  // namespace gpulab::matrix::detail

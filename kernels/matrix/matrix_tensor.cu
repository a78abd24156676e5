// The tensor-core multiply (gemm_tensor): WMMA fragments, fp32 accumulate, a 128x128 block tile of
// 8 warps (2x4, each 64x32: 4x2 fragments of 16x16), three shared-memory stages filled with cp.async
// (16 bytes a copy, zero-filled past K and N) so that two tiles are in flight while one computes.
//   TF32: float32 operands as stored (the tensor core keeps 10 mantissa bits of each), BK = 32;
//   BF16: operands rounded to bfloat16 once when they are set (launch_pad_bf16), BK = 64.
// About 105 KiB of shared memory a block: two blocks an SM.
// Rows are padded in shared memory (+8 halves / +4 floats) so the fragment loads spread over banks.
// No TMA and no wgmma (Hopper's asynchronous warpgroup MMA): mma.sync-class instructions only.
#include <mma.h>

#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "matrix/matrix_cuda_internal.cuh"

// TF32 fragments and cp.async need compute capability 8.0 (Ampere): for the older architectures of the
// default list (sm_75) the kernel compiles to a trap, and the engine refuses these variants there
// before launching (tensor_cores_available).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define GPULAB_MATRIX_TENSOR 1
#endif

namespace gpulab::matrix::detail {
namespace {

using namespace nvcuda;

constexpr int kBM = 128, kBN = 128, kStages = 3, kThreads = 256;

template <class T>
struct Shape;
template <>
struct Shape<float> {
  static constexpr int BK = 32, KSTEP = 8, PAD = 4;
#if defined(GPULAB_MATRIX_TENSOR)
  using Frag = wmma::precision::tf32;
#else
  using Frag = float;  // never used: the kernel is a trap below sm_80
#endif
};
template <>
struct Shape<__nv_bfloat16> {
  static constexpr int BK = 64, KSTEP = 16, PAD = 8;
  using Frag = __nv_bfloat16;
};

template <class T>
constexpr int a_stride() {
  return Shape<T>::BK + Shape<T>::PAD;
}
template <class T>
constexpr int b_stride() {
  return kBN + Shape<T>::PAD;
}
template <class T>
constexpr size_t stage_bytes() {
  return (size_t(kBM) * a_stride<T>() + size_t(Shape<T>::BK) * b_stride<T>()) * sizeof(T);
}
template <class T>
constexpr size_t smem_bytes() {
  return stage_bytes<T>() * kStages;
}

#if defined(GPULAB_MATRIX_TENSOR)
__device__ __forceinline__ void cp_async16(void* dst, const void* src, bool valid) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  const int n = valid ? 16 : 0;  // 0: the 16 bytes are zero-filled, nothing read
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(n));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
#endif

// snippet gemm_tensor
template <class T>
__global__ void __launch_bounds__(kThreads, 2)
    gemm_tensor(const T* __restrict__ a, int lda, const T* __restrict__ b, int ldb, float* __restrict__ c,
                int m, int n, int k) {
#if defined(GPULAB_MATRIX_TENSOR)
  using S = Shape<T>;
  constexpr int BK = S::BK, E = 16 / int(sizeof(T));  // elements a 16-byte copy
  constexpr int AS = a_stride<T>(), BS = b_stride<T>();
  extern __shared__ __align__(128) unsigned char smem[];
  auto stage_a = [&](int s) { return reinterpret_cast<T*>(smem + s * stage_bytes<T>()); };
  auto stage_b = [&](int s) { return stage_a(s) + kBM * AS; };
  const int tid = threadIdx.x, warp = tid / 32;
  const int wm = (warp / 4) * 64, wn = (warp % 4) * 32;
  const int bm = blockIdx.y * kBM, bn = blockIdx.x * kBN;
  const int tiles = (k + BK - 1) / BK;

  auto load = [&](int t, int s) {
    const int k0 = t * BK;
    T* sa = stage_a(s);
    T* sb = stage_b(s);
    constexpr int a_chunks = kBM * BK / E, b_chunks = BK * kBN / E;
#pragma unroll
    for (int i = tid; i < a_chunks; i += kThreads) {
      const int r = i / (BK / E), cc = (i % (BK / E)) * E;
      const bool ok = bm + r < m && k0 + cc < lda;  // lda: K rounded up to E, zero past K
      cp_async16(sa + r * AS + cc, ok ? a + size_t(bm + r) * lda + k0 + cc : a, ok);
    }
#pragma unroll
    for (int i = tid; i < b_chunks; i += kThreads) {
      const int r = i / (kBN / E), cc = (i % (kBN / E)) * E;
      const bool ok = k0 + r < k && bn + cc < ldb;
      cp_async16(sb + r * BS + cc, ok ? b + size_t(k0 + r) * ldb + bn + cc : b, ok);
    }
  };

  wmma::fragment<wmma::accumulator, 16, 16, S::KSTEP, float> acc[4][2];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < tiles) load(s, s);
    cp_commit();
  }
  for (int t = 0; t < tiles; ++t) {
    cp_wait<kStages - 2>();
    __syncthreads();  // tile t is in; every warp is done with the stage the next load overwrites
    if (t + kStages - 1 < tiles) load(t + kStages - 1, (t + kStages - 1) % kStages);
    cp_commit();
    const T* sa = stage_a(t % kStages);
    const T* sb = stage_b(t % kStages);
#pragma unroll
    for (int kk = 0; kk < BK; kk += S::KSTEP) {
      wmma::fragment<wmma::matrix_a, 16, 16, S::KSTEP, typename S::Frag, wmma::row_major> fa[4];
      wmma::fragment<wmma::matrix_b, 16, 16, S::KSTEP, typename S::Frag, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(fa[i], sa + (wm + i * 16) * AS + kk, AS);
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], sb + kk * BS + wn + j * 16, BS);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
  }
  cp_wait<0>();
  __syncthreads();  // the stages are free: each warp stages its fragments through 16x16 floats
  float* scratch = reinterpret_cast<float*>(smem) + warp * 256;
  const int lane = tid % 32;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      const int r0 = bm + wm + i * 16, c0 = bn + wn + j * 16;
#pragma unroll
      for (int e = lane; e < 256; e += 32) {
        const int r = r0 + e / 16, cc = c0 + e % 16;
        if (r < m && cc < n) c[size_t(r) * n + cc] = scratch[e];
      }
      __syncwarp();
    }
#else
  __trap();
#endif
}
// end snippet

template <class T>
__global__ void pad_convert(const float* __restrict__ src, int rows, int cols, T* __restrict__ dst,
                            int dcols) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(rows) * dcols) return;
  const int r = int(i / dcols), cc = int(i % dcols);
  const float v = cc < cols ? src[size_t(r) * cols + cc] : 0.0f;
  if constexpr (sizeof(T) == 2)
    dst[i] = __float2bfloat16_rn(v);
  else
    dst[i] = v;
}

template <class T>
void launch(const T* a, int lda, const T* b, int ldb, float* c, int m, int n, int k, cudaStream_t s) {
  int device = 0, major = 0, minor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major < 8)
    throw std::runtime_error("the tensor-core variants (TF32 / BF16 fragments filled by cp.async) need compute "
                             "capability 8.0 or newer; this GPU has " +
                             std::to_string(major) + "." + std::to_string(minor));
  static bool attribute_set = false;  // per process: the attribute belongs to the function
  if (!attribute_set) {
    CUDA_CHECK(cudaFuncSetAttribute(gemm_tensor<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(smem_bytes<T>())));
    attribute_set = true;
  }
  const dim3 grid(unsigned(cuda::ceil_div(n, kBN)), unsigned(cuda::ceil_div(m, kBM)));
  gemm_tensor<T><<<grid, kThreads, smem_bytes<T>(), s>>>(a, lda, b, ldb, c, m, n, k);
  CUDA_CHECK_LAUNCH("gemm_tensor");
}

}  // namespace

void launch_tensor_tf32(const float* a, int lda, const float* b, int ldb, float* c, int m, int n, int k,
                        cudaStream_t s) {
  launch<float>(a, lda, b, ldb, c, m, n, k, s);
}
void launch_tensor_bf16(const __nv_bfloat16* a, int lda, const __nv_bfloat16* b, int ldb, float* c, int m,
                        int n, int k, cudaStream_t s) {
  launch<__nv_bfloat16>(a, lda, b, ldb, c, m, n, k, s);
}

std::vector<KernelInfo> tensor_kernels(Precision p) {
  if (p == Precision::Bf16)
    return {{"gemm_tensor<bf16>", reinterpret_cast<const void*>(&gemm_tensor<__nv_bfloat16>), kThreads,
             smem_bytes<__nv_bfloat16>()}};
  return {{"gemm_tensor<tf32>", reinterpret_cast<const void*>(&gemm_tensor<float>), kThreads,
           smem_bytes<float>()}};
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

}  // namespace gpulab::matrix::detail

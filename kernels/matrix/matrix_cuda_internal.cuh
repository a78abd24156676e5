#pragma once
// What the matrix .cu files share: the launchers of each family of kernels.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "matrix/matrix.h"

namespace gpulab::matrix::detail {

// out (cols x rows) = transpose of in (rows x cols), 32-bit words.
void launch_transpose(Kind k, const uint32_t* in, uint32_t* out, int rows, int cols, cudaStream_t s);
std::vector<KernelInfo> transpose_kernels(Kind k);

// C (M x N) = A (M x K) · B (K x N), all row-major float32; aat kinds: C (M x M) = A·Aᵀ, B unused.
void launch_gemm(Kind k, int block, const float* a, const float* b, float* c, int m, int n, int kdim,
                 cudaStream_t s);
std::vector<KernelInfo> gemm_kernels(Kind k, int block);

// Tensor cores: C (M x N, float32, rows of N) = A · B with A (M x K, rows of lda elements) and B given
// transposed, Bt (N x K, rows of ldb elements); lda and ldb multiples of 8 (bf16) or 4 (float), zero
// past K.
void launch_tensor_tf32(const float* a, int lda, const float* bt, int ldb, float* c, int m, int n, int kdim,
                        cudaStream_t s);
void launch_tensor_bf16(const __nv_bfloat16* a, int lda, const __nv_bfloat16* bt, int ldb, float* c, int m,
                        int n, int kdim, cudaStream_t s);
std::vector<KernelInfo> tensor_kernels(Precision p);
// Hopper (sm_90a, matrix/sm90a/matrix_wgmma.cu, built when the architecture list has 90): the same
// product with TMA and wgmma; lda·sizeof and ldb·sizeof multiples of 16 bytes. wgmma_refusal: "" where
// they run, else why not (also in builds without them: matrix_cuda.cu says so).
std::string wgmma_refusal();
void launch_wgmma_tf32(const float* a, int lda, const float* bt, int ldb, float* c, int m, int n, int kdim,
                       cudaStream_t s);
void launch_wgmma_bf16(const __nv_bfloat16* a, int lda, const __nv_bfloat16* bt, int ldb, float* c, int m,
                       int n, int kdim, cudaStream_t s);
std::vector<KernelInfo> wgmma_kernels(Precision p);
// The mma.sync yardstick: mma.sync on registers only (no loads), the 2·M·N·K FLOPs of an M x N x K
// product at precision p (m16n8k16 bf16 or m16n8k8 tf32 issued back to back, 8 chains a warp). It
// computes no product; its rate is the ceiling the mma.sync rungs sit under.
void launch_mma_peak(Precision p, double flops, cudaStream_t s);
// dst (rows x dcols) = src (rows x cols) converted, zero in columns cols..dcols-1.
void launch_pad_f32(const float* src, int rows, int cols, float* dst, int dcols, cudaStream_t s);
void launch_pad_bf16(const float* src, int rows, int cols, __nv_bfloat16* dst, int dcols, cudaStream_t s);
// dst (cols x dcols) = src (rows x cols) transposed and converted, zero in columns rows..dcols-1.
void launch_pad_transposed_f32(const float* src, int rows, int cols, float* dst, int dcols, cudaStream_t s);
void launch_pad_transposed_bf16(const float* src, int rows, int cols, __nv_bfloat16* dst, int dcols,
                                cudaStream_t s);

}  // namespace gpulab::matrix::detail

#pragma once
// What the matrix .cu files share: the launchers of each family of kernels.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

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
// dst (rows x dcols) = src (rows x cols) converted, zero in columns cols..dcols-1.
void launch_pad_f32(const float* src, int rows, int cols, float* dst, int dcols, cudaStream_t s);
void launch_pad_bf16(const float* src, int rows, int cols, __nv_bfloat16* dst, int dcols, cudaStream_t s);
// dst (cols x dcols) = src (rows x cols) transposed and converted, zero in columns rows..dcols-1.
void launch_pad_transposed_f32(const float* src, int rows, int cols, float* dst, int dcols, cudaStream_t s);
void launch_pad_transposed_bf16(const float* src, int rows, int cols, __nv_bfloat16* dst, int dcols,
                                cudaStream_t s);

}  // namespace gpulab::matrix::detail

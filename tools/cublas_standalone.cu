// The cuBLAS yardstick's check (scripts/gpu-check): a standalone cublasGemmEx as a user would call it
// (a default handle, CUBLAS_GEMM_DEFAULT, no workspace set), row-major C = A·B of N³ with inputs uniform
// in [-1, 1), BF16 in / FP32 out with CUBLAS_COMPUTE_32F and FP32 in with TF32 compute; the median of
// 11 single calls after 3 warm-ups, then the median of 7 repeats of back-to-back calls lasting about
// 20 ms each (as the bench times its rows). `gpulab bench --demo matrix`'s cublas-bf16 and cublas-tf32
// rows must be within 5% of the sustained figure (or faster) in the same run; the single-call figure is
// printed beside it.
//   gpulab_cublas_standalone [N...]     (default 4096 8192); two lines per size and precision:
//   standalone N=4096 BF16 0.1786 ms 769.6 TFLOP/s (single calls, ...)
//   sustained N=4096 BF16 0.1990 ms 690.6 TFLOP/s (back-to-back, ...)
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "gpulab_cublas_standalone: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}
bool ok(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return true;
  std::fprintf(stderr, "gpulab_cublas_standalone: %s: %s\n", what, cublasGetStatusString(s));
  return false;
}

// splitmix64 of the index: uniform in [-1, 1), as the matrix bench's random operands.
__global__ void fill(float* p, __nv_bfloat16* h, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned long long z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    p[i] = float(double(z >> 40) * (1.0 / 8388608.0) - 1.0);
    h[i] = __float2bfloat16(p[i]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    char* end = nullptr;
    const long v = std::strtol(argv[i], &end, 10);
    if (!end || *end || v < 16 || v > 32768) {
      std::fprintf(stderr, "gpulab_cublas_standalone: a size is a whole number from 16 to 32768, not '%s'\n",
                   argv[i]);
      return 2;
    }
    sizes.push_back(int(v));
  }
  if (sizes.empty()) sizes = {4096, 8192};
  cudaDeviceProp prop{};
  if (!ok(cudaGetDeviceProperties(&prop, 0), "no CUDA device")) return 1;
  std::printf("device: %s\n", prop.name);
  cublasHandle_t h = nullptr;
  if (!ok(cublasCreate(&h), "cublasCreate")) return 1;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int n : sizes) {
    const size_t e = size_t(n) * n;
    float *a = nullptr, *b = nullptr, *c = nullptr;
    __nv_bfloat16 *a16 = nullptr, *b16 = nullptr;
    if (!ok(cudaMalloc(&a, e * 4), "cudaMalloc") || !ok(cudaMalloc(&b, e * 4), "cudaMalloc") ||
        !ok(cudaMalloc(&c, e * 4), "cudaMalloc") || !ok(cudaMalloc(&a16, e * 2), "cudaMalloc") ||
        !ok(cudaMalloc(&b16, e * 2), "cudaMalloc"))
      return 1;
    fill<<<1024, 256>>>(a, a16, e, 1);
    fill<<<1024, 256>>>(b, b16, e, 2);
    if (!ok(cudaDeviceSynchronize(), "filling the operands")) return 1;
    const float one = 1.0f, zero = 0.0f;
    for (const bool bf : {true, false}) {
      auto call = [&] {
        // Row-major C = A·B as column-major Cᵀ = Bᵀ·Aᵀ.
        return bf ? cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b16, CUDA_R_16BF, n, a16,
                                 CUDA_R_16BF, n, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                 CUBLAS_GEMM_DEFAULT)
                  : cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, CUDA_R_32F, n, a, CUDA_R_32F,
                                 n, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32,
                                 CUBLAS_GEMM_DEFAULT);
      };
      for (int i = 0; i < 3; ++i)
        if (!ok(call(), "cublasGemmEx")) return 1;
      // Times `calls` back-to-back calls; the milliseconds of one.
      auto timed = [&](int calls) {
        float ms = 0;
        cudaEventRecord(e0);
        for (int i = 0; i < calls; ++i) call();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        return double(ms) / calls;
      };
      auto median = [](std::vector<double> t) {
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
      };
      auto say = [&](const char* how, double ms, const char* what) {
        std::printf("%s N=%d %s %.4f ms %.1f TFLOP/s (%s)\n", how, n, bf ? "BF16" : "TF32", ms,
                    2.0 * n * double(n) * n / (ms * 1e-3) / 1e12, what);
      };
      // Single calls, the GPU idle between them: the card's clocks stay at their boost.
      std::vector<double> single(11);
      for (double& ms : single) ms = timed(1);
      const double burst = median(single);
      say("standalone", burst, "single calls, median of 11 after 3 warm-ups");
      // As the bench times a row: 7 repeats of back-to-back calls lasting about 20 ms each, after the
      // same warm-up; under a sustained load the card may lower its clocks to stay in its power limit.
      const int calls = std::max(1, int(20.0 / burst + 0.5));
      timed(calls);
      std::vector<double> repeats(7);
      for (double& ms : repeats) ms = timed(calls);
      say("sustained", median(repeats), "back-to-back, median of 7 repeats of about 20 ms, as the bench");
    }
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(a16), cudaFree(b16);
  }
  cublasDestroy(h);
  return 0;
}

#pragma once
// The CUDA engine of kernels/matrix: the GPU variants, cuBLAS as the yardstick, the device-to-device
// copy that bounds a transpose, and the display fills (the transposed picture, or C as a heat map,
// written into a mapped GL texture through a surface or into device memory). Free of CUDA headers: every
// build includes it (one without CUDA links <demo>/nocuda/, whose create() throws).
#include <memory>
#include <vector>

#include "matrix/matrix.h"

namespace gpulab::matrix {

class CudaEngine : public Engine {
 public:
  static std::unique_ptr<CudaEngine> create(Stream stream);

  // The output of `op` as RGBA8: the transposed words as they are (pixels), or the product as a
  // heat map scaled from its smallest to its largest value (heat_colour). Into a surface of a
  // texture of the output's size, or into device memory (rows of cols words); on the engine's
  // stream, without synchronising.
  virtual void compose_surface(Op op, SurfaceObject surface) = 0;
  virtual void compose_device(Op op, uint32_t* d_rgba) = 0;
  // The bench's bounds and yardsticks: cudaMemcpyAsync device to device of the transpose's bytes;
  // cuBLAS at the precision of a tensor variant (cublasLt's fastest algorithm for the problem, TF32
  // compute on float32 inputs, or BF16 inputs from the same rounding as gemm-tensor-bf16), fp32
  // accumulate; Fp32: gemm-cublas (cublasSgemm).
  virtual void run_memcpy() = 0;
  virtual void run_cublas(Precision p) = 0;
  // What run_cublas(p) runs for the current operands (the library's best for the problem, chosen once:
  // cublasLt's heuristic candidates with a workspace, each timed, the fastest kept), in a line:
  // "cublasLt algo 66 (tile id 20, stages id 8, split-K 1, 0 B workspace): the fastest of 8 heuristic
  // candidates, timed (0.1810 ms; the heuristic's first 0.1900 ms)". Empty before the first
  // run_cublas(p) of these operands, and for Fp32.
  virtual std::string cublas_choice(Precision p) const = 0;
  // The mma.sync yardstick (not a variant: it computes no product): mma.sync on registers only, the
  // FLOPs of the current M x N x K product at precision p (Tf32 or Bf16), on the engine's stream.
  virtual void run_mma_peak(Precision p) = 0;
  virtual std::vector<KernelInfo> kernels(const Variant& v, int block) const = 0;
  virtual Stream stream() const = 0;
};

}  // namespace gpulab::matrix

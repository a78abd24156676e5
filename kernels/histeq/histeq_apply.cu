// Applying the LUT (out = lut[in]) and composing the displayed image.
//   apply-global    16 pixels a thread (one 128-bit load and store), lookups in the global LUT
//   apply-constant  the same with the LUT in __constant__ memory (copied there on the stream first):
//                   the constant cache serves one address a warp at a time, so different pixels in
//                   a warp serialise
//   apply-shared    each block copies the LUT to shared memory first
// The planes are 16-byte aligned (the engine allocates them so); the last n % 16 pixels are done one
// a thread by block 0.
#include <stdexcept>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "histeq/histeq_cuda_internal.cuh"

namespace gpulab::histeq::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

__constant__ uint8_t c_lut[kBins];

struct GlobalLut {
  const uint8_t* __restrict__ lut;
  __device__ __forceinline__ uint32_t operator()(uint32_t v) const { return __ldg(lut + v); }
};
struct ConstantLut {
  __device__ __forceinline__ uint32_t operator()(uint32_t v) const { return c_lut[v]; }
};
struct SharedLut {
  const uint8_t* table;
  __device__ __forceinline__ uint32_t operator()(uint32_t v) const { return table[v]; }
};

template <class Lut>
__device__ __forceinline__ uint32_t map_word(const Lut& lut, uint32_t w) {
  return lut(w & 0xFFu) | (lut((w >> 8) & 0xFFu) << 8) | (lut((w >> 16) & 0xFFu) << 16) |
         (lut(w >> 24) << 24);
}

template <class Lut>
__device__ __forceinline__ void apply_all(const Lut& lut, const uint8_t* __restrict__ in,
                                          uint8_t* __restrict__ out, size_t n) {
  const size_t vectors = n / 16;
  const uint4* vin = reinterpret_cast<const uint4*>(in);
  uint4* vout = reinterpret_cast<uint4*>(out);
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors; i += stride) {
    const uint4 a = __ldcs(vin + i);
    __stcs(vout + i,
           make_uint4(map_word(lut, a.x), map_word(lut, a.y), map_word(lut, a.z), map_word(lut, a.w)));
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 16) {
    const size_t i = vectors * 16 + threadIdx.x;
    out[i] = uint8_t(lut(in[i]));
  }
}

// snippet apply_global
__global__ void apply_global(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, size_t n,
                             const uint8_t* __restrict__ lut) {
  apply_all(GlobalLut{lut}, in, out, n);
}
// end snippet

// snippet apply_constant
__global__ void apply_constant(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, size_t n) {
  apply_all(ConstantLut{}, in, out, n);
}
// end snippet

// snippet apply_shared
__global__ void apply_shared(const uint8_t* __restrict__ in, uint8_t* __restrict__ out, size_t n,
                             const uint8_t* __restrict__ lut) {
  __shared__ uint32_t words[kBins / 4];
  if (threadIdx.x < kBins / 4) words[threadIdx.x] = reinterpret_cast<const uint32_t*>(lut)[threadIdx.x];
  __syncthreads();
  apply_all(SharedLut{reinterpret_cast<const uint8_t*>(words)}, in, out, n);
}
// end snippet

__device__ __forceinline__ uchar4 compose_at(const ComposeSource& src, size_t i) {
  uint8_t px[4];
  compose_rgba(src.layout, src.p[0][i], src.p[1] ? src.p[1][i] : 0, src.p[2] ? src.p[2][i] : 0,
               src.alpha ? src.alpha[i] : 255, px);
  return make_uchar4(px[0], px[1], px[2], px[3]);
}

__global__ void compose_surface(ComposeSource src, cudaSurfaceObject_t surface) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < src.height; y += gridDim.y * blockDim.y) {
    if (x >= src.width) return;
    const uchar4 px = compose_at(src, size_t(y) * src.width + x);
    surf2Dwrite(px, surface, x * 4, y);
  }
}

__global__ void compose_device(ComposeSource src, uint8_t* rgba, size_t pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < src.height; y += gridDim.y * blockDim.y) {
    if (x >= src.width) return;
    const uchar4 px = compose_at(src, size_t(y) * src.width + x);
    *reinterpret_cast<uchar4*>(rgba + size_t(y) * pitch + size_t(x) * 4) = px;
  }
}

dim3 compose_grid(const ComposeSource& s, dim3 block) {
  return dim3(
      static_cast<unsigned>(ceil_div(s.width, block.x)),
      static_cast<unsigned>(std::min<long long>(ceil_div(s.height, block.y), gpulab::cuda::kMaxGridY)));
}

}  // namespace

void launch_apply(ApplyKind k, int block, const uint8_t* d_in, uint8_t* d_out, size_t n, const uint8_t* d_lut,
                  const GpuShape& gpu, cudaStream_t stream) {
  if (n == 0) return;
  // apply-npp needs the plane's width: the engine calls npp_apply itself.
  if (k == ApplyKind::Npp) throw std::logic_error("apply-npp: run through npp_apply");
  if (block <= 0) throw std::invalid_argument("apply: the block needs threads");
  const long long want = std::max<long long>(ceil_div(static_cast<long long>(n / 16), block), 1);
  auto grid = [&](const void* f) {
    return static_cast<unsigned>(
        std::min<long long>(want, static_cast<long long>(resident_blocks(f, block, 0)) * gpu.sm_count));
  };
  switch (k) {
    case ApplyKind::Global:
      apply_global<<<grid(reinterpret_cast<const void*>(apply_global)), block, 0, stream>>>(d_in, d_out, n,
                                                                                            d_lut);
      break;
    case ApplyKind::Constant:
      CUDA_CHECK(cudaMemcpyToSymbolAsync(c_lut, d_lut, kBins, 0, cudaMemcpyDeviceToDevice, stream));
      apply_constant<<<grid(reinterpret_cast<const void*>(apply_constant)), block, 0, stream>>>(d_in, d_out,
                                                                                                n);
      break;
    case ApplyKind::Shared:
      apply_shared<<<grid(reinterpret_cast<const void*>(apply_shared)), block, 0, stream>>>(d_in, d_out, n,
                                                                                            d_lut);
      break;
    case ApplyKind::Npp:
      break;  // refused above
  }
  CUDA_CHECK_LAUNCH("apply");
}

std::vector<KernelInfo> apply_kernels(ApplyKind k, int block) {
  switch (k) {
    case ApplyKind::Global:
      return {{"apply_global", reinterpret_cast<const void*>(apply_global), block}};
    case ApplyKind::Constant:
      return {{"apply_constant", reinterpret_cast<const void*>(apply_constant), block}};
    case ApplyKind::Shared:
      return {{"apply_shared", reinterpret_cast<const void*>(apply_shared), block}};
    case ApplyKind::Npp:
      return {};  // NPP's own kernel: not ours to inspect
  }
  return {};
}

void launch_compose_surface(const ComposeSource& src, unsigned long long surface, cudaStream_t stream) {
  if (src.width <= 0 || src.height <= 0) return;
  const dim3 block(32, 8);
  compose_surface<<<compose_grid(src, block), block, 0, stream>>>(src, surface);
  CUDA_CHECK_LAUNCH("compose");
}

void launch_compose_device(const ComposeSource& src, uint8_t* d_rgba, size_t pitch, cudaStream_t stream) {
  if (src.width <= 0 || src.height <= 0) return;
  const dim3 block(32, 8);
  compose_device<<<compose_grid(src, block), block, 0, stream>>>(src, d_rgba, pitch);
  CUDA_CHECK_LAUNCH("compose");
}

}  // namespace gpulab::histeq::cuda_detail

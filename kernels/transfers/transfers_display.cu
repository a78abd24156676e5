// The display stage's kernels: a frame (frame_pixel) written where the GL texture will get it.
//   display-host-copy: frame_buffer_kernel into cudaMalloc'ed memory, cudaMemcpy to pinned host memory,
//     glTexSubImage2D back: the round trip (the host waits in the middle);
//   display-pbo: frame_buffer_kernel into a mapped GL pixel buffer, then GL copies the buffer into the
//     texture on the GPU;
//   display-interop: frame_surface_kernel into the mapped texture itself through a surface object, the
//     way every gpulab demo shows its results.
// The GL side (mapping, uploads) is the demo's (app/demos/transfers/transfers_display.cpp, on
// app/cuda/display_target.h); these only write pixels.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "common/cuda_check.h"
#include "transfers/transfers.h"

namespace gpulab::transfers {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;

// snippet display_pbo
// One thread a pixel, rows tightly packed (row 0 at the top): the same words go into a mapped pixel
// buffer (display-pbo) or into plain device memory (display-host-copy). For the PBO, the host then asks
// GL to copy the buffer into the texture, a copy that never leaves the GPU:
//   cudaGraphicsMapResources(1, &pbo_resource, stream);            // GL lets go of the buffer
//   cudaGraphicsResourceGetMappedPointer(&d_rgba, &bytes, pbo_resource);
//   frame_buffer_kernel<<<grid, block, 0, stream>>>(d_rgba, w, h, n);
//   cudaGraphicsUnmapResources(1, &pbo_resource, stream);          // GL's turn
//   glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
//   glTextureSubImage2D(texture, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);  // PBO -> texture
__global__ void frame_buffer_kernel(uint32_t* __restrict__ rgba, int w, int h, uint32_t n) {
  const int x = int(blockIdx.x) * blockDim.x + threadIdx.x;
  const int y = int(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x < w && y < h) rgba[size_t(y) * size_t(w) + size_t(x)] = frame_pixel(x, y, w, h, n);
}
// end snippet

// snippet display_interop
// gpulab's own design: the texture GL draws is registered with CUDA once
// (cudaGraphicsGLRegisterImage(..., cudaGraphicsRegisterFlagsSurfaceLoadStore)); each frame it is
// mapped, this kernel stores every pixel into it through a surface object, and it is unmapped. No
// buffer between, no copy, nothing over the bus:
//   cudaGraphicsMapResources(1, &texture_resource, stream);
//   cudaGraphicsSubResourceGetMappedArray(&array, texture_resource, 0, 0);
//   cudaCreateSurfaceObject(&surface, {cudaResourceTypeArray, array});
//   frame_surface_kernel<<<grid, block, 0, stream>>>(surface, w, h, n);
//   cudaGraphicsUnmapResources(1, &texture_resource, stream);      // GL draws the texture next
__global__ void frame_surface_kernel(cudaSurfaceObject_t surface, int w, int h, uint32_t n) {
  const int x = int(blockIdx.x) * blockDim.x + threadIdx.x;
  const int y = int(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x < w && y < h) surf2Dwrite(frame_pixel(x, y, w, h, n), surface, x * 4, y);  // x in bytes
}
// end snippet

// snippet display_host_copy
// The round trip: the kernel writes device memory (frame_buffer_kernel, as for the PBO), the frame
// crosses the bus to the host, the host waits for it, and GL sends it back over the bus:
//   frame_buffer_kernel<<<grid, block, 0, stream>>>(d_rgba, w, h, n);
//   cudaMemcpyAsync(h_pinned, d_rgba, w * h * 4, cudaMemcpyDeviceToHost, stream);
//   cudaStreamSynchronize(stream);                                  // the host waits for the frame
//   glTextureSubImage2D(texture, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, h_pinned);  // and back
// At 3840x2160 that is 33 MB each way, every frame.
// end snippet

dim3 frame_grid(int w, int h) {
  return dim3(unsigned((w + kBlockX - 1) / kBlockX), unsigned((h + kBlockY - 1) / kBlockY));
}

void check_frame(int w, int h) {
  if (w < 1 || h < 1 || w > kMaxFrameSide || h > kMaxFrameSide)
    throw std::invalid_argument("a frame of " + std::to_string(w) + "x" + std::to_string(h) + " pixels");
}

}  // namespace

void frame_to_surface(SurfaceObject surface, int w, int h, uint32_t n, Stream stream) {
  check_frame(w, h);
  frame_surface_kernel<<<frame_grid(w, h), dim3(kBlockX, kBlockY), 0, stream>>>(surface, w, h, n);
  CUDA_CHECK_LAUNCH("frame_surface_kernel");
}

void frame_to_buffer(uint32_t* d_rgba, int w, int h, uint32_t n, Stream stream) {
  check_frame(w, h);
  frame_buffer_kernel<<<frame_grid(w, h), dim3(kBlockX, kBlockY), 0, stream>>>(d_rgba, w, h, n);
  CUDA_CHECK_LAUNCH("frame_buffer_kernel");
}

double time_frame_kernel(int w, int h, int repeats, Stream stream) {
  check_frame(w, h);
  uint32_t* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, size_t(w) * size_t(h) * 4));
  cudaEvent_t a = nullptr, b = nullptr;
  std::vector<double> ms;
  try {
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
    frame_to_buffer(d, w, h, 0, stream);  // warm-up
    for (int r = 0; r < std::max(1, repeats); ++r) {
      CUDA_CHECK(cudaEventRecord(a, stream));
      frame_to_buffer(d, w, h, uint32_t(r + 1), stream);
      CUDA_CHECK(cudaEventRecord(b, stream));
      CUDA_CHECK(cudaEventSynchronize(b));
      float t = 0;
      CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
      ms.push_back(t);
    }
  } catch (...) {
    if (a) cudaEventDestroy(a);
    if (b) cudaEventDestroy(b);
    cudaFree(d);
    throw;
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaFree(d);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

std::vector<KernelInfo> frame_kernels(Kind k) {
  const int threads = kBlockX * kBlockY;
  switch (k) {
    case Kind::DisplayInterop:
      return {{"frame_surface_kernel", reinterpret_cast<const void*>(&frame_surface_kernel), threads}};
    case Kind::DisplayPbo:
    case Kind::DisplayHostCopy:
      return {{"frame_buffer_kernel", reinterpret_cast<const void*>(&frame_buffer_kernel), threads}};
    default:
      return {};
  }
}

}  // namespace gpulab::transfers

// gpu label: the CUDA object owners of kernels/common/device_memory.cuh. Pitched memory, 2D CUDA
// arrays, texture objects and surface objects round-trip exact values through tiny kernels; moves
// transfer ownership; zero sizes make empty objects; a failed allocation throws
// GpuError(out_of_memory) and leaves no error behind.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "common/device_memory.cuh"
#include "common/error.h"
#include "support/gpu_memory.h"
#include "support/gpu_skip.h"

namespace {

using gpulab::GpuError;
using gpulab::cuda::CudaArray;
using gpulab::cuda::Pitched2D;
using gpulab::cuda::PitchedBuffer;
using gpulab::cuda::Surface;
using gpulab::cuda::TextureObject;

static_assert(!std::is_copy_constructible_v<CudaArray>);
static_assert(!std::is_copy_constructible_v<PitchedBuffer<float>>);
static_assert(!std::is_copy_constructible_v<TextureObject>);
static_assert(!std::is_copy_constructible_v<Surface>);
static_assert(std::is_nothrow_move_constructible_v<CudaArray>);
static_assert(std::is_nothrow_move_assignable_v<PitchedBuffer<float>>);
static_assert(std::is_nothrow_move_constructible_v<TextureObject>);
static_assert(std::is_nothrow_move_assignable_v<Surface>);

// Takes device memory until at most `leave` bytes are free (out-of-memory paths).
using gpulab::testing::MemoryHog;

__global__ void add_to_pitched(Pitched2D<float> image, float amount) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= image.width || y >= image.height) return;
  image.row(y)[x] += amount;
}

// Point-filtered fetches at texel centres, shifted by dx texels (clamped at the edges).
__global__ void fetch_uchar4(cudaTextureObject_t tex, uchar4* d_out, int width, int height, int dx) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  d_out[y * width + x] = tex2D<uchar4>(tex, float(x + dx) + 0.5f, float(y) + 0.5f);
}

__global__ void fetch_float(cudaTextureObject_t tex, float* d_out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  d_out[y * width + x] = tex2D<float>(tex, float(x) + 0.5f, float(y) + 0.5f);
}

__global__ void write_surface(cudaSurfaceObject_t surface, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  surf2Dwrite(make_uchar4(uint8_t(x), uint8_t(y), 0x5C, 0xFF), surface, x * int(sizeof(uchar4)), y);
}

dim3 grid_for(int w, int h) { return dim3((w + 15) / 16, (h + 15) / 16); }

uchar4 texel(int x, int y) {
  return make_uchar4(uint8_t(x * 5 + 1), uint8_t(y * 3 + 2), uint8_t(x ^ y), uint8_t(255 - x));
}
bool same(uchar4 a, uchar4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

class DeviceMemoryGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    GPULAB_SKIP_WITHOUT_CUDA();
    ASSERT_EQ(cudaSetDevice(gpulab::cuda_status().device), cudaSuccess);
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
  }
  void TearDown() override {
    if (!stream_) return;  // skipped
    cudaStreamDestroy(stream_);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  }
  cudaStream_t stream_ = nullptr;
};

TEST_F(DeviceMemoryGpu, PitchedBufferRowsArePaddedAndRoundTrip) {
  const int w = 61, h = 37;  // odd: 244-byte rows, padded by the allocator
  PitchedBuffer<float> image(w, h, "the test image", "the test device");
  ASSERT_TRUE(image);
  EXPECT_EQ(image.width(), size_t(w));
  EXPECT_EQ(image.height(), size_t(h));
  EXPECT_EQ(image.width_bytes(), size_t(w) * sizeof(float));
  EXPECT_GE(image.pitch(), image.width_bytes());
  EXPECT_EQ(image.pitch() % sizeof(float), 0u);
  const Pitched2D<float> view = image.view();
  EXPECT_EQ(view.ptr, image.get());
  EXPECT_EQ(view.pitch, image.pitch());
  EXPECT_EQ(view.width, w);
  EXPECT_EQ(view.height, h);

  std::vector<float> h_in(size_t(w) * h);
  for (size_t i = 0; i < h_in.size(); ++i) h_in[i] = float(i) * 0.5f - 100.0f;
  image.copy_from_host(h_in.data(), w * sizeof(float), stream_);
  add_to_pitched<<<grid_for(w, h), dim3(16, 16), 0, stream_>>>(image.view(), 3.0f);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<float> h_out(h_in.size(), 0.0f);
  image.copy_to_host(h_out.data(), w * sizeof(float), stream_);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  size_t wrong = 0;
  for (size_t i = 0; i < h_in.size(); ++i) wrong += h_out[i] != h_in[i] + 3.0f;
  EXPECT_EQ(wrong, 0u);

  // A host image with its own padding (rows 70 floats apart) copies only the w used floats a row.
  const size_t host_pitch = 70;
  std::vector<float> padded(host_pitch * h, -1.0f);
  image.copy_to_host(padded.data(), host_pitch * sizeof(float), stream_);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  EXPECT_EQ(padded[host_pitch * 5 + 7], h_in[size_t(w) * 5 + 7] + 3.0f);
  EXPECT_EQ(padded[host_pitch * 5 + w], -1.0f) << "the host padding is left alone";
}

TEST_F(DeviceMemoryGpu, CudaArrayTextureFetchesAreExact) {
  const int w = 45, h = 29;
  CudaArray array = CudaArray::of<uchar4>(w, h, "the test array", "the test device");
  ASSERT_TRUE(array);
  EXPECT_EQ(array.width(), size_t(w));
  EXPECT_EQ(array.height(), size_t(h));
  EXPECT_EQ(array.element_bytes(), 4u);
  EXPECT_EQ(array.row_bytes(), size_t(w) * 4);
  std::vector<uchar4> h_in(size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) h_in[size_t(y) * w + x] = texel(x, y);
  array.copy_from_host(h_in.data(), w * sizeof(uchar4), stream_);

  // The array back, as it is.
  std::vector<uchar4> h_back(h_in.size());
  array.copy_to_host(h_back.data(), w * sizeof(uchar4), stream_);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  size_t wrong = 0;
  for (size_t i = 0; i < h_in.size(); ++i) wrong += !same(h_back[i], h_in[i]);
  EXPECT_EQ(wrong, 0u) << "copy in / copy out";

  const cudaTextureDesc desc = gpulab::cuda::texture_desc();  // point, clamp, element type
  EXPECT_EQ(desc.filterMode, cudaFilterModePoint);
  EXPECT_EQ(desc.addressMode[0], cudaAddressModeClamp);
  EXPECT_EQ(desc.readMode, cudaReadModeElementType);
  EXPECT_EQ(desc.normalizedCoords, 0);
  TextureObject tex = TextureObject::over(array, desc);
  ASSERT_TRUE(tex);
  uchar4* d_out = nullptr;
  ASSERT_EQ(cudaMalloc(&d_out, h_in.size() * sizeof(uchar4)), cudaSuccess);
  for (int dx : {0, -3, 4}) {  // shifted fetches clamp to the first / last column
    fetch_uchar4<<<grid_for(w, h), dim3(16, 16), 0, stream_>>>(tex.get(), d_out, w, h, dx);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<uchar4> h_out(h_in.size());
    ASSERT_EQ(
        cudaMemcpyAsync(h_out.data(), d_out, h_out.size() * sizeof(uchar4), cudaMemcpyDeviceToHost, stream_),
        cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    wrong = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const uchar4 want = texel(std::clamp(x + dx, 0, w - 1), y);
        const uchar4 got = h_out[size_t(y) * w + x];
        if (!same(got, want) && wrong++ < 5)
          ADD_FAILURE() << "dx " << dx << " texel (" << x << ", " << y << "): got " << int(got.x) << ","
                        << int(got.y) << "," << int(got.z) << "," << int(got.w);
      }
    EXPECT_EQ(wrong, 0u) << "dx " << dx;
  }
  cudaFree(d_out);
}

TEST_F(DeviceMemoryGpu, TextureOverPitchedMemoryIsExact) {
  const int w = 33, h = 17;
  PitchedBuffer<float> image(w, h, "the test image", "the test device");
  std::vector<float> h_in(size_t(w) * h);
  for (size_t i = 0; i < h_in.size(); ++i) h_in[i] = float(i) * 1.25f + 0.125f;
  image.copy_from_host(h_in.data(), w * sizeof(float), stream_);
  TextureObject tex = TextureObject::over(image, gpulab::cuda::texture_desc());
  float* d_out = nullptr;
  ASSERT_EQ(cudaMalloc(&d_out, h_in.size() * sizeof(float)), cudaSuccess);
  fetch_float<<<grid_for(w, h), dim3(16, 16), 0, stream_>>>(tex.get(), d_out, w, h);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<float> h_out(h_in.size(), -1.0f);
  ASSERT_EQ(
      cudaMemcpyAsync(h_out.data(), d_out, h_out.size() * sizeof(float), cudaMemcpyDeviceToHost, stream_),
      cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  cudaFree(d_out);
  EXPECT_EQ(h_out, h_in);
}

TEST_F(DeviceMemoryGpu, SurfaceOverACudaArrayWritesIt) {
  const int w = 50, h = 21;
  CudaArray array =
      CudaArray::of<uchar4>(w, h, "the surface array", "the test device", cudaArraySurfaceLoadStore);
  Surface surface(array);
  ASSERT_TRUE(surface);
  write_surface<<<grid_for(w, h), dim3(16, 16), 0, stream_>>>(surface.get(), w, h);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<uchar4> h_out(size_t(w) * h);
  array.copy_to_host(h_out.data(), w * sizeof(uchar4), stream_);
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  size_t wrong = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      wrong += !same(h_out[size_t(y) * w + x], make_uchar4(uint8_t(x), uint8_t(y), 0x5C, 0xFF));
  EXPECT_EQ(wrong, 0u);
  EXPECT_THROW(Surface(static_cast<cudaArray_t>(nullptr)), GpuError);
  EXPECT_THROW(TextureObject::over(CudaArray(), gpulab::cuda::texture_desc()), GpuError);
}

TEST_F(DeviceMemoryGpu, MovesTransferOwnershipAndZeroSizesAreEmpty) {
  CudaArray a = CudaArray::of<float>(8, 4, "a", "the test device", cudaArraySurfaceLoadStore);
  const cudaArray_t handle = a.get();
  CudaArray b = std::move(a);
  EXPECT_FALSE(a);
  EXPECT_EQ(a.width(), 0u);
  EXPECT_EQ(b.get(), handle);
  EXPECT_EQ(b.width(), 8u);
  EXPECT_EQ(b.height(), 4u);
  EXPECT_EQ(b.element_bytes(), 4u);

  Surface s(b);
  const gpulab::SurfaceObject surface_handle = s.get();
  Surface s2 = std::move(s);
  EXPECT_FALSE(s);
  EXPECT_EQ(s2.get(), surface_handle);
  s2 = Surface();
  EXPECT_FALSE(s2);

  TextureObject t = TextureObject::over(b, gpulab::cuda::texture_desc());
  const cudaTextureObject_t tex_handle = t.get();
  TextureObject t2;
  t2 = std::move(t);
  EXPECT_FALSE(t);
  EXPECT_EQ(t2.get(), tex_handle);
  t2.reset();
  EXPECT_FALSE(t2);

  PitchedBuffer<int> p(10, 3, "p", "the test device");
  int* const ptr = p.get();
  const size_t pitch = p.pitch();
  PitchedBuffer<int> q;
  q = std::move(p);
  EXPECT_FALSE(p);
  EXPECT_EQ(p.pitch(), 0u);
  EXPECT_EQ(q.get(), ptr);
  EXPECT_EQ(q.pitch(), pitch);
  EXPECT_EQ(q.width(), 10u);

  b = CudaArray();  // frees the array
  EXPECT_FALSE(b);

  // 1920x0 and 0x1080 images: empty objects, no allocation, copies do nothing.
  CudaArray empty_array = CudaArray::of<uchar4>(1920, 0, "empty", "the test device");
  EXPECT_FALSE(empty_array);
  EXPECT_EQ(empty_array.width(), 1920u);
  EXPECT_NO_THROW(empty_array.copy_from_host(nullptr, 0, stream_));
  PitchedBuffer<float> empty_pitched(0, 1080, "empty", "the test device");
  EXPECT_FALSE(empty_pitched);
  EXPECT_NO_THROW(empty_pitched.copy_to_host(nullptr, 0, stream_));
}

TEST_F(DeviceMemoryGpu, OutOfMemoryThrowsAndLeavesNoError) {
  // An absurd size: a terabyte of pitched rows.
  try {
    PitchedBuffer<float> huge(size_t{1} << 16, size_t{1} << 22, "the absurd image", "the test device");
    ADD_FAILURE() << "a 1 TiB pitched allocation did not throw";
  } catch (const GpuError& e) {
    EXPECT_TRUE(e.out_of_memory()) << e.what();
    const std::string what = e.what();
    EXPECT_NE(what.find("the absurd image"), std::string::npos) << what;
    EXPECT_NE(what.find("MiB"), std::string::npos) << what;
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);

  // Arrays are capped in size below the memory of large GPUs, so take the memory away instead.
  {
    MemoryHog hog(size_t{64} << 20);
    try {
      CudaArray big = CudaArray::of<float4>(8192, 8192, "the big array", "the test device");  // 1 GiB
      ADD_FAILURE() << "a 1 GiB array with all but 64 MiB taken did not throw";
    } catch (const GpuError& e) {
      EXPECT_TRUE(e.out_of_memory()) << e.what();
      EXPECT_NE(std::string(e.what()).find("the big array"), std::string::npos) << e.what();
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    try {
      PitchedBuffer<float4> big(8192, 8192, "the big pitched image", "the test device");
      ADD_FAILURE() << "a 1 GiB pitched image with all but 64 MiB taken did not throw";
    } catch (const GpuError& e) {
      EXPECT_TRUE(e.out_of_memory()) << e.what();
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  }
  // Memory is back: allocations work again.
  CudaArray ok = CudaArray::of<float4>(256, 256, "after", "the test device");
  EXPECT_TRUE(ok);
}

}  // namespace

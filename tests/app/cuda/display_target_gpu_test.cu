// gpu label: InteropTexture and InteropBuffer on the NVIDIA EGL device. Every path (interop through
// the mapped object, the device-memory host copy, the host fill) gives exactly the reference data,
// frame after frame and across resizes, and each update takes the path it reports.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "cuda/display_target.h"
#include "cuda/interop.h"
#include "cuda/raii.h"
#include "gl/gl.h"  // glad before anything that could include <GL/gl.h>
#include "platform/platform.h"
#include "support/gpu_skip.h"

namespace {

using gpulab::BufferFill;
using gpulab::DisplayPath;
using gpulab::InteropBuffer;
using gpulab::InteropTexture;
using gpulab::TextureFill;

__host__ __device__ uint32_t colour(int x, int y, uint32_t seed) {
  return (uint32_t(x) * 0x9E3779B1u) ^ (uint32_t(y) * 0x85EBCA77u) ^ (seed * 0xC2B2AE3Du);
}

__global__ void fill_surface(cudaSurfaceObject_t surface, int width, int height, uint32_t seed) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  surf2Dwrite(colour(x, y, seed), surface, x * int(sizeof(uint32_t)), y);
}

__global__ void fill_words(uint32_t* d_rgba, int width, int height, uint32_t seed) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  d_rgba[size_t(y) * width + x] = colour(x, y, seed);
}

struct Vertex {
  float x, y, z, w;
};

__host__ __device__ Vertex vertex(size_t i, float scale) {
  return Vertex{float(i) * scale, -float(i), 0.5f, scale};
}

__global__ void fill_vertices(Vertex* d_vertices, size_t count, float scale) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count) d_vertices[i] = vertex(i, scale);
}

dim3 grid_for(int w, int h) { return dim3((w + 15) / 16, (h + 15) / 16); }

struct Calls {
  int surface = 0, device = 0, host = 0;
};

// The fills a CUDA producer gives (surface + device), or a CPU one (host only).
TextureFill texture_fill(cudaStream_t stream, uint32_t seed, Calls* calls, bool gpu, bool cpu) {
  TextureFill fill;
  if (gpu) {
    fill.surface = [=](gpulab::SurfaceObject surface, int w, int h) {
      ++calls->surface;
      fill_surface<<<grid_for(w, h), dim3(16, 16), 0, stream>>>(surface, w, h, seed);
      CUDA_CHECK(cudaGetLastError());
    };
    fill.device = [=](uint32_t* d_rgba, int w, int h) {
      ++calls->device;
      fill_words<<<grid_for(w, h), dim3(16, 16), 0, stream>>>(d_rgba, w, h, seed);
      CUDA_CHECK(cudaGetLastError());
    };
  }
  if (cpu) {
    fill.host = [=](uint32_t* h_rgba, int w, int h) {
      ++calls->host;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) h_rgba[size_t(y) * w + x] = colour(x, y, seed);
    };
  }
  return fill;
}

BufferFill buffer_fill(cudaStream_t stream, float scale, Calls* calls, bool gpu, bool cpu) {
  BufferFill fill;
  if (gpu) {
    fill.device = [=](void* d_ptr, size_t bytes) {
      ++calls->device;
      const size_t n = bytes / sizeof(Vertex);
      fill_vertices<<<unsigned((n + 255) / 256), 256, 0, stream>>>(static_cast<Vertex*>(d_ptr), n, scale);
      CUDA_CHECK(cudaGetLastError());
    };
  }
  if (cpu) {
    fill.host = [=](void* h_ptr, size_t bytes) {
      ++calls->host;
      for (size_t i = 0; i < bytes / sizeof(Vertex); ++i) static_cast<Vertex*>(h_ptr)[i] = vertex(i, scale);
    };
  }
  return fill;
}

// Texels of `texture` that differ from colour(x, y, seed), as text (empty when none).
std::string texture_differences(const gpulab::gl::Texture2D& texture, uint32_t seed) {
  const int w = texture.width(), h = texture.height();
  std::vector<uint32_t> px(size_t(w) * h, 0u);
  glGetTextureImage(texture.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(px.size() * 4), px.data());
  if (glGetError() != GL_NO_ERROR) return "glGetTextureImage failed";
  size_t wrong = 0;
  std::string first;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (px[size_t(y) * w + x] != colour(x, y, seed) && wrong++ == 0)
        first = "texel (" + std::to_string(x) + ", " + std::to_string(y) + ")";
  if (wrong == 0) return {};
  return std::to_string(wrong) + " of " + std::to_string(px.size()) + " texels differ, the first " + first;
}

std::string buffer_differences(const InteropBuffer& target, float scale) {
  std::vector<Vertex> back(target.count());
  target.buffer().download(back.data(), target.bytes());
  if (glGetError() != GL_NO_ERROR) return "glGetNamedBufferSubData failed";
  size_t wrong = 0;
  for (size_t i = 0; i < back.size(); ++i) {
    const Vertex want = vertex(i, scale);
    wrong += back[i].x != want.x || back[i].y != want.y || back[i].z != want.z || back[i].w != want.w;
  }
  return wrong ? std::to_string(wrong) + " of " + std::to_string(back.size()) + " vertices differ"
               : std::string();
}

// A headless GL context on the NVIDIA EGL device of the CUDA device in use, and a compute stream.
class DisplayTargetGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    GPULAB_SKIP_WITHOUT_CUDA();
    const int device = gpulab::cuda_status().device;
    gpulab::platform::HeadlessOptions options;
    options.width = 64;
    options.height = 64;
    options.cuda_device = device;
    std::string why;
    platform_ = gpulab::platform::create_headless(options, &why);
    ASSERT_TRUE(platform_) << "no headless GL context: " << why;
    ASSERT_FALSE(platform_->info().software)
        << "no NVIDIA EGL device (got " << platform_->info().gl_renderer << ")";
    ASSERT_EQ(cudaSetDevice(device), cudaSuccess);
    stream_ = gpulab::cuda::Stream::create_non_blocking();
  }
  void TearDown() override {
    if (!platform_) return;
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
  }
  cudaStream_t stream() const { return stream_.get(); }

  std::unique_ptr<gpulab::platform::Platform> platform_;  // first: outlives the GL objects below
  gpulab::cuda::Stream stream_;
};

TEST_F(DisplayTargetGpu, TexturePathsGiveIdenticalPixels) {
  InteropTexture target(stream(), /*interop_allowed=*/true);
  for (auto [w, h] : {std::pair{61, 37}, std::pair{128, 1}, std::pair{300, 200}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    ASSERT_TRUE(target.ensure_size(w, h));
    ASSERT_TRUE(target.interop_active()) << target.interop_unavailable_reason();
    EXPECT_EQ(target.interop_unavailable_reason(), "");
    Calls calls;

    target.update(texture_fill(stream(), 1, &calls, true, true));
    EXPECT_EQ(target.last_path(), DisplayPath::Interop) << target.path_description();
    EXPECT_EQ(target.path_description().rfind("interop", 0), 0u) << target.path_description();
    EXPECT_GE(target.last_map_ms(), 0.0);
    EXPECT_EQ(calls.surface, 1);
    EXPECT_EQ(calls.device + calls.host, 0) << "interop needs neither fallback";
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    EXPECT_EQ(texture_differences(target.texture(), 1), "") << "interop";

    target.update(texture_fill(stream(), 2, &calls, true, true), /*force_host_copy=*/true);
    EXPECT_EQ(target.last_path(), DisplayPath::DeviceCopy);
    EXPECT_EQ(target.path_description().rfind("host copy (forced)", 0), 0u) << target.path_description();
    EXPECT_EQ(calls.device, 1);
    EXPECT_EQ(texture_differences(target.texture(), 2), "") << "device copy";

    target.update(texture_fill(stream(), 3, &calls, false, true));  // a CPU producer
    EXPECT_EQ(target.last_path(), DisplayPath::Host);
    EXPECT_EQ(calls.host, 1);
    EXPECT_EQ(texture_differences(target.texture(), 3), "") << "host";

    target.update(texture_fill(stream(), 4, &calls, true, false));  // interop again after uploads
    EXPECT_EQ(target.last_path(), DisplayPath::Interop);
    EXPECT_EQ(calls.surface, 2);
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    EXPECT_EQ(texture_differences(target.texture(), 4), "") << "interop, second frame";
  }
  EXPECT_FALSE(target.ensure_size(300, 200));
}

TEST_F(DisplayTargetGpu, TextureWithoutInteropCopiesThroughDeviceMemory) {
  InteropTexture target(stream(), /*interop_allowed=*/false, "interop switched off by the test");
  ASSERT_TRUE(target.ensure_size(97, 61));
  EXPECT_FALSE(target.interop_active());
  Calls calls;
  target.update(texture_fill(stream(), 9, &calls, true, true));
  EXPECT_EQ(target.last_path(), DisplayPath::DeviceCopy);
  EXPECT_NE(target.path_description().find("interop switched off by the test"), std::string::npos)
      << target.path_description();
  EXPECT_EQ(calls.surface, 0);
  EXPECT_EQ(calls.device, 1);
  EXPECT_EQ(texture_differences(target.texture(), 9), "");
}

TEST_F(DisplayTargetGpu, BufferPathsGiveIdenticalData) {
  InteropBuffer target(sizeof(Vertex), stream(), /*interop_allowed=*/true);
  for (size_t count : {size_t{1000}, size_t{1}, size_t{4099}}) {
    SCOPED_TRACE(std::to_string(count) + " vertices");
    ASSERT_TRUE(target.resize(count));
    ASSERT_TRUE(target.interop_active()) << target.interop_unavailable_reason();
    EXPECT_EQ(target.buffer().size(), count * sizeof(Vertex));
    Calls calls;

    target.update(buffer_fill(stream(), 1.5f, &calls, true, true));
    EXPECT_EQ(target.last_path(), DisplayPath::Interop) << target.path_description();
    EXPECT_EQ(calls.device, 1);
    EXPECT_EQ(calls.host, 0);
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    EXPECT_EQ(buffer_differences(target, 1.5f), "") << "interop";

    target.update(buffer_fill(stream(), 2.5f, &calls, true, true), /*force_host_copy=*/true);
    EXPECT_EQ(target.last_path(), DisplayPath::DeviceCopy);
    EXPECT_EQ(calls.device, 2);
    EXPECT_EQ(buffer_differences(target, 2.5f), "") << "device copy";

    target.update(buffer_fill(stream(), -4.0f, &calls, false, true));
    EXPECT_EQ(target.last_path(), DisplayPath::Host);
    EXPECT_EQ(calls.host, 1);
    EXPECT_EQ(buffer_differences(target, -4.0f), "") << "host";

    target.update(buffer_fill(stream(), 8.0f, &calls, true, false));
    EXPECT_EQ(target.last_path(), DisplayPath::Interop);
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    EXPECT_EQ(buffer_differences(target, 8.0f), "") << "interop, second frame";
  }
}

TEST_F(DisplayTargetGpu, BufferWithoutInteropCopiesThroughDeviceMemory) {
  InteropBuffer target(sizeof(Vertex), stream(), false, "no interop for this test");
  ASSERT_TRUE(target.resize(333));
  EXPECT_FALSE(target.interop_active());
  Calls calls;
  target.update(buffer_fill(stream(), 0.25f, &calls, true, true));
  EXPECT_EQ(target.last_path(), DisplayPath::DeviceCopy);
  EXPECT_NE(target.path_description().find("no interop for this test"), std::string::npos)
      << target.path_description();
  EXPECT_EQ(buffer_differences(target, 0.25f), "");
}

}  // namespace

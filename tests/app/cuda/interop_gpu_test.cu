// gpu label: CUDA-GL interop in a headless EGL context. On the NVIDIA EGL device: register a
// texture and a buffer, map both with one call, write through a surface / pointer, unmap, and read
// the result back with GL. On Mesa's software device: registration fails with a reason and leaves
// no error behind for the next launch check.
#include <gtest/gtest.h>

#include "gl/gl.h"  // glad before anything that could include <GL/gl.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "cuda/interop.h"
#include "cuda/raii.h"
#include "platform/platform.h"

#include "support/gpu_skip.h"

namespace {

__global__ void write_pattern(cudaSurfaceObject_t surface, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const uchar4 v = make_uchar4(static_cast<unsigned char>(x), static_cast<unsigned char>(y), 0xAB, 0xFF);
  surf2Dwrite(v, surface, x * static_cast<int>(sizeof(uchar4)), y);
}

__global__ void write_words(uint32_t* d_words, size_t count) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < count) d_words[i] = static_cast<uint32_t>(i * 3u + 1u);
}

// GL objects made with the context current and deleted before it goes.
struct GlTexture {
  GLuint id = 0;
  GlTexture(int w, int h) {
    glCreateTextures(GL_TEXTURE_2D, 1, &id);
    glTextureStorage2D(id, 1, GL_RGBA8, w, h);
  }
  ~GlTexture() { glDeleteTextures(1, &id); }
};
struct GlBuffer {
  GLuint id = 0;
  explicit GlBuffer(size_t bytes) {
    glCreateBuffers(1, &id);
    glNamedBufferStorage(id, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_STORAGE_BIT);
  }
  ~GlBuffer() { glDeleteBuffers(1, &id); }
};

}  // namespace

using gpulab::cuda::GraphicsResource;
using gpulab::cuda::ScopedMap;

TEST(InteropGpu, TextureAndBufferRoundTripThroughCuda) {
  GPULAB_SKIP_WITHOUT_CUDA();
  std::string why;
  gpulab::platform::HeadlessOptions options;
  options.width = 64;
  options.height = 64;
  const int device = gpulab::cuda_status().device;
  options.cuda_device = device;
  auto platform = gpulab::platform::create_headless(options, &why);
  ASSERT_TRUE(platform) << "no headless GL context: " << why;
  ASSERT_FALSE(platform->info().software)
      << "no NVIDIA EGL device (got " << platform->info().gl_renderer << ")";
  ASSERT_EQ(cudaSetDevice(device), cudaSuccess);

  int gl_device = -1;
  ASSERT_TRUE(gpulab::cuda::gl_context_on_cuda_device(&gl_device));
  EXPECT_EQ(gl_device, device);

  const int w = 61, h = 37;  // odd sizes: no accidental alignment
  const size_t words = 1000;
  GlTexture tex(w, h);
  GlBuffer buf(words * sizeof(uint32_t));
  ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  {
    auto image = GraphicsResource::try_register_image(tex.id, &why);
    ASSERT_TRUE(image.has_value()) << why;
    EXPECT_EQ(image->kind(), GraphicsResource::Kind::Image);
    EXPECT_EQ(image->gl_name(), tex.id);
    GraphicsResource buffer = GraphicsResource::register_buffer(buf.id, gpulab::cuda::kRegisterNone);
    EXPECT_EQ(buffer.kind(), GraphicsResource::Kind::Buffer);

    auto stream = gpulab::cuda::Stream::create_non_blocking();
    {
      ScopedMap map({&*image, &buffer}, stream.get());  // one map call for both
      EXPECT_EQ(map.size(), 2u);
      EXPECT_THROW((void)map.buffer(*image), gpulab::GpuError);
      EXPECT_THROW((void)map.array(buffer), gpulab::GpuError);

      gpulab::cuda::Surface surface(map.array(*image));
      ASSERT_TRUE(surface);
      const dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
      const auto s = stream.get();
      write_pattern<<<grid, block, 0, s>>>(surface.get(), w, h);
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);

      const gpulab::cuda::MappedBuffer mb = map.buffer(1);
      ASSERT_NE(mb.d_ptr, nullptr);
      EXPECT_EQ(mb.bytes, words * sizeof(uint32_t));
      write_words<<<(words + 255) / 256, 256, 0, s>>>(static_cast<uint32_t*>(mb.d_ptr), words);
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    }  // surface destroyed, then unmapped on the stream: GL now sees the writes
    stream.synchronize();

    std::vector<uint8_t> pixels(static_cast<size_t>(w) * h * 4, 0);
    glGetTextureImage(tex.id, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(pixels.size()),
                      pixels.data());
    ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    int wrong = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const uint8_t* p = &pixels[(static_cast<size_t>(y) * w + x) * 4];
        const bool ok = p[0] == static_cast<uint8_t>(x) && p[1] == static_cast<uint8_t>(y) && p[2] == 0xAB &&
                        p[3] == 0xFF;
        if (!ok && wrong++ < 5)
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") = " << int(p[0]) << " " << int(p[1]) << " "
                        << int(p[2]) << " " << int(p[3]);
      }
    EXPECT_EQ(wrong, 0);

    std::vector<uint32_t> back(words, 0);
    glGetNamedBufferSubData(buf.id, 0, static_cast<GLsizeiptr>(words * sizeof(uint32_t)), back.data());
    ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    for (size_t i = 0; i < words; ++i) ASSERT_EQ(back[i], static_cast<uint32_t>(i * 3 + 1)) << i;
  }  // registrations go before the GL objects
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(InteropGpu, FailedRegistrationSaysWhyAndLeavesNoError) {
  // On the GPU machine the context is NVIDIA's, so make registration fail with names that are not
  // GL objects: the app must get a reason (to show, and fall back to the host copy), not an abort.
  GPULAB_SKIP_WITHOUT_CUDA();
  std::string why;
  gpulab::platform::HeadlessOptions options;
  options.width = 32;
  options.height = 32;
  auto platform = gpulab::platform::create_headless(options, &why);
  ASSERT_TRUE(platform) << why;

  const GLuint not_a_texture = 987654u, not_a_buffer = 987655u;
  const auto image = GraphicsResource::try_register_image(not_a_texture, &why);
  EXPECT_FALSE(image.has_value());
  EXPECT_NE(why.find("cudaGraphicsGLRegisterImage failed"), std::string::npos) << why;
  std::printf("[ info ] %s\n", why.c_str());
  // The failure was handled: the next launch check must not see it.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_THROW((void)GraphicsResource::register_image(not_a_texture), gpulab::GpuError);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);

  const auto buffer = GraphicsResource::try_register_buffer(not_a_buffer, &why);
  EXPECT_FALSE(buffer.has_value());
  EXPECT_NE(why.find("cudaGraphicsGLRegisterBuffer failed"), std::string::npos) << why;
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

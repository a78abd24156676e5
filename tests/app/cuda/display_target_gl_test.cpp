// InteropTexture and InteropBuffer on any GL context (Mesa's software one included) with interop
// not allowed: the host fill reaches the GL object exactly, the path and its reason are reported,
// sizes re-make the objects, and misuse throws. The interop paths are in display_target_gpu_test.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/display_target.h"
#include "platform/platform.h"
#include "support/gl_fixture.h"

namespace gpulab {
namespace {

class DisplayTargetGl : public ::gpulab::testing::HeadlessGlTest<DisplayTargetGl, 32, 32> {};

uint32_t pixel(int x, int y, uint32_t seed) {
  return (uint32_t(x) * 0x9E3779B1u) ^ (uint32_t(y) * 0x85EBCA77u) ^ (seed * 0xC2B2AE3Du);
}

std::vector<uint32_t> texture_words(const gl::Texture2D& t) {
  std::vector<uint32_t> px(size_t(t.width()) * t.height());
  glGetTextureImage(t.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(px.size() * 4), px.data());
  return px;
}

TextureFill host_fill(uint32_t seed, int* calls) {
  TextureFill fill;
  fill.host = [seed, calls](uint32_t* h_rgba, int w, int h) {
    ++*calls;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) h_rgba[size_t(y) * w + x] = pixel(x, y, seed);
  };
  return fill;
}

TEST_F(DisplayTargetGl, TextureHostFillReachesTheTextureTopDown) {
  InteropTexture target(nullptr, /*interop_allowed=*/false, "interop switched off for the test");
  EXPECT_EQ(target.last_path(), DisplayPath::None);
  int unused_calls = 0;
  EXPECT_THROW(target.update(host_fill(1, &unused_calls)), std::logic_error) << "before ensure_size";
  EXPECT_EQ(unused_calls, 0);

  EXPECT_TRUE(target.ensure_size(37, 23));
  EXPECT_FALSE(target.interop_active());
  EXPECT_EQ(target.interop_unavailable_reason(), "interop switched off for the test");
  ASSERT_TRUE(target.texture());
  EXPECT_EQ(target.texture().format(), GLenum(GL_RGBA8));
  EXPECT_EQ(target.width(), 37);
  EXPECT_EQ(target.height(), 23);

  int calls = 0;
  for (uint32_t seed : {1u, 2u}) {  // a second frame must replace the first
    target.update(host_fill(seed, &calls));
    EXPECT_EQ(target.last_path(), DisplayPath::Host);
    EXPECT_EQ(target.path_description().rfind("CPU: ", 0), 0u) << target.path_description();
    const auto got = texture_words(target.texture());
    size_t wrong = 0;
    for (int y = 0; y < 23; ++y)
      for (int x = 0; x < 37; ++x) wrong += got[size_t(y) * 37 + x] != pixel(x, y, seed);
    EXPECT_EQ(wrong, 0u) << "seed " << seed;
  }
  EXPECT_EQ(calls, 2);

  target.update(host_fill(3, &calls), /*force_host_copy=*/true);
  EXPECT_EQ(target.path_description().rfind("host copy (forced)", 0), 0u) << target.path_description();
  EXPECT_EQ(target.last_map_ms(), 0.0);
}

TEST_F(DisplayTargetGl, TextureIsRemadeOnlyWhenTheSizeChanges) {
  InteropTexture target(nullptr, false);
  EXPECT_FALSE(target.interop_unavailable_reason().empty()) << "a reason even when none was given";
  ASSERT_TRUE(target.ensure_size(8, 4));
  const GLuint first = target.texture().id();
  EXPECT_FALSE(target.ensure_size(8, 4));
  EXPECT_EQ(target.texture().id(), first);
  EXPECT_TRUE(target.ensure_size(5, 9));
  EXPECT_EQ(target.width(), 5);
  EXPECT_EQ(target.height(), 9);
  // The old texture is deleted: its name is gone, unless the driver recycled it for the new one
  // (NVIDIA does).
  EXPECT_TRUE(!glIsTexture(first) || target.texture().id() == first) << "the old texture leaked";
  EXPECT_TRUE(target.ensure_size(0, -3)) << "degenerate sizes become 1x1";
  EXPECT_EQ(target.width(), 1);
  EXPECT_EQ(target.height(), 1);

  int calls = 0;
  target.update(host_fill(4, &calls));
  EXPECT_EQ(texture_words(target.texture()), std::vector<uint32_t>{pixel(0, 0, 4)});

  EXPECT_THROW(target.update(TextureFill{}), std::logic_error) << "no fill at all";
  const GLuint last = target.texture().id();
  target.release();
  EXPECT_FALSE(target.texture());
  EXPECT_FALSE(glIsTexture(last));
}

TEST_F(DisplayTargetGl, BufferHostFillReachesTheBuffer) {
  struct Vertex {
    float x, y, z, w;
  };
  EXPECT_THROW(InteropBuffer(0, nullptr, false), std::invalid_argument);
  InteropBuffer target(sizeof(Vertex), nullptr, false, "not on a CUDA device");
  EXPECT_FALSE(target.buffer());
  target.update(BufferFill{});  // nothing to fill yet: no error, no path
  EXPECT_EQ(target.last_path(), DisplayPath::None);

  ASSERT_TRUE(target.resize(1000));
  EXPECT_FALSE(target.resize(1000));
  EXPECT_EQ(target.count(), 1000u);
  EXPECT_EQ(target.bytes(), 1000u * sizeof(Vertex));
  EXPECT_EQ(target.buffer().size(), target.bytes());
  EXPECT_FALSE(target.interop_active());
  EXPECT_EQ(target.interop_unavailable_reason(), "not on a CUDA device");

  auto fill_for = [](float scale) {
    BufferFill fill;
    fill.host = [scale](void* h_ptr, size_t bytes) {
      auto* v = static_cast<Vertex*>(h_ptr);
      for (size_t i = 0; i < bytes / sizeof(Vertex); ++i)
        v[i] = Vertex{float(i) * scale, -float(i), 0.5f, scale};
    };
    return fill;
  };
  for (float scale : {1.0f, 3.0f}) {
    target.update(fill_for(scale));
    EXPECT_EQ(target.last_path(), DisplayPath::Host);
    std::vector<Vertex> back(target.count());
    target.buffer().download(back.data(), target.bytes());
    size_t wrong = 0;
    for (size_t i = 0; i < back.size(); ++i)
      wrong +=
          back[i].x != float(i) * scale || back[i].y != -float(i) || back[i].z != 0.5f || back[i].w != scale;
    EXPECT_EQ(wrong, 0u) << "scale " << scale;
  }

  const GLuint first = target.buffer().id();
  ASSERT_TRUE(target.resize(7));
  EXPECT_TRUE(!glIsBuffer(first) || target.buffer().id() == first) << "the old buffer leaked";
  target.update(fill_for(2.0f), /*force_host_copy=*/true);
  EXPECT_EQ(target.path_description().rfind("host copy (forced)", 0), 0u) << target.path_description();
  Vertex last{};
  target.buffer().download(&last, sizeof last, 6 * sizeof(Vertex));
  EXPECT_EQ(last.x, 12.0f);

  EXPECT_THROW(target.update(BufferFill{}), std::logic_error);
  EXPECT_TRUE(target.resize(0));
  EXPECT_FALSE(target.buffer());
  EXPECT_EQ(target.bytes(), 0u);
}

}  // namespace
}  // namespace gpulab

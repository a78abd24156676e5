// GL helpers on a headless context: the row-order convention (upload, TexturedQuad, read-back) is
// checked pixel by pixel against references computed here, plus shader errors and RAII.
#include "gl/gl.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "gl/image_io.h"
#include "platform/platform.h"
#include "support/gl_fixture.h"

namespace gpulab::gl {
namespace {

// An image in which every pixel of a 37x23 (odd, non-square) picture has its own colour, and
// alpha varies too, so any flip, shift, transpose or channel swap shows up.
struct Pattern {
  int width, height;
  std::vector<uint8_t> rgba;  // row 0 = top
};

Pattern make_pattern(int width, int height) {
  Pattern p{width, height, std::vector<uint8_t>(size_t(width) * height * 4)};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      uint8_t* px = &p.rgba[(size_t(y) * width + x) * 4];
      px[0] = uint8_t(x * 6 + 3);
      px[1] = uint8_t(y * 11 + 1);
      px[2] = uint8_t((x * 13 + y * 29) & 255);
      px[3] = uint8_t(255 - ((x + 2 * y) & 63));
    }
  return p;
}

std::vector<uint32_t> as_words(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

// First differing pixel as text, or empty when equal.
std::string first_difference(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, int width) {
  if (got.size() != want.size())
    return "size " + std::to_string(got.size()) + " != " + std::to_string(want.size());
  for (size_t i = 0; i < got.size(); i += 4) {
    if (std::memcmp(&got[i], &want[i], 4) != 0) {
      const size_t pixel = i / 4;
      auto rgba = [](const uint8_t* p) {
        return "(" + std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]) + "," +
               std::to_string(p[3]) + ")";
      };
      return "pixel x=" + std::to_string(pixel % width) + " y=" + std::to_string(pixel / width) +
             " (from top): got " + rgba(&got[i]) + ", want " + rgba(&want[i]);
    }
  }
  return {};
}

class GlObjects : public ::gpulab::testing::HeadlessGlTest<GlObjects, 64, 48> {};

TEST_F(GlObjects, UploadKeepsImageRowYInTextureRowY) {
  // The convention CUDA's surf2Dwrite relies on: no flip on upload.
  const Pattern p = make_pattern(37, 23);
  Texture2D texture(GL_RGBA8, p.width, p.height);
  const auto words = as_words(p.rgba);
  texture.upload_rgba8_top_down(words.data());
  std::vector<uint8_t> stored(p.rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTextureImage(texture.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(stored.size()), stored.data());
  EXPECT_EQ(first_difference(stored, p.rgba, p.width), "");
}

TEST_F(GlObjects, ReadPixelsTopDownPutsTheTopRowFirst) {
  // Independent of TexturedQuad: clear only GL's highest row (window y = h-1) and expect it first.
  const int w = 5, h = 3;
  Framebuffer fb(w, h);
  const GLfloat black[4] = {0, 0, 0, 1}, red[4] = {1, 0, 0, 1};
  glClearNamedFramebufferfv(fb.id(), GL_COLOR, 0, black);
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, h - 1, w, 1);
  glClearNamedFramebufferfv(fb.id(), GL_COLOR, 0, red);
  glDisable(GL_SCISSOR_TEST);
  glBindFramebuffer(GL_FRAMEBUFFER, platform_->target_framebuffer());
  const auto pixels = read_pixels_top_down(fb.id(), w, h);
  ASSERT_EQ(pixels.size(), size_t(w * h * 4));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      EXPECT_EQ(pixels[(size_t(y) * w + x) * 4], y == 0 ? 255 : 0) << "x=" << x << " y=" << y;
}

TEST_F(GlObjects, TexturedQuadFullViewportIsPixelExact) {
  const Pattern p = make_pattern(37, 23);
  Texture2D texture(GL_RGBA8, p.width, p.height);
  const auto words = as_words(p.rgba);
  texture.upload_rgba8_top_down(words.data());
  Framebuffer fb(p.width, p.height);
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  TexturedQuad quad;
  quad.draw(texture, 0, 0, p.width, p.height);
  glBindFramebuffer(GL_FRAMEBUFFER, platform_->target_framebuffer());
  EXPECT_EQ(first_difference(read_pixels_top_down(fb.id(), p.width, p.height), p.rgba, p.width), "");
}

TEST_F(GlObjects, TexturedQuadSubRectangleLandsWhereGlViewportPutsIt) {
  const Pattern p = make_pattern(37, 23);
  Texture2D texture(GL_RGBA8, p.width, p.height);
  const auto words = as_words(p.rgba);
  texture.upload_rgba8_top_down(words.data());

  const int fw = platform_->framebuffer_width(), fh = platform_->framebuffer_height();
  const GLuint target = platform_->target_framebuffer();
  const uint8_t clear[4] = {10, 20, 30, 40};
  const GLfloat clear_f[4] = {10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f};
  glClearNamedFramebufferfv(target, GL_COLOR, 0, clear_f);
  // Depth test and blending on, and an odd viewport: draw() must neutralise and restore them.
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glViewport(1, 2, 3, 4);
  const int x = 5, y = 7;  // lower-left corner, GL window coordinates
  TexturedQuad quad;
  quad.draw(texture, x, y, p.width, p.height);
  EXPECT_TRUE(glIsEnabled(GL_DEPTH_TEST));
  EXPECT_TRUE(glIsEnabled(GL_BLEND));
  GLint viewport[4];
  glGetIntegerv(GL_VIEWPORT, viewport);
  EXPECT_EQ(viewport[0], 1);
  EXPECT_EQ(viewport[1], 2);
  EXPECT_EQ(viewport[2], 3);
  EXPECT_EQ(viewport[3], 4);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glViewport(0, 0, fw, fh);

  // Reference: the image's top row sits at top-down row fh - y - height.
  std::vector<uint8_t> want(size_t(fw) * fh * 4);
  const int top = fh - y - p.height;
  for (int row = 0; row < fh; ++row)
    for (int col = 0; col < fw; ++col) {
      uint8_t* dst = &want[(size_t(row) * fw + col) * 4];
      const int ix = col - x, iy = row - top;
      if (ix >= 0 && ix < p.width && iy >= 0 && iy < p.height)
        std::memcpy(dst, &p.rgba[(size_t(iy) * p.width + ix) * 4], 4);
      else
        std::memcpy(dst, clear, 4);
    }
  EXPECT_EQ(first_difference(read_pixels_top_down(target, fw, fh), want, fw), "");
}

TEST_F(GlObjects, TexturedQuadIntegerZoomRepeatsEachTexelExactly) {
  const Pattern p = make_pattern(13, 7);
  const int zoom = 3, w = p.width * zoom, h = p.height * zoom;
  Texture2D texture(GL_RGBA8, p.width, p.height);
  const auto words = as_words(p.rgba);
  texture.upload_rgba8_top_down(words.data());
  Framebuffer fb(w, h);
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  TexturedQuad quad;
  quad.draw(texture, 0, 0, w, h);
  glBindFramebuffer(GL_FRAMEBUFFER, platform_->target_framebuffer());
  std::vector<uint8_t> want(size_t(w) * h * 4);
  for (int row = 0; row < h; ++row)
    for (int col = 0; col < w; ++col)
      std::memcpy(&want[(size_t(row) * w + col) * 4],
                  &p.rgba[(size_t(row / zoom) * p.width + col / zoom) * 4], 4);
  EXPECT_EQ(first_difference(read_pixels_top_down(fb.id(), w, h), want, w), "");
}

TEST_F(GlObjects, ScreenshotOfTheOffscreenTargetRoundTripsThroughPng) {
  const Pattern p = make_pattern(37, 23);
  Texture2D texture(GL_RGBA8, p.width, p.height);
  const auto words = as_words(p.rgba);
  texture.upload_rgba8_top_down(words.data());
  Framebuffer fb(p.width, p.height);
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  TexturedQuad().draw(texture, 0, 0, p.width, p.height);
  glBindFramebuffer(GL_FRAMEBUFFER, platform_->target_framebuffer());
  const auto pixels = read_pixels_top_down(fb.id(), p.width, p.height);

  const auto dir = std::filesystem::temp_directory_path() / ("gpulab-gl-test-" + std::to_string(::getpid()));
  const auto path = unique_screenshot_path(dir, "shot");
  ASSERT_EQ(write_png(path, p.width, p.height, pixels.data()), "");
  std::string error;
  const Image image = read_image(path, &error);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(error, "");
  ASSERT_EQ(image.width, p.width);
  ASSERT_EQ(image.height, p.height);
  EXPECT_EQ(first_difference(image.rgba, p.rgba, p.width), "");
}

TEST_F(GlObjects, BrokenShaderThrowsWithLogAndNumberedSource) {
  const std::string vertex = "#version 450 core\nvoid main() { gl_Position = vec4(0.0); }\n";
  const std::string fragment =
      "#version 450 core\n"
      "out vec4 colour;\n"
      "void main() {\n"
      "  colour = vec4(undeclared_thing, 1.0);\n"
      "}\n";
  try {
    Program::from_source(vertex, fragment, "broken-test");
    FAIL() << "expected GlError";
  } catch (const GlError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("broken-test"), std::string::npos) << what;
    EXPECT_NE(what.find("fragment shader failed to compile"), std::string::npos) << what;
    EXPECT_NE(what.find("undeclared_thing"), std::string::npos) << "the compiler log: " << what;
    EXPECT_NE(what.find("   4 |   colour = vec4(undeclared_thing, 1.0);"), std::string::npos)
        << "numbered source line 4: " << what;
    EXPECT_NE(what.find("   1 | #version 450 core"), std::string::npos) << what;
  }
}

TEST_F(GlObjects, LinkFailureThrowsWithLog) {
  // Compiles stage by stage, fails only when linked: the fragment input has no vertex output.
  const std::string vertex = "#version 450 core\nvoid main() { gl_Position = vec4(0.0); }\n";
  const std::string fragment =
      "#version 450 core\nin vec3 v_missing;\nout vec4 colour;\n"
      "void main() { colour = vec4(v_missing, 1.0); }\n";
  try {
    Program::from_source(vertex, fragment, "link-test");
    FAIL() << "expected GlError";
  } catch (const GlError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("link-test: program failed to link"), std::string::npos) << what;
    EXPECT_NE(what.find("v_missing"), std::string::npos) << what;
  }
}

TEST_F(GlObjects, ShadersLoadFromShaderDirAndMissingFilesAreNamed) {
  const auto dir = shader_dir();
  EXPECT_TRUE(std::filesystem::exists(dir / "quad.vert")) << dir;
  Program program = Program::from_files("quad.vert", "quad.frag");
  EXPECT_NE(program.id(), 0u);
  EXPECT_GE(program.uniform("u_rect"), 0);
  EXPECT_EQ(program.uniform("no_such_uniform"), -1);
  try {
    Program::from_files("does-not-exist.vert", "quad.frag");
    FAIL() << "expected GlError";
  } catch (const GlError& e) {
    EXPECT_NE(std::string(e.what()).find("does-not-exist.vert"), std::string::npos) << e.what();
  }
}

TEST_F(GlObjects, HandlesAreMoveOnlyAndDeleteTheirObject) {
  Texture2D a(GL_RGBA8, 3, 2);
  const GLuint id = a.id();
  ASSERT_TRUE(glIsTexture(id));
  Texture2D b = std::move(a);
  EXPECT_FALSE(a);
  EXPECT_EQ(b.id(), id);
  EXPECT_EQ(b.width(), 3);
  EXPECT_EQ(b.height(), 2);
  EXPECT_TRUE(glIsTexture(id)) << "moving must not delete";
  b = Texture2D();
  EXPECT_FALSE(glIsTexture(id)) << "reset by assignment deletes";

  GLuint buffer_id = 0;
  {
    const float data[4] = {1, 2, 3, 4};
    Buffer buffer(sizeof data, data, 0);
    buffer_id = buffer.id();
    EXPECT_EQ(buffer.size(), sizeof data);
    float back[4] = {};
    glGetNamedBufferSubData(buffer_id, 0, sizeof back, back);
    EXPECT_EQ(std::memcmp(back, data, sizeof data), 0);
    ASSERT_TRUE(glIsBuffer(buffer_id));
  }
  EXPECT_FALSE(glIsBuffer(buffer_id)) << "destructor deletes";

  static_assert(!std::is_copy_constructible_v<Texture2D>);
  static_assert(!std::is_copy_constructible_v<Program>);
  static_assert(std::is_nothrow_move_constructible_v<Handle<delete_texture>>);
  EXPECT_THROW(Texture2D(GL_RGBA8, 0, 5), GlError);
  EXPECT_THROW(Buffer(0, nullptr, 0), GlError);
}

}  // namespace
}  // namespace gpulab::gl

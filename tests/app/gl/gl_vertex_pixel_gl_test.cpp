// GL helpers for the demos after Life: vertex attributes on a VertexArray (points drawn from an
// interleaved buffer land on the pixels and in the colours expected), dynamic buffers, uniforms,
// the pixel-unpack-buffer upload (equal to a direct upload), and one-byte grey textures.
#include "gl/gl.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <memory>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "support/gl_fixture.h"

namespace gpulab::gl {
namespace {

class GlVertexPixel : public ::gpulab::testing::HeadlessGlTest<GlVertexPixel, 32, 32> {};

// An odd-sized picture in which every pixel differs from its neighbours in every channel.
std::vector<uint8_t> rgba_pattern(int width, int height) {
  std::vector<uint8_t> p(size_t(width) * height * 4);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      uint8_t* px = &p[(size_t(y) * width + x) * 4];
      px[0] = uint8_t(x * 7 + 1);
      px[1] = uint8_t(y * 13 + 5);
      px[2] = uint8_t((x * 3 + y * 17) & 255);
      px[3] = uint8_t(200 - ((x + y) & 63));
    }
  return p;
}

std::vector<uint8_t> grey_pattern(int width, int height) {
  std::vector<uint8_t> p(size_t(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) p[size_t(y) * width + x] = uint8_t((x * 11 + y * 37 + 3) & 255);
  return p;
}

std::vector<uint8_t> texture_bytes(const Texture2D& t, GLenum format, size_t pixel_bytes) {
  std::vector<uint8_t> out(size_t(t.width()) * t.height() * pixel_bytes);
  GLint alignment = 4;
  glGetIntegerv(GL_PACK_ALIGNMENT, &alignment);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(t.id(), 0, format, GL_UNSIGNED_BYTE, GLsizei(out.size()), out.data());
  glPixelStorei(GL_PACK_ALIGNMENT, alignment);
  return out;
}

// ---------------------------------------------------------------------------------------------
// A vertex whose attributes all sit at non-zero relative offsets, colour as normalised bytes.
struct PointVertex {
  float pad;   // never read: position and colour must be found by their offsets
  float x, y;  // pixel coordinates, top-down (0, 0) = top-left corner of the picture
  uint8_t rgba[4];
};
static_assert(sizeof(PointVertex) == 16);

constexpr const char* kPointVert = R"(#version 450 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_colour;
uniform mat4 u_pixels_to_clip;
out vec4 v_colour;
void main() {
  gl_Position = u_pixels_to_clip * vec4(a_pos, 0.0, 1.0);
  v_colour = a_colour;
}
)";
constexpr const char* kPointFrag = R"(#version 450 core
in vec4 v_colour;
uniform vec4 u_tint;
uniform float u_alpha;
out vec4 colour;
void main() { colour = vec4(v_colour.rgb * u_tint.rgb, u_alpha); }
)";

TEST_F(GlVertexPixel, PointsFromAnInterleavedBufferLandOnTheirPixels) {
  const int w = 17, h = 9;
  struct Spot {
    int x, y;  // top-down pixel
    uint8_t r, g, b;
  };
  const std::vector<Spot> spots = {
      {1, 0, 255, 0, 0}, {16, 8, 0, 255, 0}, {5, 3, 0, 0, 255}, {9, 7, 10, 20, 30}, {0, 8, 200, 100, 50}};
  // Two leading vertices that must be skipped through the binding's offset: drawn, they would paint
  // pixel (0, 0) white.
  std::vector<PointVertex> vertices(2, PointVertex{-1.0f, 0.5f, 0.5f, {255, 255, 255, 255}});
  for (const Spot& s : spots)
    vertices.push_back(PointVertex{-1.0f, s.x + 0.5f, s.y + 0.5f, {s.r, s.g, s.b, 7}});

  Buffer buffer = Buffer::dynamic(vertices.size() * sizeof(PointVertex));
  EXPECT_TRUE(buffer.flags() & GL_DYNAMIC_STORAGE_BIT);
  // Two uploads, the second at an offset, make up the whole buffer.
  const size_t half = 3 * sizeof(PointVertex);
  buffer.upload(vertices.data(), half);
  buffer.upload(reinterpret_cast<const uint8_t*>(vertices.data()) + half, buffer.size() - half, half);

  VertexArray vao;
  vao.set_vertex_buffer(0, buffer, sizeof(PointVertex), 2 * sizeof(PointVertex));
  vao.set_float_attribute(0, 0, 2, offsetof(PointVertex, x));
  vao.set_float_attribute(1, 0, 4, offsetof(PointVertex, rgba), GL_UNSIGNED_BYTE, true);

  Program program = Program::from_source(kPointVert, kPointFrag, "points");
  ASSERT_GE(program.uniform("u_pixels_to_clip"), 0);
  // Top-down pixels to clip space: y = 0 is the top. Not symmetric, so a transposed upload of the
  // matrix would scatter the points.
  program.set_uniform("u_pixels_to_clip", glm::ortho(0.0f, float(w), float(h), 0.0f));
  program.set_uniform("u_tint", glm::vec4(1.0f));  // left at 0, every point would be black
  program.set_uniform(program.uniform("u_alpha"), 1.0f);

  Framebuffer fb(w, h);
  const GLfloat clear[4] = {0, 0, 0, 0};
  glClearNamedFramebufferfv(fb.id(), GL_COLOR, 0, clear);
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  glViewport(0, 0, w, h);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glUseProgram(program.id());
  glBindVertexArray(vao.id());
  glDrawArrays(GL_POINTS, 0, GLsizei(spots.size()));
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, platform_->target_framebuffer());
  glViewport(0, 0, platform_->framebuffer_width(), platform_->framebuffer_height());

  std::vector<uint8_t> want(size_t(w) * h * 4, 0);
  for (const Spot& s : spots) {
    uint8_t* p = &want[(size_t(s.y) * w + s.x) * 4];
    p[0] = s.r;
    p[1] = s.g;
    p[2] = s.b;
    p[3] = 255;
  }
  const auto got = read_pixels_top_down(fb.id(), w, h);
  ASSERT_EQ(got.size(), want.size());
  int wrong = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint8_t* g = &got[(size_t(y) * w + x) * 4];
      const uint8_t* e = &want[(size_t(y) * w + x) * 4];
      if (std::memcmp(g, e, 4) != 0 && wrong++ < 8)
        ADD_FAILURE() << "pixel x=" << x << " y=" << y << " (from top): got " << int(g[0]) << "," << int(g[1])
                      << "," << int(g[2]) << "," << int(g[3]) << ", want " << int(e[0]) << "," << int(e[1])
                      << "," << int(e[2]) << "," << int(e[3]);
    }
  EXPECT_EQ(wrong, 0);
}

TEST_F(GlVertexPixel, AttributeSetupIsRecordedInTheVao) {
  Buffer buffer = Buffer::dynamic(64);
  VertexArray vao;
  vao.set_vertex_buffer(3, buffer, 16, 4);
  vao.set_float_attribute(2, 3, 3, 8);
  GLint enabled = 0, size = 0, binding = -1, relative = -1, type = 0;
  glGetVertexArrayIndexediv(vao.id(), 2, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
  glGetVertexArrayIndexediv(vao.id(), 2, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
  // GL_VERTEX_ATTRIB_BINDING is not a pname of glGetVertexArrayIndexediv in GL 4.5 (Mesa accepts it,
  // NVIDIA does not): ask through the bound VAO.
  glBindVertexArray(vao.id());
  glGetVertexAttribiv(2, GL_VERTEX_ATTRIB_BINDING, &binding);
  glBindVertexArray(0);
  glGetVertexArrayIndexediv(vao.id(), 2, GL_VERTEX_ATTRIB_RELATIVE_OFFSET, &relative);
  glGetVertexArrayIndexediv(vao.id(), 2, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
  EXPECT_EQ(enabled, GL_TRUE);
  EXPECT_EQ(size, 3);
  EXPECT_EQ(binding, 3);
  EXPECT_EQ(relative, 8);
  EXPECT_EQ(type, GL_FLOAT);
  GLint stride = 0, buffer_name = 0;
  GLint64 offset = -1;
  glGetVertexArrayIndexediv(vao.id(), 3, GL_VERTEX_BINDING_STRIDE, &stride);
  glGetVertexArrayIndexediv(vao.id(), 3, GL_VERTEX_BINDING_BUFFER, &buffer_name);
  glGetVertexArrayIndexed64iv(vao.id(), 3, GL_VERTEX_BINDING_OFFSET, &offset);
  EXPECT_EQ(stride, 16);
  EXPECT_EQ(GLuint(buffer_name), buffer.id());
  EXPECT_EQ(offset, 4);
  vao.set_binding_divisor(3, 1);
  GLint divisor = -1;
  glGetVertexArrayIndexediv(vao.id(), 3, GL_VERTEX_BINDING_DIVISOR, &divisor);
  EXPECT_EQ(divisor, 1);
  vao.disable_attribute(2);
  glGetVertexArrayIndexediv(vao.id(), 2, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
  EXPECT_EQ(enabled, GL_FALSE);

  EXPECT_THROW(vao.set_float_attribute(0, 0, 5, 0), GlError);
  EXPECT_THROW(vao.set_float_attribute(0, 0, 0, 0), GlError);
  EXPECT_THROW(vao.set_vertex_buffer(0, Buffer(), 16), GlError);
  EXPECT_THROW(vao.set_vertex_buffer(0, buffer, 0), GlError);
  // GL's own limit (GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET, at least 2047) becomes a GlError.
  GLint max_relative = 0;
  glGetIntegerv(GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET, &max_relative);
  EXPECT_THROW(vao.set_float_attribute(0, 0, 1, GLuint(max_relative) + 1), GlError);
}

TEST_F(GlVertexPixel, BufferUploadAndDownloadCheckTheirRange) {
  std::vector<uint32_t> words(20);
  for (size_t i = 0; i < words.size(); ++i) words[i] = uint32_t(i * 2654435761u);
  Buffer buffer = Buffer::dynamic(words.size() * 4, words.data());
  std::vector<uint32_t> back(words.size(), 0);
  buffer.download(back.data(), back.size() * 4);
  EXPECT_EQ(back, words);

  const uint32_t patch[2] = {0xDEADBEEFu, 0x01234567u};
  buffer.upload(patch, sizeof patch, 5 * 4);
  words[5] = patch[0];
  words[6] = patch[1];
  uint32_t middle[4] = {};
  buffer.download(middle, sizeof middle, 4 * 4);
  EXPECT_EQ(middle[0], words[4]);
  EXPECT_EQ(middle[1], words[5]);
  EXPECT_EQ(middle[2], words[6]);
  EXPECT_EQ(middle[3], words[7]);

  EXPECT_THROW(buffer.upload(patch, sizeof patch, buffer.size() - 4), GlError);
  EXPECT_THROW(buffer.upload(patch, sizeof patch, buffer.size() + 8), GlError);
  EXPECT_THROW(buffer.download(middle, sizeof middle, buffer.size() - 8), GlError);
  Buffer fixed(16, nullptr, 0);  // immutable contents: glNamedBufferSubData would fail
  EXPECT_THROW(fixed.upload(patch, sizeof patch), GlError);
  EXPECT_THROW(Buffer().upload(patch, sizeof patch), GlError);
}

// ---------------------------------------------------------------------------------------------
TEST_F(GlVertexPixel, PixelBufferUploadEqualsADirectUpload) {
  const int w = 37, h = 23;
  const auto pixels = rgba_pattern(w, h);
  std::vector<uint32_t> words(pixels.size() / 4);
  std::memcpy(words.data(), pixels.data(), pixels.size());

  Texture2D direct(GL_RGBA8, w, h);
  direct.upload_rgba8_top_down(words.data());

  // The pixels 8 bytes into the buffer, behind junk that an ignored offset would show.
  const size_t offset = 8;
  std::vector<uint8_t> staged(offset, 0x5A);
  staged.insert(staged.end(), pixels.begin(), pixels.end());
  Buffer pbo = Buffer::dynamic(staged.size(), staged.data());

  // Someone else's unpack state and binding: ignored for the upload, restored afterwards.
  Buffer other = Buffer::dynamic(16);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, other.id());
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 5);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 2);
  Texture2D via_pbo(GL_RGBA8, w, h);
  via_pbo.upload_from_pixel_buffer(pbo, GL_RGBA, GL_UNSIGNED_BYTE, offset);
  GLint bound = 0, row_length = 0, skip_rows = 0;
  glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &bound);
  glGetIntegerv(GL_UNPACK_ROW_LENGTH, &row_length);
  glGetIntegerv(GL_UNPACK_SKIP_ROWS, &skip_rows);
  EXPECT_EQ(GLuint(bound), other.id());
  EXPECT_EQ(row_length, 5);
  EXPECT_EQ(skip_rows, 2);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);

  EXPECT_EQ(texture_bytes(direct, GL_RGBA, 4), pixels);
  EXPECT_EQ(texture_bytes(via_pbo, GL_RGBA, 4), pixels);

  EXPECT_THROW(via_pbo.upload_from_pixel_buffer(pbo, GL_RGBA, GL_UNSIGNED_BYTE, offset + 4), GlError)
      << "4 bytes short";
  EXPECT_THROW(via_pbo.upload_from_pixel_buffer(Buffer(), GL_RGBA, GL_UNSIGNED_BYTE), GlError);
  Buffer floats = Buffer::dynamic(size_t(w) * h * 16 + 16);
  Texture2D float_texture(GL_RGBA32F, w, h);
  EXPECT_THROW(float_texture.upload_from_pixel_buffer(floats, GL_RGBA, GL_FLOAT, 2), GlError)
      << "an offset inside a float";
  EXPECT_NO_THROW(float_texture.upload_from_pixel_buffer(floats, GL_RGBA, GL_FLOAT, 16));
  EXPECT_THROW(via_pbo.upload_from_pixel_buffer(pbo, GL_RGBA, GL_UNSIGNED_INT_8_8_8_8), GlError)
      << "packed types are not described";
}

TEST_F(GlVertexPixel, GreyImagesUploadAsR8WithOddWidths) {
  const int w = 37, h = 23;  // 37 bytes a row: a 4-byte unpack alignment would shear it
  const auto grey = grey_pattern(w, h);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // the GL default, left as someone else set it
  Texture2D texture(GL_R8, w, h);
  texture.upload_r8_top_down(grey.data());
  GLint alignment = 0;
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
  EXPECT_EQ(alignment, 4) << "restored";
  EXPECT_EQ(texture_bytes(texture, GL_RED, 1), grey);

  // The same through a pixel buffer.
  Buffer pbo = Buffer::dynamic(grey.size(), grey.data());
  Texture2D via_pbo(GL_R8, w, h);
  via_pbo.upload_from_pixel_buffer(pbo, GL_RED, GL_UNSIGNED_BYTE);
  EXPECT_EQ(texture_bytes(via_pbo, GL_RED, 1), grey);

  // The generic form, e.g. floats into R32F.
  std::vector<float> values(size_t(w) * h);
  for (size_t i = 0; i < values.size(); ++i) values[i] = float(i) * 0.25f - 3.0f;
  Texture2D r32f(GL_R32F, w, h);
  r32f.upload_top_down(GL_RED, GL_FLOAT, values.data());
  std::vector<float> back(values.size(), 0.0f);
  glGetTextureImage(r32f.id(), 0, GL_RED, GL_FLOAT, GLsizei(back.size() * 4), back.data());
  EXPECT_EQ(back, values);

  Texture2D rgba(GL_RGBA8, w, h);
  EXPECT_THROW(rgba.upload_r8_top_down(grey.data()), GlError) << "not an R8 texture";
  EXPECT_THROW(texture.upload_r8_top_down(nullptr), GlError);
}

TEST_F(GlVertexPixel, GreySwizzleShowsR8AsGrey) {
  const int w = 13, h = 7;
  const auto grey = grey_pattern(w, h);
  Texture2D texture(GL_R8, w, h);
  texture.upload_r8_top_down(grey.data());
  texture.set_swizzle_grey();
  Framebuffer fb(w, h);
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  TexturedQuad().draw(texture, 0, 0, w, h);
  glBindFramebuffer(GL_FRAMEBUFFER, platform_->target_framebuffer());
  const auto got = read_pixels_top_down(fb.id(), w, h);
  std::vector<uint8_t> want(size_t(w) * h * 4);
  for (size_t i = 0; i < grey.size(); ++i) {
    want[i * 4 + 0] = want[i * 4 + 1] = want[i * 4 + 2] = grey[i];
    want[i * 4 + 3] = 255;
  }
  EXPECT_EQ(got, want);
}

TEST(GlPixelBytes, ClientFormatsAndTypes) {
  EXPECT_EQ(client_pixel_bytes(GL_RGBA, GL_UNSIGNED_BYTE), 4u);
  EXPECT_EQ(client_pixel_bytes(GL_RED, GL_UNSIGNED_BYTE), 1u);
  EXPECT_EQ(client_pixel_bytes(GL_RG, GL_HALF_FLOAT), 4u);
  EXPECT_EQ(client_pixel_bytes(GL_BGR, GL_UNSIGNED_SHORT), 6u);
  EXPECT_EQ(client_pixel_bytes(GL_RGBA, GL_FLOAT), 16u);
  EXPECT_EQ(client_pixel_bytes(GL_RED_INTEGER, GL_INT), 4u);
  EXPECT_THROW(client_pixel_bytes(GL_RGBA, GL_UNSIGNED_INT_8_8_8_8), GlError);
  EXPECT_THROW(client_pixel_bytes(GL_RGBA8, GL_UNSIGNED_BYTE), GlError) << "an internal format";
}

}  // namespace
}  // namespace gpulab::gl

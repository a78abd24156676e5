#pragma once
// Move-only RAII for GL objects, shader programs loaded from shaders/, and helpers shared by demos.
// Include this instead of <glad/gl.h> directly.
//
// Row order, one convention everywhere: texture row y holds image row y, where image row 0 is the
// TOP of the picture (top-down, like PNG files, and like a CUDA kernel that writes image row y
// with surf2Dwrite(..., x, y)). GL calls texture row 0 the "bottom" (t = 0), so uploads are plain
// copies and the flip happens in exactly two places: TexturedQuad flips v when it samples, and
// read_pixels_top_down reverses glReadPixels' bottom-up rows.
#include <glad/gl.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpulab::gl {

class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A GL name with a deleter; move-only, deletes in the destructor (never throws).
template <void (*Delete)(GLuint)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(GLuint id) : id_(id) {}
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }
  void reset() {
    if (id_) Delete(id_);
    id_ = 0;
  }
  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }

 private:
  GLuint id_ = 0;
};

void delete_texture(GLuint id);
void delete_buffer(GLuint id);
void delete_framebuffer(GLuint id);
void delete_renderbuffer(GLuint id);
void delete_vertex_array(GLuint id);
void delete_program(GLuint id);

class Texture2D {
 public:
  Texture2D() = default;
  // Immutable storage (glTextureStorage2D), nearest filtering, clamp to edge.
  Texture2D(GLenum internal_format, int width, int height);
  GLuint id() const { return handle_.id(); }
  int width() const { return width_; }
  int height() const { return height_; }
  GLenum format() const { return format_; }
  explicit operator bool() const { return bool(handle_); }
  // Uploads width × height tightly packed RGBA8 pixels (bytes R, G, B, A in memory order) as they
  // are: image row 0 (the top) goes to texture row 0. Ignores any bound pixel-unpack buffer.
  void upload_rgba8_top_down(const uint32_t* rgba);
  void set_filter(GLenum min_filter, GLenum mag_filter);

 private:
  Handle<delete_texture> handle_;
  int width_ = 0, height_ = 0;
  GLenum format_ = 0;
};

class Buffer {
 public:
  Buffer() = default;
  Buffer(size_t bytes, const void* data, GLbitfield flags);  // glNamedBufferStorage
  GLuint id() const { return handle_.id(); }
  size_t size() const { return size_; }
  explicit operator bool() const { return bool(handle_); }

 private:
  Handle<delete_buffer> handle_;
  size_t size_ = 0;
};

// RGBA8 colour + depth/stencil renderbuffer framebuffer.
class Framebuffer {
 public:
  Framebuffer() = default;
  Framebuffer(int width, int height);
  GLuint id() const { return fbo_.id(); }
  int width() const { return width_; }
  int height() const { return height_; }
  const Texture2D& colour() const { return colour_; }  // the RGBA8 colour attachment

 private:
  Handle<delete_framebuffer> fbo_;
  Texture2D colour_;
  Handle<delete_renderbuffer> depth_;
  int width_ = 0, height_ = 0;
};

class VertexArray {
 public:
  VertexArray();
  GLuint id() const { return handle_.id(); }

 private:
  Handle<delete_vertex_array> handle_;
};

class Program {
 public:
  Program() = default;
  // Compiles and links; on failure throws GlError with the log and the numbered source.
  static Program from_source(const std::string& vertex_src, const std::string& fragment_src,
                             const std::string& name);
  // Loads shaders/<vertex_file> and shaders/<fragment_file> (see shader_dir()).
  static Program from_files(const std::string& vertex_file, const std::string& fragment_file);
  GLuint id() const { return handle_.id(); }
  GLint uniform(const char* name) const;

 private:
  Handle<delete_program> handle_;
};

// Where shaders/ is: next to the executable (the build-time copy), else the source tree.
std::filesystem::path shader_dir();
std::string read_text_file(const std::filesystem::path& path);  // throws GlError naming the file

// Draws `texture` into the viewport rectangle (x, y, w, h) of the bound draw framebuffer, with
// texture row 0 shown at the top of that rectangle (top-down images). (x, y) is the rectangle's
// lower-left corner in GL window coordinates, exactly as glViewport takes it: a rectangle whose top
// edge is `top` pixels below the top of a framebuffer of height H has y = H - top - h.
// Sampling uses the texture's own filter (nearest by default: pixel-exact at 1:1 and integer zoom).
// Depth test, blending, scissor, culling and sRGB conversion are off for the draw, and they and the
// viewport are restored afterwards. Owns its program (shaders/quad.vert, quad.frag) and an
// empty VAO.
class TexturedQuad {
 public:
  TexturedQuad();
  void draw(const Texture2D& texture, int x, int y, int w, int h) const;

 private:
  Program program_;
  VertexArray vao_;
  GLint rect_location_ = -1;
};

// Reads the colour of framebuffer `fbo` (0 = default) as RGBA8, row 0 = top.
std::vector<uint8_t> read_pixels_top_down(GLuint fbo, int width, int height);

// In debug builds (a context with the debug flag): a GL debug-message callback that prints errors,
// warnings and performance notes to stderr. Does nothing on a context without the debug flag.
void enable_debug_output();

}  // namespace gpulab::gl

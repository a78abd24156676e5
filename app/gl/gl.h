#pragma once
// Move-only RAII for GL objects, shader programs loaded from shaders/, and helpers shared by demos.
// Include this instead of <glad/gl.h> directly.
//
// Row order, one convention everywhere: texture row y holds image row y, where image row 0 is the
// TOP of the picture (top-down, like PNG files, and like a CUDA kernel that writes image row y
// with surf2Dwrite(..., x, y)). GL calls texture row 0 the "bottom" (t = 0), so uploads are plain
// copies and the flip happens in exactly two places: TexturedQuad flips v when it samples, and
// flip_rows reverses glReadPixels' bottom-up rows (read_pixels_top_down and the recorder's PNG
// frames use it; the recorder's video frames go to ffmpeg bottom-up, with its vflip filter). The same
// holds for every upload path here (host pointer, pixel-unpack buffer, any format): row 0 of the
// source is texture row 0.
#include <glad/gl.h>

#include <glm/glm.hpp>

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

// A fence after the GL commands issued so far (glFenceSync); move-only, deleted in the destructor.
class Fence {
 public:
  Fence() = default;
  Fence(Fence&& o) noexcept : sync_(std::exchange(o.sync_, nullptr)) {}
  Fence& operator=(Fence&& o) noexcept {
    if (this != &o) {
      reset();
      sync_ = std::exchange(o.sync_, nullptr);
    }
    return *this;
  }
  Fence(const Fence&) = delete;
  Fence& operator=(const Fence&) = delete;
  ~Fence() { reset(); }
  // Puts a fence after the commands issued so far (the one held before goes).
  void place();
  // Waits (flushing first) until the GPU has done every command before the fence, at most
  // `timeout_ns`; true when it has (or no fence is placed). The fence goes either way.
  bool wait(unsigned long long timeout_ns = 1000000000ull);
  void reset();
  explicit operator bool() const { return sync_ != nullptr; }

 private:
  GLsync sync_ = nullptr;
};

class Buffer;

// Bytes a pixel of client `format` (GL_RED, GL_RG, GL_RGB, GL_BGR, GL_RGBA, GL_BGRA, their
// _INTEGER forms, GL_DEPTH_COMPONENT) and component `type` (GL_UNSIGNED_BYTE ... GL_FLOAT,
// GL_HALF_FLOAT) take in memory; throws GlError for other (e.g. packed) combinations.
size_t client_pixel_bytes(GLenum format, GLenum type);

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
  // The same for one byte a pixel (grey images) into an R8 texture; rows are tightly packed
  // (no 4-byte row alignment), so odd widths work. Throws GlError unless format() is GL_R8.
  void upload_r8_top_down(const uint8_t* grey);
  // Any client format/type pair (GL_RG + GL_FLOAT, GL_RED + GL_UNSIGNED_SHORT...), tightly packed
  // rows, whole texture, top-down. GL converts to the internal format as glTextureSubImage2D does.
  void upload_top_down(GLenum format, GLenum type, const void* pixels);
  // The whole texture from a pixel-unpack buffer (PBO): the pixels start `offset` bytes into
  // `pbo`, tightly packed rows, image row 0 first, as for the host uploads. GL copies buffer to
  // texture without a trip through host memory (CUDA can fill the buffer through interop, e.g. an
  // InteropBuffer of width × height pixels, unmapped by then). The previous GL_PIXEL_UNPACK_BUFFER
  // binding and unpack state are restored. Throws GlError when the buffer is too small for
  // width × height pixels of format/type, or `offset` splits a component.
  void upload_from_pixel_buffer(const Buffer& pbo, GLenum format, GLenum type, size_t offset = 0);
  void set_filter(GLenum min_filter, GLenum mag_filter);
  // Shows a one-channel texture as grey (swizzle R, R, R, 1) wherever it is sampled, e.g. by
  // TexturedQuad; without it an R8 texture looks red.
  void set_swizzle_grey();

 private:
  void upload(GLenum format, GLenum type, const void* pixels, const char* what);
  Handle<delete_texture> handle_;
  int width_ = 0, height_ = 0;
  GLenum format_ = 0;
};

class Buffer {
 public:
  Buffer() = default;
  Buffer(size_t bytes, const void* data, GLbitfield flags);  // glNamedBufferStorage
  // Storage that upload() may rewrite (GL_DYNAMIC_STORAGE_BIT): vertex buffers refilled every
  // frame by the host, pixel-unpack buffers. `data` may be null (contents undefined).
  static Buffer dynamic(size_t bytes, const void* data = nullptr) {
    return Buffer(bytes, data, GL_DYNAMIC_STORAGE_BIT);
  }
  GLuint id() const { return handle_.id(); }
  size_t size() const { return size_; }
  GLbitfield flags() const { return flags_; }
  explicit operator bool() const { return bool(handle_); }
  // glNamedBufferSubData: `bytes` from `data` into the buffer at `offset`. Throws GlError when the
  // range does not fit or the storage lacks GL_DYNAMIC_STORAGE_BIT (GL would refuse it).
  void upload(const void* data, size_t bytes, size_t offset = 0);
  // glGetNamedBufferSubData: `bytes` at `offset` into `data` (waits for GL; tests, read-backs).
  void download(void* data, size_t bytes, size_t offset = 0) const;

 private:
  void check_range(const char* what, size_t bytes, size_t offset) const;
  Handle<delete_buffer> handle_;
  size_t size_ = 0;
  GLbitfield flags_ = 0;
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

// Vertex attributes the GL 4.5 way (direct state access; nothing is bound to set them up): a
// buffer goes to a binding point with its stride, and each attribute location reads from one
// binding at a relative offset. E.g. for struct V { float x, y, z, mass; }:
//   vao.set_vertex_buffer(0, buffer, sizeof(V));
//   vao.set_float_attribute(0, 0, 3, offsetof(V, x));     // location 0: vec3 position
//   vao.set_float_attribute(1, 0, 1, offsetof(V, mass));  // location 1: float
// The VAO keeps the buffer's GL name, not the Buffer: re-point it after the buffer is re-created.
class VertexArray {
 public:
  VertexArray();
  GLuint id() const { return handle_.id(); }
  // glVertexArrayVertexBuffer: `buffer` (from byte `offset`) feeds binding point `binding`, one
  // element every `stride` bytes. Throws GlError on an empty buffer or a stride GL refuses.
  void set_vertex_buffer(GLuint binding, const Buffer& buffer, GLsizei stride, GLintptr offset = 0);
  // glVertexArrayAttribFormat + glVertexArrayAttribBinding + glEnableVertexArrayAttrib: location
  // `location` reads `components` (1-4) values of `type` at `relative_offset` bytes into each
  // element of binding `binding`, and the shader sees floats (GL_FLOAT as is; integer types
  // converted, scaled to [0, 1] / [-1, 1] when `normalized`, e.g. GL_UNSIGNED_BYTE colours).
  void set_float_attribute(GLuint location, GLuint binding, GLint components, GLuint relative_offset,
                           GLenum type = GL_FLOAT, bool normalized = false);
  void disable_attribute(GLuint location);
  // Instanced drawing: binding `binding` advances once every `divisor` instances (0: per vertex).
  void set_binding_divisor(GLuint binding, GLuint divisor);

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

  // glProgramUniform*: no glUseProgram needed. A location of -1 (a name the linker removed or
  // that does not exist) is silently ignored, as GL does; check uniform() once where it matters.
  void set_uniform(GLint location, float v) const;
  void set_uniform(GLint location, int v) const;
  void set_uniform(GLint location, const glm::vec2& v) const;
  void set_uniform(GLint location, const glm::vec3& v) const;
  void set_uniform(GLint location, const glm::vec4& v) const;
  void set_uniform(GLint location, const glm::mat4& m) const;  // column-major, as GLSL
  template <class T>
  void set_uniform(const char* name, const T& v) const {
    set_uniform(uniform(name), v);
  }

 private:
  Handle<delete_program> handle_;
};

// Where shaders/ is: next to the executable (the build-time copy), else the source tree.
std::filesystem::path shader_dir();
std::string read_text_file(const std::filesystem::path& path);  // throws GlError naming the file

// While it lives: the viewport (x, y, w, h), and depth test, blending, scissor, culling, stencil and
// sRGB conversion off; all as they were afterwards. For drawing a full-screen-triangle quad into
// part of whatever framebuffer is bound, without disturbing the caller's state (ImGui's, a demo's).
class QuadDrawState {
 public:
  QuadDrawState(int x, int y, int w, int h);
  ~QuadDrawState();
  QuadDrawState(const QuadDrawState&) = delete;
  QuadDrawState& operator=(const QuadDrawState&) = delete;

 private:
  GLint viewport_[4] = {};
  GLboolean enabled_[6] = {};
};

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

// Reverses the order of `height` rows of `row_bytes` bytes each, in place: glReadPixels' bottom-up
// rows become top-down image rows (and back).
void flip_rows(uint8_t* pixels, size_t row_bytes, int height);

// In debug builds (a context with the debug flag): a GL debug-message callback that prints errors,
// warnings and performance notes to stderr. Does nothing on a context without the debug flag.
void enable_debug_output();

// GL_MAX_TEXTURE_SIZE of the current context: the largest image side a texture takes. The environment's
// GPULAB_MAX_TEXTURE lowers it, never raises it: NVIDIA's GL takes 32768 pixels a side, as many as the
// image readers take, so only a lower limit shows the refusal of a file over it there (the tests).
int max_texture_size();

}  // namespace gpulab::gl

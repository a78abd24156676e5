// GL 4.5 RAII objects (direct state access throughout), shader loading with numbered-source
// errors, the textured quad and the top-down read-back. Row-order convention: see gl.h.
#include "gl/gl.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

namespace gpulab::gl {

void Fence::place() {
  reset();
  sync_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

bool Fence::wait(unsigned long long timeout_ns) {
  if (!sync_) return true;
  const GLenum r = glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, timeout_ns);
  reset();
  return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
}

void Fence::reset() {
  if (sync_) glDeleteSync(sync_);
  sync_ = nullptr;
}

void delete_texture(GLuint id) { glDeleteTextures(1, &id); }
void delete_buffer(GLuint id) { glDeleteBuffers(1, &id); }
void delete_framebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }
void delete_renderbuffer(GLuint id) { glDeleteRenderbuffers(1, &id); }
void delete_vertex_array(GLuint id) { glDeleteVertexArrays(1, &id); }
void delete_program(GLuint id) { glDeleteProgram(id); }

namespace {

void delete_shader(GLuint id) { glDeleteShader(id); }
using Shader = Handle<delete_shader>;

const char* gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW:
      return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW:
      return "GL_STACK_UNDERFLOW";
    default:
      return "unknown GL error";
  }
}

// Object creation is rare, so it can afford glGetError. Errors raised before the call are drained
// first so that they are not blamed on it.
void drain_gl_errors() {
  for (int i = 0; i < 64 && glGetError() != GL_NO_ERROR; ++i) {
  }
}
void throw_on_gl_error(const std::string& what) {
  const GLenum e = glGetError();
  if (e != GL_NO_ERROR) {
    drain_gl_errors();
    throw GlError(what + " failed: " + gl_error_name(e));
  }
}

std::string hex(GLenum value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%04X", value);
  return text;
}

void require_context(const char* what) {
  // A call without a current context would crash inside glad's null function pointers.
  if (glGetString == nullptr || glGetString(GL_VERSION) == nullptr)
    throw GlError(std::string(what) + ": no current OpenGL context (or GL functions not loaded)");
}

std::string numbered(const std::string& source) {
  std::ostringstream out;
  std::istringstream in(source);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%4d | ", n);
    out << prefix << line << '\n';
  }
  return out.str();
}

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(std::max(length, 1), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(std::max(length, 1), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

Shader compile(GLenum stage, const std::string& source, const std::string& name) {
  const char* stage_name = stage == GL_VERTEX_SHADER ? "vertex" : "fragment";
  Shader shader(glCreateShader(stage));
  if (!shader) throw GlError(name + ": glCreateShader(" + stage_name + ") failed");
  const char* text = source.c_str();
  const GLint length = static_cast<GLint>(source.size());
  glShaderSource(shader.id(), 1, &text, &length);
  glCompileShader(shader.id());
  GLint ok = GL_FALSE;
  glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
  if (!ok) {
    throw GlError(name + ": " + stage_name + " shader failed to compile:\n" + shader_log(shader.id()) +
                  "\n--- " + stage_name + " shader source ---\n" + numbered(source));
  }
  return shader;
}

size_t format_components(GLenum format) {
  switch (format) {
    case GL_RED:
    case GL_GREEN:
    case GL_BLUE:
    case GL_RED_INTEGER:
    case GL_GREEN_INTEGER:
    case GL_BLUE_INTEGER:
    case GL_DEPTH_COMPONENT:
    case GL_STENCIL_INDEX:
      return 1;
    case GL_RG:
    case GL_RG_INTEGER:
      return 2;
    case GL_RGB:
    case GL_BGR:
    case GL_RGB_INTEGER:
    case GL_BGR_INTEGER:
      return 3;
    case GL_RGBA:
    case GL_BGRA:
    case GL_RGBA_INTEGER:
    case GL_BGRA_INTEGER:
      return 4;
    default:
      throw GlError("unsupported client pixel format " + hex(format));
  }
}

size_t type_bytes(GLenum type) {
  switch (type) {
    case GL_UNSIGNED_BYTE:
    case GL_BYTE:
      return 1;
    case GL_UNSIGNED_SHORT:
    case GL_SHORT:
    case GL_HALF_FLOAT:
      return 2;
    case GL_UNSIGNED_INT:
    case GL_INT:
    case GL_FLOAT:
      return 4;
    default:
      throw GlError("unsupported client pixel type " + hex(type) + " (packed types are not handled)");
  }
}

// Tightly packed rows (alignment 1, no row length, no skips) read from `unpack_buffer` (0: host
// memory) for the lifetime of the object; the caller's unpack state is restored afterwards, so
// state left behind by someone else (ImGui, a previous upload) can neither shear the image nor
// turn a host pointer into a buffer offset.
class TightUnpack {
 public:
  explicit TightUnpack(GLuint unpack_buffer) {
    glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &buffer_);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment_);
    glGetIntegerv(GL_UNPACK_ROW_LENGTH, &row_length_);
    glGetIntegerv(GL_UNPACK_SKIP_ROWS, &skip_rows_);
    glGetIntegerv(GL_UNPACK_SKIP_PIXELS, &skip_pixels_);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, unpack_buffer);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  }
  TightUnpack(const TightUnpack&) = delete;
  TightUnpack& operator=(const TightUnpack&) = delete;
  ~TightUnpack() {
    glPixelStorei(GL_UNPACK_ALIGNMENT, alignment_);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, row_length_);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, skip_rows_);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, skip_pixels_);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, static_cast<GLuint>(buffer_));
  }

 private:
  GLint buffer_ = 0, alignment_ = 4, row_length_ = 0, skip_rows_ = 0, skip_pixels_ = 0;
};

// Which capabilities QuadDrawState turns off and restores afterwards.
constexpr GLenum kQuadDisabledCaps[] = {GL_DEPTH_TEST, GL_BLEND,        GL_SCISSOR_TEST,
                                        GL_CULL_FACE,  GL_STENCIL_TEST, GL_FRAMEBUFFER_SRGB};

}  // namespace

size_t client_pixel_bytes(GLenum format, GLenum type) { return format_components(format) * type_bytes(type); }

// ---------------------------------------------------------------------------------------------
Texture2D::Texture2D(GLenum internal_format, int width, int height)
    : width_(width), height_(height), format_(internal_format) {
  if (width <= 0 || height <= 0)
    throw GlError("Texture2D: size " + std::to_string(width) + "x" + std::to_string(height) + " is empty");
  require_context("Texture2D");
  drain_gl_errors();
  GLuint id = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &id);
  handle_ = Handle<delete_texture>(id);
  glTextureStorage2D(id, 1, internal_format, width, height);
  glTextureParameteri(id, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(id, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(id, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(id, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  throw_on_gl_error("Texture2D: glTextureStorage2D(" + std::to_string(width) + "x" + std::to_string(height) +
                    ", format " + hex(internal_format) + ")");
}

void Texture2D::upload_rgba8_top_down(const uint32_t* rgba) {
  upload(GL_RGBA, GL_UNSIGNED_BYTE, rgba, "Texture2D::upload_rgba8_top_down");
}

void Texture2D::upload_r8_top_down(const uint8_t* grey) {
  if (handle_ && format_ != GL_R8)
    throw GlError("Texture2D::upload_r8_top_down: the texture's format is " + hex(format_) + ", not GL_R8");
  upload(GL_RED, GL_UNSIGNED_BYTE, grey, "Texture2D::upload_r8_top_down");
}

void Texture2D::upload_top_down(GLenum format, GLenum type, const void* pixels) {
  (void)client_pixel_bytes(format, type);  // rejects combinations the tight packing cannot describe
  upload(format, type, pixels, "Texture2D::upload_top_down");
}

void Texture2D::upload(GLenum format, GLenum type, const void* pixels, const char* what) {
  if (!handle_) throw GlError(std::string(what) + " on an empty texture");
  if (pixels == nullptr) throw GlError(std::string(what) + ": null pixels");
  // No pixel-unpack buffer: the pointer is a host address, not an offset.
  const TightUnpack unpack(0);
  glTextureSubImage2D(handle_.id(), 0, 0, 0, width_, height_, format, type, pixels);
}

void Texture2D::upload_from_pixel_buffer(const Buffer& pbo, GLenum format, GLenum type, size_t offset) {
  const char* what = "Texture2D::upload_from_pixel_buffer";
  if (!handle_) throw GlError(std::string(what) + " on an empty texture");
  if (!pbo) throw GlError(std::string(what) + ": empty pixel buffer");
  const size_t pixel_bytes = client_pixel_bytes(format, type);
  const size_t needed = pixel_bytes * size_t(width_) * size_t(height_);
  if (offset > pbo.size() || pbo.size() - offset < needed)
    throw GlError(std::string(what) + ": " + std::to_string(width_) + "x" + std::to_string(height_) +
                  " pixels of " + std::to_string(pixel_bytes) + " bytes from offset " +
                  std::to_string(offset) + " need " + std::to_string(needed) + " bytes, the buffer has " +
                  std::to_string(pbo.size()));
  // GL refuses an offset that is not a whole number of components (GL_INVALID_OPERATION).
  const size_t component_bytes = pixel_bytes / format_components(format);
  if (offset % component_bytes != 0)
    throw GlError(std::string(what) + ": offset " + std::to_string(offset) +
                  " is not a multiple of the component size " + std::to_string(component_bytes));
  const TightUnpack unpack(pbo.id());
  glTextureSubImage2D(handle_.id(), 0, 0, 0, width_, height_, format, type,
                      reinterpret_cast<const void*>(static_cast<uintptr_t>(offset)));
}

void Texture2D::set_filter(GLenum min_filter, GLenum mag_filter) {
  if (!handle_) throw GlError("Texture2D::set_filter on an empty texture");
  glTextureParameteri(handle_.id(), GL_TEXTURE_MIN_FILTER, static_cast<GLint>(min_filter));
  glTextureParameteri(handle_.id(), GL_TEXTURE_MAG_FILTER, static_cast<GLint>(mag_filter));
}

void Texture2D::set_swizzle_grey() {
  if (!handle_) throw GlError("Texture2D::set_swizzle_grey on an empty texture");
  const GLint swizzle[4] = {GL_RED, GL_RED, GL_RED, GL_ONE};
  glTextureParameteriv(handle_.id(), GL_TEXTURE_SWIZZLE_RGBA, swizzle);
}

// ---------------------------------------------------------------------------------------------
Buffer::Buffer(size_t bytes, const void* data, GLbitfield flags) : size_(bytes), flags_(flags) {
  if (bytes == 0) throw GlError("Buffer: size 0 (glNamedBufferStorage needs at least one byte)");
  require_context("Buffer");
  drain_gl_errors();
  GLuint id = 0;
  glCreateBuffers(1, &id);
  handle_ = Handle<delete_buffer>(id);
  glNamedBufferStorage(id, static_cast<GLsizeiptr>(bytes), data, flags);
  throw_on_gl_error("Buffer: glNamedBufferStorage(" + std::to_string(bytes) + " bytes)");
}

void Buffer::check_range(const char* what, size_t bytes, size_t offset) const {
  if (!handle_) throw GlError(std::string(what) + " on an empty buffer");
  if (offset > size_ || size_ - offset < bytes)
    throw GlError(std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " +
                  std::to_string(offset) + " do not fit in a buffer of " + std::to_string(size_));
}

void Buffer::upload(const void* data, size_t bytes, size_t offset) {
  check_range("Buffer::upload", bytes, offset);
  if (!(flags_ & GL_DYNAMIC_STORAGE_BIT))
    throw GlError(
        "Buffer::upload: the storage was made without GL_DYNAMIC_STORAGE_BIT "
        "(use Buffer::dynamic)");
  if (bytes == 0) return;
  if (data == nullptr) throw GlError("Buffer::upload: null data");
  glNamedBufferSubData(handle_.id(), static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
}

void Buffer::download(void* data, size_t bytes, size_t offset) const {
  check_range("Buffer::download", bytes, offset);
  if (bytes == 0) return;
  if (data == nullptr) throw GlError("Buffer::download: null destination");
  glGetNamedBufferSubData(handle_.id(), static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
}

// ---------------------------------------------------------------------------------------------
Framebuffer::Framebuffer(int width, int height)
    : colour_(GL_RGBA8, width, height), width_(width), height_(height) {
  drain_gl_errors();
  GLuint rb = 0;
  glCreateRenderbuffers(1, &rb);
  depth_ = Handle<delete_renderbuffer>(rb);
  glNamedRenderbufferStorage(rb, GL_DEPTH24_STENCIL8, width, height);
  GLuint fbo = 0;
  glCreateFramebuffers(1, &fbo);
  fbo_ = Handle<delete_framebuffer>(fbo);
  glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0, colour_.id(), 0);
  glNamedFramebufferRenderbuffer(fbo, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);
  throw_on_gl_error("Framebuffer: attaching " + std::to_string(width) + "x" + std::to_string(height) +
                    " colour + depth");
  const GLenum status = glCheckNamedFramebufferStatus(fbo, GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw GlError("Framebuffer: incomplete (glCheckNamedFramebufferStatus = " + hex(status) + ")");
}

// ---------------------------------------------------------------------------------------------
VertexArray::VertexArray() {
  require_context("VertexArray");
  GLuint id = 0;
  glCreateVertexArrays(1, &id);
  handle_ = Handle<delete_vertex_array>(id);
}

void VertexArray::set_vertex_buffer(GLuint binding, const Buffer& buffer, GLsizei stride, GLintptr offset) {
  if (!buffer) throw GlError("VertexArray::set_vertex_buffer: empty buffer");
  if (stride <= 0) throw GlError("VertexArray::set_vertex_buffer: stride must be positive");
  drain_gl_errors();
  glVertexArrayVertexBuffer(handle_.id(), binding, buffer.id(), offset, stride);
  throw_on_gl_error("VertexArray::set_vertex_buffer(binding " + std::to_string(binding) + ", stride " +
                    std::to_string(stride) + ", offset " + std::to_string(offset) + ")");
}

void VertexArray::set_float_attribute(GLuint location, GLuint binding, GLint components,
                                      GLuint relative_offset, GLenum type, bool normalized) {
  if (components < 1 || components > 4)
    throw GlError("VertexArray::set_float_attribute: " + std::to_string(components) + " components (1 to 4)");
  drain_gl_errors();
  const GLuint vao = handle_.id();
  glVertexArrayAttribFormat(vao, location, components, type, normalized ? GL_TRUE : GL_FALSE,
                            relative_offset);
  glVertexArrayAttribBinding(vao, location, binding);
  glEnableVertexArrayAttrib(vao, location);
  throw_on_gl_error("VertexArray::set_float_attribute(location " + std::to_string(location) + ", binding " +
                    std::to_string(binding) + ", " + std::to_string(components) + " x " + hex(type) + " at " +
                    std::to_string(relative_offset) + ")");
}

void VertexArray::disable_attribute(GLuint location) { glDisableVertexArrayAttrib(handle_.id(), location); }

void VertexArray::set_binding_divisor(GLuint binding, GLuint divisor) {
  glVertexArrayBindingDivisor(handle_.id(), binding, divisor);
}

// ---------------------------------------------------------------------------------------------
Program Program::from_source(const std::string& vertex_src, const std::string& fragment_src,
                             const std::string& name) {
  require_context("Program");
  Shader vs = compile(GL_VERTEX_SHADER, vertex_src, name);
  Shader fs = compile(GL_FRAGMENT_SHADER, fragment_src, name);
  Program program;
  program.handle_ = Handle<delete_program>(glCreateProgram());
  if (!program.handle_) throw GlError(name + ": glCreateProgram failed");
  const GLuint id = program.handle_.id();
  glAttachShader(id, vs.id());
  glAttachShader(id, fs.id());
  glLinkProgram(id);
  // The program keeps its linked code; detaching lets the shader objects die with `vs` and `fs`.
  glDetachShader(id, vs.id());
  glDetachShader(id, fs.id());
  GLint ok = GL_FALSE;
  glGetProgramiv(id, GL_LINK_STATUS, &ok);
  if (!ok) {
    throw GlError(name + ": program failed to link:\n" + program_log(id) +
                  "\n--- vertex shader source ---\n" + numbered(vertex_src) +
                  "--- fragment shader source ---\n" + numbered(fragment_src));
  }
  return program;
}

Program Program::from_files(const std::string& vertex_file, const std::string& fragment_file) {
  const std::filesystem::path dir = shader_dir();
  return from_source(read_text_file(dir / vertex_file), read_text_file(dir / fragment_file),
                     (dir / vertex_file).string() + " + " + fragment_file);
}

GLint Program::uniform(const char* name) const {
  // -1 (unknown or optimised away) is what glUniform* and glProgramUniform* silently ignore.
  return handle_ ? glGetUniformLocation(handle_.id(), name) : -1;
}

void Program::set_uniform(GLint location, float v) const { glProgramUniform1f(handle_.id(), location, v); }
void Program::set_uniform(GLint location, int v) const { glProgramUniform1i(handle_.id(), location, v); }
void Program::set_uniform(GLint location, const glm::vec2& v) const {
  glProgramUniform2f(handle_.id(), location, v.x, v.y);
}
void Program::set_uniform(GLint location, const glm::vec3& v) const {
  glProgramUniform3f(handle_.id(), location, v.x, v.y, v.z);
}
void Program::set_uniform(GLint location, const glm::vec4& v) const {
  glProgramUniform4f(handle_.id(), location, v.x, v.y, v.z, v.w);
}
void Program::set_uniform(GLint location, const glm::mat4& m) const {
  // glm stores columns contiguously, which is what GL means by transpose = GL_FALSE.
  glProgramUniformMatrix4fv(handle_.id(), location, 1, GL_FALSE, &m[0][0]);
}

// ---------------------------------------------------------------------------------------------
std::filesystem::path shader_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path next_to_exe = exe.parent_path() / "shaders";
    if (std::filesystem::is_directory(next_to_exe, ec)) return next_to_exe;
  }
  return std::filesystem::path(GPULAB_SOURCE_DIR) / "shaders";
}

std::string read_text_file(const std::filesystem::path& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw GlError("cannot open " + path.string() + ": " + (err ? std::strerror(err) : "unknown error"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw GlError("cannot read " + path.string() + ": " + std::strerror(errno));
  return text.str();
}

// ---------------------------------------------------------------------------------------------
TexturedQuad::TexturedQuad()
    : program_(Program::from_files("quad.vert", "quad.frag")), rect_location_(program_.uniform("u_rect")) {
  if (rect_location_ < 0) throw GlError("TexturedQuad: quad.frag has no uniform u_rect");
}

void TexturedQuad::draw(const Texture2D& texture, int x, int y, int w, int h) const {
  if (!texture) throw GlError("TexturedQuad::draw: empty texture");
  if (w <= 0 || h <= 0) return;

  const QuadDrawState state(x, y, w, h);
  // The fragment shader computes texture coordinates from gl_FragCoord and this rectangle, so
  // sampling is exact at 1:1 instead of depending on varying interpolation.
  glProgramUniform4f(program_.id(), rect_location_, float(x), float(y), float(w), float(h));
  glUseProgram(program_.id());
  glBindTextureUnit(0, texture.id());
  glBindVertexArray(vao_.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glUseProgram(0);
}

QuadDrawState::QuadDrawState(int x, int y, int w, int h) {
  static_assert(std::size(kQuadDisabledCaps) == std::size(decltype(enabled_){}));
  glGetIntegerv(GL_VIEWPORT, viewport_);
  for (size_t i = 0; i < std::size(kQuadDisabledCaps); ++i) {
    enabled_[i] = glIsEnabled(kQuadDisabledCaps[i]);
    glDisable(kQuadDisabledCaps[i]);
  }
  glViewport(x, y, w, h);
}

QuadDrawState::~QuadDrawState() {
  glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
  for (size_t i = 0; i < std::size(kQuadDisabledCaps); ++i)
    if (enabled_[i]) glEnable(kQuadDisabledCaps[i]);
}

std::vector<uint8_t> read_pixels_top_down(GLuint fbo, int width, int height) {
  if (width < 0 || height < 0)
    throw GlError("read_pixels_top_down: negative size " + std::to_string(width) + "x" +
                  std::to_string(height));
  const size_t row_bytes = size_t(width) * 4;
  std::vector<uint8_t> pixels(row_bytes * size_t(height));
  if (pixels.empty()) return pixels;

  GLint read_fbo = 0, pack_buffer = 0, alignment = 4, row_length = 0, skip_rows = 0, skip_pixels = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
  glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
  glGetIntegerv(GL_PACK_ALIGNMENT, &alignment);
  glGetIntegerv(GL_PACK_ROW_LENGTH, &row_length);
  glGetIntegerv(GL_PACK_SKIP_ROWS, &skip_rows);
  glGetIntegerv(GL_PACK_SKIP_PIXELS, &skip_pixels);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  glPixelStorei(GL_PACK_SKIP_ROWS, 0);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
  drain_gl_errors();
  glReadnPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(pixels.size()),
                pixels.data());
  const GLenum error = glGetError();
  glPixelStorei(GL_PACK_ALIGNMENT, alignment);
  glPixelStorei(GL_PACK_ROW_LENGTH, row_length);
  glPixelStorei(GL_PACK_SKIP_ROWS, skip_rows);
  glPixelStorei(GL_PACK_SKIP_PIXELS, skip_pixels);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo));
  if (error != GL_NO_ERROR)
    throw GlError("read_pixels_top_down: glReadnPixels(framebuffer " + std::to_string(fbo) + ", " +
                  std::to_string(width) + "x" + std::to_string(height) + ") failed: " + gl_error_name(error));

  flip_rows(pixels.data(), row_bytes, height);  // glReadPixels returns the bottom row first
  return pixels;
}

void flip_rows(uint8_t* pixels, size_t row_bytes, int height) {
  std::vector<uint8_t> row(row_bytes);
  for (int top = 0, bottom = height - 1; top < bottom; ++top, --bottom) {
    uint8_t* a = pixels + size_t(top) * row_bytes;
    uint8_t* b = pixels + size_t(bottom) * row_bytes;
    std::memcpy(row.data(), a, row_bytes);
    std::memcpy(a, b, row_bytes);
    std::memcpy(b, row.data(), row_bytes);
  }
}

// ---------------------------------------------------------------------------------------------
namespace {

const char* debug_source(GLenum s) {
  switch (s) {
    case GL_DEBUG_SOURCE_API:
      return "API";
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM:
      return "window system";
    case GL_DEBUG_SOURCE_SHADER_COMPILER:
      return "shader compiler";
    case GL_DEBUG_SOURCE_THIRD_PARTY:
      return "third party";
    case GL_DEBUG_SOURCE_APPLICATION:
      return "application";
    default:
      return "other";
  }
}

const char* debug_type(GLenum t) {
  switch (t) {
    case GL_DEBUG_TYPE_ERROR:
      return "error";
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR:
      return "deprecated";
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR:
      return "undefined behaviour";
    case GL_DEBUG_TYPE_PORTABILITY:
      return "portability";
    case GL_DEBUG_TYPE_PERFORMANCE:
      return "performance";
    default:
      return "other";
  }
}

const char* debug_severity(GLenum s) {
  switch (s) {
    case GL_DEBUG_SEVERITY_HIGH:
      return "high";
    case GL_DEBUG_SEVERITY_MEDIUM:
      return "medium";
    case GL_DEBUG_SEVERITY_LOW:
      return "low";
    default:
      return "note";
  }
}

void GLAD_API_PTR debug_callback(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                 const GLchar* message, const void*) {
  std::fprintf(stderr, "GL %s [source %s, severity %s, id %u]: %.*s\n", debug_type(type),
               debug_source(source), debug_severity(severity), id,
               length >= 0 ? int(length) : int(std::strlen(message)), message);
}

}  // namespace

void enable_debug_output() {
  GLint flags = 0;
  glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
  if (!(flags & GL_CONTEXT_FLAG_DEBUG_BIT)) return;
  glEnable(GL_DEBUG_OUTPUT);
  // Synchronous: the callback runs inside the offending call, so a debugger's stack shows it.
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(debug_callback, nullptr);
  // Notifications ("buffer will use video memory") drown the messages that matter.
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0, nullptr, GL_FALSE);
}

int max_texture_size() {
  GLint max_texture = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
  if (const char* cap = std::getenv("GPULAB_MAX_TEXTURE"); cap && *cap) {
    char* end = nullptr;
    const long v = std::strtol(cap, &end, 10);
    if (*end == '\0' && v > 0 && v < max_texture) max_texture = GLint(v);
  }
  return max_texture;
}

}  // namespace gpulab::gl

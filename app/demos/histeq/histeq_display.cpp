// The before / after textures of histogram equalization and the split drawing. See histeq_display.h.
#include "demos/histeq/histeq_display.h"

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "core/timings.h"

#if defined(GPULAB_HAVE_CUDA)
#include "histeq/histeq_cuda.h"
#endif

namespace gpulab {
namespace {

// Minified (a large image fitted into the window): linear, so edges do not shimmer as much;
// magnified (zoomed in): nearest, so each image pixel shows as a sharp square.
void set_display_filter(GLuint texture) {
  glTextureParameteri(texture, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(texture, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

constexpr GLenum kDisabledCaps[] = {GL_DEPTH_TEST, GL_BLEND,        GL_SCISSOR_TEST,
                                    GL_CULL_FACE,  GL_STENCIL_TEST, GL_FRAMEBUFFER_SRGB};

}  // namespace

std::vector<uint32_t> to_rgba_words(const image::Image& img) {
  const size_t n = img.pixel_count();
  const int c = img.channels;
  if (c < 1 || c > 4 || img.pixels.size() < n * static_cast<size_t>(c))
    throw std::invalid_argument("to_rgba_words: an image of " + std::to_string(img.width) + "x" +
                                std::to_string(img.height) + " pixels and " + std::to_string(c) +
                                " channels has " + std::to_string(img.pixels.size()) + " bytes");
  std::vector<uint32_t> out(n);
  const uint8_t* src = img.pixels.data();
  for (size_t i = 0; i < n; ++i, src += c) {
    uint8_t px[4];
    if (c <= 2) {
      px[0] = px[1] = px[2] = src[0];
      px[3] = c == 2 ? src[1] : 255;
    } else {
      px[0] = src[0];
      px[1] = src[1];
      px[2] = src[2];
      px[3] = c == 4 ? src[3] : 255;
    }
    std::memcpy(&out[i], px, 4);
  }
  return out;
}

HisteqDisplay::HisteqDisplay(Context& ctx)
    : ctx_(ctx),
      after_(std::make_unique<InteropTexture>(ctx.stream, ctx.cuda && ctx.interop, ctx.interop_unavailable_reason())),
      program_(gl::Program::from_files("quad.vert", "histeq.frag")),
      image_loc_(program_.uniform("u_image")),
      split_loc_(program_.uniform("u_split")),
      line_loc_(program_.uniform("u_line")) {
  if (image_loc_ < 0 || split_loc_ < 0) throw gl::GlError("histeq.frag: no uniform u_image or u_split");
}

HisteqDisplay::~HisteqDisplay() = default;

const gl::Texture2D& HisteqDisplay::after() const { return after_->texture(); }
bool HisteqDisplay::interop_active() const { return after_->interop_active(); }
DisplayPath HisteqDisplay::last_path() const { return after_->last_path(); }
const std::string& HisteqDisplay::path_description() const { return after_->path_description(); }
bool HisteqDisplay::has_image() const { return bool(before_) && bool(after_->texture()); }

void HisteqDisplay::set_source(const image::Image& img) {
  // The new "before" texture first: when GL refuses it, the current one stays.
  gl::Texture2D before(GL_RGBA8, img.width, img.height);
  const std::vector<uint32_t> rgba = to_rgba_words(img);
  before.upload_rgba8_top_down(rgba.data());
  set_display_filter(before.id());
  before_ = std::move(before);
  if (after_->ensure_size(img.width, img.height)) {
    set_display_filter(after_->texture().id());
    if (after_->interop_allowed() && !after_->interop_active() && ctx_.notify)
      ctx_.notify("interop registration failed, using the host-copy path: " +
                  after_->interop_unavailable_reason());
  }
}

void HisteqDisplay::update(histeq::Engine& engine, bool force_host_copy) {
  if (!after_->texture()) throw std::logic_error("HisteqDisplay::update before set_source");
  if (engine.width() != after_->width() || engine.height() != after_->height())
    throw std::logic_error("HisteqDisplay::update: the engine holds a " + std::to_string(engine.width()) +
                           "x" + std::to_string(engine.height()) + " image, the texture is " +
                           std::to_string(after_->width()) + "x" + std::to_string(after_->height()));
  Timings* t = ctx_.timings;
  TextureFill fill;
#if defined(GPULAB_HAVE_CUDA)
  if (engine.backend() == histeq::Backend::Cuda) {
    auto& gpu = static_cast<histeq::CudaEngine&>(engine);
    after_->set_stream(gpu.stream());  // map, compose and unmap all on the engine's stream
    fill.surface = [&](SurfaceObject surface, int, int) {
      if (t) t->gpu_begin("display", gpu.stream());
      gpu.compose_surface(surface);
      if (t) t->gpu_end("display", gpu.stream());
    };
    fill.device = [&](uint32_t* d_rgba, int w, int) {
      gpu.compose_device(reinterpret_cast<uint8_t*>(d_rgba), static_cast<size_t>(w) * 4);
    };
  }
#endif
  if (!fill.device)
    fill.host = [&](uint32_t* h_rgba, int, int) { engine.compose(reinterpret_cast<uint8_t*>(h_rgba)); };

  const auto start = std::chrono::steady_clock::now();
  after_->update(fill, force_host_copy);
  if (!t) return;
  // The host-copy path waits for the GPU (the copy back): the fallback, not the normal frame.
  switch (after_->last_path()) {
    case DisplayPath::Interop:
      t->cpu("interop map/unmap", after_->last_map_ms());
      break;
    case DisplayPath::DeviceCopy:
      t->cpu("host copy + upload", detail::ms_since(start));
      break;
    case DisplayPath::Host:
      t->cpu("display (CPU)", detail::ms_since(start));
      break;
    case DisplayPath::None:
      break;
  }
}

void HisteqDisplay::draw(const HisteqView& v) const {
  if (!has_image() || v.viewport_w <= 0 || v.viewport_h <= 0 || v.image_w <= 0 || v.image_h <= 0) return;
  GLint viewport[4];
  glGetIntegerv(GL_VIEWPORT, viewport);
  GLboolean enabled[std::size(kDisabledCaps)];
  for (size_t i = 0; i < std::size(kDisabledCaps); ++i) {
    enabled[i] = glIsEnabled(kDisabledCaps[i]);
    glDisable(kDisabledCaps[i]);
  }
  glViewport(v.viewport_x, v.viewport_y, v.viewport_w, v.viewport_h);
  const GLuint p = program_.id();
  glProgramUniform4f(p, image_loc_, v.image_x, v.image_y, v.image_w, v.image_h);
  glProgramUniform1f(p, split_loc_, v.split_x);
  glProgramUniform1f(p, line_loc_, v.line_half);
  glUseProgram(p);
  glBindTextureUnit(0, before_.id());
  glBindTextureUnit(1, after_->texture().id());
  glBindVertexArray(vao_.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindTextureUnit(1, 0);
  glBindTextureUnit(0, 0);
  glUseProgram(0);
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  for (size_t i = 0; i < std::size(kDisabledCaps); ++i)
    if (enabled[i]) glEnable(kDisabledCaps[i]);
}

}  // namespace gpulab

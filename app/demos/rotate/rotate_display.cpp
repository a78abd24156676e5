// The source and output textures of texture rotation, the two output paths (surface, PBO) and the
// drawing. See rotate_display.h.
#include "demos/rotate/rotate_display.h"
#include "demos/common/image_display.h"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/timings.h"

#include "rotate/rotate_cuda.h"

namespace gpulab {

RotateDisplay::RotateDisplay(Context& ctx)
    : ctx_(ctx),
      output_(std::make_unique<InteropTexture>(ctx.stream, ctx.cuda && ctx.interop,
                                               ctx.interop_unavailable_reason())),
      pbo_(std::make_unique<InteropBuffer>(4, ctx.stream, ctx.cuda && ctx.interop,
                                           ctx.interop_unavailable_reason())) {
  glCreateQueries(GL_TIME_ELAPSED, kQueries, queries_.data());
}

RotateDisplay::~RotateDisplay() {
  // The registrations go before their GL objects (the targets' own order), the queries with them.
  pbo_.reset();
  output_.reset();
  if (queries_[0]) glDeleteQueries(kQueries, queries_.data());
}

const gl::Texture2D& RotateDisplay::output() const { return output_->texture(); }
const gl::Buffer* RotateDisplay::pixel_buffer() const { return pbo_->buffer() ? &pbo_->buffer() : nullptr; }
bool RotateDisplay::has_image() const { return bool(source_) && bool(output_->texture()); }

DisplayPath RotateDisplay::last_path() const {
  return last_output_ == RotateOutput::Surface ? output_->last_path() : pbo_->last_path();
}

bool RotateDisplay::interop_active() const {
  return last_output_ == RotateOutput::Surface ? output_->interop_active() : pbo_->interop_active();
}

void RotateDisplay::set_source(const image::Image& img) {
  // The new source texture first: when GL refuses it, the current one stays.
  source_ = image_texture(img);
  if (resize_display_target(*output_, img.width, img.height, ctx_))
    set_image_display_filter(output_->texture().id());
  // A pixel buffer follows the image's size once the PBO path has made one (it is made on first use:
  // the surface path never needs it).
  if (pbo_->count() != 0) pbo_->resize(static_cast<size_t>(img.width) * static_cast<size_t>(img.height));
}

void RotateDisplay::update(rotate::Engine& engine, const RotateRun& run, RotateOutput out,
                           bool force_host_copy) {
  if (!output_->texture()) throw std::logic_error("RotateDisplay::update before set_source");
  const int w = output_->width(), h = output_->height();
  if (engine.width() != w || engine.height() != h)
    throw std::logic_error("RotateDisplay::update: the engine holds a " + std::to_string(engine.width()) +
                           "x" + std::to_string(engine.height()) + " image, the texture is " +
                           std::to_string(w) + "x" + std::to_string(h));
  if (!run.variant) throw std::logic_error("RotateDisplay::update without a variant");
  [[maybe_unused]] const int runs = run.runs < 1 ? 1 : run.runs;  // the CUDA paths run it
  Timings* t = ctx_.timings;
  const auto start = std::chrono::steady_clock::now();
  [[maybe_unused]] const size_t row_bytes = static_cast<size_t>(w) * 4;

  if (out == RotateOutput::Surface) {
    TextureFill fill;
    if (engine.backend() == rotate::Backend::Cuda) {
      auto& gpu = static_cast<rotate::CudaEngine&>(engine);
      output_->set_stream(gpu.stream());  // map, rotate and unmap all on the engine's stream
      fill.surface = [&](SurfaceObject surface, int, int) {
        if (t) t->gpu_begin(run.timed, "rotate (surface)", gpu.stream());
        for (int i = 0; i < runs; ++i) gpu.run_to_surface(*run.variant, run.block, run.settings, surface);
        if (t) t->gpu_end(run.timed, "rotate (surface)", gpu.stream());
      };
      fill.device = [&](uint32_t* d_rgba, int, int) {
        if (t) t->gpu_begin(run.timed, "rotate (surface)", gpu.stream());
        for (int i = 0; i < runs; ++i)
          gpu.run_to_buffer(*run.variant, run.block, run.settings, reinterpret_cast<uint8_t*>(d_rgba),
                            row_bytes);
        if (t) t->gpu_end(run.timed, "rotate (surface)", gpu.stream());
      };
    }
    if (!fill.device)
      fill.host = [&](uint32_t* h_rgba, int, int) { engine.compose(reinterpret_cast<uint8_t*>(h_rgba)); };
    output_->update(fill, force_host_copy);
    last_output_ = RotateOutput::Surface;
    description_ = "surface: " + output_->path_description();
    time_display_path(t, *output_, start);
    return;
  }

  // The pixel-buffer path: the buffer is filled (by CUDA in place, or uploaded), then copied into
  // the texture by GL.
  pbo_->resize(static_cast<size_t>(w) * static_cast<size_t>(h));
  BufferFill fill;
  if (engine.backend() == rotate::Backend::Cuda) {
    auto& gpu = static_cast<rotate::CudaEngine&>(engine);
    pbo_->set_stream(gpu.stream());
    fill.device = [&](void* d_ptr, size_t) {
      if (t) t->gpu_begin(run.timed, "rotate (PBO)", gpu.stream());
      for (int i = 0; i < runs; ++i)
        gpu.run_to_buffer(*run.variant, run.block, run.settings, static_cast<uint8_t*>(d_ptr), row_bytes);
      if (t) t->gpu_end(run.timed, "rotate (PBO)", gpu.stream());
    };
  }
  if (!fill.device) fill.host = [&](void* h_ptr, size_t) { engine.compose(static_cast<uint8_t*>(h_ptr)); };
  pbo_->update(fill, force_host_copy);
  time_display_path(t, *pbo_, start);
  copy_buffer_to_texture();
  last_output_ = RotateOutput::Pbo;
  const char* copy = ", then glTextureSubImage2D from the bound PBO into the texture (a copy on the GPU)";
  switch (pbo_->last_path()) {
    case DisplayPath::Interop:
      description_ = std::string("PBO: CUDA writes the mapped pixel buffer") + copy;
      break;
    case DisplayPath::DeviceCopy:
      description_ = std::string("PBO, host copy") + (force_host_copy ? " (forced)" : "") +
                     ": CUDA writes device memory, copied back, glNamedBufferSubData into the PBO" + copy +
                     (force_host_copy ? "" : " (" + pbo_->interop_unavailable_reason() + ")");
      break;
    case DisplayPath::Host:
      description_ = std::string("PBO, CPU: host memory, glNamedBufferSubData into the PBO") + copy;
      break;
    case DisplayPath::None:
      description_.clear();
      break;
  }
}

void RotateDisplay::copy_buffer_to_texture() {
  // One timer query around the copy; skipped (not waited for) while the slot's last one is pending.
  collect();
  const int q = next_query_;
  const bool timed = ctx_.timings && queries_[q] && !pending_[q];
  if (timed) glBeginQuery(GL_TIME_ELAPSED, queries_[q]);
  // GL copies buffer to texture on the GPU, no trip through host memory.
  output_->upload_from(pbo_->buffer());
  if (timed) {
    glEndQuery(GL_TIME_ELAPSED);
    pending_[q] = true;
    next_query_ = (q + 1) % kQueries;
  }
}

void RotateDisplay::collect() {
  if (!ctx_.timings) return;
  for (int k = 0; k < kQueries; ++k) {
    // Oldest first, so the series keeps the frames' order.
    const int q = (next_query_ + k) % kQueries;
    if (!pending_[q]) continue;
    GLint available = 0;
    glGetQueryObjectiv(queries_[q], GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) break;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(queries_[q], GL_QUERY_RESULT, &ns);
    pending_[q] = false;
    ctx_.timings->cpu("PBO -> texture", static_cast<double>(ns) * 1e-6);
  }
}

std::array<uint8_t, 4> RotateDisplay::read_pixel(int x, int y) const {
  std::array<uint8_t, 4> px{};
  if (!output_->texture() || x < 0 || y < 0 || x >= output_->width() || y >= output_->height()) return px;
  GLint pack_alignment = 4, pack_buffer = 0;
  glGetIntegerv(GL_PACK_ALIGNMENT, &pack_alignment);
  glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureSubImage(output_->texture().id(), 0, x, y, 0, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 4, px.data());
  glPixelStorei(GL_PACK_ALIGNMENT, pack_alignment);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer));
  return px;
}

void RotateDisplay::draw(const SplitView& view, bool compare) const {
  if (!has_image()) return;
  SplitView v = view;
  if (!compare) {  // the split left of everything: all of the image is the output
    v.split_x = -1e30f;
    v.line_half = 0.0f;
  }
  quad_.draw(source_, output_->texture(), v);
}

}  // namespace gpulab

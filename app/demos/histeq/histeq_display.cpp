// The before / after textures of histogram equalization and the split drawing. See histeq_display.h.
#include "demos/histeq/histeq_display.h"
#include "demos/common/image_display.h"

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "core/timings.h"

#include "histeq/histeq_cuda.h"

namespace gpulab {

HisteqDisplay::HisteqDisplay(Context& ctx)
    : ctx_(ctx),
      after_(std::make_unique<InteropTexture>(ctx.stream, ctx.cuda && ctx.interop,
                                              ctx.interop_unavailable_reason())) {}

HisteqDisplay::~HisteqDisplay() = default;

const gl::Texture2D& HisteqDisplay::after() const { return after_->texture(); }
bool HisteqDisplay::interop_active() const { return after_->interop_active(); }
DisplayPath HisteqDisplay::last_path() const { return after_->last_path(); }
const std::string& HisteqDisplay::path_description() const { return after_->path_description(); }
bool HisteqDisplay::has_image() const { return bool(before_) && bool(after_->texture()); }

void HisteqDisplay::set_source(const image::Image& img) {
  // The new "before" texture first: when GL refuses it, the current one stays.
  before_ = image_texture(img);
  if (resize_display_target(*after_, img.width, img.height, ctx_))
    set_image_display_filter(after_->texture().id());
}

void HisteqDisplay::update(histeq::Engine& engine, bool force_host_copy) {
  if (!after_->texture()) throw std::logic_error("HisteqDisplay::update before set_source");
  if (engine.width() != after_->width() || engine.height() != after_->height())
    throw std::logic_error("HisteqDisplay::update: the engine holds a " + std::to_string(engine.width()) +
                           "x" + std::to_string(engine.height()) + " image, the texture is " +
                           std::to_string(after_->width()) + "x" + std::to_string(after_->height()));
  Timings* t = ctx_.timings;
  TextureFill fill;
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
  if (!fill.device)
    fill.host = [&](uint32_t* h_rgba, int, int) { engine.compose(reinterpret_cast<uint8_t*>(h_rgba)); };

  const auto start = std::chrono::steady_clock::now();
  after_->update(fill, force_host_copy);
  if (!t) return;
  // The host-copy path waits for the GPU (the copy back): the fallback, not the normal frame.
  time_display_path(t, *after_, start);
}

void HisteqDisplay::draw(const SplitView& v) const {
  if (has_image()) quad_.draw(before_, after_->texture(), v);
}

}  // namespace gpulab

// The displayed Game of Life texture: the engine's display kernel or CPU renderer as the fills of
// an InteropTexture, which picks interop or a host copy.
#include "demos/life/life_display.h"

#include <chrono>

#include "core/timings.h"
#include "cuda/display_target.h"
#include "demos/common/display_path.h"

#include "life/life_cuda.h"

namespace gpulab {

LifeDisplay::LifeDisplay(Context& ctx)
    : ctx_(ctx),
      target_(std::make_unique<InteropTexture>(ctx.stream, ctx.cuda && ctx.interop,
                                               ctx.interop_unavailable_reason())),
      quad_(std::make_unique<gl::TexturedQuad>()) {}

LifeDisplay::~LifeDisplay() = default;  // target_ unregisters before its texture goes

const gl::Texture2D& LifeDisplay::texture() const { return target_->texture(); }
bool LifeDisplay::interop_active() const { return target_->interop_active(); }
const std::string& LifeDisplay::path_description() const { return target_->path_description(); }

void LifeDisplay::update(life::Engine& engine, const life::View& view, bool force_host_copy) {
  resize_display_target(*target_, view.tex_width, view.tex_height, ctx_);
  TextureFill fill;
  if (engine.backend() == life::Backend::Cuda) {
    auto& gpu = static_cast<life::CudaEngine&>(engine);
    target_->set_stream(gpu.stream());  // map, fill, copy and unmap all on the engine's stream
    fill.surface = [&](SurfaceObject surface, int, int) {
      if (ctx_.timings) ctx_.timings->gpu_begin("display", gpu.stream());
      gpu.render_surface(view, surface);
      if (ctx_.timings) ctx_.timings->gpu_end("display", gpu.stream());
    };
    fill.device = [&](uint32_t* d_rgba, int, int) { gpu.render_device(view, d_rgba); };
  }
  if (!fill.device) fill.host = [&](uint32_t* h_rgba, int, int) { engine.render_host(view, h_rgba); };

  const auto start = std::chrono::steady_clock::now();
  target_->update(fill, force_host_copy);
  time_display_path(ctx_.timings, *target_, start);
}

void LifeDisplay::draw(int width, int height) {
  if (target_->texture()) quad_->draw(target_->texture(), 0, 0, width, height);
}

}  // namespace gpulab

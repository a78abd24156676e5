// The displayed Game of Life texture: interop (CUDA writes the GL texture through a surface) or a
// host copy (the engine renders into host memory, then glTextureSubImage2D uploads it).
#include "demos/life/life_display.h"

#include "core/timings.h"

#if defined(GPULAB_HAVE_CUDA)
#include "cuda/interop.h"
#include "life/life_cuda.h"
#endif

namespace gpulab {

#if defined(GPULAB_HAVE_CUDA)
struct LifeDisplay::Cuda {
  std::optional<cuda::GraphicsResource> resource;  // the texture registered with CUDA
  std::string why_not;                             // why registration failed
};
#else
struct LifeDisplay::Cuda {};
#endif

LifeDisplay::LifeDisplay(Context& ctx) : ctx_(ctx), quad_(std::make_unique<gl::TexturedQuad>()) {}

LifeDisplay::~LifeDisplay() {
  cuda_.reset();  // unregister before the texture is deleted
}

bool LifeDisplay::interop_active() const {
#if defined(GPULAB_HAVE_CUDA)
  return cuda_ && cuda_->resource.has_value();
#else
  return false;
#endif
}

void LifeDisplay::ensure_size(int width, int height) {
  width = std::max(width, 1);
  height = std::max(height, 1);
  if (texture_ && texture_.width() == width && texture_.height() == height) return;
  cuda_.reset();
  texture_ = gl::Texture2D(GL_RGBA8, width, height);
  host_pixels_.assign(static_cast<size_t>(width) * height, 0u);
  cuda_ = std::make_unique<Cuda>();
#if defined(GPULAB_HAVE_CUDA)
  if (ctx_.cuda && ctx_.interop) {
    std::string why;
    cuda_->resource = cuda::GraphicsResource::try_register_image(texture_.id(), &why);
    if (!cuda_->resource) {
      cuda_->why_not = why;
      if (ctx_.notify) ctx_.notify("interop registration failed, using the host-copy path: " + why);
    }
  }
#endif
}

void LifeDisplay::update(life::Engine& engine, const life::View& view, bool force_host_copy) {
  ensure_size(view.tex_width, view.tex_height);
  const bool cuda = engine.backend() == life::Backend::Cuda;
#if defined(GPULAB_HAVE_CUDA)
  if (cuda && interop_active() && !force_host_copy) {
    auto& gpu = static_cast<life::CudaEngine&>(engine);
    path_ = "CUDA writes the GL texture (interop)";
    CpuSection map_time(ctx_.timings, "interop map/unmap");
    cuda::ScopedMap map({&*cuda_->resource}, gpu.stream());
    cuda::Surface surface(map.array(0));
    map_time.stop();
    if (ctx_.timings) ctx_.timings->gpu_begin("display", gpu.stream());
    gpu.render_surface(view, surface.get());
    if (ctx_.timings) ctx_.timings->gpu_end("display", gpu.stream());
    CpuSection unmap_time(ctx_.timings, "interop map/unmap");
    surface.reset();
    map.unmap();
    return;
  }
  if (cuda) {
    path_ = "CUDA renders, host copy, glTextureSubImage2D";
    if (!cuda_->why_not.empty()) path_ += " (" + cuda_->why_not + ")";
  }
#endif
  if (!cuda) path_ = "CPU renders, glTextureSubImage2D";
  // The host-copy path waits for the GPU (the copy back): the fallback, not the normal frame.
  CpuSection t(ctx_.timings, cuda ? "host copy + upload" : "display (CPU)");
  engine.render_host(view, host_pixels_.data());
  texture_.upload_rgba8_top_down(host_pixels_.data());
}

void LifeDisplay::draw(int width, int height) {
  if (texture_) quad_->draw(texture_, 0, 0, width, height);
}

}  // namespace gpulab

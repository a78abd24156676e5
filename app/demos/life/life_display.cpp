// The displayed Game of Life texture: interop (CUDA writes the GL texture through a surface) or a
// host copy (pixels made in host memory, or copied back from a CUDA buffer, then uploaded).
#include "demos/life/life_display.h"

#include "core/timings.h"

#if defined(GPULAB_HAVE_CUDA)
#include <cuda_runtime.h>

#include "common/cuda_check.h"
#include "cuda/interop.h"
#include "life/life_cuda.h"
#endif

namespace gpulab {

#if defined(GPULAB_HAVE_CUDA)
struct LifeDisplay::Cuda {
  std::optional<cuda::GraphicsResource> resource;  // the texture registered with CUDA
  std::string why_not;                             // why registration failed
  uint32_t* d_pixels = nullptr;                    // host-copy path: CUDA renders here first
  size_t d_bytes = 0;

  ~Cuda() { release_buffer(); }
  void release_buffer() noexcept {
    if (d_pixels) cudaFree(d_pixels);
    d_pixels = nullptr;
    d_bytes = 0;
  }
  uint32_t* buffer(size_t bytes) {
    if (bytes > d_bytes) {
      release_buffer();
      CUDA_CHECK(cudaMalloc(&d_pixels, bytes));
      d_bytes = bytes;
    }
    return d_pixels;
  }
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
#if defined(GPULAB_HAVE_CUDA)
  if (engine.backend() == life::Backend::Cuda) {
    auto& gpu = static_cast<life::CudaEngine&>(engine);
    if (interop_active() && !force_host_copy) {
      path_ = "CUDA writes the GL texture (interop)";
      Timings* t = ctx_.timings;
      std::optional<CpuSection> map_time;
      if (t) map_time.emplace(*t, "interop map/unmap");
      cuda::ScopedMap map({&*cuda_->resource}, gpu.stream());
      cuda::Surface surface(map.array(0));
      map_time.reset();
      if (t) t->gpu_begin("display", gpu.stream());
      gpu.render_surface(view, surface.get());
      if (t) t->gpu_end("display", gpu.stream());
      std::optional<CpuSection> unmap_time;
      if (t) unmap_time.emplace(*t, "interop map/unmap");
      surface.reset();
      map.unmap();
      return;
    }
    path_ = "CUDA renders, host copy, glTextureSubImage2D";
    if (!cuda_->why_not.empty()) path_ += " (" + cuda_->why_not + ")";
    const size_t bytes = host_pixels_.size() * sizeof(uint32_t);
    uint32_t* d = cuda_->buffer(bytes);
    if (ctx_.timings) ctx_.timings->gpu_begin("display", gpu.stream());
    gpu.render_device(view, d);
    if (ctx_.timings) ctx_.timings->gpu_end("display", gpu.stream());
    {
      std::optional<CpuSection> copy_time;
      if (ctx_.timings) copy_time.emplace(*ctx_.timings, "host copy + upload");
      auto s = reinterpret_cast<cudaStream_t>(gpu.stream());
      CUDA_CHECK(cudaMemcpyAsync(host_pixels_.data(), d, bytes, cudaMemcpyDeviceToHost, s));
      CUDA_CHECK(cudaStreamSynchronize(s));
      texture_.upload_rgba8_top_down(host_pixels_.data());
    }
    return;
  }
#endif
  (void)force_host_copy;
  path_ = "CPU renders, glTextureSubImage2D";
  std::optional<CpuSection> t;
  if (ctx_.timings) t.emplace(*ctx_.timings, "display (CPU)");
  engine.render_host(view, host_pixels_.data());
  texture_.upload_rgba8_top_down(host_pixels_.data());
}

void LifeDisplay::draw(int width, int height) {
  if (texture_) quad_->draw(texture_, 0, 0, width, height);
}

}  // namespace gpulab

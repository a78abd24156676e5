// The interop path (CUDA writes the GL texture through a surface) and the host-copy fallback give
// identical pixels, and both equal the CPU renderer's.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include "core/timings.h"
#include "cuda/interop.h"
#include "cuda/raii.h"
#include "demos/life/life_display.h"
#include "gl/gl.h"
#include "life/life_cuda.h"
#include "platform/platform.h"
#include "support/gpu_gl_context.h"
#include "support/gpu_skip.h"

namespace gpulab {
namespace {

std::vector<uint32_t> texture_pixels(const gl::Texture2D& t) {
  std::vector<uint32_t> px(static_cast<size_t>(t.width()) * t.height());
  glGetTextureImage(t.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(px.size() * 4), px.data());
  return px;
}

TEST(LifeDisplayGpu, InteropAndHostCopyGiveIdenticalPixels) {
  const gpulab::CudaStatus cs = gpulab::cuda_status();
  GPULAB_SKIP_WITHOUT_CUDA();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(64, 64, cs.device));
  const cuda::Stream& stream = gpu_gl.stream;
  Context& ctx = gpu_gl.ctx;

  auto gpu = life::CudaEngine::create(stream.get());
  auto cpu = life::make_cpu_engine();
  for (auto [gw, gh] : {std::pair{97, 61}, std::pair{300, 200}}) {
    gpu->resize(gw, gh);
    cpu->resize(gw, gh);
    gpu->randomize(0.3, 7);
    cpu->randomize(0.3, 7);
    const life::Variant& v = *life::find_variant("gpu-shared");
    gpu->step(v, 16, 5);
    cpu->step(*life::find_variant("cpu-lut"), 0, 5);
    for (int k = 0; k < 3; ++k) {
      gpu->fade_tick();
      cpu->fade_tick();
    }
    LifeDisplay display(ctx);
    // 1:1, zoomed in with grid lines, zoomed out; then 3 and 9 whole pixels a cell (units of 1/k cell).
    for (int32_t step_q8 : {256, 40, 700, -3, -9}) {
      life::View view;
      view.tex_width = 173;
      view.tex_height = 111;
      view.unit = step_q8 < 0 ? -step_q8 : 256;
      view.step_q8 = step_q8 < 0 ? 1 : step_q8;
      view.origin_x_q8 = -5 * view.unit + 77 % view.unit;  // partly off the grid
      view.origin_y_q8 = 3 * view.unit;
      view.age_fade = true;
      view.grid_lines = true;
      display.update(*gpu, view, /*force_host_copy=*/false);
      ASSERT_TRUE(display.interop_active()) << display.path_description();
      cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream.get()));
      const auto interop = texture_pixels(display.texture());
      display.update(*gpu, view, /*force_host_copy=*/true);
      const auto host_copy = texture_pixels(display.texture());
      std::vector<uint32_t> reference(interop.size());
      cpu->render_host(view, reference.data());
      ASSERT_EQ(interop.size(), host_copy.size());
      size_t differ = 0, differ_cpu = 0;
      for (size_t i = 0; i < interop.size(); ++i) {
        differ += interop[i] != host_copy[i];
        differ_cpu += interop[i] != reference[i];
      }
      EXPECT_EQ(differ, 0u) << gw << "x" << gh << " step_q8 " << step_q8;
      EXPECT_EQ(differ_cpu, 0u) << gw << "x" << gh << " step_q8 " << step_q8;
    }
  }
}

}  // namespace
}  // namespace gpulab

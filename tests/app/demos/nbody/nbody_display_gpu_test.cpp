// The N-body display through the real demo on the GPU: the mapped vertex buffer holds what the
// kernel wrote (the engine's vertices), and the host-copy fallback draws the same picture.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>

#include "core/cli.h"
#include "core/timings.h"
#include "cuda/interop.h"
#include "cuda/raii.h"
#include "demos/nbody/nbody_demo.h"
#include "demos/nbody/nbody_display.h"
#include "gl/gl.h"
#include "platform/platform.h"
#include "support/configure_demo.h"
#include "support/gpu_gl_context.h"
#include "support/gpu_skip.h"

namespace gpulab {
namespace {

std::vector<uint8_t> frame_pixels(NbodyDemo& demo, const gl::Framebuffer& fb, bool playing) {
  Frame f;
  f.width = fb.width();
  f.height = fb.height();
  f.playing = playing;
  f.steps_per_frame = 3;
  demo.compute(f);
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  glViewport(0, 0, fb.width(), fb.height());
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  demo.render(f);
  glFinish();
  return gl::read_pixels_top_down(fb.id(), fb.width(), fb.height());
}

std::vector<nbody::Vertex> buffer_vertices(const NbodyDisplay& d) {
  std::vector<nbody::Vertex> v(d.vertex_count());
  glGetNamedBufferSubData(d.buffer_id(), 0, static_cast<GLsizeiptr>(v.size() * sizeof(nbody::Vertex)),
                          v.data());
  return v;
}

TEST(NbodyDisplayGpu, MappedBufferHoldsTheKernelsVerticesAndHostCopyDrawsTheSamePicture) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(200, 150, cs.device));
  const cuda::Stream& stream = gpu_gl.stream;
  Context& ctx = gpu_gl.ctx;

  for (const char* bodies : {"1000", "4099"}) {  // 4099: not a multiple of any block
    NbodyDemo demo;
    ASSERT_EQ(
        testing::configure_demo(
            demo, {"--bodies", bodies, "--init", "galaxies", "--variant", "gpu-tile-split"}, /*device=*/true),
        "");
    demo.attach(ctx);
    gl::Framebuffer fb(200, 150);

    const auto interop = frame_pixels(demo, fb, /*playing=*/true);  // three steps, then the vertices
    ASSERT_TRUE(demo.display()->interop_active()) << demo.display()->path_description();
    cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream.get()));
    const auto mapped = buffer_vertices(*demo.display());
    std::vector<nbody::Vertex> want(demo.engine().size());
    demo.engine().write_vertices(want.data());
    ASSERT_EQ(mapped.size(), want.size());
    size_t differ = 0;
    for (size_t i = 0; i < want.size(); ++i)
      differ += std::memcmp(&mapped[i], &want[i], sizeof(nbody::Vertex)) != 0;
    EXPECT_EQ(differ, 0u) << bodies << " bodies: the mapped buffer differs from the engine's vertices";

    demo.set_force_host_copy(true);
    const auto host = frame_pixels(demo, fb, /*playing=*/false);  // same state, host path
    EXPECT_EQ(demo.display()->path_description().rfind("host copy (forced)", 0), 0u)
        << demo.display()->path_description();
    size_t lit = 0, differ_px = 0;
    for (size_t i = 0; i < host.size(); ++i) {
      differ_px += host[i] != interop[i];
      lit += interop[i] > 40;
    }
    EXPECT_GT(lit, 100u) << "nothing drawn";
    EXPECT_EQ(differ_px, 0u) << bodies << " bodies: the host-copy picture differs";
    demo.detach();
  }
}

}  // namespace
}  // namespace gpulab

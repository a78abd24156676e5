// Histogram equalization's display through the real demo on the GPU: the CUDA engine composes the
// pipeline's output straight into the mapped GL texture (interop), and the forced host-copy path
// fills it with the same bytes; both equal compose_rgba of the CPU reference's output, for grey
// and colour images, luminance and per channel, equalize and stretch, default and other variants.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/timings.h"
#include "cuda/display_target.h"
#include "demos/histeq/histeq_demo.h"
#include "demos/histeq/histeq_display.h"
#include "gl/gl.h"
#include "histeq/histeq.h"
#include "image/image.h"
#include "support/configure_demo.h"
#include "support/gpu_gl_context.h"
#include "support/gpu_memory.h"
#include "support/gpu_skip.h"
#include "support/image_checks.h"

namespace gpulab {
namespace {

using testing::differing_pixels;
using testing::texture_bytes;

// What the display must hold: every pixel of the reference's output through compose_rgba (grey
// replicated, RGB as is, alpha 255 where the image has none).
std::vector<uint8_t> composed(const image::Image& out) {
  std::vector<uint8_t> px(out.pixel_count() * 4);
  const int c = out.channels;
  for (size_t i = 0; i < out.pixel_count(); ++i) {
    const uint8_t* p = &out.pixels[i * c];
    const uint8_t alpha = c == 2 ? p[1] : c == 4 ? p[3] : 255;
    if (c >= 3)
      histeq::compose_rgba(histeq::Layout::Rgb, p[0], p[1], p[2], alpha, &px[i * 4]);
    else
      histeq::compose_rgba(histeq::Layout::Grey, p[0], 0, 0, alpha, &px[i * 4]);
  }
  return px;
}

struct Case {
  const char* image;
  int w, h;
  std::vector<const char*> args;
  histeq::Mode mode;
  histeq::Colour colour;
};

TEST(HisteqDisplayGpu, InteropAndHostCopyFillTheTextureWithTheReferenceOutput) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(200, 150, cs.device));
  Context& ctx = gpu_gl.ctx;

  const Case cases[] = {
      {"dark-room", 333, 217, {}, histeq::Mode::Equalize, histeq::Colour::Luminance},
      {"bimodal", 1000, 3, {"--mode", "stretch"}, histeq::Mode::Stretch, histeq::Colour::Luminance},
      {"hazy-landscape", 301, 199, {}, histeq::Mode::Equalize, histeq::Colour::Luminance},
      {"hazy-landscape", 301, 199, {"--per-channel"}, histeq::Mode::Equalize, histeq::Colour::PerChannel},
      {"hazy-landscape",
       257,
       129,
       {"--mode", "stretch", "--per-channel"},
       histeq::Mode::Stretch,
       histeq::Colour::PerChannel},
      {"hazy-landscape",
       257,
       129,
       {"--variant", "hist-atomic-global", "--variant", "scan-serial", "--variant", "apply-constant"},
       histeq::Mode::Equalize,
       histeq::Colour::Luminance},
  };
  for (const Case& c : cases) {
    std::string label = std::string(c.image) + " " + std::to_string(c.w) + "x" + std::to_string(c.h);
    for (const char* a : c.args) label += std::string(" ") + a;
    SCOPED_TRACE(label);
    HisteqDemo demo;
    ASSERT_EQ(testing::configure_demo(demo, c.args, /*device=*/true), "");
    const image::Image img = image::generate(c.image, c.w, c.h);
    std::string err;
    ASSERT_TRUE(demo.set_image(img, c.image, &err)) << err;
    demo.attach(ctx);
    ASSERT_EQ(demo.engine().backend(), histeq::Backend::Cuda);
    EXPECT_FALSE(demo.kernels().empty()) << "the occupancy panel's kernels";

    const std::vector<uint8_t> want = composed(histeq::process_cpu(img, c.mode, c.colour));
    Frame f;
    f.width = 200;
    f.height = 150;
    f.playing = true;
    f.steps_per_frame = 2;
    demo.compute(f);
    ASSERT_TRUE(demo.display()->interop_active()) << demo.display()->path_description();
    EXPECT_EQ(demo.display()->last_path(), DisplayPath::Interop) << demo.display()->path_description();
    cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(gpu_gl.stream.get()));
    const std::vector<uint8_t> interop = texture_bytes(demo.display()->after());
    EXPECT_EQ(differing_pixels(interop, want), 0u)
        << "interop: the mapped texture differs from the reference";

    // The same output through device memory, copied back and uploaded.
    demo.set_force_host_copy(true);
    f.playing = false;
    demo.compute(f);
    EXPECT_EQ(demo.display()->last_path(), DisplayPath::DeviceCopy);
    EXPECT_EQ(demo.display()->path_description().rfind("host copy (forced)", 0), 0u)
        << demo.display()->path_description();
    const std::vector<uint8_t> host = texture_bytes(demo.display()->after());
    EXPECT_EQ(differing_pixels(host, want), 0u) << "host copy: the texture differs from the reference";

    EXPECT_NE(demo.verify().find("matches the CPU reference byte for byte"), std::string::npos)
        << demo.verify();
    demo.detach();
  }
}

TEST(HisteqDisplayGpu, AnImageThatDoesNotFitInGpuMemoryLeavesTheCurrentOne) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(200, 150, cs.device));
  HisteqDemo demo;
  ASSERT_EQ(testing::configure_demo(demo, {}, /*device=*/true), "");
  const image::Image small = image::generate("dark-room", 160, 100);
  std::string err;
  ASSERT_TRUE(demo.set_image(small, "small", &err)) << err;
  demo.attach(gpu_gl.ctx);
  Frame f;
  f.width = 200;
  f.height = 150;
  f.playing = false;
  demo.compute(f);
  {
    testing::MemoryHog hog(size_t{8} << 20);  // 8 MiB left; the image needs 32 MiB at least
    image::Image big{4096, 4096, 1, std::vector<uint8_t>(size_t{4096} * 4096, 7)};
    EXPECT_FALSE(demo.set_image(std::move(big), "big.png", &err));
    EXPECT_NE(err.find("big.png"), std::string::npos) << err;
    EXPECT_NE(err.find("does not fit in GPU memory"), std::string::npos) << err;
  }
  EXPECT_TRUE(demo.source_image() == small);
  f.playing = true;
  demo.compute(f);
  cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(gpu_gl.stream.get()));
  const std::vector<uint8_t> want =
      composed(histeq::process_cpu(small, histeq::Mode::Equalize, histeq::Colour::Luminance));
  EXPECT_EQ(differing_pixels(texture_bytes(demo.display()->after()), want), 0u)
      << "the current image is shown as before";
  demo.detach();
}

}  // namespace
}  // namespace gpulab

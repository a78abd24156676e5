// Texture rotation's display through the real demo on the GPU: the CUDA engine's kernel writes the
// mapped GL texture through a surface, or the mapped pixel buffer GL then copies into the texture;
// both paths (and the forced host copies) leave identical texture contents, equal to compose() of the
// CUDA engine's own output, for every GPU variant, grey and RGBA images, point and linear filtering
// and every address mode. verify() holds them to the CPU reference.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/timings.h"
#include "cuda/display_target.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/rotate/rotate_display.h"
#include "gl/gl.h"
#include "image/image.h"
#include "rotate/rotate.h"
#include "support/configure_demo.h"
#include "support/gpu_gl_context.h"
#include "support/gpu_skip.h"
#include "support/image_checks.h"

namespace gpulab {
namespace {

using testing::differing_pixels;
using testing::rgba_image;
using testing::texture_bytes;

struct Case {
  const char* variant;
  std::vector<const char*> args;
};

TEST(RotateDisplayGpu, SurfaceAndPboPathsFillTheTextureWithTheEnginesOutput) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(200, 150, cs.device));
  Context& ctx = gpu_gl.ctx;

  const image::Image images[] = {image::generate("filter-test", 333, 217), rgba_image(160, 97)};
  const Case cases[] = {
      {"tex-array", {"--angle", "30"}},
      {"tex-array", {"--angle", "90", "--filter", "point", "--address", "clamp"}},
      {"tex-array", {"--angle", "47", "--scale", "1.7", "--address", "wrap"}},
      {"tex-pitch", {"--angle", "-20", "--scale", "0.6", "--address", "mirror"}},
      {"tex-array-x4", {"--angle", "30"}},
      {"tex-array-x4", {"--angle", "-75", "--scale", "2.5", "--address", "wrap", "--filter", "point"}},
      {"tex-pitch", {"--angle", "30", "--filter", "point", "--normalized", "off", "--read-mode", "element"}},
      {"tex-pitch-prefetch", {"--angle", "30"}},
      {"tex-pitch-prefetch",
       {"--angle", "200", "--scale", "0.7", "--address", "clamp", "--normalized", "off"}},
      {"global", {"--angle", "30", "--address", "border"}},
      {"global", {"--angle", "135", "--scale", "0.8", "--address", "mirror", "--filter", "point"}},
      {"lecture", {"--angle", "180", "--filter", "point"}},
      {"lecture", {"--angle", "30", "--address", "wrap", "--normalized", "off"}},  // runs clamped
  };
  for (const image::Image& img : images) {
    for (const Case& c : cases) {
      std::string label = std::string(c.variant) + " on " + std::to_string(img.channels) + " channels";
      for (const char* a : c.args) label += std::string(" ") + a;
      SCOPED_TRACE(label);
      RotateDemo demo;
      std::vector<const char*> args{"--variant", c.variant};
      args.insert(args.end(), c.args.begin(), c.args.end());
      ASSERT_EQ(testing::configure_demo(demo, args, /*device=*/true), "");
      std::string err;
      ASSERT_TRUE(demo.set_image(img, "case", &err)) << err;
      demo.attach(ctx);
      ASSERT_EQ(demo.engine().backend(), rotate::Backend::Cuda);
      ASSERT_EQ(demo.variant().id, c.variant);
      EXPECT_FALSE(demo.kernels().empty()) << "the occupancy panel's kernel";

      Frame f;
      f.width = 200;
      f.height = 150;
      f.playing = true;
      f.steps_per_frame = 3;
      auto shown = [&](RotateOutput out, bool force_host_copy) {
        demo.set_output_path(out);
        demo.set_force_host_copy(force_host_copy);
        demo.compute(f);
        cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(gpu_gl.stream.get()));
        glFinish();
        EXPECT_EQ(demo.display()->last_output(), out);
        return texture_bytes(demo.display()->output());
      };
      const std::vector<uint8_t> surface = shown(RotateOutput::Surface, false);
      EXPECT_TRUE(demo.display()->interop_active()) << demo.display()->path_description();
      EXPECT_EQ(demo.display()->last_path(), DisplayPath::Interop) << demo.display()->path_description();
      const std::vector<uint8_t> pbo = shown(RotateOutput::Pbo, false);
      EXPECT_TRUE(demo.display()->interop_active()) << demo.display()->path_description();
      EXPECT_EQ(demo.display()->last_path(), DisplayPath::Interop) << demo.display()->path_description();
      EXPECT_EQ(demo.display()->path_description().rfind("PBO: CUDA writes the mapped pixel buffer", 0), 0u)
          << demo.display()->path_description();
      EXPECT_EQ(differing_pixels(surface, pbo), 0u) << "the surface and PBO paths differ";
      const std::vector<uint8_t> surface_copy = shown(RotateOutput::Surface, true);
      EXPECT_EQ(demo.display()->last_path(), DisplayPath::DeviceCopy);
      const std::vector<uint8_t> pbo_copy = shown(RotateOutput::Pbo, true);
      EXPECT_EQ(demo.display()->last_path(), DisplayPath::DeviceCopy);
      EXPECT_EQ(differing_pixels(surface, surface_copy), 0u) << "surface: interop and host copy differ";
      EXPECT_EQ(differing_pixels(surface, pbo_copy), 0u) << "PBO: interop and host copy differ";

      // The engine's own output (run() then output()), composed as the display shows it.
      const image::Image out = demo.output_image();
      ASSERT_EQ(out.width, img.width);
      ASSERT_EQ(out.height, img.height);
      ASSERT_EQ(out.channels, img.channels) << "output() keeps the source's channels";
      std::vector<uint8_t> composed(img.pixel_count() * 4);
      demo.engine().compose(composed.data());
      EXPECT_EQ(differing_pixels(surface, composed), 0u)
          << "the displayed texture is not the engine's output";
      EXPECT_EQ(composed, image::convert_channels(out, 4).pixels) << "compose() is output() as RGBA";

      const std::string v = demo.verify();
      EXPECT_TRUE(demo.verify_ok()) << v;
      EXPECT_NE(v.find(std::string(c.variant) + " matches"), std::string::npos) << v;

      // The timing sections of both paths and the GL copy were recorded.
      gpu_gl.timings.collect();
      demo.detach();
    }
  }
  cudaDeviceSynchronize();
  for (int i = 0; i < 4; ++i) gpu_gl.timings.collect();
  EXPECT_TRUE(gpu_gl.timings.find("rotate (surface)"));
  EXPECT_TRUE(gpu_gl.timings.find("rotate (PBO)"));
  EXPECT_TRUE(gpu_gl.timings.find("PBO -> texture"));
}

TEST(RotateDisplayGpu, DefaultsToTexArrayAndShowsWhatCudaDoesNotAllow) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(200, 150, cs.device));
  RotateDemo demo;
  ASSERT_EQ(testing::configure_demo(
                demo, {"--angle", "30", "--read-mode", "element", "--address", "wrap", "--normalized", "off"},
                /*device=*/true),
            "");
  demo.attach(gpu_gl.ctx);
  EXPECT_EQ(demo.variant().id, "tex-array") << "the default with a CUDA device";
  EXPECT_EQ(demo.source_image().width, 512) << "the filter test";
  // Linear filtering with element-type reads and wrap without normalized coordinates: both refused by
  // CUDA; the variant runs with rotate::effective's settings, and verify compares with those.
  EXPECT_FALSE(rotate::cuda_restriction(demo.variant(), demo.settings()).empty());
  const std::string caption = demo.caption();
  EXPECT_NE(caption.find("linear, clamp, unnormalized"), std::string::npos) << caption;
  Frame f;
  f.width = 200;
  f.height = 150;
  f.playing = false;
  demo.compute(f);
  const std::string v = demo.verify();
  EXPECT_TRUE(demo.verify_ok()) << v;
  EXPECT_NE(v.find("the texture-unit model (rotate.h, measured on the H100): byte for byte"),
            std::string::npos)
      << v;
  // The inspector's texture-unit numbers are what the GPU wrote there.
  const image::Image out = demo.output_image();
  for (auto [x, y] : {std::pair{0, 0}, {101, 77}, {255, 256}, {511, 300}}) {
    const auto r = demo.inspect(x, y);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->unit);
    EXPECT_EQ(r->unit_weight[0] + r->unit_weight[1] + r->unit_weight[2] + r->unit_weight[3], 256);
    EXPECT_EQ(r->unit_value[0], out.pixels[size_t(y) * 512 + x]) << x << "," << y;
  }
  demo.detach();
}

}  // namespace
}  // namespace gpulab

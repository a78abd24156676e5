// The matrix demo's display through the real demo on the GPU: the CUDA engine writes the output
// straight into the mapped GL texture (interop), and the forced host-copy path fills it with the same
// bytes. Transpose: the texture holds the CPU reference's transposed picture exactly. Multiply: the
// heat map of the GPU's C, coloured on the host with the same heat_colour (at most one level apart
// per channel, from the float rounding of the scale), and C itself within its bound.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/cli.h"
#include "core/timings.h"
#include "demos/matrix/matrix_demo.h"
#include "demos/matrix/matrix_display.h"
#include "gl/gl.h"
#include "image/image.h"
#include "matrix/matrix.h"
#include "support/configure_demo.h"
#include "support/gpu_gl_context.h"
#include "support/gpu_skip.h"
#include "support/image_checks.h"

namespace gpulab {
namespace {

using testing::differing_pixels;
using testing::texture_bytes;

void configure(MatrixDemo& demo, std::vector<const char*> args) {
  ASSERT_EQ(testing::configure_demo(demo, std::move(args), /*device=*/true), "");
}

int largest_channel_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  int d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, std::abs(int(a[i]) - int(b[i])));
  return a.size() == b.size() ? d : 256;
}

TEST(MatrixDisplayGpu, TransposeFillsTheTextureWithTheReferencePicture) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(200, 150, cs.device));
  for (const char* variant : {"transpose-naive", "transpose-shared-swizzled", "transpose-vector"}) {
    SCOPED_TRACE(variant);
    MatrixDemo demo;
    ASSERT_NO_FATAL_FAILURE(configure(demo, {"--variant", variant}));
    const image::Image img = image::generate("filter-test", 301, 77);
    std::string err;
    ASSERT_TRUE(demo.set_image(img, "filter-test", &err)) << err;
    demo.attach(gpu_gl.ctx);
    ASSERT_EQ(demo.engine().backend(), matrix::Backend::Cuda);
    EXPECT_FALSE(demo.kernels().empty());
    const matrix::Words want = matrix::transpose_cpu(image_words(img));
    std::vector<uint8_t> want_bytes(want.size() * 4);
    std::memcpy(want_bytes.data(), want.data.data(), want_bytes.size());
    Frame f;
    f.width = 200;
    f.height = 150;
    f.playing = true;
    demo.compute(f);
    ASSERT_TRUE(demo.display()->interop_active()) << demo.display()->path_description();
    EXPECT_EQ(demo.display()->last_path(), DisplayPath::Interop);
    cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(gpu_gl.stream.get()));
    ASSERT_EQ(demo.display()->texture().width(), 77);
    ASSERT_EQ(demo.display()->texture().height(), 301);
    EXPECT_EQ(differing_pixels(texture_bytes(demo.display()->texture()), want_bytes), 0u) << "interop";
    demo.set_force_host_copy(true);
    demo.compute(f);
    EXPECT_EQ(demo.display()->last_path(), DisplayPath::DeviceCopy);
    EXPECT_EQ(differing_pixels(texture_bytes(demo.display()->texture()), want_bytes), 0u) << "host copy";
    EXPECT_NE(demo.verify().find("bit for bit"), std::string::npos) << demo.verify();
    demo.detach();
  }
}

TEST(MatrixDisplayGpu, MultiplyShowsTheHeatMapOfC) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(200, 150, cs.device));
  for (const char* variant : {"gemm-warp-tile", "gemm-tensor-bf16", "gemm-shared-tile-aat-padded"}) {
    SCOPED_TRACE(variant);
    MatrixDemo demo;
    ASSERT_NO_FATAL_FAILURE(
        configure(demo, {"--variant", variant, "--m", "97", "--n", "130", "--k", "45", "--init", "pattern"}));
    demo.attach(gpu_gl.ctx);
    Frame f;
    f.width = 200;
    f.height = 150;
    f.playing = true;
    demo.compute(f);
    ASSERT_TRUE(demo.display()->interop_active()) << demo.display()->path_description();
    cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(gpu_gl.stream.get()));
    const matrix::Matrix c = demo.product();
    EXPECT_EQ(verify_product(c, demo.operands().a, demo.operands().b, demo.variant()), "");
    std::vector<uint8_t> want(c.size() * 4);
    compose_host(demo.engine(), matrix::Op::Multiply, reinterpret_cast<uint32_t*>(want.data()));
    EXPECT_EQ(demo.display()->texture().width(), c.cols);
    EXPECT_EQ(demo.display()->texture().height(), c.rows);
    const std::vector<uint8_t> got = texture_bytes(demo.display()->texture());
    EXPECT_LE(largest_channel_difference(got, want), 1) << "interop";
    // The picture is not flat: the pattern's letters and background differ.
    size_t distinct = 0;
    for (size_t i = 4; i < got.size(); i += 4) distinct += std::memcmp(&got[i], &got[0], 3) != 0;
    EXPECT_GT(distinct, got.size() / 4 / 10);
    demo.set_force_host_copy(true);
    demo.compute(f);
    EXPECT_EQ(demo.display()->last_path(), DisplayPath::DeviceCopy);
    EXPECT_LE(largest_channel_difference(texture_bytes(demo.display()->texture()), want), 1) << "host copy";
    demo.detach();
  }
}

}  // namespace
}  // namespace gpulab

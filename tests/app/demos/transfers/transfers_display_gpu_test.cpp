// gpu label: the display stage's three GPU paths (the round trip through the host, the mapped pixel
// buffer, the mapped texture through a surface) each leave the CPU's frame in the GL texture, pixel
// for pixel, at odd and lecture sizes, on a headless EGL context of the CUDA device; the bench's probe
// of each verifies; the kernel alone is timed.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "common/cuda_probe.h"
#include "demos/transfers/transfers_demo.h"
#include "demos/transfers/transfers_display.h"
#include "support/gpu_gl_context.h"
#include "support/gpu_skip.h"
#include "transfers/transfers.h"

namespace gpulab {
namespace {

using transfers::find_variant;
using transfers::FrameSize;

bool small() { return std::getenv("GPULAB_SMALL_TESTS") != nullptr; }

TEST(TransfersDisplayGpu, EveryPathWritesTheCpuFrame) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(64, 48, cs.device));
  Context& ctx = gpu_gl.ctx;
  FrameDisplay d(ctx.stream, true, true, "");
  std::vector<FrameSize> sizes{{1, 1}, {7, 3}, {33, 1}, {1, 29}, {333, 217}};
  if (!small()) sizes.insert(sizes.end(), {FrameSize{1920, 1080}, FrameSize{3840, 2160}});
  const char* paths[] = {"display-host-copy", "display-pbo", "display-interop"};
  const DisplayPath expected[] = {DisplayPath::DeviceCopy, DisplayPath::Interop, DisplayPath::Interop};
  uint32_t n = 11;
  for (FrameSize s : sizes) {
    const std::vector<uint32_t> want = transfers::frame_reference(s.width, s.height, n);
    // The CPU's path first, then each GPU path over what the previous one left (another frame number
    // in between, so that a path that wrote nothing shows).
    d.run(*find_variant("display-cpu"), s, n + 1);
    for (int i = 0; i < 3; ++i) {
      SCOPED_TRACE(std::string(paths[i]) + " " + std::to_string(s.width) + "x" + std::to_string(s.height));
      const transfers::Variant& v = *find_variant(paths[i]);
      ASSERT_EQ(d.why_unavailable(v, s), "");
      d.run(*find_variant("display-cpu"), s, n + 1);
      const double ms = d.run(v, s, n);
      EXPECT_GT(ms, 0.0);
      EXPECT_EQ(d.last_path(), expected[i]) << d.path_description();
      const std::vector<uint32_t> got = d.read_back();
      EXPECT_EQ(transfers::verify_frame(got, s.width, s.height, n), "");
      EXPECT_TRUE(got == want);
    }
    ++n;
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(TransfersDisplayGpu, ProbesVerifyAndTheKernelIsTimed) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const CudaStatus cs = cuda_status();
  testing::GpuGlContext gpu_gl;
  ASSERT_NO_FATAL_FAILURE(gpu_gl.open(64, 48, cs.device));
  for (const char* id : {"display-cpu", "display-host-copy", "display-pbo", "display-interop"}) {
    SCOPED_TRACE(id);
    auto d = std::make_shared<FrameDisplay>(gpu_gl.ctx.stream, true, true, "");
    Probe p = make_display_probe(*find_variant(id), d, {641, 479}, gpu_gl.ctx.stream);
    ASSERT_EQ(p.unavailable, "");
    p.run(3);
    EXPECT_EQ(p.verify(), "");
  }
  EXPECT_GT(transfers::time_frame_kernel(1920, 1080, 3, gpu_gl.ctx.stream), 0.0);
  EXPECT_THROW(transfers::time_frame_kernel(0, 10, 1, gpu_gl.ctx.stream), std::invalid_argument);
  // The demo attached to the context: its display stage shows interop and runs it.
  TransfersDemo demo;
  // (configured through the app's path: the GPU default is gpulab's own design)
  std::vector<std::string> ids;
  for (const VariantChoice& v : demo.stage_tables().stages[kDisplayStage].variants) ids.emplace_back(v.id);
  EXPECT_EQ(ids[size_t(demo.stage_tables().stages[kDisplayStage].gpu_default)], "display-interop");
}

TEST(TransfersDisplayGpu, PinningCostIsMeasured) {
  GPULAB_SKIP_WITHOUT_CUDA();
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  {
    auto e = transfers::make_cuda_engine(s, {});
    const transfers::PinningCost c = e->measure_pinning(uint64_t(8) << 20, 2);
    EXPECT_EQ(c.bytes, uint64_t(8) << 20);
    EXPECT_GT(c.malloc_host_ms, 0.0);
    EXPECT_GT(c.register_ms, 0.0);
    EXPECT_GE(c.free_host_ms, 0.0);
    EXPECT_GE(c.unregister_ms, 0.0);
    EXPECT_THROW(e->measure_pinning(0, 1), std::invalid_argument);
    transfers::Faults refuse;
    refuse.refuse_pinning = true;
    auto r = transfers::make_cuda_engine(s, refuse);
    try {
      r->measure_pinning(uint64_t(1) << 20, 1);
      ADD_FAILURE() << "pinning refused by injection, yet it ran";
    } catch (const std::exception& ex) {
      EXPECT_NE(std::string(ex.what()).find("refused"), std::string::npos) << ex.what();
    }
  }
  cudaStreamDestroy(s);
}

}  // namespace
}  // namespace gpulab

// gl label (headless EGL; Mesa's software device where there is no GPU): the display stage's path that
// runs without CUDA. display-cpu fills the texture with the CPU's frame at odd sizes, read back pixel
// for pixel; the GPU paths say why they cannot run and refuse; the demo's display stage runs frames
// into its texture and its chart, verifies, and its probe runs on the GL thread only.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "demos/transfers/transfers_demo.h"
#include "demos/transfers/transfers_display.h"
#include "support/configure_demo.h"
#include "support/gl_fixture.h"
#include "transfers/transfers.h"

namespace gpulab {
namespace {

using transfers::find_variant;
using transfers::FrameSize;

class TransfersDisplayGl : public testing::HeadlessGlTest<TransfersDisplayGl, 64, 48> {};

TEST_F(TransfersDisplayGl, TheCpuPathFillsTheTextureWithTheCpuFrame) {
  FrameDisplay d(nullptr, /*cuda=*/false, /*interop_allowed=*/false, "no CUDA device (test)");
  const transfers::Variant& cpu = *find_variant("display-cpu");
  uint32_t n = 3;
  for (FrameSize s : {FrameSize{1, 1}, FrameSize{7, 3}, FrameSize{333, 217}, FrameSize{1920, 1080}}) {
    SCOPED_TRACE(std::to_string(s.width) + "x" + std::to_string(s.height));
    EXPECT_EQ(d.why_unavailable(cpu, s), "");
    const double ms = d.run(cpu, s, n);
    EXPECT_GT(ms, 0.0);
    EXPECT_EQ(d.last_path(), DisplayPath::Host);
    EXPECT_NE(d.path_description().find("glTextureSubImage2D"), std::string::npos) << d.path_description();
    EXPECT_EQ(d.texture().width(), s.width);
    EXPECT_EQ(d.texture().height(), s.height);
    const std::vector<uint32_t> px = d.read_back();
    EXPECT_EQ(px, transfers::frame_reference(s.width, s.height, n));
    EXPECT_EQ(transfers::verify_frame(px, s.width, s.height, n), "");
    ++n;
  }
  for (const char* id : {"display-host-copy", "display-pbo", "display-interop"}) {
    const transfers::Variant& v = *find_variant(id);
    EXPECT_NE(d.why_unavailable(v, {64, 32}).find("no CUDA device"), std::string::npos) << id;
    EXPECT_THROW(d.run(v, {64, 32}, 0), std::invalid_argument) << id;
  }
  EXPECT_THROW(d.run(*find_variant("h2d-pinned"), {64, 32}, 0), std::invalid_argument)
      << "not a display rung";
}

TEST_F(TransfersDisplayGl, TheDemosDisplayStageRunsVerifiesAndProbesOnTheGlThread) {
  TransfersDemo demo;
  ASSERT_EQ(testing::configure_demo(demo, {"--variant", "display-cpu", "--frame-size", "321x123"}), "");
  Context ctx;
  ctx.platform = platform_.get();
  ctx.cuda = false;
  ctx.cuda_reason = "no CUDA device (test)";
  demo.attach(ctx);
  Frame f;
  f.playing = true;
  for (int i = 0; i < 4; ++i) demo.compute(f);
  ASSERT_NE(demo.frame_display(), nullptr);
  EXPECT_EQ(demo.frame_display()->texture().width(), 321);
  ASSERT_EQ(demo.display_chart().times.size(), 1u) << "the live rung's median, after the first frames";
  EXPECT_EQ(demo.display_chart().times[0].rung, "display-cpu");
  EXPECT_GT(demo.display_chart().times[0].ms, 0.0);
  EXPECT_NE(demo.caption().find("321x123"), std::string::npos) << demo.caption();
  EXPECT_NE(demo.verify().find("every pixel"), std::string::npos);
  const std::vector<Throughput> t = demo.throughput();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_DOUBLE_EQ(t[0].items_per_step, 321.0 * 123.0);

  // The probe: one frame a step, verified against the CPU's frame; never from another thread.
  Picks picks = demo.setup().picks;
  Probe p = demo.probe(picks, kDisplayStage);
  ASSERT_EQ(p.unavailable, "");
  EXPECT_FALSE(p.gpu);
  EXPECT_EQ(p.size, "321x123");
  EXPECT_EQ(p.item_unit, "pixels");
  ASSERT_TRUE(p.run && p.verify);
  p.run(2);
  EXPECT_EQ(p.verify(), "");
  Probe other;
  std::thread([&] { other = demo.probe(picks, kDisplayStage); }).join();
  EXPECT_NE(other.unavailable.find("thread"), std::string::npos) << other.unavailable;
  // The GPU rungs cannot run here: the probe says why.
  picks[kDisplayStage].variant = 3;  // display-interop
  EXPECT_NE(demo.probe(picks, kDisplayStage).unavailable, "");

  // Every path timed (those that run here): display-cpu at 321x123 and at both lecture sizes.
  demo.time_display_paths(3);
  int cpu_rows = 0;
  for (const transfers_view::FrameTime& ft : demo.display_chart().times) {
    EXPECT_EQ(ft.rung, "display-cpu");
    ++cpu_rows;
  }
  EXPECT_EQ(cpu_rows, 3);
  demo.detach();
}

}  // namespace
}  // namespace gpulab

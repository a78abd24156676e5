// The counters tab as the user sees it where counters cannot be read (the text it draws), and the
// window's pacing: one queued measurement a poll, never more.
#include <gtest/gtest.h>

#include "demos/life/life_demo.h"
#include "presenter/counters_view.h"
#include "support/configure_demo.h"
#include "support/imgui_text.h"

namespace gpulab {
namespace {

Context cpu_context() {
  Context ctx;
  ctx.cuda = false;
  ctx.cuda_reason = "the test's CPU context";
  return ctx;
}

TEST(CountersView, WithoutADeviceTheTabSaysWhyAndOffersNoMeasure) {
  LifeDemo demo;
  presenter::CountersView view;
  const Context ctx = cpu_context();
  testing::ImGuiText imgui;
  const std::string text = imgui.run([&] { view.draw(demo, ctx, 1.0f); });
#if defined(GPULAB_HAVE_CUPTI)
  EXPECT_NE(
      text.find("counters unavailable: no CUDA device, and the counters count a GPU's work (the test's CPU "
                "context)"),
      std::string::npos)
      << text;
#else
  EXPECT_NE(text.find("counters unavailable: " + cuda::counters_build_reason()), std::string::npos) << text;
#endif
  EXPECT_EQ(text.find("measure (F3)"), std::string::npos) << text;
}

TEST(CountersView, EachPollMeasuresOneQueuedVariantAndCpuVariantsSayWhy) {
  LifeDemo demo;
  ASSERT_EQ(testing::configure_demo(demo, {}), "");  // its Setup: what "the current variant" is
  presenter::CountersView view;
  const Context ctx = cpu_context();
  view.request_current(demo);  // the step's current variant (the ghost stage does not run with it)
  ASSERT_TRUE(view.busy());
  EXPECT_TRUE(view.poll(demo, ctx));
  ASSERT_EQ(view.rows().size(), 1u);
  const presenter::CounterRow& r = view.rows().front();
  EXPECT_FALSE(r.measured());
  EXPECT_FALSE(r.unavailable.empty());
  if (!r.gpu) {
    EXPECT_EQ(r.unavailable, "a CPU variant: the GPU's counters count GPU kernels only");
  }
  // "measure every variant": the GPU variants of the running stages, one a poll.
  view.request_all(demo);
  size_t queued = 0;
  for (const Stage& st : demo.stages())
    if (st.active)
      for (const VariantChoice& v : st.variants) queued += v.needs_cuda && v.available;
  const size_t before = view.rows().size();
  if (queued > 0) {
    ASSERT_TRUE(view.poll(demo, ctx));
    EXPECT_LE(view.rows().size(), before + 1);
  }
  while (view.poll(demo, ctx)) {
  }
  EXPECT_FALSE(view.busy());
  EXPECT_FALSE(view.poll(demo, ctx));  // nothing queued: nothing measured
}

}  // namespace
}  // namespace gpulab

// gpu label, end to end through the binary (headless EGL with CUDA-GL interop): --start-counters
// (as F3 does) opens the Counters tab, measures the current variant with the GPU's own counters and
// runs the live meters (CUPTI PM sampling) until they hold a second of samples at about the 20 ms
// rate; the layout report carries what the tab showed. The GPU machine runs as root: the counters
// and the meters must both work there.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/gpu_skip.h"
#include "support/layout_report.h"

TEST(CountersTabGpu, StartCountersMeasuresTheVariantAndTheMetersSample) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const gpulab::testing::ReportedRun r = gpulab::testing::run_with_layout_report(
      "--headless --demo life --grid 4096x4096 --variant gpu-shared --start-counters --frames 3 --size "
      "1280x720",
      gpulab::testing::temp_dir("gpulab-counters-tab-gpu"), "gpulab-counters-tab-gpu");
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  ASSERT_FALSE(r.report.is_discarded());
  const nlohmann::json& c = r.report["counters"];
  EXPECT_TRUE(c["tab_open"].get<bool>());
  EXPECT_EQ(c["unavailable"].get<std::string>(), "");
  ASSERT_EQ(c["measured"].size(), 1u) << r.process.output;
  EXPECT_EQ(c["measured"][0].get<std::string>(), "gpu-shared");
  EXPECT_EQ(c["meters"].get<std::string>(), "") << "the meters are not sampling";
  const double span = c["meter_span_s"].get<double>();
  const double samples = c["meter_samples"].get<double>();
  EXPECT_GE(span, 0.9);
  // One sample every 20 ms: about 50 a second (the GPU's timer; half the rate is the floor).
  EXPECT_GE(samples / span, 25.0) << samples << " samples over " << span << " s";
  EXPECT_LE(samples / span, 75.0) << samples << " samples over " << span << " s";
}

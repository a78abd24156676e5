// gpu label, end to end through the binary (headless EGL with CUDA-GL interop): --start-counters
// (as F3 does) opens the Counters tab, measures the current variant with the GPU's own counters and
// runs the live meters (CUPTI PM sampling) until they hold a second of samples at about the 20 ms
// rate; the layout report carries what the tab showed. The GPU machine runs as root: the counters
// and the meters must both work there.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/gpu_skip.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;

TEST(CountersTabGpu, StartCountersMeasuresTheVariantAndTheMetersSample) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const fs::path dir = gpulab::testing::temp_dir("gpulab-counters-tab-gpu");
  fs::create_directories(dir / "config");
  ::setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  const fs::path png = dir / "shot.png", report = dir / "layout.json";
  const gpulab::testing::ProcessResult r = gpulab::testing::run_gpulab(
      "--headless --demo life --grid 4096x4096 --variant gpu-shared --start-counters --frames 3 --size 1280x720 "
      "--screenshot " + png.string() + " --layout-report " + report.string(),
      "gpulab-counters-tab-gpu");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(report);
  ASSERT_TRUE(in) << "no layout report";
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const nlohmann::json& c = j["counters"];
  EXPECT_TRUE(c["tab_open"].get<bool>());
  EXPECT_EQ(c["unavailable"].get<std::string>(), "");
  ASSERT_EQ(c["measured"].size(), 1u) << r.output;
  EXPECT_EQ(c["measured"][0].get<std::string>(), "gpu-shared");
  EXPECT_EQ(c["meters"].get<std::string>(), "") << "the meters are not sampling";
  const double span = c["meter_span_s"].get<double>();
  const double samples = c["meter_samples"].get<double>();
  EXPECT_GE(span, 0.9);
  // One sample every 20 ms: about 50 a second (the GPU's timer; half the rate is the floor).
  EXPECT_GE(samples / span, 25.0) << samples << " samples over " << span << " s";
  EXPECT_LE(samples / span, 75.0) << samples << " samples over " << span << " s";
}

// gl label, end to end through the binary: --start-counters (as F3 does) brings the Counters tab to
// the front. With the CPU backend (or a build without CUDA) there is nothing to count: the tab and
// the message line say why (the layout report carries what the tab shows), nothing is measured and
// the run still succeeds with its screenshot.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cuda/counters.h"
#include "gl/image_io.h"
#include "support/layout_report.h"

namespace fs = std::filesystem;

TEST(CountersTab, StartCountersOnTheCpuBackendOpensTheTabAndSaysWhyNothingIsCounted) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-counters-tab");
  const fs::path png = dir / "shot.png";
  const gpulab::testing::ReportedRun r = gpulab::testing::run_with_layout_report(
      "--headless --cpu --demo life --grid 256x256 --start-counters --frames 3 --size 1280x720 "
      "--screenshot " +
          png.string(),
      dir, "gpulab-counters-tab");
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  ASSERT_FALSE(r.report.is_discarded());
  const nlohmann::json& c = r.report["counters"];
  EXPECT_TRUE(c["tab_open"].get<bool>())
      << "F3 / --start-counters did not bring the Counters tab to the front";
  // A build without CUDA or CUPTI says so; a CUDA build run with --cpu has no device to count on.
  const std::string why = c["unavailable"].get<std::string>();
  const std::string build_reason = gpulab::cuda::counters_build_reason();
  if (!build_reason.empty())
    EXPECT_EQ(why, build_reason);
  else
    EXPECT_NE(why.find("no CUDA device"), std::string::npos) << why;
  EXPECT_NE(r.process.output.find("counters unavailable: " + why), std::string::npos) << r.process.output;
  EXPECT_TRUE(c["measured"].empty());
  EXPECT_NE(r.process.output.find("counters: 0 measured"), std::string::npos) << r.process.output;
  std::string err;
  const gpulab::gl::Image shot = gpulab::gl::read_image(png, &err);
  EXPECT_EQ(shot.width, 1280) << err;
}

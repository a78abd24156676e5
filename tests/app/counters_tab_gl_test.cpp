// gl label, end to end through the binary: --start-counters (as F3 does) brings the Counters tab to
// the front. With the CPU backend there is nothing to count: the tab says why (the layout report
// carries what it shows), nothing is measured and the run still succeeds with its screenshot.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gl/image_io.h"
#include "support/layout_report.h"

namespace fs = std::filesystem;

TEST(CountersTab, StartCountersOnTheCpuBackendOpensTheTabAndSaysWhyNothingIsCounted) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-counters-tab");
  const fs::path png = dir / "shot.png";
  const gpulab::testing::ReportedRun r = gpulab::testing::run_with_layout_report(
      "--headless --cpu --demo life --grid 256x256 --start-counters --frames 3 --size 1280x720 --screenshot " +
          png.string(),
      dir, "gpulab-counters-tab");
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  ASSERT_FALSE(r.report.is_discarded());
  const nlohmann::json& c = r.report["counters"];
  EXPECT_TRUE(c["tab_open"].get<bool>()) << "F3 / --start-counters did not bring the Counters tab to the front";
  const std::string why = c["unavailable"].get<std::string>();
  EXPECT_NE(why.find("no CUDA device"), std::string::npos) << why;
  EXPECT_TRUE(c["measured"].empty());
  EXPECT_NE(r.process.output.find("counters: 0 measured"), std::string::npos) << r.process.output;
  std::string err;
  const gpulab::gl::Image shot = gpulab::gl::read_image(png, &err);
  EXPECT_EQ(shot.width, 1280) << err;
}

// gl label, through the binary (headless): a transfers batch run that measures nothing writes nothing.
// `--bytes 64GiB` on the CPU backend needs 128 GiB of host memory and is refused before allocating;
// the run exits 1, says the table was not written, prints no "wrote", and yesterday's table is left
// byte for byte (it used to be replaced by a bare header).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/run_binary.h"
#include "support/test_paths.h"
#include "support/window_app.h"

namespace fs = std::filesystem;

TEST(TransfersBatch, ARunThatMeasuredNothingLeavesYesterdaysTable) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-transfers-batch");
  fs::create_directories(dir);
  const fs::path csv = dir / "table.csv";
  const std::string yesterday = "rung,bytes,ms,gbps,pct_line_rate\nh2d-pinned,268435456,4.8,55.9,88\n";
  std::ofstream(csv, std::ios::trunc) << yesterday;
  const gpulab::testing::ProcessResult r = gpulab::testing::run_gpulab_in(
      "--headless --cpu --demo transfers --bytes 64GiB --save-csv " + csv.string(), dir,
      "gpulab-transfers-batch");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_EQ(r.output.find("wrote"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no bandwidth rung could run here: '" + csv.string() + "' was not written"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(gpulab::testing::slurp(csv), yesterday);
  fs::remove_all(dir);
}

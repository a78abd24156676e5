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

TEST(TransfersBatch, AGpuRungAskedForWhereItCannotRunIsSaid) {
  // It ran host-pageable instead and wrote its row without a word (every other demo said so); the
  // shell now says it for every demo, one line for all the stages it changed.
  const fs::path dir = gpulab::testing::temp_dir("gpulab-transfers-said");
  fs::create_directories(dir);
  struct Case {
    const char* args;
    const char* said;
  };
  for (const Case& c : {Case{"--demo transfers --variant h2d-pinned --bytes 1MiB --save-csv t.csv",
                             "h2d-pinned is not available (--cpu was given): using host-pageable"},
                        Case{"--demo histeq --variant hist-shared-private --variant scan-block --frames 1",
                             "hist-shared-private, scan-block, reduce-warp-shuffle and apply-shared are not "
                             "available (--cpu was "
                             "given): using hist-cpu, scan-cpu, reduce-cpu and apply-cpu"},
                        Case{"--demo matrix --op multiply --variant gemm-naive --frames 1",
                             "gemm-naive is not available (--cpu was given): using gemm-cpu"}}) {
    SCOPED_TRACE(c.args);
    const gpulab::testing::ProcessResult r = gpulab::testing::run_gpulab_in(
        "--headless --cpu " + std::string(c.args), dir, "gpulab-transfers-said");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find(c.said), std::string::npos) << r.output;
  }
  fs::remove_all(dir);
}

// A long pipeline says its estimate before it runs (the CPU's at --intensity 4096 ran minutes without
// a word): the line is there within seconds, and the run is stopped there.
TEST(TransfersBatch, ALongPipelineSaysItsEstimateFirst) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-transfers-long");
  fs::create_directories(dir);
  const gpulab::testing::ProcessResult r = gpulab::testing::run_gpulab(
      "--headless --cpu --demo transfers --variant pipeline-cpu --intensity 4096 --save-timeline " +
          (dir / "t.png").string(),
      "gpulab-transfers-long", 6);
  EXPECT_EQ(r.status, gpulab::testing::kKilledAtLimit) << r.output;
  const size_t at = r.output.find("gpulab: pipeline-cpu over 64 MiB at intensity 4096: about ");
  EXPECT_NE(at, std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(from a sample of 64 KiB; Ctrl+C stops)", at), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "t.png"));
  fs::remove_all(dir);
}

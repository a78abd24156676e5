// gpu label, end to end through the binary (headless EGL on the GPU): a GPU fault in the middle of a
// lecture. A kernel that writes through a wild address (GPULAB_TEST_GPU_FAULT=N: at frame N) breaks
// the CUDA context; the app says so once and the demo goes on on the CPU with the same Setup.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/gpu_skip.h"
#include "support/layout_report.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;

namespace {

struct Faulted {
  gpulab::testing::ReportedRun run;
  std::string running;  // the lead stage's variant at the end
};

Faulted run_with_fault(const std::string& demo, const char* at) {
  ::setenv("GPULAB_TEST_GPU_FAULT", at, 1);
  const fs::path dir = gpulab::testing::temp_dir("gpulab-gpu-fault") / (demo + "-" + at);
  // At most 60 s: a fallback that hangs fails here, and its process does not outlive the test.
  Faulted f{gpulab::testing::run_with_layout_report(
                "--headless --demo " + demo + " --frames 40 --size 640x360", dir, "gpulab-gpu-fault", 60),
            ""};
  ::unsetenv("GPULAB_TEST_GPU_FAULT");
  const nlohmann::json& j = f.run.report;
  if (j.is_object() && j.contains("running") && !j["running"].empty())
    f.running = j["running"][0].get<std::string>();
  return f;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

class GpuFault : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuFault, TheDemoGoesOnOnTheCpuWithTheSameSetup) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const std::string demo = GetParam();
  // The fault at frame 10: said once, the demo on the CPU to the end.
  const Faulted lost = run_with_fault(demo, "10");
  const std::string& out = lost.run.process.output;
  ASSERT_NE(lost.run.process.status, gpulab::testing::kKilledAtLimit)
      << demo << ": the run did not end within 60 s after the fault (a hang)\n"
      << out;
  EXPECT_EQ(lost.run.process.status, 1) << "a fault is an error of the run\n" << out;
  EXPECT_TRUE(has(out, "the GPU failed (cudaErrorIllegalAddress")) << out;
  EXPECT_TRUE(has(out, "goes on on the CPU; start gpulab again to use the GPU")) << out;
  EXPECT_EQ(out.find("\ngpulab: the GPU failed"), out.rfind("\ngpulab: the GPU failed")) << "said once\n"
                                                                                         << out;
  EXPECT_FALSE(has(out, "Destroy failed")) << "what the broken context could not end is not listed\n" << out;
  EXPECT_TRUE(has(out, " frames, ")) << "the run ends with its summary: " << out;
  ASSERT_FALSE(lost.running.empty()) << out;
  EXPECT_TRUE(lost.running.rfind("cpu", 0) == 0 || has(lost.running, "-cpu") ||
              lost.running == "host-pageable")
      << "a CPU variant runs after the fault: " << lost.running;
}

INSTANTIATE_TEST_SUITE_P(EveryDemo, GpuFault,
                         ::testing::Values("life", "nbody", "histeq", "rotate", "matrix", "transfers"),
                         [](const auto& info) { return info.param; });

}  // namespace

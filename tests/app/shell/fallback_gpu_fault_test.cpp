// fault label, end to end through the binary (headless EGL on the GPU): a GPU fault in the middle of a
// lecture. A kernel that writes through a wild address (GPULAB_TEST_GPU_FAULT=N: at frame N) breaks
// the CUDA context; the app says so once and the demo goes on on the CPU with the same Setup.
//
// One demo a machine, named by GPULAB_FAULT_TESTS=<demo> (the others skip, and all skip without it):
// on the H100 (driver 580, headless EGL) a fault, even in a process without OpenGL that ends at once,
// leaves the GPU unable to switch to a later process's GL context (the kernel log: Xid 109, CTX SWITCH
// TIMEOUT): every later gpulab on that machine hangs, fault or not, until the machine is started
// again. So these tests run last, on a freshly started machine (scripts/gpu-check's "fault" part).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/demo_names.h"
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
  const std::string demo = GetParam();
  const char* chosen = std::getenv("GPULAB_FAULT_TESTS");
  if (!chosen || !*chosen)
    GTEST_SKIP() << "a GPU fault leaves this kind of machine unusable for later GL processes: run one demo's "
                    "fault on a freshly started machine, GPULAB_FAULT_TESTS="
                 << demo << " ctest -L fault";
  if (demo != chosen) GTEST_SKIP() << "this run tests " << chosen << "'s fault (one demo a machine)";
  GPULAB_SKIP_WITHOUT_CUDA();
  // First the same run without a fault: it must end, or the GPU is already unusable (an earlier fault
  // on this machine) and the fault run below could not tell anything.
  const fs::path dir = gpulab::testing::temp_dir("gpulab-gpu-fault") / (demo + "-clean");
  const gpulab::testing::ProcessResult clean = gpulab::testing::run_gpulab_in(
      "--headless --demo " + demo + " --frames 5 --size 640x360", dir, "gpulab-gpu-fault", 30);
  ASSERT_NE(clean.status, gpulab::testing::kKilledAtLimit)
      << demo << ": a run without a fault did not end within 30 s: this GPU is already unusable for a GL "
      << "process (an earlier fault on this machine? the kernel log says Xid 109 then); start the machine "
      << "again\n"
      << clean.output;
  ASSERT_EQ(clean.status, 0) << clean.output;
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

INSTANTIATE_TEST_SUITE_P(EveryDemo, GpuFault, ::testing::ValuesIn(gpulab::testing::demo_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

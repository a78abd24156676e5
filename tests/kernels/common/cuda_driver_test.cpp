// cpu label: why CUDA cannot start, told apart from what the driver probe found (injected here, so
// that each case is tested without its machine): no NVIDIA driver, a driver older than the runtime, a
// driver without a GPU, a driver that does not start; and the probe itself on this machine.
#include <gtest/gtest.h>

#include <string>

#include "common/cuda_driver.h"

using gpulab::DriverProbe;

namespace {

DriverProbe driver(int driver_version, int runtime_version, int init_result = 0) {
  DriverProbe p;
  p.loaded = true;
  p.has_version = true;
  p.driver_version = driver_version;
  p.runtime_version = runtime_version;
  p.has_init = true;
  p.init_result = init_result;
  return p;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

TEST(DriverProblem, NoLibcudaIsNoDriver) {
  DriverProbe p;
  p.runtime_version = 13000;
  p.load_error = "libcuda.so.1: cannot open shared object file: No such file or directory";
  const std::string why = gpulab::driver_problem(p);
  EXPECT_TRUE(starts_with(why, "no NVIDIA driver: libcuda.so.1 is not installed (libcuda.so.1: cannot open"))
      << why;
  EXPECT_NE(why.find("install the NVIDIA driver"), std::string::npos) << why;
  EXPECT_EQ(why.find("insufficient"), std::string::npos) << why;
  EXPECT_EQ(gpulab::driver_problem_short(p), "no NVIDIA driver");
  // What dlerror said is quoted with its control bytes escaped.
  p.load_error = "bad\x1b[2Jname";
  EXPECT_EQ(gpulab::driver_problem(p).find('\x1b'), std::string::npos);
}

TEST(DriverProblem, AnOlderDriverNamesBothVersions) {
  const DriverProbe p = driver(12020, 13000);
  const std::string why = gpulab::driver_problem(p);
  EXPECT_TRUE(starts_with(why,
                          "the NVIDIA driver is older than gpulab's CUDA runtime: the driver supports "
                          "CUDA 12.2, gpulab was built with CUDA 13.0"))
      << why;
  EXPECT_NE(why.find("update the driver"), std::string::npos) << why;
  EXPECT_EQ(gpulab::driver_problem_short(p), "driver too old");
  // (An old driver refuses cuInit too, with CUDA_ERROR_INSUFFICIENT_DRIVER: the versions say why.)
  EXPECT_EQ(gpulab::driver_problem_short(driver(12020, 13000, 35)), "driver too old");
}

TEST(DriverProblem, ANewEnoughDriverWithoutAGpuSaysSo) {
  const DriverProbe p = driver(13000, 13000, 100);  // CUDA_ERROR_NO_DEVICE
  EXPECT_EQ(gpulab::driver_problem(p),
            "no NVIDIA GPU: the NVIDIA driver (CUDA 13.0) is installed but finds no GPU");
  EXPECT_EQ(gpulab::driver_problem_short(p), "no NVIDIA GPU");
}

TEST(DriverProblem, ADriverThatDoesNotStartGivesItsError) {
  const std::string why = gpulab::driver_problem(driver(13010, 13000, 999));
  EXPECT_TRUE(starts_with(why, "the NVIDIA driver did not start: cuInit failed with error 999")) << why;
  EXPECT_EQ(gpulab::driver_problem_short(driver(13010, 13000, 999)), "driver failed");
  DriverProbe foreign = driver(0, 13000);
  foreign.has_version = false;
  EXPECT_TRUE(starts_with(gpulab::driver_problem(foreign),
                          "the NVIDIA driver did not start: libcuda.so.1 has no cuDriverGetVersion"));
}

TEST(DriverProblem, AGoodDriverIsNoProblem) {
  EXPECT_EQ(gpulab::driver_problem(driver(13000, 13000)), "");
  EXPECT_EQ(gpulab::driver_problem(driver(13020, 12080)), "");  // newer than the runtime: fine
  EXPECT_EQ(gpulab::driver_problem_short(driver(13020, 12080)), "");
  EXPECT_EQ(gpulab::cuda_version_text(12040), "12.4");
  EXPECT_EQ(gpulab::cuda_version_text(13000), "13.0");
}

// On this machine: whatever is installed, the probe answers and its sentence names one case.
TEST(DriverProblem, TheProbeOnThisMachineNamesOneCase) {
  const DriverProbe p = gpulab::probe_driver(13000);
  const std::string why = gpulab::driver_problem(p);
  if (!p.loaded) {
    EXPECT_TRUE(starts_with(why, "no NVIDIA driver")) << why;
    EXPECT_FALSE(p.load_error.empty());
  } else if (!why.empty()) {
    EXPECT_TRUE(starts_with(why, "the NVIDIA driver") || starts_with(why, "no NVIDIA GPU")) << why;
  }
}

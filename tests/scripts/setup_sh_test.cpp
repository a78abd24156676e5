// cpu label: scripts/setup.sh's CUDA line. An nvcc on PATH that does not run (a toolkit copied without
// its libraries) is named with its exit status and what it printed, and the build goes on with the CPU
// backend, rather than "gpulab: CUDA: " with nothing after it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;

namespace {

// Sources setup.sh with a fake nvcc (a shell script of `body`) first on PATH and runs its CUDA step;
// what it said (stderr) and whether it marked nvcc as broken.
std::string find_cuda_with(const std::string& body, const fs::path& dir) {
  const fs::path bin = dir / "bin";
  fs::create_directories(bin);
  { std::ofstream(bin / "nvcc") << "#!/bin/sh\n" << body; }
  ::chmod((bin / "nvcc").c_str(), 0755);
  const fs::path setup = fs::path(GPULAB_TEST_ASSETS).parent_path() / "scripts" / "setup.sh";
  const fs::path log = dir / "said.log";
  const std::string cmd =
      "env -u CUDACXX -u GPULAB_NVCC_BROKEN PATH='" + bin.string() + "':\"$PATH\" bash -c 'source \"" +
      setup.string() +
      "\" && gpulab_find_cuda && echo \"broken=${GPULAB_NVCC_BROKEN:-0} cudacxx=${CUDACXX:-}\"' >" +
      log.string() + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(log);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(SetupScript, AnNvccThatDoesNotRunIsNamedAndTheCpuBackendBuilt) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-setup-sh");
  const std::string said = find_cuda_with(
      "echo 'nvcc: error while loading shared libraries: libnvvm.so.4: cannot open shared object file' >&2\n"
      "exit 127\n",
      dir);
  EXPECT_NE(
      said.find("gpulab: CUDA: " + (dir / "bin" / "nvcc").string() +
                " does not run (nvcc --version exited with status 127: nvcc: error while loading shared "
                "libraries: libnvvm.so.4"),
      std::string::npos)
      << said;
  EXPECT_NE(said.find("building the CPU backend only"), std::string::npos) << said;
  EXPECT_NE(said.find("broken=1 cudacxx=\n"), std::string::npos) << said;  // CMake is not pointed at it
  fs::remove_all(dir);
}

TEST(SetupScript, AnNvccThatSaysNothingIsNamedToo) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-setup-sh-quiet");
  const std::string said = find_cuda_with("exit 0\n", dir);
  EXPECT_NE(
      said.find("--version did not say its release (it printed nothing): building the CPU backend only"),
      std::string::npos)
      << said;
  EXPECT_EQ(said.find("gpulab: CUDA: \n"), std::string::npos) << said;
  fs::remove_all(dir);
}

TEST(SetupScript, AWorkingNvccGivesItsRelease) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-setup-sh-ok");
  const std::string said = find_cuda_with(
      "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\necho 'Cuda compilation tools, release 13.0, V13.0.88'\n"
      "echo 'Build cuda_13.0.r13.0/compiler.36424714_0'\n",
      dir);
  EXPECT_NE(said.find("gpulab: CUDA: Build cuda_13.0.r13.0/compiler.36424714_0"), std::string::npos) << said;
  EXPECT_NE(said.find("broken=0 cudacxx=" + (dir / "bin" / "nvcc").string()), std::string::npos) << said;
  fs::remove_all(dir);
}

}  // namespace

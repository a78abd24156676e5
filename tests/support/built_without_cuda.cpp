// Built as the gpu-label tests when there is no CUDA compiler: `ctest -L gpu` then says why nothing
// ran instead of finding no tests.
#include <gtest/gtest.h>

TEST(GpuTests, NeedACudaBuild) {
  GTEST_SKIP() << "gpulab was built without CUDA (no CUDA compiler found): the gpu tests need a CUDA "
                  "build on a machine with an NVIDIA GPU";
}

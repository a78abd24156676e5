// cpu label: which CUDA errors leave the context unusable (a GPU fault the app answers by going on on
// the CPU), and that a healthy or absent device reports no broken context.
#include "common/device_health.h"

#include <gtest/gtest.h>

#if defined(GPULAB_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

namespace gpulab {
namespace {

#if defined(GPULAB_HAVE_CUDA)
TEST(DeviceHealth, AFaultIsStickyAndAnOutOfMemoryIsNot) {
  for (cudaError_t e : {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorIllegalInstruction,
                        cudaErrorMisalignedAddress, cudaErrorHardwareStackError, cudaErrorAssert})
    EXPECT_TRUE(sticky_cuda_error(e)) << cudaGetErrorName(e);
  for (cudaError_t e : {cudaSuccess, cudaErrorMemoryAllocation, cudaErrorInvalidValue,
                        cudaErrorInvalidConfiguration, cudaErrorNoDevice, cudaErrorInsufficientDriver})
    EXPECT_FALSE(sticky_cuda_error(e)) << cudaGetErrorName(e);
}
#endif

TEST(DeviceHealth, NoBrokenContextWithoutAFault) {
  // No device here (CI), or a healthy one: nothing to report, and asking does not break anything.
  EXPECT_EQ(broken_cuda_context(), "");
  EXPECT_EQ(broken_cuda_context(), "");
}

}  // namespace
}  // namespace gpulab

#pragma once
// gpu-label tests skip, with the reason, where no CUDA device can be used. With GPULAB_REQUIRE_GPU=1
// in the environment (scripts/gpu-check sets it) they fail instead: on the GPU machine a build
// without kernels for its architecture must not pass as "all skipped".
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "common/cuda_probe.h"

namespace gpulab::testing {
inline bool gpu_required() {
  const char* v = std::getenv("GPULAB_REQUIRE_GPU");
  return v && *v && std::strcmp(v, "0") != 0;
}
}  // namespace gpulab::testing

#define GPULAB_SKIP_WITHOUT_CUDA()                                                              \
  do {                                                                                          \
    const ::gpulab::CudaStatus gpulab_status_ = ::gpulab::cuda_status();                        \
    if (!gpulab_status_.available) {                                                            \
      if (::gpulab::testing::gpu_required())                                                    \
        FAIL() << "GPULAB_REQUIRE_GPU is set but no CUDA device can be used: " << gpulab_status_.reason; \
      GTEST_SKIP() << "no CUDA device: " << gpulab_status_.reason;                              \
    }                                                                                           \
  } while (0)

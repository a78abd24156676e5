#pragma once
// gpu-label tests skip, with the reason, where no CUDA device can be used. With GPULAB_REQUIRE_GPU=1
// in the environment (scripts/gpu-check sets it) they fail instead: on the GPU machine a build
// without kernels for its architecture must not pass as "all skipped".
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "common/cuda_probe.h"

namespace gpulab::testing {
// An environment switch: set, not empty and not "0".
inline bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}
inline bool gpu_required() { return env_flag("GPULAB_REQUIRE_GPU"); }
// GPULAB_SMALL_TESTS=1: the kernels' gpu tests shrink their sizes, so that compute-sanitizer runs end
// in minutes.
inline bool small_tests() { return env_flag("GPULAB_SMALL_TESTS"); }
}  // namespace gpulab::testing

#define GPULAB_SKIP_WITHOUT_CUDA()                                                                       \
  do {                                                                                                   \
    const ::gpulab::CudaStatus gpulab_status_ = ::gpulab::cuda_status();                                 \
    if (!gpulab_status_.available) {                                                                     \
      if (::gpulab::testing::gpu_required())                                                             \
        FAIL() << "GPULAB_REQUIRE_GPU is set but no CUDA device can be used: " << gpulab_status_.reason; \
      GTEST_SKIP() << "no CUDA device: " << gpulab_status_.reason;                                       \
    }                                                                                                    \
  } while (0)

#pragma once
// gpu-label tests skip, with the reason, where no CUDA device can be used.
#include <gtest/gtest.h>

#include "life/life_cuda.h"

#define GPULAB_SKIP_WITHOUT_CUDA()                                                  \
  do {                                                                              \
    const ::gpulab::life::CudaStatus gpulab_status_ = ::gpulab::life::cuda_status(); \
    if (!gpulab_status_.available) GTEST_SKIP() << "no CUDA device: " << gpulab_status_.reason; \
  } while (0)

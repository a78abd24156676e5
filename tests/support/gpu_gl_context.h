#pragma once
// A headless EGL platform on the CUDA device (not Mesa's software one) and the Context a demo or a
// display attaches to: CUDA and interop on, its own non-blocking stream, timings. For gpu tests.
// open() asserts, so call it through ASSERT_NO_FATAL_FAILURE. Members are destroyed context first,
// platform last; the object must not move once open (the Context points into it).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/demo.h"
#include "core/timings.h"
#include "cuda/interop.h"
#include "cuda/raii.h"
#include "platform/platform.h"

namespace gpulab::testing {

class GpuGlContext {
 public:
  GpuGlContext() = default;
  GpuGlContext(const GpuGlContext&) = delete;
  GpuGlContext& operator=(const GpuGlContext&) = delete;

  void open(int width, int height, int cuda_device) {
    platform::HeadlessOptions ho;
    ho.width = width;
    ho.height = height;
    ho.cuda_device = cuda_device;
    std::string why;
    pf = platform::create_headless(ho, &why);
    ASSERT_TRUE(pf) << why;
    ASSERT_FALSE(pf->info().software) << "no NVIDIA EGL device: " << pf->info().egl_device;
    int dev = -1;
    ASSERT_TRUE(cuda::gl_context_on_cuda_device(&dev)) << "the NVIDIA EGL context is not on a CUDA device";

    cudaSetDevice(cuda_device);
    stream = cuda::Stream::create_non_blocking();
    ctx.platform = pf.get();
    ctx.cuda = true;
    ctx.cuda_device = cuda_device;
    ctx.stream = stream.get();
    ctx.interop = true;
    ctx.timings = &timings;
  }

  std::unique_ptr<platform::Platform> pf;
  cuda::Stream stream;
  Timings timings;
  Context ctx;
};

}  // namespace gpulab::testing

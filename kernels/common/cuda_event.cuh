#pragma once
// A CUDA event owned for a scope (created timing-enabled, destroyed with it) and the time between two,
// for the kernels' own timings (the bench's yardstick choices, the transfers pipeline's spans). The
// app's move-only handle is app/cuda/raii.h's cuda::Event; kernels/ cannot include app/.
#include <cuda_runtime.h>

#include "common/cuda_check.h"

namespace gpulab::cuda {

class ScopedEvent {
 public:
  ScopedEvent() { CUDA_CHECK(cudaEventCreate(&e_)); }
  ~ScopedEvent() {
    if (e_) cudaEventDestroy(e_);
  }
  ScopedEvent(const ScopedEvent&) = delete;
  ScopedEvent& operator=(const ScopedEvent&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

// Milliseconds from a to b (both recorded, b complete).
inline double elapsed_ms(const ScopedEvent& a, const ScopedEvent& b) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a.get(), b.get()));
  return ms;
}

}  // namespace gpulab::cuda

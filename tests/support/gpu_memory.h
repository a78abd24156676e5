#pragma once
// Device memory that a test takes away, to provoke out-of-memory paths. For gpu tests (CUDA runtime).
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace gpulab::testing {

class MemoryHog {
 public:
  // Allocates until at most `leave` bytes are free (in decreasing chunk sizes, so fragmentation
  // does not stop it early).
  explicit MemoryHog(size_t leave) {
    for (size_t chunk = size_t{1} << 30; chunk >= (size_t{1} << 20); chunk >>= 2) {
      for (;;) {
        size_t free_bytes = 0, total = 0;
        if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess || free_bytes < leave + chunk) break;
        void* p = nullptr;
        if (cudaMalloc(&p, chunk) != cudaSuccess) {
          (void)cudaGetLastError();
          break;
        }
        blocks_.push_back(p);
      }
    }
  }
  ~MemoryHog() {
    for (void* p : blocks_) cudaFree(p);
  }
  MemoryHog(const MemoryHog&) = delete;
  MemoryHog& operator=(const MemoryHog&) = delete;

 private:
  std::vector<void*> blocks_;
};

}  // namespace gpulab::testing

#pragma once
// Move-only owners of device and pinned host allocations, for .cu files of every demo.
// A failed allocation throws GpuError(out_of_memory) naming what it was for and how much is free,
// and leaves the CUDA error state clean, so an engine's other buffers stay usable.
#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "common/cuda_check.h"

namespace gpulab::cuda {

inline std::string mib(size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

// Throws the out-of-memory GpuError for `what` needing `bytes` on `device` (after a failed cudaMalloc).
[[noreturn]] inline void throw_alloc_failure(cudaError_t err, size_t bytes, const std::string& what,
                                             const std::string& device) {
  (void)cudaGetLastError();  // cudaMalloc's failure is not sticky: clear it for the next launch check
  size_t free_bytes = 0, total_bytes = 0;
  (void)cudaMemGetInfo(&free_bytes, &total_bytes);
  throw GpuError(what + " needs " + mib(bytes) + ", " + mib(free_bytes) + " free on " + device + " (" +
                     cudaGetErrorName(err) + ")",
                 err == cudaErrorMemoryAllocation);
}

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(size_t count, const std::string& what, const std::string& device) : count_(count) {
    if (count == 0) return;
    void* p = nullptr;
    const cudaError_t err = cudaMalloc(&p, count * sizeof(T));
    if (err != cudaSuccess) throw_alloc_failure(err, count * sizeof(T), what, device);
    ptr_ = static_cast<T*>(p);
  }
  ~DeviceBuffer() {
    if (ptr_) (void)cudaFree(ptr_);  // never throws; an error here has nowhere to go
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) (void)cudaFree(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  size_t count() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

// Page-locked host memory for `count` T (asynchronous copies read back without stalling the frame).
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t count) : count_(count) {
    if (count) CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  ~PinnedBuffer() {
    if (ptr_) (void)cudaFreeHost(ptr_);
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) (void)cudaFreeHost(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* get() const { return ptr_; }
  size_t count() const { return count_; }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

}  // namespace gpulab::cuda

#pragma once
// cp.async (compute capability 8.0 on): copies from global to shared memory that bypass the registers,
// complete in the background and are waited for in groups. Callable only from code compiled for
// sm_80 or newer (guard the caller with __CUDA_ARCH__ >= 800); declared in the host pass too, where
// device code is only parsed.
#include <cuda_runtime.h>

namespace gpulab::cuda {

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
// 16 bytes (both addresses 16-byte aligned); !valid: the 16 bytes are zero-filled, nothing is read.
__device__ __forceinline__ void cp_async16(void* dst, const void* src, bool valid) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 16 : 0));
}
// The same, to a shared-memory address already converted (__cvta_generic_to_shared).
__device__ __forceinline__ void cp_async16(unsigned dst, const void* src, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(valid ? 16 : 0));
}
// 4 bytes; !valid: zero-filled, nothing read.
__device__ __forceinline__ void cp_async4(void* dst, const void* src, bool valid) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 4 : 0));
}
// Closes the group of the copies issued since the last commit.
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
// Waits until at most N committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
#endif

}  // namespace gpulab::cuda

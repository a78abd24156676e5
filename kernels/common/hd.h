#pragma once
// GPULAB_HD marks functions shared by the CPU reference and the CUDA kernels, so that logic which
// must give identical results on both (rules, colours, hashes) is written once.
#if defined(__CUDACC__)
#define GPULAB_HD __host__ __device__ __forceinline__
#else
#define GPULAB_HD inline
#endif

#include <cstdint>

// Declared at global scope, where the CUDA headers declare it: `struct CUstream_st*` written inside
// the namespace would name a different type (gpulab::CUstream_st) in files that do not include the
// runtime first, and functions taking a Stream would then link under two different names.
struct CUstream_st;

namespace gpulab {
// Opaque CUDA handle types, so that host headers need not include the CUDA runtime.
// They are the same types as cudaStream_t / cudaEvent_t / cudaSurfaceObject_t.
using Stream = ::CUstream_st*;
using SurfaceObject = unsigned long long;
}  // namespace gpulab

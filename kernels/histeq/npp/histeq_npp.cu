// The library lecture's NPP rungs of histogram equalization (NPP: the CUDA toolkit's image and signal
// primitives), built where CMake found NPP (npp/none/ answers otherwise):
//   hist-npp   nppiHistogramEven: 257 levels from 0 to 256, 256 bins of one value each, into NPP's own
//              scratch buffer (sized by nppiHistogramEvenGetBufferSize, kept between calls)
//   apply-npp  nppiLUTPalette: each 8-bit pixel through a 256-entry table in device memory
// Each call runs on the engine's stream through an NppStreamContext; a status below zero is an error,
// said with its name.
#include <npp.h>

#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "histeq/histeq_cuda_internal.cuh"

namespace gpulab::histeq::cuda_detail {
namespace {

std::string status_name(NppStatus s) {
  switch (s) {
    case NPP_NOT_SUPPORTED_MODE_ERROR:
      return "NPP_NOT_SUPPORTED_MODE_ERROR";
    case NPP_RESIZE_NO_OPERATION_ERROR:
      return "NPP_RESIZE_NO_OPERATION_ERROR";
    case NPP_BAD_ARGUMENT_ERROR:
      return "NPP_BAD_ARGUMENT_ERROR";
    case NPP_LUT_NUMBER_OF_LEVELS_ERROR:
      return "NPP_LUT_NUMBER_OF_LEVELS_ERROR";
    case NPP_HISTOGRAM_NUMBER_OF_LEVELS_ERROR:
      return "NPP_HISTOGRAM_NUMBER_OF_LEVELS_ERROR";
    case NPP_MEMORY_ALLOCATION_ERR:
      return "NPP_MEMORY_ALLOCATION_ERR";
    case NPP_NULL_POINTER_ERROR:
      return "NPP_NULL_POINTER_ERROR";
    case NPP_STEP_ERROR:
      return "NPP_STEP_ERROR";
    case NPP_SIZE_ERROR:
      return "NPP_SIZE_ERROR";
    case NPP_CUDA_KERNEL_EXECUTION_ERROR:
      return "NPP_CUDA_KERNEL_EXECUTION_ERROR";
    default:
      return "NPP status " + std::to_string(int(s));
  }
}

void check(NppStatus s, const char* call) {
  if (s < 0) throw std::runtime_error(std::string(call) + " failed: " + status_name(s));
}

// The engine's stream and its device, as NPP's _Ctx calls take them.
NppStreamContext context(cudaStream_t stream) {
  NppStreamContext c{};
  c.hStream = stream;
  CUDA_CHECK(cudaGetDevice(&c.nCudaDeviceId));
  auto attr = [&](cudaDeviceAttr a) {
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, a, c.nCudaDeviceId));
    return v;
  };
  c.nMultiProcessorCount = attr(cudaDevAttrMultiProcessorCount);
  c.nMaxThreadsPerMultiProcessor = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
  c.nMaxThreadsPerBlock = attr(cudaDevAttrMaxThreadsPerBlock);
  c.nSharedMemPerBlock = size_t(attr(cudaDevAttrMaxSharedMemoryPerBlock));
  c.nCudaDevAttrComputeCapabilityMajor = attr(cudaDevAttrComputeCapabilityMajor);
  c.nCudaDevAttrComputeCapabilityMinor = attr(cudaDevAttrComputeCapabilityMinor);
  unsigned flags = 0;
  CUDA_CHECK(cudaStreamGetFlags(stream, &flags));
  c.nStreamFlags = flags;
  return c;
}

// nppiHistogramEvenGetBufferSize's size: an int* in older NPP, a size_t* in newer.
template <class T>
size_t buffer_bytes(NppStatus (*f)(NppiSize, int, T*, NppStreamContext), NppiSize roi, int levels,
                    const NppStreamContext& c) {
  T bytes = 0;
  check(f(roi, levels, &bytes, c), "nppiHistogramEvenGetBufferSize_8u_C1R");
  return size_t(bytes);
}

}  // namespace

std::string npp_unavailable() { return {}; }

void npp_histogram(const uint8_t* d_plane, int width, int height, uint32_t* d_hist, NppScratch& scratch,
                   cudaStream_t stream) {
  const NppStreamContext c = context(stream);
  const NppiSize roi{width, height};
  // snippet hist_npp
  // <npp.h>: nppiHistogramEven_8u_C1R_Ctx (nppi_statistics_functions.h)
  constexpr int kLevels = kBins + 1;  // 0, 1, ..., 256: bin b holds the value b
  const size_t bytes = buffer_bytes(nppiHistogramEvenGetBufferSize_8u_C1R_Ctx, roi, kLevels, c);
  if (scratch.buffer.count() < bytes)
    scratch.buffer = cuda::DeviceBuffer<uint8_t>(bytes, "NPP's histogram scratch", scratch.device);
  check(nppiHistogramEven_8u_C1R_Ctx(d_plane, width, roi, reinterpret_cast<Npp32s*>(d_hist), kLevels, 0,
                                     kBins, scratch.buffer.get(), c),
        "nppiHistogramEven_8u_C1R");
  // end snippet
}

void npp_apply(const uint8_t* d_in, uint8_t* d_out, int width, int height, const uint8_t* d_lut,
               cudaStream_t stream) {
  const NppStreamContext c = context(stream);
  // snippet apply_npp
  // <npp.h>: nppiLUTPalette_8u_C1R_Ctx (nppi_color_conversion.h); the table is in device memory
  check(nppiLUTPalette_8u_C1R_Ctx(d_in, width, d_out, width, NppiSize{width, height}, d_lut, 8, c),
        "nppiLUTPalette_8u_C1R");
  // end snippet
}

}  // namespace gpulab::histeq::cuda_detail

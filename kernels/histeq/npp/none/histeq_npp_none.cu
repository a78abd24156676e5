// The NPP rungs where CMake did not find NPP when gpulab was built: listed, and unavailable with the
// reason (npp/histeq_npp.cu is the rungs themselves).
#include <stdexcept>
#include <string>

#include "histeq/histeq_cuda_internal.cuh"

namespace gpulab::histeq::cuda_detail {

std::string npp_unavailable() {
  return "NPP was not found when gpulab was built (the CUDA toolkit's libnppc, libnppist and libnppicc "
         "with npp.h; install them and build again)";
}

void npp_histogram(const uint8_t*, int, int, uint32_t*, NppScratch&, cudaStream_t) {
  throw std::runtime_error(npp_unavailable());
}

void npp_apply(const uint8_t*, uint8_t*, int, int, const uint8_t*, cudaStream_t) {
  throw std::runtime_error(npp_unavailable());
}

}  // namespace gpulab::histeq::cuda_detail

// What a build without CUDA links instead of transfers_cuda.cu: the GPU rungs are listed, and say why
// they cannot run.
#include <stdexcept>

#include "transfers/transfers.h"

namespace gpulab::transfers {

std::unique_ptr<Engine> make_cuda_engine(Stream, const Faults&) {
  throw std::runtime_error("built without CUDA");
}

void frame_to_surface(SurfaceObject, int, int, uint32_t, Stream) {
  throw std::runtime_error("built without CUDA");
}
void frame_to_buffer(uint32_t*, int, int, uint32_t, Stream) {
  throw std::runtime_error("built without CUDA");
}
double time_frame_kernel(int, int, int, Stream) { throw std::runtime_error("built without CUDA"); }
std::vector<KernelInfo> frame_kernels(Kind) { return {}; }

}  // namespace gpulab::transfers

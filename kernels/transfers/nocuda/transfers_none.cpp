// What a build without CUDA links instead of transfers_cuda.cu: the GPU rungs are listed, and say why
// they cannot run.
#include <stdexcept>

#include "transfers/transfers.h"

namespace gpulab::transfers {

std::unique_ptr<Engine> make_cuda_engine(Stream, const Faults&) {
  throw std::runtime_error("built without CUDA");
}

bool cuda_built() { return false; }

}  // namespace gpulab::transfers

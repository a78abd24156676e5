#pragma once
#include <stdexcept>
#include <string>

namespace gpulab {

// Thrown by CUDA_CHECK and by kernels/ code for failures the app shows in its UI.
class GpuError : public std::runtime_error {
 public:
  explicit GpuError(const std::string& what, bool out_of_memory = false)
      : std::runtime_error(what), out_of_memory_(out_of_memory) {}
  bool out_of_memory() const noexcept { return out_of_memory_; }

 private:
  bool out_of_memory_;
};

}  // namespace gpulab

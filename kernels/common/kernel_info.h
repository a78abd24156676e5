#pragma once
// A kernel a variant launches, for the occupancy panel (cudaFuncGetAttributes and the occupancy
// API). Shared by every demo; free of CUDA headers.
#include <cstddef>
#include <string_view>

namespace gpulab {

struct KernelInfo {
  std::string_view name;
  const void* func = nullptr;  // device function address
  int block_threads = 0;       // threads per block at the chosen block shape
  size_t dynamic_smem = 0;     // dynamic shared memory per block at that shape
  // Dynamic shared memory for an arbitrary block size (for the occupancy-over-block-size curve);
  // null when the kernel uses none.
  size_t (*dynamic_smem_for)(int block_threads) = nullptr;
};

}  // namespace gpulab

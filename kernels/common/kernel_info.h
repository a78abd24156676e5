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
  // A kernel compiled to different code below some architecture (an intrinsic the older GPUs lack,
  // replaced by a fallback): from sm_<path_min_arch> on it runs path_new, below it path_old. 0: one
  // path on every architecture.
  int path_min_arch = 0;
  std::string_view path_new, path_old;
};

// Which code path of `k` runs when its code was compiled for compute_<ptx_arch> (75, 90: the
// __CUDA_ARCH__ the kernel saw, also where the driver JIT-compiles that PTX); "" when it has one.
inline std::string_view kernel_code_path(const KernelInfo& k, int ptx_arch) {
  if (k.path_min_arch <= 0) return {};
  return ptx_arch >= k.path_min_arch ? k.path_new : k.path_old;
}

}  // namespace gpulab

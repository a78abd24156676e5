#pragma once
// Whether the current GL context runs on a CUDA device (cudaGLGetDevices with cudaGLDeviceListAll);
// false for Mesa, a remote X display, WSL2's d3d12 driver, a display driven by another GPU, and in a
// build without CUDA (cuda/nocuda/). On true, *device (if given) is the first such CUDA device. Never
// throws; clears the runtime's last error when the query fails. Free of CUDA headers.

namespace gpulab::cuda {
bool gl_context_on_cuda_device(int* device = nullptr);
}  // namespace gpulab::cuda

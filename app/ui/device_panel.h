#pragma once
// The device panel: everything the deviceQuery lesson lists about the CUDA device, grouped, with
// the derived peaks (bandwidth, FP32) and how they are computed. Takes the plain DeviceInfo struct,
// so it builds without CUDA (the App simply has no DeviceInfo to show on the CPU backend).
#include "cuda/device_info.h"

namespace gpulab::ui {

// Draws into the current ImGui window.
void device_panel(const cuda::DeviceInfo& device);

}  // namespace gpulab::ui

#pragma once
// The CPU engines' device label (bench tables, captions, the panel).
#include <string>

namespace gpulab {

// The one label every CPU engine gives its device (captions, bench and ladder tables, the HUD):
// "CPU (<model name>, N threads)", the model from /proc/cpuinfo ("model name" on x86; "Model" or
// "Hardware" on some ARM kernels), or "CPU (N threads)" without one; "1 thread" for one.
std::string cpu_label(unsigned threads);

}  // namespace gpulab

#pragma once
// The CPU's model name, for the CPU engines' device lines (bench tables, the panel).
#include <string>

namespace gpulab {

// "CPU (<model name>)" from /proc/cpuinfo ("model name" on x86; "Model" or "Hardware" on some ARM
// kernels), or "CPU" when none is found.
std::string cpu_model_name();

}  // namespace gpulab

#pragma once
// Why CUDA cannot start, told apart: no NVIDIA driver at all (libcuda.so.1 does not load), a driver
// older than the CUDA runtime this build links (the runtime says only "CUDA driver version is
// insufficient" for both), a driver with no NVIDIA GPU, a driver that does not initialise. The driver is
// looked at through dlopen, so that a build runs where it is missing; the message is chosen by a pure
// function of what was found, so that each case is tested without its machine. No CUDA headers.
#include <string>

namespace gpulab {

struct DriverProbe {
  bool loaded = false;       // dlopen("libcuda.so.1") succeeded
  std::string load_error;    // dlerror() when it did not
  bool has_version = false;  // cuDriverGetVersion was found and answered
  int driver_version = 0;    // the CUDA version the driver supports, 1000 * major + 10 * minor (12040: 12.4)
  int runtime_version = 0;   // the CUDA runtime this build links (CUDART_VERSION; 0: built without CUDA)
  bool has_init = false;     // cuInit was found and called
  int init_result = 0;       // its CUresult (0: success, 100: no device, 35: insufficient driver...)
};

// Loads libcuda.so.1 (and unloads it), asks its version and calls cuInit(0). `runtime_version`: the
// build's CUDA runtime version. Never throws.
DriverProbe probe_driver(int runtime_version);

// "12.4" for 12040.
std::string cuda_version_text(int version);

// What is wrong with the driver, in a sentence that names which case it is (starting "no NVIDIA
// driver", "the NVIDIA driver is older than", "no NVIDIA GPU", "the NVIDIA driver did not start"), and
// what to do; "" when the driver is there, new enough and initialises (the problem is elsewhere).
std::string driver_problem(const DriverProbe& probe);

// A few words for a status chip: "no NVIDIA driver", "driver too old", "no NVIDIA GPU", "driver
// failed", or "" when driver_problem is "".
std::string driver_problem_short(const DriverProbe& probe);

}  // namespace gpulab

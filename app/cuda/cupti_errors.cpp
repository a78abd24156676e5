#include "cuda/cupti_errors.h"

#include <string>

namespace gpulab::cuda {

std::string cupti_error_reason(int code, std::string_view call, std::string_view cupti_text,
                               CuptiProfiler profiler) {
  if (profiler == CuptiProfiler::PmSampling && (code == 27 || code == 46))  // PM sampling: Turing or later
    return "this GPU has no PM sampling in this CUDA toolkit's CUPTI (" + std::string(call) + ": " +
           (cupti_text.empty() ? std::string("not supported") : std::string(cupti_text)) + ")";
  switch (code) {
    case 35:  // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
      return "the NVIDIA driver lets only administrators read the GPU's performance counters "
             "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, ERR_NVGPUCTRPERM). An administrator can allow every "
             "user: "
             "add 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' to a file in /etc/modprobe.d/, "
             "then reload the nvidia module or reboot; or run gpulab with CAP_PERFMON or CAP_SYS_ADMIN "
             "(e.g. as root). Everything else in gpulab works without them";
    case 40:  // CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES
      return "the hypervisor does not allow reading performance counters on this virtual GPU "
             "(CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES): the host's administrator must enable "
             "profiling for the vGPU";
    case 39:  // CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
      return "another profiler is attached to gpulab (Nsight Systems, Nsight Compute, cuda-gdb or another "
             "CUPTI tool; CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): run gpulab outside it to read the "
             "counters here";
    case 36:  // CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED
      return "another profiling API (CUPTI's legacy event/metric API) is in use in this process, so the "
             "range profiler cannot start (CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED)";
    case 26:  // CUPTI_ERROR_HARDWARE_BUSY
      return "the GPU's counters are in use by another process (a profiler or a monitoring tool such as "
             "DCGM; CUPTI_ERROR_HARDWARE_BUSY): stop it and measure again";
    case 33:
      return "CUPTI cannot profile this virtualised GPU (CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED)";
    case 41:
      return "profiling is not allowed while confidential computing is on "
             "(CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED)";
    case 42:
      return "CUPTI does not support NVIDIA crypto-mining processors (CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED)";
    case 43:
      return "CUPTI cannot profile a MIG instance of a GPU (CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED): use the "
             "whole GPU";
    case 44:
      return "CUPTI cannot profile GPUs in SLI (CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED)";
    case 45:
      return "CUPTI's range profiler does not run under WSL here (CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED)";
    case 27:
    case 46:
      return "this GPU has no range-profiler support in this CUDA toolkit's CUPTI (" + std::string(call) +
             (code == 46 ? ": CUPTI_ERROR_INVALID_CHIP_NAME" : ": CUPTI_ERROR_NOT_SUPPORTED") +
             "); the range profiler needs a Turing or later GPU";
    case 17:
      return "this GPU does not have one of gpulab's metrics (" + std::string(call) +
             ": CUPTI_ERROR_INVALID_METRIC_NAME)";
    default:
      break;
  }
  std::string s = std::string(call) + " failed";
  if (!cupti_text.empty()) s += ": " + std::string(cupti_text);
  return s + " (CUPTI error " + std::to_string(code) + ")";
}

}  // namespace gpulab::cuda

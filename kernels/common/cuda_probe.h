#pragma once
// Whether a CUDA device can be used, and if not, why (no driver, no device, no kernels for this
// GPU's architecture, built without CUDA). One probe for the app, every demo, the bench and tests.
#include <string>

#include "common/hd.h"

namespace gpulab {

struct CudaStatus {
  bool available = false;
  int device = -1;
  std::string reason;  // why not, when !available
  // The same in a few words, for the panel's status chip ("no NVIDIA driver", "driver too old", "no
  // NVIDIA GPU", "built without CUDA"...).
  std::string short_reason;
};

// Probes once per call (cheap after the first: the runtime is initialised then). Never throws.
CudaStatus cuda_status();

// What a rung, a toast or a lesson step says when `reason` is why this machine has no usable CUDA
// device (status.reason, a loader's error and all): "needs an NVIDIA GPU", or with the few words of
// status.short_reason where a GPU is there but cannot be used ("needs an NVIDIA GPU: driver too
// old"), or "built without CUDA" in such a build. The full reason is said once: the Device tab, --check's
// machine line, a ladder's first GPU rung. Any other reason comes back unchanged.
inline std::string brief_cuda_reason(const std::string& reason, const CudaStatus& status) {
  if (status.available || reason.empty() || reason != status.reason) return reason;
  if (status.short_reason.empty() || status.short_reason == "no NVIDIA driver" ||
      status.short_reason == "no NVIDIA GPU")
    return "needs an NVIDIA GPU";
  if (status.short_reason == "built without CUDA") return status.short_reason;  // a GPU would not help
  return "needs an NVIDIA GPU: " + status.short_reason;
}

// The device a demo's CUDA engine runs on: cuda_status()'s (the current device), its name and SM
// count. Throws GpuError("CUDA is not available: <reason>") where CUDA cannot be used (always, in a
// build without CUDA). Every engine's create() starts here.
struct EngineDevice {
  int id = 0;
  std::string name;
  int sm_count = 1;
};
EngineDevice engine_device();

// Whether this build has the CUDA backend (whether or not a device is here): false where the
// <demo>/nocuda/ files were built instead of the .cu files. The app asks this instead of testing
// GPULAB_HAVE_CUDA, so one build rule (kernels/CMakeLists.txt) decides.
bool cuda_built();

// Blocks until the work on `stream` is done; throws GpuError for a device error. Nothing to wait for
// in a build without CUDA.
void synchronize_stream(Stream stream);

}  // namespace gpulab

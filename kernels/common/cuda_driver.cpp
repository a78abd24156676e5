// The driver probe (cuda_driver.h): libcuda through dlopen, the message by a pure function.
#include "common/cuda_driver.h"

#include <dlfcn.h>

#include "common/text.h"

namespace gpulab {

DriverProbe probe_driver(int runtime_version) {
  DriverProbe p;
  p.runtime_version = runtime_version;
  dlerror();
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* e = dlerror();
    p.load_error = e ? e : "not found";
    return p;
  }
  p.loaded = true;
  using GetVersion = int (*)(int*);
  using Init = int (*)(unsigned);
  if (auto get = reinterpret_cast<GetVersion>(dlsym(lib, "cuDriverGetVersion"))) {
    int v = 0;
    if (get(&v) == 0) {
      p.has_version = true;
      p.driver_version = v;
    }
  }
  if (auto init = reinterpret_cast<Init>(dlsym(lib, "cuInit"))) {
    p.has_init = true;
    p.init_result = init(0);
  }
  // (Left loaded: the CUDA runtime of this process holds it anyway, and unloading a driver that has
  // been initialised is not safe.)
  return p;
}

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string driver_problem(const DriverProbe& p) {
  if (!p.loaded)
    return "no NVIDIA driver: libcuda.so.1 is not installed (" + text::escape(p.load_error) +
           "); install the NVIDIA driver to run the GPU variants";
  if (p.has_version && p.runtime_version > 0 && p.driver_version < p.runtime_version)
    return "the NVIDIA driver is older than gpulab's CUDA runtime: the driver supports CUDA " +
           cuda_version_text(p.driver_version) + ", gpulab was built with CUDA " +
           cuda_version_text(p.runtime_version) + " (update the driver, or build gpulab with CUDA " +
           cuda_version_text(p.driver_version) + " or older)";
  if (p.has_init && p.init_result == 100)
    return "no NVIDIA GPU: the NVIDIA driver" +
           (p.has_version ? " (CUDA " + cuda_version_text(p.driver_version) + ")" : std::string()) +
           " is installed but finds no GPU";
  if (!p.has_version || !p.has_init)
    return "the NVIDIA driver did not start: libcuda.so.1 has no " +
           std::string(!p.has_version ? "cuDriverGetVersion" : "cuInit") + " (a broken or foreign install)";
  if (p.init_result != 0)
    return "the NVIDIA driver did not start: cuInit failed with error " + std::to_string(p.init_result) +
           (p.init_result == 999 ? " (unknown: often a driver whose kernel module does not match; reboot)"
                                 : std::string());
  return {};
}

std::string driver_problem_short(const DriverProbe& p) {
  const std::string long_form = driver_problem(p);
  if (long_form.empty()) return {};
  if (!p.loaded) return "no NVIDIA driver";
  if (long_form.rfind("the NVIDIA driver is older", 0) == 0) return "driver too old";
  if (long_form.rfind("no NVIDIA GPU", 0) == 0) return "no NVIDIA GPU";
  return "driver failed";
}

}  // namespace gpulab

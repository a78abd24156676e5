// metric_passes (counters.h): how many passes a metric set needs on a chip, from CUPTI's profiler host
// API alone (no GPU). Builds without CUPTI answer from counters.cpp with the build's reason.
#if defined(GPULAB_HAVE_CUPTI)
#include <cupti_profiler_host.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/counters.h"
#include "cuda/cupti_util.h"

namespace gpulab::cuda {

int metric_passes(const std::string& chip, const std::vector<std::string>& metrics, bool pm_sampling,
                  std::string* why) {
  CUpti_Profiler_Host_Object* host = nullptr;
  int passes = 0;
  try {
    host = cupti::host_object(
        pm_sampling ? CUPTI_PROFILER_TYPE_PM_SAMPLING : CUPTI_PROFILER_TYPE_RANGE_PROFILER, chip, nullptr);
    std::vector<const char*> names;
    for (const std::string& m : metrics) names.push_back(m.c_str());
    cupti::config_image(host, names.data(), names.size(), &passes,
                        pm_sampling ? CuptiProfiler::PmSampling : CuptiProfiler::Range);
    if (why) why->clear();
  } catch (const cupti::Failure& f) {
    if (why) *why = f.reason;
    passes = 0;
  }
  cupti::release_host_object(host);
  return passes;
}

}  // namespace gpulab::cuda

#endif  // GPULAB_HAVE_CUPTI

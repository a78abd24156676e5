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

using cupti::check;
using cupti::params;

int metric_passes(const std::string& chip, const std::vector<std::string>& metrics, bool pm_sampling,
                  std::string* why) {
  CUpti_Profiler_Host_Object* host = nullptr;
  int passes = 0;
  try {
    {
      auto p = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
      p.profilerType = pm_sampling ? CUPTI_PROFILER_TYPE_PM_SAMPLING : CUPTI_PROFILER_TYPE_RANGE_PROFILER;
      p.pChipName = chip.c_str();
      check(cuptiProfilerHostInitialize(&p), "cuptiProfilerHostInitialize");
      host = p.pHostObject;
    }
    std::vector<const char*> names;
    for (const std::string& m : metrics) names.push_back(m.c_str());
    {
      auto p = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
      p.pHostObject = host;
      p.ppMetricNames = names.data();
      p.numMetrics = names.size();
      check(cuptiProfilerHostConfigAddMetrics(&p), "cuptiProfilerHostConfigAddMetrics");
    }
    std::vector<uint8_t> config;
    {
      auto p = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
      p.pHostObject = host;
      check(cuptiProfilerHostGetConfigImageSize(&p), "cuptiProfilerHostGetConfigImageSize");
      config.assign(p.configImageSize, 0);
    }
    {
      auto p = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
      p.pHostObject = host;
      p.configImageSize = config.size();
      p.pConfigImage = config.data();
      check(cuptiProfilerHostGetConfigImage(&p), "cuptiProfilerHostGetConfigImage");
    }
    {
      auto p = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
      p.configImageSize = config.size();
      p.pConfigImage = config.data();
      check(cuptiProfilerHostGetNumOfPasses(&p), "cuptiProfilerHostGetNumOfPasses");
      passes = int(p.numOfPasses);
    }
    if (why) why->clear();
  } catch (const cupti::Failure& f) {
    if (why) *why = f.reason;
    passes = 0;
  }
  if (host) {
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = host;
    cuptiProfilerHostDeinitialize(&p);
  }
  return passes;
}

}  // namespace gpulab::cuda

#endif  // GPULAB_HAVE_CUPTI

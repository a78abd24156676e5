#pragma once
// Shared by app/cuda's CUPTI users (counters.cpp, pm_sampler.cpp): CUPTI parameter blocks, and a
// failed CUPTI call as an exception carrying the reason in words (cupti_error_reason). Included only
// where GPULAB_HAVE_CUPTI is defined.
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/cupti_errors.h"

namespace gpulab::cuda::cupti {

// A CUPTI parameter block: zeroed, with its size set (CUPTI checks the size against its own).
template <class P>
P params(size_t struct_size) {
  P p{};
  p.structSize = struct_size;
  return p;
}

// A CUPTI call that failed, as the result's reason.
struct Failure {
  std::string reason;
  bool lasting = false;  // holds for every later attempt (permissions, the device, the metrics)
};

inline bool lasting_code(int code) {
  return code == 35 || code == 40 || code == 33 || code == 41 || code == 42 || code == 43 || code == 44 ||
         code == 45 || code == 27 || code == 46 || code == 17;
}

// CUPTI's own text for a result ("" when it has none).
inline std::string result_text(CUptiResult r) {
  const char* text = nullptr;
  if (cuptiGetResultString(r, &text) != CUPTI_SUCCESS || !text) return {};
  return text;
}

// Throws Failure for a failed call of `profiler` (its name words the unsupported-GPU reasons).
inline void check(CUptiResult r, const char* call, CuptiProfiler profiler = CuptiProfiler::Range) {
  if (r == CUPTI_SUCCESS) return;
  throw Failure{cupti_error_reason(int(r), call, result_text(r), profiler), lasting_code(int(r))};
}

inline CuptiProfiler profiler_of(CUpti_ProfilerType type) {
  return type == CUPTI_PROFILER_TYPE_PM_SAMPLING ? CuptiProfiler::PmSampling : CuptiProfiler::Range;
}

// A profiler host object (range profiler or PM sampling) for `chip`, with the counter availability
// image `availability` (null: none, the host API alone). CUPTI keeps pointers to the chip name and
// the availability image rather than copies: both must outlive the object. Throws Failure.
inline CUpti_Profiler_Host_Object* host_object(CUpti_ProfilerType type, const std::string& chip,
                                               const uint8_t* availability) {
  auto p = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  p.profilerType = type;
  p.pChipName = chip.c_str();
  p.pCounterAvailabilityImage = availability;
  check(cuptiProfilerHostInitialize(&p), "cuptiProfilerHostInitialize", profiler_of(type));
  return p.pHostObject;
}

// Deinitialises a host object made by host_object (nothing when null) and nulls it.
inline void release_host_object(CUpti_Profiler_Host_Object*& host) {
  if (host) {
    auto p =
        params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = host;
    cuptiProfilerHostDeinitialize(&p);
  }
  host = nullptr;
}

// The configuration image of `count` metrics on a profiler host object (range profiler or PM sampling),
// and the passes it needs (*passes). Throws Failure as check() does, for `profiler`.
inline std::vector<uint8_t> config_image(CUpti_Profiler_Host_Object* host, const char* const* names,
                                         size_t count, int* passes,
                                         CuptiProfiler profiler = CuptiProfiler::Range) {
  {
    auto p = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    p.pHostObject = host;
    p.ppMetricNames = const_cast<const char**>(names);
    p.numMetrics = count;
    check(cuptiProfilerHostConfigAddMetrics(&p), "cuptiProfilerHostConfigAddMetrics", profiler);
  }
  std::vector<uint8_t> config;
  {
    auto p = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    p.pHostObject = host;
    check(cuptiProfilerHostGetConfigImageSize(&p), "cuptiProfilerHostGetConfigImageSize", profiler);
    config.assign(p.configImageSize, 0);
  }
  {
    auto p = params<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    p.pHostObject = host;
    p.configImageSize = config.size();
    p.pConfigImage = config.data();
    check(cuptiProfilerHostGetConfigImage(&p), "cuptiProfilerHostGetConfigImage", profiler);
  }
  {
    auto p = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    p.configImageSize = config.size();
    p.pConfigImage = config.data();
    check(cuptiProfilerHostGetNumOfPasses(&p), "cuptiProfilerHostGetNumOfPasses", profiler);
    if (passes) *passes = int(p.numOfPasses);
  }
  return config;
}

// cuptiProfilerInitialize (each call must be matched by a cuptiProfilerDeInitialize, or none at all).
inline void profiler_initialize(CuptiProfiler profiler) {
  auto p = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  check(cuptiProfilerInitialize(&p), "cuptiProfilerInitialize", profiler);
}

// CUPTI's name of device `device`'s chip ("GH100"); CUPTI's profiler must be initialised.
inline std::string chip_name(int device, CuptiProfiler profiler) {
  auto p = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  p.deviceIndex = size_t(device);
  check(cuptiDeviceGetChipName(&p), "cuptiDeviceGetChipName", profiler);
  return p.pChipName ? p.pChipName : "";
}

// The values of `count` metrics (`names`, as configured on `host`) for range or sample `index` of a
// decoded counter data image, into values[0 .. count). Throws Failure as check() does.
inline void evaluate(CUpti_Profiler_Host_Object* host, const std::vector<uint8_t>& image, size_t index,
                     const char* const* names, size_t count, double* values, CuptiProfiler profiler) {
  auto ev = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  ev.pHostObject = host;
  ev.pCounterDataImage = image.data();
  ev.counterDataImageSize = image.size();
  ev.rangeIndex = index;
  ev.ppMetricNames = const_cast<const char**>(names);
  ev.numMetrics = count;
  ev.pMetricValues = values;
  check(cuptiProfilerHostEvaluateToGpuValues(&ev), "cuptiProfilerHostEvaluateToGpuValues", profiler);
}

}  // namespace gpulab::cuda::cupti

#pragma once
// Why a CUPTI call failed, in words (every build: the answers need no CUPTI header). Used by the
// counters (counters.cpp), PM sampling (pm_sampler.cpp) and cupti_util.h.
#include <string>
#include <string_view>

namespace gpulab::cuda {

// Which of CUPTI's profilers made a call: the reasons for an unsupported GPU name it.
enum class CuptiProfiler { Range, PmSampling };

// Why counters cannot be read, in words a lecturer can act on. `code` is a CUptiResult, `call` the
// CUPTI function that returned it, `profiler` the profiler it served. CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
// (35) says how an administrator enables the counters; 39 (multiple subscribers) that another profiler
// is attached.
std::string cupti_error_reason(int code, std::string_view call, std::string_view cupti_text = {},
                               CuptiProfiler profiler = CuptiProfiler::Range);

}  // namespace gpulab::cuda

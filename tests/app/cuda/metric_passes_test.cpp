// What the toolkit's CUPTI says about gpulab's metric sets on the H100's chip (GH100), with the
// profiler host API alone (no GPU): the counters' set is one pass (no replay, as the issue measured),
// the live meters' pair is one PM-sampling pass, and the shared-atomics serialisation metrics exist
// for GH100 but would make the counters' set two passes (why they are not in it). Unknown names say so.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda/counters.h"
#include "cuda/pm_sampler.h"

namespace gpulab::cuda {
namespace {

std::vector<std::string> counters_set() { return {kMetricNames.begin(), kMetricNames.end()}; }

TEST(MetricPasses, OnGh100TheCountersAreOnePassAndTheMetersOnePmSamplingPass) {
  std::string why;
#if !defined(GPULAB_HAVE_CUPTI)
  EXPECT_EQ(metric_passes("GH100", counters_set(), false, &why), 0);
  EXPECT_EQ(why, counters_build_reason());
#else
  EXPECT_EQ(metric_passes("GH100", counters_set(), false, &why), 1) << why;
  EXPECT_EQ(metric_passes("GH100", {kMeterDramMetric, kMeterSmMetric}, true, &why), 1) << why;
  // Shared atomics' bank conflicts and wavefronts: known for GH100, one pass alone, two with the set.
  for (const char* atom : {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"}) {
    EXPECT_EQ(metric_passes("GH100", {atom}, false, &why), 1) << atom << ": " << why;
    std::vector<std::string> with = counters_set();
    with.push_back(atom);
    EXPECT_EQ(metric_passes("GH100", with, false, &why), 2) << atom << ": " << why;
  }
  EXPECT_EQ(metric_passes("GH100", {"no__such_metric.sum"}, false, &why), 0);
  EXPECT_FALSE(why.empty());
#endif
}

}  // namespace
}  // namespace gpulab::cuda

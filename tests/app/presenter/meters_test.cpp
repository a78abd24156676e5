// The live meters' history from given samples: the window keeps the last seconds, the plot's bins
// average their samples and bridge empty ones, the recent mean, the rate, out-of-order samples and a
// restarted clock. And without CUPTI or a device the sampler says why instead of sampling.
#include "presenter/meters.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "common/cuda_probe.h"
#include "cuda/counters.h"

namespace gpulab::presenter {
namespace {

using cuda::MeterSample;

std::vector<MeterSample> ramp(double t0, double dt, int n, double dram, double sm) {
  std::vector<MeterSample> v;
  for (int i = 0; i < n; ++i) v.push_back({t0 + dt * i, dram, sm});
  return v;
}

TEST(Meters, TheWindowKeepsTheLastSecondsAndTheRateIsTheSamplesASecond) {
  MeterHistory h(10);
  h.add(ramp(100.0, 0.02, 1001, 10, 50));  // 20 s at 50 Hz
  EXPECT_NEAR(h.span_s(), 10.0, 0.021);
  EXPECT_NEAR(h.rate_hz(), 50.0, 0.2);
  EXPECT_NEAR(double(h.size()), 501.0, 1.0);
  EXPECT_DOUBLE_EQ(h.mean(Meter::Dram, 1.0), 10.0);
  EXPECT_DOUBLE_EQ(h.mean(Meter::Sm, 1.0), 50.0);
}

TEST(Meters, ThePlotShowsTheLoadWhereItWasAndBridgesGaps) {
  MeterHistory h(10);
  h.add(ramp(0.0, 0.02, 250, 5, 1));                     // 0 .. 5 s idle
  h.add(ramp(5.0, 0.02, 150, 90, 99));                   // 5 .. 8 s memory-bound
  h.add(ramp(9.0, 0.02, 51, 5, 1));                      // a second without samples, then idle to 10 s
  const std::vector<float> p = h.plot(Meter::Dram, 10);  // one bin a second
  ASSERT_EQ(p.size(), 10u);
  EXPECT_NEAR(p[0], 5.0f, 0.01f);
  EXPECT_NEAR(p[4], 5.0f, 0.01f);
  EXPECT_NEAR(p[6], 90.0f, 0.01f);
  EXPECT_NEAR(p[7], 90.0f, 0.01f);
  EXPECT_NEAR(p[8], 90.0f, 0.01f);  // no samples from 8 to 9 s: the last value is carried
  EXPECT_NEAR(p[9], 5.0f, 0.01f);
  EXPECT_NEAR(h.max(Meter::Dram), 90.0, 1e-9);
  EXPECT_NEAR(h.max(Meter::Sm), 99.0, 1e-9);
  // More bins than samples a bin: every bin still has a value between the extremes.
  for (float v : h.plot(Meter::Sm, 1000)) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LE(v, 99.0f);
  }
  EXPECT_TRUE(MeterHistory().plot(Meter::Dram, 5) == std::vector<float>(5, 0.0f));
}

TEST(Meters, OutOfOrderSamplesAreDroppedAndARestartedClockStartsAfresh) {
  MeterHistory h(10);
  h.add(ramp(1000.0, 0.1, 20, 40, 40));
  const size_t n = h.size();
  h.add({{1000.5, 99, 99}, {1001.9, 99, 99}});  // not after the newest (1001.9)
  EXPECT_EQ(h.size(), n);
  h.add({{std::nan(""), 1, 1}, {1002.0, INFINITY, 1}});
  EXPECT_EQ(h.size(), n);
  h.add(ramp(3.0, 0.1, 5, 7, 7));  // another session's clock, far before: the history restarts
  EXPECT_EQ(h.size(), 5u);
  EXPECT_DOUBLE_EQ(h.mean(Meter::Dram, 100), 7.0);
}

// Where it cannot sample, the sampler says why (and never blocks): a build without CUPTI, or no
// device (this test checks the device-less answer only where there is no device).
TEST(Meters, WithoutCuptiOrADeviceTheSamplerSaysWhy) {
#if !defined(GPULAB_HAVE_CUPTI)
  cuda::PmSampler s;
  s.start();
  EXPECT_EQ(s.status(), cuda::counters_build_reason());
  EXPECT_TRUE(s.take().empty());
#else
  if (cuda_status().available) GTEST_SKIP() << "a CUDA device is here: the gpu test samples it";
  cuda::PmSampler s;
  s.start();
  const auto t0 = std::chrono::steady_clock::now();
  while (s.status() == "starting" && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(s.status(), "no CUDA device: the meters sample a GPU");
  s.pause();  // returns at once: nothing holds the counters
  s.resume();
  EXPECT_TRUE(s.take().empty());
#endif
}

}  // namespace
}  // namespace gpulab::presenter

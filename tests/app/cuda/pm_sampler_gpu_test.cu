// The live meters on the GPU (CUPTI PM sampling): samples come at the configured rate (by the GPU's
// own timestamps and by their number over the wall time), the DRAM meter rises well above idle while
// a memory-bound copy loop runs for ~0.3 s, and pausing the sampler lets the range profiler measure
// (counters.h) and sampling resume after it. Where the sampler cannot run the test fails with its
// reason (CUPTI's error string): the GPU machine runs as root, so the meters must work there.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cuda/counters.h"
#include "cuda/pm_sampler.h"
#include "support/gpu_skip.h"

namespace gpulab {
namespace {

using Clock = std::chrono::steady_clock;

__global__ void touch_kernel(float* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = p[i] * 0.5f + 1.0f;
}

// Waits until the sampler runs (status "") or fails, up to 5 s; returns its last status.
std::string wait_running(cuda::PmSampler& s) {
  const auto t0 = Clock::now();
  std::string st = s.status();
  while (!st.empty() && !s.failed() && Clock::now() - t0 < std::chrono::seconds(5)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    st = s.status();
  }
  return st;
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

struct Stats {
  size_t n = 0;
  double mean = 0, max = 0, above30 = 0, median_dt_ms = 0, span_s = 0;
};
Stats stats(const std::vector<cuda::MeterSample>& v) {
  Stats s;
  s.n = v.size();
  std::vector<double> dts;
  for (size_t i = 0; i < v.size(); ++i) {
    s.mean += v[i].dram_pct / double(v.size());
    s.max = std::max(s.max, v[i].dram_pct);
    s.above30 += v[i].dram_pct > 30;
    if (i > 0) dts.push_back((v[i].t_s - v[i - 1].t_s) * 1e3);
  }
  if (!dts.empty()) {
    std::nth_element(dts.begin(), dts.begin() + dts.size() / 2, dts.end());
    s.median_dt_ms = dts[dts.size() / 2];
  }
  if (v.size() > 1) s.span_s = v.back().t_s - v.front().t_s;
  return s;
}

TEST(PmSamplerGpu, TheDramMeterRisesUnderACopyLoopAtTheConfiguredRate) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const double interval_ms = 2.0;
  cuda::PmSampler sampler(interval_ms, 25);
  sampler.start();
  const std::string st = wait_running(sampler);
  ASSERT_EQ(st, "") << "the PM sampler did not start: " << st;

  sleep_ms(300);
  const auto idle_t0 = Clock::now();
  sampler.take();  // what came before the idle window
  sleep_ms(300);
  const double idle_wall = std::chrono::duration<double>(Clock::now() - idle_t0).count();
  sleep_ms(60);  // one decode period and a margin
  const std::vector<cuda::MeterSample> idle = sampler.take();

  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  size_t bytes = size_t(1) << 30;
  while (2 * bytes > free_b / 2 && bytes > (size_t(64) << 20)) bytes /= 2;
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b, bytes), cudaSuccess);
  cudaMemset(a, 1, bytes);
  cudaDeviceSynchronize();
  sampler.take();
  const auto load_t0 = Clock::now();
  int copies = 0;
  while (Clock::now() - load_t0 < std::chrono::milliseconds(300)) {
    ASSERT_EQ(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), cudaSuccess);
    ++copies;
  }
  const double load_wall = std::chrono::duration<double>(Clock::now() - load_t0).count();
  sleep_ms(60);
  const std::vector<cuda::MeterSample> load = sampler.take();
  const std::string after = sampler.status();
  sampler.stop();
  cudaFree(a);
  cudaFree(b);

  const Stats i = stats(idle), l = stats(load);
  std::printf(
      "PM sampling every %.1f ms: idle %zu samples in %.3f s (median step %.3f ms, DRAM mean %.1f%% max "
      "%.1f%%); "
      "%d copies of %zu MB in %.3f s: %zu samples (median step %.3f ms, DRAM mean %.1f%% max %.1f%%, %.0f "
      "above 30%%); "
      "status after: '%s'\n",
      interval_ms, i.n, idle_wall, i.median_dt_ms, i.mean, i.max, copies, bytes >> 20, load_wall, l.n,
      l.median_dt_ms, l.mean, l.max, l.above30, after.c_str());
  EXPECT_EQ(after, "") << "the sampler failed while sampling";
  // The rate: by the GPU's timestamps, and by the number of samples over the wall time.
  ASSERT_GE(i.n, 2u);
  ASSERT_GE(l.n, 2u);
  EXPECT_NEAR(i.median_dt_ms, interval_ms, 0.25 * interval_ms);
  EXPECT_NEAR(l.median_dt_ms, interval_ms, 0.25 * interval_ms);
  EXPECT_GE(double(i.n), 0.6 * idle_wall * 1e3 / interval_ms);
  EXPECT_LE(double(i.n), 1.6 * (idle_wall + 0.06) * 1e3 / interval_ms);
  EXPECT_GE(double(l.n), 0.6 * load_wall * 1e3 / interval_ms);
  // The load: the copy loop keeps DRAM busy for most of its samples, far above idle.
  EXPECT_GT(l.max, 50.0);
  EXPECT_GT(l.mean, i.mean + 20.0);
  EXPECT_GE(l.above30, 0.5 * load_wall * 1e3 / interval_ms);
  EXPECT_LT(i.mean, 20.0);
}

TEST(PmSamplerGpu, PausedTheRangeProfilerMeasuresAndSamplingResumes) {
  GPULAB_SKIP_WITHOUT_CUDA();
  cuda::PmSampler sampler(5.0, 25);
  sampler.start();
  const std::string st = wait_running(sampler);
  ASSERT_EQ(st, "") << "the PM sampler did not start: " << st;
  sleep_ms(100);
  EXPECT_FALSE(sampler.take().empty());

  const size_t n = size_t(1) << 24;
  float* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, n * sizeof(float)), cudaSuccess);
  cudaMemset(p, 0, n * sizeof(float));
  cuda::Counters counters;
  const auto t0 = Clock::now();
  sampler.pause();
  const double pause_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  EXPECT_EQ(sampler.status(), "paused: the range profiler is measuring");
  const cuda::CounterResult r = counters.measure([&] { touch_kernel<<<528, 256>>>(p, n); });
  sampler.resume();
  std::printf("pause took %.1f ms; range profiler: %s, %zu kernel(s), DRAM read %.0f bytes\n", pause_ms,
              r.ok() ? "measured" : r.unavailable.c_str(), r.kernels.size(), r.total[cuda::Metric::DramRead]);
  ASSERT_TRUE(r.ok()) << r.unavailable;
  EXPECT_EQ(r.kernels.size(), 1u);
  EXPECT_GT(r.total[cuda::Metric::DramRead], 0.9 * double(n * sizeof(float)));
  EXPECT_LT(pause_ms, 1500.0);

  const std::string again = wait_running(sampler);
  EXPECT_EQ(again, "") << "sampling did not resume after the measurement: " << again;
  sampler.take();
  sleep_ms(150);
  EXPECT_FALSE(sampler.take().empty()) << sampler.status();
  // And the range profiler measures again once the sampler has stopped for good.
  sampler.stop();
  sampler.pause();
  const cuda::CounterResult r2 = counters.measure([&] { touch_kernel<<<528, 256>>>(p, n); });
  EXPECT_TRUE(r2.ok()) << r2.unavailable;
  cudaFree(p);
}

}  // namespace
}  // namespace gpulab

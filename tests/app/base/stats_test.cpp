// cpu label: RollingSeries against a reference computed from a plain vector of the window, the
// doubled-ring layout (always contiguous, oldest first), edge cases, and the number formatting.
#include "base/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

using gpulab::RollingSeries;

namespace {

// numpy.percentile(..., method="linear") on an unsorted copy.
double reference_percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double rank = p / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(rank));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

}  // namespace

TEST(RollingSeries, EmptyIsAllZeroAndSafe) {
  RollingSeries s("step", "ms", 8);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(s.plot_count(), 0);
  EXPECT_TRUE(s.values().empty());
  EXPECT_EQ(s.latest(), 0.0);
  EXPECT_EQ(s.median(), 0.0);
  EXPECT_EQ(s.p95(), 0.0);
  EXPECT_EQ(s.min(), 0.0);
  EXPECT_EQ(s.max(), 0.0);
  EXPECT_EQ(s.mean(), 0.0);
  const auto sum = s.summary();
  EXPECT_EQ(sum.count, 0u);
  EXPECT_EQ(sum.median, 0.0);
}

TEST(RollingSeries, OneSampleIsEveryStatistic) {
  RollingSeries s("x", "ms", 4);
  s.push(2.5);
  EXPECT_EQ(s.size(), 1u);
  for (double v :
       {s.latest(), s.median(), s.min(), s.max(), s.p95(), s.mean(), s.percentile(0), s.percentile(100)})
    EXPECT_DOUBLE_EQ(v, 2.5);
}

TEST(RollingSeries, TwoSamplesInterpolate) {
  RollingSeries s("x", "ms", 4);
  s.push(1.0);
  s.push(3.0);
  EXPECT_DOUBLE_EQ(s.median(), 2.0);
  EXPECT_DOUBLE_EQ(s.p95(), 1.0 + 0.95 * 2.0);
  EXPECT_DOUBLE_EQ(s.percentile(-5), 1.0);   // clamped
  EXPECT_DOUBLE_EQ(s.percentile(250), 3.0);  // clamped
  EXPECT_DOUBLE_EQ(s.latest(), 3.0);
}

TEST(RollingSeries, WindowMatchesAReferenceThroughManyWraps) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> dist(0.0, 20.0);
  for (size_t capacity : {1u, 2u, 3u, 7u, 240u}) {
    RollingSeries s("x", "ms", capacity);
    std::vector<double> all;
    for (int i = 0; i < 1000; ++i) {
      // Values exactly representable as float so that the comparison can be exact.
      const double v = std::round(dist(rng) * 64.0) / 64.0;
      s.push(v);
      all.push_back(v);
      const size_t n = std::min(all.size(), capacity);
      std::vector<double> window(all.end() - static_cast<std::ptrdiff_t>(n), all.end());
      ASSERT_EQ(s.size(), n);
      ASSERT_EQ(s.total_pushed(), all.size());
      const auto vals = s.values();
      ASSERT_EQ(vals.size(), n);
      for (size_t k = 0; k < n; ++k)
        ASSERT_EQ(vals[k], static_cast<float>(window[k])) << capacity << " " << i;
      ASSERT_EQ(s.plot_data(), vals.data());
      if (i % 37 == 0 || i == 999) {
        const auto sum = s.summary();
        EXPECT_DOUBLE_EQ(sum.latest, v);
        EXPECT_DOUBLE_EQ(sum.min, *std::min_element(window.begin(), window.end()));
        EXPECT_DOUBLE_EQ(sum.max, *std::max_element(window.begin(), window.end()));
        EXPECT_NEAR(sum.mean, std::accumulate(window.begin(), window.end(), 0.0) / n, 1e-9);
        EXPECT_NEAR(sum.median, reference_percentile(window, 50), 1e-9);
        EXPECT_NEAR(sum.p95, reference_percentile(window, 95), 1e-9);
        EXPECT_NEAR(s.median(), sum.median, 1e-12);
        EXPECT_NEAR(s.p95(), sum.p95, 1e-12);
      }
    }
  }
}

TEST(RollingSeries, ClearAndSetCapacityKeepTheNewest) {
  RollingSeries s("x", "ms", 5);
  for (int i = 1; i <= 7; ++i) s.push(i);  // window 3..7
  s.set_capacity(3);                       // keeps 5, 6, 7
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s.values()[0], 5.0f);
  EXPECT_EQ(s.values()[2], 7.0f);
  s.push(8);  // 6, 7, 8
  EXPECT_EQ(s.values()[0], 6.0f);
  EXPECT_EQ(s.latest(), 8.0);
  s.set_capacity(10);  // grows, keeps everything
  ASSERT_EQ(s.size(), 3u);
  for (int i = 9; i <= 20; ++i) s.push(i);
  ASSERT_EQ(s.size(), 10u);
  EXPECT_EQ(s.values()[0], 11.0f);
  EXPECT_EQ(s.values()[9], 20.0f);
  s.clear();
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.total_pushed(), 0u);
  s.push(4);
  EXPECT_EQ(s.median(), 4.0);
  EXPECT_EQ(s.name(), "x");
  EXPECT_EQ(s.unit(), "ms");
}

TEST(RollingSeries, ZeroCapacityIsOne) {
  RollingSeries s("x", "ms", 0);
  EXPECT_EQ(s.capacity(), 1u);
  s.push(1);
  s.push(2);
  EXPECT_EQ(s.size(), 1u);
  EXPECT_EQ(s.latest(), 2.0);
}

TEST(RollingSeries, ScopedCpuTimerPushesOnce) {
  RollingSeries s("cpu", "ms", 4);
  { gpulab::ScopedCpuTimer t(s); }
  ASSERT_EQ(s.size(), 1u);
  EXPECT_GE(s.latest(), 0.0);
  EXPECT_LT(s.latest(), 1000.0);
}

TEST(Format, Bytes) {
  EXPECT_EQ(gpulab::format_bytes(0), "0 B");
  EXPECT_EQ(gpulab::format_bytes(1023), "1023 B");
  EXPECT_EQ(gpulab::format_bytes(1024), "1.00 KiB");
  EXPECT_EQ(gpulab::format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(gpulab::format_bytes(48.0 * 1024 * 1024), "48.00 MiB");
  EXPECT_EQ(gpulab::format_bytes(80.0 * 1024 * 1024 * 1024), "80.00 GiB");
}

TEST(Format, Si) {
  EXPECT_EQ(gpulab::format_si(0, "B/s"), "0.00 B/s");
  EXPECT_EQ(gpulab::format_si(3.2e10, "cell updates/s"), "32.0 G cell updates/s");
  EXPECT_EQ(gpulab::format_si(999.996, "x"), "1.00 kx");
  EXPECT_EQ(gpulab::format_si(123456, "x"), "123 kx");
  EXPECT_EQ(gpulab::format_si(1.5e12, "x"), "1.50 Tx");
  // Counts: no false precision below 1000.
  EXPECT_EQ(gpulab::format_count(84, "cells"), "84 cells");
  EXPECT_EQ(gpulab::format_count(0, "cells"), "0 cells");
  EXPECT_EQ(gpulab::format_count(999, "cells"), "999 cells");
  EXPECT_EQ(gpulab::format_count(1048576, "pixels"), "1.05 M pixels");
}

TEST(Format, Ms) {
  EXPECT_EQ(gpulab::format_ms(0.01234), "0.0123");
  EXPECT_EQ(gpulab::format_ms(1.2345), "1.234");  // %.3f of the double nearest 1.2345
  EXPECT_EQ(gpulab::format_ms(12.345), "12.35");
  EXPECT_EQ(gpulab::format_ms(123.45), "123.5");
  EXPECT_EQ(gpulab::format_ms(std::nan("")), "-");
}

// The demos' captions say a step's time in the HUD's words: the same units and what it is per.
TEST(Format, TimePerAsTheHudSaysIt) {
  EXPECT_EQ(gpulab::format_time_per(0.0182, "step (per generation)"), "18.2 \xC2\xB5s per generation");
  EXPECT_EQ(gpulab::format_time_per(2.09, "step (per step)"), "2.09 ms per step");
  EXPECT_EQ(gpulab::format_time_per(1234.0, "pipeline (per image)"), "1.23 s per image");
  EXPECT_EQ(gpulab::format_time_per(0.5, "no parenthesis"), "500 \xC2\xB5s per step");
  EXPECT_EQ(gpulab::format_time_per(0.0, "step (per step)"), "-");
  EXPECT_EQ(gpulab::format_time_per(std::nan(""), "step (per step)"), "-");
}

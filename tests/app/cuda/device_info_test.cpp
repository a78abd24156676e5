// cpu label: DeviceInfo's derived figures (header-only), checked against published datasheet
// numbers: the peak-bandwidth formula must give an H100 SXM's 3352 GB/s and an RTX 4090's
// 1008 GB/s from the clocks and bus widths their drivers report.
#include "cuda/device_info.h"

#include <gtest/gtest.h>

using gpulab::cuda::DeviceInfo;

TEST(DeviceInfo, PeakBandwidthMatchesDatasheets) {
  DeviceInfo h100;
  h100.mem_clock_khz = 2619000;  // HBM3, as cudaDevAttrMemoryClockRate reports it
  h100.mem_bus_width_bits = 5120;
  EXPECT_NEAR(h100.peak_bandwidth_gbs(), 3352.3, 0.1);

  DeviceInfo rtx4090;
  rtx4090.mem_clock_khz = 10501000;  // GDDR6X
  rtx4090.mem_bus_width_bits = 384;
  EXPECT_NEAR(rtx4090.peak_bandwidth_gbs(), 1008.1, 0.1);

  EXPECT_EQ(DeviceInfo{}.peak_bandwidth_gbs(), 0.0);
}

TEST(DeviceInfo, PeakFp32FromCoresAndClock) {
  DeviceInfo d;
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.clock_khz = 1980000;
  EXPECT_EQ(d.fp32_cores_per_sm(), 128);
  // 132 SMs x 128 lanes x 2 flops x 1.98 GHz = 66.9 TFLOP/s (the H100 SXM datasheet's 67).
  EXPECT_NEAR(d.peak_fp32_gflops(), 66908.16, 0.01);
  d.cc_major = 99;
  EXPECT_EQ(d.fp32_cores_per_sm(), 0);
  EXPECT_EQ(d.peak_fp32_gflops(), 0.0);
}

TEST(DeviceInfo, CoresPerSmTable) {
  EXPECT_EQ(gpulab::cuda::fp32_cores_per_sm(7, 5), 64);
  EXPECT_EQ(gpulab::cuda::fp32_cores_per_sm(8, 0), 64);
  EXPECT_EQ(gpulab::cuda::fp32_cores_per_sm(8, 6), 128);
  EXPECT_EQ(gpulab::cuda::fp32_cores_per_sm(8, 9), 128);
  EXPECT_EQ(gpulab::cuda::fp32_cores_per_sm(12, 0), 128);
  EXPECT_EQ(gpulab::cuda::fp32_cores_per_sm(1, 0), 0);
}

TEST(DeviceInfo, VersionStrings) {
  EXPECT_EQ(gpulab::cuda::format_cuda_version(13000), "13.0");
  EXPECT_EQ(gpulab::cuda::format_cuda_version(12080), "12.8");
  EXPECT_EQ(gpulab::cuda::format_cuda_version(11040), "11.4");
  EXPECT_EQ(gpulab::cuda::format_cuda_version(0), "none");
  DeviceInfo d;
  d.cc_major = 8;
  d.cc_minor = 6;
  EXPECT_EQ(d.compute_capability(), "8.6");
}

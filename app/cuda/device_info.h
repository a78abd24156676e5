#pragma once
// What the course's deviceQuery lesson lists about a CUDA device, as a plain struct. The struct and
// its derived figures are header-only and free of CUDA headers, so the device panel builds in a
// CPU-only build; query_device() is defined in device_info.cpp, which exists only in CUDA builds.
//
// Clocks come from cudaDeviceGetAttribute: CUDA 13 removed clockRate, memoryClockRate and friends
// from cudaDeviceProp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::cuda {

struct DeviceInfo {
  // Identity
  std::string name;
  int ordinal = -1;
  int cc_major = 0;
  int cc_minor = 0;
  std::string pci_bus_id;  // "0000:65:00.0"
  bool integrated = false;
  bool tcc_driver = false;

  // Compute
  int sm_count = 0;
  int clock_khz = 0;  // peak SM clock
  int warp_size = 0;
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  std::array<int, 3> max_block_dim{};
  std::array<int, 3> max_grid_dim{};
  int regs_per_block = 0;  // 32-bit registers
  int regs_per_sm = 0;
  bool concurrent_kernels = false;
  int async_engines = 0;        // copy engines: 2 = copies both ways overlap with kernels
  bool kernel_timeout = false;  // a watchdog limits kernel run time (display GPU)
  int compute_mode = 0;         // cudaComputeMode: 0 default, 1 exclusive-thread (gone), 2 prohibited, 3
                                // exclusive-process

  // Memory
  size_t total_global_mem = 0;  // bytes
  size_t free_global_mem = 0;   // bytes, at query time (cudaMemGetInfo)
  int mem_clock_khz = 0;        // peak memory clock
  int mem_bus_width_bits = 0;
  int l2_bytes = 0;
  int persisting_l2_max_bytes = 0;
  size_t const_mem = 0;
  size_t smem_per_block = 0;        // without opt-in (48 KiB)
  size_t smem_per_block_optin = 0;  // with cudaFuncAttributeMaxDynamicSharedMemorySize
  size_t smem_per_sm = 0;
  size_t reserved_smem_per_block = 0;  // taken by the driver from every block's allocation
  bool ecc = false;
  bool unified_addressing = false;
  bool managed_memory = false;
  bool concurrent_managed_access = false;

  // Software
  int driver_version = 0;   // cudaDriverGetVersion: 13000 = 13.0
  int runtime_version = 0;  // cudaRuntimeGetVersion

  // Peak DRAM bandwidth: 2 transfers a clock (DDR) x clock x bus width. HBM parts report the clock
  // that makes this formula match the datasheet (an H100 SXM: 2619 MHz x 5120 bit -> 3352 GB/s).
  double peak_bandwidth_gbs() const {
    return 2.0 * static_cast<double>(mem_clock_khz) * 1e3 * (mem_bus_width_bits / 8.0) / 1e9;
  }
  // FP32 cores per SM from the architecture table (not queryable); 0 for an unknown architecture.
  int fp32_cores_per_sm() const;
  // Theoretical FP32 throughput: cores x 2 flops (FMA) x clock. 0 when the core count is unknown.
  double peak_fp32_gflops() const {
    return static_cast<double>(sm_count) * fp32_cores_per_sm() * 2.0 * clock_khz * 1e3 / 1e9;
  }
  std::string compute_capability() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
};

// 13000 -> "13.0", 12080 -> "12.8", 0 -> "none".
inline std::string format_cuda_version(int version) {
  if (version <= 0) return "none";
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

// The FP32 lanes of one SM, as in cuda-samples' _ConvertSMVer2Cores.
inline int fp32_cores_per_sm(int cc_major, int cc_minor) {
  struct Entry {
    int cc;
    int cores;
  };
  static constexpr Entry kTable[] = {
      {30, 192}, {32, 192}, {35, 192},  {37, 192},  {50, 128},  {52, 128},  {53, 128},  {60, 64},
      {61, 128}, {62, 128}, {70, 64},   {72, 64},   {75, 64},   {80, 64},   {86, 128},  {87, 128},
      {89, 128}, {90, 128}, {100, 128}, {101, 128}, {103, 128}, {110, 128}, {120, 128}, {121, 128},
  };
  const int cc = cc_major * 10 + cc_minor;
  for (const auto& e : kTable)
    if (e.cc == cc) return e.cores;
  return 0;
}

inline int DeviceInfo::fp32_cores_per_sm() const { return cuda::fp32_cores_per_sm(cc_major, cc_minor); }

// Everything above for CUDA device `ordinal`; throws GpuError when the device cannot be queried.
// Briefly makes `ordinal` current for cudaMemGetInfo, then restores the previous device.
DeviceInfo query_device(int ordinal);
// Number of CUDA devices; 0 (not an exception) when there is no driver or no device.
int device_count();

}  // namespace gpulab::cuda

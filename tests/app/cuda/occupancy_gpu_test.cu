// gpu label: DeviceInfo against the runtime's own answers, and the occupancy analysis of real
// kernels against cudaOccupancyMaxActiveBlocksPerMultiprocessor, with kernels built to hit each
// limiter (block count, warps, registers, shared memory).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.h"
#include "cuda/device_info.h"
#include "cuda/occupancy.h"

#include "support/gpu_skip.h"

namespace {

__global__ void trivial_kernel(int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (out) out[i] = i;
}

__global__ void dynamic_smem_kernel(float* out) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  if (out) out[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

// 64 independent loads kept live until a final pairwise combination: the compiler hoists the
// loads for latency hiding, so the kernel needs well over 64 registers a thread.
constexpr int kLive = 64;
__global__ void __launch_bounds__(256) register_heavy_kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v[kLive];
#pragma unroll
  for (int j = 0; j < kLive; ++j) v[j] = in[(i + j * 7919) % n];
  float acc = 0.0f;
#pragma unroll
  for (int j = 0; j < kLive / 2; ++j) acc += v[j] * v[kLive - 1 - j] + v[j] / (1.0f + v[(j * 5) % kLive]);
  out[i] = acc;
}

size_t smem_for_threads(int threads) { return static_cast<size_t>(threads) * sizeof(float); }

int api_blocks(const void* func, int block, size_t smem) {
  int blocks = -1;
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, block, smem), cudaSuccess);
  return blocks;
}

// The limiter bits must name exactly the resources whose own limit equals the active block count.
void expect_limiters_consistent(const gpulab::cuda::OccupancyReport& r) {
  using namespace gpulab::cuda;
  const auto& L = r.limits;
  const int a = r.active_blocks_per_sm;
  EXPECT_NE(r.limiters, 0u) << r.name << " at " << r.block_threads;
  EXPECT_EQ((r.limiters & kLimitBlockCount) != 0, L.block_count == a);
  EXPECT_EQ((r.limiters & kLimitWarps) != 0, L.warps == a);
  EXPECT_EQ((r.limiters & kLimitRegisters) != 0, L.registers == a);
  EXPECT_EQ((r.limiters & kLimitSharedMemory) != 0, L.shared_memory == a);
  EXPECT_GE(L.block_count, a);
  EXPECT_GE(L.warps, a);
  EXPECT_GE(L.registers, a);
  EXPECT_GE(L.shared_memory, a);
}

gpulab::KernelInfo info(const char* name, const void* func, int block, size_t smem = 0,
                        size_t (*smem_for)(int) = nullptr) {
  gpulab::KernelInfo k;
  k.name = name;
  k.func = func;
  k.block_threads = block;
  k.dynamic_smem = smem;
  k.dynamic_smem_for = smem_for;
  return k;
}

}  // namespace

TEST(DeviceInfoGpu, MatchesTheRuntime) {
  GPULAB_SKIP_WITHOUT_CUDA();
  using gpulab::cuda::query_device;
  ASSERT_GT(gpulab::cuda::device_count(), 0);
  const auto d = query_device(0);
  cudaDeviceProp p{};
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);

  EXPECT_EQ(d.name, std::string(p.name));
  EXPECT_EQ(d.ordinal, 0);
  EXPECT_EQ(d.cc_major, p.major);
  EXPECT_EQ(d.cc_minor, p.minor);
  EXPECT_EQ(d.sm_count, p.multiProcessorCount);
  EXPECT_EQ(d.warp_size, 32);
  EXPECT_EQ(d.total_global_mem, p.totalGlobalMem);
  EXPECT_GT(d.free_global_mem, 0u);
  EXPECT_LE(d.free_global_mem, d.total_global_mem);
  EXPECT_EQ(d.l2_bytes, p.l2CacheSize);
  EXPECT_EQ(d.smem_per_block, p.sharedMemPerBlock);
  EXPECT_GE(d.smem_per_block_optin, d.smem_per_block);
  EXPECT_GE(d.smem_per_sm, d.smem_per_block_optin);
  EXPECT_EQ(d.regs_per_sm, p.regsPerMultiprocessor);
  EXPECT_EQ(d.max_threads_per_sm % d.warp_size, 0);
  EXPECT_GE(d.max_threads_per_block, 1024);
  EXPECT_GT(d.max_blocks_per_sm, 0);
  EXPECT_EQ(d.max_block_dim[0], p.maxThreadsDim[0]);
  EXPECT_EQ(d.max_grid_dim[0], p.maxGridSize[0]);

  int clock = 0, mem_clock = 0, bus = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, 0), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0), cudaSuccess);
  EXPECT_EQ(d.clock_khz, clock);
  EXPECT_EQ(d.mem_clock_khz, mem_clock);
  EXPECT_EQ(d.mem_bus_width_bits, bus);
  EXPECT_GT(d.clock_khz, 100000);  // > 100 MHz
  EXPECT_NEAR(d.peak_bandwidth_gbs(), 2.0 * mem_clock * 1e3 * (bus / 8.0) / 1e9, 1e-6);
  EXPECT_GT(d.peak_bandwidth_gbs(), 50.0);

  int driver = 0, runtime = 0;
  ASSERT_EQ(cudaDriverGetVersion(&driver), cudaSuccess);
  ASSERT_EQ(cudaRuntimeGetVersion(&runtime), cudaSuccess);
  EXPECT_EQ(d.driver_version, driver);
  EXPECT_EQ(d.runtime_version, runtime);
  EXPECT_EQ(gpulab::cuda::format_cuda_version(d.runtime_version),
            std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10));
  std::printf("[ info ] %s: cc %s, %d SMs, %.0f GB/s peak, runtime %s, driver %s\n", d.name.c_str(),
              d.compute_capability().c_str(), d.sm_count, d.peak_bandwidth_gbs(),
              gpulab::cuda::format_cuda_version(d.runtime_version).c_str(),
              gpulab::cuda::format_cuda_version(d.driver_version).c_str());
}

TEST(DeviceInfoGpu, BadOrdinalThrowsAndKeepsTheCurrentDevice) {
  GPULAB_SKIP_WITHOUT_CUDA();
  int before = -1;
  ASSERT_EQ(cudaGetDevice(&before), cudaSuccess);
  EXPECT_THROW(gpulab::cuda::query_device(-1), gpulab::GpuError);
  EXPECT_THROW(gpulab::cuda::query_device(gpulab::cuda::device_count()), gpulab::GpuError);
  (void)gpulab::cuda::query_device(gpulab::cuda::device_count() - 1);
  int after = -1;
  ASSERT_EQ(cudaGetDevice(&after), cudaSuccess);
  EXPECT_EQ(before, after);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(OccupancyGpu, TrivialKernelAgreesWithTheApiAtEveryBlockSize) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const void* func = reinterpret_cast<const void*>(&trivial_kernel);
  for (int block : {32, 64, 96, 128, 256, 512, 768, 1024}) {
    const auto r = gpulab::cuda::analyze_occupancy(info("trivial", func, block));
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.active_blocks_per_sm, api_blocks(func, block, 0)) << block;
    EXPECT_TRUE(r.formulas_agree) << "block " << block << ": formulas " << r.formula_active_blocks << ", API "
                                  << r.active_blocks_per_sm;
    EXPECT_EQ(r.active_warps_per_sm, r.active_blocks_per_sm * ((block + 31) / 32));
    EXPECT_FLOAT_EQ(r.occupancy, static_cast<float>(r.active_warps_per_sm) / r.max_warps_per_sm);
    expect_limiters_consistent(r);
  }
  // One warp a block: the SM runs out of block slots long before warps or registers.
  const auto small = gpulab::cuda::analyze_occupancy(info("trivial", func, 32));
  EXPECT_TRUE(small.limiters & gpulab::cuda::kLimitBlockCount) << gpulab::cuda::limiter_text(small.limiters);
  // 1024 threads: the warp slots bind.
  const auto big = gpulab::cuda::analyze_occupancy(info("trivial", func, 1024));
  EXPECT_TRUE(big.limiters & gpulab::cuda::kLimitWarps) << gpulab::cuda::limiter_text(big.limiters);
  EXPECT_FLOAT_EQ(big.occupancy, 1.0f);
}

TEST(OccupancyGpu, CurveMatchesTheApiAndTheSuggestionIsItsBest) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const void* func = reinterpret_cast<const void*>(&trivial_kernel);
  const auto r = gpulab::cuda::analyze_occupancy(info("trivial", func, 256));
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_FALSE(r.curve.empty());
  EXPECT_EQ(r.curve.front().block_threads, 32);
  EXPECT_EQ(r.curve.back().block_threads,
            std::min(r.attr.max_threads_per_block, r.device.max_threads_per_block));
  float best = 0.0f;
  for (size_t i = 0; i < r.curve.size(); ++i) {
    const auto& p = r.curve[i];
    EXPECT_EQ(p.block_threads, 32 * static_cast<int>(i + 1));
    EXPECT_EQ(p.active_blocks, api_blocks(func, p.block_threads, 0)) << p.block_threads;
    EXPECT_NE(p.limiters, 0u);
    best = std::max(best, p.occupancy);
  }
  EXPECT_GT(r.suggested_block_threads, 0);
  EXPECT_EQ(r.suggested_block_threads % 32, 0);
  EXPECT_GT(r.suggested_min_grid, 0);
  EXPECT_FLOAT_EQ(r.suggested_occupancy, best);
}

TEST(OccupancyGpu, LargeDynamicSharedMemoryIsSharedMemoryLimited) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const auto dev = gpulab::cuda::query_device(0);
  const void* func = reinterpret_cast<const void*>(&dynamic_smem_kernel);
  const size_t smem = 40 * 1024;  // under the 48 KiB that needs no opt-in
  const auto r = gpulab::cuda::analyze_occupancy(info("smem", func, 128, smem));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.active_blocks_per_sm, api_blocks(func, 128, smem));
  EXPECT_TRUE(r.formulas_agree);
  EXPECT_EQ(r.limiters, gpulab::cuda::kLimitSharedMemory) << gpulab::cuda::limiter_text(r.limiters);
  // By hand from the device's figures: what a block really takes, into what an SM has.
  const size_t per_block = (smem + dev.reserved_smem_per_block + 127) / 128 * 128;
  EXPECT_EQ(r.active_blocks_per_sm, static_cast<int>(dev.smem_per_sm / per_block));
  expect_limiters_consistent(r);

  // More than 48 KiB without the opt-in attribute cannot launch at all.
  const auto over = gpulab::cuda::analyze_occupancy(info("smem", func, 128, 64 * 1024));
  ASSERT_TRUE(over.error.empty()) << over.error;
  EXPECT_EQ(over.active_blocks_per_sm, 0);
  EXPECT_EQ(over.active_blocks_per_sm, api_blocks(func, 128, 64 * 1024));
  EXPECT_TRUE(over.limiters & gpulab::cuda::kLimitSharedMemory);
}

TEST(OccupancyGpu, DynamicSmemFunctionDrivesTheCurve) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const void* func = reinterpret_cast<const void*>(&dynamic_smem_kernel);
  const auto r =
      gpulab::cuda::analyze_occupancy(info("smem_for", func, 256, smem_for_threads(256), smem_for_threads));
  ASSERT_TRUE(r.error.empty()) << r.error;
  for (const auto& p : r.curve) {
    EXPECT_EQ(p.dynamic_smem, smem_for_threads(p.block_threads));
    EXPECT_EQ(p.active_blocks, api_blocks(func, p.block_threads, p.dynamic_smem)) << p.block_threads;
  }
}

TEST(OccupancyGpu, RegisterHeavyKernelIsRegisterLimited) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const void* func = reinterpret_cast<const void*>(&register_heavy_kernel);
  const auto r = gpulab::cuda::analyze_occupancy(info("regs", func, 256));
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_GT(r.attr.num_regs, 64) << "the kernel was meant to need many registers";
  EXPECT_EQ(r.active_blocks_per_sm, api_blocks(func, 256, 0));
  EXPECT_TRUE(r.formulas_agree) << r.formula_active_blocks << " vs " << r.active_blocks_per_sm;
  EXPECT_TRUE(r.limiters & gpulab::cuda::kLimitRegisters) << gpulab::cuda::limiter_text(r.limiters);
  EXPECT_LT(r.occupancy, 0.5f);
  expect_limiters_consistent(r);
}

TEST(OccupancyGpu, NullFunctionReportsAnErrorInsteadOfThrowing) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const auto r = gpulab::cuda::analyze_occupancy(info("none", nullptr, 256));
  EXPECT_FALSE(r.error.empty());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(OccupancyGpu, CacheRecomputesOnlyWhenTheKernelsChange) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const void* func = reinterpret_cast<const void*>(&trivial_kernel);
  gpulab::cuda::OccupancyCache cache;
  std::vector<gpulab::KernelInfo> ks{info("trivial", func, 64)};
  const auto& a = cache.get(ks);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].block_threads, 64);
  const auto* first = a.data();
  const auto& b = cache.get(ks);
  EXPECT_EQ(b.data(), first);  // same reports, not recomputed
  ks[0].block_threads = 512;
  const auto& c = cache.get(ks);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].block_threads, 512);
  EXPECT_EQ(c[0].active_blocks_per_sm, api_blocks(func, 512, 0));
}

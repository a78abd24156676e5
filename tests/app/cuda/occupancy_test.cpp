// cpu label: the occupancy formulas (header-only, no device needed) on an H100's figures, against
// values worked out by hand the way NVIDIA's occupancy calculator does: registers per warp rounded
// to 256 and shared per sub-partition, shared memory per block rounded to 128 B plus 1 KiB
// reserved.
#include "cuda/occupancy.h"

#include <gtest/gtest.h>

using namespace gpulab::cuda;

namespace {

OccupancyDevice h100() {
  OccupancyDevice d;
  d.cc_major = 9;
  d.warp_size = 32;
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.max_threads_per_block = 1024;
  d.regs_per_sm = 65536;
  d.regs_per_block = 65536;
  d.smem_per_sm = 233472;           // 228 KiB
  d.smem_per_block_optin = 232448;  // 227 KiB
  d.reserved_smem_per_block = 1024;
  return d;
}

KernelAttributes kernel(int regs, size_t static_smem = 0) {
  KernelAttributes k;
  k.num_regs = regs;
  k.static_smem = static_smem;
  k.max_threads_per_block = 1024;
  k.max_dynamic_smem = static_cast<int>(48 * 1024 - static_smem);
  return k;
}

}  // namespace

TEST(OccupancyFormulas, WarpsAndRegistersTieAt32Registers) {
  const auto L = occupancy_limits(h100(), kernel(32), 256, 0);
  EXPECT_EQ(L.warps_per_block, 8);
  EXPECT_EQ(L.block_count, 32);
  EXPECT_EQ(L.warps, 8);  // 64 warps / 8
  EXPECT_EQ(L.regs_per_warp_allocated, 1024);
  EXPECT_EQ(L.registers, 8);  // 16384 / 1024 = 16 warps a quarter -> 64 -> 8 blocks
  EXPECT_EQ(L.smem_per_block_allocated, 1024u);
  EXPECT_EQ(L.shared_memory, 228);
  EXPECT_EQ(L.min(), 8);
  EXPECT_EQ(L.binding(8), kLimitWarps | kLimitRegisters);
}

TEST(OccupancyFormulas, RegisterGranularityRoundsUp) {
  // 40 registers: 1280 a warp, 12 warps a quarter (not 12.8), 48 warps, 6 blocks of 8 warps.
  auto L = occupancy_limits(h100(), kernel(40), 256, 0);
  EXPECT_EQ(L.regs_per_warp_allocated, 1280);
  EXPECT_EQ(L.registers, 6);
  EXPECT_EQ(L.binding(L.min()), kLimitRegisters);
  // 37 registers round up to the same allocation as 40.
  EXPECT_EQ(occupancy_limits(h100(), kernel(37), 256, 0).registers, 6);
  // 64: 2048 a warp, 8 a quarter, 32 warps: 4 blocks, 50% occupancy.
  L = occupancy_limits(h100(), kernel(64), 256, 0);
  EXPECT_EQ(L.registers, 4);
  EXPECT_EQ(L.min() * L.warps_per_block, 32);
  // 80: 2560 a warp, 6 a quarter, 24 warps: 3 blocks.
  EXPECT_EQ(occupancy_limits(h100(), kernel(80), 256, 0).registers, 3);
}

TEST(OccupancyFormulas, PerBlockRegisterFileCheck) {
  // 1024 threads x 64 registers is exactly the 64 Ki registers a block may have: one block.
  auto L = occupancy_limits(h100(), kernel(64), 1024, 0);
  EXPECT_EQ(L.registers, 1);
  EXPECT_EQ(L.min(), 1);
  // 65 registers: 2304 a warp x 32 warps > 65536: the block cannot launch.
  L = occupancy_limits(h100(), kernel(65), 1024, 0);
  EXPECT_EQ(L.registers, 0);
  EXPECT_EQ(L.min(), 0);
  EXPECT_EQ(L.binding(0), kLimitRegisters);
}

TEST(OccupancyFormulas, SmallBlocksRunOutOfBlockSlots) {
  const auto L = occupancy_limits(h100(), kernel(16), 32, 0);
  EXPECT_EQ(L.warps, 64);
  EXPECT_EQ(L.registers, 128);
  EXPECT_EQ(L.min(), 32);
  EXPECT_EQ(L.binding(32), kLimitBlockCount);
}

TEST(OccupancyFormulas, RaggedBlocksCountWholeWarps) {
  const auto L = occupancy_limits(h100(), kernel(16), 100, 0);
  EXPECT_EQ(L.warps_per_block, 4);
  EXPECT_EQ(L.warps, 16);
}

TEST(OccupancyFormulas, SharedMemoryLimits) {
  // 48 KiB dynamic: 49152 + 1024 reserved = 50176 (a multiple of 128) -> 4 blocks in 228 KiB.
  auto L = occupancy_limits(h100(), kernel(16), 128, 48 * 1024);
  EXPECT_EQ(L.smem_per_block_allocated, 50176u);
  EXPECT_EQ(L.shared_memory, 4);
  EXPECT_EQ(L.binding(L.min()), kLimitSharedMemory);
  // Static and dynamic add up, and the allocation rounds to 128 bytes.
  L = occupancy_limits(h100(), kernel(16, 1000), 128, 1000);
  EXPECT_EQ(L.smem_per_block_allocated, 3072u);  // 3024 -> 3072
  EXPECT_EQ(L.shared_memory, 76);
  // More dynamic memory than the kernel allows without opt-in: cannot launch.
  L = occupancy_limits(h100(), kernel(16), 128, 64 * 1024);
  EXPECT_EQ(L.shared_memory, 0);
  EXPECT_EQ(L.binding(0), kLimitSharedMemory);
  // With the opt-in raised, 100 KiB fits twice.
  KernelAttributes k = kernel(16);
  k.max_dynamic_smem = 227 * 1024;
  L = occupancy_limits(h100(), k, 128, 100 * 1024);
  EXPECT_EQ(L.shared_memory, 2);
}

TEST(OccupancyFormulas, OversizedBlockCannotLaunch) {
  auto L = occupancy_limits(h100(), kernel(16), 1056, 0);
  EXPECT_TRUE(L.block_too_large);
  EXPECT_EQ(L.min(), 0);
  EXPECT_EQ(L.binding(0), kLimitBlockSize);
  // The kernel's own limit (e.g. __launch_bounds__(256)) counts too.
  KernelAttributes k = kernel(16);
  k.max_threads_per_block = 256;
  EXPECT_TRUE(occupancy_limits(h100(), k, 512, 0).block_too_large);
  EXPECT_FALSE(occupancy_limits(h100(), k, 256, 0).block_too_large);
}

TEST(OccupancyFormulas, NoRegistersMeansNoRegisterLimit) {
  const auto L = occupancy_limits(h100(), kernel(0), 256, 0);
  EXPECT_EQ(L.registers, kUnlimited);
  EXPECT_EQ(L.min(), 8);
}

TEST(OccupancyFormulas, PreAmpereSharedMemoryGranularity) {
  OccupancyDevice d = h100();
  d.cc_major = 7;
  EXPECT_EQ(d.smem_alloc_unit(), 256);
  EXPECT_EQ(h100().smem_alloc_unit(), 128);
  d.reserved_smem_per_block = 0;
  const auto L = occupancy_limits(d, kernel(16, 100), 128, 0);
  EXPECT_EQ(L.smem_per_block_allocated, 256u);
}

TEST(OccupancyFormulas, LimiterText) {
  EXPECT_EQ(limiter_text(kLimitNone), "none");
  EXPECT_EQ(limiter_text(kLimitRegisters), "registers");
  EXPECT_EQ(limiter_text(kLimitWarps | kLimitRegisters), "warps + registers");
  EXPECT_EQ(limiter_text(kLimitSharedMemory | kLimitBlockCount), "block count + shared memory");
}

namespace {

// A kernel with a fallback for older GPUs names the path the device's code takes (the occupancy
// panel's "code path" row); the PTX architecture decides, as __CUDA_ARCH__ did when it compiled.
TEST(KernelCodePath, TheArchitectureChoosesThePathShown) {
  gpulab::KernelInfo k;
  k.name = "hist_lane_private";
  k.block_threads = 256;
  EXPECT_EQ(gpulab::kernel_code_path(k, 75), "");  // one path everywhere
  k.path_min_arch = 80;
  k.path_new = "redux.sync";
  k.path_old = "shuffle tree";
  EXPECT_EQ(gpulab::kernel_code_path(k, 75), "shuffle tree");
  EXPECT_EQ(gpulab::kernel_code_path(k, 80), "redux.sync");
  EXPECT_EQ(gpulab::kernel_code_path(k, 90), "redux.sync");
  EXPECT_EQ(gpulab::kernel_code_path(k, 120), "redux.sync");
}

}  // namespace

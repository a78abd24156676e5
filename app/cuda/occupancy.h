#pragma once
// Occupancy of a kernel: its resource use (cudaFuncGetAttributes), how many blocks of it fit on one
// SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor, the authority), which resource binds, and the
// occupancy over every block size. The structs and the per-resource formulas are header-only and
// free of CUDA headers (the occupancy panel and the cpu tests use them in CPU-only builds);
// analyze_occupancy() is defined in occupancy.cpp, which exists only in CUDA builds.
//
// The formulas follow NVIDIA's occupancy calculator (cuda_occupancy.h): registers are allocated per
// warp in units of 256 and per SM sub-partition (4 of them), shared memory per block in units of
// 128 bytes (256 before Ampere) plus the driver's reserved 1 KiB per block. They explain the API's
// answer; where they disagree with it (a carveout preference, a future architecture) the report
// says so rather than pretending.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/kernel_info.h"

namespace gpulab::cuda {

// Which resource binds, as bits: several can bind at once (e.g. warps and registers both allow
// exactly 2 blocks).
enum Limiter : unsigned {
  kLimitNone = 0,
  kLimitBlockCount = 1u << 0,  // the SM's maximum resident blocks
  kLimitWarps = 1u << 1,       // the SM's maximum resident warps (threads)
  kLimitRegisters = 1u << 2,
  kLimitSharedMemory = 1u << 3,
  kLimitBlockSize = 1u << 4,  // the block is larger than the kernel or device allows: no launch
};

// "registers + shared memory"; "none" for 0.
inline std::string limiter_text(unsigned limiters) {
  static constexpr struct {
    unsigned bit;
    const char* text;
  } kNames[] = {{kLimitBlockCount, "block count"},
                {kLimitWarps, "warps"},
                {kLimitRegisters, "registers"},
                {kLimitSharedMemory, "shared memory"},
                {kLimitBlockSize, "block size"}};
  std::string out;
  for (const auto& n : kNames) {
    if (!(limiters & n.bit)) continue;
    if (!out.empty()) out += " + ";
    out += n.text;
  }
  return out.empty() ? "none" : out;
}

inline constexpr int kUnlimited = INT_MAX;  // a resource the kernel does not use at all

// The device figures the formulas need (from DeviceInfo / cudaDeviceGetAttribute).
struct OccupancyDevice {
  int cc_major = 0;
  int warp_size = 32;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_threads_per_block = 0;
  int regs_per_sm = 0;
  int regs_per_block = 0;
  size_t smem_per_sm = 0;
  size_t smem_per_block_optin = 0;
  size_t reserved_smem_per_block = 0;
  int sub_partitions = 4;    // register files per SM
  int reg_alloc_unit = 256;  // registers are handed to a warp in multiples of this
  int smem_alloc_unit() const { return cc_major >= 8 ? 128 : 256; }
  int max_warps_per_sm() const { return warp_size > 0 ? max_threads_per_sm / warp_size : 0; }
};

// What cudaFuncGetAttributes says about a compiled kernel.
struct KernelAttributes {
  int num_regs = 0;               // registers per thread
  size_t static_smem = 0;         // __shared__ arrays of fixed size, bytes per block
  size_t local_bytes = 0;         // local memory per thread: register spills and stack arrays
  size_t const_bytes = 0;         // __constant__ bytes the kernel's module uses
  int max_threads_per_block = 0;  // the kernel's own limit (__launch_bounds__, register use)
  int max_dynamic_smem = -1;      // dynamic smem allowed without another opt-in; -1: not known
  int preferred_carveout = -1;    // percent of L1 preferred as shared memory, -1: driver's choice
  int ptx_version = 0;            // 90 = PTX for sm_90
  int binary_version = 0;         // architecture of the binary that runs (90 = sm_90)
};

// Blocks per SM each resource alone would allow (kUnlimited when the kernel does not use it).
struct OccupancyLimits {
  int block_count = 0;
  int warps = 0;
  int registers = 0;
  int shared_memory = 0;
  int warps_per_block = 0;
  int regs_per_warp_allocated = 0;      // num_regs x warp size, rounded up to the allocation unit
  size_t smem_per_block_allocated = 0;  // static + dynamic + reserved, rounded up
  bool block_too_large = false;  // more threads than the kernel/device allows, or too much smem per block
  int min() const {
    if (block_too_large) return 0;
    int m = block_count;
    if (warps < m) m = warps;
    if (registers < m) m = registers;
    if (shared_memory < m) m = shared_memory;
    return m;
  }
  // The resources whose limit equals `active` blocks per SM (kLimitBlockSize when nothing fits).
  unsigned binding(int active) const {
    if (block_too_large) return kLimitBlockSize;
    unsigned b = kLimitNone;
    if (block_count == active) b |= kLimitBlockCount;
    if (warps == active) b |= kLimitWarps;
    if (registers == active) b |= kLimitRegisters;
    if (shared_memory == active) b |= kLimitSharedMemory;
    return b;
  }
};

inline int round_up(int x, int unit) { return unit > 0 ? (x + unit - 1) / unit * unit : x; }
inline size_t round_up(size_t x, size_t unit) { return unit > 0 ? (x + unit - 1) / unit * unit : x; }

// The per-resource limits for `block_threads` threads and `dynamic_smem` bytes a block.
inline OccupancyLimits occupancy_limits(const OccupancyDevice& dev, const KernelAttributes& k,
                                        int block_threads, size_t dynamic_smem) {
  OccupancyLimits L;
  const int ws = dev.warp_size > 0 ? dev.warp_size : 32;
  const int max_block = k.max_threads_per_block > 0 && k.max_threads_per_block < dev.max_threads_per_block
                            ? k.max_threads_per_block
                            : dev.max_threads_per_block;
  if (block_threads <= 0 || block_threads > max_block) L.block_too_large = true;
  const int wpb = block_threads > 0 ? (block_threads + ws - 1) / ws : 1;
  L.warps_per_block = wpb;

  L.block_count = dev.max_blocks_per_sm;
  L.warps = dev.max_warps_per_sm() / wpb;

  // Registers: per warp, in allocation units, out of each sub-partition's register file.
  if (k.num_regs <= 0) {
    L.registers = kUnlimited;
  } else {
    const int parts = dev.sub_partitions > 0 ? dev.sub_partitions : 1;
    L.regs_per_warp_allocated = round_up(k.num_regs * ws, dev.reg_alloc_unit);
    // The hardware's per-block check assumes every sub-partition gets the same warp count.
    const long long block_regs_hw = static_cast<long long>(L.regs_per_warp_allocated) * round_up(wpb, parts);
    if (block_regs_hw > dev.regs_per_block) {
      L.registers = 0;
    } else {
      const int warps_per_part = (dev.regs_per_sm / parts) / L.regs_per_warp_allocated;
      L.registers = warps_per_part * parts / wpb;
    }
  }

  // Shared memory: static + dynamic + the driver's reserve, in allocation units.
  const size_t used = k.static_smem + dynamic_smem + dev.reserved_smem_per_block;
  L.smem_per_block_allocated = round_up(used, static_cast<size_t>(dev.smem_alloc_unit()));
  const bool over_block_limit =
      (k.max_dynamic_smem >= 0 && dynamic_smem > static_cast<size_t>(k.max_dynamic_smem)) ||
      k.static_smem + dynamic_smem > dev.smem_per_block_optin;
  if (over_block_limit) {
    L.shared_memory = 0;
  } else if (L.smem_per_block_allocated == 0) {
    L.shared_memory = kUnlimited;
  } else {
    L.shared_memory = static_cast<int>(dev.smem_per_sm / L.smem_per_block_allocated);
  }
  return L;
}

struct OccupancyPoint {
  int block_threads = 0;
  size_t dynamic_smem = 0;
  int active_blocks = 0;   // per SM, from the occupancy API
  int active_warps = 0;    // per SM
  float occupancy = 0.0f;  // active warps / max warps per SM
  unsigned limiters = kLimitNone;
};

struct OccupancyReport {
  std::string name;
  std::string code_path;  // which of the kernel's code paths this device's binary runs ("": only one)
  std::string error;      // non-empty: the analysis failed (and why); the rest is not meaningful

  KernelAttributes attr;
  OccupancyDevice device;

  // The configuration in use.
  int block_threads = 0;
  size_t dynamic_smem = 0;
  OccupancyLimits limits;        // what each resource allows at this configuration
  int active_blocks_per_sm = 0;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  int active_warps_per_sm = 0;
  int max_warps_per_sm = 0;
  float occupancy = 0.0f;  // 0..1, theoretical
  unsigned limiters = kLimitNone;
  // False when the formulas' minimum is not the API's answer (then `limiters` names the resources
  // whose formula limit is smallest, and the panel shows both numbers).
  bool formulas_agree = true;
  int formula_active_blocks = 0;

  // Occupancy for every block size from one warp to the largest allowed, one warp apart.
  std::vector<OccupancyPoint> curve;

  // cudaOccupancyMaxPotentialBlockSize: the smallest block size reaching the best occupancy, and
  // the grid that fills the device with it.
  int suggested_block_threads = 0;
  int suggested_min_grid = 0;
  float suggested_occupancy = 0.0f;
};

// Analyses one kernel on the current CUDA device. Never throws: failures (a null function, no
// device) come back in OccupancyReport::error. Costs a few dozen occupancy-API calls: call it when
// the variant or block size changes, not every frame.
OccupancyReport analyze_occupancy(const gpulab::KernelInfo& kernel);
std::vector<OccupancyReport> analyze_occupancy(std::span<const gpulab::KernelInfo> kernels);

// For the frame loop: re-analyses only when the kernel list (function, block size, dynamic shared
// memory) differs from the last call's, so the UI can ask every frame.
class OccupancyCache {
 public:
  const std::vector<OccupancyReport>& get(std::span<const gpulab::KernelInfo> kernels);
  void invalidate() {
    keys_.clear();
    valid_ = false;
  }

 private:
  struct Key {
    const void* func = nullptr;
    int block_threads = 0;
    size_t dynamic_smem = 0;
    bool operator==(const Key&) const = default;
  };
  std::vector<Key> keys_;
  std::vector<OccupancyReport> reports_;
  bool valid_ = false;
};

}  // namespace gpulab::cuda

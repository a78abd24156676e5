// The histogram-equalization stage and variant table: one place that knows each variant's id,
// stage, lesson, snippet and block sizes.
#include <algorithm>
#include <array>

#include "histeq/histeq.h"

namespace gpulab::histeq {
namespace {

constexpr std::array<int, 5> kBlocks1D{64, 128, 256, 512, 1024};
constexpr std::array<int, 4> kBlocksReduce{64, 128, 256, 512};
constexpr std::array<int, 4> kBlocksLane{64, 128, 256, 512};  // 8 KiB of counters a warp
constexpr std::array<int, 3> kBlocksVec{256, 512, 1024};      // a thread a bin at the end

constexpr std::array<StageInfo, kStageCount> kStages{{
    {StageId::Histogram, "histogram", "histogram"},
    {StageId::Scan, "scan", "scan to CDF and LUT"},
    {StageId::Reduce, "reduce", "min and max (contrast stretch)"},
    {StageId::Apply, "apply", "apply the LUT"},
}};

using S = StageId;
using B = Backend;
using H = HistKind;
using R = ReduceKind;
using A = ApplyKind;

constexpr std::array<Variant, 32> kVariants{{
    // Histogram.
    {{"hist-cpu", "CPU reference", "one core counts every pixel: the baseline every GPU variant must equal",
      "histogram_cpu"},
     S::Histogram,
     B::Cpu},
    {{"hist-naive-race", "naive: hist[v]++ (racy)",
      "threads that read, add and write the same bin at once overwrite each other: counts are lost",
      "hist_naive_race", kBlocks1D, false, 256, H::NaiveRace},
     S::Histogram,
     B::Cuda,
     false},
    {{"hist-atomic-global", "atomicAdd in global memory",
      "atomicAdd makes the update indivisible, but every pixel's atomic queues at the same 256 addresses in "
      "L2",
      "hist_atomic_global", kBlocks1D, false, 256, H::AtomicGlobal},
     S::Histogram,
     B::Cuda},
    {{"hist-atomic-gridstride", "grid-stride loop, global atomics",
      "a fixed grid of a few blocks per SM walks the image with a grid-stride loop: fewer threads than "
      "pixels",
      "hist_atomic_gridstride", kBlocks1D, false, 256, H::AtomicGridStride},
     S::Histogram,
     B::Cuda},
    {{"hist-shared-private", "per-block shared histograms",
      "each block counts into its own histogram in shared memory and adds it to global memory once: 256 "
      "global "
      "atomics a block instead of one a pixel",
      "hist_shared_private", kBlocks1D, false, 256, H::SharedPrivate},
     S::Histogram,
     B::Cuda},
    {{"hist-warp-private", "per-warp sub-histograms",
      "one shared histogram per warp: warps no longer contend with each other, only lanes of the same warp",
      "hist_warp_private", kBlocks1D, false, 256, H::WarpPrivate},
     S::Histogram,
     B::Cuda},
    {{"hist-cub",
      "CUB DeviceHistogram::HistogramEven",
      "the library reference: CUB's privatized, tuned histogram (its own init and sweep kernels)",
      "hist_cub",
      {},
      false,
      0,
      H::Cub,
      true},
     S::Histogram,
     B::Cuda},
    {{"hist-thrust-sort",
      "Thrust: sort, then upper_bound",
      "the histogram without atomics, as the Thrust examples build it: sort a copy of the pixels "
      "(thrust::sort, a radix sort), find where each value's run ends (thrust::upper_bound over the 256 "
      "bins) and take differences. Sorting moves every byte several times: the price of not counting",
      "hist_thrust_sort",
      {},
      false,
      0,
      H::ThrustSort,
      true},
     S::Histogram,
     B::Cuda},
    {{"hist-npp",
      "NPP: nppiHistogramEven",
      "the toolkit's image library (NPP): 257 evenly spaced levels from 0 to 256 make 256 bins of one value "
      "each, counted by NPP's own kernels into a scratch buffer it sizes; a call, not a kernel of ours",
      "hist_npp",
      {},
      false,
      0,
      H::Npp,
      true},
     S::Histogram,
     B::Cuda},
    {{"hist-shared-vec", "shared histogram, 16 pixels a load, one kernel",
      "what beats CUB here: one 1 KiB shared histogram a block, 16 pixels a 128-bit load, few fat blocks "
      "(one an SM "
      "for a 4K image: less zeroing and merging), and the last block to finish merges and clears: one "
      "launch, no "
      "memset",
      "hist_shared_vec", kBlocksVec, false, 512, H::SharedVec},
     S::Histogram,
     B::Cuda},
    {{"hist-bank-private", "a histogram copy per bank, one kernel",
      "bank conflicts in atomics: 32 copies of the block's histogram, lane l's wholly in bank l, so the 32 "
      "shared atomics of a warp never meet in a bank, whatever the pixels; otherwise hist-shared-vec. "
      "Fastest on "
      "random pixels; on constant or narrow ones, where one copy hardly conflicts, clearing and folding 32 "
      "KiB "
      "a block costs a little",
      "hist_bank_private", kBlocksVec, false, 1024, H::BankPrivate},
     S::Histogram,
     B::Cuda},
    {{"hist-fused-scan", "hist-bank-private with the scan fused in",
      "kernel fusion: the last block to finish holds the whole histogram, so it scans it and writes the LUT "
      "itself (a warp-shuffle scan, one __syncthreads): the scan stage costs no launch",
      "hist_bank_private", kBlocksVec, false, 1024, H::FusedScan},
     S::Histogram,
     B::Cuda,
     true,
     true},
    {{"hist-lane-private", "8-bit counters a lane, no atomics, one kernel",
      "privatisation down to the lane: 256 byte counters per lane in its own shared-memory bank, counted "
      "with "
      "plain loads and stores (no atomics, no conflicts, whatever the contents) and folded by warp "
      "reductions every "
      "240 pixels; 16 pixels a 128-bit load; one launch. Measured slower on the H100 than hist-shared-vec's "
      "atomics: every pixel is a dependent shared load and store, and the folds come on top",
      "hist_lane_private", kBlocksLane, false, 256, H::LanePrivate},
     S::Histogram,
     B::Cuda},
    // Scan to CDF and LUT.
    {{"scan-cpu", "CPU reference", "the CDF and LUT on the host, as OpenCV computes them", "equalize_lut"},
     S::Scan,
     B::Cpu},
    {{"scan-serial",
      "one thread",
      "a single GPU thread walks the 256 bins: a scan is a serial chain",
      "scan_serial",
      {},
      false,
      0,
      ScanKind::Serial},
     S::Scan,
     B::Cuda},
    {{"scan-block",
      "shared-memory scan in one block",
      "256 threads scan the bins in shared memory in log2(256) = 8 steps (Hillis-Steele)",
      "scan_block",
      {},
      false,
      0,
      ScanKind::Block},
     S::Scan,
     B::Cuda},
    {{"scan-cub",
      "CUB BlockScan",
      "the library's block-wide scan (warp shuffles, then across warps) inside our kernel",
      "scan_cub",
      {},
      false,
      0,
      ScanKind::Cub},
     S::Scan,
     B::Cuda},
    {{"scan-thrust",
      "Thrust inclusive_scan",
      "a device-wide scan from the library (thrust::inclusive_scan over the 256 bins: CUB's decoupled "
      "look-back underneath), then our small kernel for the LUT: two launches and the library's setup for "
      "a job one block does alone",
      "scan_thrust",
      {},
      false,
      0,
      ScanKind::Thrust,
      true},
     S::Scan,
     B::Cuda},
    // Min and max for the contrast stretch: the lecture's reduction ladder.
    {{"reduce-cpu", "CPU reference", "one core scans every pixel for min and max", "minmax_cpu"},
     S::Reduce,
     B::Cpu},
    {{"reduce-divergent", "v1: tid % (2s), divergent",
      "interleaved addressing with `if (tid % (2*s) == 0)`: most lanes of every warp sit idle, and % is slow",
      "reduce_divergent", kBlocksReduce, false, 256, R::Divergent},
     S::Reduce,
     B::Cuda},
    {{"reduce-strided-index", "v2: strided index, bank conflicts",
      "`index = 2*s*tid` keeps warps busy, but the strided shared-memory accesses hit the same banks",
      "reduce_strided_index", kBlocksReduce, false, 256, R::StridedIndex},
     S::Reduce,
     B::Cuda},
    {{"reduce-sequential", "v3: sequential addressing",
      "`tid < s` with s halving: contiguous active threads, conflict-free shared memory; half the threads "
      "idle "
      "from the first step",
      "reduce_sequential", kBlocksReduce, false, 256, R::Sequential},
     S::Reduce,
     B::Cuda},
    {{"reduce-add-on-load", "v4: first step during the load",
      "each thread combines two pixels as it loads them: half the blocks, no idle threads in the first step",
      "reduce_add_on_load", kBlocksReduce, false, 256, R::AddOnLoad},
     S::Reduce,
     B::Cuda},
    {{"reduce-unroll-last-warp", "v5: last warp unrolled",
      "below 32 active threads one warp finishes without __syncthreads (__syncwarp between steps since "
      "Volta)",
      "reduce_unroll_last_warp", kBlocksReduce, false, 256, R::UnrollLastWarp},
     S::Reduce,
     B::Cuda},
    {{"reduce-warp-shuffle", "warp shuffles, 16 pixels a load",
      "128-bit loads in a grid-stride loop, __shfl_down_sync inside warps, shared memory only between warps",
      "reduce_warp_shuffle", kBlocksReduce, false, 256, R::WarpShuffle},
     S::Reduce,
     B::Cuda},
    {{"reduce-thrust",
      "Thrust reduce, min then max",
      "two library calls, thrust::reduce with minimum and then with maximum: two passes over the image, and "
      "each returns its value to the host, so every call waits for the GPU and copies the result back",
      "reduce_thrust",
      {},
      false,
      0,
      R::ThrustReduce,
      true},
     S::Reduce,
     B::Cuda},
    {{"reduce-thrust-transform",
      "Thrust transform_reduce to a (min, max) pair",
      "one pass: thrust::transform_reduce turns each pixel into the pair (v, v) and combines pairs, so min "
      "and max come from one read of the image; the result still comes back to the host",
      "reduce_thrust_transform",
      {},
      false,
      0,
      R::ThrustTransformReduce,
      true},
     S::Reduce,
     B::Cuda},
    // Apply the LUT.
    {{"apply-cpu", "CPU reference", "out = lut[in] on the host", "apply_lut_cpu"}, S::Apply, B::Cpu},
    {{"apply-global", "LUT in global memory",
      "each thread reads 16 pixels with one 128-bit load and looks each up in the global-memory LUT "
      "(L1-cached)",
      "apply_global", kBlocks1D, false, 256, A::Global},
     S::Apply,
     B::Cuda},
    {{"apply-constant", "LUT in __constant__ memory",
      "the constant cache broadcasts one address a warp; 32 lanes with different pixels serialise up to 32 "
      "ways",
      "apply_constant", kBlocks1D, false, 256, A::Constant},
     S::Apply,
     B::Cuda},
    {{"apply-shared", "LUT in shared memory",
      "each block copies the 256-byte LUT to shared memory once; a lookup is then a shared load, slowed only "
      "where lanes of a warp hit different words of the same bank",
      "apply_shared", kBlocks1D, false, 256, A::Shared},
     S::Apply,
     B::Cuda},
    {{"apply-npp",
      "NPP: nppiLUTPalette",
      "the toolkit's image library (NPP) maps each pixel through a 256-entry palette in device memory, "
      "8 bits in, 8 bits out: the same table lookup as apply-global, NPP's kernel instead of ours",
      "apply_npp",
      {},
      false,
      0,
      A::Npp,
      true},
     S::Apply,
     B::Cuda},
}};

// A CUDA row's selector is a value of its stage's kind (the engine reads it as that); a CPU row has none.
constexpr bool selector_fits(const Variant& v) {
  if (v.backend == Backend::Cpu) return v.kernel.empty();
  switch (v.stage) {
    case StageId::Histogram:
      return v.kernel.holds<HistKind>();
    case StageId::Scan:
      return v.kernel.holds<ScanKind>();
    case StageId::Reduce:
      return v.kernel.holds<ReduceKind>();
    case StageId::Apply:
      return v.kernel.holds<ApplyKind>();
  }
  return false;
}
static_assert(std::all_of(kVariants.begin(), kVariants.end(), selector_fits));

}  // namespace

std::span<const StageInfo> stage_infos() { return kStages; }

bool stage_runs(StageId s, Mode m) {
  switch (s) {
    case StageId::Histogram:
    case StageId::Scan:
      return m == Mode::Equalize;
    case StageId::Reduce:
      return m == Mode::Stretch;
    case StageId::Apply:
      return true;
  }
  return false;
}

std::span<const Variant> variants() { return kVariants; }

std::vector<const Variant*> variants_of(StageId s) {
  std::vector<const Variant*> out;
  for (const Variant& v : kVariants)
    if (v.stage == s) out.push_back(&v);
  return out;
}

const Variant* find_variant(std::string_view id) {
  return find_by_id(std::span<const Variant>(kVariants), id);
}

}  // namespace gpulab::histeq

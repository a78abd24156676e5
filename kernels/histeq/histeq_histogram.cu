// Histogram kernels: from the lecture's racy `hist[v]++` to a one-launch kernel faster than CUB.
//   hist-naive-race         one thread a pixel, plain increment in global memory: counts are lost
//   hist-atomic-global      one thread a pixel, atomicAdd in global memory
//   hist-atomic-gridstride  a resident grid walks the image (grid-stride loop), global atomics
//   hist-shared-private     a shared histogram a block, merged with 256 global atomics a block
//   hist-warp-private       a shared histogram a warp, summed per block, then merged
//   hist-cub                cub::DeviceHistogram::HistogramEven (257 levels over [0, 256))
//   hist-shared-vec         one shared histogram a block fed 16 pixels a 128-bit load by 512-thread
//                           blocks (one an SM for a 4K image); the last block to finish hands the counts out
//                           and clears the accumulator: one launch, no memset
//   hist-bank-private       32 copies of the histogram a block, copy l in shared-memory bank l: lane l
//                           of every warp adds to copy l, so a warp's 32 atomics never share a bank;
//                           otherwise as hist-shared-vec (16 pixels a load, few fat blocks, one launch)
//   hist-fused-scan         hist-bank-private, and the last block, which holds the whole histogram,
//                           also scans it and writes the LUT: the scan stage needs no launch
//   hist-lane-private       256 8-bit counters a lane, in the lane's own shared-memory bank, counted
//                           with plain loads and stores (no atomics, no bank conflicts, whatever the
//                           contents), folded by warp reductions every 240 pixels; 16 pixels a
//                           128-bit load; the last block to finish copies the merged counts out and
//                           clears them: one launch
// The lecture's five need the histogram cleared first (cudaMemsetAsync, part of the stage's time).
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "histeq/histeq_cuda_internal.cuh"
#include "histeq/histeq_lut.cuh"

namespace gpulab::histeq::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

// snippet hist_naive_race
__global__ void hist_naive_race(const uint8_t* __restrict__ img, size_t n, uint32_t* hist) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) hist[img[i]]++;  // read, add, write: two threads on one bin lose an increment
}
// end snippet

// snippet hist_atomic_global
__global__ void hist_atomic_global(const uint8_t* __restrict__ img, size_t n, uint32_t* hist) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[img[i]], 1u);
}
// end snippet

// snippet hist_atomic_gridstride
__global__ void hist_atomic_gridstride(const uint8_t* __restrict__ img, size_t n, uint32_t* hist) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&hist[img[i]], 1u);
}
// end snippet

// snippet hist_shared_private
__global__ void hist_shared_private(const uint8_t* __restrict__ img, size_t n, uint32_t* hist) {
  __shared__ uint32_t local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[img[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}
// end snippet

// Dynamic shared memory: one 256-bin histogram per warp.
size_t warp_private_smem(int block) { return size_t(ceil_div(block, 32)) * kBins * sizeof(uint32_t); }

// snippet hist_warp_private
__global__ void hist_warp_private(const uint8_t* __restrict__ img, size_t n, uint32_t* hist) {
  extern __shared__ uint32_t warp_hist[];  // [warp][bin]
  const int warps = (blockDim.x + 31) / 32;
  for (int i = threadIdx.x; i < warps * kBins; i += blockDim.x) warp_hist[i] = 0;
  __syncthreads();
  uint32_t* mine = warp_hist + (threadIdx.x / 32) * kBins;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&mine[img[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    uint32_t sum = 0;
    for (int w = 0; w < warps; ++w) sum += warp_hist[w * kBins + b];
    if (sum) atomicAdd(&hist[b], sum);
  }
}
// end snippet

// After every block has added its counts to accum: the last block to finish copies them to hist and
// clears accum (and the ticket) for the next launch. Returns in `mine` bin threadIdx.x's count in the
// last block (0 elsewhere); true in the last block. Every thread of the block calls it.
__device__ __forceinline__ bool hand_out_if_last(uint32_t* accum, uint32_t* hist, uint32_t& mine) {
  __shared__ bool last;
  mine = 0;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(&accum[kBins], 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return false;
  __threadfence();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    mine = atomicExch(&accum[b], 0u);
    hist[b] = mine;
  }
  if (threadIdx.x == 0) accum[kBins] = 0;
  return true;
}

// hist-lane-private: every lane counts into 256 8-bit counters of its own, all in its own shared-
// memory bank, with plain loads and stores (no atomics): counter v of (warp, lane) is byte v & 3 of
// word (warp * 64 + v / 4) * 32 + lane. A lane counts at most kRoundVectors * 16 = 240 pixels before
// its warp folds the counters (warp sums of two bytes at a time, warp_sum) into 32-bit
// totals held in registers: lane l keeps bins 4l..4l+3 and 128+4l..128+4l+3.
constexpr int kRoundVectors = 15;                              // 240 pixels: a byte counter cannot overflow
constexpr size_t kLaneWarpBytes = 64 * 32 * sizeof(uint32_t);  // 8 KiB of counters a warp
constexpr int kLaneMaxBlock = 512;
size_t lane_private_smem(int block) { return kBins * sizeof(uint32_t) + size_t(block / 32) * kLaneWarpBytes; }

__device__ __forceinline__ void count4(uint8_t* mine, uint32_t w) {
#pragma unroll
  for (int s = 0; s < 32; s += 8) {
    const uint32_t v = (w >> s) & 0xFFu;
    uint8_t* c = mine + ((v >> 2) << 7) + (v & 3u);
    *c = static_cast<uint8_t>(*c + 1);
  }
}
__device__ __forceinline__ void count16(uint8_t* mine, const uint4& a) {
  count4(mine, a.x);
  count4(mine, a.y);
  count4(mine, a.z);
  count4(mine, a.w);
}

// The sum over the warp of one value a lane: one redux.sync instruction from sm_80 (Ampere) on; a
// five-step shuffle tree on sm_75 (Turing), which has no warp-reduce instruction. Same sum either way.
__device__ __forceinline__ uint32_t warp_sum(uint32_t x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xFFFFFFFFu, x);
#else
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_xor_sync(0xFFFFFFFFu, x, offset);
  return x;
#endif
}

// The warp folds and clears its counters (every lane of the warp must call it).
__device__ __forceinline__ void fold(uint32_t* cols, int lane, uint32_t (&acc)[8]) {
#pragma unroll
  for (int r = 0; r < 64; ++r) {
    const uint32_t x = cols[r * 32 + lane];
    cols[r * 32 + lane] = 0;
    // Bytes 0 and 2, then 1 and 3, as 16-bit fields: 32 lanes x 240 < 65536, so the fields never carry.
    const uint32_t even = warp_sum(x & 0x00FF00FFu);
    const uint32_t odd = warp_sum((x >> 8) & 0x00FF00FFu);
    if (lane == (r & 31)) {
      const int a = (r >> 5) * 4;
      acc[a + 0] += even & 0xFFFFu;
      acc[a + 1] += odd & 0xFFFFu;
      acc[a + 2] += even >> 16;
      acc[a + 3] += odd >> 16;
    }
  }
}

// snippet hist_lane_private
__global__ void __launch_bounds__(kLaneMaxBlock)
    hist_lane_private(const uint8_t* __restrict__ img, size_t n, uint32_t* accum, uint32_t* hist) {
  extern __shared__ uint32_t smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  uint32_t* block_hist = smem;
  uint32_t* cols = smem + kBins + warp * 64 * 32;
  uint8_t* mine = reinterpret_cast<uint8_t*>(cols + lane);
  for (int i = threadIdx.x; i < kBins + warps * 64 * 32; i += blockDim.x) smem[i] = 0;
  __syncthreads();

  uint32_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const uint4* v = reinterpret_cast<const uint4*>(img);
  const size_t vectors = n / 16;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  // Rounds are warp-uniform (they start at the warp's first vector), so the whole warp folds together.
  for (size_t base = size_t(blockIdx.x) * blockDim.x + warp * 32; base < vectors;
       base += kRoundVectors * stride) {
    const size_t i = base + lane;
#pragma unroll
    for (int k = 0; k < kRoundVectors; k += 3) {
      const size_t i0 = i + k * stride, i1 = i0 + stride, i2 = i1 + stride;
      uint4 a = make_uint4(0, 0, 0, 0), b = a, c = a;
      if (i0 < vectors) a = __ldg(v + i0);
      if (i1 < vectors) b = __ldg(v + i1);
      if (i2 < vectors) c = __ldg(v + i2);
      if (i0 < vectors) count16(mine, a);
      if (i1 < vectors) count16(mine, b);
      if (i2 < vectors) count16(mine, c);
    }
    fold(cols, lane, acc);
  }
  // The last n % 16 pixels.
  if (blockIdx.x == 0 && threadIdx.x < n % 16) atomicAdd(&block_hist[img[vectors * 16 + threadIdx.x]], 1u);
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const int bin = (j >> 2) * 128 + lane * 4 + (j & 3);
    if (acc[j]) atomicAdd(&block_hist[bin], acc[j]);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (block_hist[b]) atomicAdd(&accum[b], block_hist[b]);

  uint32_t count;
  hand_out_if_last(accum, hist, count);
}
// end snippet

// More than 48 KiB of dynamic shared memory needs the kernel's consent, once.
void allow_lane_private_smem() {
  static const bool done = [] {
    CUDA_CHECK(cudaFuncSetAttribute(hist_lane_private, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(lane_private_smem(kLaneMaxBlock))));
    return true;
  }();
  (void)done;
}

// hist-shared-vec: one shared histogram a block, fed 16 pixels a 128-bit load (two
// loads in flight a thread) by 512-thread blocks, one an SM for small images, up to what stays resident; the
// block adds its counts to an accumulator and the last block to finish hands them out and clears it (one
// launch, no memset).
constexpr int kVecMaxBlock = 1024;

__device__ __forceinline__ void count_vec(uint32_t* h, const uint4& a) {
  const uint32_t w[4] = {a.x, a.y, a.z, a.w};
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int s = 0; s < 32; s += 8) atomicAdd(&h[(w[k] >> s) & 0xFFu], 1u);
}

// snippet hist_shared_vec
__global__ void __launch_bounds__(kVecMaxBlock)
    hist_shared_vec(const uint8_t* __restrict__ img, size_t n, uint32_t* accum, uint32_t* hist) {
  __shared__ uint32_t h[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) h[b] = 0;
  __syncthreads();
  const uint4* v = reinterpret_cast<const uint4*>(img);
  const size_t vectors = n / 16, stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + stride < vectors; i += 2 * stride) {
    const uint4 a = __ldg(v + i), b = __ldg(v + i + stride);
    count_vec(h, a);
    count_vec(h, b);
  }
  if (i < vectors) count_vec(h, __ldg(v + i));
  if (blockIdx.x == 0 && threadIdx.x < n % 16) atomicAdd(&h[img[vectors * 16 + threadIdx.x]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (h[b]) atomicAdd(&accum[b], h[b]);

  uint32_t mine;
  hand_out_if_last(accum, hist, mine);
}
// end snippet

// hist-bank-private: 32 copies of the histogram a block, counter (bin, copy) at word bin * 32 + copy,
// so copy l lies wholly in shared-memory bank l. Lane l of every warp adds to copy l: the 32 atomics of
// a warp instruction fall in 32 different banks whatever the pixels are (hist-shared-vec's one copy
// puts random pixels of a warp in the same bank several times, and the atomics wait for each other).
// The price is 32 KiB a block to clear and a 32-term fold a bin at the end.
// With kFuseScan (hist-fused-scan) the last block, which holds the whole histogram, also writes the
// LUT (histeq_lut.cuh).
constexpr int kBankCopies = 32;

__device__ __forceinline__ void count_banked(uint32_t* h, const uint4& a, uint32_t lane) {
  const uint32_t w[4] = {a.x, a.y, a.z, a.w};
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int s = 0; s < 32; s += 8) atomicAdd(&h[(((w[k] >> s) & 0xFFu) << 5) | lane], 1u);
}

// snippet hist_bank_private
template <bool kFuseScan>
__global__ void __launch_bounds__(kVecMaxBlock)
    hist_bank_private(const uint8_t* __restrict__ img, size_t n, uint32_t* accum, uint32_t* hist,
                      uint8_t* lut) {
  __shared__ uint4 smem[kBins * kBankCopies / 4];
  uint32_t* h = reinterpret_cast<uint32_t*>(smem);
  for (int i = threadIdx.x; i < kBins * kBankCopies / 4; i += blockDim.x) smem[i] = make_uint4(0, 0, 0, 0);
  __syncthreads();
  const uint32_t lane = threadIdx.x & 31u;
  const uint4* v = reinterpret_cast<const uint4*>(img);
  const size_t vectors = n / 16, stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + stride < vectors; i += 2 * stride) {
    const uint4 a = __ldg(v + i), b = __ldg(v + i + stride);
    count_banked(h, a, lane);
    count_banked(h, b, lane);
  }
  if (i < vectors) count_banked(h, __ldg(v + i), lane);
  if (blockIdx.x == 0 && threadIdx.x < n % 16)
    atomicAdd(&h[(uint32_t(img[vectors * 16 + threadIdx.x]) << 5) | lane], 1u);
  __syncthreads();
  // Thread b folds bin b's copies starting at copy b % 32: the 32 threads of a warp read 32 banks at once.
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    uint32_t sum = 0;
#pragma unroll 8
    for (int c = 0; c < kBankCopies; ++c) sum += h[(b << 5) | ((c + b) & 31)];
    if (sum) atomicAdd(&accum[b], sum);
  }
  uint32_t mine;  // blockDim >= 256: one bin a thread
  if (hand_out_if_last(accum, hist, mine) && kFuseScan) block_equalize_lut_shuffle(mine, lut);
}
// end snippet

// Grid of a grid-stride kernel: what stays resident, not more blocks than the work needs.
unsigned resident_grid(const void* func, int block, size_t smem, const GpuShape& gpu, size_t items) {
  const long long want = ceil_div(static_cast<long long>(std::max<size_t>(items, 1)), block);
  const long long resident = static_cast<long long>(resident_blocks(func, block, smem)) * gpu.sm_count;
  return static_cast<unsigned>(std::max<long long>(1, std::min(want, resident)));
}

// Grid of the vector-load kernels (hist-shared-vec, hist-bank-private): blocks stay few while each
// thread would get fewer than 16 vectors. At 3840x2160 that is one block an SM (less zeroing and
// merging); at 16384² as many as stay resident (enough loads in flight).
unsigned few_fat_grid(const void* func, int block, size_t n, const GpuShape& gpu) {
  const long long per_sm =
      static_cast<long long>(n / 16) / (static_cast<long long>(gpu.sm_count) * block * 16);
  const long long blocks_per_sm = std::clamp<long long>(per_sm, 1, resident_blocks(func, block, 0));
  return static_cast<unsigned>(
      std::max<long long>(1, std::min<long long>(blocks_per_sm * gpu.sm_count,
                                                 ceil_div(static_cast<long long>(n / 16 + 1), block))));
}

}  // namespace

int resident_blocks(const void* func, int block, size_t dynamic_smem) {
  // Asked at every launch of a grid-stride kernel: the occupancy API is asked once per kernel, block
  // and device, not once a frame.
  struct Key {
    const void* func;
    int block;
    size_t smem;
    int device;
    bool operator<(const Key& o) const {
      return std::tie(func, block, smem, device) < std::tie(o.func, o.block, o.smem, o.device);
    }
  };
  static std::mutex mutex;
  static std::map<Key, int> known;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const Key key{func, block, dynamic_smem, device};
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, block, dynamic_smem));
  return known[key] = std::max(blocks, 1);
}

size_t cub_histogram_temp_bytes(size_t n) {
  size_t bytes = 0;
  CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const uint8_t*>(nullptr),
                                                 static_cast<uint32_t*>(nullptr), kBins + 1, 0, kBins,
                                                 static_cast<long long>(n)));
  return bytes;
}

namespace {
// The kinds that add to the histogram in global memory, which must start at zero.
bool adds_to_global(HistKind k) {
  return k == HistKind::NaiveRace || k == HistKind::AtomicGlobal || k == HistKind::AtomicGridStride ||
         k == HistKind::SharedPrivate || k == HistKind::WarpPrivate;
}
}  // namespace

void launch_histogram(HistKind k, int block, const uint8_t* d_plane, size_t n, uint32_t* d_hist,
                      uint8_t* d_lut, const HistScratch& s, const GpuShape& gpu, cudaStream_t stream) {
  if (adds_to_global(k)) CUDA_CHECK(cudaMemsetAsync(d_hist, 0, kBins * sizeof(uint32_t), stream));
  if (n == 0) throw std::invalid_argument("histogram: an empty plane");
  const bool own_launch =
      k == HistKind::Cub || k == HistKind::ThrustSort || k == HistKind::Npp;  // a library's
  if (!own_launch && block <= 0) throw std::invalid_argument("histogram: the block needs threads");
  const unsigned per_pixel =
      own_launch ? 0u : static_cast<unsigned>(ceil_div(static_cast<long long>(n), block));
  switch (k) {
    case HistKind::NaiveRace:
      hist_naive_race<<<per_pixel, block, 0, stream>>>(d_plane, n, d_hist);
      break;
    case HistKind::AtomicGlobal:
      hist_atomic_global<<<per_pixel, block, 0, stream>>>(d_plane, n, d_hist);
      break;
    case HistKind::AtomicGridStride:
      hist_atomic_gridstride<<<resident_grid(reinterpret_cast<const void*>(hist_atomic_gridstride), block, 0,
                                             gpu, n),
                               block, 0, stream>>>(d_plane, n, d_hist);
      break;
    case HistKind::SharedPrivate:
      hist_shared_private<<<resident_grid(reinterpret_cast<const void*>(hist_shared_private), block, 0, gpu,
                                          n),
                            block, 0, stream>>>(d_plane, n, d_hist);
      break;
    case HistKind::WarpPrivate: {
      const size_t smem = warp_private_smem(block);
      hist_warp_private<<<resident_grid(reinterpret_cast<const void*>(hist_warp_private), block, smem, gpu,
                                        n),
                          block, smem, stream>>>(d_plane, n, d_hist);
      break;
    }
    // snippet hist_cub
    case HistKind::Cub: {
      size_t bytes = s.cub_temp_bytes;
      CUDA_CHECK(cub::DeviceHistogram::HistogramEven(s.cub_temp, bytes, d_plane, d_hist, kBins + 1, 0, kBins,
                                                     static_cast<long long>(n), stream));
      break;
    }
    // end snippet
    case HistKind::Npp:  // it needs the plane's width: the engine calls npp_histogram itself
      throw std::logic_error("hist-npp: run through npp_histogram");
    case HistKind::ThrustSort:
      if (!s.thrust) throw std::logic_error("hist-thrust-sort: no arena for Thrust");
      thrust_histogram_sort(d_plane, n, d_hist, *s.thrust, stream);
      break;
    case HistKind::SharedVec: {
      if (block < kBins || block > kVecMaxBlock)
        throw std::invalid_argument("hist-shared-vec: from 256 to 1024 threads a block");
      const unsigned grid = few_fat_grid(reinterpret_cast<const void*>(hist_shared_vec), block, n, gpu);
      hist_shared_vec<<<grid, block, 0, stream>>>(d_plane, n, s.accum, d_hist);
      break;
    }
    case HistKind::BankPrivate:
    case HistKind::FusedScan: {
      if (block < kBins || block > kVecMaxBlock || block % 32)
        throw std::invalid_argument(
            std::string(k == HistKind::FusedScan ? "hist-fused-scan" : "hist-bank-private") +
            ": from 256 to 1024 threads a block, whole warps");
      if (k == HistKind::BankPrivate)
        hist_bank_private<false>
            <<<few_fat_grid(reinterpret_cast<const void*>(hist_bank_private<false>), block, n, gpu), block, 0,
               stream>>>(d_plane, n, s.accum, d_hist, nullptr);
      else
        hist_bank_private<true>
            <<<few_fat_grid(reinterpret_cast<const void*>(hist_bank_private<true>), block, n, gpu), block, 0,
               stream>>>(d_plane, n, s.accum, d_hist, d_lut);
      break;
    }
    case HistKind::LanePrivate: {
      if (block % 32 || block > kLaneMaxBlock)
        throw std::invalid_argument("hist-lane-private: the block must be whole warps, at most 512 threads");
      allow_lane_private_smem();
      const size_t smem = lane_private_smem(block);
      hist_lane_private<<<resident_grid(reinterpret_cast<const void*>(hist_lane_private), block, smem, gpu,
                                        n / 16 + 1),
                          block, smem, stream>>>(d_plane, n, s.accum, d_hist);
      break;
    }
  }
  CUDA_CHECK_LAUNCH("histogram");
}

std::vector<KernelInfo> histogram_kernels(HistKind k, int block) {
  switch (k) {
    case HistKind::NaiveRace:
      return {{"hist_naive_race", reinterpret_cast<const void*>(hist_naive_race), block}};
    case HistKind::AtomicGlobal:
      return {{"hist_atomic_global", reinterpret_cast<const void*>(hist_atomic_global), block}};
    case HistKind::AtomicGridStride:
      return {{"hist_atomic_gridstride", reinterpret_cast<const void*>(hist_atomic_gridstride), block}};
    case HistKind::SharedPrivate:
      return {{"hist_shared_private", reinterpret_cast<const void*>(hist_shared_private), block}};
    case HistKind::WarpPrivate:
      return {{"hist_warp_private", reinterpret_cast<const void*>(hist_warp_private), block,
               warp_private_smem(block), warp_private_smem}};
    case HistKind::Cub:
    case HistKind::ThrustSort:
    case HistKind::Npp:
      return {};  // the library's own kernels: not ours to inspect
    case HistKind::SharedVec:
      return {{"hist_shared_vec", reinterpret_cast<const void*>(hist_shared_vec), block}};
    case HistKind::BankPrivate:
      return {{"hist_bank_private", reinterpret_cast<const void*>(hist_bank_private<false>), block}};
    case HistKind::FusedScan:
      return {
          {"hist_bank_private<fuse scan>", reinterpret_cast<const void*>(hist_bank_private<true>), block}};
    case HistKind::LanePrivate:
      allow_lane_private_smem();
      return {{"hist_lane_private", reinterpret_cast<const void*>(hist_lane_private), block,
               lane_private_smem(block), lane_private_smem, 80,
               "warp sums: __reduce_add_sync, one redux.sync each (sm_80+)",
               "warp sums: a 5-step __shfl_xor_sync tree each (sm_75 has no redux.sync)"}};
  }
  return {};
}

}  // namespace gpulab::histeq::cuda_detail

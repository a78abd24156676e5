// The library lecture's Thrust rungs, beside the hand-written kernels of the same stages:
//   hist-thrust-sort          the histogram by sorting a copy of the pixels (thrust::sort), then
//                             thrust::upper_bound over the 256 bins and thrust::adjacent_difference
//   scan-thrust               thrust::inclusive_scan of the histogram (the CDF), then our LUT kernel
//   reduce-thrust             thrust::reduce twice: the minimum, then the maximum (two passes)
//   reduce-thrust-transform   thrust::transform_reduce to a (min, max) pair (one pass)
// Every call goes on the engine's stream with its temporary memory from the engine's arena (ThrustArena:
// Thrust's own default would cudaMalloc and cudaFree it every call). thrust::reduce and
// transform_reduce return their value to the host: the call waits for the GPU, which is part of what
// those rungs measure.
#include <thrust/adjacent_difference.h>
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "histeq/histeq_cuda_internal.cuh"
#include "histeq/histeq_lut.cuh"

namespace gpulab::histeq::cuda_detail {
namespace {

// Thrust's allocator interface over the arena: a bump allocation from the block, reset when every
// allocation of the call has come back.
class ArenaAllocator {
 public:
  using value_type = char;
  explicit ArenaAllocator(ThrustArena& a) : a_(&a) {}

  char* allocate(std::ptrdiff_t bytes) {
    const size_t n = gpulab::cuda::round_up(std::max<size_t>(static_cast<size_t>(bytes), 1), 256);
    a_->peak = std::max(a_->peak, a_->used + n);
    if (a_->used + n <= a_->block.bytes()) {
      char* p = a_->block.get() + a_->used;
      a_->used += n;
      ++a_->live;
      return p;
    }
    void* p = nullptr;
    const cudaError_t err = cudaMalloc(&p, n);
    if (err != cudaSuccess)
      gpulab::cuda::throw_alloc_failure(err, n, "Thrust's temporary storage", a_->device);
    a_->overflow.push_back(p);
    return static_cast<char*>(p);
  }
  void deallocate(char* p, size_t) {
    const auto it = std::find(a_->overflow.begin(), a_->overflow.end(), static_cast<void*>(p));
    if (it != a_->overflow.end()) {
      (void)cudaFree(p);  // synchronises the device: whatever used it has finished
      a_->overflow.erase(it);
      return;
    }
    if (--a_->live == 0) a_->used = 0;  // one stream: the next call's work runs after this call's
  }

 private:
  ThrustArena* a_;
};

// The block grown to the most a call wanted, between calls.
void prepare(ThrustArena& a) {
  if (a.live == 0 && a.overflow.empty() && a.peak > a.block.bytes())
    a.block = gpulab::cuda::DeviceBuffer<char>(a.peak, "Thrust's temporary storage", a.device);
}

// Memory of our own from the arena for one call (returned however the call ends).
template <class T>
class ArenaArray {
 public:
  ArenaArray(ArenaAllocator& alloc, size_t count)
      : alloc_(&alloc), bytes_(count * sizeof(T)), p_(reinterpret_cast<T*>(alloc.allocate(bytes_))) {}
  ~ArenaArray() { alloc_->deallocate(reinterpret_cast<char*>(p_), bytes_); }
  ArenaArray(const ArenaArray&) = delete;
  ArenaArray& operator=(const ArenaArray&) = delete;
  T* get() const { return p_; }

 private:
  ArenaAllocator* alloc_;
  size_t bytes_;
  T* p_;
};

struct MinOp {
  __host__ __device__ uint8_t operator()(uint8_t a, uint8_t b) const { return a < b ? a : b; }
};
struct MaxOp {
  __host__ __device__ uint8_t operator()(uint8_t a, uint8_t b) const { return a > b ? a : b; }
};
struct Range {
  uint8_t min, max;
};
struct AsRange {
  __host__ __device__ Range operator()(uint8_t v) const { return {v, v}; }
};
struct Widen {
  __host__ __device__ Range operator()(Range a, Range b) const {
    return {a.min < b.min ? a.min : b.min, a.max > b.max ? a.max : b.max};
  }
};

// The LUT from the histogram and its inclusive CDF (one block of 256 threads).
__global__ void __launch_bounds__(kBins)
    lut_from_cdf(const uint32_t* __restrict__ hist, const uint32_t* __restrict__ cdf, uint8_t* lut) {
  __shared__ int first;
  const int tid = threadIdx.x;
  if (tid == 0) first = kBins;
  __syncthreads();
  if (hist[tid]) atomicMin(&first, tid);
  __syncthreads();
  const int i0 = first;
  lut[tid] = i0 == kBins ? uint8_t(tid) : lut_entry(tid, cdf[tid], i0, hist[i0], cdf[kBins - 1]);
}

// The result pair and the stretch LUT from a minimum and maximum known on the host.
__global__ void __launch_bounds__(kBins)
    stretch_from(uint32_t mn, uint32_t mx, uint32_t* result, uint8_t* lut) {
  if (threadIdx.x == 0) {
    result[0] = mn;
    result[1] = mx;
  }
  lut[threadIdx.x] = stretch_value(threadIdx.x, mn, mx);
}

}  // namespace

void thrust_histogram_sort(const uint8_t* d_plane, size_t n, uint32_t* d_hist, ThrustArena& arena,
                           cudaStream_t stream) {
  prepare(arena);
  ArenaAllocator alloc(arena);
  {
    // snippet hist_thrust_sort
    const auto policy = thrust::cuda::par_nosync(alloc).on(stream);
    ArenaArray<uint8_t> keys(alloc, n);  // a copy to sort: the image stays as it is
    ArenaArray<uint32_t> ends(alloc, kBins);
    thrust::copy(policy, d_plane, d_plane + n, keys.get());
    thrust::sort(policy, keys.get(), keys.get() + n);
    // ends[b] = how many pixels are <= b: where the run of value b ends in the sorted copy.
    const thrust::counting_iterator<uint32_t> bins(0);
    thrust::upper_bound(policy, keys.get(), keys.get() + n, bins, bins + kBins, ends.get());
    // The histogram: hist[b] = ends[b] - ends[b - 1].
    thrust::adjacent_difference(policy, ends.get(), ends.get() + kBins, d_hist);
    // end snippet
  }
  CUDA_CHECK_LAUNCH("hist-thrust-sort");
}

void thrust_scan(const uint32_t* d_hist, uint8_t* d_lut, ThrustArena& arena, cudaStream_t stream) {
  prepare(arena);
  ArenaAllocator alloc(arena);
  {
    // snippet scan_thrust
    const auto policy = thrust::cuda::par_nosync(alloc).on(stream);
    ArenaArray<uint32_t> cdf(alloc, kBins);
    thrust::inclusive_scan(policy, d_hist, d_hist + kBins, cdf.get());  // the CDF
    lut_from_cdf<<<1, kBins, 0, stream>>>(d_hist, cdf.get(), d_lut);    // our kernel: the LUT from it
    // end snippet
  }
  CUDA_CHECK_LAUNCH("scan-thrust");
}

void thrust_minmax(bool one_pass, const uint8_t* d_plane, size_t n, uint32_t* d_minmax, uint8_t* d_lut,
                   ThrustArena& arena, cudaStream_t stream) {
  if (n == 0) throw std::invalid_argument("reduce: an empty plane has no minimum");
  prepare(arena);
  ArenaAllocator alloc(arena);
  uint8_t mn = 0, mx = 0;
  if (!one_pass) {
    // snippet reduce_thrust
    const auto policy = thrust::cuda::par(alloc).on(stream);
    mn = thrust::reduce(policy, d_plane, d_plane + n, uint8_t(255), MinOp{});  // waits, copies back
    mx = thrust::reduce(policy, d_plane, d_plane + n, uint8_t(0), MaxOp{});    // and again
    // end snippet
  } else {
    // snippet reduce_thrust_transform
    const auto policy = thrust::cuda::par(alloc).on(stream);
    // Each pixel becomes the range (v, v); ranges combine into the one that holds both.
    const Range r = thrust::transform_reduce(policy, d_plane, d_plane + n, AsRange{}, Range{255, 0}, Widen{});
    mn = r.min;
    mx = r.max;
    // end snippet
  }
  stretch_from<<<1, kBins, 0, stream>>>(mn, mx, d_minmax, d_lut);
  CUDA_CHECK_LAUNCH(one_pass ? "reduce-thrust-transform" : "reduce-thrust");
}

}  // namespace gpulab::histeq::cuda_detail

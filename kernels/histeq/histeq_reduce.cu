// Min and max of a plane by the lecture's reduction ladder (both at once: two shared arrays), then
// the contrast-stretch LUT. Every rung reduces each block to one (min, max) pair; passes repeat over
// the partial pairs until one block remains, and that last pass writes the result and the LUT.
//   reduce-divergent         v1: interleaved addressing, `if (tid % (2*s) == 0)`: divergent warps
//   reduce-strided-index     v2: `index = 2*s*tid`: no divergence, but strided shared accesses
//                            conflict on banks
//   reduce-sequential        v3: sequential addressing, `if (tid < s)`: conflict-free
//   reduce-add-on-load       v4: each thread combines two elements while loading
//   reduce-unroll-last-warp  v5: v4, and the last 32 lanes finish without __syncthreads
//                            (with __syncwarp between steps: lanes are not lock-step since Volta)
//   reduce-warp-shuffle      128-bit loads (16 pixels, __vminu4/__vmaxu4) in a grid-stride loop,
//                            __shfl_down_sync within warps, shared memory only across warps
#include <algorithm>
#include <stdexcept>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "histeq/histeq_cuda_internal.cuh"

namespace gpulab::histeq::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

// The input of a pass: the plane's bytes (first pass) or the previous pass's partial pairs.
struct Source {
  const uint8_t* bytes = nullptr;  // first pass
  const uint32_t* mins = nullptr;  // later passes
  const uint32_t* maxs = nullptr;
  size_t n = 0;
  __device__ __forceinline__ void load(size_t i, uint32_t& mn, uint32_t& mx) const {
    if (bytes) {
      mn = mx = bytes[i];
    } else {
      mn = mins[i];
      mx = maxs[i];
    }
  }
};
struct Sink {
  uint32_t* mins = nullptr;  // a pair a block (not the last pass)
  uint32_t* maxs = nullptr;
  uint32_t* result = nullptr;  // the last pass: [min, max]
  uint8_t* lut = nullptr;
};

constexpr uint32_t kEmptyMin = 0xFFFFFFFFu, kEmptyMax = 0u;

// Block 0 of the last pass: the result and the stretch LUT; otherwise the block's pair.
__device__ __forceinline__ void write_out(const Sink& out, uint32_t mn, uint32_t mx) {
  if (out.result) {
    __shared__ uint32_t final_pair[2];
    if (threadIdx.x == 0) {
      out.result[0] = mn;
      out.result[1] = mx;
      final_pair[0] = mn;
      final_pair[1] = mx;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < kBins; i += blockDim.x)
      out.lut[i] = stretch_value(i, final_pair[0], final_pair[1]);
  } else if (threadIdx.x == 0) {
    out.mins[blockIdx.x] = mn;
    out.maxs[blockIdx.x] = mx;
  }
}

// Dynamic shared memory of rungs v1..v5: a min and a max array of blockDim words.
size_t ladder_smem(int block) { return 2 * size_t(block) * sizeof(uint32_t); }

// v1..v3 load one element a thread into the shared arrays (blocks cover blockDim elements); v4 and v5
// two, combined on the way (blocks cover 2 * blockDim). Both end in __syncthreads.
__device__ __forceinline__ void load_one(const Source& in, uint32_t* smin, uint32_t* smax) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint32_t mn = kEmptyMin, mx = kEmptyMax;
  if (i < in.n) in.load(i, mn, mx);
  smin[threadIdx.x] = mn;
  smax[threadIdx.x] = mx;
  __syncthreads();
}
__device__ __forceinline__ void load_two(const Source& in, uint32_t* smin, uint32_t* smax) {
  const size_t i = size_t(blockIdx.x) * (2 * blockDim.x) + threadIdx.x;
  uint32_t mn = kEmptyMin, mx = kEmptyMax;
  if (i < in.n) in.load(i, mn, mx);
  if (i + blockDim.x < in.n) {
    uint32_t a, b;
    in.load(i + blockDim.x, a, b);
    mn = min(mn, a);
    mx = max(mx, b);
  }
  smin[threadIdx.x] = mn;
  smax[threadIdx.x] = mx;
  __syncthreads();
}

__device__ __forceinline__ void combine(uint32_t* smin, uint32_t* smax, unsigned a, unsigned b) {
  smin[a] = min(smin[a], smin[b]);
  smax[a] = max(smax[a], smax[b]);
}

// v3's sequential addressing: the active threads are the first s, halving until s = down_to.
__device__ __forceinline__ void halve_sequentially(uint32_t* smin, uint32_t* smax, unsigned down_to) {
  for (unsigned s = blockDim.x / 2; s > down_to; s >>= 1) {
    if (threadIdx.x < s) combine(smin, smax, threadIdx.x, threadIdx.x + s);
    __syncthreads();
  }
}

// snippet reduce_divergent
__global__ void reduce_divergent(Source in, Sink out) {
  extern __shared__ uint32_t smem[];
  uint32_t *smin = smem, *smax = smem + blockDim.x;
  const unsigned tid = threadIdx.x;
  load_one(in, smin, smax);
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      combine(smin, smax, tid, tid + s);
    }
    __syncthreads();
  }
  write_out(out, smin[0], smax[0]);
}
// end snippet

// snippet reduce_strided_index
__global__ void reduce_strided_index(Source in, Sink out) {
  extern __shared__ uint32_t smem[];
  uint32_t *smin = smem, *smax = smem + blockDim.x;
  const unsigned tid = threadIdx.x;
  load_one(in, smin, smax);
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) {
      combine(smin, smax, index, index + s);
    }
    __syncthreads();
  }
  write_out(out, smin[0], smax[0]);
}
// end snippet

// snippet reduce_sequential
__global__ void reduce_sequential(Source in, Sink out) {
  extern __shared__ uint32_t smem[];
  uint32_t *smin = smem, *smax = smem + blockDim.x;
  load_one(in, smin, smax);
  halve_sequentially(smin, smax, 0);
  write_out(out, smin[0], smax[0]);
}
// end snippet

// snippet reduce_add_on_load
__global__ void reduce_add_on_load(Source in, Sink out) {
  extern __shared__ uint32_t smem[];
  uint32_t *smin = smem, *smax = smem + blockDim.x;
  load_two(in, smin, smax);
  halve_sequentially(smin, smax, 0);
  write_out(out, smin[0], smax[0]);
}
// end snippet

// snippet reduce_unroll_last_warp
__global__ void reduce_unroll_last_warp(Source in, Sink out) {
  extern __shared__ uint32_t smem[];
  uint32_t *smin = smem, *smax = smem + blockDim.x;
  const unsigned tid = threadIdx.x;
  load_two(in, smin, smax);
  uint32_t mn = kEmptyMin, mx = kEmptyMax;  // thread 0's pair is the block's
  halve_sequentially(smin, smax, 32);
  if (tid < 32) {
    // The lecture's volatile warp-synchronous tail, made safe for independent thread scheduling:
    // every lane reads, then the warp syncs, then writes.
    mn = min(smin[tid], smin[tid + 32]);
    mx = max(smax[tid], smax[tid + 32]);
#pragma unroll
    for (unsigned s = 16; s > 0; s >>= 1) {
      __syncwarp();
      smin[tid] = mn;
      smax[tid] = mx;
      __syncwarp();
      mn = min(mn, smin[tid + s]);
      mx = max(mx, smax[tid + s]);
    }
  }
  write_out(out, mn, mx);  // thread 0's pair is the block's
}
// end snippet

__device__ __forceinline__ uint32_t byte_min4(uint32_t w) {
  w = __vminu4(w, w >> 16);
  w = __vminu4(w, w >> 8);
  return w & 0xFFu;
}
__device__ __forceinline__ uint32_t byte_max4(uint32_t w) {
  w = __vmaxu4(w, w >> 16);
  w = __vmaxu4(w, w >> 8);
  return w & 0xFFu;
}

// snippet reduce_warp_shuffle
__global__ void reduce_warp_shuffle(Source in, Sink out) {
  __shared__ uint32_t warp_min[32], warp_max[32];
  uint32_t mn = kEmptyMin, mx = kEmptyMax;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (in.bytes) {
    const size_t vectors = in.n / 16;
    const uint4* v = reinterpret_cast<const uint4*>(in.bytes);
    uint32_t wmin = 0xFFFFFFFFu, wmax = 0u;  // four bytes' minima and maxima side by side
    for (size_t i = first; i < vectors; i += stride) {
      const uint4 a = __ldg(v + i);
      wmin = __vminu4(wmin, __vminu4(__vminu4(a.x, a.y), __vminu4(a.z, a.w)));
      wmax = __vmaxu4(wmax, __vmaxu4(__vmaxu4(a.x, a.y), __vmaxu4(a.z, a.w)));
    }
    if (first < vectors) {
      mn = byte_min4(wmin);
      mx = byte_max4(wmax);
    }
    if (first < in.n % 16) {
      const uint32_t p = in.bytes[vectors * 16 + first];
      mn = min(mn, p);
      mx = max(mx, p);
    }
  } else {
    for (size_t i = first; i < in.n; i += stride) {
      mn = min(mn, in.mins[i]);
      mx = max(mx, in.maxs[i]);
    }
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    mn = min(mn, __shfl_down_sync(0xFFFFFFFFu, mn, o));
    mx = max(mx, __shfl_down_sync(0xFFFFFFFFu, mx, o));
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  if (lane == 0) {
    warp_min[warp] = mn;
    warp_max[warp] = mx;
  }
  __syncthreads();
  if (warp == 0) {
    mn = lane < warps ? warp_min[lane] : kEmptyMin;
    mx = lane < warps ? warp_max[lane] : kEmptyMax;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      mn = min(mn, __shfl_down_sync(0xFFFFFFFFu, mn, o));
      mx = max(mx, __shfl_down_sync(0xFFFFFFFFu, mx, o));
    }
  }
  write_out(out, mn, mx);
}
// end snippet

using Kernel = void (*)(Source, Sink);

Kernel kernel_of(ReduceKind k) {
  switch (k) {
    case ReduceKind::Divergent:
      return reduce_divergent;
    case ReduceKind::StridedIndex:
      return reduce_strided_index;
    case ReduceKind::Sequential:
      return reduce_sequential;
    case ReduceKind::AddOnLoad:
      return reduce_add_on_load;
    case ReduceKind::UnrollLastWarp:
      return reduce_unroll_last_warp;
    case ReduceKind::WarpShuffle:
    case ReduceKind::ThrustReduce:  // not launched here (thrust_minmax)
    case ReduceKind::ThrustTransformReduce:
      return reduce_warp_shuffle;
  }
  return reduce_sequential;
}

const char* name_of(ReduceKind k) {
  switch (k) {
    case ReduceKind::Divergent:
      return "reduce_divergent";
    case ReduceKind::StridedIndex:
      return "reduce_strided_index";
    case ReduceKind::Sequential:
      return "reduce_sequential";
    case ReduceKind::AddOnLoad:
      return "reduce_add_on_load";
    case ReduceKind::UnrollLastWarp:
      return "reduce_unroll_last_warp";
    case ReduceKind::WarpShuffle:
      return "reduce_warp_shuffle";
    case ReduceKind::ThrustReduce:
    case ReduceKind::ThrustTransformReduce:
      return "";
  }
  return "";
}

size_t smem_of(ReduceKind k, int block) { return k == ReduceKind::WarpShuffle ? 0 : ladder_smem(block); }

// Elements one block of a pass consumes (the grid-stride shuffle kernel: as many as it likes).
size_t per_block(ReduceKind k, int block) {
  return (k == ReduceKind::AddOnLoad || k == ReduceKind::UnrollLastWarp) ? 2 * size_t(block) : size_t(block);
}

}  // namespace

size_t reduce_partials(size_t n) {
  return size_t(ceil_div(static_cast<long long>(std::max<size_t>(n, 1)), 64));
}

void launch_reduce(ReduceKind k, int block, const uint8_t* d_plane, size_t n, const ReduceScratch& s,
                   uint32_t* d_minmax, uint8_t* d_lut, const GpuShape& gpu, cudaStream_t stream) {
  if (n == 0) throw std::invalid_argument("reduce: an empty plane has no minimum");
  if (k == ReduceKind::ThrustReduce || k == ReduceKind::ThrustTransformReduce) {
    if (!s.thrust) throw std::logic_error("reduce: no arena for Thrust");
    thrust_minmax(k == ReduceKind::ThrustTransformReduce, d_plane, n, d_minmax, d_lut, *s.thrust, stream);
    return;
  }
  if (k == ReduceKind::UnrollLastWarp && block < 64)
    throw std::invalid_argument("reduce-unroll-last-warp needs at least 64 threads a block");
  const Kernel kernel = kernel_of(k);
  const size_t smem = smem_of(k, block);
  Source in;
  in.bytes = d_plane;
  in.n = n;
  uint32_t* bufs[2] = {s.a, s.b};
  size_t caps[2] = {s.a_count, s.b_count};
  int next = 0;
  for (;;) {
    size_t blocks;
    if (k == ReduceKind::WarpShuffle) {
      const size_t work = in.bytes ? std::max<size_t>(n / 16, 1) : in.n;
      blocks = std::min<size_t>(
          ceil_div(static_cast<long long>(work), block),
          size_t(resident_blocks(reinterpret_cast<const void*>(kernel), block, 0)) * gpu.sm_count);
    } else {
      blocks = ceil_div(static_cast<long long>(in.n), static_cast<long long>(per_block(k, block)));
    }
    blocks = std::max<size_t>(blocks, 1);
    Sink out;
    if (blocks == 1) {
      out.result = d_minmax;
      out.lut = d_lut;
    } else {
      if (blocks > caps[next]) throw std::logic_error("reduce: partial buffer too small");
      out.mins = bufs[next];
      out.maxs = bufs[next] + caps[next];
    }
    kernel<<<static_cast<unsigned>(blocks), block, smem, stream>>>(in, out);
    CUDA_CHECK_LAUNCH("reduce");
    if (blocks == 1) return;
    in = Source{};
    in.mins = out.mins;
    in.maxs = out.maxs;
    in.n = blocks;
    next ^= 1;
  }
}

std::vector<KernelInfo> reduce_kernels(ReduceKind k, int block) {
  if (k == ReduceKind::ThrustReduce || k == ReduceKind::ThrustTransformReduce) return {};  // the library's
  KernelInfo info{name_of(k), reinterpret_cast<const void*>(kernel_of(k)), block, smem_of(k, block), nullptr};
  if (k != ReduceKind::WarpShuffle) info.dynamic_smem_for = ladder_smem;
  return {info};
}

}  // namespace gpulab::histeq::cuda_detail

// What every GPU variant shares: the kick-drift-kick integrator (two kernels a step around the
// variant's force kernel), the mirrors of the state in the layouts the variants read, the
// diagnostics and the display vertices.
//
// The integrator writes the canonical state (pos, vel as float4) and the mirrors (x/y/z SoA for
// gpu-global-soa and gpu-shared-tile, the {pos, vel, mass} records for gpu-naive-aos) in the same
// pass: O(N) bytes against the force kernels' O(N²) work, and every variant can take the next step.
// Its arithmetic is the CPU reference's, rounded the same way (no fused multiply-adds): v += a·dt/2
// and r += v·dt give the same bits on both when the accelerations agree.
#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "nbody/nbody_cuda_internal.cuh"

namespace gpulab::nbody::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

__device__ __forceinline__ float mul_add_rn(float base, float a, float b) {
  return __fadd_rn(base, __fmul_rn(a, b));
}

// snippet nbody_integrate
// First half of a step: v += a·dt/2 with the stored a, then r += v·dt.
__global__ void kick_drift(int n, float4* __restrict__ pos, float4* __restrict__ vel,
                           const float4* __restrict__ acc, float half_dt, float dt, float* __restrict__ x,
                           float* __restrict__ y, float* __restrict__ z, BodyAos* __restrict__ aos) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 a = acc[i];
  float4 v = vel[i], p = pos[i];
  v.x = mul_add_rn(v.x, a.x, half_dt);
  v.y = mul_add_rn(v.y, a.y, half_dt);
  v.z = mul_add_rn(v.z, a.z, half_dt);
  p.x = mul_add_rn(p.x, v.x, dt);
  p.y = mul_add_rn(p.y, v.y, dt);
  p.z = mul_add_rn(p.z, v.z, dt);
  pos[i] = p;
  vel[i] = v;
  x[i] = p.x;
  y[i] = p.y;
  z[i] = p.z;
  aos[i].pos = make_float3(p.x, p.y, p.z);
  aos[i].vel = make_float3(v.x, v.y, v.z);
}

// Second half: a = the force kernel's result (its slices summed in order into acc when it left
// several), then, with kKick, v += a·dt/2.
template <bool kKick>
__global__ void kick(int n, const float4* __restrict__ force, int slices, float4* __restrict__ acc,
                     float4* __restrict__ vel, BodyAos* __restrict__ aos, float half_dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 a = force[i];
  if (slices > 1) {
    for (int s = 1; s < slices; ++s) {
      const float4 b = force[static_cast<size_t>(s) * static_cast<size_t>(n) + static_cast<size_t>(i)];
      a.x += b.x;
      a.y += b.y;
      a.z += b.z;
    }
    acc[i] = a;
  }
  if constexpr (kKick) {
    float4 v = vel[i];
    v.x = mul_add_rn(v.x, a.x, half_dt);
    v.y = mul_add_rn(v.y, a.y, half_dt);
    v.z = mul_add_rn(v.z, a.z, half_dt);
    vel[i] = v;
    aos[i].vel = make_float3(v.x, v.y, v.z);
  }
}
// end snippet

__global__ void fill_mirrors(int n, const float4* __restrict__ pos, const float4* __restrict__ vel,
                             float* __restrict__ x, float* __restrict__ y, float* __restrict__ z,
                             float* __restrict__ m, BodyAos* __restrict__ aos) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i], v = vel[i];
  x[i] = p.x;
  y[i] = p.y;
  z[i] = p.z;
  m[i] = p.w;
  aos[i] = BodyAos{make_float3(p.x, p.y, p.z), make_float3(v.x, v.y, v.z), p.w};
}

__device__ __forceinline__ double warp_sum(double v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  return v;
}

// One block of kDiagBlock bodies: φ_i = Σ_{j>i} m_j / sqrt(r_ij² + ε²) summed in float per body,
// then the block's sums of m_i φ_i and of the O(N) quantities in double, into blocks[12·block].
__global__ void __launch_bounds__(kDiagBlock)
    diagnostics_blocks(const float4* __restrict__ pos, const float4* __restrict__ vel, int n, float eps2,
                       double* __restrict__ blocks) {
  __shared__ float4 tile[kDiagBlock];
  __shared__ double warp_sums[kDiagBlock / 32][kDiagSums];
  const int first = blockIdx.x * kDiagBlock;
  const int i = first + threadIdx.x;
  const float4 pi = pos[min(i, n - 1)];
  float phi = 0.0f;
  for (int start = first; start < n; start += kDiagBlock) {
    const int j = start + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    if (start > first && start + kDiagBlock <= n) {  // a whole tile of j > i
#pragma unroll 4
      for (int k = 0; k < kDiagBlock; ++k) {
        const float4 pj = tile[k];
        const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
        phi += pj.w * rsqrtf(fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, eps2))));
      }
    } else {  // the block's own tile (j > i only) or the last, partial one
      for (int k = 0; k < kDiagBlock; ++k) {
        const int jj = start + k;
        if (jj <= i || jj >= n) continue;
        const float4 pj = tile[k];
        const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
        phi += pj.w * rsqrtf(fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, eps2))));
      }
    }
    __syncthreads();
  }

  double s[kDiagSums] = {};
  if (i < n) {
    const float4 v = vel[i];
    const double m = pi.w, x = pi.x, y = pi.y, z = pi.z, vx = v.x, vy = v.y, vz = v.z;
    s[kPairPotential] = m * static_cast<double>(phi);
    s[kKinetic] = 0.5 * m * (vx * vx + vy * vy + vz * vz);
    s[kPx] = m * vx;
    s[kPy] = m * vy;
    s[kPz] = m * vz;
    s[kLx] = m * (y * vz - z * vy);
    s[kLy] = m * (z * vx - x * vz);
    s[kLz] = m * (x * vy - y * vx);
    s[kMx] = m * x;
    s[kMy] = m * y;
    s[kMz] = m * z;
    s[kMass] = m;
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int k = 0; k < kDiagSums; ++k) {
    const double w = warp_sum(s[k]);
    if (lane == 0) warp_sums[warp][k] = w;
  }
  __syncthreads();
  if (threadIdx.x < kDiagSums) {
    double total = 0.0;
    for (int w = 0; w < kDiagBlock / 32; ++w) total += warp_sums[w][threadIdx.x];
    blocks[static_cast<size_t>(blockIdx.x) * kDiagSums + threadIdx.x] = total;
  }
}

// One block: each of the 12 sums over all blocks' partial sums, in a fixed order.
__global__ void __launch_bounds__(kDiagBlock)
    diagnostics_finish(const double* __restrict__ blocks, int block_count, double* __restrict__ out) {
  __shared__ double partial[kDiagBlock];
  for (int k = 0; k < kDiagSums; ++k) {
    double sum = 0.0;
    for (int b = threadIdx.x; b < block_count; b += kDiagBlock)
      sum += blocks[static_cast<size_t>(b) * kDiagSums + k];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = kDiagBlock / 2; stride > 0; stride >>= 1) {
      if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
      __syncthreads();
    }
    if (threadIdx.x == 0) out[k] = partial[0];
    __syncthreads();
  }
}

__global__ void vertices(int n, const float4* __restrict__ pos, const float4* __restrict__ vel,
                         Vertex* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i], v = vel[i];
  // As the CPU engine computes it: float products and sums, rounded one by one, IEEE sqrt.
  const float v2 = __fadd_rn(__fadd_rn(__fmul_rn(v.x, v.x), __fmul_rn(v.y, v.y)), __fmul_rn(v.z, v.z));
  out[i] = Vertex{p.x, p.y, p.z, p.w, sqrtf(v2)};
}

unsigned grid_for(int n) { return static_cast<unsigned>(ceil_div(n, kIntegrateBlock)); }

}  // namespace

void launch_kick_drift(const State& st, float half_dt, float dt, cudaStream_t stream) {
  kick_drift<<<grid_for(st.n), kIntegrateBlock, 0, stream>>>(st.n, st.pos, st.vel, st.acc, half_dt, dt, st.x,
                                                             st.y, st.z, st.aos);
  CUDA_CHECK_LAUNCH("kick_drift");
}

void launch_kick(const State& st, const ForceLaunch& forces, float half_dt, bool do_kick,
                 cudaStream_t stream) {
  if (do_kick)
    kick<true><<<grid_for(st.n), kIntegrateBlock, 0, stream>>>(st.n, forces.out, forces.slices, st.acc,
                                                               st.vel, st.aos, half_dt);
  else if (forces.slices > 1)
    kick<false><<<grid_for(st.n), kIntegrateBlock, 0, stream>>>(st.n, forces.out, forces.slices, st.acc,
                                                                st.vel, st.aos, half_dt);
  else
    return;  // the forces are in acc already
  CUDA_CHECK_LAUNCH("kick");
}

std::vector<KernelInfo> integrate_kernel_infos() {
  KernelInfo kd;
  kd.name = "kick_drift";
  kd.func = reinterpret_cast<const void*>(&kick_drift);
  kd.block_threads = kIntegrateBlock;
  KernelInfo k;
  k.name = "kick";
  k.func = reinterpret_cast<const void*>(&kick<true>);
  k.block_threads = kIntegrateBlock;
  return {kd, k};
}

void launch_fill_mirrors(const State& st, cudaStream_t stream) {
  fill_mirrors<<<grid_for(st.n), kIntegrateBlock, 0, stream>>>(st.n, st.pos, st.vel, st.x, st.y, st.z, st.m,
                                                               st.aos);
  CUDA_CHECK_LAUNCH("fill_mirrors");
}

void launch_diagnostics(const State& st, float eps2, double* d_blocks, double* d_out, cudaStream_t stream) {
  const int blocks = static_cast<int>(diagnostic_blocks(static_cast<size_t>(st.n)));
  diagnostics_blocks<<<blocks, kDiagBlock, 0, stream>>>(st.pos, st.vel, st.n, eps2, d_blocks);
  CUDA_CHECK_LAUNCH("diagnostics_blocks");
  diagnostics_finish<<<1, kDiagBlock, 0, stream>>>(d_blocks, blocks, d_out);
  CUDA_CHECK_LAUNCH("diagnostics_finish");
}

void launch_vertices(const State& st, Vertex* d_vertices, cudaStream_t stream) {
  vertices<<<grid_for(st.n), kIntegrateBlock, 0, stream>>>(st.n, st.pos, st.vel, d_vertices);
  CUDA_CHECK_LAUNCH("vertices");
}

}  // namespace gpulab::nbody::cuda_detail

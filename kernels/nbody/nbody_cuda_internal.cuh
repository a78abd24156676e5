#pragma once
// Between the CUDA engine (nbody_cuda.cu) and the kernel files: the device layouts, the one
// interaction every force kernel evaluates, and one host launch function per kernel family. Every
// launch goes on the given stream and is checked with CUDA_CHECK_LAUNCH; none synchronises.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/kernel_info.h"
#include "nbody/nbody.h"

namespace gpulab::nbody::cuda_detail {

// gpu-naive-aos's layout: one record a body, as a CPU programmer would write it. 28 bytes, so
// neighbouring bodies sit 7 words apart and no vector load can fetch a record.
struct BodyAos {
  float3 pos;
  float3 vel;
  float mass;
};
static_assert(sizeof(BodyAos) == 28);

// The device state of n bodies. pos (x, y, z, m) and vel (vx, vy, vz, 0) are the canonical state;
// acc (ax, ay, az, 0) holds a(pos) between steps. x/y/z/m (SoA) and aos are mirrors of pos (and vel)
// that the integrate kernels keep current, so that any variant can run the next force evaluation and
// switching variants costs nothing.
struct State {
  int n = 0;
  float4* pos = nullptr;
  float4* vel = nullptr;
  float4* acc = nullptr;
  float *x = nullptr, *y = nullptr, *z = nullptr, *m = nullptr;
  BodyAos* aos = nullptr;
  int* pair_sync = nullptr;  // gpu-pair-tiles' row ticket and column counters (pair_tile_sync_count)
};

// What a force evaluation needs besides the state.
struct ForceParams {
  float G = 1.0f;
  float eps2 = 0.0f;   // ε², rounded to float
  bool guard = false;  // ε too small for the unguarded formula: zero the d = 0 terms explicitly
};

// The softened term is finite at d = 0 (so d·s = 0 exactly, the j = i term vanishes) as long as
// m·ε⁻³ stays well inside float. Below that (ε = 0 in particular) the kernels' guarded instantiation
// zeroes terms with d = 0 explicitly; it costs an extra add and a select per interaction.
inline bool needs_guard(float eps2, float max_mass) {
  if (!(eps2 > 0.0f)) return true;
  const double e2 = eps2;
  return static_cast<double>(max_mass) / (e2 * std::sqrt(e2)) > 1e36;
}

// rsqrt.approx.ftz.f32: MUFU.RSQ alone. rsqrtf() under the default -ftz=false wraps it in a
// denormal test and two rescaling multiplies; here r² >= ε² is normal or the term is zeroed anyway.
__device__ __forceinline__ float rsqrt_ftz(float x) {
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

// Body i of the float4 positions, or a massless body at the origin past the end (padding of the
// pair kernels' tiles: it pulls nothing, and what it feels is dropped).
__device__ __forceinline__ float4 body_or_zero(const float4* __restrict__ pos, long long i, int n) {
  return i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

// 1/r = rsqrt(|d|² + ε²), r² summed by fma from ε² up; the guarded form (ε = 0 or tiny) gives 0
// for d = 0 instead.
template <bool kGuard>
__device__ __forceinline__ float inv_distance(float dx, float dy, float dz, float eps2) {
  if constexpr (kGuard) {
    const float d2 = fmaf(dz, dz, fmaf(dy, dy, dx * dx));
    return d2 > 0.0f ? rsqrt_ftz(d2 + eps2) : 0.0f;
  } else {
    return rsqrt_ftz(fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, eps2))));
  }
}

// The interaction of body i with body j in its fastest form (12 FP32 instructions and one MUFU):
//   r² = fma(dz, dz, fma(dy, dy, fma(dx, dx, ε²))),  s = m_j · (1/r)³,  a += d · s.
template <bool kGuard>
__device__ __forceinline__ void interact_fast(float xi, float yi, float zi, float4 pj, float eps2, float& ax,
                                              float& ay, float& az) {
  const float dx = pj.x - xi, dy = pj.y - yi, dz = pj.z - zi;
  const float inv = inv_distance<kGuard>(dx, dy, dz, eps2);
  const float s = (pj.w * inv) * (inv * inv);
  ax = fmaf(dx, s, ax);
  ay = fmaf(dy, s, ay);
  az = fmaf(dz, s, az);
}

// One pair for both bodies (Newton's third law; 16 FP32 instructions and one MUFU): one r², rsqrt
// and (1/r)³ give a_i += m_j·d·inv³ and a_j −= m_i·d·inv³.
template <bool kGuard>
__device__ __forceinline__ void interact_pair(float xi, float yi, float zi, float mi, float4 pj, float eps2,
                                              float& ax, float& ay, float& az, float& jx, float& jy,
                                              float& jz) {
  const float dx = pj.x - xi, dy = pj.y - yi, dz = pj.z - zi;
  const float inv = inv_distance<kGuard>(dx, dy, dz, eps2);
  const float inv3 = inv * (inv * inv);
  const float si = pj.w * inv3, sj = mi * inv3;
  ax = fmaf(dx, si, ax);
  ay = fmaf(dy, si, ay);
  az = fmaf(dz, si, az);
  jx = fmaf(-dx, sj, jx);
  jy = fmaf(-dy, sj, jy);
  jz = fmaf(-dz, sj, jz);
}

// --- nbody_forces_basic.cu / nbody_forces_tiled.cu ---------------------------------------------
// ForceKernel (nbody.h): the variant table's selector.

// Where a force evaluation puts its result: `slices` partial sums, slice s of body i at
// out[s * n + i] (each already times G). With slices == 1, out is the state's acc.
struct ForceLaunch {
  float4* out = nullptr;
  int slices = 1;
};

// Bodies a thread of gpu-tile-register holds in registers at a block size (0: the default).
int register_bodies_per_thread(int block);

// The GPU's shape, for the variants that size their grids from it.
struct GpuShape {
  int sm_count = 1;
};

// nbody_forces_basic.cu: gpu-naive-aos, gpu-global-soa, gpu-shared-tile (they write st.acc).
void launch_basic_forces(ForceKernel kernel, const State& st, const ForceParams& fp, int block,
                         cudaStream_t stream);
KernelInfo basic_force_info(ForceKernel kernel, int block, bool guard);

// nbody_forces_pairs.cu: gpu-warp-pairs (zeroes st.acc, then adds into it; blocks of <= 256 threads).
void launch_pair_forces(const State& st, const ForceParams& fp, int block, const GpuShape& gpu,
                        cudaStream_t stream);
KernelInfo pair_force_info(int block, bool guard);

// nbody_forces_pair_tiles.cu: gpu-pair-tiles (sums in a fixed order, no atomics on the forces; blocks
// of whole warps, <= 256 threads). It needs st.pair_sync: pair_tile_sync_count(n) ints. At small N it
// leaves partial sums in `partials` (room for max_slices × n float4), else writes st.acc.
size_t pair_tile_sync_count(size_t n);
ForceLaunch launch_pair_tile_forces(const State& st, const ForceParams& fp, int block, const GpuShape& gpu,
                                    float4* partials, int max_slices, cudaStream_t stream);
KernelInfo pair_tile_force_info(int block, bool guard);

// Launches the force kernel of `kernel` at `block` threads. `partials` (room for max_slices × n
// float4) is used by gpu-tile-register when it splits the j-range over several blocks.
ForceLaunch launch_forces(ForceKernel kernel, const State& st, const ForceParams& fp, int block,
                          const GpuShape& gpu, float4* partials, int max_slices, cudaStream_t stream);
// The force kernel(s) of `kernel` at `block`, guarded or not.
std::vector<KernelInfo> force_kernel_infos(ForceKernel kernel, int block, bool guard);

// Bench-only tuning of gpu-tile-register (0 = chosen automatically).
struct RegisterTuning {
  int bodies_per_thread = 0;  // 4 or 8
  int slices = 0;             // j-range slices (clamped to what the partials buffer holds)
};
RegisterTuning& register_tuning();

// --- nbody_integrate.cu ---------------------------------------------------------------------------
inline constexpr int kIntegrateBlock = 256;
// v += a·dt/2; r += v·dt (all layouts written).
void launch_kick_drift(const State& st, float half_dt, float dt, cudaStream_t stream);
// Combines the force evaluation's slices into acc (when more than one), then, with `kick`,
// v += a·dt/2 (all layouts written).
void launch_kick(const State& st, const ForceLaunch& forces, float half_dt, bool kick, cudaStream_t stream);
std::vector<KernelInfo> integrate_kernel_infos();
// After an upload of pos and vel: the mirrors (SoA, AoS) from them.
void launch_fill_mirrors(const State& st, cudaStream_t stream);

// Diagnostics: the 12 sums below, in double, into d_out[12]; d_blocks holds diagnostic_blocks(n)
// × 12 doubles of per-block partial sums. Deterministic (fixed reduction order).
enum DiagSum { kPairPotential, kKinetic, kPx, kPy, kPz, kLx, kLy, kLz, kMx, kMy, kMz, kMass, kDiagSums };
inline constexpr int kDiagBlock = 256;
inline size_t diagnostic_blocks(size_t n) { return (n + kDiagBlock - 1) / kDiagBlock; }
void launch_diagnostics(const State& st, float eps2, double* d_blocks, double* d_out, cudaStream_t stream);

void launch_vertices(const State& st, Vertex* d_vertices, cudaStream_t stream);

}  // namespace gpulab::nbody::cuda_detail

// The Hopper rungs (gemm_wgmma): gemm-tensor-wgmma-tf32 and -bf16. Built for sm_90a only (wgmma and
// setmaxnreg exist in no other target), in this translation unit of its own, when the CUDA
// architecture list contains 90 (kernels/CMakeLists.txt); elsewhere the variants are unavailable with
// the reason (wgmma_refusal in matrix_cuda.cu).
//
// Operands as for the mma.sync rungs: A (M x K) and Bt (N x K), both K-contiguous, rows padded by the
// engine so that a row's pitch is a multiple of 16 bytes (the tensor copy's rule for global strides).
// One block computes a BM x BN tile of C with 1 + CONSUMERS warpgroups:
//   warpgroup 0, the producer: one thread issues the tensor copies (TMA, cp.async.bulk.tensor) of the
//     A and B tiles of each K step into a ring of STAGES shared-memory stages, 128 bytes of K a row
//     (64 bf16 or 32 float), stored with the copy engine's 128-byte swizzle; boxes that reach past M,
//     N or K are zero-filled by the copy engine, so odd shapes need no special path;
//   warpgroups 1..CONSUMERS: each owns BM / CONSUMERS rows of the tile and multiplies them with
//     wgmma.mma_async (64 x BN x 16 bf16 or 64 x BN x 8 tf32 a instruction, both operands read by the
//     tensor cores straight from shared memory through descriptors, the accumulators in registers).
// The ring is two mbarriers a stage: `full` (the producer's expected bytes; the copy engine completes
// it) and `empty` (one arrival per consumer warp once its wgmma reading the stage are done). The
// producer gives most of its registers to the consumers (setmaxnreg). The epilogue stores the
// accumulators straight to C with bounds checks.
#include <cuda.h>  // CUtensorMap and its enums only: the encoder comes from the runtime (no -lcuda)
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "matrix/matrix_cuda_internal.cuh"

namespace gpulab::matrix::detail {
namespace {

constexpr int kRowBytes = 128;  // a stage's row: 128 bytes of K, the width of the 128-byte swizzle

// A block tile: BM x BN of C, STAGES stages, CONSUMERS consumer warpgroups, MIN_BLOCKS blocks an SM;
// CLUSTER 2: blocks in pairs (a thread-block cluster) on vertically adjacent tiles, which share the B
// tile: each copies half of it and the copy engine writes it into both blocks (multicast), so each
// block reads a quarter less from L2.
template <int BM_, int BN_, int STAGES_, int CONSUMERS_, int MIN_BLOCKS_, int CLUSTER_ = 1>
struct WgTile {
  static constexpr int BM = BM_, BN = BN_, STAGES = STAGES_, CONSUMERS = CONSUMERS_;
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_, CLUSTER = CLUSTER_;
  static constexpr int kBRows = BN / CLUSTER;  // rows of B a block copies
  static constexpr int WM = BM / CONSUMERS;    // rows of a consumer
  static constexpr int MT = WM / 64;           // its wgmma row tiles
  static constexpr int kThreads = 128 * (CONSUMERS + 1);
  static constexpr uint32_t kABytes = uint32_t(BM) * kRowBytes, kStageBytes = uint32_t(BM + BN) * kRowBytes;
  static constexpr size_t kSmem = size_t(kStageBytes) * STAGES + 1024;  // + alignment to 1024 bytes
  // Registers a thread after setmaxnreg: the producer keeps few, the consumers take the rest of what
  // the launch cap (65536 / (threads · blocks an SM), rounded down to 8) gave the block.
  static constexpr int kCap = (65536 / (kThreads * MIN_BLOCKS)) / 8 * 8;
  static constexpr int kProducerRegs = MIN_BLOCKS == 1 ? 40 : 24;
  static constexpr int kConsumerRegs = ((kCap * kThreads - kProducerRegs * 128) / (128 * CONSUMERS)) / 8 * 8 >
                                               240
                                           ? 240
                                           : ((kCap * kThreads - kProducerRegs * 128) / (128 * CONSUMERS)) /
                                                 8 * 8;
  static_assert(BM % (64 * CONSUMERS) == 0 && (BN == 128 || BN == 256) && BM <= 256);
  static_assert(CLUSTER == 1 || CLUSTER == 2);
  static_assert(kSmem <= 227 * 1024);
};
// The configurations one build carries (GPULAB_WGMMA_TILE=0..4 picks one at run time; 0 by default).
using WgTile0 = WgTile<128, 256, 4, 2, 1>;     // 2 consumers of 64 x 256
using WgTile1 = WgTile<128, 256, 3, 2, 1>;     // as 0 with three stages
using WgTile2 = WgTile<256, 128, 4, 2, 1>;     // 2 consumers of 128 x 128 (two row tiles each)
using WgTile3 = WgTile<128, 128, 6, 2, 1>;     // 2 consumers of 64 x 128, six stages
using WgTile4 = WgTile<128, 256, 4, 2, 1, 2>;  // as 0, in clusters of 2 sharing B (multicast)

// ---------------------------------------------------------------------------------------------
// PTX wrappers: mbarrier, the tensor copy, wgmma and its descriptors, setmaxnreg.
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// Waits until the phase of parity `parity` of the barrier has completed.
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}
// The box of `map` at (x: K, y: rows) into shared memory at dst, completing bytes on barrier bar.
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap* map, int x, int y, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
      "%3}], "
      "[%4];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
      : "memory");
}
// A shared-memory matrix descriptor for a K-major tile stored with the 128-byte swizzle: rows of 128
// bytes, groups of 8 rows (1024 bytes, the swizzle's period) one after another. Start address and
// strides in 16-byte units; the leading offset is unused by this layout (1 by convention); layout 1 is
// the 128-byte swizzle. The tile's base must be 1024-byte aligned; a K step within the 128 bytes adds
// its byte offset / 16 to the start address (the swizzle is applied to the address the unit forms).
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr) {
  return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) |
         (uint64_t(1) << 62);
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// Thread-block clusters: this block's rank, a shared address in block `rank`, an arrival on a barrier of
// another block, the whole cluster's barrier (not .aligned: the producer warp's lanes come to it from
// different branches), and the tensor copy into every block of `mask`.
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t map_shared(uint32_t addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t remote_bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(remote_bar) : "memory");
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}
__device__ __forceinline__ void tma_load_multicast(uint32_t dst, const CUtensorMap* map, int x, int y,
                                                   uint32_t bar, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
      "[%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar), "h"(mask)
      : "memory");
}
template <int R>
__device__ __forceinline__ void regs_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
}
template <int R>
__device__ __forceinline__ void regs_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
}

// One warpgroup MMA, d += A · B (A, B K-major in shared memory, addressed by their descriptors da, db;
// the scale-d predicate always on). The accumulator's registers are listed once here for both widths:
// N = 256 uses 128 floats a thread, N = 128 uses 64.
#define GPULAB_D8(i)                                                                          \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
      "+f"(d[i + 6]), "+f"(d[i + 7])
#define GPULAB_D64                                                                                       \
  GPULAB_D8(0), GPULAB_D8(8), GPULAB_D8(16), GPULAB_D8(24), GPULAB_D8(32), GPULAB_D8(40), GPULAB_D8(48), \
      GPULAB_D8(56)
#define GPULAB_D128                                                                                      \
  GPULAB_D64, GPULAB_D8(64), GPULAB_D8(72), GPULAB_D8(80), GPULAB_D8(88), GPULAB_D8(96), GPULAB_D8(104), \
      GPULAB_D8(112), GPULAB_D8(120)
#define GPULAB_R64                                                                   \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "           \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define GPULAB_R128                                                                              \
  GPULAB_R64                                                                                     \
  ", "                                                                                           \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "             \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "             \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
// SHAPE: "m64n256k16.f32.bf16.bf16"; REGS / OPERANDS: the accumulator's; AB, PRED: the descriptors' and
// the predicate's operand numbers; TAIL: the immediates after the scales (bf16's transposes, none for tf32).
#define GPULAB_WGMMA(SHAPE, REGS, OPERANDS, AB, PRED, TAIL)                                       \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " PRED                                           \
               ", 0;\n"                                                                           \
               "wgmma.mma_async.sync.aligned." SHAPE " {" REGS "}, " AB ", p, 1, 1" TAIL ";\n}\n" \
               : OPERANDS                                                                         \
               : "l"(da), "l"(db), "r"(1))

// d (64 x 256) += A (64 x 16) · B (16 x 256), BF16.
__device__ __forceinline__ void wgmma_bf16_n256(float (&d)[128], uint64_t da, uint64_t db) {
  GPULAB_WGMMA("m64n256k16.f32.bf16.bf16", GPULAB_R128, GPULAB_D128, "%128, %129", "%130", ", 0, 0");
}
// d (64 x 128) += A (64 x 16) · B (16 x 128), BF16.
__device__ __forceinline__ void wgmma_bf16_n128(float (&d)[64], uint64_t da, uint64_t db) {
  GPULAB_WGMMA("m64n128k16.f32.bf16.bf16", GPULAB_R64, GPULAB_D64, "%64, %65", "%66", ", 0, 0");
}
// d (64 x 256) += A (64 x 8) · B (8 x 256), TF32.
__device__ __forceinline__ void wgmma_tf32_n256(float (&d)[128], uint64_t da, uint64_t db) {
  GPULAB_WGMMA("m64n256k8.f32.tf32.tf32", GPULAB_R128, GPULAB_D128, "%128, %129", "%130", "");
}
// d (64 x 128) += A (64 x 8) · B (8 x 128), TF32.
__device__ __forceinline__ void wgmma_tf32_n128(float (&d)[64], uint64_t da, uint64_t db) {
  GPULAB_WGMMA("m64n128k8.f32.tf32.tf32", GPULAB_R64, GPULAB_D64, "%64, %65", "%66", "");
}
#undef GPULAB_WGMMA
#undef GPULAB_R128
#undef GPULAB_R64
#undef GPULAB_D128
#undef GPULAB_D64
#undef GPULAB_D8

template <class T, int N>
__device__ __forceinline__ void wgmma(float (&d)[N / 2], uint64_t da, uint64_t db) {
  if constexpr (sizeof(T) == 2 && N == 256)
    wgmma_bf16_n256(d, da, db);
  else if constexpr (sizeof(T) == 2)
    wgmma_bf16_n128(d, da, db);
  else if constexpr (N == 256)
    wgmma_tf32_n256(d, da, db);
  else
    wgmma_tf32_n128(d, da, db);
}

// snippet gemm_wgmma
// C (M x N) = A (M x K) · Btᵀ; map_a / map_b: A and Bt as 2-D tensors (K innermost), boxes of
// 128 bytes of K by BM / BN rows, 128-byte swizzle.
template <class T, class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::MIN_BLOCKS)
    gemm_wgmma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
               float* __restrict__ c, int m, int n, int k) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, S = Cfg::STAGES, MT = Cfg::MT;
  constexpr int BK = kRowBytes / int(sizeof(T));  // K a stage: 64 bf16 or 32 float
  constexpr int KSTEP = sizeof(T) == 2 ? 16 : 8;  // K an instruction: 32 bytes either way
  extern __shared__ unsigned char smem_raw[];
  __shared__ __align__(8) uint64_t full[S], empty[S];
  const uint32_t base = (static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw)) + 1023u) & ~1023u;
  const uint32_t full0 = static_cast<uint32_t>(__cvta_generic_to_shared(full));
  const uint32_t empty0 = static_cast<uint32_t>(__cvta_generic_to_shared(empty));
  const int wg = int(threadIdx.x) / 128, tid = int(threadIdx.x) % 128;

  // Which tile of C: groups of 8 block rows walk the columns together (their A and B panels stay in L2).
  // In clusters of 2, a pair of vertically adjacent tiles (the second may lie past M: it then copies its
  // half of B for its partner, multiplies zeros and stores nothing).
  constexpr int CL = Cfg::CLUSTER;
  const uint32_t rank = CL > 1 ? cluster_rank() : 0u;
  const int tiles_m = (m + BM * CL - 1) / (BM * CL), tiles_n = (n + BN - 1) / BN, group = 8 * tiles_n;
  const int unit = int(blockIdx.x) / CL;
  const int first = unit / group * 8, rows_in = min(tiles_m - first, 8);
  const int bm = ((first + unit % group % rows_in) * CL + int(rank)) * BM;
  const int bn = (unit % group / rows_in) * BN;
  const int ktiles = (k + BK - 1) / BK;

  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < S; ++s) {
      mbar_init(full0 + 8 * s, 1);                         // the producer's expect_tx; the bytes complete it
      mbar_init(empty0 + 8 * s, Cfg::CONSUMERS * 4 * CL);  // every consumer warp of the cluster
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  if constexpr (CL > 1)
    cluster_sync();  // the partner's barriers exist before anything is copied into it
  else
    __syncthreads();

  if (wg == 0) {
    // The producer: one thread walks K, a stage at a time, once the consumers have emptied it.
    regs_dec<Cfg::kProducerRegs>();
    if (tid == 0) {
      asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(&map_a)) : "memory");
      asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(&map_b)) : "memory");
      int s = 0;
      uint32_t phase = 0;
      for (int t = 0; t < ktiles; ++t) {
        mbar_wait(empty0 + 8 * s, phase ^ 1);  // the first round passes: the phase before a fresh barrier's
        const uint32_t st = base + uint32_t(s) * Cfg::kStageBytes;
        mbar_expect_tx(full0 + 8 * s, Cfg::kStageBytes);
        tma_load(st, &map_a, t * BK, bm, full0 + 8 * s);
        if constexpr (CL > 1)
          tma_load_multicast(st + Cfg::kABytes + rank * uint32_t(Cfg::kBRows * kRowBytes), &map_b, t * BK,
                             bn + int(rank) * Cfg::kBRows, full0 + 8 * s, uint16_t((1u << CL) - 1));
        else
          tma_load(st + Cfg::kABytes, &map_b, t * BK, bn, full0 + 8 * s);
        if (++s == S) {
          s = 0;
          phase ^= 1;
        }
      }
    }
  } else {
    // A consumer: rows [cw·WM, (cw+1)·WM) of the tile, MT wgmma row tiles of 64 x BN.
    regs_inc<Cfg::kConsumerRegs>();
    const int cw = wg - 1;
    float acc[MT][BN / 2];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < BN / 2; ++j) acc[i][j] = 0.0f;
    int s = 0, prev = 0;
    uint32_t phase = 0;
    for (int t = 0; t < ktiles; ++t) {
      mbar_wait(full0 + 8 * s, phase);  // the stage's bytes have landed
      const uint32_t st = base + uint32_t(s) * Cfg::kStageBytes;
      const uint64_t da = smem_desc(st + uint32_t(cw * Cfg::WM * kRowBytes));
      const uint64_t db = smem_desc(st + Cfg::kABytes);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < BK / KSTEP; ++kk)
#pragma unroll
        for (int i = 0; i < MT; ++i)
          wgmma<T, BN>(acc[i], da + uint64_t(i * 64 * kRowBytes / 16 + 2 * kk), db + uint64_t(2 * kk));
      wgmma_commit();
      // Keep this stage's group in flight; the previous one is done reading its stage: give it back.
      wgmma_wait<1>();
      if (t > 0 && tid % 32 == 0) {
        mbar_arrive(empty0 + 8 * prev);
        if constexpr (CL > 1)
          mbar_arrive_cluster(map_shared(empty0 + 8 * prev, rank ^ 1u));  // B's other half
      }
      prev = s;
      if (++s == S) {
        s = 0;
        phase ^= 1;
      }
    }
    wgmma_wait<0>();

    // Epilogue: the accumulator layout of a 64 x BN wgmma tile: warp w of the warpgroup holds rows
    // 16w + l/4 and + 8, columns 8j + 2·(l%4) and + 1 (registers 4j .. 4j+3); float2 stores where N is
    // even, single floats at odd N and at the edges.
    const int warp = tid / 32, lane = tid % 32;
    const bool pairs = n % 2 == 0;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < BN / 8; ++j) {
        const int col = bn + j * 8 + 2 * (lane % 4);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int row = bm + cw * Cfg::WM + i * 64 + warp * 16 + lane / 4 + 8 * h;
          if (row >= m || col >= n) continue;
          float* p = c + size_t(row) * n + col;
          if (pairs) {
            *reinterpret_cast<float2*>(p) = make_float2(acc[i][4 * j + 2 * h], acc[i][4 * j + 2 * h + 1]);
          } else {
            p[0] = acc[i][4 * j + 2 * h];
            if (col + 1 < n) p[1] = acc[i][4 * j + 2 * h + 1];
          }
        }
      }
  }
  // No block of a cluster leaves while its partner may still arrive on its barriers.
  if constexpr (CL > 1) cluster_sync();
}
// end snippet

// ---------------------------------------------------------------------------------------------
// Host side.

// cuTensorMapEncodeTiled from the driver through the runtime (no link against libcuda): by version
// where the runtime has that call (cudaGetDriverEntryPoint is deprecated from CUDA 12.5 on).
PFN_cuTensorMapEncodeTiled_v12000 encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
#else
    CUDA_CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &p, cudaEnableDefault, &q));
#endif
    if (q != cudaDriverEntryPointSuccess || !p)
      throw GpuError(
          "the driver has no cuTensorMapEncodeTiled (CUDA 12.0 or newer is needed for the tensor copy)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

// `rows` x `cols` of T, rows `ld` elements apart, as a tensor map of boxes of 128 bytes x box_rows.
template <class T>
CUtensorMap tensor_map(const T* p, int rows, int cols, int ld, int box_rows, const char* what) {
  if (reinterpret_cast<uintptr_t>(p) % 16 != 0 || (size_t(ld) * sizeof(T)) % 16 != 0)
    throw std::invalid_argument(std::string("the tensor copy needs 16-byte aligned rows; ") + what +
                                " has a pitch of " + std::to_string(size_t(ld) * sizeof(T)) + " bytes");
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(ld) * sizeof(T)};
  const cuuint32_t box[2] = {cuuint32_t(kRowBytes / sizeof(T)), cuuint32_t(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encoder()(
      &map, sizeof(T) == 2 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
      const_cast<T*>(p), dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw GpuError(std::string("cuTensorMapEncodeTiled refused ") + what + " (CUresult " +
                   std::to_string(int(r)) + ")");
  return map;
}

// GPULAB_WGMMA_TILE (0..3): which configuration the launches use, read once (0 when unset or other).
int tile_config() {
  static const int config = [] {
    const char* v = std::getenv("GPULAB_WGMMA_TILE");
    return v && v[0] >= '0' && v[0] <= '4' && v[1] == '\0' ? v[0] - '0' : 0;
  }();
  return config;
}

template <class T, class Cfg>
void set_smem_limit() {
  CUDA_CHECK(
      cudaFuncSetAttribute(gemm_wgmma<T, Cfg>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Cfg::kSmem)));
}

// "" where these kernels run (compute capability 9.0: sm_90a code runs on no other), else why not;
// the shared-memory limits raised once.
const std::string& refusal() {
  static const std::string why = [] {
    int device = 0, major = 0, minor = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    if (major != 9 || minor != 0)
      return "the wgmma rungs (wgmma, setmaxnreg and the tensor copy, built for sm_90a) need a Hopper GPU "
             "(compute capability 9.0); this GPU has " +
             std::to_string(major) + "." + std::to_string(minor);
    set_smem_limit<float, WgTile0>();
    set_smem_limit<float, WgTile1>();
    set_smem_limit<float, WgTile2>();
    set_smem_limit<float, WgTile3>();
    set_smem_limit<__nv_bfloat16, WgTile0>();
    set_smem_limit<__nv_bfloat16, WgTile1>();
    set_smem_limit<__nv_bfloat16, WgTile2>();
    set_smem_limit<__nv_bfloat16, WgTile3>();
    set_smem_limit<float, WgTile4>();
    set_smem_limit<__nv_bfloat16, WgTile4>();
    return std::string();
  }();
  return why;
}

template <class T, class Cfg>
void launch_cfg(const T* a, int lda, const T* bt, int ldb, float* c, int m, int n, int k, cudaStream_t s) {
  const CUtensorMap map_a = tensor_map(a, m, k, lda, Cfg::BM, "A");
  const CUtensorMap map_b = tensor_map(bt, n, k, ldb, Cfg::kBRows, "B transposed");
  const long long blocks =
      cuda::ceil_div(m, Cfg::BM * Cfg::CLUSTER) * Cfg::CLUSTER * cuda::ceil_div(n, Cfg::BN);
  if constexpr (Cfg::CLUSTER == 1) {
    gemm_wgmma<T, Cfg><<<unsigned(blocks), Cfg::kThreads, Cfg::kSmem, s>>>(map_a, map_b, c, m, n, k);
  } else {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(unsigned(blocks));
    config.blockDim = dim3(Cfg::kThreads);
    config.dynamicSmemBytes = Cfg::kSmem;
    config.stream = s;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = Cfg::CLUSTER;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    CUDA_CHECK(cudaLaunchKernelEx(&config, gemm_wgmma<T, Cfg>, map_a, map_b, c, m, n, k));
  }
  CUDA_CHECK_LAUNCH("gemm_wgmma");
}

template <class T>
void launch(const T* a, int lda, const T* bt, int ldb, float* c, int m, int n, int k, cudaStream_t s) {
  if (const std::string& why = refusal(); !why.empty()) throw std::runtime_error(why);
  switch (tile_config()) {
    case 1:
      return launch_cfg<T, WgTile1>(a, lda, bt, ldb, c, m, n, k, s);
    case 2:
      return launch_cfg<T, WgTile2>(a, lda, bt, ldb, c, m, n, k, s);
    case 3:
      return launch_cfg<T, WgTile3>(a, lda, bt, ldb, c, m, n, k, s);
    case 4:
      return launch_cfg<T, WgTile4>(a, lda, bt, ldb, c, m, n, k, s);
    default:
      return launch_cfg<T, WgTile0>(a, lda, bt, ldb, c, m, n, k, s);
  }
}

template <class T, class Cfg>
KernelInfo info(const char* name) {
  return {name, reinterpret_cast<const void*>(&gemm_wgmma<T, Cfg>), Cfg::kThreads, Cfg::kSmem};
}

}  // namespace

std::string wgmma_refusal() { return refusal(); }

void launch_wgmma_tf32(const float* a, int lda, const float* bt, int ldb, float* c, int m, int n, int k,
                       cudaStream_t s) {
  launch<float>(a, lda, bt, ldb, c, m, n, k, s);
}
void launch_wgmma_bf16(const __nv_bfloat16* a, int lda, const __nv_bfloat16* bt, int ldb, float* c, int m,
                       int n, int k, cudaStream_t s) {
  launch<__nv_bfloat16>(a, lda, bt, ldb, c, m, n, k, s);
}

std::vector<KernelInfo> wgmma_kernels(Precision p) {
  // The occupancy panel asks before any launch: raise the shared-memory limits first. Off Hopper the
  // kernels cannot be loaded, so there is nothing to ask about.
  try {
    if (!refusal().empty()) return {};
  } catch (const std::exception&) {
    return {};
  }
  const bool bf = p == Precision::Bf16;
  switch (tile_config()) {
    case 1:
      return {bf ? info<__nv_bfloat16, WgTile1>("gemm_wgmma<bf16, 128x256, 3 stages>")
                 : info<float, WgTile1>("gemm_wgmma<tf32, 128x256, 3 stages>")};
    case 2:
      return {bf ? info<__nv_bfloat16, WgTile2>("gemm_wgmma<bf16, 256x128, 4 stages>")
                 : info<float, WgTile2>("gemm_wgmma<tf32, 256x128, 4 stages>")};
    case 3:
      return {bf ? info<__nv_bfloat16, WgTile3>("gemm_wgmma<bf16, 128x128, 6 stages>")
                 : info<float, WgTile3>("gemm_wgmma<tf32, 128x128, 6 stages>")};
    case 4:
      return {bf ? info<__nv_bfloat16, WgTile4>("gemm_wgmma<bf16, 128x256, 4 stages, clusters of 2>")
                 : info<float, WgTile4>("gemm_wgmma<tf32, 128x256, 4 stages, clusters of 2>")};
    default:
      return {bf ? info<__nv_bfloat16, WgTile0>("gemm_wgmma<bf16, 128x256, 4 stages>")
                 : info<float, WgTile0>("gemm_wgmma<tf32, 128x256, 4 stages>")};
  }
}

}  // namespace gpulab::matrix::detail

// The matrix variant table: one place that knows each variant's id, lesson, snippet and blocks.
#include <array>

#include "matrix/matrix.h"

namespace gpulab::matrix {
namespace {

constexpr std::array<int, 1> kTile32{32};     // 32x32 tiles, the lab's
constexpr std::array<int, 2> kTiles{16, 32};  // TILE 16 and 32 (a square block of TILE x TILE threads)
constexpr std::array<int, 3> kNaiveBlocks{8, 16, 32};

using K = Kind;
constexpr std::array<Variant, 18> kVariants{{
    {{"transpose-cpu",
      "CPU reference (cache-blocked)",
      "32x32 blocks so reads and writes both stay in cache",
      "transpose_cpu",
      {},
      true,
      0,
      K::TransposeCpu},
     Backend::Cpu,
     Op::Transpose},
    {{"transpose-naive", "one element a thread (the lab's transpose1)",
      "reads coalesced along a row, writes strided down a column: every warp's store touches 32 lines",
      "transpose_naive", kTile32, true, 32, K::TransposeNaive},
     Backend::Cuda,
     Op::Transpose},
    {{"transpose-shared", "32x32 tile through shared memory",
      "both global sides coalesced; reading the tile's column hits one bank 32 times (32-way conflict)",
      "transpose_shared", kTile32, true, 32, K::TransposeShared},
     Backend::Cuda,
     Op::Transpose},
    {{"transpose-shared-padded", "tile[32][33]: one column of padding",
      "the extra column shifts each row by one bank: the column read touches 32 different banks",
      "transpose_shared", kTile32, true, 32, K::TransposePadded},
     Backend::Cuda,
     Op::Transpose},
    {{"transpose-shared-swizzled", "tile[32][32] with an XOR swizzle",
      "column x of row y stored at x ^ y: conflict-free like padding, without the wasted column",
      "transpose_shared", kTile32, true, 32, K::TransposeSwizzled},
     Backend::Cuda,
     Op::Transpose},
    {{"transpose-vector",
      "64x64 tile, float4 loads and stores, 16 elements a thread",
      "fewer, wider memory instructions and more bytes in flight per thread: close to a plain copy",
      "transpose_vector",
      {},
      true,
      0,
      K::TransposeVector},
     Backend::Cuda,
     Op::Transpose},
    {{"gemm-cpu",
      "CPU: blocked, all cores",
      "cache panels of B reused across rows of A, one row band a core",
      "gemm_cpu",
      {},
      true,
      0,
      K::GemmCpu},
     Backend::Cpu,
     Op::Multiply},
    {{"gemm-naive", "one thread an element of C (the lab's matMult)",
      "every thread reads a row of A and a column of B from global memory: 2K loads for 2K flops",
      "gemm_naive", kNaiveBlocks, true, 16, K::GemmNaive},
     Backend::Cuda,
     Op::Multiply},
    {{"gemm-shared-tile", "TILE x TILE tiles in shared memory (the lab's tiled kernel)",
      "each element loaded once per tile and reused TILE times from shared memory", "gemm_shared_tile",
      kTiles, true, 32, K::GemmSharedTile},
     Backend::Cuda,
     Op::Multiply},
    {{"gemm-shared-tile-aat", "A·Aᵀ with tiles, no padding (the lab's)",
      "reading the transposed tile down a column conflicts 32-way: the lab's slow kernel", "gemm_aat", kTiles,
      true, 32, K::GemmAat},
     Backend::Cuda,
     Op::Multiply},
    {{"gemm-shared-tile-aat-padded", "A·Aᵀ with tiles padded by one column (+1)",
      "the +1 column puts the column read on 32 banks: the lab's 4.5x from one number", "gemm_aat", kTiles,
      true, 32, K::GemmAatPadded},
     Backend::Cuda,
     Op::Multiply},
    {{"gemm-register-tile",
      "128x128 block tile, an 8x8 tile of C a thread in registers",
      "each value read from shared memory feeds 8 FMAs; float4 loads of A and B; A stored transposed",
      "gemm_register_tile",
      {},
      true,
      0,
      K::GemmRegisterTile},
     Backend::Cuda,
     Op::Multiply},
    {{"gemm-warp-tile",
      "warp tiling, double-buffered shared memory",
      "each warp owns a 64x64 tile of C, lanes as 8x4 each with 2x4 4x4 quads: conflict-free broadcasts; "
      "the next tile loads (B by cp.async) while this one computes",
      "gemm_warp_tile",
      {},
      true,
      0,
      K::GemmWarpTile},
     Backend::Cuda,
     Op::Multiply},
    {{"gemm-tensor-tf32",
      "tensor cores, TF32 inputs (WMMA), 3-stage cp.async",
      "the tensor cores read 10 of float32's 23 mantissa bits: several times the FP32 rate at ~3 decimal "
      "digits",
      "gemm_tensor",
      {},
      true,
      0,
      K::GemmTensorTf32},
     Backend::Cuda,
     Op::Multiply,
     Precision::Tf32},
    {{"gemm-tensor-bf16",
      "tensor cores, BF16 inputs (WMMA), 3-stage cp.async",
      "inputs rounded to bfloat16 (8 significant bits), fp32 accumulate: half the bytes, twice TF32's rate",
      "gemm_tensor",
      {},
      true,
      0,
      K::GemmTensorBf16},
     Backend::Cuda,
     Op::Multiply,
     Precision::Bf16},
    {{"gemm-tensor-wgmma-tf32",
      "Hopper: TMA + wgmma, TF32, producer warp and consumer warpgroups",
      "the copy engine fills swizzled shared memory while a warpgroup's wgmma multiplies 64x256 tiles "
      "straight from it: no ldmatrix, no registers for operands (H100 only)",
      "gemm_wgmma",
      {},
      true,
      0,
      K::GemmTensorWgmmaTf32},
     Backend::Cuda,
     Op::Multiply,
     Precision::Tf32},
    {{"gemm-tensor-wgmma-bf16",
      "Hopper: TMA + wgmma, BF16, producer warp and consumer warpgroups",
      "an mbarrier ring of shared-memory stages between one copying thread and two multiplying "
      "warpgroups: the tensor cores never wait for an instruction to feed them (H100 only)",
      "gemm_wgmma",
      {},
      true,
      0,
      K::GemmTensorWgmmaBf16},
     Backend::Cuda,
     Op::Multiply,
     Precision::Bf16},
    {{"gemm-cublas",
      "cuBLAS cublasSgemm (FP32)",
      "the library the course recommends: the yardstick",
      "gemm_cublas",
      {},
      true,
      0,
      K::GemmCublas,
      true},
     Backend::Cuda,
     Op::Multiply},
}};

}  // namespace

std::span<const Variant> variants() { return kVariants; }

const Variant* find_variant(std::string_view id) {
  return find_by_id(std::span<const Variant>(kVariants), id);
}

std::vector<const Variant*> variants_of(Op op) {
  std::vector<const Variant*> out;
  for (const Variant& v : kVariants)
    if (v.op == op) out.push_back(&v);
  return out;
}

}  // namespace gpulab::matrix

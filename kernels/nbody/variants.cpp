// The N-body variant table: one place that knows each variant's id, lesson, snippet and blocks.
#include <array>

#include "nbody/nbody.h"

namespace gpulab::nbody {
namespace {

constexpr std::array<int, 5> kBlocks1D{64, 128, 256, 512, 1024};

constexpr std::array<int, 3> kBlocksPairs{64, 128, 256};

using F = ForceKernel;

constexpr std::array<Variant, 9> kVariants{{
    {{"cpu", "CPU reference", "the O(N^2) reference on every CPU core, forces summed in double", "nbody_cpu"},
     Backend::Cpu},
    {{"gpu-naive-aos", "naive, array of structs",
      "one thread per body; {pos, vel, mass} structs read from global memory: a warp's loads are strided, "
      "uncoalesced",
      "nbody_naive_aos", kBlocks1D, false, 256, F::NaiveAos},
     Backend::Cuda},
    {{"gpu-global-soa", "global memory, structure of arrays",
      "separate x, y, z, m arrays: neighbouring threads read neighbouring words, coalesced",
      "nbody_global_soa", kBlocks1D, false, 256, F::GlobalSoa},
     Backend::Cuda},
    {{"gpu-shared-tile", "shared-memory tiles",
      "each block stages a tile of bodies in shared memory: every body is read from global memory once a "
      "block",
      "nbody_shared_tile", kBlocks1D, false, 256, F::SharedTile},
     Backend::Cuda},
    {{"gpu-tile-float4", "float4 tiles, rsqrtf, unrolled (GPU Gems 3)",
      "bodies as float4 (xyz + mass): one 16-byte load, rsqrtf instead of 1/sqrt, the inner loop unrolled",
      "nbody_tile_float4", kBlocks1D, false, 256, F::TileFloat4},
     Backend::Cuda},
    {{"gpu-tile-split", "split j-range, several threads a body",
      "several threads share one body and split the j-range, so that small N still fills every SM",
      "nbody_tile_split", kBlocks1D, false, 256, F::TileSplit},
     Backend::Cuda},
    {{"gpu-tile-register", "register blocking: 8 bodies a thread",
      "one shared-memory load of body j serves 8 interactions held in registers; 12 FP32 instructions and "
      "one "
      "rsqrt each, no denormal fix-ups; at small N the j-range is split across blocks so every SM has work",
      "nbody_tile_register", kBlocks1D, false, 512, F::TileRegister},
     Backend::Cuda},
    {{"gpu-warp-pairs", "each pair once (Newton's third law)",
      "one rsqrt serves both a_i and a_j, bodies rotate through the warp with shuffles; forces leave by "
      "atomicAdd, "
      "so the rounding order (the last bits) varies from run to run",
      "nbody_warp_pairs", kBlocksPairs, false, 256, F::WarpPairs},
     Backend::Cuda},
    {{"gpu-pair-tiles", "each pair once, summed in a fixed order",
      "as gpu-warp-pairs, one rsqrt for a_i and a_j, but without atomics: a warp takes a row of 256-body "
      "tiles, keeps a_i in registers and each column's a_j in shared memory, and adds them to the result "
      "in row order (a counter a column): the same bits every run",
      "nbody_pair_tiles", kBlocksPairs, false, 256, F::PairTiles},
     Backend::Cuda},
}};

}  // namespace

std::span<const Variant> variants() { return kVariants; }

const Variant* find_variant(std::string_view id) {
  return find_by_id(std::span<const Variant>(kVariants), id);
}

}  // namespace gpulab::nbody

// The N-body variant table: one place that knows each variant's id, lesson, snippet and blocks.
#include <array>

#include "nbody/nbody.h"

namespace gpulab::nbody {
namespace {

constexpr std::array<int, 5> kBlocks1D{64, 128, 256, 512, 1024};

constexpr std::array<Variant, 6> kVariants{{
    {"cpu", "CPU reference", "the O(N^2) reference on every CPU core, forces summed in double", "nbody_cpu",
     Backend::Cpu, {}, 0},
    {"gpu-naive-aos", "naive, array of structs",
     "one thread per body; {pos, vel, mass} structs read from global memory: a warp's loads are strided, "
     "uncoalesced",
     "nbody_naive_aos", Backend::Cuda, kBlocks1D, 256},
    {"gpu-global-soa", "global memory, structure of arrays",
     "separate x, y, z, m arrays: neighbouring threads read neighbouring words, coalesced", "nbody_global_soa",
     Backend::Cuda, kBlocks1D, 256},
    {"gpu-shared-tile", "shared-memory tiles",
     "each block stages a tile of bodies in shared memory: every body is read from global memory once a block",
     "nbody_shared_tile", Backend::Cuda, kBlocks1D, 256},
    {"gpu-tile-float4", "float4 tiles, rsqrtf, unrolled (GPU Gems 3)",
     "bodies as float4 (xyz + mass): one 16-byte load, rsqrtf instead of 1/sqrt, the inner loop unrolled",
     "nbody_tile_float4", Backend::Cuda, kBlocks1D, 256},
    {"gpu-tile-split", "split j-range, several threads a body",
     "several threads share one body and split the j-range, so that small N still fills every SM",
     "nbody_tile_split", Backend::Cuda, kBlocks1D, 256},
}};

}  // namespace

std::span<const Variant> variants() { return kVariants; }

const Variant* find_variant(std::string_view id) {
  for (const Variant& v : kVariants)
    if (v.id == id) return &v;
  return nullptr;
}

}  // namespace gpulab::nbody

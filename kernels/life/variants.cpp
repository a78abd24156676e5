#include <array>

#include "life/life.h"

namespace gpulab::life {
namespace {
constexpr std::array<int, 3> kSquare{8, 16, 32};
constexpr std::array<int, 5> kThreads{64, 128, 256, 512, 1024};
constexpr std::array<int, 4> kGhost{32, 128, 256, 1024};

using K = Kernel;

// One table for the UI, the CLI, the tests and the bench. Ids are stable.
constexpr std::array<Variant, 8> kVariants{{
    {{"cpu-naive",
      "CPU, if/else rules",
      "The lecture's baseline: ghost cells copied, then a branch per rule case for every cell.",
      "life_cpu_naive",
      {},
      false,
      0,
      K::CpuNaive},
     Backend::Cpu,
     Layout::Bytes},
    {{"cpu-lut",
      "CPU, lookup table",
      "states[2][9] replaces the branches: one load instead of four comparisons per cell.",
      "life_cpu_lut",
      {},
      false,
      0,
      K::CpuLut},
     Backend::Cpu,
     Layout::Bytes},
    {{"gpu-global", "GPU, global memory",
      "One thread per cell, every neighbour read from global memory; ghost rows and columns by 1D kernels.",
      "life_gpu_global", kSquare, true, 16, K::Global},
     Backend::Cuda,
     Layout::Bytes},
    {{"gpu-lut-local", "GPU, table in local memory",
      "The states[2][9] table built per thread: an indexed array spills to slow local memory.",
      "life_gpu_lut_local", kSquare, true, 16, K::LutLocal},
     Backend::Cuda,
     Layout::Bytes},
    {{"gpu-lut-constant", "GPU, table in constant memory",
      "__constant__ table: cached and broadcast when a warp's threads read the same entry.",
      "life_gpu_lut_constant", kSquare, true, 16, K::LutConstant},
     Backend::Cuda,
     Layout::Bytes},
    {{"gpu-shared", "GPU, shared-memory tile",
      "A tile plus its one-cell halo staged in shared memory: nine neighbour reads hit on-chip memory.",
      "life_gpu_shared", kSquare, true, 32, K::Shared},
     Backend::Cuda,
     Layout::Bytes},
    {{"gpu-swar", "GPU, 16 cells a thread (SWAR)",
      "16-byte loads and byte-wise sums in registers: fewer instructions per cell, near the bandwidth bound.",
      "life_gpu_swar", kThreads, false, 256, K::Swar},
     Backend::Cuda,
     Layout::Bytes},
    {{"gpu-bitpacked", "GPU, bit-packed (64 cells a word)",
      "One bit a cell: 8x fewer bytes, and bit-sliced adders count 64 neighbourhoods at once.",
      "life_gpu_bitpacked", kThreads, false, 256, K::Bitpacked},
     Backend::Cuda,
     Layout::Packed},
}};

// The ghost-copy stage's one variant.
constexpr VariantRecord kGhostVariant{
    "gpu-ghost-1d",
    "ghost rows and columns by 1D kernels",
    "two 1D kernels copy the torus' edge rows and columns into the ghost ring before each generation",
    "life_ghost",
    kGhost,
    false,
    256};
}  // namespace

std::span<const Variant> variants() { return kVariants; }

const Variant* find_variant(std::string_view id) {
  return find_by_id(std::span<const Variant>(kVariants), id);
}

const VariantRecord& ghost_variant() { return kGhostVariant; }

double bytes_per_generation(const Variant& v, int width, int height) {
  const double cells = static_cast<double>(width) * height;
  if (v.layout == Layout::Packed) {
    const double words = static_cast<double>((width + 63) / 64) * height;
    return words * 8.0 * 2.0;
  }
  return cells * 2.0;  // one byte read and one written per cell
}

}  // namespace gpulab::life

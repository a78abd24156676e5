#include <array>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

#include "common/text.h"
#include "life/life.h"

namespace gpulab::life {
namespace {
constexpr std::array<int, 3> kSquare{8, 16, 32};
constexpr std::array<int, 5> kThreads{64, 128, 256, 512, 1024};
constexpr std::array<int, 4> kGhost{32, 128, 256, 1024};
// gpu-bit-multistep: each warp is a tile of its own; the block only groups them.
constexpr std::array<int, 3> kWarps{32, 64, 128};

using K = Kernel;

// One table for the UI, the CLI, the tests and the bench. Ids are stable.
constexpr std::array<Variant, 9> kVariants{{
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
    {{"gpu-bit-multistep", "GPU, k generations a pass (bit-packed)",
      "A tile and a k-cell halo stay in registers for k generations: DRAM bytes per generation fall as 1/k.",
      "life_gpu_bit_multistep", kWarps, false, 64, K::BitMultistep},
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

std::optional<int> parse_generations_per_pass(std::string_view text, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<int> {
    if (error)
      *error = "generations per pass must be a whole number from " + std::to_string(kMinGenerationsPerPass) +
               " to " + std::to_string(kMaxGenerationsPerPass) + ", got " + text::quote(text) + why;
    return std::nullopt;
  };
  const std::string s(text);
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return fail("");
  errno = 0;
  const long k = std::strtol(s.c_str(), nullptr, 10);
  if (errno == ERANGE || k < kMinGenerationsPerPass || k > kMaxGenerationsPerPass)
    return fail(" (out of range)");
  return static_cast<int>(k);
}

void check_generations_per_pass(int k) {
  if (k < kMinGenerationsPerPass || k > kMaxGenerationsPerPass)
    throw std::invalid_argument("generations per pass must be " + std::to_string(kMinGenerationsPerPass) +
                                ".." + std::to_string(kMaxGenerationsPerPass) + ", got " + std::to_string(k));
}

std::vector<int> multistep_passes(int generations, int generations_per_pass) {
  std::vector<int> passes;
  const int k = generations_per_pass < 1 ? 1 : generations_per_pass;
  for (int left = generations; left > 0; left -= k) passes.push_back(left < k ? left : k);
  return passes;
}

double bytes_per_generation(const Variant& v, int width, int height, int generations_per_pass) {
  const double cells = static_cast<double>(width) * height;
  if (v.layout == Layout::Packed) {
    const double words = static_cast<double>((width + 63) / 64) * height;
    const int k =
        v.step_kernel() == Kernel::BitMultistep && generations_per_pass > 1 ? generations_per_pass : 1;
    return words * 8.0 * 2.0 / k;
  }
  return cells * 2.0;  // one byte read and one written per cell
}

}  // namespace gpulab::life

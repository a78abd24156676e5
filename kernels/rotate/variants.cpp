// The texture-rotation variant table and what CUDA's texture unit allows per variant: one place that
// knows each variant's id, lesson, snippet and block sizes.
#include <array>
#include <string>

#include "rotate/rotate.h"

namespace gpulab::rotate {
namespace {

constexpr std::array<int, 3> kSquareBlocks{8, 16, 32};  // 8x8, 16x16, 32x32 threads
constexpr std::array<int, 3> kWideBlocks{16, 32, 64};   // tiles of 16..64 pixels: 4x16 .. 16x64 threads

constexpr std::array<Variant, 7> kVariants{{
    {{"cpu",
      "CPU reference (float)",
      "the definition in float on the host, every address mode and filter by hand",
      "rotate_cpu",
      {},
      true,
      0,
      Kind::Cpu},
     Backend::Cpu},
    {{"tex-array", "texture object over a cudaArray",
      "tex2D through the texture unit: the array's 2D-local layout keeps a rotated walk cached; filtering "
      "and "
      "addressing come free in hardware",
      "rotate_tex", kSquareBlocks, true, 16, Kind::TexArray},
     Backend::Cuda},
    {{"tex-array-x4", "texture object over a cudaArray, four pixels a thread",
      "the same fetches, four neighbouring output pixels a thread: one 32-bit store for four grey pixels "
      "(16 bytes for RGBA) instead of four byte stores, and the index arithmetic shared; the lanes form 2x2 "
      "quads, as the texture unit takes them, for a compact footprint; the texture unit, not the instruction "
      "count, becomes the limit",
      "rotate_tex_x4", kWideBlocks, true, 32, Kind::TexArray},
     Backend::Cuda,
     4},
    {{"tex-pitch", "texture object over pitched memory",
      "the same fetches from linear memory allocated with cudaMallocPitch: row-major, so a rotated walk hits "
      "more cache lines than the array's layout",
      "rotate_tex", kSquareBlocks, true, 16, Kind::TexPitch},
     Backend::Cuda},
    {{"tex-pitch-prefetch",
      "texture object over pitched memory, four pixels a thread, rows prefetched into L2",
      "the texture unit keeps only so many misses in flight, so misses to DRAM leave it waiting: each block "
      "first asks the L2 (prefetch.global.L2, a 128-byte line at a time) for the source rows that a block "
      "about "
      "1.5 waves later will read, and that block's misses then hit the L2. Pitched memory, because a "
      "cudaArray has no address to prefetch",
      "rotate_tex_x4", kWideBlocks, true, 32, Kind::TexPitch},
     Backend::Cuda,
     4,
     true},
    {{"global", "interpolation by hand from global memory",
      "what the texture unit does, written out: texel indices, the address mode, four loads and the bilinear "
      "weights, all in ALU instructions",
      "rotate_global", kSquareBlocks, true, 16, Kind::Global},
     Backend::Cuda},
    {{"lecture", "the lecture's kernel as printed",
      "normalized coordinates from the pixel's corner, not its centre (no half-texel fix): the picture "
      "shifts "
      "half a texel and, for a non-square image, shears",
      "rotate_lecture", kSquareBlocks, true, 16, Kind::Lecture},
     Backend::Cuda},
}};

bool wraps(Address a) { return a == Address::Wrap || a == Address::Mirror; }

}  // namespace

std::span<const Variant> variants() { return kVariants; }

const Variant* find_variant(std::string_view id) {
  return find_by_id(std::span<const Variant>(kVariants), id);
}

std::string cuda_restriction(const Variant& v, const Settings& s) {
  std::string why;
  if (v.kind() != Kind::Cpu && v.kind() != Kind::Global && s.params.filter == Filter::Linear &&
      s.read_mode == ReadMode::ElementType)
    why = "linear filtering of an 8-bit texture needs cudaReadModeNormalizedFloat: reading normalized floats";
  if (v.kind() != Kind::Cpu && !s.normalized && wraps(s.params.address)) {
    if (!why.empty()) why += "; ";
    why += std::string(name(s.params.address)) + " needs normalized coordinates: without them CUDA clamps";
  }
  return why;
}

Settings effective(const Variant& v, const Settings& s) {
  Settings e = s;
  if (v.kind() != Kind::Cpu && v.kind() != Kind::Global && s.params.filter == Filter::Linear)
    e.read_mode = ReadMode::NormalizedFloat;
  if (v.kind() != Kind::Cpu && !s.normalized && wraps(s.params.address)) e.params.address = Address::Clamp;
  return e;
}

}  // namespace gpulab::rotate

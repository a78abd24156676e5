#pragma once
// Between the CUDA engine (life_cuda.cu) and the kernel files: the device layouts and one host
// launch function per kernel family. Each launch goes on the given stream and is checked with
// CUDA_CHECK_LAUNCH; none synchronises.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "life/life.h"

namespace gpulab::life::cuda_detail {

// Byte layout (the lecture's ghost ring): (H + 2) rows of `pitch` bytes, interior cell (x, y) at
// (y + 1) * pitch + (x + 1). The pitch is W + 2 rounded up to 16 so that rows start 16-byte aligned
// for the SWAR variant's uint4 loads. Every byte, padding included, holds 0 or 1 at all times.
struct ByteGrid {
  uint8_t* cells = nullptr;
  int width = 0;
  int height = 0;
  size_t pitch = 0;
};
inline size_t byte_pitch(int width) { return (static_cast<size_t>(width) + 2 + 15) / 16 * 16; }
inline size_t byte_grid_bytes(int width, int height) {
  return byte_pitch(width) * (static_cast<size_t>(height) + 2);
}

// Packed layout: 64 cells a word, bit b of word k = column 64k + b, `words_per_row` = ceil(W / 64)
// words a row, no ghost rows; bits past column W - 1 in a row's last word are always zero.
struct PackedGrid {
  uint64_t* words = nullptr;
  int width = 0;
  int height = 0;
  int words_per_row = 0;
};
inline int packed_words_per_row(int width) { return (width + 63) / 64; }
inline size_t packed_grid_bytes(int width, int height) {
  return static_cast<size_t>(packed_words_per_row(width)) * static_cast<size_t>(height) * sizeof(uint64_t);
}

// Rows a thread walks in the SWAR and bit-packed kernels; 0 = chosen from the grid and the GPU.
// Set only by benchmarks that sweep it.
struct StripTuning {
  int swar_rows = 0;
  int packed_rows = 0;
  bool packed_generic_rule = false;  // the bit-packed kernel's generic rule even for a compiled-in one
};
StripTuning& strip_tuning();

// --- life_bytes.cu: the lecture's kernels on the byte layout ------------------------------------
// The lecture's ghost copies: columns first, then whole rows (corners included), `ghost_block` threads.
void launch_ghosts(const ByteGrid& g, int ghost_block, cudaStream_t stream);
enum class ByteKernel { Global, LutLocal, LutConstant, Shared };
// One generation from `in` into `out` (same geometry); the ghost ring of `in` must be current.
void launch_byte_step(ByteKernel kernel, const ByteGrid& in, uint8_t* out, int block_edge, const Rule& rule,
                      cudaStream_t stream);
// Puts the rule's states[2][9] into __constant__ memory if it is not there already.
void upload_constant_rule(const Rule& rule, cudaStream_t stream);
std::vector<KernelInfo> byte_kernel_infos(ByteKernel kernel, int block_edge);
std::vector<KernelInfo> ghost_kernel_infos(int ghost_block);

// --- life_swar.cu --------------------------------------------------------------------------------
void launch_swar_step(const ByteGrid& in, uint8_t* out, int block_threads, int sm_count, const Rule& rule,
                      cudaStream_t stream);
KernelInfo swar_kernel_info(int block_threads);

// --- life_bitpacked.cu ---------------------------------------------------------------------------
void launch_packed_step(const PackedGrid& in, uint64_t* out, int block_threads, int sm_count,
                        const Rule& rule, cudaStream_t stream);
// The kernel that runs `rule` (the named rules have compiled-in instantiations).
KernelInfo packed_kernel_info(int block_threads, const Rule& rule);
// --- life_multistep.cu ---------------------------------------------------------------------------
// `generations` (1..kMaxGenerationsPerPass) in one pass from `in` into `out` (same geometry).
void launch_multistep(const PackedGrid& in, uint64_t* out, int block_threads, int generations,
                      const Rule& rule, cudaStream_t stream);
// Rows a warp writes at k generations a pass (its tile less the halo of k rows above and below).
int multistep_tile_rows(int generations);
KernelInfo multistep_kernel_info(int block_threads, int width, const Rule& rule);

void launch_pack(const ByteGrid& from, const PackedGrid& to, cudaStream_t stream);
void launch_unpack(const PackedGrid& from, const ByteGrid& to, cudaStream_t stream);

// --- life_display.cu: everything else the engine does on the device ------------------------------
// The current generation in whichever layout holds it.
struct CellSource {
  Layout layout = Layout::Bytes;
  ByteGrid bytes;
  PackedGrid packed;
};
void launch_randomize(const ByteGrid& g, double density, uint64_t seed, cudaStream_t stream);
void launch_normalize(const ByteGrid& g, cudaStream_t stream);  // interior bytes to 0/1 after an upload
void launch_set_cells(const CellSource& src, const CellEdit* d_edits, int count, cudaStream_t stream);
// Adds the number of live cells to *d_total (which the caller zeroes).
void launch_population(const CellSource& src, unsigned long long* d_total, int sm_count, cudaStream_t stream);
void launch_fade_tick(const CellSource& src, uint8_t* d_fade, cudaStream_t stream);
// d_fade may be null (no fade_tick yet): every fade byte then reads 0.
void launch_render_buffer(const CellSource& src, const uint8_t* d_fade, const View& view, uint32_t* d_rgba,
                          cudaStream_t stream);
void launch_render_surface(const CellSource& src, const uint8_t* d_fade, const View& view,
                           cudaSurfaceObject_t surface, cudaStream_t stream);

}  // namespace gpulab::life::cuda_detail

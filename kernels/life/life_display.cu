// Everything the CUDA engine does besides stepping: random fills, edits, the population count, the
// fade buffer and the display kernels, each reading the current generation in whichever layout holds
// it (bytes with a ghost ring, or 64 cells a word).
//
// Lessons on the way: the population is a real reduction (each thread sums 16 cells with popcounts,
// a warp-shuffle and shared-memory reduce per block, one atomicAdd per block); the display is one
// thread per pixel calling the same pixel_colour() as the CPU renderer, so the two agree exactly.
#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "life/life_cuda_internal.cuh"

namespace gpulab::life::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

constexpr int kCellBlockX = 32, kCellBlockY = 8;
constexpr int kPixelBlock = 16;

// A 2D grid over width×height cells (or pixels); rows beyond gridDim.y's limit by a stride loop.
dim3 cell_grid(int width, int height, int bx, int by) {
  const long long rows = ceil_div(height, by);
  return dim3(static_cast<unsigned>(ceil_div(width, bx)),
              static_cast<unsigned>(rows < gpulab::cuda::kMaxGridY ? rows : gpulab::cuda::kMaxGridY));
}
#define GPULAB_FOR_EACH_ROW(row_var, height)                                    \
  for (int row_var = blockIdx.y * blockDim.y + threadIdx.y; row_var < (height); \
       row_var += gridDim.y * blockDim.y)

struct ByteReader {
  const uint8_t* cells;
  size_t pitch;
  __device__ __forceinline__ uint8_t operator()(int x, int y) const {
    return cells[(static_cast<size_t>(y) + 1) * pitch + static_cast<size_t>(x) + 1];
  }
};
struct PackedReader {
  const uint64_t* words;
  int nw;
  __device__ __forceinline__ uint8_t operator()(int x, int y) const {
    return static_cast<uint8_t>((words[static_cast<size_t>(y) * nw + (x >> 6)] >> (x & 63)) & 1u);
  }
};
struct FadeReader {
  const uint8_t* fade;
  int width;
  __device__ __forceinline__ uint8_t operator()(int x, int y) const {
    return fade ? fade[static_cast<size_t>(y) * width + x] : uint8_t{0};
  }
};

__global__ void randomize_cells(uint8_t* cells, size_t pitch, int width, int height, uint64_t seed,
                                uint32_t threshold) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  GPULAB_FOR_EACH_ROW(y, height) {
    // Same index as the CPU engine: y * width + x over the unpadded grid.
    const uint64_t index = static_cast<uint64_t>(y) * static_cast<uint64_t>(width) + static_cast<uint64_t>(x);
    cells[(static_cast<size_t>(y) + 1) * pitch + x + 1] = random_cell(seed, index, threshold);
  }
}

__global__ void normalize_cells(uint8_t* cells, size_t pitch, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  GPULAB_FOR_EACH_ROW(y, height) {
    uint8_t& c = cells[(static_cast<size_t>(y) + 1) * pitch + x + 1];
    c = c ? 1 : 0;
  }
}

// Edits are de-duplicated on the host (the last edit of a cell wins), so no two threads touch one
// byte; in the packed layout several may touch one word, hence the atomics.
__global__ void set_cells_bytes(uint8_t* cells, size_t pitch, const CellEdit* edits, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const CellEdit e = edits[i];
  cells[(static_cast<size_t>(e.y) + 1) * pitch + e.x + 1] = e.alive ? 1 : 0;
}

__global__ void set_cells_packed(unsigned long long* words, int nw, const CellEdit* edits, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const CellEdit e = edits[i];
  unsigned long long* word = words + static_cast<size_t>(e.y) * nw + (e.x >> 6);
  const unsigned long long bit = 1ull << (e.x & 63);
  if (e.alive)
    atomicOr(word, bit);
  else
    atomicAnd(word, ~bit);
}

// Mask of the bytes of the 4-byte word starting at byte `first` of a row that lie in [lo, hi].
__device__ __forceinline__ uint32_t byte_mask(int first, int lo, int hi) {
  int b = lo - first, e = hi + 1 - first;  // byte range [b, e) inside the word
  b = b < 0 ? 0 : (b > 4 ? 4 : b);
  e = e < 0 ? 0 : (e > 4 ? 4 : e);
  const uint64_t upto_e = (1ull << (8 * e)) - 1, upto_b = (1ull << (8 * b)) - 1;
  return static_cast<uint32_t>(upto_e & ~upto_b);
}

// Bytes are 0/1, so the popcount of a word is its number of live cells. Each thread takes 16-byte
// chunks of interior rows; the ghost columns and padding are masked off.
__global__ void population_bytes(const uint8_t* __restrict__ cells, size_t pitch, int width, int height,
                                 unsigned long long* total) {
  const long long chunks = static_cast<long long>(pitch / 16);
  const long long items = chunks * height;
  unsigned long long sum = 0;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < items;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long y = i / chunks;
    const int chunk = static_cast<int>(i - y * chunks);
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(cells + (y + 1) * pitch) + chunk);
    const int first = 16 * chunk;
    if (first >= 1 && first + 15 <= width) {
      sum += __popc(v.x) + __popc(v.y) + __popc(v.z) + __popc(v.w);
    } else {  // the row's first or last chunk: only bytes 1..width are cells
      sum += __popc(v.x & byte_mask(first, 1, width)) + __popc(v.y & byte_mask(first + 4, 1, width)) +
             __popc(v.z & byte_mask(first + 8, 1, width)) + __popc(v.w & byte_mask(first + 12, 1, width));
    }
  }
  gpulab::cuda::block_sum_to(sum, total);
}

// The packed layout keeps unused bits zero, so every word can simply be counted.
__global__ void population_packed(const uint64_t* __restrict__ words, long long count,
                                  unsigned long long* total) {
  unsigned long long sum = 0;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    sum += __popcll(__ldg(words + i));
  gpulab::cuda::block_sum_to(sum, total);
}

template <class Reader>
__global__ void fade_kernel(Reader cell_at, uint8_t* fade, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  GPULAB_FOR_EACH_ROW(y, height) {
    uint8_t& f = fade[static_cast<size_t>(y) * width + x];
    f = fade_next(f, cell_at(x, y));
  }
}

// Where a pixel goes: a linear buffer (host-copy path, tests) or a surface over a GL texture.
struct BufferWriter {
  uint32_t* rgba;
  int pitch;  // pixels a row
  __device__ void operator()(int px, int py, uint32_t c) const {
    rgba[static_cast<size_t>(py) * pitch + px] = c;
  }
};
struct SurfaceWriter {
  cudaSurfaceObject_t surface;
  // Surface x coordinates are in bytes: one RGBA8 texel is 4 bytes.
  __device__ void operator()(int px, int py, uint32_t c) const { surf2Dwrite(c, surface, px * 4, py); }
};

template <class Reader, class Writer>
__global__ void render_kernel(Reader cell_at, FadeReader fade_at, View view, int width, int height,
                              Writer write) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  if (px >= view.tex_width) return;
  GPULAB_FOR_EACH_ROW(py, view.tex_height) {
    write(px, py, pixel_colour(view, width, height, px, py, cell_at, fade_at));
  }
}

template <class Writer>
void launch_render(const CellSource& src, const uint8_t* d_fade, const View& view, Writer write,
                   cudaStream_t stream) {
  if (view.tex_width <= 0 || view.tex_height <= 0) return;
  const dim3 grid = cell_grid(view.tex_width, view.tex_height, kPixelBlock, kPixelBlock),
             block(kPixelBlock, kPixelBlock);
  const FadeReader fade{d_fade, src.bytes.width};
  const int w = src.bytes.width, h = src.bytes.height;
  if (src.layout == Layout::Bytes)
    render_kernel<<<grid, block, 0, stream>>>(ByteReader{src.bytes.cells, src.bytes.pitch}, fade, view, w, h,
                                              write);
  else
    render_kernel<<<grid, block, 0, stream>>>(PackedReader{src.packed.words, src.packed.words_per_row}, fade,
                                              view, w, h, write);
  CUDA_CHECK_LAUNCH("render_kernel");
}

int reduction_blocks(long long items, int block, int sm_count) {
  const long long wanted = ceil_div(items, block);
  const long long cap = 8ll * (sm_count > 0 ? sm_count : 1);  // enough to fill the GPU; then stride
  return static_cast<int>(wanted < 1 ? 1 : (wanted < cap ? wanted : cap));
}

}  // namespace

void launch_randomize(const ByteGrid& g, double density, uint64_t seed, cudaStream_t stream) {
  randomize_cells<<<cell_grid(g.width, g.height, kCellBlockX, kCellBlockY), dim3(kCellBlockX, kCellBlockY), 0,
                    stream>>>(g.cells, g.pitch, g.width, g.height, seed, density_threshold(density));
  CUDA_CHECK_LAUNCH("randomize_cells");
}

void launch_normalize(const ByteGrid& g, cudaStream_t stream) {
  normalize_cells<<<cell_grid(g.width, g.height, kCellBlockX, kCellBlockY), dim3(kCellBlockX, kCellBlockY), 0,
                    stream>>>(g.cells, g.pitch, g.width, g.height);
  CUDA_CHECK_LAUNCH("normalize_cells");
}

void launch_set_cells(const CellSource& src, const CellEdit* d_edits, int count, cudaStream_t stream) {
  if (count <= 0) return;
  constexpr int kBlock = 128;
  const unsigned blocks = static_cast<unsigned>(ceil_div(count, kBlock));
  if (src.layout == Layout::Bytes) {
    set_cells_bytes<<<blocks, kBlock, 0, stream>>>(src.bytes.cells, src.bytes.pitch, d_edits, count);
    CUDA_CHECK_LAUNCH("set_cells_bytes");
  } else {
    set_cells_packed<<<blocks, kBlock, 0, stream>>>(reinterpret_cast<unsigned long long*>(src.packed.words),
                                                    src.packed.words_per_row, d_edits, count);
    CUDA_CHECK_LAUNCH("set_cells_packed");
  }
}

void launch_population(const CellSource& src, unsigned long long* d_total, int sm_count,
                       cudaStream_t stream) {
  constexpr int kBlock = 256;
  if (src.layout == Layout::Bytes) {
    const long long items = static_cast<long long>(src.bytes.pitch / 16) * src.bytes.height;
    population_bytes<<<reduction_blocks(items, kBlock, sm_count), kBlock, 0, stream>>>(
        src.bytes.cells, src.bytes.pitch, src.bytes.width, src.bytes.height, d_total);
    CUDA_CHECK_LAUNCH("population_bytes");
  } else {
    const long long items = static_cast<long long>(src.packed.words_per_row) * src.packed.height;
    population_packed<<<reduction_blocks(items, kBlock, sm_count), kBlock, 0, stream>>>(src.packed.words,
                                                                                        items, d_total);
    CUDA_CHECK_LAUNCH("population_packed");
  }
}

void launch_fade_tick(const CellSource& src, uint8_t* d_fade, cudaStream_t stream) {
  const int w = src.bytes.width, h = src.bytes.height;
  const dim3 grid = cell_grid(w, h, kCellBlockX, kCellBlockY), block(kCellBlockX, kCellBlockY);
  if (src.layout == Layout::Bytes)
    fade_kernel<<<grid, block, 0, stream>>>(ByteReader{src.bytes.cells, src.bytes.pitch}, d_fade, w, h);
  else
    fade_kernel<<<grid, block, 0, stream>>>(PackedReader{src.packed.words, src.packed.words_per_row}, d_fade,
                                            w, h);
  CUDA_CHECK_LAUNCH("fade_kernel");
}

void launch_render_buffer(const CellSource& src, const uint8_t* d_fade, const View& view, uint32_t* d_rgba,
                          cudaStream_t stream) {
  launch_render(src, d_fade, view, BufferWriter{d_rgba, view.tex_width}, stream);
}

void launch_render_surface(const CellSource& src, const uint8_t* d_fade, const View& view,
                           cudaSurfaceObject_t surface, cudaStream_t stream) {
  launch_render(src, d_fade, view, SurfaceWriter{surface}, stream);
}

}  // namespace gpulab::life::cuda_detail

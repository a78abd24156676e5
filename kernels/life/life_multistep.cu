// gpu-bit-multistep: k generations a pass through memory, on the packed layout (life_bitpacked.cu).
//
// Lesson: one generation of the bit-packed rung reads and writes every word once, so it can go no
// faster than DRAM (one step: 2 bits a cell). To go past that bound, read a tile once, advance it k
// generations on chip, and write it once: the bytes per generation fall as 1/k, until the logic pipe
// is the limit. The price is a halo: a tile that must be exact after k generations needs k cells of
// its neighbours on every side, recomputed by both tiles.
//
// One warp owns a tile of 32 x 16 = 512 rows by 160 columns, all in registers: lane l holds rows
// 16 l .. 16 l + 15, five 32-bit words a row (a 16-column halo, the 128 columns it writes, a 16-column
// halo). Each generation the rows just above and below a lane's 16 come from its neighbour lanes by
// warp shuffles; the columns west and east of a word by funnel shifts with the word beside it. What
// lies outside the tile is unknown, so the outer cells go wrong by one more ring each generation: after
// k <= 16 generations the 128 middle columns and the rows k .. 511 - k are still exact, and the warp
// writes those. Tiles overlap by 2k rows and 32 columns.
//
// The count is bit-sliced (a lane of each 32-bit word is a cell): each row's three-cell sums, with
// and without the middle cell, are computed once and used by the rows above and below. Conway's rule
// then takes 12 logic instructions per 32 cells per generation (two shifts, ten three-input LOP3s):
//   row:      w, e = the row shifted a column each way; s = w + c + e (2 bits), d = w + e (2 bits)
//   neighbours N = s(above) + s(below) + d(here):  n0 = a0^b0^d0, k0 = maj(a0, b0, d0),
//             x = a1^b1^d1, m = maj(a1, b1, d1);  N = n0 + 2 (k0 + x) + 4 m
//   B3/S23:   alive next iff (N | cell) == 3, i.e. (n0 | cell) & (x ^ k0) & ~m
// Other rules take the full count (0..8) and a multiplexer tree over the rule's bits, as the bit-packed
// rung does.
//
// Memory: a lane's 16 rows are 16 different rows of the grid, so loads and stores by lane would touch
// 32 rows (32 cache lines) a warp instruction, and the L1 would spend most of a pass on them (measured
// on an H100: 0.6 ms a pass at 32768², at any k, against 0.09 ms for a plain copy of the grid). So a
// block holds up to four tiles side by side and stages their rows in shared memory: a warp instruction
// reads or writes whole row segments of the block (coalesced), and each lane takes its window from
// shared memory (an extra word every 16 rows keeps the 32 lanes' rows in 32 banks). That needs rows of
// whole 128-column tiles (W a multiple of 128); other widths gather each lane's window themselves.
//
// Measured on an H100 (1.98 GHz) at 32768², Conway, blocks of 64: `gpulab bench` 2.49e13 cell updates/s
// at k = 16 (its calls of ~87 generations end with a short pass; back-to-back 16-generation passes give
// 2.60e13), against 9.9e12 for gpu-bitpacked and 1.17e13 for a copy of the packed grid (the bound of one
// generation a pass). Nsight Compute on a 16-generation pass: the ALU pipe 91% busy, issue 53%: the
// logic instructions are the limit (10 LOP3 + 2 funnel shifts a word and generation, 834 LOP3 and 181
// SHF in the Conway kernel's SASS). A pass also has a fixed cost of ~0.2 ms (loads, stores, the
// barriers), which is why k = 1 runs at 4.6e12. Tried and not kept (whole passes, same H100): 20 rows
// a lane (2.58e13), the shifts as IMAD on the FMA pipe (2.59e13), blocks of 32 or 128 threads (2.47e13,
// 2.38e13), unstaged per-lane loads (1.55e13); before the explicit LOP3s, 6..9 words a lane took 255
// registers and ran slower than 5 (1.2e13..1.3e13 against 1.9e13).
//
// The torus: a tile's rows and columns are read modulo H and W, so a window may wrap any number of
// times. The tile then holds a piece of the periodic plane the torus unrolls to, whose evolution is
// the torus': every size works with every k, a grid narrower or lower than the tile included (no
// smaller k is needed for small grids). When W is a multiple of 32 a window word is one aligned word;
// otherwise it is gathered from the two words around it (and from the row's start across the seam).
#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "life/life_cuda_internal.cuh"

namespace gpulab::life::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

// The tile's shape: rows a lane holds, and 32-bit words a lane holds of each row (a 16-column halo each
// side, so kWindowWords - 1 words written). The kernel takes any shape; this is the one the engine runs.
constexpr int kLaneRows = 16;
constexpr int kWindowWords = 5;
constexpr int kTileRows = 32 * kLaneRows;    // rows a warp holds
constexpr int kOutWords = kWindowWords - 1;  // words a lane writes of each row (128 columns)
static_assert(kMaxGenerationsPerPass <= 16, "the window's halo is 16 columns");
static_assert(2 * kMaxGenerationsPerPass < kTileRows, "a tile must keep rows to write");
constexpr int kMaxBlock = 128;  // threads: up to 4 tiles side by side a block

// The rule's truth table as masks, by state and neighbour count (0..8): all ones where the cell lives on.
struct RuleMasks {
  uint32_t leaf[2][9];
};

RuleMasks make_rule_masks(const Rule& rule) {
  RuleMasks m{};
  for (int n = 0; n <= 8; ++n) {
    m.leaf[0][n] = (rule.birth >> n) & 1u ? ~0u : 0u;
    m.leaf[1][n] = (rule.survive >> n) & 1u ? ~0u : 0u;
  }
  return m;
}

bool is_conway(const Rule& rule) { return rule == Rule::conway(); }

// One three-input logic instruction (LOP3) with truth table kLut: bit 4a + 2b + c of kLut is the
// result for input bits a, b, c (so a = 0xF0, b = 0xCC, c = 0xAA give kLut back). Written out so that
// each step of the count below is one instruction: left to itself the compiler shares two-input
// pieces between the sum and the carry and ends with about 14 a word instead of 10 (SASS, sm_90).
template <unsigned kLut>
__device__ __forceinline__ uint32_t lop3(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(kLut));
  return d;
#else
  uint32_t d = 0;
  for (unsigned i = 0; i < 8; ++i)
    if ((kLut >> i) & 1u) d |= ((i & 4u) ? a : ~a) & ((i & 2u) ? b : ~b) & ((i & 1u) ? c : ~c);
  return d;
#endif
}
constexpr unsigned kXor3 = 0x96;                  // a ^ b ^ c
constexpr unsigned kMaj = 0xE8;                   // at least two of a, b, c
constexpr unsigned kXorAC = 0x5A, kAndAC = 0xA0;  // a ^ c, a & c
constexpr unsigned kOneCarry = 0x14;              // (a ^ b) & ~c
constexpr unsigned kOrAnd = 0xA8;                 // (a | b) & c

__device__ __forceinline__ uint32_t mux(uint32_t s, uint32_t if_set, uint32_t if_clear) {
  return (s & if_set) | (~s & if_clear);
}

// A row's sums: s = west + cell + east, d = west + east, each as two bit planes.
struct RowSums {
  uint32_t s0, s1, d0, d1;
};

// The row sums of window word j of `row` (the words beside it give its outer columns; the window's
// own edge words take zeros there, which only touches halo columns).
template <bool kWithD, int kWords>
__device__ __forceinline__ RowSums row_sums(const uint32_t (&row)[kWords], int j) {
  const uint32_t c = row[j];
  // Bit b is column b of the word: west of bit b is bit b - 1, east is bit b + 1.
  const uint32_t w = j > 0 ? __funnelshift_l(row[j - 1], c, 1) : c << 1;
  const uint32_t e = j < kWords - 1 ? __funnelshift_r(c, row[j + 1], 1) : c >> 1;
  RowSums r;
  r.s0 = lop3<kXor3>(w, c, e);
  r.s1 = lop3<kMaj>(w, c, e);
  if (kWithD) {
    r.d0 = lop3<kXorAC>(w, c, e);
    r.d1 = lop3<kAndAC>(w, c, e);
  }
  return r;
}

// The next state of 32 cells from the sums of the rows above (a) and below (b), the middle row's d
// and the cells themselves.
template <bool kConway>
__device__ __forceinline__ uint32_t next_cells(const RowSums& a, const RowSums& b, const RowSums& here,
                                               uint32_t cell, const RuleMasks& rule) {
  const uint32_t n0 = lop3<kXor3>(a.s0, b.s0, here.d0), k0 = lop3<kMaj>(a.s0, b.s0, here.d0);
  const uint32_t x = lop3<kXor3>(a.s1, b.s1, here.d1), m = lop3<kMaj>(a.s1, b.s1, here.d1);
  if constexpr (kConway) {
    return lop3<kOrAnd>(n0, cell, lop3<kOneCarry>(x, k0, m));
  } else {
    // N = n0 + 2 n1 + 4 n2 + 8 n3 from n0 + 2 (k0 + x) + 4 m.
    const uint32_t n1 = x ^ k0, c1 = x & k0;
    const uint32_t n2 = m ^ c1, n3 = m & c1;  // n3: N = 8, and then n2 = n1 = n0 = 0
    uint32_t by_state[2];
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      const uint32_t* l = rule.leaf[s];
      const uint32_t t01 = mux(n0, l[1], l[0]), t23 = mux(n0, l[3], l[2]);
      const uint32_t t45 = mux(n0, l[5], l[4]), t67 = mux(n0, l[7], l[6]);
      const uint32_t low = mux(n2, mux(n1, t67, t45), mux(n1, t23, t01));
      by_state[s] = mux(n3, l[8], low);
    }
    return mux(cell, by_state[1], by_state[0]);
  }
}

// 32 cells of a row starting at column c (any integer; taken modulo the width), bit b = column c + b.
// For widths that are not a multiple of 32; the bits past the last column of a row are zero.
__device__ uint32_t gather32(const uint32_t* __restrict__ row, int width, int c) {
  c %= width;
  if (c < 0) c += width;
  // Bits c .. c + n - 1 (c + n <= width, 1 <= n <= 32), in the low bits.
  auto take = [row, width](int from, int n) {
    const int i = from >> 5, s = from & 31;
    const uint32_t lo = __ldg(row + i);
    const uint32_t hi = s != 0 && 32 * (i + 1) < width ? __ldg(row + i + 1) : 0u;
    const uint32_t v = __funnelshift_r(lo, hi, s);
    return n == 32 ? v : v & ((1u << n) - 1u);
  };
  if (width >= 32) {
    if (c + 32 <= width) return take(c, 32);
    const int n = width - c;  // 1..31 bits before the seam, the rest from column 0
    return take(c, n) | (take(0, 32 - n) << n);
  }
  // A row narrower than a word: it repeats within the word.
  uint32_t v = 0;
  for (int b = 0; b < 32; ++b) {
    v |= ((__ldg(row + (c >> 5)) >> (c & 31)) & 1u) << b;
    c = c + 1 == width ? 0 : c + 1;
  }
  return v;
}

// snippet life_gpu_bit_multistep
// A block holds blockDim / 32 tiles side by side. kStaged (W a multiple of 128): the block reads its
// rows once, coalesced, into shared memory, and each lane takes its window from there; the lanes'
// output goes back the same way. Otherwise each lane gathers its own window (any W).
template <int kRows, int kWords, bool kStaged, bool kConway>
__global__ void __launch_bounds__(kMaxBlock)
    step_multistep(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int width, int height,
                   int row_words, int tiles_x, int block_cols, int generations, RuleMasks rule) {
  constexpr int kTile = 32 * kRows, kOut = kWords - 1;  // rows a warp holds, words a lane writes
  extern __shared__ uint32_t stage[];
  const int lane = static_cast<int>(threadIdx.x & 31), warp = static_cast<int>(threadIdx.x >> 5);
  const int warps = static_cast<int>(blockDim.x >> 5);
  const int bx = static_cast<int>(blockIdx.x % static_cast<unsigned>(block_cols));
  const int ty = static_cast<int>(blockIdx.x / static_cast<unsigned>(block_cols));
  const int tx = bx * warps + warp;  // this warp's tile column (past the row: no output)
  const int out_rows = kTile - 2 * generations;
  const int y_first = ty * out_rows - generations;  // the tile's first row (before the wrap)
  const int word0 = tx * kOut;                      // the first word (32 columns) the warp writes
  if (!kStaged && tx >= tiles_x) return;            // whole warps; the staged path needs them at its barriers
  // Stage row t, aligned word c (c = 0: the block's west halo word) at t * sw + t / 16 + c: the extra
  // word every 16 rows puts the 32 lanes' rows in 32 different banks.
  const int sw = warps * kOut + 2;
  auto at = [sw](int t, int c) { return t * sw + (t >> 4) + c; };

  uint32_t cell[kRows][kWords];
  if constexpr (kStaged) {
    // Load: each warp instruction reads whole row segments of the block (32 / sw rows at a time).
    const int words = row_words;  // W % 128 = 0: no padding word
    const int per = 32 / sw, lr = lane / sw, lc = lane % sw;
    if (lr < per) {
      int gw = (bx * warps * kOut - 1 + lc) % words;
      if (gw < 0) gw += words;
      const int step = warps * per, ystep = step % height;
      int t = warp * per + lr;
      int y = (y_first + t) % height;
      if (y < 0) y += height;
      // Eight loads in flight before their stores: a loop of one load and one store a turn waits a
      // whole memory latency a row.
      constexpr int kBatch = 8;
      for (; t < kTile; t += kBatch * step) {
        uint32_t v[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
          if (t + b * step < kTile) v[b] = __ldg(in + static_cast<size_t>(y) * row_words + gw);
          y += ystep;
          if (y >= height) y -= height;
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b)
          if (t + b * step < kTile) stage[at(t + b * step, lc)] = v[b];
      }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const int base = at(kRows * lane + r, warp * kOut);
      uint32_t v[kWords + 1];
#pragma unroll
      for (int i = 0; i <= kWords; ++i) v[i] = stage[base + i];
#pragma unroll
      for (int j = 0; j < kWords; ++j) cell[r][j] = __byte_perm(v[j], v[j + 1], 0x5432);
    }
    __syncthreads();  // every window is read: the stage takes the output next
  } else {
    // The lane's first row, modulo H (which may be smaller than the tile).
    int y = (y_first + kRows * lane) % height;
    if (y < 0) y += height;
      // Window word j holds columns 32 (word0 - 1) + 16 + 32 j .. + 31: the upper half of one 32-column
      // run and the lower half of the next (a byte permute).
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const uint32_t* row = in + static_cast<size_t>(y) * row_words;
      uint32_t v[kWords + 1];
#pragma unroll
      for (int i = 0; i <= kWords; ++i) v[i] = gather32(row, width, 32 * (word0 - 1 + i));
#pragma unroll
      for (int j = 0; j < kWords; ++j) cell[r][j] = __byte_perm(v[j], v[j + 1], 0x5432);
      y = y + 1 == height ? 0 : y + 1;
    }
  }

  for (int g = 0; g < generations; ++g) {
    // The rows just above and below the lane's 16 (lane 0's and lane 31's are halo: any value will do).
    uint32_t up[kWords], down[kWords];
#pragma unroll
    for (int j = 0; j < kWords; ++j) {
      up[j] = __shfl_up_sync(0xFFFFFFFFu, cell[kRows - 1][j], 1);
      down[j] = __shfl_down_sync(0xFFFFFFFFu, cell[0][j], 1);
    }
    RowSums above[kWords], here[kWords];
#pragma unroll
    for (int j = 0; j < kWords; ++j) {
      above[j] = row_sums<false, kWords>(up, j);
      here[j] = row_sums<true, kWords>(cell[0], j);
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      RowSums below[kWords];
#pragma unroll
      for (int j = 0; j < kWords; ++j)
        below[j] = r + 1 < kRows ? row_sums<true, kWords>(cell[r + 1], j) : row_sums<false, kWords>(down, j);
        // Row r's sums are taken: its cells may be replaced by the next generation's.
#pragma unroll
      for (int j = 0; j < kWords; ++j) {
        cell[r][j] = next_cells<kConway>(above[j], below[j], here[j], cell[r][j], rule);
        above[j] = here[j];
        here[j] = below[j];
      }
    }
  }

  // Store the exact part: tile rows generations .. kTile - 1 - generations, the kOut middle words.
  if constexpr (kStaged) {
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const int base = at(kRows * lane + r, 1 + warp * kOut);
#pragma unroll
      for (int i = 0; i < kOut; ++i) stage[base + i] = __byte_perm(cell[r][i], cell[r][i + 1], 0x5432);
    }
    __syncthreads();
    // Each warp instruction writes whole row segments of the block's output (coalesced).
    const int so = warps * kOut, per = 32 / so, lr = lane / so, lc = lane % so;
    const int gw = bx * warps * kOut + lc;
    if (lr < per && gw < row_words) {
      for (int t = generations + warp * per + lr; t < kTile - generations; t += warps * per) {
        const int y = y_first + t;
        if (y >= height) break;
        out[static_cast<size_t>(y) * row_words + gw] = stage[at(t, 1 + lc)];
      }
    }
  } else {
    // Words past the last column are written as zeros (the layout's padding), words past the row
    // not at all.
    int y = y_first + kRows * lane;
#pragma unroll
    for (int r = 0; r < kRows; ++r, ++y) {
      const int t = kRows * lane + r;
      if (t < generations || t >= kTile - generations || y >= height) continue;
      uint32_t* row = out + static_cast<size_t>(y) * row_words;
#pragma unroll
      for (int i = 0; i < kOut; ++i) {
        const int w = word0 + i;
        if (w >= row_words) break;
        uint32_t v = __byte_perm(cell[r][i], cell[r][i + 1], 0x5432);
        const int valid = width - 32 * w;
        if (valid < 32) v = valid <= 0 ? 0u : v & ((1u << valid) - 1u);
        row[w] = v;
      }
    }
  }
}
// end snippet

using MultistepKernel = void (*)(const uint32_t*, uint32_t*, int, int, int, int, int, int, RuleMasks);

// The staged kernel takes rows of whole 128-column tiles: W a multiple of 128 (and so no padding word).
bool staged(int width) { return width % (32 * kOutWords) == 0; }

MultistepKernel multistep_kernel_for(int width, const Rule& rule) {
  constexpr int R = kLaneRows, W = kWindowWords;
  const bool conway = is_conway(rule);
  if (staged(width)) return conway ? &step_multistep<R, W, true, true> : &step_multistep<R, W, true, false>;
  return conway ? &step_multistep<R, W, false, true> : &step_multistep<R, W, false, false>;
}

// The staged kernel's shared memory: the block's tile rows of (warps * 4 + 2) words, one word more
// every 16 rows.
size_t stage_bytes(int block_threads) {
  const int sw = block_threads / 32 * kOutWords + 2;
  return (static_cast<size_t>(kTileRows) * sw + kTileRows / 16) * sizeof(uint32_t);
}
static_assert((kMaxBlock / 32) * kOutWords + 2 <= 32, "a warp instruction must cover a staged row");

}  // namespace

int multistep_tile_rows(int generations) { return kTileRows - 2 * generations; }

void launch_multistep(const PackedGrid& in, uint64_t* out, int block_threads, int generations,
                      const Rule& rule, cudaStream_t stream) {
  if (generations < 1 || generations > kMaxGenerationsPerPass)
    throw std::invalid_argument("launch_multistep: " + std::to_string(generations) +
                                " generations a pass (allowed: 1.." + std::to_string(kMaxGenerationsPerPass) +
                                ")");
  if (block_threads < 32 || block_threads > kMaxBlock || block_threads % 32 != 0)
    throw std::invalid_argument("launch_multistep: blocks of 32.." + std::to_string(kMaxBlock) +
                                " threads in whole warps, got " + std::to_string(block_threads));
  const int row_words = 2 * in.words_per_row;  // 32-bit words a row, the padding word included
  const int tiles_x = static_cast<int>(ceil_div(row_words, kOutWords));
  const int tiles_y = static_cast<int>(ceil_div(in.height, multistep_tile_rows(generations)));
  const int block_cols = static_cast<int>(ceil_div(tiles_x, block_threads / 32));
  const size_t smem = staged(in.width) ? stage_bytes(block_threads) : 0;
  multistep_kernel_for(in.width, rule)<<<static_cast<unsigned>(block_cols) * static_cast<unsigned>(tiles_y),
                                         block_threads, smem, stream>>>(
      reinterpret_cast<const uint32_t*>(in.words), reinterpret_cast<uint32_t*>(out), in.width, in.height,
      row_words, tiles_x, block_cols, generations, make_rule_masks(rule));
  CUDA_CHECK_LAUNCH("step_multistep");
}

KernelInfo multistep_kernel_info(int block_threads, int width, const Rule& rule) {
  KernelInfo k;
  const bool conway = is_conway(rule);
  // Static text: KernelInfo keeps a view.
  static constexpr std::string_view kNames[2][2] = {
      {"step_multistep<any W, any rule>", "step_multistep<any W, B3/S23>"},
      {"step_multistep<W % 128 = 0, staged, any rule>", "step_multistep<W % 128 = 0, staged, B3/S23>"}};
  k.name = kNames[staged(width)][conway];
  k.func = reinterpret_cast<const void*>(multistep_kernel_for(width, rule));
  k.block_threads = block_threads;
  if (staged(width)) {
    k.dynamic_smem = stage_bytes(block_threads);
    k.dynamic_smem_for = &stage_bytes;
  }
  return k;
}

}  // namespace gpulab::life::cuda_detail

// gpu-bitpacked: one bit a cell, 64 cells a 64-bit word, and the conversions to and from the byte layout.
//
// Lesson: memory traffic sets the speed of Life, and one bit a cell moves 8x fewer bytes than one byte
// a cell. With cells as bits, one 64-bit logic instruction works on 64 cells: the eight neighbour
// words are the row above, the row itself and the row below, each shifted one column west and east,
// and bit-sliced full adders (xor for the sum bit, majority for the carry) add them per bit lane. The
// B/S rule then is a boolean function of the 4-bit count and the cell, evaluated as a tree of
// multiplexers whose leaves are the rule's bits (all-zero or all-one masks), so any rule runs with no
// branch. The UI's named rules are also compiled in as constants, and the compiler folds the tree to
// the handful of logic operations each needs (the bench: ~9.4e12 cells/s for Conway against ~8e12 for
// the generic tree at 32768² on an H100).
//
// Each thread owns one word column and walks down a strip of rows: the sum of three horizontal
// neighbours of a row (2 bits a lane) is computed once and used by the three output rows around it,
// and the row after next is already being loaded while one is computed.
// The torus wraps in both directions with no ghost cells: rows by wrapped indices; columns through
// the neighbouring words' edge bits, with the row's first and last words special when W is not a
// multiple of 64 (the last word holds r = W - 64 (nw - 1) valid bits, the rest kept zero).
#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "life/life_cuda_internal.cuh"

namespace gpulab::life::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

// The rule's truth table as masks: leaf[a][t] is all ones when a cell in state a whose nine-cell sum
// (itself included) is t lives on: dead -> birth bit t, alive -> survive bit t - 1. 32-bit masks applied
// to each half of a word: half as many registers as 64-bit ones.
struct PackedRule {
  uint32_t leaf[2][10];
};

__host__ __device__ constexpr uint32_t leaf_mask(uint32_t birth, uint32_t survive, int alive, int t) {
  return alive ? (t >= 1 && ((survive >> (t - 1)) & 1u) ? ~0u : 0u)
               : (t <= 8 && ((birth >> t) & 1u) ? ~0u : 0u);
}

PackedRule make_packed_rule(const Rule& rule) {
  PackedRule r{};
  for (int a = 0; a < 2; ++a)
    for (int t = 0; t <= 9; ++t) r.leaf[a][t] = leaf_mask(rule.birth, rule.survive, a, t);
  return r;
}

// The named rules of the UI, compiled in as constants: the compiler folds the multiplexer tree to the
// few logic operations the rule needs (Conway: about 3 instead of 19). kGenericRule reads the leaves
// from the kernel's parameters and runs any rule.
constexpr int kGenericRule = -1;
struct NamedMasks {
  uint32_t birth, survive;
};
constexpr NamedMasks kCompiledRules[] = {
    {1u << 3, (1u << 2) | (1u << 3)},                // B3/S23
    {(1u << 3) | (1u << 6), (1u << 2) | (1u << 3)},  // B36/S23
    {(1u << 3) | (1u << 6) | (1u << 7) | (1u << 8),
     (1u << 3) | (1u << 4) | (1u << 6) | (1u << 7) | (1u << 8)},  // B3678/S34678
    {1u << 2, 0u},                                                // B2/S
};
constexpr int kCompiledRuleCount = sizeof(kCompiledRules) / sizeof(kCompiledRules[0]);

int compiled_rule_index(const Rule& rule) {
  for (int i = 0; i < kCompiledRuleCount; ++i)
    if (rule.birth == kCompiledRules[i].birth && rule.survive == kCompiledRules[i].survive) return i;
  return kGenericRule;
}

template <int kRule>
__device__ __forceinline__ uint32_t leaf(const PackedRule& rule, int alive, int t) {
  if constexpr (kRule == kGenericRule)
    return rule.leaf[alive][t];
  else
    return leaf_mask(kCompiledRules[kRule].birth, kCompiledRules[kRule].survive, alive, t);
}

__device__ __forceinline__ uint32_t mux(uint32_t s, uint32_t if_set, uint32_t if_clear) {
  return (s & if_set) | (~s & if_clear);
}
__device__ __forceinline__ uint64_t majority(uint64_t a, uint64_t b, uint64_t c) {
  return (a & b) | (a & c) | (b & c);
}

// Next state of 32 cells: a = the cells, z3..z0 = their nine-cell sums (0..9) as bit planes.
template <int kRule>
__device__ __forceinline__ uint32_t apply_rule(const PackedRule& rule, uint32_t a, uint32_t z3, uint32_t z2,
                                               uint32_t z1, uint32_t z0) {
  uint32_t by_state[2];
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    // t = 0..7 (z3 = 0): a three-level tree over z0, z1, z2.
    const uint32_t t01 = mux(z0, leaf<kRule>(rule, s, 1), leaf<kRule>(rule, s, 0));
    const uint32_t t23 = mux(z0, leaf<kRule>(rule, s, 3), leaf<kRule>(rule, s, 2));
    const uint32_t t45 = mux(z0, leaf<kRule>(rule, s, 5), leaf<kRule>(rule, s, 4));
    const uint32_t t67 = mux(z0, leaf<kRule>(rule, s, 7), leaf<kRule>(rule, s, 6));
    const uint32_t low = mux(z2, mux(z1, t67, t45), mux(z1, t23, t01));
    // t = 8, 9 (z3 = 1, and then z2 = z1 = 0).
    const uint32_t high = mux(z0, leaf<kRule>(rule, s, 9), leaf<kRule>(rule, s, 8));
    by_state[s] = mux(z3, high, low);
  }
  return mux(a, by_state[1], by_state[0]);
}

template <int kRule>
__device__ __forceinline__ uint64_t apply_rule64(const PackedRule& rule, uint64_t a, uint64_t z3, uint64_t z2,
                                                 uint64_t z1, uint64_t z0) {
  auto lo = [](uint64_t v) { return static_cast<uint32_t>(v); };
  auto hi = [](uint64_t v) { return static_cast<uint32_t>(v >> 32); };
  const uint32_t l = apply_rule<kRule>(rule, lo(a), lo(z3), lo(z2), lo(z1), lo(z0));
  const uint32_t h = apply_rule<kRule>(rule, hi(a), hi(z3), hi(z2), hi(z1), hi(z0));
  return (static_cast<uint64_t>(h) << 32) | l;
}

// A row's three words around column word k: west neighbour, own, east neighbour (wrapped).
struct RowWords {
  uint64_t w, c, e;
};

__device__ __forceinline__ RowWords load_words(const uint64_t* __restrict__ row, int k, int k_west,
                                               int k_east) {
  return RowWords{__ldg(row + k_west), __ldg(row + k), __ldg(row + k_east)};
}

// Bit-sliced sum of a row's cells with their west and east neighbours (0..3 per lane, 2 bit planes).
template <bool kEdge>
__device__ __forceinline__ void row_sum(RowWords r, bool first_word, bool last_word, int valid_bits,
                                        uint64_t& s0, uint64_t& s1) {
  uint64_t c_ext = r.c;
  if (kEdge) {
    // Only when W % 64 != 0, so 1 <= valid_bits <= 63.
    // Word 0's west neighbour of column 0 is column W - 1, bit valid_bits - 1 of the last word: move it
    // to bit 63, where the generic shift below takes the carry from.
    if (first_word) r.w <<= 64 - valid_bits;
    // The last word's east neighbour of column W - 1 is column 0: continue the word past its valid
    // bits with the first word, so that the generic shift brings column 0 to bit valid_bits - 1.
    if (last_word) c_ext = r.c | (r.e << valid_bits);
  }
  const uint64_t west = (r.c << 1) | (r.w >> 63);    // bit b <- column 64k + b - 1
  const uint64_t east = (c_ext >> 1) | (r.e << 63);  // bit b <- column 64k + b + 1
  s0 = west ^ r.c ^ east;
  s1 = majority(west, r.c, east);
}

template <bool kEdge, int kRule>
__device__ __forceinline__ void walk_strip(const uint64_t* __restrict__ in, uint64_t* __restrict__ out,
                                           int nw, int height, int k, int y_begin, int y_end, int valid_bits,
                                           const PackedRule& rule) {
  const int k_west = k == 0 ? nw - 1 : k - 1;
  const int k_east = k == nw - 1 ? 0 : k + 1;
  const bool first_word = k == 0, last_word = k == nw - 1;
  // Unused high bits of the last word must stay zero (kEdge is set whenever there are any).
  const uint64_t keep = kEdge && last_word ? (1ull << valid_bits) - 1 : ~0ull;
  auto row_ptr = [&](int y) { return in + static_cast<size_t>(y) * nw; };
  auto wrap = [height](int y) { return y >= height ? y - height : y; };

  uint64_t a0, a1, b0, b1;
  const int y_above = y_begin == 0 ? height - 1 : y_begin - 1;
  RowWords above = load_words(row_ptr(y_above), k, k_west, k_east);
  const RowWords here = load_words(row_ptr(y_begin), k, k_west, k_east);
  RowWords below = load_words(row_ptr(wrap(y_begin + 1)), k, k_west, k_east);
  row_sum<kEdge>(above, first_word, last_word, valid_bits, a0, a1);
  row_sum<kEdge>(here, first_word, last_word, valid_bits, b0, b1);
  uint64_t b_cells = here.c;
  for (int y = y_begin; y < y_end; ++y) {
    // Software pipelining: the row after next is in flight while this one is computed.
    RowWords next = below;
    if (y + 1 < y_end) next = load_words(row_ptr(wrap(y + 2)), k, k_west, k_east);
    uint64_t c0, c1;
    row_sum<kEdge>(below, first_word, last_word, valid_bits, c0, c1);
    // (a1 a0) + (b1 b0) + (c1 c0) = z3 z2 z1 z0: full adders on the 1s, then the 2s with the carry.
    const uint64_t z0 = a0 ^ b0 ^ c0, carry0 = majority(a0, b0, c0);
    const uint64_t p = a1 ^ b1 ^ c1, q = majority(a1, b1, c1);  // weight 2, weight 4
    const uint64_t z1 = p ^ carry0, r = p & carry0;             // weight 2, weight 4
    const uint64_t z2 = q ^ r, z3 = q & r;
    out[static_cast<size_t>(y) * nw + k] = apply_rule64<kRule>(rule, b_cells, z3, z2, z1, z0) & keep;
    a0 = b0;
    a1 = b1;
    b0 = c0;
    b1 = c1;
    b_cells = below.c;
    below = next;
  }
}

// snippet life_gpu_bitpacked
template <int kRule>
__global__ void __launch_bounds__(1024)
    step_bitpacked(const uint64_t* __restrict__ in, uint64_t* __restrict__ out, int nw, int height,
                   int strips, int rows_per_strip, int valid_bits, PackedRule rule) {
  // nw * strips <= 1024 * 65536 < 2^31.
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= static_cast<unsigned>(nw) * static_cast<unsigned>(strips)) return;
  // Consecutive threads take consecutive words of a row, so a warp's loads and stores are coalesced.
  const int k = static_cast<int>(t % static_cast<unsigned>(nw));
  const int strip = static_cast<int>(t / static_cast<unsigned>(nw));
  const int y_begin = strip * rows_per_strip;
  const int y_end = min(y_begin + rows_per_strip, height);
  // Only the first and last word of a row need the partial-word wrap; the rest of the warp takes the
  // lean path (a warp holding an edge word runs both, which costs little: one warp in nw / 32).
  if (valid_bits < 64 && (k == 0 || k == nw - 1))
    walk_strip<true, kRule>(in, out, nw, height, k, y_begin, y_end, valid_bits, rule);
  else
    walk_strip<false, kRule>(in, out, nw, height, k, y_begin, y_end, valid_bits, rule);
}
// end snippet

using StepKernel = void (*)(const uint64_t*, uint64_t*, int, int, int, int, int, PackedRule);
StepKernel step_kernel_for(int compiled_rule) {
  switch (compiled_rule) {
    case 0:
      return &step_bitpacked<0>;
    case 1:
      return &step_bitpacked<1>;
    case 2:
      return &step_bitpacked<2>;
    case 3:
      return &step_bitpacked<3>;
    default:
      return &step_bitpacked<kGenericRule>;
  }
}
static_assert(kCompiledRuleCount == 4, "step_kernel_for lists one instantiation per compiled rule");

// Bytes -> bits: a warp's ballot over 32 consecutive cells is one half of a word (little-endian).
__global__ void pack_cells(const uint8_t* __restrict__ cells, size_t pitch, int width, int height,
                           uint32_t* __restrict__ halves, int nw) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int half_words = 2 * nw;
  for (int y = blockIdx.y; y < height; y += gridDim.y) {
    const uint8_t c = x < width ? cells[(static_cast<size_t>(y) + 1) * pitch + x + 1] : 0;
    const unsigned bits = __ballot_sync(0xFFFFFFFFu, c != 0);
    if ((threadIdx.x & 31) == 0 && x / 32 < half_words)
      halves[static_cast<size_t>(y) * half_words + x / 32] = bits;
  }
}

__global__ void unpack_cells(const uint64_t* __restrict__ words, int nw, int width, int height,
                             uint8_t* __restrict__ cells, size_t pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  for (int y = blockIdx.y; y < height; y += gridDim.y)
    cells[(static_cast<size_t>(y) + 1) * pitch + x + 1] =
        static_cast<uint8_t>((words[static_cast<size_t>(y) * nw + (x >> 6)] >> (x & 63)) & 1u);
}

// Measured on an H100 at 32768² (Conway, run-time override through strip_tuning): 4 rows a thread
// 9.4e12 cells/s, 8 rows 9.3e12, 16 rows 8.5e12, 32 or 64 rows 8.1e12. Short strips mean more threads
// and more loads in flight; the rows they read twice mostly hit L2.
constexpr int kMaxRowsPerStrip = 4;
constexpr int kConvertBlock = 256;

unsigned grid_rows(int height) {
  return height < static_cast<int>(gpulab::cuda::kMaxGridY) ? static_cast<unsigned>(height)
                                                            : gpulab::cuda::kMaxGridY;
}

}  // namespace

void launch_packed_step(const PackedGrid& in, uint64_t* out, int block_threads, int sm_count,
                        const Rule& rule, cudaStream_t stream) {
  const int nw = in.words_per_row;
  const long long wanted_threads = 2048ll * (sm_count > 0 ? sm_count : 1);
  long long rows = static_cast<long long>(nw) * in.height / wanted_threads;
  if (rows < 1) rows = 1;
  if (rows > kMaxRowsPerStrip) rows = kMaxRowsPerStrip;
  if (strip_tuning().packed_rows > 0) rows = strip_tuning().packed_rows;
  const int rows_per_strip = static_cast<int>(rows);
  const int strips = static_cast<int>(ceil_div(in.height, rows_per_strip));
  const long long threads = static_cast<long long>(nw) * strips;
  const int valid_bits = in.width - 64 * (nw - 1);
  const int compiled = strip_tuning().packed_generic_rule ? kGenericRule : compiled_rule_index(rule);
  step_kernel_for(
      compiled)<<<static_cast<unsigned>(ceil_div(threads, block_threads)), block_threads, 0, stream>>>(
      in.words, out, nw, in.height, strips, rows_per_strip, valid_bits, make_packed_rule(rule));
  CUDA_CHECK_LAUNCH("step_bitpacked");
}

KernelInfo packed_kernel_info(int block_threads, const Rule& rule) {
  KernelInfo k;
  const int compiled = compiled_rule_index(rule);
  k.name = compiled == kGenericRule ? "step_bitpacked<generic rule>" : "step_bitpacked<compiled rule>";
  k.func = reinterpret_cast<const void*>(step_kernel_for(compiled));
  k.block_threads = block_threads;
  return k;
}

void launch_pack(const ByteGrid& from, const PackedGrid& to, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(ceil_div(64ll * to.words_per_row, kConvertBlock)),
                  grid_rows(from.height));
  pack_cells<<<grid, kConvertBlock, 0, stream>>>(from.cells, from.pitch, from.width, from.height,
                                                 reinterpret_cast<uint32_t*>(to.words), to.words_per_row);
  CUDA_CHECK_LAUNCH("pack_cells");
}

void launch_unpack(const PackedGrid& from, const ByteGrid& to, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(ceil_div(from.width, kConvertBlock)), grid_rows(from.height));
  unpack_cells<<<grid, kConvertBlock, 0, stream>>>(from.words, from.words_per_row, from.width, from.height,
                                                   to.cells, to.pitch);
  CUDA_CHECK_LAUNCH("unpack_cells");
}

}  // namespace gpulab::life::cuda_detail

// gpu-swar: the byte layout at close to its bandwidth bound, by SIMD within a register.
//
// Lesson: one byte read and one written per cell is all the byte layout needs; the lecture's kernels
// spend nine loads and a branch per cell. Here each thread owns a 16-byte aligned chunk of a row (one
// uint4 load, 16 cells) and walks down a strip of rows, keeping three rows in registers (and a fourth
// in flight) so every row is loaded once per strip. Cells hold 0 or 1, so byte-wise sums of up to
// nine cells fit a byte and plain 32-bit adds add four cells at once without carries crossing into
// the next byte. Neighbours
// left and right of a chunk come from the last word of the chunk before and the first word of the
// chunk after (4-byte loads that hit L1: the neighbouring threads just loaded those lines).
// The rule is a table lookup per byte: PRMT (__byte_perm) picks 4 table bytes at once.
//
// Output bytes in the ghost columns and the row padding are garbage but always 0 or 1: the ghost
// kernels overwrite the ghost columns before the next generation, and 0/1 padding keeps every sum
// carry-free.
#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "life/life_cuda_internal.cuh"

namespace gpulab::life::cuda_detail {
namespace {

using gpulab::cuda::ceil_div;

constexpr uint32_t kOnes = 0x01010101u;

// The rule as a byte table for PRMT. t = the nine-cell sum (self included, 0..9), a = the cell.
// Entry h = t >> 1 (0..4) holds four bits: bit 0 birth[2h], bit 1 birth[2h+1] (a dead cell: n = t),
// bit 2 survive[2h-1], bit 3 survive[2h] (a live cell: n = t - 1). Entries 5..7 are never indexed.
struct SwarRule {
  uint32_t lo;  // entries 0..3
  uint32_t hi;  // entries 4..7
};

SwarRule make_swar_rule(const Rule& rule) {
  auto bit = [](uint32_t mask, int n) -> uint32_t { return n >= 0 && n <= 8 ? (mask >> n) & 1u : 0u; };
  uint32_t entry[8] = {};
  for (int h = 0; h <= 4; ++h)
    entry[h] = bit(rule.birth, 2 * h) | bit(rule.birth, 2 * h + 1) << 1 | bit(rule.survive, 2 * h - 1) << 2 |
               bit(rule.survive, 2 * h) << 3;
  SwarRule r;
  r.lo = entry[0] | entry[1] << 8 | entry[2] << 16 | entry[3] << 24;
  r.hi = entry[4] | entry[5] << 8 | entry[6] << 16 | entry[7] << 24;
  return r;
}

// Next state of four cells: `t` their nine-cell sums, `a` their states (bytes 0/1).
__device__ __forceinline__ uint32_t apply_rule(uint32_t t, uint32_t a, SwarRule rule) {
  const uint32_t h = (t >> 1) & 0x07070707u;  // table entry per byte, 0..4
  const uint32_t t0 = t & kOnes;
  // Four 3-bit entry numbers into the low nibbles of a PRMT selector.
  const uint32_t nib = h | (h >> 4);
  const uint32_t sel = __byte_perm(nib, 0u, 0x4420u);
  const uint32_t entry = __byte_perm(rule.lo, rule.hi, sel);
  // One-hot bit (t0 + 2a) per byte: (1 + t0)(1 + 3a) = 1 + t0 + 3a + 3(a & t0), at most 8: no carries.
  const uint32_t onehot = kOnes + t0 + 3u * (a + (a & t0));
  const uint32_t hit = entry & onehot;        // 0 or a single bit <= 8 per byte
  return ((hit + 0x7F7F7F7Fu) >> 7) & kOnes;  // non-zero byte -> 1
}

struct Row {
  uint32_t left;  // last word of the chunk to the left (its byte 3 is the cell left of ours)
  uint32_t w[4];
  uint32_t right;  // first word of the chunk to the right
};

__device__ __forceinline__ Row load_row(const uint8_t* __restrict__ row, int chunk, int chunks) {
  Row r;
  const uint4 v = __ldg(reinterpret_cast<const uint4*>(row) + chunk);
  r.w[0] = v.x;
  r.w[1] = v.y;
  r.w[2] = v.z;
  r.w[3] = v.w;
  // Chunk 0's byte 0 is the left ghost column and the last chunk's bytes end at or past the right ghost
  // column: whatever lies beyond them only feeds outputs nobody reads, so zeros do.
  const uint32_t* words = reinterpret_cast<const uint32_t*>(row);
  r.left = chunk > 0 ? __ldg(words + 4 * chunk - 1) : 0u;
  r.right = chunk + 1 < chunks ? __ldg(words + 4 * chunk + 4) : 0u;
  return r;
}

// snippet life_gpu_swar
__global__ void __launch_bounds__(1024)
    step_swar(const uint8_t* __restrict__ grid, uint8_t* __restrict__ newgrid, int height, size_t pitch,
              int chunks, int strips, int rows_per_strip, SwarRule rule) {
  // chunks * strips < 2^31 for every allowed size (at most 4097 chunks times 65536 rows).
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= static_cast<unsigned>(chunks) * static_cast<unsigned>(strips)) return;
  // Consecutive threads take consecutive chunks of a row: a warp's uint4 loads cover 512 contiguous bytes.
  const int chunk = static_cast<int>(t % static_cast<unsigned>(chunks));
  const int strip = static_cast<int>(t / static_cast<unsigned>(chunks));
  const int y_begin = 1 + strip * rows_per_strip;
  const int y_end = min(y_begin + rows_per_strip, height + 1);

  const uint8_t* in = grid + static_cast<size_t>(y_begin - 1) * pitch;
  Row up = load_row(in, chunk, chunks);
  Row mid = load_row(in + pitch, chunk, chunks);
  Row down = load_row(in + 2 * pitch, chunk, chunks);  // y_begin + 1 <= H + 1, the bottom ghost row at most
  uint8_t* out = newgrid + static_cast<size_t>(y_begin) * pitch + 16 * static_cast<size_t>(chunk);
  in += 3 * pitch;
  for (int y = y_begin; y < y_end; ++y, in += pitch, out += pitch) {
    // Software pipelining: the row after next is loaded while this one is computed, so the load's
    // latency hides behind the arithmetic instead of stalling each step of the walk.
    Row next = down;
    if (y + 1 < y_end) next = load_row(in, chunk, chunks);
    // Column sums (three rows), then the sum of each byte's column and its two neighbours' columns.
    uint32_t col[6];
    col[0] = up.left + mid.left + down.left;
#pragma unroll
    for (int i = 0; i < 4; ++i) col[i + 1] = up.w[i] + mid.w[i] + down.w[i];
    col[5] = up.right + mid.right + down.right;
    uint32_t res[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const uint32_t from_left = __funnelshift_l(col[i], col[i + 1], 8);       // byte j <- byte j - 1
      const uint32_t from_right = __funnelshift_r(col[i + 1], col[i + 2], 8);  // byte j <- byte j + 1
      res[i] = apply_rule(from_left + col[i + 1] + from_right, mid.w[i], rule);
    }
    *reinterpret_cast<uint4*>(out) = make_uint4(res[0], res[1], res[2], res[3]);
    up = mid;
    mid = down;
    down = next;
  }
}
// end snippet

// Measured on an H100 at 16384² (run-time override through strip_tuning): 2 rows a thread 1.36e12
// cells/s, 4 rows 1.34e12, 8 rows 1.21e12, 16 or 32 rows 1.18e12. Short strips mean more threads and so
// more loads in flight; the rows they read twice mostly hit L2.
constexpr int kMaxRowsPerStrip = 4;

}  // namespace

void launch_swar_step(const ByteGrid& in, uint8_t* out, int block_threads, int sm_count, const Rule& rule,
                      cudaStream_t stream) {
  const int chunks = static_cast<int>(in.pitch / 16);
  // Longer strips reuse more rows from registers; shorter ones give more threads to fill the GPU
  // (about 2048 threads an SM) and more memory requests in flight.
  const long long wanted_threads = 2048ll * (sm_count > 0 ? sm_count : 1);
  long long rows = static_cast<long long>(chunks) * in.height / wanted_threads;
  if (rows < 1) rows = 1;
  if (rows > kMaxRowsPerStrip) rows = kMaxRowsPerStrip;
  if (strip_tuning().swar_rows > 0) rows = strip_tuning().swar_rows;
  const int rows_per_strip = static_cast<int>(rows);
  const int strips = static_cast<int>(ceil_div(in.height, rows_per_strip));
  const long long threads = static_cast<long long>(chunks) * strips;
  step_swar<<<static_cast<unsigned>(ceil_div(threads, block_threads)), block_threads, 0, stream>>>(
      in.cells, out, in.height, in.pitch, chunks, strips, rows_per_strip, make_swar_rule(rule));
  CUDA_CHECK_LAUNCH("step_swar");
}

KernelInfo swar_kernel_info(int block_threads) {
  KernelInfo k;
  k.name = "step_swar";
  k.func = reinterpret_cast<const void*>(&step_swar);
  k.block_threads = block_threads;
  return k;
}

}  // namespace gpulab::life::cuda_detail

#pragma once
// Game of Life on a W×H torus: the rule, the host grid, the variant table and the engines (CPU
// reference and CUDA) behind one interface. No GL, no ImGui, no CUDA headers here.
//
// Variants (stable ids, used by the CLI, the tests and the bench):
//   cpu-naive         if/else rules, ghost cells copied every generation (lecture: 1_gol)
//   cpu-lut           the states[2][9] lookup table instead of branches (lecture: 2_gol state)
//   gpu-global        one thread per cell, branching rules, ghost rows/columns by two 1D kernels
//   gpu-lut-local     the states[2][9] table as a per-thread local array (lecture: 2_gol cuda)
//   gpu-lut-constant  the table in __constant__ memory (lecture: 2_gol cuda_constant)
//   gpu-shared        a tile plus its halo staged in shared memory, each cell read once per block
//   gpu-swar          16 cells a thread: 16-byte loads, byte-wise sums in registers (SIMD within a register)
//   gpu-bitpacked     64 cells a word, neighbour counts by bit-sliced adders
//   gpu-bit-multistep the packed layout, k generations a pass through memory (tiles in registers)
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/hd.h"
#include "common/kernel_info.h"
#include "common/random.h"
#include "common/variant.h"

namespace gpulab::life {

// Sizes a grid may have; both edges, inclusive. The UI offers up to 16384, the bench goes beyond.
inline constexpr int kMinEdge = 1;
inline constexpr int kMaxEdge = 65536;

// ---------------------------------------------------------------------------------------------
// Rule: B/S notation. Bit n of `birth` set: a dead cell with n live neighbours is born; bit n of
// `survive` set: a live cell with n live neighbours stays alive.
struct Rule {
  uint16_t birth = 1u << 3;
  uint16_t survive = (1u << 2) | (1u << 3);

  static Rule conway() { return {}; }
  // Accepts "B3/S23", "b3/s23", "B3S23", "B36/S23", "B2/S", and the older "S/B" form "23/3".
  // On failure returns nullopt and, when `error` is given, says what is wrong.
  static std::optional<Rule> parse(std::string_view text, std::string* error = nullptr);
  std::string to_string() const;  // canonical "B3/S23"

  // The lecture's lookup table: states[alive][neighbours].
  std::array<std::array<uint8_t, 9>, 2> table() const;
  bool operator==(const Rule&) const = default;
};

// The one definition of the rule, shared by every CPU and GPU variant that does not use a table.
GPULAB_HD uint8_t next_state(uint32_t birth, uint32_t survive, uint32_t alive, uint32_t neighbours) {
  return static_cast<uint8_t>(((alive ? survive : birth) >> neighbours) & 1u);
}

// Named rules offered in the UI.
struct NamedRule {
  std::string_view name;
  std::string_view text;
};
inline constexpr std::array<NamedRule, 4> kNamedRules{{
    {"Conway's Life", "B3/S23"},
    {"HighLife", "B36/S23"},
    {"Day & Night", "B3678/S34678"},
    {"Seeds", "B2/S"},
}};

// ---------------------------------------------------------------------------------------------
// A W×H torus of cells on the host, one byte each (0 dead, 1 alive), row-major, no padding.
// Row 0 is the top row (as in RLE files and on screen).
struct Grid {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> cells;

  Grid() = default;
  Grid(int w, int h) : width(w), height(h), cells(static_cast<size_t>(w) * h, 0) {}
  uint8_t& at(int x, int y) { return cells[static_cast<size_t>(y) * width + x]; }
  uint8_t at(int x, int y) const { return cells[static_cast<size_t>(y) * width + x]; }
  uint64_t population() const;
  bool operator==(const Grid&) const = default;
};

struct Cell {
  int x = 0;
  int y = 0;
};
// First cell (in row-major order) where two grids of the same size differ; nullopt if equal.
std::optional<Cell> first_difference(const Grid& a, const Grid& b);

// Checks a size before anything is allocated; returns an empty string when it is fine.
std::string check_size(long long width, long long height);

// Deterministic pseudo-random fill shared by CPU and GPU: cell (x, y) is alive when the hash of
// (seed, y * width + x) falls under density (0..1 as a 32-bit threshold).
GPULAB_HD uint32_t cell_hash(uint64_t seed, uint64_t index) {
  return static_cast<uint32_t>(mix64(seed + kGoldenGamma * index) >> 32);  // SplitMix64's index-th number
}
GPULAB_HD uint32_t density_threshold(double density) {
  if (density <= 0.0) return 0u;
  if (density >= 1.0) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(density * 4294967296.0);
}
GPULAB_HD uint8_t random_cell(uint64_t seed, uint64_t index, uint32_t threshold) {
  return cell_hash(seed, index) < threshold ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Display. Every pixel of a tex_width × tex_height RGBA8 image (row 0 = top) shows the cells under
// it. Fixed-point view arithmetic (1/unit cell, 1/256 unless set) so that the CUDA kernel and the CPU
// give the same pixels: pixel (px, py) covers cells [origin + p * step, origin + (p + 1) * step) in
// 1/unit units. unit = k with step = 1 makes every cell exactly k pixels (k = 3 is not a whole number
// of 1/256 cells), as a projector wants.
struct View {
  int tex_width = 0;
  int tex_height = 0;
  int64_t origin_x_q8 = 0;  // cell coordinate of the image's left edge, times unit
  int64_t origin_y_q8 = 0;  // cell coordinate of the image's top edge, times unit
  int32_t step_q8 = 256;    // cells per pixel times unit: 256 = 1:1, 32 = 8 px a cell, 1024 = 4 cells a px
  int32_t unit = 256;       // fixed-point units a cell
  bool age_fade = false;    // dead cells fade out from the fade colour (needs fade_tick each frame)
  bool grid_lines = false;  // thin lines between cells when zoomed in to 8 px a cell or more
  uint32_t alive_rgba = 0xFF6CE0FFu;  // little-endian RGBA: 0xAABBGGRR
  uint32_t dead_rgba = 0xFF1E1612u;
  uint32_t fade_rgba = 0xFFB05A2Au;
  uint32_t background_rgba = 0xFF0A0808u;  // outside the grid
  uint32_t grid_rgba = 0xFF2E2622u;
};

// Linear blend of two RGBA8 colours by t/255, channel by channel (integer, exact on CPU and GPU).
GPULAB_HD uint32_t blend_rgba(uint32_t a, uint32_t b, uint32_t t) {
  uint32_t out = 0;
  for (int c = 0; c < 32; c += 8) {
    uint32_t ca = (a >> c) & 0xFFu, cb = (b >> c) & 0xFFu;
    uint32_t v = (ca * (255u - t) + cb * t + 127u) / 255u;
    out |= v << c;
  }
  return out;
}

// The fade value of a dead cell decays each frame; a live cell holds 255.
GPULAB_HD uint8_t fade_next(uint8_t fade, uint8_t alive) {
  if (alive) return 255;
  uint32_t f = fade;
  uint32_t d = (f >> 3) + (f ? 1u : 0u);
  return static_cast<uint8_t>(f > d ? f - d : 0u);
}

// Colour of one pixel. `cell_at(x, y)` returns 0/1 for an in-grid cell, `fade_at(x, y)` its fade
// byte. Used by the CPU renderer and the CUDA display kernels alike.
template <class CellAt, class FadeAt>
GPULAB_HD uint32_t pixel_colour(const View& v, int width, int height, int px, int py, CellAt cell_at,
                                FadeAt fade_at) {
  const int64_t step = v.step_q8, unit = v.unit > 0 ? v.unit : 256;
  const int64_t x0 = v.origin_x_q8 + px * step, y0 = v.origin_y_q8 + py * step;
  // Floor division by the unit (a shift for the usual 256).
  auto cell_of = [unit](int64_t q) -> int64_t {
    if (unit == 256) return q >= 0 ? q >> 8 : -((-q + 255) >> 8);
    return q >= 0 ? q / unit : -((-q + unit - 1) / unit);
  };
  // Cells under the pixel, as a half-open range in whole cells (at least one cell).
  int64_t cx0 = cell_of(x0);
  int64_t cy0 = cell_of(y0);
  int64_t cx1 = cell_of(x0 + step - 1) + 1;
  int64_t cy1 = cell_of(y0 + step - 1) + 1;
  if (cx1 <= 0 || cy1 <= 0 || cx0 >= width || cy0 >= height) return v.background_rgba;
  if (cx0 < 0) cx0 = 0;
  if (cy0 < 0) cy0 = 0;
  if (cx1 > width) cx1 = width;
  if (cy1 > height) cy1 = height;
  const int64_t nx = cx1 - cx0, ny = cy1 - cy0;
  if (nx == 1 && ny == 1) {
    const int x = static_cast<int>(cx0), y = static_cast<int>(cy0);
    uint32_t c;
    if (cell_at(x, y)) {
      c = v.alive_rgba;
    } else if (v.age_fade) {
      c = blend_rgba(v.dead_rgba, v.fade_rgba, fade_at(x, y));
    } else {
      c = v.dead_rgba;
    }
    // Grid lines on the first pixel row/column of each cell when a cell is 8 px or more.
    if (v.grid_lines && step * 8 <= unit) {
      const bool left = (x0 - cx0 * unit) < step, top = (y0 - cy0 * unit) < step;
      if (left || top) c = blend_rgba(c, v.grid_rgba, 160);
    }
    return c;
  }
  // Zoomed out: density of live cells over at most 4×4 evenly spread samples of the footprint.
  const int sx = nx < 4 ? static_cast<int>(nx) : 4, sy = ny < 4 ? static_cast<int>(ny) : 4;
  uint32_t alive = 0;
  for (int j = 0; j < sy; ++j) {
    const int y = static_cast<int>(cy0 + (ny * (2 * j + 1)) / (2 * sy));
    for (int i = 0; i < sx; ++i) {
      const int x = static_cast<int>(cx0 + (nx * (2 * i + 1)) / (2 * sx));
      alive += cell_at(x, y) ? 1u : 0u;
    }
  }
  const uint32_t n = static_cast<uint32_t>(sx * sy);
  // Any live cell shows at least faintly; a full footprint shows the live colour.
  uint32_t t = alive == 0 ? 0u : 64u + (191u * alive) / n;
  return blend_rgba(v.dead_rgba, v.alive_rgba, t);
}

// ---------------------------------------------------------------------------------------------
// Variants are data: one table, shared by the UI, the CLI, the tests and the bench.
enum class Backend : uint8_t { Cpu, Cuda };
enum class Layout : uint8_t {
  Bytes,   // one byte a cell, ghost ring around the grid (the lecture's (N+2)×(N+2) layout)
  Packed,  // 64 cells a 64-bit word, bit b of word k = column 64k + b
};

// What a variant runs: the CPU engine's two generations and the CUDA engine's step kernels.
enum class Kernel : uint8_t {
  CpuNaive,
  CpuLut,
  Global,
  LutLocal,
  LutConstant,
  Shared,
  Swar,
  Bitpacked,
  BitMultistep
};

// The record (blocks: edge of a square 2D block, or 1D threads; kernel: a Kernel) and Life's columns.
struct Variant : VariantRecord {
  Backend backend;
  Layout layout;
  Kernel step_kernel() const { return kernel.as<Kernel>(); }
};

std::span<const Variant> variants();
const Variant* find_variant(std::string_view id);
// The ghost-copy stage's one variant (the lecture's two 1D kernels that copy the torus' edges into the
// ghost ring before each generation of the byte-per-cell GPU variants): its blocks are the 1D block
// sizes the ghost kernels take.
const VariantRecord& ghost_variant();

using gpulab::KernelInfo;

struct CellEdit {
  int x = 0;
  int y = 0;
  uint8_t alive = 0;
};

// gpu-bit-multistep's k: generations advanced on chip between one read and one write of the grid.
inline constexpr int kMinGenerationsPerPass = 1;
inline constexpr int kMaxGenerationsPerPass = 16;
inline constexpr int kDefaultGenerationsPerPass = 16;
// Reads k from text (the command line, a lesson): a whole number in 1..16. On failure returns
// nullopt and, when `error` is given, says what is wrong, quoting the text.
std::optional<int> parse_generations_per_pass(std::string_view text, std::string* error = nullptr);
// The generations each pass of a call of `generations` takes with k a pass: k, except the last pass,
// which takes what is left (a call of 20 at k = 16: 16 then 4).
std::vector<int> multistep_passes(int generations, int generations_per_pass);
// Throws std::invalid_argument naming k when it is outside 1..16 (Engine::set_generations_per_pass).
void check_generations_per_pass(int k);

// What a step moved through memory, for the throughput read-outs: the fewest bytes a generation of
// this variant must read and write (each cell read once and written once in its layout). A variant
// that advances several generations a pass (gpu-bit-multistep) moves its grid once every
// `generations_per_pass`.
double bytes_per_generation(const Variant& v, int width, int height, int generations_per_pass = 1);

// ---------------------------------------------------------------------------------------------
// An engine owns one grid's state on its backend and advances it with that backend's variants.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual Backend backend() const = 0;
  virtual std::string_view device_name() const = 0;

  // (Re)allocates state for a w×h torus, all cells dead. On failure (impossible size, out of memory)
  // throws GpuError or std::invalid_argument and keeps the previous grid and size.
  virtual void resize(int width, int height) = 0;
  virtual int width() const = 0;
  virtual int height() const = 0;
  virtual void set_rule(const Rule& rule) = 0;
  virtual Rule rule() const = 0;

  // gpu-bit-multistep's k: generations a pass through memory (kMinGenerationsPerPass ..
  // kMaxGenerationsPerPass, default kDefaultGenerationsPerPass); a step of fewer generations than k
  // makes one shorter pass, and so does the last pass of a step that k does not divide. Throws
  // std::invalid_argument outside 1..16, keeping the previous k. Variants that advance one generation
  // a pass (all the others, the CPU's) ignore it.
  virtual void set_generations_per_pass(int k) = 0;
  virtual int generations_per_pass() const = 0;

  virtual void upload(const Grid& grid) = 0;  // grid must be width() × height()
  virtual Grid download() = 0;
  virtual void clear() = 0;
  virtual void randomize(double density, uint64_t seed) = 0;
  virtual void set_cells(std::span<const CellEdit> edits) = 0;

  // Advances `generations` with variant v (of this engine's backend) and block shape `block`
  // (one of v.blocks; ignored on the CPU). The ghost-copy kernels use `ghost_block` threads.
  virtual void step(const Variant& v, int block, int generations, int ghost_block = 256) = 0;
  virtual uint64_t population() = 0;  // waits for the count: tests, verify, batch
  // For the frame loop, which must not wait: request_population() queues a count, and
  // poll_population() returns it once it is ready (nullopt while pending or when none was asked).
  virtual void request_population() = 0;
  virtual std::optional<uint64_t> poll_population() = 0;

  // Decays the fade buffer by one frame (only needed when a View uses age_fade).
  virtual void fade_tick() = 0;
  // Colours for a view into host memory: tex_width × tex_height RGBA8 words, row 0 = top.
  virtual void render_host(const View& view, uint32_t* h_rgba) = 0;
};

std::unique_ptr<Engine> make_cpu_engine();

}  // namespace gpulab::life

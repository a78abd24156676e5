// The CPU reference engine: the lecture's sequential Game of Life (1_gol/gol.c, 2_gol state) on a
// W×H torus, and the baseline every GPU variant is measured against.
//
// Variants:
//   cpu-naive  ghost columns, then ghost rows (corners included) copied every generation; each cell
//              counts its 8 neighbours and branches on its state: alive -> survive bit, dead -> birth bit
//   cpu-lut    same ghost copies and neighbour sum, then one load from the rule's states[2][9] table
//              replaces the branch
//
// State layout (the lecture's): (H+2)×(W+2) bytes, IND(i, j) = i * (W + 2) + j, interior rows 1..H and
// columns 1..W, a ring of ghost cells around it; a second buffer receives the new generation and the
// two are swapped after each one.
#include <cstdlib>
#include <cstring>

#include <unistd.h>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/cpu_info.h"
#include "common/error.h"
#include "life/life.h"

namespace gpulab::life {
namespace {

struct FreeDeleter {
  void operator()(uint8_t* p) const noexcept { std::free(p); }
};
// calloc rather than new[]: the kernel hands out zero pages lazily, so a huge grid costs nothing
// until it is touched, and a failed allocation returns null instead of half-filling memory.
using HostBytes = std::unique_ptr<uint8_t[], FreeDeleter>;

HostBytes allocate_zeroed(size_t bytes) {
  void* p = std::calloc(bytes == 0 ? 1 : bytes, 1);
  if (p == nullptr) throw std::bad_alloc();
  return HostBytes(static_cast<uint8_t*>(p));
}

class CpuEngine final : public Engine {
 public:
  CpuEngine() : device_name_(cpu_label(1)) {}  // one core

  Backend backend() const override { return Backend::Cpu; }
  std::string_view device_name() const override { return device_name_; }

  void resize(int width, int height) override {
    const std::string problem = check_size(width, height);
    if (!problem.empty()) throw std::invalid_argument(problem);
    const size_t padded = (static_cast<size_t>(width) + 2) * (static_cast<size_t>(height) + 2);
    const size_t cells = static_cast<size_t>(width) * static_cast<size_t>(height);
    // Everything new is allocated before anything old is released, so a failure leaves the
    // previous grid untouched and still running.
    // calloc overcommits: a grid far beyond the machine's memory would "succeed" and be killed by
    // the OOM killer once touched. Ask the kernel what is available first.
    const double need = 2.0 * static_cast<double>(padded) + static_cast<double>(cells);
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && need > static_cast<double>(pages) * static_cast<double>(page))
      throw GpuError("not enough host memory for a " + std::to_string(width) + "x" + std::to_string(height) +
                         " grid (needs " + std::to_string(static_cast<long long>(need / 1048576.0 + 0.5)) +
                         " MiB, " + std::to_string(static_cast<long long>(double(pages) * page / 1048576.0)) +
                         " MiB available)",
                     true);
    HostBytes cur, next, fade;
    try {
      cur = allocate_zeroed(padded);
      next = allocate_zeroed(padded);
      fade = allocate_zeroed(cells);
    } catch (const std::bad_alloc&) {
      const double mib = (2.0 * static_cast<double>(padded) + static_cast<double>(cells)) / (1024.0 * 1024.0);
      throw GpuError("not enough host memory for a " + std::to_string(width) + "x" + std::to_string(height) +
                         " grid (needs " + std::to_string(static_cast<long long>(mib + 0.5)) + " MiB)",
                     true);
    }
    cur_ = std::move(cur);
    next_ = std::move(next);
    fade_ = std::move(fade);
    width_ = width;
    height_ = height;
  }

  int width() const override { return width_; }
  int height() const override { return height_; }
  void set_rule(const Rule& rule) override { rule_ = rule; }
  Rule rule() const override { return rule_; }
  // Kept for an engine switch; the CPU variants advance one generation a pass.
  void set_generations_per_pass(int k) override {
    check_generations_per_pass(k);
    generations_per_pass_ = k;
  }
  int generations_per_pass() const override { return generations_per_pass_; }

  void upload(const Grid& grid) override {
    if (grid.width != width_ || grid.height != height_ ||
        grid.cells.size() != static_cast<size_t>(width_) * static_cast<size_t>(height_))
      throw std::invalid_argument("upload: grid is " + std::to_string(grid.width) + "x" +
                                  std::to_string(grid.height) + " but the engine holds " +
                                  std::to_string(width_) + "x" + std::to_string(height_));
    for (int y = 0; y < height_; ++y) {
      uint8_t* row = cur_.get() + ind(y + 1, 1);
      const uint8_t* src = grid.cells.data() + static_cast<size_t>(y) * width_;
      // Normalise to 0/1: the lookup-table variant indexes states[cell][n] with the cell itself.
      for (int x = 0; x < width_; ++x) row[x] = src[x] ? 1 : 0;
    }
    reset_fade();
  }

  Grid download() override {
    Grid grid(width_, height_);
    for (int y = 0; y < height_; ++y)
      std::memcpy(grid.cells.data() + static_cast<size_t>(y) * width_, cur_.get() + ind(y + 1, 1),
                  static_cast<size_t>(width_));
    return grid;
  }

  void clear() override {
    if (cur_) std::memset(cur_.get(), 0, padded_bytes());
    reset_fade();
  }

  void randomize(double density, uint64_t seed) override {
    const uint32_t threshold = density_threshold(density);
    for (int y = 0; y < height_; ++y) {
      uint8_t* row = cur_.get() + ind(y + 1, 1);
      const uint64_t base = static_cast<uint64_t>(y) * static_cast<uint64_t>(width_);
      for (int x = 0; x < width_; ++x) row[x] = random_cell(seed, base + static_cast<uint64_t>(x), threshold);
    }
    reset_fade();
  }

  void set_cells(std::span<const CellEdit> edits) override {
    for (const CellEdit& e : edits) {
      // Edits come from mouse strokes that may leave the grid; those are simply not cells.
      if (e.x < 0 || e.y < 0 || e.x >= width_ || e.y >= height_) continue;
      cur_[ind(e.y + 1, e.x + 1)] = e.alive ? 1 : 0;
    }
  }

  void step(const Variant& v, int block, int generations, int ghost_block) override {
    if (v.backend != Backend::Cpu)
      throw std::invalid_argument("variant '" + std::string(v.id) +
                                  "' runs on the CUDA backend; the CPU engine runs only cpu-* variants");
    if (generations < 0)
      throw std::invalid_argument("step: generations must be >= 0, got " + std::to_string(generations));
    if (v.kernel != Kernel::CpuNaive && v.kernel != Kernel::CpuLut)
      throw std::invalid_argument("the CPU engine does not know variant '" + std::string(v.id) + "'");
    const bool lut = v.kernel == Kernel::CpuLut;
    if (!cur_) return;
    for (int g = 0; g < generations; ++g) {
      copy_ghosts();
      if (lut)
        generation_lut();
      else
        generation_naive();
      std::swap(cur_, next_);
    }
  }

  uint64_t population() override {
    uint64_t total = 0;
    for (int y = 0; y < height_; ++y) {
      const uint8_t* row = cur_.get() + ind(y + 1, 1);
      uint32_t row_total = 0;  // a row has at most 65536 cells; a 32-bit sum vectorises well
      for (int x = 0; x < width_; ++x) row_total += row[x];
      total += row_total;
    }
    return total;
  }

  void request_population() override { requested_ = population(); }
  std::optional<uint64_t> poll_population() override { return std::exchange(requested_, std::nullopt); }

  void fade_tick() override {
    for (int y = 0; y < height_; ++y) {
      const uint8_t* row = cur_.get() + ind(y + 1, 1);
      uint8_t* f = fade_.get() + static_cast<size_t>(y) * width_;
      for (int x = 0; x < width_; ++x) f[x] = fade_next(f[x], row[x]);
    }
  }

  void render_host(const View& view, uint32_t* h_rgba) override {
    const uint8_t* cells = cur_.get();
    const uint8_t* fade = fade_.get();
    const size_t stride = static_cast<size_t>(width_) + 2;
    const int w = width_;
    auto cell_at = [cells, stride](int x, int y) -> uint8_t {
      return cells[(static_cast<size_t>(y) + 1) * stride + static_cast<size_t>(x) + 1];
    };
    auto fade_at = [fade, w](int x, int y) -> uint8_t {
      return fade[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)];
    };
    for (int py = 0; py < view.tex_height; ++py) {
      uint32_t* out = h_rgba + static_cast<size_t>(py) * static_cast<size_t>(view.tex_width);
      for (int px = 0; px < view.tex_width; ++px)
        out[px] = pixel_colour(view, width_, height_, px, py, cell_at, fade_at);
    }
  }

 private:
  size_t stride() const { return static_cast<size_t>(width_) + 2; }
  size_t padded_bytes() const { return stride() * (static_cast<size_t>(height_) + 2); }
  // The lecture's IND(i, j): row i, column j of the padded array.
  size_t ind(int i, int j) const { return static_cast<size_t>(i) * stride() + static_cast<size_t>(j); }

  void reset_fade() {
    if (fade_) std::memset(fade_.get(), 0, static_cast<size_t>(width_) * static_cast<size_t>(height_));
  }

  // Columns first, then whole rows including the corners: the rows copy columns 0 and W+1 that
  // were just filled, so the corners receive the diagonally opposite interior cell.
  void copy_ghosts() {
    uint8_t* grid = cur_.get();
    const int W = width_, H = height_;
    for (int i = 1; i <= H; ++i) {
      grid[ind(i, 0)] = grid[ind(i, W)];      // left ghost column
      grid[ind(i, W + 1)] = grid[ind(i, 1)];  // right ghost column
    }
    for (int j = 0; j <= W + 1; ++j) {
      grid[ind(0, j)] = grid[ind(H, j)];      // top ghost row
      grid[ind(H + 1, j)] = grid[ind(1, j)];  // bottom ghost row
    }
  }

  // snippet life_cpu_naive
  void generation_naive() {
    const uint8_t* grid = cur_.get();
    uint8_t* newgrid = next_.get();
    const size_t n2 = stride();
    const uint32_t birth = rule_.birth, survive = rule_.survive;
    for (int i = 1; i <= height_; ++i) {
      const uint8_t* __restrict up = grid + (i - 1) * n2;
      const uint8_t* __restrict mid = up + n2;
      const uint8_t* __restrict down = mid + n2;
      uint8_t* __restrict out = newgrid + i * n2;
      for (int j = 1; j <= width_; ++j) {
        const uint32_t nneibs =
            up[j - 1] + up[j] + up[j + 1] + mid[j - 1] + mid[j + 1] + down[j - 1] + down[j] + down[j + 1];
        const uint8_t state = mid[j];
        uint8_t newstate;
        if (state == 1)
          newstate = static_cast<uint8_t>((survive >> nneibs) & 1u);  // alive: stays if S has nneibs
        else
          newstate = static_cast<uint8_t>((birth >> nneibs) & 1u);  // dead: born if B has nneibs
        out[j] = newstate;
      }
    }
  }
  // end snippet

  // snippet life_cpu_lut
  void generation_lut() {
    const uint8_t* grid = cur_.get();
    uint8_t* newgrid = next_.get();
    const size_t n2 = stride();
    const auto table = rule_.table();
    uint8_t states[2][9];
    for (int s = 0; s < 2; ++s)
      for (int n = 0; n < 9; ++n) states[s][n] = table[s][n];
    for (int i = 1; i <= height_; ++i) {
      const uint8_t* __restrict up = grid + (i - 1) * n2;
      const uint8_t* __restrict mid = up + n2;
      const uint8_t* __restrict down = mid + n2;
      uint8_t* __restrict out = newgrid + i * n2;
      for (int j = 1; j <= width_; ++j) {
        const uint32_t nneibs =
            up[j - 1] + up[j] + up[j + 1] + mid[j - 1] + mid[j + 1] + down[j - 1] + down[j] + down[j + 1];
        out[j] = states[mid[j]][nneibs];
      }
    }
  }
  // end snippet

  std::string device_name_;
  int width_ = 0;
  int height_ = 0;
  std::optional<uint64_t> requested_;  // request_population() counts at once on the CPU
  Rule rule_;
  int generations_per_pass_ = kDefaultGenerationsPerPass;
  HostBytes cur_;   // the current generation, with its ghost ring
  HostBytes next_;  // receives the next generation; swapped with cur_ after each one
  HostBytes fade_;  // W×H fade bytes, no ghost ring
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine() { return std::make_unique<CpuEngine>(); }

}  // namespace gpulab::life

// The patterns in assets/patterns, checked against published facts about them (periods, speeds,
// lifespans, final populations), run on the CPU engine. The long-lived methuselahs are checked on an
// infinite plane by a small sparse simulator written here (a torus would let their gliders come
// back), and the engine is checked against that simulator while nothing reaches the torus edge.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "life/life.h"
#include "life/pattern.h"
#include "support/test_paths.h"

namespace gpulab::life {
namespace {

const std::string kPatterns = std::string(GPULAB_TEST_ASSETS) + "/patterns";

Pattern load(const std::string& file) {
  const PatternResult r = load_pattern_file(kPatterns + "/" + file);
  if (!r) {
    ADD_FAILURE() << describe(r.error, file);
    return Pattern{};
  }
  return *r.pattern;
}

const Variant& lut() { return *find_variant("cpu-lut"); }

// An engine holding `p` with its top-left cell at (x0, y0) of a w×h torus, under the pattern's rule.
std::unique_ptr<Engine> engine_with(const Pattern& p, int w, int h, int x0, int y0) {
  Grid g(w, h);
  std::string error;
  EXPECT_TRUE(place(g, p, x0, y0, &error)) << error;
  auto e = make_cpu_engine();
  e->resize(w, h);
  e->set_rule(p.rule.value_or(Rule::conway()));
  e->upload(g);
  return e;
}

struct Box {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;  // inclusive; empty when x1 < x0
};
Box live_box(const Grid& g) {
  Box b{g.width, g.height, -1, -1};
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      if (g.at(x, y)) {
        b.x0 = std::min(b.x0, x);
        b.x1 = std::max(b.x1, x);
        b.y0 = std::min(b.y0, y);
        b.y1 = std::max(b.y1, y);
      }
  return b;
}

// a's cells in [x, x + w) × [y, y + h) equal b's in the same rectangle moved by (dx, dy).
bool same_window(const Grid& a, const Grid& b, int x, int y, int w, int h, int dx = 0, int dy = 0) {
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i)
      if (a.at(x + i, y + j) != b.at(x + i + dx, y + j + dy)) return false;
  return true;
}

// Same live cells up to a translation (no wrap): returns the move, or nullopt.
std::optional<Cell> translation(const Grid& from, const Grid& to) {
  const Box a = live_box(from), b = live_box(to);
  if (a.x1 < 0 || b.x1 < 0 || a.x1 - a.x0 != b.x1 - b.x0 || a.y1 - a.y0 != b.y1 - b.y0) return std::nullopt;
  if (!same_window(from, to, a.x0, a.y0, a.x1 - a.x0 + 1, a.y1 - a.y0 + 1, b.x0 - a.x0, b.y0 - a.y0))
    return std::nullopt;
  if (from.population() != to.population()) return std::nullopt;
  return Cell{b.x0 - a.x0, b.y0 - a.y0};
}

// ------------------------------------------------------------------------------------------------
// An infinite plane, as a sorted list of live cells. Slow per cell but its cost follows the
// population, not the area, which is what a methuselah whose gliders fly off needs.
class SparseLife {
 public:
  SparseLife(const Pattern& p, const Rule& rule) : rule_(rule) {
    for (int y = 0; y < p.height; ++y)
      for (int x = 0; x < p.width; ++x)
        if (p.at(x, y)) live_.push_back(key(x, y));
    std::sort(live_.begin(), live_.end());
  }
  size_t population() const { return live_.size(); }

  void step() {
    // Every live cell adds one to each cell of its 3x3 block; after sorting, a run of k equal keys
    // is a cell with k live cells in its block (itself included).
    counts_.clear();
    for (uint64_t k : live_)
      for (int64_t dy = -1; dy <= 1; ++dy)
        for (int64_t dx = -1; dx <= 1; ++dx)
          counts_.push_back(k + static_cast<uint64_t>(dy * (1ll << 32) + dx));
    std::sort(counts_.begin(), counts_.end());
    next_.clear();
    size_t li = 0;
    for (size_t i = 0; i < counts_.size();) {
      size_t j = i;
      while (j < counts_.size() && counts_[j] == counts_[i]) ++j;
      const uint64_t k = counts_[i];
      while (li < live_.size() && live_[li] < k) ++li;
      const bool alive = li < live_.size() && live_[li] == k;
      const uint32_t n = static_cast<uint32_t>(j - i) - (alive ? 1u : 0u);
      const bool born_or_kept = alive ? ((rule_.survive >> n) & 1) : ((rule_.birth >> n) & 1);
      if (born_or_kept) next_.push_back(k);
      i = j;
    }
    live_.swap(next_);
  }

  // The plane drawn onto a w×h torus with the pattern's origin at (x0, y0); false if it does not fit
  // (then a torus run could not match the plane anyway).
  bool draw(int w, int h, int x0, int y0, Grid& out) const {
    out = Grid(w, h);
    for (uint64_t k : live_) {
      const long long x = x_of(k) + x0, y = y_of(k) + y0;
      if (x < 0 || y < 0 || x >= w || y >= h) return false;
      out.at(static_cast<int>(x), static_cast<int>(y)) = 1;
    }
    return true;
  }

 private:
  // Row-major order so that neighbours in a row are neighbouring keys; the bias keeps keys positive.
  static uint64_t key(long long x, long long y) {
    return (static_cast<uint64_t>(y + (1ll << 31)) << 32) | static_cast<uint64_t>(x + (1ll << 31));
  }
  static long long x_of(uint64_t k) { return static_cast<long long>(k & 0xFFFFFFFFu) - (1ll << 31); }
  static long long y_of(uint64_t k) { return static_cast<long long>(k >> 32) - (1ll << 31); }

  Rule rule_;
  std::vector<uint64_t> live_, counts_, next_;
};

// ------------------------------------------------------------------------------------------------

TEST(KnownPatterns, EveryAssetLoads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kPatterns)) {
    if (!entry.is_regular_file()) continue;
    const std::string file = entry.path().filename().string();
    const PatternResult r = load_pattern_file(entry.path().string());
    ASSERT_TRUE(r) << describe(r.error, file);
    EXPECT_FALSE(r.pattern->name.empty()) << file;
    EXPECT_GT(r.pattern->population(), 0u) << file;
    Grid g(1024, 1024);
    EXPECT_TRUE(place_centered(g, *r.pattern)) << file;
    // Reading our own RLE of it gives the same cells back.
    Grid only(r.pattern->width, r.pattern->height);
    ASSERT_TRUE(place(only, *r.pattern, 0, 0));
    const PatternResult again =
        parse_rle(write_rle(only, r.pattern->rule.value_or(Rule::conway()), r.pattern->name));
    ASSERT_TRUE(again) << file;
    ASSERT_TRUE(again.pattern->offset.has_value()) << file;
    Grid back(only.width, only.height);
    ASSERT_TRUE(place(back, *again.pattern, again.pattern->offset->x, again.pattern->offset->y)) << file;
    EXPECT_EQ(back, only) << file;
    EXPECT_EQ(again.pattern->name, r.pattern->name) << file;
    ++count;
  }
  EXPECT_GE(count, 12);
}

TEST(KnownPatterns, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  const Pattern p = load("glider.rle");
  EXPECT_EQ(p.population(), 5u);
  auto e = engine_with(p, 64, 64, 20, 20);
  Grid previous = e->download();
  const Grid start = previous;
  for (int gen = 1; gen <= 16; ++gen) {
    e->step(lut(), 0, 1);
    const Grid now = e->download();
    EXPECT_EQ(now.population(), 5u);
    const auto moved = translation(start, now);
    if (gen % 4 == 0) {
      ASSERT_TRUE(moved.has_value()) << "generation " << gen;
      EXPECT_EQ(moved->x, gen / 4);
      EXPECT_EQ(moved->y, gen / 4);
    } else {
      EXPECT_FALSE(moved.has_value()) << "generation " << gen;
    }
  }
}

TEST(KnownPatterns, LwssMovesTwoCellsEveryFourGenerations) {
  const Pattern p = load("lwss.rle");
  EXPECT_EQ(p.population(), 9u);
  auto e = engine_with(p, 64, 32, 40, 10);
  const Grid start = e->download();
  for (int gen = 1; gen <= 12; ++gen) {
    e->step(lut(), 0, 1);
    const auto moved = translation(start, e->download());
    if (gen % 4 == 0) {
      ASSERT_TRUE(moved.has_value()) << "generation " << gen;
      EXPECT_EQ(moved->x, -gen / 2);  // c/2 to the left in this orientation
      EXPECT_EQ(moved->y, 0);
    } else {
      EXPECT_FALSE(moved.has_value()) << "generation " << gen;
    }
  }
}

// Smallest p in 1..max_period with state(p) == state(0), or 0.
int period_of(Engine& e, int max_period) {
  const Grid start = e.download();
  for (int p = 1; p <= max_period; ++p) {
    e.step(lut(), 0, 1);
    if (e.download() == start) return p;
  }
  return 0;
}

TEST(KnownPatterns, OscillatorPeriods) {
  const Pattern pulsar = load("pulsar.cells");
  EXPECT_EQ(pulsar.population(), 48u);
  EXPECT_EQ(period_of(*engine_with(pulsar, 32, 32, 9, 9), 40), 3);
  const Pattern penta = load("pentadecathlon.cells");
  EXPECT_EQ(penta.population(), 12u);
  EXPECT_EQ(period_of(*engine_with(penta, 40, 32, 15, 14), 40), 15);
}

// A gun: its own bounding box repeats every `period` generations (with a glider at the same place
// in flight), no shorter period does, and each period adds one 5-cell glider.
void check_gun(const std::string& file, int period, std::initializer_list<int> shorter) {
  const Pattern p = load(file);
  EXPECT_EQ(p.population(), 36u) << file;
  const int x0 = 24, y0 = 24;
  auto e = engine_with(p, 384, 384, x0, y0);
  std::vector<uint64_t> population{e->population()};
  std::vector<Grid> grids{e->download()};
  for (int gen = 1; gen <= 6 * period; ++gen) {
    e->step(lut(), 0, 1);
    population.push_back(e->population());
    grids.push_back(e->download());
  }
  const int t = 2 * period;  // after the first glider has left the box
  for (int k = 1; k <= 6; ++k)
    EXPECT_EQ(population[static_cast<size_t>(k * period)], p.population() + 5u * k)
        << file << " after " << k * period;
  EXPECT_TRUE(same_window(grids[t], grids[t + period], x0, y0, p.width, p.height)) << file;
  EXPECT_TRUE(same_window(grids[t + period], grids[t + 3 * period], x0, y0, p.width, p.height)) << file;
  for (int q : shorter)
    EXPECT_FALSE(same_window(grids[t], grids[t + q], x0, y0, p.width, p.height)) << file << " period " << q;
}

TEST(KnownPatterns, GosperGliderGunHasPeriod30) { check_gun("gosper-glider-gun.rle", 30, {15, 10, 6}); }
TEST(KnownPatterns, SimkinGliderGunHasPeriod120) { check_gun("simkin-glider-gun.rle", 120, {60, 40, 24}); }

TEST(KnownPatterns, Puffer1LeavesBlinkersAndBookends) {
  // Moves up at c/2 with period 128; each period adds four blinkers and two bookends: 4*3 + 2*7.
  const Pattern p = load("puffer-1.rle");
  EXPECT_EQ(p.population(), 44u);
  auto e = engine_with(p, 256, 640, 114, 600);
  e->step(lut(), 0, 256);
  for (int k = 0; k < 3; ++k) {
    const Grid before = e->download();
    e->step(lut(), 0, 128);
    const Grid after = e->download();
    EXPECT_EQ(after.population(), before.population() + 26u) << "period " << k;
    // The engine at the front is the same, 64 rows higher.
    const Box a = live_box(before), b = live_box(after);
    EXPECT_EQ(b.y0, a.y0 - 64);
    EXPECT_TRUE(same_window(before, after, 0, a.y0, before.width, 16, 0, -64)) << "period " << k;
  }
}

TEST(KnownPatterns, PufferTrainFrontHasPeriod140) {
  const Pattern p = load("puffer-train.rle");
  EXPECT_EQ(p.population(), 22u);
  EXPECT_EQ(p.rule, Rule::conway());  // written as "rule = 23/3"
  auto e = engine_with(p, 640, 256, 32, 119);
  e->step(lut(), 0, 300);
  const Grid before = e->download();
  e->step(lut(), 0, 140);
  const Grid after = e->download();
  const Box a = live_box(before), b = live_box(after);
  EXPECT_EQ(b.x1, a.x1 + 70);  // c/2 to the right
  // The 40 columns at the front repeat, moved 70 cells, while the smoke behind grows.
  EXPECT_TRUE(same_window(before, after, a.x1 - 39, 0, 40, before.height, 70, 0));
  EXPECT_GT(after.population(), before.population());
}

TEST(KnownPatterns, DiehardVanishesAtGeneration130) {
  const Pattern p = load("diehard.rle");
  EXPECT_EQ(p.population(), 7u);
  auto e = engine_with(p, 128, 128, 60, 62);
  e->step(lut(), 0, 129);
  EXPECT_GT(e->population(), 0u);
  e->step(lut(), 0, 1);
  EXPECT_EQ(e->population(), 0u);
}

TEST(KnownPatterns, RPentominoSettlesAt1103With116Cells) {
  const Pattern p = load("r-pentomino.rle");
  EXPECT_EQ(p.population(), 5u);
  const int n = 1024, x0 = (n - p.width) / 2, y0 = (n - p.height) / 2;
  auto e = engine_with(p, n, n, x0, y0);
  e->step(lut(), 0, 1102);
  EXPECT_NE(e->population(), 116u);
  e->step(lut(), 0, 1);
  EXPECT_EQ(e->population(), 116u);
  const Grid at_1103 = e->download();
  e->step(lut(), 0, 2);
  EXPECT_EQ(e->population(), 116u);

  // The same cells as on an infinite plane: nothing has wrapped around the torus yet.
  SparseLife plane(p, Rule::conway());
  for (int i = 0; i < 1103; ++i) plane.step();
  Grid drawn;
  ASSERT_TRUE(plane.draw(n, n, x0, y0, drawn));
  const auto d = first_difference(drawn, at_1103);
  EXPECT_FALSE(d.has_value()) << "differs at " << d->x << ", " << d->y;
}

// Engine and plane agree cell for cell for `generations` on a torus large enough not to wrap.
void check_against_plane(const std::string& file, int generations) {
  const Pattern p = load(file);
  const int n = 512, x0 = (n - p.width) / 2, y0 = (n - p.height) / 2;
  auto e = engine_with(p, n, n, x0, y0);
  SparseLife plane(p, p.rule.value_or(Rule::conway()));
  for (int done = 0; done < generations; done += 100) {
    e->step(lut(), 0, 100);
    for (int i = 0; i < 100; ++i) plane.step();
    Grid drawn;
    ASSERT_TRUE(plane.draw(n, n, x0, y0, drawn)) << file << " left the torus by " << done + 100;
    ASSERT_EQ(drawn, e->download()) << file << " generation " << done + 100;
  }
}

TEST(KnownPatterns, EngineMatchesThePlaneForMethuselahs) {
  check_against_plane("acorn.rle", 800);
  check_against_plane("rabbits.rle", 600);
}

TEST(KnownPatterns, AcornSettlesAt5206With633Cells) {
  const Pattern p = load("acorn.rle");
  EXPECT_EQ(p.population(), 7u);
  SparseLife plane(p, Rule::conway());
  for (int i = 0; i < 5205; ++i) plane.step();
  EXPECT_NE(plane.population(), 633u);
  plane.step();
  EXPECT_EQ(plane.population(), 633u);
  for (int i = 0; i < 100; ++i) {  // settled: only blinkers, still lifes and departing gliders
    plane.step();
    ASSERT_EQ(plane.population(), 633u) << "generation " << 5207 + i;
  }
}

TEST(KnownPatterns, AcornSettlesOnA2048Torus) {
  const Pattern p = load("acorn.rle");
  const int n = 2048;
  auto e = engine_with(p, n, n, (n - p.width) / 2, (n - p.height) / 2);
  e->step(lut(), 0, 5205);
  EXPECT_NE(e->population(), 633u);
  e->step(lut(), 0, 1);
  EXPECT_EQ(e->population(), 633u);
  e->step(lut(), 0, 50);
  EXPECT_EQ(e->population(), 633u);
}

TEST(KnownPatterns, RabbitsSettleAt17331With1744Cells) {
  const Pattern p = load("rabbits.rle");
  EXPECT_EQ(p.population(), 9u);
  SparseLife plane(p, Rule::conway());
  for (int i = 0; i < 17330; ++i) plane.step();
  EXPECT_NE(plane.population(), 1744u);
  plane.step();
  EXPECT_EQ(plane.population(), 1744u);
  for (int i = 0; i < 100; ++i) {
    plane.step();
    ASSERT_EQ(plane.population(), 1744u) << "generation " << 17332 + i;
  }
}

TEST(KnownPatterns, ReplicatorCopiesItselfInHighLife) {
  const Pattern p = load("replicator.rle");
  ASSERT_TRUE(p.rule.has_value());
  EXPECT_EQ(*p.rule, *Rule::parse("B36/S23"));
  const int n = 64, x0 = 30, y0 = 30;
  auto e = engine_with(p, n, n, x0, y0);
  e->step(lut(), 0, 12);
  // Two copies, two cells up-left and two cells down-right of the original.
  Grid expected(n, n);
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x)
      if (p.at(x, y)) {
        expected.at(x0 + x - 2, y0 + y - 2) = 1;
        expected.at(x0 + x + 2, y0 + y + 2) = 1;
      }
  EXPECT_EQ(e->download(), expected);
  // Under Conway's rule it is just another shape.
  e->set_rule(Rule::conway());
  Grid start(n, n);
  ASSERT_TRUE(place(start, p, x0, y0));
  e->upload(start);
  e->step(lut(), 0, 12);
  EXPECT_NE(e->download(), expected);
}

}  // namespace
}  // namespace gpulab::life

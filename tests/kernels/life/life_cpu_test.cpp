// The CPU engine: torus semantics against an independent modular-index reference, cpu-naive vs
// cpu-lut, small known patterns (across the wrap edge too), state handling, failure paths, and the
// host renderer.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"
#include "life/life.h"

namespace gpulab::life {
namespace {

const Variant& variant(std::string_view id) {
  const Variant* v = find_variant(id);
  if (!v) throw std::runtime_error("no variant " + std::string(id));
  return *v;
}

// One generation on a torus, written the plainest way: modular neighbour indices, the rule's bit
// masks tested directly. Independent of the engine's ghost cells and of next_state.
Grid reference_step(const Grid& g, const Rule& rule) {
  Grid out(g.width, g.height);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0) continue;
          n += g.at(((x + dx) % g.width + g.width) % g.width, ((y + dy) % g.height + g.height) % g.height);
        }
      const bool alive = g.at(x, y) != 0;
      const bool next = alive ? ((rule.survive >> n) & 1) != 0 : ((rule.birth >> n) & 1) != 0;
      out.at(x, y) = next ? 1 : 0;
    }
  return out;
}

Grid random_grid(int w, int h, double density, unsigned seed) {
  Grid g(w, h);
  uint64_t s = seed * 2654435761u + 1;
  for (auto& c : g.cells) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    c = ((s >> 33) % 1000) < density * 1000 ? 1 : 0;
  }
  return g;
}

// Cells given as "x,y" pairs on a w×h grid.
Grid grid_with(int w, int h, std::initializer_list<std::pair<int, int>> cells) {
  Grid g(w, h);
  for (auto [x, y] : cells) g.at(x, y) = 1;
  return g;
}

std::string show(const Grid& g) {
  std::string s;
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) s += g.at(x, y) ? 'O' : '.';
    s += '\n';
  }
  return s;
}

::testing::AssertionResult same_grid(const Grid& expected, const Grid& actual) {
  if (auto d = first_difference(expected, actual))
    return ::testing::AssertionFailure()
           << "first difference at (" << d->x << ", " << d->y << ")\nexpected\n"
           << (expected.cells.size() <= 4096 ? show(expected) : "(large)") << "actual\n"
           << (actual.cells.size() <= 4096 ? show(actual) : "(large)");
  return ::testing::AssertionSuccess();
}

std::unique_ptr<Engine> engine_with(const Grid& g, const Rule& rule = Rule::conway()) {
  auto e = make_cpu_engine();
  e->resize(g.width, g.height);
  e->set_rule(rule);
  e->upload(g);
  return e;
}

const char* kRules[] = {"B3/S23", "B36/S23", "B3678/S34678", "B2/S", "B1357/S1357", "B0/S8"};
const std::pair<int, int> kSizes[] = {{1, 1}, {2, 3},   {3, 2},   {1, 9},   {9, 1},
                                      {7, 5}, {33, 17}, {64, 64}, {130, 67}};

TEST(LifeCpu, BothVariantsMatchTheTorusReference) {
  for (const char* rule_text : kRules) {
    const Rule rule = *Rule::parse(rule_text);
    for (auto [w, h] : kSizes)
      for (double density : {0.2, 0.5}) {
        const Grid start = random_grid(w, h, density, static_cast<unsigned>(w * 1000 + h));
        Grid expected = start;
        auto naive = engine_with(start, rule);
        auto lut = engine_with(start, rule);
        for (int gen = 1; gen <= 12; ++gen) {
          expected = reference_step(expected, rule);
          naive->step(variant("cpu-naive"), 0, 1);
          lut->step(variant("cpu-lut"), 0, 1);
          ASSERT_TRUE(same_grid(expected, naive->download()))
              << "cpu-naive " << rule_text << " " << w << "x" << h << " generation " << gen;
          ASSERT_TRUE(same_grid(expected, lut->download()))
              << "cpu-lut " << rule_text << " " << w << "x" << h << " generation " << gen;
          ASSERT_EQ(naive->population(), expected.population());
        }
      }
  }
}

TEST(LifeCpu, NaiveAndLutAgreeOverManyGenerations) {
  for (const char* rule_text : {"B3/S23", "B36/S23", "B3678/S34678", "B2/S"}) {
    const Rule rule = *Rule::parse(rule_text);
    for (auto [w, h] : kSizes) {
      auto naive = make_cpu_engine();
      naive->resize(w, h);
      naive->set_rule(rule);
      naive->randomize(0.4, 77);
      auto lut = engine_with(naive->download(), rule);
      naive->step(variant("cpu-naive"), 0, 150);
      lut->step(variant("cpu-lut"), 0, 150);
      EXPECT_TRUE(same_grid(naive->download(), lut->download())) << rule_text << " " << w << "x" << h;
    }
  }
}

TEST(LifeCpu, SeveralGenerationsInOneStepEqualOneAtATime) {
  const Grid start = random_grid(41, 29, 0.35, 5);
  auto a = engine_with(start), b = engine_with(start);
  a->step(variant("cpu-lut"), 0, 17);
  for (int i = 0; i < 17; ++i) b->step(variant("cpu-lut"), 0, 1);
  EXPECT_TRUE(same_grid(a->download(), b->download()));
  a->step(variant("cpu-naive"), 0, 0);  // zero generations change nothing
  EXPECT_TRUE(same_grid(b->download(), a->download()));
}

TEST(LifeCpu, BlinkerHasPeriodTwo) {
  const Grid horizontal = grid_with(5, 5, {{1, 2}, {2, 2}, {3, 2}});
  const Grid vertical = grid_with(5, 5, {{2, 1}, {2, 2}, {2, 3}});
  for (const char* id : {"cpu-naive", "cpu-lut"}) {
    auto e = engine_with(horizontal);
    e->step(variant(id), 0, 1);
    EXPECT_TRUE(same_grid(vertical, e->download())) << id;
    e->step(variant(id), 0, 1);
    EXPECT_TRUE(same_grid(horizontal, e->download())) << id;
  }
}

TEST(LifeCpu, BlockAndBeehiveAreStill) {
  const Grid block = grid_with(6, 6, {{2, 2}, {3, 2}, {2, 3}, {3, 3}});
  const Grid beehive = grid_with(8, 7, {{3, 2}, {4, 2}, {2, 3}, {5, 3}, {3, 4}, {4, 4}});
  // A block straddling both wrap edges is still a block.
  const Grid corner_block = grid_with(6, 6, {{5, 5}, {0, 5}, {5, 0}, {0, 0}});
  for (const Grid* g : {&block, &beehive, &corner_block})
    for (const char* id : {"cpu-naive", "cpu-lut"}) {
      auto e = engine_with(*g);
      e->step(variant(id), 0, 5);
      EXPECT_TRUE(same_grid(*g, e->download())) << id;
    }
}

TEST(LifeCpu, GliderCrossesTheWrapEdge) {
  // The glider .O. / ..O / OOO moves one cell right and one down every 4 generations.
  const int W = 8, H = 8;
  auto glider_at = [&](int x0, int y0) {
    Grid g(W, H);
    for (auto [dx, dy] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}})
      g.at((x0 + dx) % W, (y0 + dy) % H) = 1;
    return g;
  };
  for (const char* id : {"cpu-naive", "cpu-lut"}) {
    // Starting in the bottom-right corner: every step from here on crosses an edge.
    auto e = engine_with(glider_at(5, 5));
    for (int k = 1; k <= 8; ++k) {
      e->step(variant(id), 0, 4);
      ASSERT_TRUE(same_grid(glider_at((5 + k) % W, (5 + k) % H), e->download())) << id << " after " << 4 * k;
      ASSERT_EQ(e->population(), 5u);
    }
  }
}

TEST(LifeCpu, TinyToriWrapOntoThemselves) {
  // On a 1x1 torus a cell is its own 8 neighbours: alive it sees 8, dead it sees 0.
  for (const char* id : {"cpu-naive", "cpu-lut"}) {
    auto e = engine_with(grid_with(1, 1, {{0, 0}}), *Rule::parse("B/S8"));
    e->step(variant(id), 0, 3);
    EXPECT_EQ(e->population(), 1u) << id;
    e->set_rule(*Rule::parse("B/S7"));
    e->step(variant(id), 0, 1);
    EXPECT_EQ(e->population(), 0u) << id;
    e->set_rule(*Rule::parse("B0/S"));  // a dead cell with 0 neighbours is born
    e->step(variant(id), 0, 1);
    EXPECT_EQ(e->population(), 1u) << id;
  }
}

TEST(LifeCpu, RandomizeUsesTheSharedHash) {
  auto e = make_cpu_engine();
  e->resize(37, 23);
  const uint64_t seed = 12345;
  e->randomize(0.3, seed);
  const Grid g = e->download();
  const uint32_t threshold = density_threshold(0.3);
  for (int y = 0; y < 23; ++y)
    for (int x = 0; x < 37; ++x)
      ASSERT_EQ(g.at(x, y), random_cell(seed, static_cast<uint64_t>(y) * 37 + x, threshold)) << x << "," << y;

  e->resize(256, 256);
  e->randomize(0.5, 9);
  const double fraction = static_cast<double>(e->population()) / (256.0 * 256.0);
  EXPECT_GT(fraction, 0.47);
  EXPECT_LT(fraction, 0.53);
  e->randomize(0.0, 9);
  EXPECT_EQ(e->population(), 0u);
  e->randomize(1.0, 9);
  EXPECT_EQ(e->population(), 256u * 256u);
  // Same seed, same grid; another seed, another grid.
  e->randomize(0.5, 9);
  const Grid a = e->download();
  e->randomize(0.5, 9);
  EXPECT_EQ(a, e->download());
  e->randomize(0.5, 10);
  EXPECT_NE(a, e->download());
}

TEST(LifeCpu, UploadDownloadClearAndEdits) {
  auto e = make_cpu_engine();
  e->resize(10, 6);
  EXPECT_EQ(e->width(), 10);
  EXPECT_EQ(e->height(), 6);
  EXPECT_EQ(e->population(), 0u);
  Grid g = random_grid(10, 6, 0.5, 3);
  g.at(0, 0) = 7;  // any non-zero byte means alive
  e->upload(g);
  g.at(0, 0) = 1;
  EXPECT_EQ(e->download(), g);
  EXPECT_EQ(e->population(), g.population());

  const CellEdit edits[] = {{2, 3, 1}, {4, 4, 0}, {-1, 0, 1}, {10, 0, 1}, {0, 6, 1}, {0, -7, 1}, {9, 5, 1}};
  e->set_cells(edits);
  g.at(2, 3) = 1;
  g.at(4, 4) = 0;
  g.at(9, 5) = 1;
  EXPECT_TRUE(same_grid(g, e->download()));  // out-of-range edits are ignored

  EXPECT_THROW(e->upload(Grid(6, 10)), std::invalid_argument);
  EXPECT_TRUE(same_grid(g, e->download()));

  e->clear();
  EXPECT_EQ(e->population(), 0u);
  EXPECT_EQ(e->download(), Grid(10, 6));
}

TEST(LifeCpu, RuleIsKept) {
  auto e = make_cpu_engine();
  EXPECT_EQ(e->rule(), Rule::conway());
  const Rule highlife = *Rule::parse("B36/S23");
  e->set_rule(highlife);
  EXPECT_EQ(e->rule(), highlife);
  EXPECT_EQ(e->backend(), Backend::Cpu);
}

TEST(LifeCpu, StepRejectsGpuAndUnknownVariants) {
  const Grid start = random_grid(16, 16, 0.4, 8);
  auto e = engine_with(start);
  for (const Variant& v : variants()) {
    if (v.backend == Backend::Cpu) continue;
    EXPECT_THROW(e->step(v, v.default_block, 1), std::invalid_argument) << v.id;
  }
  const Variant made_up{{"cpu-imaginary", "", "", ""}, Backend::Cpu, Layout::Bytes};  // no kernel
  EXPECT_THROW(e->step(made_up, 0, 1), std::invalid_argument);
  EXPECT_THROW(e->step(variant("cpu-lut"), 0, -1), std::invalid_argument);
  EXPECT_TRUE(same_grid(start, e->download()));  // nothing ran
  try {
    e->step(variant("gpu-global"), 16, 1);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& ex) {
    EXPECT_NE(std::string(ex.what()).find("gpu-global"), std::string::npos) << ex.what();
  }
}

TEST(LifeCpu, ResizeRejectsImpossibleSizesAndKeepsTheGrid) {
  const Grid start = random_grid(20, 12, 0.5, 4);
  auto e = engine_with(start);
  for (auto [w, h] : {std::pair{0, 10}, {10, 0}, {-3, 5}, {kMaxEdge + 1, 4}, {100000, 100000}}) {
    try {
      e->resize(w, h);
      FAIL() << "resize(" << w << ", " << h << ") should throw";
    } catch (const std::invalid_argument& ex) {
      EXPECT_NE(std::string(ex.what()).find(std::to_string(w) + "x" + std::to_string(h)), std::string::npos)
          << ex.what();
    }
    EXPECT_EQ(e->width(), 20);
    EXPECT_EQ(e->height(), 12);
    EXPECT_TRUE(same_grid(start, e->download()));
  }
  // The kept grid still runs.
  e->step(variant("cpu-lut"), 0, 3);
  Grid expected = start;
  for (int i = 0; i < 3; ++i) expected = reference_step(expected, Rule::conway());
  EXPECT_TRUE(same_grid(expected, e->download()));
}

// Virtual memory of this process in bytes, from /proc/self/statm.
size_t virtual_memory_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0;
  statm >> pages;
  return pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

TEST(LifeCpu, OutOfMemoryKeepsTheGrid) {
  // Cap the address space a little above what the process uses now, so that the ~12 GiB a
  // 65536x65536 grid needs cannot be had even where the kernel overcommits.
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &old), 0);
  const size_t cap = virtual_memory_bytes() + (256u << 20);
  if (old.rlim_max != RLIM_INFINITY && old.rlim_max < cap)
    GTEST_SKIP() << "address-space limit already too low";

  const Grid start = random_grid(33, 17, 0.5, 6);
  auto e = engine_with(start);
  rlimit low = old;
  low.rlim_cur = cap;
  ASSERT_EQ(setrlimit(RLIMIT_AS, &low), 0);
  bool threw = false, oom = false;
  std::string message;
  try {
    e->resize(kMaxEdge, kMaxEdge);
  } catch (const GpuError& ex) {
    threw = true;
    oom = ex.out_of_memory();
    message = ex.what();
  }
  ASSERT_EQ(setrlimit(RLIMIT_AS, &old), 0);  // restore before any assertion can return early

  EXPECT_TRUE(threw);
  EXPECT_TRUE(oom);
  EXPECT_NE(message.find("65536x65536"), std::string::npos) << message;
  EXPECT_NE(message.find("MiB"), std::string::npos) << message;
  EXPECT_EQ(e->width(), 33);
  EXPECT_EQ(e->height(), 17);
  EXPECT_TRUE(same_grid(start, e->download()));
  e->step(variant("cpu-naive"), 0, 1);
  EXPECT_TRUE(same_grid(reference_step(start, Rule::conway()), e->download()));
}

TEST(LifeCpu, DeviceNameSaysCpu) {
  auto e = make_cpu_engine();
  const std::string name(e->device_name());
  EXPECT_EQ(name.rfind("CPU", 0), 0u) << name;
}

TEST(LifeCpu, EmptyEngineIsHarmless) {
  auto e = make_cpu_engine();
  EXPECT_EQ(e->width(), 0);
  EXPECT_EQ(e->population(), 0u);
  e->step(variant("cpu-lut"), 0, 3);
  EXPECT_EQ(e->download(), Grid(0, 0));
  View v;
  v.tex_width = 4;
  v.tex_height = 2;
  std::vector<uint32_t> rgba(8, 0);
  e->render_host(v, rgba.data());
  for (uint32_t c : rgba) EXPECT_EQ(c, v.background_rgba);
}

// ------------------------------------------------------------------------------------------------
// render_host

TEST(LifeCpuRender, OneToOneShowsEachCell) {
  const Grid g = random_grid(9, 7, 0.5, 11);
  auto e = engine_with(g);
  View v;
  v.tex_width = 12;  // wider and taller than the grid: the rest is background
  v.tex_height = 10;
  v.origin_x_q8 = -256;  // one pixel of background on the left and top
  v.origin_y_q8 = -256;
  std::vector<uint32_t> rgba(static_cast<size_t>(v.tex_width) * v.tex_height, 0);
  e->render_host(v, rgba.data());
  for (int py = 0; py < v.tex_height; ++py)
    for (int px = 0; px < v.tex_width; ++px) {
      const int x = px - 1, y = py - 1;
      const uint32_t got = rgba[static_cast<size_t>(py) * v.tex_width + px];
      if (x < 0 || y < 0 || x >= g.width || y >= g.height)
        EXPECT_EQ(got, v.background_rgba) << px << "," << py;
      else
        EXPECT_EQ(got, g.at(x, y) ? v.alive_rgba : v.dead_rgba) << px << "," << py;
    }
}

TEST(LifeCpuRender, AWholeNumberOfPixelsACellThatIsNoPowerOfTwo) {
  // 3 and 5 pixels a cell are no whole number of 1/256 cells: with unit = k every cell is exactly k
  // pixels (1/256 steps would make every 85th cell a pixel wider), panned by a pixel and off the grid.
  const Grid g = random_grid(11, 7, 0.5, 5);
  auto e = engine_with(g);
  for (int k : {3, 5, 7}) {
    View v;
    v.unit = k;
    v.step_q8 = 1;
    v.origin_x_q8 = -2;  // two pixels of background on the left, then whole cells
    v.origin_y_q8 = 1;   // the first cell row starts a pixel above the picture
    v.tex_width = 11 * k + 4;
    v.tex_height = 7 * k;
    v.grid_lines = k >= 8;
    std::vector<uint32_t> rgba(static_cast<size_t>(v.tex_width) * v.tex_height, 0);
    e->render_host(v, rgba.data());
    for (int py = 0; py < v.tex_height; ++py)
      for (int px = 0; px < v.tex_width; ++px) {
        const int qx = px - 2, qy = py + 1;
        const uint32_t got = rgba[static_cast<size_t>(py) * v.tex_width + px];
        if (qx < 0 || qx >= 11 * k || qy >= 7 * k)
          ASSERT_EQ(got, v.background_rgba) << k << ": " << px << "," << py;
        else
          ASSERT_EQ(got, g.at(qx / k, qy / k) ? v.alive_rgba : v.dead_rgba) << k << ": " << px << "," << py;
      }
  }
  // Grid lines at 9 pixels a cell: on each cell's first pixel row and column.
  View v;
  v.unit = 9;
  v.step_q8 = 1;
  v.tex_width = 27;
  v.tex_height = 18;
  v.grid_lines = true;
  std::vector<uint32_t> rgba(27 * 18, 0);
  e->render_host(v, rgba.data());
  for (int py = 0; py < 18; ++py)
    for (int px = 0; px < 27; ++px) {
      const uint32_t base = g.at(px / 9, py / 9) ? v.alive_rgba : v.dead_rgba;
      EXPECT_EQ(rgba[py * 27 + px] != base, px % 9 == 0 || py % 9 == 0) << px << "," << py;
    }
}

TEST(LifeCpuRender, ZoomedInRepeatsEachCell) {
  const Grid g = grid_with(4, 3, {{0, 0}, {3, 2}, {1, 1}});
  auto e = engine_with(g);
  View v;
  v.step_q8 = 32;  // 8 pixels a cell
  v.tex_width = 32;
  v.tex_height = 24;
  std::vector<uint32_t> rgba(32 * 24, 0);
  e->render_host(v, rgba.data());
  for (int py = 0; py < 24; ++py)
    for (int px = 0; px < 32; ++px)
      ASSERT_EQ(rgba[py * 32 + px], g.at(px / 8, py / 8) ? v.alive_rgba : v.dead_rgba) << px << "," << py;

  v.grid_lines = true;  // lines on the first pixel row and column of each cell, nowhere else
  e->render_host(v, rgba.data());
  for (int py = 0; py < 24; ++py)
    for (int px = 0; px < 32; ++px) {
      const uint32_t base = g.at(px / 8, py / 8) ? v.alive_rgba : v.dead_rgba;
      if (px % 8 == 0 || py % 8 == 0)
        EXPECT_NE(rgba[py * 32 + px], base) << px << "," << py;
      else
        EXPECT_EQ(rgba[py * 32 + px], base) << px << "," << py;
    }
}

TEST(LifeCpuRender, ZoomedOutShowsDensity) {
  // 4 cells a pixel: pixel p covers cells 4p..4p+3 in x and y. Fill the 4x4 footprints with
  // 0, 1, 8 and 16 live cells.
  Grid g(16, 4);
  const int counts[4] = {0, 1, 8, 16};
  for (int p = 0; p < 4; ++p)
    for (int k = 0; k < counts[p]; ++k) g.at(4 * p + k % 4, k / 4) = 1;
  auto e = engine_with(g);
  View v;
  v.step_q8 = 1024;
  v.tex_width = 5;
  v.tex_height = 1;
  std::vector<uint32_t> rgba(5, 0);
  e->render_host(v, rgba.data());
  EXPECT_EQ(rgba[0], v.dead_rgba);
  EXPECT_EQ(rgba[3], v.alive_rgba);
  EXPECT_EQ(rgba[4], v.background_rgba);
  // More live cells, closer to the live colour (compare the green channel: alive 0xE0, dead 0x16).
  auto green = [](uint32_t c) { return (c >> 8) & 0xFFu; };
  EXPECT_GT(green(rgba[1]), green(rgba[0]));
  EXPECT_GT(green(rgba[2]), green(rgba[1]));
  EXPECT_GT(green(rgba[3]), green(rgba[2]));
}

TEST(LifeCpuRender, AgeFadeDecaysAfterDeath) {
  auto e = engine_with(grid_with(3, 3, {{1, 1}}));
  View v;
  v.tex_width = 3;
  v.tex_height = 3;
  v.age_fade = true;
  std::vector<uint32_t> rgba(9, 0);
  e->fade_tick();  // the live cell's fade goes to 255
  const CellEdit kill[] = {{1, 1, 0}};
  e->set_cells(kill);
  e->render_host(v, rgba.data());
  EXPECT_EQ(rgba[4], v.fade_rgba);  // just died: full fade colour
  EXPECT_EQ(rgba[0], v.dead_rgba);  // never alive
  // The blue channel runs from the fade colour's 0xB0 down to the dead colour's 0x1E, never back up.
  auto blue = [](uint32_t c) { return (c >> 16) & 0xFFu; };
  uint32_t previous = rgba[4];
  int ticks = 0;
  while (rgba[4] != v.dead_rgba && ticks < 100) {
    e->fade_tick();
    ++ticks;
    e->render_host(v, rgba.data());
    EXPECT_LE(blue(rgba[4]), blue(previous)) << "tick " << ticks;
    if (ticks == 1) {
      EXPECT_LT(blue(rgba[4]), blue(previous));
    }
    previous = rgba[4];
  }
  EXPECT_EQ(rgba[4], v.dead_rgba);
  EXPECT_GT(ticks, 5);  // a visible trail, not a flash
  v.age_fade = false;
  e->upload(grid_with(3, 3, {{1, 1}}));
  e->render_host(v, rgba.data());
  EXPECT_EQ(rgba[4], v.alive_rgba);
}

}  // namespace
}  // namespace gpulab::life

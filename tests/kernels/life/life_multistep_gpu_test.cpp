// gpu-bit-multistep against the CPU reference (cpu-lut): every k in 1..16 on odd and degenerate torus
// sizes (a row or a column of cells, widths that are not a multiple of 32, grids smaller than a
// tile), several rules (a B0 rule among them), enough generations that patterns cross the seams; the
// passes a step makes; the packed layout's padding left zero. Skips where no CUDA device exists.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cuda/raii.h"
#include "life/life.h"
#include "life/life_cuda.h"
#include "support/gpu_skip.h"
#include "support/life_reference.h"

namespace gpulab::life {
namespace {

using testing::small_tests;

// variant, rule, random_grid, cpu_run (cpu-lut) and difference, shared with life_cuda_gpu_test.cpp.
using namespace testing::life_reference;

struct Size {
  int w, h;
};

// Odd sizes: one column, one row, widths on both sides of 32 and 64 (the aligned kernel takes W % 32 = 0,
// the other the rest; 96 has a padding half-word), grids lower than a tile (512 rows) and narrower than
// its window (160 columns), and tiles that do not divide the grid.
std::vector<Size> sizes() {
  if (small_tests()) return {{1, 300}, {300, 1}, {97, 61}, {96, 37}, {131, 29}, {64, 530}};
  return {{1, 10000}, {10000, 1}, {97, 61},   {4099, 1031}, {1, 1},     {31, 33},
          {32, 3},    {33, 2},    {96, 517},  {100, 96},    {128, 481}, {160, 17},
          {257, 5},   {2, 1000},  {64, 1024}, {1023, 40},   {3, 3},     {512, 512}};
}

// Conway (its own circuit) and rules that take the generic tree: HighLife, Day & Night, two B0 rules.
const std::vector<std::string_view> kRules = {"B3/S23", "B36/S23", "B3678/S34678", "B035678/S1234",
                                              "B0123478/S01234678"};

// Passes of 16, 16 and 5 at k = 16; seams crossed many times on the small grids.
constexpr int kGenerations = 37;

TEST(LifeMultistep, EveryKMatchesCpuOnOddSizes) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();
  auto gpu = CudaEngine::create(stream.get());
  const Variant& v = variant("gpu-bit-multistep");
  std::vector<int> ks;
  for (int k = kMinGenerationsPerPass; k <= kMaxGenerationsPerPass; ++k)
    if (!small_tests() || k == 1 || k == 7 || k == 16) ks.push_back(k);
  for (const Size& size : sizes()) {
    gpu->resize(size.w, size.h);
    for (std::string_view rule_text : kRules) {
      if (small_tests() && rule_text != "B3/S23" && rule_text != "B035678/S1234") continue;
      const Rule r = rule(rule_text);
      const Grid start = random_grid(size.w, size.h, 0.35, 7919u * size.w + size.h);
      const Grid expected = cpu_run(start, r, kGenerations);
      gpu->set_rule(r);
      for (int k : ks) {
        gpu->set_generations_per_pass(k);
        gpu->upload(start);
        gpu->step(v, v.default_block, kGenerations);
        const std::string diff = difference(expected, gpu->download());
        EXPECT_TRUE(diff.empty()) << size.w << "x" << size.h << " " << rule_text << " k=" << k << ": "
                                  << diff;
      }
    }
  }
}

// Calls of any length, at every block size: the state carries from call to call and pass to pass.
TEST(LifeMultistep, SplitCallsAndBlocksMatchOneRun) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();
  auto gpu = CudaEngine::create(stream.get());
  const Variant& v = variant("gpu-bit-multistep");
  const int w = small_tests() ? 161 : 1000, h = small_tests() ? 70 : 777;
  const Grid start = random_grid(w, h, 0.3, 5);
  const Grid expected = cpu_run(start, Rule::conway(), 1 + 15 + 16 + 17 + 40);
  gpu->resize(w, h);
  for (int block : v.blocks) {
    gpu->set_generations_per_pass(16);
    gpu->upload(start);
    for (int n : {1, 15, 0, 16, 17, 40}) gpu->step(v, block, n);
    const std::string diff = difference(expected, gpu->download());
    EXPECT_TRUE(diff.empty()) << "block " << block << ": " << diff;
  }
}

// Counts the step kernel's launches.
class LaunchCounter final : public KernelTimer {
 public:
  void begin(std::string_view kernel) override { launches += kernel == "step kernel"; }
  void end(std::string_view) override {}
  int launches = 0;
};

TEST(LifeMultistep, AStepIsPassesOfKThenTheRest) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();
  auto gpu = CudaEngine::create(stream.get());
  const Variant& v = variant("gpu-bit-multistep");
  const Grid start = random_grid(200, 150, 0.3, 11);
  const Grid expected = cpu_run(start, Rule::conway(), kGenerations);
  gpu->resize(200, 150);
  struct Case {
    int k, passes;
  };
  for (const Case c : {Case{16, 3}, Case{1, 37}, Case{5, 8}, Case{12, 4}}) {
    LaunchCounter counter;
    gpu->set_kernel_timer(&counter);
    gpu->set_generations_per_pass(c.k);
    gpu->upload(start);
    gpu->step(v, v.default_block, kGenerations);
    gpu->set_kernel_timer(nullptr);
    EXPECT_EQ(counter.launches, c.passes) << "k=" << c.k;
    EXPECT_EQ(static_cast<int>(multistep_passes(kGenerations, c.k).size()), c.passes) << "k=" << c.k;
    EXPECT_TRUE(difference(expected, gpu->download()).empty()) << "k=" << c.k;
  }
}

TEST(LifeMultistep, RefusesKOutside1To16AndKeepsTheLast) {
  GPULAB_SKIP_WITHOUT_CUDA();
  auto gpu = CudaEngine::create(nullptr);
  EXPECT_EQ(gpu->generations_per_pass(), kDefaultGenerationsPerPass);
  gpu->set_generations_per_pass(3);
  for (int bad : {0, -1, 17, 1000}) {
    try {
      gpu->set_generations_per_pass(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(bad)), std::string::npos) << e.what();
    }
    EXPECT_EQ(gpu->generations_per_pass(), 3);
  }
}

// The packed layout keeps the bits past the last column zero (gpu-bitpacked's wrap relies on it):
// a B0 rule, which gives birth in empty space, must not fill them. Multistep, then bitpacked, then
// the population (which reads the packed words).
TEST(LifeMultistep, PaddingBitsStayZero) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();
  auto gpu = CudaEngine::create(stream.get());
  const Rule r = rule("B0123478/S01234678");
  for (const Size size : {Size{100, 40}, Size{96, 33}, Size{33, 7}, Size{1, 9}}) {
    const Grid start = random_grid(size.w, size.h, 0.4, 3);
    gpu->resize(size.w, size.h);
    gpu->set_rule(r);
    gpu->upload(start);
    gpu->set_generations_per_pass(4);
    gpu->step(variant("gpu-bit-multistep"), 64, 9);
    gpu->step(variant("gpu-bitpacked"), 64, 3);
    const Grid expected = cpu_run(start, r, 12);
    EXPECT_EQ(gpu->population(), expected.population()) << size.w << "x" << size.h;
    const std::string diff = difference(expected, gpu->download());
    EXPECT_TRUE(diff.empty()) << size.w << "x" << size.h << ": " << diff;
  }
}

// The occupancy panel's kernel: Conway's circuit or the generic rule, aligned widths or any.
TEST(LifeMultistep, KernelListNamesTheInstantiationThatRuns) {
  GPULAB_SKIP_WITHOUT_CUDA();
  auto gpu = CudaEngine::create(nullptr);
  const Variant& v = variant("gpu-bit-multistep");
  std::vector<const void*> seen;
  for (const Size size : {Size{128, 8}, Size{100, 8}}) {
    gpu->resize(size.w, size.h);
    for (std::string_view rule_text : {"B3/S23", "B36/S23"}) {
      gpu->set_rule(rule(rule_text));
      const std::vector<KernelInfo> list = gpu->kernels(v, 128);
      ASSERT_EQ(list.size(), 1u);
      EXPECT_EQ(list[0].block_threads, 128);
      EXPECT_NE(list[0].name.find(size.w % 128 == 0 ? "W % 128 = 0" : "any W"), std::string::npos)
          << list[0].name;
      EXPECT_NE(list[0].name.find(rule_text == "B3/S23" ? "B3/S23" : "any rule"), std::string::npos)
          << list[0].name;
      for (const void* f : seen) EXPECT_NE(f, list[0].func) << list[0].name;
      seen.push_back(list[0].func);
    }
  }
}

}  // namespace
}  // namespace gpulab::life

// The CUDA engine against the CPU reference (cpu-lut): every GPU variant at every block shape on odd
// and degenerate sizes and several rules, layout switches, population, random fills, edits, the
// display (device buffer and surface), the memory checks and the kernel list of the occupancy panel.
// Skips with a message where no CUDA device exists.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "cuda/raii.h"
#include "life/life.h"
#include "life/life_cuda.h"
#include "support/gpu_memory.h"
#include "support/gpu_skip.h"
#include "support/life_reference.h"

namespace gpulab::life {
namespace {

// Device memory that the test takes away from the engine, to provoke out-of-memory paths.
using gpulab::testing::MemoryHog;

std::vector<const Variant*> gpu_variants() {
  std::vector<const Variant*> list;
  for (const Variant& v : variants())
    if (v.backend == Backend::Cuda) list.push_back(&v);
  return list;
}

// variant, rule, random_grid, cpu_run (cpu-lut) and difference, shared with life_multistep_gpu_test.cpp.
using namespace testing::life_reference;

struct Size {
  int w, h;
};
const std::vector<Size> kSizes = {{1, 1},     {3, 5},     {63, 65},     {64, 64},     {65, 33},
                                  {100, 257}, {333, 129}, {1024, 1024}, {1000, 1001}, {1, 77},
                                  {77, 1},    {128, 2},   {127, 3},     {2, 130}};
// The four named rules (compiled into the bit-packed kernel) and two that take its generic path.
const std::vector<std::string_view> kRules = {"B3/S23", "B36/S23",     "B3678/S34678",
                                              "B2/S",   "B1357/S1357", "B035678/S1234"};

TEST(LifeCuda, StatusAndSizes) {
  // Pure arithmetic: the memory check's numbers, (H + 2) rows of W + 2 rounded up to 16, and 64 cells a word.
  EXPECT_EQ(CudaEngine::bytes_needed(Layout::Bytes, 100, 50), 2u * 52u * 112u);
  EXPECT_EQ(CudaEngine::bytes_needed(Layout::Bytes, 14, 1), 2u * 3u * 16u);
  EXPECT_EQ(CudaEngine::bytes_needed(Layout::Bytes, 15, 1), 2u * 3u * 32u);
  EXPECT_EQ(CudaEngine::bytes_needed(Layout::Packed, 100, 50), 2u * 2u * 50u * 8u);
  EXPECT_EQ(CudaEngine::bytes_needed(Layout::Packed, 64, 3), 2u * 1u * 3u * 8u);
  EXPECT_EQ(CudaEngine::bytes_needed(Layout::Packed, 65536, 65536), 2ull * 1024ull * 65536ull * 8ull);
  const CudaStatus s = cuda_status();
  if (!s.available) {
    EXPECT_FALSE(s.reason.empty()) << "an unavailable CUDA must say why";
  }
  GPULAB_SKIP_WITHOUT_CUDA();  // the shared gate: fails instead under GPULAB_REQUIRE_GPU=1
  EXPECT_GE(s.device, 0);
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  EXPECT_EQ(gpu->backend(), Backend::Cuda);
  EXPECT_FALSE(gpu->device_name().empty());
  EXPECT_EQ(gpu->stream(), stream.get());
  EXPECT_EQ(gpu->width(), 0);
  gpu->set_rule(rule("B36/S23"));
  EXPECT_EQ(gpu->rule(), rule("B36/S23"));
}

TEST(LifeCuda, RejectsBadStepArguments) {
  GPULAB_SKIP_WITHOUT_CUDA();
  auto gpu = CudaEngine::create(nullptr);
  gpu->resize(10, 10);
  EXPECT_THROW(gpu->step(variant("cpu-lut"), 0, 1), std::invalid_argument);
  EXPECT_THROW(gpu->step(variant("gpu-global"), 7, 1), std::invalid_argument);
  EXPECT_THROW(gpu->step(variant("gpu-swar"), 16, 1), std::invalid_argument);
  EXPECT_THROW(gpu->step(variant("gpu-global"), 16, -1), std::invalid_argument);
  EXPECT_THROW(gpu->upload(Grid(9, 10)), std::invalid_argument);
}

// The heart of it: every GPU variant at every allowed block shape equals cpu-lut cell for cell.
TEST(LifeCuda, EveryVariantAndBlockMatchesCpu) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  constexpr int kGenerations = 37;  // odd: the result lands in the second buffer
  for (const Size& size : kSizes) {
    gpu->resize(size.w, size.h);
    for (std::string_view rule_text : kRules) {
      const Rule r = rule(rule_text);
      // Seeds (B2/S) burns out a dense soup at once: give it a sparse one.
      const double density = rule_text == "B2/S" ? 0.08 : 0.35;
      const Grid start = random_grid(size.w, size.h, density, 1000u * size.w + size.h);
      const Grid expected = cpu_run(start, r, kGenerations);
      gpu->set_rule(r);
      for (const Variant* v : gpu_variants()) {
        for (int block : v->blocks) {
          gpu->upload(start);
          gpu->step(*v, block, kGenerations);
          const std::string diff = difference(expected, gpu->download());
          EXPECT_TRUE(diff.empty()) << v->id << " block " << block << " on " << size.w << "x" << size.h << " "
                                    << rule_text << ": " << diff;
        }
      }
    }
  }
}

// One generation a call, and a zero-generation call, keep the buffer swaps straight.
TEST(LifeCuda, SingleStepsMatchOneLongStep) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  const Grid start = random_grid(201, 99, 0.4, 7);
  const Grid expected = cpu_run(start, Rule::conway(), 9);
  gpu->resize(201, 99);
  for (const Variant* v : gpu_variants()) {
    gpu->upload(start);
    for (int g = 0; g < 9; ++g) {
      gpu->step(*v, v->default_block, 1);
      gpu->step(*v, v->default_block, 0);
    }
    const std::string diff = difference(expected, gpu->download());
    EXPECT_TRUE(diff.empty()) << v->id << ": " << diff;
  }
}

TEST(LifeCuda, EveryGhostBlockSizeMatchesCpu) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  const Grid start = random_grid(333, 129, 0.35, 11);
  const Grid expected = cpu_run(start, Rule::conway(), 20);
  gpu->resize(333, 129);
  for (int ghost : ghost_variant().blocks) {
    for (std::string_view id : {"gpu-global", "gpu-swar"}) {
      gpu->upload(start);
      gpu->step(variant(id), variant(id).default_block, 20, ghost);
      const std::string diff = difference(expected, gpu->download());
      EXPECT_TRUE(diff.empty()) << id << " ghost block " << ghost << ": " << diff;
    }
  }
}

// Several rows a thread and a partial last strip only happen on large grids (small ones get one row a
// thread to fill the GPU); there the byte and bit kernels check each other and the lecture's plain kernel.
TEST(LifeCuda, LargeGridVariantsAgree) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  const int w = 20000, h = 16001;
  gpu->resize(w, h);
  gpu->randomize(0.3, 99);
  const Grid start = gpu->download();
  Grid reference;
  for (std::string_view id : {"gpu-global", "gpu-swar", "gpu-bitpacked"}) {
    gpu->upload(start);
    gpu->step(variant(id), variant(id).default_block, 6);
    if (reference.cells.empty()) {
      reference = gpu->download();
      EXPECT_GT(reference.population(), 0u);
      continue;
    }
    const std::string diff = difference(reference, gpu->download());
    EXPECT_TRUE(diff.empty()) << id << " vs gpu-global on " << w << "x" << h << ": " << diff;
    EXPECT_EQ(gpu->population(), reference.population()) << id;
  }
  // And one medium grid against the CPU itself with the fast variants (several rows a thread).
  const Grid mid = random_grid(4096, 4096, 0.3, 5);
  const Grid expected = cpu_run(mid, Rule::conway(), 8);
  gpu->resize(4096, 4096);
  for (std::string_view id : {"gpu-swar", "gpu-bitpacked"}) {
    gpu->upload(mid);
    gpu->step(variant(id), variant(id).default_block, 8);
    const std::string diff = difference(expected, gpu->download());
    EXPECT_TRUE(diff.empty()) << id << " on 4096x4096: " << diff;
  }
}

TEST(LifeCuda, SwitchingLayoutsKeepsTheState) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  for (const Size size : {Size{100, 257}, Size{1000, 1001}, Size{65, 3}, Size{1, 1}}) {
    const Rule r = rule("B36/S23");
    const Grid start = random_grid(size.w, size.h, 0.4, 3);
    auto cpu = make_cpu_engine();
    cpu->resize(size.w, size.h);
    cpu->set_rule(r);
    cpu->upload(start);
    gpu->resize(size.w, size.h);
    gpu->set_rule(r);
    gpu->upload(start);
    const std::string where = std::to_string(size.w) + "x" + std::to_string(size.h);
    struct Leg {
      std::string_view id;
      int generations;
    };
    for (const Leg leg : {Leg{"gpu-swar", 5}, Leg{"gpu-bitpacked", 7}, Leg{"gpu-shared", 6},
                          Leg{"gpu-bitpacked", 3}, Leg{"gpu-lut-constant", 2}}) {
      gpu->step(variant(leg.id), variant(leg.id).default_block, leg.generations);
      cpu->step(variant("cpu-lut"), 0, leg.generations);
      // Population and download straight from whichever layout is current.
      EXPECT_EQ(gpu->population(), cpu->population()) << where << " after " << leg.id;
      const std::string diff = difference(cpu->download(), gpu->download());
      EXPECT_TRUE(diff.empty()) << where << " after " << leg.id << ": " << diff;
    }
  }
}

TEST(LifeCuda, PopulationMatchesCpu) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  for (const Size& size : kSizes) {
    for (double density : {0.0, 0.2, 1.0}) {
      const Grid g = random_grid(size.w, size.h, density, 42);
      auto cpu = make_cpu_engine();
      cpu->resize(size.w, size.h);
      cpu->upload(g);
      gpu->resize(size.w, size.h);
      gpu->upload(g);
      EXPECT_EQ(gpu->population(), cpu->population()) << size.w << "x" << size.h << " density " << density;
      // After a step in each layout (the byte step leaves garbage in ghost columns and padding that the
      // count must ignore).
      cpu->step(variant("cpu-lut"), 0, 3);
      gpu->step(variant("gpu-swar"), 256, 3);
      EXPECT_EQ(gpu->population(), cpu->population()) << size.w << "x" << size.h << " bytes";
      cpu->step(variant("cpu-lut"), 0, 2);
      gpu->step(variant("gpu-bitpacked"), 256, 2);
      EXPECT_EQ(gpu->population(), cpu->population()) << size.w << "x" << size.h << " packed";
    }
  }
}

TEST(LifeCuda, RandomizeMatchesCpu) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  for (const Size& size : kSizes) {
    for (double density : {0.0, 0.05, 0.5, 1.0}) {
      for (uint64_t seed : {0ull, 12345ull, 0xDEADBEEFCAFEull}) {
        auto cpu = make_cpu_engine();
        cpu->resize(size.w, size.h);
        cpu->randomize(density, seed);
        gpu->resize(size.w, size.h);
        gpu->randomize(density, seed);
        const std::string diff = difference(cpu->download(), gpu->download());
        EXPECT_TRUE(diff.empty()) << size.w << "x" << size.h << " density " << density << " seed " << seed
                                  << ": " << diff;
      }
    }
  }
}

TEST(LifeCuda, ClearAndUploadNormalise) {
  GPULAB_SKIP_WITHOUT_CUDA();
  auto gpu = CudaEngine::create(nullptr);
  gpu->resize(70, 9);
  Grid g(70, 9);
  for (size_t i = 0; i < g.cells.size(); ++i)
    g.cells[i] = static_cast<uint8_t>(i % 3 == 0 ? 0 : 17 * (i % 5));
  gpu->upload(g);
  const Grid back = gpu->download();
  for (size_t i = 0; i < g.cells.size(); ++i) ASSERT_EQ(back.cells[i], g.cells[i] ? 1 : 0) << "cell " << i;
  gpu->step(variant("gpu-bitpacked"), 64, 1);
  gpu->clear();
  EXPECT_EQ(gpu->population(), 0u);
  EXPECT_EQ(gpu->download().population(), 0u);
}

TEST(LifeCuda, SetCellsMatchesCpu) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  const int w = 131, h = 67;
  const Grid start = random_grid(w, h, 0.3, 8);
  std::vector<CellEdit> edits;
  for (int i = 0; i < 400; ++i) {
    // Crowded on a few words (several edits a 64-bit word) with repeats, and some off the grid.
    edits.push_back(
        CellEdit{(i * 37) % (w + 6) - 3, (i * 11) % (h + 4) - 2, static_cast<uint8_t>(i % 3 != 0)});
  }
  edits.push_back(CellEdit{5, 5, 1});
  edits.push_back(CellEdit{5, 5, 0});  // the last edit of a cell wins
  for (std::string_view layout_variant : {"gpu-swar", "gpu-bitpacked"}) {
    auto cpu = make_cpu_engine();
    cpu->resize(w, h);
    cpu->upload(start);
    gpu->resize(w, h);
    gpu->upload(start);
    gpu->step(variant(layout_variant), 128, 1);  // puts the state in that variant's layout
    cpu->step(variant("cpu-lut"), 0, 1);
    cpu->set_cells(edits);
    gpu->set_cells(edits);
    std::string diff = difference(cpu->download(), gpu->download());
    EXPECT_TRUE(diff.empty()) << "edits in the layout of " << layout_variant << ": " << diff;
    // Edits in the packed layout, then more steps.
    gpu->step(variant("gpu-bitpacked"), 128, 1);
    cpu->step(variant("cpu-lut"), 0, 1);
    cpu->set_cells(std::span(edits).subspan(100, 50));
    gpu->set_cells(std::span(edits).subspan(100, 50));
    gpu->step(variant("gpu-global"), 16, 4);
    cpu->step(variant("cpu-lut"), 0, 4);
    diff = difference(cpu->download(), gpu->download());
    EXPECT_TRUE(diff.empty()) << "edits then steps, " << layout_variant << ": " << diff;
  }
}

// Different rules in two engines at once: gpu-lut-constant shares one __constant__ table.
TEST(LifeCuda, TwoEnginesWithDifferentRules) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto a = CudaEngine::create(stream.get());
  auto b = CudaEngine::create(stream.get());
  const Grid start = random_grid(90, 70, 0.4, 21);
  a->resize(90, 70);
  b->resize(90, 70);
  a->set_rule(rule("B3/S23"));
  b->set_rule(rule("B3678/S34678"));
  a->upload(start);
  b->upload(start);
  const Variant& v = variant("gpu-lut-constant");
  for (int g = 0; g < 10; ++g) {
    a->step(v, 16, 1);
    b->step(v, 16, 1);
  }
  std::string diff = difference(cpu_run(start, rule("B3/S23"), 10), a->download());
  EXPECT_TRUE(diff.empty()) << "B3/S23: " << diff;
  diff = difference(cpu_run(start, rule("B3678/S34678"), 10), b->download());
  EXPECT_TRUE(diff.empty()) << "B3678/S34678: " << diff;
}

std::vector<std::pair<std::string, View>> test_views(int w, int h) {
  std::vector<std::pair<std::string, View>> views;
  View v;
  v.tex_width = 173;
  v.tex_height = 131;
  views.emplace_back("1:1", v);
  View in = v;
  in.step_q8 = 32;  // 8 px a cell
  in.grid_lines = true;
  in.origin_x_q8 = 10 * 256 + 77;
  in.origin_y_q8 = 3 * 256 + 5;
  views.emplace_back("zoomed in 8x with grid lines", in);
  View in3 = in;
  in3.step_q8 = 85;  // about 3 px a cell, no grid lines at this zoom
  views.emplace_back("zoomed in 3x", in3);
  View out = v;
  out.step_q8 = 1024;
  views.emplace_back("zoomed out 4x", out);
  View out_odd = v;
  out_odd.step_q8 = 700;
  out_odd.origin_x_q8 = -300;
  views.emplace_back("zoomed out 2.7x, shifted", out_odd);
  View panned = v;
  panned.origin_x_q8 = -50 * 256;
  panned.origin_y_q8 = static_cast<int64_t>(h - 40) * 256;
  views.emplace_back("panned off the top-left and bottom", panned);
  View far = v;
  far.origin_x_q8 = static_cast<int64_t>(w + 10) * 256;
  views.emplace_back("panned right past the grid", far);
  View fade = in3;
  fade.age_fade = true;
  views.emplace_back("age fade", fade);
  View fade_out = out;
  fade_out.age_fade = true;
  views.emplace_back("age fade zoomed out", fade_out);
  return views;
}

std::string pixel_difference(const std::vector<uint32_t>& expected, const std::vector<uint32_t>& actual,
                             int tex_width) {
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != actual[i]) {
      std::ostringstream os;
      os << "pixel (" << i % tex_width << ", " << i / tex_width << "): expected 0x" << std::hex << expected[i]
         << ", got 0x" << actual[i];
      return os.str();
    }
  }
  return {};
}

TEST(LifeCuda, RenderMatchesCpu) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  auto cpu = make_cpu_engine();
  const int w = 300, h = 201;
  const Grid start = random_grid(w, h, 0.3, 77);
  cpu->resize(w, h);
  gpu->resize(w, h);
  cpu->upload(start);
  gpu->upload(start);
  // Before any fade_tick the fade buffer reads 0 on both.
  for (int g = 0; g < 12; ++g) {
    if (g >= 2) {
      cpu->fade_tick();
      gpu->fade_tick();
    }
    cpu->step(variant("cpu-lut"), 0, 1);
    // The last generations in the packed layout: the display reads bits straight from the words.
    gpu->step(variant(g < 8 ? "gpu-shared" : "gpu-bitpacked"), g < 8 ? 16 : 256, 1);
    if (g == 5 || g == 11) {
      for (const auto& [name, view] : test_views(w, h)) {
        const size_t pixels = static_cast<size_t>(view.tex_width) * view.tex_height;
        std::vector<uint32_t> expected(pixels), actual(pixels, 0xDEADBEEFu);
        cpu->render_host(view, expected.data());
        uint32_t* d_rgba = nullptr;
        ASSERT_EQ(cudaMalloc(&d_rgba, pixels * 4), cudaSuccess);
        gpu->render_device(view, d_rgba);
        ASSERT_EQ(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream.get())), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(actual.data(), d_rgba, pixels * 4, cudaMemcpyDeviceToHost), cudaSuccess);
        cudaFree(d_rgba);
        const std::string diff = pixel_difference(expected, actual, view.tex_width);
        EXPECT_TRUE(diff.empty()) << name << " after generation " << g << ": " << diff;
        // The fade must change something, or the fade views test nothing.
        if (name == "age fade" && g == 11) {
          View plain = view;
          plain.age_fade = false;
          std::vector<uint32_t> without(pixels);
          cpu->render_host(plain, without.data());
          EXPECT_NE(without, expected) << name << ": fade made no difference";
        }
      }
    }
  }
}

// The path the app takes: a surface object over a 2D array (in the app, a mapped GL texture).
TEST(LifeCuda, RenderSurfaceMatchesCpu) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  auto cpu = make_cpu_engine();
  const Grid start = random_grid(97, 61, 0.35, 5);
  cpu->resize(97, 61);
  gpu->resize(97, 61);
  cpu->upload(start);
  gpu->upload(start);
  View view;
  view.tex_width = 150;
  view.tex_height = 100;
  view.step_q8 = 160;
  view.origin_x_q8 = -700;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
  cudaArray_t array = nullptr;
  ASSERT_EQ(cudaMallocArray(&array, &desc, view.tex_width, view.tex_height, cudaArraySurfaceLoadStore),
            cudaSuccess);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaSurfaceObject_t surface = 0;
  ASSERT_EQ(cudaCreateSurfaceObject(&surface, &res), cudaSuccess);
  const size_t pixels = static_cast<size_t>(view.tex_width) * view.tex_height;
  std::vector<uint32_t> expected(pixels), actual(pixels, 0);
  for (std::string_view id : {"gpu-global", "gpu-bitpacked"}) {
    cpu->step(variant("cpu-lut"), 0, 3);
    gpu->step(variant(id), variant(id).default_block, 3);
    cpu->render_host(view, expected.data());
    gpu->render_surface(view, surface);
    ASSERT_EQ(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream.get())), cudaSuccess);
    ASSERT_EQ(cudaMemcpy2DFromArray(actual.data(), view.tex_width * 4, array, 0, 0, view.tex_width * 4,
                                    view.tex_height, cudaMemcpyDeviceToHost),
              cudaSuccess);
    const std::string diff = pixel_difference(expected, actual, view.tex_width);
    EXPECT_TRUE(diff.empty()) << "surface after " << id << ": " << diff;
  }
  cudaDestroySurfaceObject(surface);
  cudaFreeArray(array);
}

TEST(LifeCuda, ImpossibleResizeThrowsAndKeepsState) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  gpu->resize(257, 130);
  gpu->randomize(0.3, 4);
  gpu->step(variant("gpu-swar"), 256, 3);
  const Grid before = gpu->download();
  EXPECT_THROW(gpu->resize(0, 10), std::invalid_argument);
  EXPECT_THROW(gpu->resize(kMaxEdge + 1, 10), std::invalid_argument);
  EXPECT_EQ(gpu->width(), 257);
  EXPECT_EQ(gpu->height(), 130);
  EXPECT_TRUE(difference(before, gpu->download()).empty());

  // Out of device memory: take nearly all of it away, then ask for the largest grid there is.
  {
    MemoryHog hog(size_t{64} << 20);
    try {
      gpu->resize(kMaxEdge, kMaxEdge);
      ADD_FAILURE() << "resize to " << kMaxEdge << "x" << kMaxEdge << " with the memory taken did not throw";
    } catch (const GpuError& e) {
      EXPECT_TRUE(e.out_of_memory()) << e.what();
      const std::string msg = e.what();
      EXPECT_NE(msg.find("MiB"), std::string::npos) << msg;
      EXPECT_NE(msg.find(std::string(gpu->device_name())), std::string::npos) << msg;
    }
    EXPECT_EQ(gpu->width(), 257);
    EXPECT_TRUE(difference(before, gpu->download()).empty());
  }
  // The engine still runs after that.
  gpu->step(variant("gpu-global"), 16, 2);
  EXPECT_TRUE(difference(cpu_run(before, Rule::conway(), 2), gpu->download()).empty());
}

// The packed buffers are allocated on the first packed step; if that fails the byte state goes on.
TEST(LifeCuda, PackedAllocationFailureKeepsByteState) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const cuda::Stream stream = cuda::Stream::create_non_blocking();  // like the app's compute stream
  auto gpu = CudaEngine::create(stream.get());
  const int w = 8192, h = 8192;  // packed: 2 x 8 MiB
  gpu->resize(w, h);
  gpu->randomize(0.3, 6);
  // One generation first, so that the kernel's code is loaded before the memory is gone (lazy loading).
  gpu->step(variant("gpu-swar"), 256, 1);
  const Grid before = gpu->download();
  {
    MemoryHog hog(size_t{2} << 20);
    try {
      gpu->step(variant("gpu-bitpacked"), 256, 1);
      GTEST_SKIP() << "could not take enough device memory away to make the packed allocation fail";
    } catch (const GpuError& e) {
      EXPECT_TRUE(e.out_of_memory()) << e.what();
      EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(difference(before, gpu->download()).empty());
    gpu->step(variant("gpu-swar"), 256, 1);  // needs no new memory
  }
  const Grid one = cpu_run(before, Rule::conway(), 1);
  EXPECT_TRUE(difference(one, gpu->download()).empty());
  gpu->step(variant("gpu-bitpacked"), 256, 1);  // memory is back: the packed layout works now
  EXPECT_TRUE(difference(cpu_run(one, Rule::conway(), 1), gpu->download()).empty());
}

TEST(LifeCuda, KernelListIsUsableForOccupancy) {
  GPULAB_SKIP_WITHOUT_CUDA();
  auto gpu = CudaEngine::create(nullptr);
  for (const Variant* v : gpu_variants()) {
    for (int block : v->blocks) {
      const std::vector<KernelInfo> list = gpu->kernels(*v, block);
      ASSERT_FALSE(list.empty()) << v->id;
      const int threads = v->square_blocks ? block * block : block;
      EXPECT_EQ(list[0].block_threads, threads) << v->id;
      for (const KernelInfo& k : list) {
        ASSERT_NE(k.func, nullptr) << v->id << " " << k.name;
        cudaFuncAttributes attr{};
        ASSERT_EQ(cudaFuncGetAttributes(&attr, k.func), cudaSuccess) << v->id << " " << k.name;
        EXPECT_GE(attr.maxThreadsPerBlock, k.block_threads)
            << v->id << " " << k.name << " cannot launch its block";
        if (k.dynamic_smem_for) {
          EXPECT_EQ(k.dynamic_smem_for(k.block_threads), k.dynamic_smem) << k.name;
        }
      }
      if (v->layout == Layout::Bytes) {
        ASSERT_GE(list.size(), 3u) << v->id;
        EXPECT_EQ(list[list.size() - 2].name, "copy_ghost_cols");
        EXPECT_EQ(list[list.size() - 1].name, "copy_ghost_rows");
      }
      if (v->id == "gpu-shared") {
        EXPECT_EQ(list[0].dynamic_smem, static_cast<size_t>((block + 2) * (block + 2)));
        EXPECT_NE(list[0].dynamic_smem_for, nullptr);
      }
      if (v->id == "gpu-bitpacked") {
        // The occupancy panel shows the instantiation that runs the engine's rule.
        gpu->set_rule(rule("B1357/S1357"));
        const std::vector<KernelInfo> generic = gpu->kernels(*v, block);
        gpu->set_rule(Rule::conway());
        ASSERT_EQ(generic.size(), 1u);
        EXPECT_NE(generic[0].func, list[0].func)
            << "Conway should run a compiled-in rule, B1357/S1357 the generic one";
        cudaFuncAttributes attr{};
        EXPECT_EQ(cudaFuncGetAttributes(&attr, generic[0].func), cudaSuccess);
      }
      if (v->id == "gpu-lut-local") {
        // The lesson of this variant: the run-time indexed table lives in local memory.
        cudaFuncAttributes attr{};
        ASSERT_EQ(cudaFuncGetAttributes(&attr, list[0].func), cudaSuccess);
        EXPECT_GE(attr.localSizeBytes, 2u * 9u * sizeof(int)) << "the states table is not in local memory";
      }
    }
  }
}

}  // namespace
}  // namespace gpulab::life

// The counters on known kernels give known counts (a copy moves its bytes once each way, a stride-32
// shared read conflicts and a stride-1 one does not), on the demos' own variants (Life's bit-packed
// step reads about one grid, histeq's bank-private histogram conflicts less than the shared one where
// lanes' bins share a bank, and neither conflicts on a constant image), and measuring through a probe
// leaves the live demo as it was.
// Where CUPTI may not read counters (no permission) the tests say why and fail: the GPU machine
// runs as root, and an unreadable counter there is a defect.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cli.h"
#include "cuda/counters.h"
#include "demos/histeq/histeq_demo.h"
#include "demos/life/life_demo.h"
#include "life/life.h"
#include "presenter/counters_command.h"
#include "support/configure_demo.h"
#include "support/gpu_gl_context.h"
#include "support/gpu_skip.h"
#include "support/run_binary.h"

namespace gpulab {
namespace {

using cuda::KernelCounters;
using cuda::Metric;

__global__ void copy_kernel(const int4* __restrict__ in, int4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// Each warp reads shared memory at lane * stride (words): stride 32 puts all 32 lanes in bank 0.
__global__ void shared_stride_kernel(float* out, int stride, int rounds) {
  __shared__ float s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x) s[i] = float(i);
  __syncthreads();
  const int lane = threadIdx.x & 31;
  float acc = 0;
  for (int r = 0; r < rounds; ++r) acc += s[(lane * stride + r) % (32 * 33)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

cuda::CounterResult measured(cuda::Counters& c, const std::function<void()>& launch) {
  cuda::CounterResult r = c.measure(launch);
  EXPECT_TRUE(r.ok()) << r.unavailable;
  return r;
}

TEST(CountersGpu, ACopyOfNBytesReadsAndWritesNBytes) {
  GPULAB_SKIP_WITHOUT_CUDA();
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  // Far larger than the L2 cache, so that what stays in it (read before, dirty after) is under 3%.
  size_t bytes = testing::small_tests() ? (size_t(256) << 20) : (size_t(4) << 30);
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  while (2 * bytes > free_b / 2 && bytes > (size_t(64) << 20)) bytes /= 2;
  const double slack = std::max(0.03, 2.0 * prop.l2CacheSize / double(bytes));
  int4 *in = nullptr, *out = nullptr;
  ASSERT_EQ(cudaMalloc(&in, bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&out, bytes), cudaSuccess);
  cudaMemset(in, 1, bytes);
  cudaMemset(out, 0, bytes);
  const size_t n = bytes / sizeof(int4);
  auto launch = [&] { copy_kernel<<<prop.multiProcessorCount * 8, 512>>>(in, out, n); };
  launch();  // warm
  cuda::Counters counters;
  const cuda::CounterResult r = measured(counters, launch);
  cudaFree(in);
  cudaFree(out);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_NE(r.kernels[0].kernel.find("copy_kernel"), std::string::npos) << r.kernels[0].kernel;
  const double read = r.total[Metric::DramRead], written = r.total[Metric::DramWrite];
  std::printf(
      "copy of %zu bytes on %s: read %.0f (%.4f), written %.0f (%.4f), %.3f ms, DRAM %.0f%% of peak\n", bytes,
      r.device.c_str(), read, read / bytes, written, written / bytes, r.total.ms(),
      r.total[Metric::DramThroughputPct]);
  EXPECT_NEAR(read / bytes, 1.0, slack);
  EXPECT_NEAR(written / bytes, 1.0, slack);
  EXPECT_GT(r.total.ms(), 0);
  EXPECT_GE(r.total[Metric::L2Bytes], 0.9 * (read + written));
  EXPECT_EQ(r.total[Metric::SharedLoads], 0);
}

TEST(CountersGpu, AStride32SharedReadConflictsAndAStride1ReadDoesNot) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const int blocks = 264, threads = 256, rounds = 64;
  float* out = nullptr;
  ASSERT_EQ(cudaMalloc(&out, sizeof(float) * blocks * threads), cudaSuccess);
  cuda::Counters counters;
  auto run = [&](int stride) {
    auto launch = [&] { shared_stride_kernel<<<blocks, threads>>>(out, stride, rounds); };
    launch();
    return measured(counters, launch);
  };
  const cuda::CounterResult one = run(1), thirty_two = run(32);
  cudaFree(out);
  ASSERT_TRUE(one.ok() && thirty_two.ok());
  const double loads = double(blocks) * (threads / 32) * rounds;  // warp-level shared loads in the loop
  std::printf("stride 1: %.0f conflicts, %.0f shared loads; stride 32: %.0f conflicts, %.0f shared loads\n",
              one.total[Metric::BankConflicts], one.total[Metric::SharedLoads],
              thirty_two.total[Metric::BankConflicts], thirty_two.total[Metric::SharedLoads]);
  EXPECT_GE(one.total[Metric::SharedLoads], loads);
  EXPECT_GE(thirty_two.total[Metric::SharedLoads], loads);
  // 32 lanes in one bank: 31 extra passes a load.
  EXPECT_GE(thirty_two.total[Metric::BankConflicts], 0.9 * 31 * loads);
  EXPECT_LE(one.total[Metric::BankConflicts], 0.02 * loads);
}

// A demo attached to the GPU context, configured from `args` as the app would.
void configure(Demo& demo, std::vector<const char*> args) {
  ASSERT_EQ(testing::configure_demo(demo, std::move(args), /*device=*/true), "");
}

// The pick of variant `id` (its stage's, at its default block).
Pick pick_of(const Demo& demo, std::string_view id) {
  const std::optional<Pick> p = find_pick(demo.stage_tables(), id);
  if (!p) ADD_FAILURE() << "no variant " << id;
  return p.value_or(Pick{});
}

TEST(CountersGpu, LifeBitpackedReadsAboutOneGridAStep) {
  const CudaStatus cs = cuda_status();
  GPULAB_SKIP_WITHOUT_CUDA();
  testing::GpuGlContext gpu;
  ASSERT_NO_FATAL_FAILURE(gpu.open(64, 64, cs.device));
  LifeDemo demo;
  // 32768² cells bit-packed is 128 MiB: larger than the L2 cache, so the step reads it from DRAM.
  const char* grid = testing::small_tests() ? "16384x16384" : "32768x32768";
  ASSERT_NO_FATAL_FAILURE(configure(demo, {"--grid", grid, "--seed", "3", "--variant", "gpu-bitpacked"}));
  demo.attach(gpu.ctx);
  cuda::Counters counters;
  const presenter::CounterRow row =
      presenter::measure_counters(counters, demo, gpu.ctx, pick_of(demo, "gpu-bitpacked"));
  demo.detach();
  ASSERT_TRUE(row.measured()) << row.unavailable;
  const double cells = row.ideal.items_per_step;
  const double grid_bytes = cells / 8;  // one bit a cell
  const double read = row.result.total[Metric::DramRead];
  std::printf(
      "life gpu-bitpacked %s: %zu kernel(s), read %.0f bytes = %.3f grids, written %.3f grids, ideal %.3f "
      "grids, %.3f ms\n",
      grid, row.result.kernels.size(), read, read / grid_bytes,
      row.result.total[Metric::DramWrite] / grid_bytes, row.ideal.bytes_per_step / grid_bytes,
      row.result.total.ms());
  EXPECT_GT(read / grid_bytes, 0.8);
  EXPECT_LT(read / grid_bytes, 1.5);
}

// Bank conflicts and shared passes of hist-bank-private (b, bw) and hist-shared-private (s, sw).
struct HistogramConflicts {
  bool measured = false;
  double b = 0, bw = 0, s = 0, sw = 0;
};

// hist-bank-private and hist-shared-private measured on a 4096x2048 greyscale image whose pixel x is
// grey(x); the figures are printed for the lecture, under `what`. An unmeasured row fails the test.
template <class Grey>
HistogramConflicts measure_histograms(const char* what, Grey grey) {
  testing::GpuGlContext gpu;
  gpu.open(64, 64, cuda_status().device);
  if (::testing::Test::HasFatalFailure()) return {};
  const std::filesystem::path path = testing::temp_dir("gpulab-counters-gpu") / "histogram.pgm";
  {
    const int w = 4096, h = 2048;
    std::ofstream f(path, std::ios::binary);
    f << "P5\n" << w << " " << h << "\n255\n";
    std::vector<char> pixels(size_t(w) * h);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = char(grey(int(i % w)));
    f.write(pixels.data(), std::streamsize(pixels.size()));
  }
  HisteqDemo demo;
  const std::string image = path.string();
  configure(demo, {"--image", image.c_str()});
  if (::testing::Test::HasFatalFailure()) return {};
  demo.attach(gpu.ctx);
  cuda::Counters counters;
  const presenter::CounterRow bank =
      presenter::measure_counters(counters, demo, gpu.ctx, pick_of(demo, "hist-bank-private"));
  const presenter::CounterRow shared =
      presenter::measure_counters(counters, demo, gpu.ctx, pick_of(demo, "hist-shared-private"));
  demo.detach();
  std::filesystem::remove(path);
  EXPECT_TRUE(bank.measured()) << bank.unavailable;
  EXPECT_TRUE(shared.measured()) << shared.unavailable;
  HistogramConflicts c;
  c.measured = bank.measured() && shared.measured();
  c.b = bank.result.total[Metric::BankConflicts];
  c.s = shared.result.total[Metric::BankConflicts];
  c.bw = bank.result.total[Metric::SharedWavefronts];
  c.sw = shared.result.total[Metric::SharedWavefronts];
  std::printf(
      "%s: hist-bank-private %.0f conflicts %.0f shared wavefronts %.3g ms; hist-shared-private %.0f "
      "conflicts %.0f shared wavefronts %.3g ms\n",
      what, c.b, c.bw, bank.result.total.ms(), c.s, c.sw, shared.result.total.ms());
  return c;
}

TEST(CountersGpu, BankPrivateHistogramConflictsLessThanTheSharedOne) {
  GPULAB_SKIP_WITHOUT_CUDA();
  // Grey levels 0, 32, 64 .. 224 over each run of 8 pixels: in hist-shared-private a warp's 32 lanes
  // add to 8 different bins that all live in bank 0 (bin b is word b): an 8-way conflict, 7 extra
  // passes an atomic. hist-bank-private keeps lane l's copy of every bin in bank l: no conflict.
  const HistogramConflicts c = measure_histograms("grey steps of 32", [](int x) { return (x % 8) * 32; });
  ASSERT_TRUE(c.measured);
  EXPECT_LE(c.b, 0.001 * c.bw);  // none, within the slack of the merge's few
  EXPECT_GE(c.s, 0.5 * c.sw);    // 7 of every 8 of its shared passes are conflicts (the merge adds a few)
  EXPECT_GT(c.s, 100 * (c.b + 1));
}

TEST(CountersGpu, HistogramAtomicsOnAConstantImageAreNotCountedAsBankConflicts) {
  GPULAB_SKIP_WITHOUT_CUDA();
  // One grey level: every lane of hist-shared-private adds to the same shared word. One word is not a
  // bank conflict, and the H200 counts none (neither in this counter nor in Nsight Compute's
  // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom: the same-address adds are combined in
  // the atomic unit, one pass an instruction, measured November 2026); hist-bank-private counts none
  // either. What costs hist-shared-private its time here is the serialised adds, not the banks.
  const HistogramConflicts c = measure_histograms("constant image", [](int) { return 117; });
  ASSERT_TRUE(c.measured);
  EXPECT_GT(c.bw, 0);
  EXPECT_GT(c.sw, 0);
  EXPECT_LE(c.b, 0.001 * c.bw);
  EXPECT_LE(c.s, 0.001 * c.sw);
}

// What a cached measurement (the strategies that keep CUPTI's objects and images between measurements)
// counts against a cold one (everything made afresh): the same kernels, in order, and the same counts
// on metrics that do not vary from run to run for a fixed kernel (shared loads and bank conflicts
// exactly; DRAM bytes of a copy far larger than the L2 within 3%).
struct FixedStep {
  int4 *in = nullptr, *out = nullptr;
  float* shared_out = nullptr;
  size_t n = 0;
  int sms = 0;
  static constexpr int kBlocks = 264, kThreads = 256, kRounds = 64;
  FixedStep() {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    sms = prop.multiProcessorCount;
    size_t bytes = std::max(size_t(prop.l2CacheSize) * 16, size_t(256) << 20);
    n = bytes / sizeof(int4);
    EXPECT_EQ(cudaMalloc(&in, bytes), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&out, bytes), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&shared_out, sizeof(float) * kBlocks * kThreads), cudaSuccess);
    cudaMemset(in, 3, bytes);
  }
  ~FixedStep() {
    cudaFree(in);
    cudaFree(out);
    cudaFree(shared_out);
  }
  void operator()() const {
    copy_kernel<<<sms * 8, 512>>>(in, out, n);
    shared_stride_kernel<<<kBlocks, kThreads>>>(shared_out, 32, kRounds);
  }
};

void expect_same_counts(const cuda::CounterResult& cold, const cuda::CounterResult& r,
                        const std::string& what) {
  ASSERT_TRUE(r.ok()) << what << ": " << r.unavailable;
  ASSERT_EQ(r.kernels.size(), cold.kernels.size()) << what;
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    const KernelCounters &a = cold.kernels[i], &b = r.kernels[i];
    EXPECT_EQ(b.kernel, a.kernel) << what;
    EXPECT_EQ(b[Metric::SharedLoads], a[Metric::SharedLoads]) << what << " " << b.kernel;
    EXPECT_EQ(b[Metric::BankConflicts], a[Metric::BankConflicts]) << what << " " << b.kernel;
    // DRAM bytes: within 3%, or 256 KiB for a kernel that moves little (what the L2 writes back while
    // it runs is the previous kernel's too, and varies from run to run).
    for (Metric m : {Metric::DramRead, Metric::DramWrite})
      EXPECT_NEAR(b[m], a[m], std::max(0.03 * a[m], 256.0 * 1024))
          << what << " " << b.kernel << " metric " << int(m);
  }
}

TEST(CountersGpu, CachedMeasurementsCountWhatAColdOneCounts) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const FixedStep step;
  step();  // warm
  cudaDeviceSynchronize();
  std::string why;
  cuda::Counters cold_counters(*cuda::parse_counters_strategy("cold", &why));
  const cuda::CounterResult cold = measured(cold_counters, [&] { step(); });
  ASSERT_TRUE(cold.ok());
  ASSERT_EQ(cold.kernels.size(), 2u);
  EXPECT_NE(cold.kernels[0].kernel.find("copy_kernel"), std::string::npos) << cold.kernels[0].kernel;
  EXPECT_NE(cold.kernels[1].kernel.find("shared_stride_kernel"), std::string::npos) << cold.kernels[1].kernel;
  const double warp_loads = double(FixedStep::kBlocks) * FixedStep::kThreads / 32 * FixedStep::kRounds;
  EXPECT_EQ(cold.kernels[1][Metric::SharedLoads], warp_loads);
  EXPECT_TRUE(cold.first);
  EXPECT_TRUE(measured(cold_counters, [&] { step(); }).first);  // cold: every measurement a first one
  for (const char* spec : {"default", "main", "kernel-replay", "keep-enabled", "image-each+subscribe-each"}) {
    cuda::Counters counters(*cuda::parse_counters_strategy(spec, &why));
    for (int i = 0; i < 3; ++i) {
      const cuda::CounterResult r = measured(counters, [&] { step(); });
      EXPECT_EQ(r.first, i == 0) << spec;
      EXPECT_EQ(r.strategy, cuda::counters_strategy_name(counters.strategy()));
      EXPECT_FALSE(r.phases.empty());
      std::printf("%-26s measurement %d: %6.1f ms (prepare %.1f, enable %.1f, step %.1f, decode %.1f)\n",
                  spec, i + 1, r.host_ms, r.prepare_ms, r.enable_ms, r.step_ms, r.decode_ms);
      expect_same_counts(cold, r, std::string(spec) + " measurement " + std::to_string(i + 1));
    }
    counters.release();
  }
}

TEST(CountersGpu, TwoCountersObjectsBothNameTheirKernels) {
  GPULAB_SKIP_WITHOUT_CUDA();
  const FixedStep step;
  step();
  cuda::Counters a, b;  // one callback subscriber a process: shared
  for (int i = 0; i < 2; ++i)
    for (cuda::Counters* c : {&a, &b}) {
      const cuda::CounterResult r = measured(*c, [&] { step(); });
      ASSERT_EQ(r.kernels.size(), 2u);
      EXPECT_NE(r.kernels[0].kernel.find("copy_kernel"), std::string::npos) << r.kernels[0].kernel;
    }
  {
    cuda::Counters gone;
    (void)measured(gone, [&] { step(); });
  }
  const cuda::CounterResult r = measured(a, [&] { step(); });  // after another object went
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_NE(r.kernels[1].kernel.find("shared_stride_kernel"), std::string::npos) << r.kernels[1].kernel;
}

TEST(CountersGpu, MeasuringLeavesTheDemoAsItWas) {
  const CudaStatus cs = cuda_status();
  GPULAB_SKIP_WITHOUT_CUDA();
  testing::GpuGlContext gpu;
  ASSERT_NO_FATAL_FAILURE(gpu.open(64, 64, cs.device));
  LifeDemo demo;
  ASSERT_NO_FATAL_FAILURE(configure(demo, {"--grid", "301x199", "--seed", "11", "--variant", "gpu-shared"}));
  demo.attach(gpu.ctx);
  Frame f;
  f.width = f.height = 64;
  f.playing = true;
  f.steps_per_frame = 3;
  demo.compute(f);
  cudaDeviceSynchronize();
  const uint64_t generation = demo.generation();
  const life::Grid before = demo.engine().download();
  cuda::Counters counters;
  int measured_rows = 0;
  const std::vector<Stage> stages = demo.stages();
  for (size_t s = 0; s < stages.size(); ++s)
    for (size_t i = 0; i < stages[s].variants.size(); ++i) {
      const VariantChoice& v = stages[s].variants[i];
      const presenter::CounterRow row =
          presenter::measure_counters(counters, demo, gpu.ctx, Pick{s, static_cast<int>(i), 0});
      if (!v.needs_cuda) {
        EXPECT_EQ(row.unavailable, "a CPU variant: the GPU's counters count GPU kernels only");
      } else if (s == 0) {  // the step's GPU variants all run alone (the ghost stage's only inside a step)
        EXPECT_TRUE(row.measured()) << v.id << ": " << row.unavailable;
        measured_rows += row.measured();
      }
    }
  EXPECT_GE(measured_rows, 5);
  EXPECT_EQ(demo.generation(), generation);
  EXPECT_TRUE(life::first_difference(demo.engine().download(), before) == std::nullopt);
  demo.detach();
}

}  // namespace
}  // namespace gpulab

// Game of Life benchmark rows: every variant (and block shape with --all-blocks) at each size,
// warm and synchronised, the median of repeats; cpu-naive and gpu-global are always measured too,
// as the baselines of the speedup columns.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/bench.h"
#include "core/stats.h"
#include "life/life.h"
#include "life/life_cuda.h"

#if defined(GPULAB_HAVE_CUDA)
#include <cuda_runtime.h>

#include "cuda/device_info.h"
#include "cuda/gpu_timer.h"
#include "cuda/raii.h"
#endif

namespace gpulab {
namespace {

using Clock = std::chrono::steady_clock;

// Times `generations` generations; synchronises (the bench may, the frame loop never does).
struct Timer {
  life::Engine* engine;
  Stream stream;
  double run(const life::Variant& v, int block, int generations) {
#if defined(GPULAB_HAVE_CUDA)
    if (v.backend == life::Backend::Cuda)
      return cuda::time_ms(stream, [&] { engine->step(v, block, generations); });
#endif
    const auto t0 = Clock::now();
    engine->step(v, block, generations);
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
};

}  // namespace

BenchSuite bench_life(const Options& o) {
  BenchSuite suite;
  suite.demo = "life";
  suite.baselines = {"cpu-naive", "gpu-global"};
  suite.targets = {
      {"gpu-bitpacked >= 9e12 cell updates/s at 32768x32768 (H100)", {"gpu-bitpacked"}, 32768, 9e12, "H100"},
      {"best byte-per-cell variant >= 1.2e12 cell updates/s at 16384x16384 (H100)",
       {"gpu-global", "gpu-lut-local", "gpu-lut-constant", "gpu-shared", "gpu-swar"}, 16384, 1.2e12, "H100"},
  };

  const gpulab::CudaStatus cs = gpulab::cuda_status();
  const bool cuda = cs.available && !o.cpu;
  std::unique_ptr<life::Engine> cpu = life::make_cpu_engine();
  std::unique_ptr<life::Engine> gpu;
  Stream stream = nullptr;
#if defined(GPULAB_HAVE_CUDA)
  cuda::Stream owned_stream;
  if (cuda) {
    cudaSetDevice(cs.device);
    owned_stream = cuda::Stream::create_non_blocking();
    stream = owned_stream.get();
    gpu = life::CudaEngine::create(stream);
    const cuda::DeviceInfo info = cuda::query_device(cs.device);
    suite.device = info.name + " (" + std::to_string(info.sm_count) + " SMs, CUDA " +
                   cuda::format_cuda_version(info.runtime_version) + ")";
    suite.peak_bandwidth_gbps = info.peak_bandwidth_gbs();
  }
#endif
  if (!cuda) suite.device = std::string(cpu->device_name()) + " (no CUDA: " + (o.cpu ? "--cpu" : cs.reason) + ")";

  // Which variants: the ones asked for (default all), plus the baselines.
  std::vector<const life::Variant*> chosen;
  if (o.bench_variants.empty()) {
    for (const life::Variant& v : life::variants()) chosen.push_back(&v);
  } else {
    for (const std::string& id : o.bench_variants) {
      const life::Variant* v = life::find_variant(id);
      if (!v) throw std::invalid_argument("unknown variant '" + id + "' (gpulab --list shows the ids)");
      chosen.push_back(v);
    }
  }
  std::vector<std::pair<const life::Variant*, bool>> plan;  // variant, baseline_only
  for (const std::string& b : suite.baselines) {
    const life::Variant* v = life::find_variant(b);
    if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) plan.push_back({v, true});
  }
  for (const life::Variant* v : chosen) plan.push_back({v, false});

  std::vector<int> sizes = o.bench_sizes.empty() ? std::vector<int>{16384} : o.bench_sizes;
  for (int n : sizes) {
    const std::string bad = life::check_size(n, n);
    if (!bad.empty()) throw std::invalid_argument(bad);
    for (auto [v, baseline_only] : plan) {
      std::vector<int> blocks;
      if (v->blocks.empty()) blocks = {0};
      else if (o.bench_all_blocks) blocks.assign(v->blocks.begin(), v->blocks.end());
      else blocks = {v->default_block};
      for (int block : blocks) {
        BenchRow row;
        row.demo = "life";
        row.variant = std::string(v->id);
        row.block = life::block_label(*v, block);
        row.width = row.height = n;
        row.item_unit = "cell updates";
        row.baseline_only = baseline_only;
        life::Engine* e = v->backend == life::Backend::Cuda ? gpu.get() : cpu.get();
        row.device = e ? std::string(e->device_name()) : "";
        if (!e) {
          row.error = "no CUDA device";
          suite.rows.push_back(row);
          continue;
        }
        try {
          if (e->width() != n || e->height() != n) e->resize(n, n);
          e->set_rule(life::Rule::conway());
          e->randomize(0.25, 42);
          Timer timer{e, stream};
          // Warm-up (first launch, layout conversion), then size the repeats: GPU repeats last at
          // least ~20 ms so event resolution and launch gaps do not dominate.
          const bool is_cpu = v->backend == life::Backend::Cpu;
          double t1 = timer.run(*v, block, 1);
          if (!is_cpu || n <= 4096) t1 = timer.run(*v, block, 1);
          int steps = o.bench_steps;
          if (steps <= 0) {
            steps = is_cpu ? std::clamp(static_cast<int>(std::ceil(200.0 / std::max(t1, 1e-3))), 1, 50)
                           : std::clamp(static_cast<int>(std::ceil(20.0 / std::max(t1, 1e-4))), 4, 2000);
          }
          int repeats = o.bench_repeats;
          if (is_cpu && t1 * steps > 1500.0) repeats = std::min(repeats, 3);
          RollingSeries per_step("ms", "ms", static_cast<size_t>(repeats));
          for (int r = 0; r < repeats; ++r) per_step.push(timer.run(*v, block, steps) / steps);
          row.steps = steps;
          row.repeats = repeats;
          row.ms_median = per_step.median();
          row.ms_min = per_step.min();
          row.ms_max = per_step.max();
          const double cells = static_cast<double>(n) * n;
          row.items_per_s = cells / (row.ms_median * 1e-3);
          row.gbps = life::bytes_per_generation(*v, n, n) / (row.ms_median * 1e-3) / 1e9;
          if (!is_cpu && suite.peak_bandwidth_gbps > 0) row.pct_peak = 100.0 * row.gbps / suite.peak_bandwidth_gbps;
        } catch (const std::exception& ex) {
          row.error = ex.what();
        }
        std::fprintf(stderr, "bench: %-17s %-7s %dx%d %s\n", row.variant.c_str(), row.block.c_str(), n, n,
                     row.error.empty() ? (std::to_string(row.ms_median) + " ms/step").c_str() : row.error.c_str());
        suite.rows.push_back(row);
      }
    }
  }
  return suite;
}

}  // namespace gpulab

// Game of Life benchmark rows: every variant (and block shape with --all-blocks) at each size; the
// measuring loop is core's. cpu-naive and gpu-global are always measured too, as the baselines of
// the speedup columns.
#include <algorithm>
#include <stdexcept>

#include "core/bench.h"
#include "core/demo.h"
#include "demos/life/life_demo.h"
#include "life/life.h"

#if defined(GPULAB_HAVE_CUDA)
#include "life/life_cuda.h"
#endif

namespace gpulab {

BenchSuite bench_life(const Options& o) {
  BenchSuite suite;
  suite.demo = "life";
  suite.baselines = {"cpu-naive", "gpu-global"};
  suite.targets = {
      {"gpu-bitpacked >= 9e12 cell updates/s at 32768x32768 (H100)", {"gpu-bitpacked"}, 32768, 32768, 9e12, "H100"},
      {"best byte-per-cell variant >= 1.2e12 cell updates/s at 16384x16384 (H100)",
       {"gpu-global", "gpu-lut-local", "gpu-lut-constant", "gpu-shared", "gpu-swar"}, 16384, 16384, 1.2e12, "H100"},
  };

  std::unique_ptr<life::Engine> cpu = life::make_cpu_engine();
  const BenchStream bench_stream(suite, o, std::string(cpu->device_name()));
  const Stream stream = bench_stream.get();
  std::unique_ptr<life::Engine> gpu;
#if defined(GPULAB_HAVE_CUDA)
  if (bench_stream.cuda()) gpu = life::CudaEngine::create(stream);
#endif

  const auto plan = bench_plan(life::variants(), o.variants, suite.baselines);

  std::vector<BenchSize> sizes = o.bench_sizes.empty() ? std::vector<BenchSize>{{16384, 0}} : o.bench_sizes;
  for (BenchSize size : sizes) {
    const int w = static_cast<int>(size.width), h = static_cast<int>(size.height ? size.height : size.width);
    const std::string bad = life::check_size(size.width, size.height ? size.height : size.width);
    if (!bad.empty()) throw std::invalid_argument(bad);
    for (const auto& [variant, baseline_only] : plan) {
      const auto* v = variant;  // a plain variable: lambdas below capture it (clang 14 cannot capture a binding)
      const std::vector<int> blocks = bench_blocks(*v, o);
      for (int block : blocks) {
        BenchRow row;
        row.demo = "life";
        row.stage = "step";
        row.variant = std::string(v->id);
        row.block = block_label(v->blocks, v->square_blocks, block);
        row.width = w;
        row.height = h;
        row.size = std::to_string(w) + "x" + std::to_string(h);
        row.item_unit = "cell updates";
        row.baseline_only = baseline_only;
        const bool is_cpu = v->backend == life::Backend::Cpu;
        life::Engine* e = is_cpu ? cpu.get() : gpu.get();
        row.device = e ? std::string(e->device_name()) : "";
        if (!e) {
          row.error = "no CUDA device";
          suite.rows.push_back(row);
          continue;
        }
        try {
          if (e->width() != w || e->height() != h) e->resize(w, h);
          e->set_rule(life::Rule::conway());
          e->randomize(0.25, bench_seed(o));
          const BenchTiming t = bench_time_steps([&](int steps) { e->step(*v, block, steps); }, !is_cpu, stream, o);
          bench_fill(row, t, static_cast<double>(w) * h, life::bytes_per_generation(*v, w, h), 0, suite, !is_cpu);
        } catch (const std::exception& ex) {
          row.error = ex.what();
        }
        std::fprintf(stderr, "bench: %-17s %-7s %s %s\n", row.variant.c_str(), row.block.c_str(), row.size.c_str(),
                     row.error.empty() ? (std::to_string(row.ms_median) + " ms/step").c_str() : row.error.c_str());
        suite.rows.push_back(row);
      }
    }
  }
  return suite;
}

}  // namespace gpulab

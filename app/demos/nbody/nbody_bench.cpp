// N-body benchmark rows: every variant (and block size with --all-blocks) at each body count; the
// measuring loop is core's. cpu and gpu-naive-aos are measured too, as the baselines of the speedup
// columns; cpu only where a step takes a few seconds at most (the table's notes say where not).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/bench.h"
#include "demos/nbody/nbody_demo.h"
#include "nbody/nbody.h"

#if defined(GPULAB_HAVE_CUDA)
#include "nbody/nbody_cuda.h"
#endif

namespace gpulab {
namespace {
constexpr double kCpuStepBudgetS = 3.0;  // the CPU reference is skipped where a step would take longer
}  // namespace

BenchSuite bench_nbody(const Options& o) {
  BenchSuite suite;
  suite.demo = "nbody";
  suite.baselines = {"cpu", "gpu-naive-aos"};
  std::vector<std::string> gpu_ids;
  for (const nbody::Variant& v : nbody::variants())
    if (v.backend == nbody::Backend::Cuda) gpu_ids.emplace_back(v.id);
  suite.targets = {
      {"best variant >= 1.5e12 interactions/s at N = 16384 (H100)", gpu_ids, 16384, 1, 1.5e12, "H100"},
      {"best variant >= 2.2e12 interactions/s at N = 131072 (H100)", gpu_ids, 131072, 1, 2.2e12, "H100"},
      {"best variant >= 2.2e12 interactions/s at N = 1048576 (H100)", gpu_ids, 1048576, 1, 2.2e12, "H100"},
  };

  std::unique_ptr<nbody::Engine> cpu = nbody::make_cpu_engine();
  const BenchStream bench_stream(suite, o, std::string(cpu->device_name()));
  const Stream stream = bench_stream.get();
  std::unique_ptr<nbody::Engine> gpu;
#if defined(GPULAB_HAVE_CUDA)
  if (bench_stream.cuda()) gpu = nbody::CudaEngine::create(stream);
#endif

  const auto plan = bench_plan(nbody::variants(), o.variants, suite.baselines);

  std::vector<long long> sizes;
  for (const BenchSize& b : o.bench_sizes) {
    if (b.height > 1) throw std::invalid_argument("N-body sizes are body counts: --size N");
    sizes.push_back(b.width);
  }
  if (sizes.empty()) sizes = {16384, 131072, 1048576};
  std::sort(sizes.begin(), sizes.end());

  nbody::Params params;  // the defaults: a Plummer sphere in N-body units
  double cpu_rate = 0;   // interactions/s the CPU reached at the last size it ran
  for (long long n : sizes) {
    if (n < nbody::kMinBodies || n > nbody::kMaxBodies)
      throw std::invalid_argument("--size " + std::to_string(n) + ": from 1 to " + std::to_string(nbody::kMaxBodies) + " bodies");
    const nbody::System system = nbody::make_initial(nbody::InitKind::Plummer, static_cast<size_t>(n), bench_seed(o), params);
    const double inter = nbody::interactions_per_step(static_cast<double>(n));
    for (const auto& [variant, baseline_only] : plan) {
      const auto* v = variant;  // a plain variable: lambdas below capture it (clang 14 cannot capture a binding)
      const std::vector<int> blocks = bench_blocks(*v, o);
      const bool is_cpu = v->backend == nbody::Backend::Cpu;
      if (is_cpu && cpu_rate > 0 && inter / cpu_rate > kCpuStepBudgetS) {
        char note[160];
        std::snprintf(note, sizeof note, "cpu skipped at N = %lld: about %.0f s a step at the %.2e interactions/s it "
                      "reached below", n, inter / cpu_rate, cpu_rate);
        suite.notes.push_back(note);
        continue;
      }
      for (int block : blocks) {
        BenchRow row;
        row.demo = "nbody";
        row.stage = "step";
        row.variant = std::string(v->id);
        row.block = v->blocks.empty() ? "-" : std::to_string(block);
        row.width = n;
        row.height = 1;
        row.size = "N=" + std::to_string(n);
        row.item_unit = "interactions";
        row.baseline_only = baseline_only;
        nbody::Engine* e = is_cpu ? cpu.get() : gpu.get();
        row.device = e ? std::string(e->device_name()) : "";
        if (!e) {
          row.error = "no CUDA device";
          suite.rows.push_back(row);
          continue;
        }
        try {
          e->set_params(params);
          e->upload(system);
          const BenchTiming t = bench_time_steps([&](int steps) { e->step(*v, block, steps); }, !is_cpu, stream, o);
          bench_fill(row, t, inter, 0, nbody::kFlopsPerInteraction * inter, suite, !is_cpu);
          if (is_cpu) cpu_rate = row.items_per_s;
        } catch (const std::exception& ex) {
          row.error = ex.what();
        }
        std::fprintf(stderr, "bench: %-16s %-5s %s %s\n", row.variant.c_str(), row.block.c_str(), row.size.c_str(),
                     row.error.empty() ? (std::to_string(row.ms_median) + " ms/step").c_str() : row.error.c_str());
        suite.rows.push_back(row);
      }
    }
  }
  return suite;
}

}  // namespace gpulab

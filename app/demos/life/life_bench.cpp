// Game of Life's benchmark: every variant (and block shape with --all-blocks) at each size, on a
// random grid (density 0.25, --seed), measured by core's stepper through make_life_probe.
// cpu-naive and gpu-global are always measured too, as the baselines of the speedup columns.
#include <stdexcept>

#include "core/bench_stepper.h"
#include "demos/common/bench_engines.h"
#include "demos/life/life_demo.h"
#include "life/life.h"

#if defined(GPULAB_HAVE_CUDA)
#include "life/life_cuda.h"
#endif

namespace gpulab {

bool LifeDemo::bench(const Setup&, const Options& o, BenchSpec* out) {
  BenchSpec& spec = *out;
  spec.suite.demo = "life";
  spec.suite.baselines = {"cpu-naive", "gpu-global"};
  spec.suite.targets = {
      {"gpu-bitpacked >= 9e12 cell updates/s at 32768x32768 (H100)",
       {"gpu-bitpacked"},
       32768,
       32768,
       9e12,
       "H100"},
      {"best byte-per-cell variant >= 1.2e12 cell updates/s at 16384x16384 (H100)",
       {"gpu-global", "gpu-lut-local", "gpu-lut-constant", "gpu-shared", "gpu-swar"},
       16384,
       16384,
       1.2e12,
       "H100"},
  };
  spec.item_unit = "cell updates";
  spec.variants =
      bench_variants(life::variants(), [](const life::Variant&, BenchVariant& b) { b.stage_id = "step"; });
  for (BenchSize size : o.bench_sizes.empty() ? std::vector<BenchSize>{{16384, 0}} : o.bench_sizes) {
    const long long w = size.width, h = size.height ? size.height : size.width;
    if (const std::string bad = life::check_size(w, h); !bad.empty()) throw std::invalid_argument(bad);
    spec.cases.push_back({std::to_string(w) + "x" + std::to_string(h), w, h, ""});
  }

  auto engines = std::make_shared<BenchEngines<life::Engine>>(spec.suite, o, life::make_cpu_engine());
#if defined(GPULAB_HAVE_CUDA)
  if (engines->cuda()) engines->set_gpu(life::CudaEngine::create(engines->stream()));
#endif
  const uint64_t seed = bench_seed(o);
  spec.probe = [engines, seed](const BenchCase& c, const BenchJob& job) {
    const life::Variant& v = *life::find_variant(job.variant);
    std::string why;
    std::shared_ptr<life::Engine> e = engines->get(v.backend == life::Backend::Cuda, &why);
    if (!e) return probe_unavailable(why);
    auto input = std::make_shared<LifeInput>();
    input->width = static_cast<int>(c.width);
    input->height = static_cast<int>(c.height);
    input->seed = seed;
    constexpr int kGhostBlock = 256;  // the engine's default
    return make_life_probe(std::move(e), engines->stream(), std::move(input), v, job.block, kGhostBlock);
  };
  return true;
}

}  // namespace gpulab

// N-body's benchmark: every variant (and block size with --all-blocks) at each body count, on a
// Plummer sphere (--seed), measured by core's stepper through make_nbody_probe. The Setup's options pin
// the sweep: --bodies is the count, --init the system, --dt, --softening and --gravity its parameters,
// --load-bodies the system itself (and its count). cpu and gpu-naive-aos are measured too, as the baselines
// of the speedup columns; cpu only where a step takes a few seconds at most (the skip rule; the table's notes
// say where not).
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "core/bench_stepper.h"
#include "core/bench_table.h"
#include "demos/common/bench_engines.h"
#include "demos/nbody/nbody_demo.h"
#include "nbody/nbody.h"

#include "nbody/nbody_cuda.h"

namespace gpulab {
namespace {
constexpr double kCpuStepBudgetS = 3.0;  // the CPU reference is skipped where a step would take longer
}  // namespace

bool NbodyDemo::bench(const Setup& setup, const Options& o, BenchSpec* out) {
  if (std::string bad = configure_for_bench(*this, setup, o); !bad.empty()) throw std::invalid_argument(bad);
  const NbodyParams& given = setup.params.as<NbodyParams>();
  if ((given.bodies || !given.load_bodies.empty()) && !o.bench_sizes.empty())
    throw std::invalid_argument(std::string(given.bodies ? "--bodies" : "--load-bodies") +
                                " and bench --size both give the body count: give one");
  BenchSpec& spec = *out;
  std::vector<std::string> gpu_ids;
  for (const nbody::Variant& v : nbody::variants())
    if (v.backend == nbody::Backend::Cuda) gpu_ids.emplace_back(v.id);
  bench_declare(spec, "nbody", {{"gpu", gpu_ids}});
  spec.item_unit = "interactions";
  spec.variants = bench_variants(stage_tables());
  std::vector<long long> sizes;
  for (const BenchSize& b : o.bench_sizes) {
    if (b.height > 1) throw std::invalid_argument("N-body sizes are body counts: --size N");
    if (b.width < nbody::kMinBodies || b.width > nbody::kMaxBodies)
      throw std::invalid_argument("--size " + std::to_string(b.width) + ": from 1 to " +
                                  std::to_string(nbody::kMaxBodies) + " bodies");
    sizes.push_back(b.width);
  }
  if (sizes.empty()) sizes = {16384, 131072, 1048576};
  if (given.bodies) sizes = {given.bodies};
  if (loaded_) sizes = {static_cast<long long>(loaded_->size())};
  if (std::string note = pinned_note(setup); !note.empty()) spec.suite.notes.push_back(note);
  std::sort(sizes.begin(), sizes.end());
  for (long long n : sizes) spec.cases.push_back({"N=" + std::to_string(n), n, 1, ""});

  auto engines = std::make_shared<BenchEngines<nbody::Engine>>(spec.suite, o, nbody::make_cpu_engine());
  if (engines->cuda()) engines->set_gpu(nbody::CudaEngine::create(engines->stream()));
  // The system of the case measured last, made once for its jobs.
  // The command line's system (--load-bodies), else one made from --init (a Plummer sphere by default)
  // with the parameters (--dt, --softening, --gravity: N-body units by default).
  auto system = std::make_shared<std::shared_ptr<const nbody::System>>();
  if (loaded_) *system = std::make_shared<const nbody::System>(*loaded_);
  const uint64_t seed = bench_seed(o);
  const nbody::Params params = params_;
  const nbody::InitKind init = init_;
  spec.probe = [engines, system, seed, params, init](const BenchCase& c, const BenchJob& job) {
    const nbody::Variant& v = *nbody::find_variant(job.variant);
    std::string why;
    std::shared_ptr<nbody::Engine> e = engines->get(v.backend == nbody::Backend::Cuda, &why);
    if (!e) return probe_unavailable(why);
    if (!*system || static_cast<long long>((*system)->size()) != c.width)
      *system = std::make_shared<const nbody::System>(
          nbody::make_initial(init, static_cast<size_t>(c.width), seed, params));
    return make_nbody_probe(std::move(e), engines->stream(), *system, params, v, job.block);
  };
  // The CPU is left out where the rate it reached at the last (smaller) size says a step would take
  // longer than kCpuStepBudgetS.
  spec.skip = [](const BenchCase& c, const BenchJob& job, const BenchSuite& so_far, std::string* note) {
    if (nbody::find_variant(job.variant)->backend != nbody::Backend::Cpu) return false;
    double rate = 0;
    for (const BenchRow& r : so_far.rows)
      if (r.variant == job.variant && r.error.empty()) rate = r.items_per_s;
    const double inter = nbody::interactions_per_step(static_cast<double>(c.width));
    if (!(rate > 0) || inter / rate <= kCpuStepBudgetS) return false;
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "cpu skipped at N = %lld: about %.0f s a step at the %.2e interactions/s it "
                  "reached below",
                  c.width, inter / rate, rate);
    *note = buf;
    return true;
  };
  return true;
}

}  // namespace gpulab

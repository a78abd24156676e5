// Histogram equalization's benchmark: every stage variant (and block size with --all-blocks) on each
// size and input (uniform random, constant, a narrow band 100..123), through make_histeq_probe, and
// the whole pipelines (CPU, naive GPU, best GPU) for equalize and stretch, the bench's own rows.
// Speedup columns: over the stage's CPU variant, its naive GPU variant, and CUB's histogram
// (histogram rows). Core's stepper measures them.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/random.h"
#include "core/bench_stepper.h"
#include "core/bench_table.h"
#include "demos/common/bench_engines.h"
#include "demos/common/image_source.h"
#include "demos/histeq/histeq_demo.h"
#include "histeq/histeq.h"

#include "histeq/histeq_cuda.h"

namespace gpulab {
namespace {

using histeq::StageId;

struct BenchInput {
  const char* label;
  int kind;  // 0 uniform, 1 constant, 2 narrow band
};
constexpr BenchInput kInputs[] = {{"uniform", 0}, {"constant", 1}, {"narrow 100..123", 2}};

std::vector<uint8_t> make_plane(int kind, size_t n, uint64_t seed) {
  std::vector<uint8_t> p(n);
  uint64_t s = seed;
  auto next = [&s] { return splitmix64(s); };
  if (kind == 1) {
    std::fill(p.begin(), p.end(), uint8_t(137));
  } else {
    for (size_t i = 0; i < n; i += 8) {
      uint64_t r = next();
      for (size_t k = 0; k < 8 && i + k < n; ++k, r >>= 8)
        p[i + k] = kind == 0 ? uint8_t(r) : uint8_t(100 + (r & 0xFF) % 24);
    }
  }
  return p;
}

// The whole pipelines the bench times, per mode: the variants run in order for one frame.
struct Pipeline {
  const char* id;
  const char* stage;  // "equalize" or "stretch"
  std::vector<const char*> steps;
  bool cpu;
};
const std::vector<Pipeline>& pipelines() {
  static const std::vector<Pipeline> p = {
      {"pipeline-cpu", "equalize", {"hist-cpu", "scan-cpu", "apply-cpu"}, true},
      {"pipeline-naive", "equalize", {"hist-atomic-global", "scan-serial", "apply-global"}, false},
      {"pipeline-best", "equalize", {"hist-fused-scan", "apply-shared"}, false},
      {"stretch-cpu", "stretch", {"reduce-cpu", "apply-cpu"}, true},
      {"stretch-naive", "stretch", {"reduce-divergent", "apply-global"}, false},
      {"stretch-best", "stretch", {"reduce-warp-shuffle", "apply-shared"}, false},
  };
  return p;
}

std::string pipeline_text(const Pipeline& p) {
  std::string s;
  for (const char* step : p.steps) s += (s.empty() ? "" : " > ") + std::string(step);
  return s;
}

}  // namespace

bool HisteqDemo::bench(const Setup& setup, const Options& o, BenchSpec* out) {
  if (std::string bad = configure_for_bench(*this, setup, o); !bad.empty()) throw std::invalid_argument(bad);
  const HisteqParams& given = setup.params.as<HisteqParams>();
  const bool image_given = !setup.shared.image.empty();
  if (image_given && !o.bench_sizes.empty())
    throw std::invalid_argument("--image and bench --size both give the size: give one");
  if (given.per_channel && !image_given)
    throw std::invalid_argument(
        "--per-channel splits a colour image: the bench's inputs are grey planes "
        "(give a colour --image)");
  // --mode keeps the stages and pipelines of one mode.
  const bool mode_given = !given.mode.empty();
  auto in_mode = [&](StageId s) { return !mode_given || histeq::stage_runs(s, mode_); };
  auto pipeline_in_mode = [&](const Pipeline& p) {
    return !mode_given || std::string(p.stage) == (mode_ == histeq::Mode::Equalize ? "equalize" : "stretch");
  };
  BenchSpec& spec = *out;
  BenchSuite& suite = spec.suite;
  // Ours and the library's: the exact GPU rungs of every stage (the best histogram is among ours).
  std::vector<std::string> ours, library, best_hist;
  for (const histeq::Variant& v : histeq::variants()) {
    if (v.backend != histeq::Backend::Cuda || !v.exact) continue;
    (v.library ? library : ours).emplace_back(v.id);
    if (!v.library && v.stage == StageId::Histogram) best_hist.emplace_back(v.id);
  }
  bench_declare(spec, "histeq", {{"histogram", best_hist}});
  spec.item_unit = "pixels";

  // --variant picks stage variants and pipeline ids; the stage table's plan adds its baselines.
  std::vector<std::string> stage_ids, pipeline_ids;
  for (const std::string& id : o.variants) {
    bool is_pipeline = false;
    for (const Pipeline& p : pipelines()) is_pipeline |= id == p.id;
    (is_pipeline ? pipeline_ids : stage_ids).push_back(id);
  }
  if (!stage_ids.empty() || pipeline_ids.empty()) {  // else only pipelines were asked for: no stage rows
    spec.variants =
        bench_variants(stage_tables(), [&](size_t s) { return in_mode(histeq::stage_infos()[s].id); });
  }
  spec.ids = stage_ids;
  for (BenchBaseline& group : *spec.plan_baselines)  // the baselines of the stages measured
    std::erase_if(group.variants,
                  [&](const std::string& id) { return !in_mode(histeq::find_variant(id)->stage); });
  for (const Pipeline& p : pipelines()) {
    if (!pipeline_in_mode(p)) continue;
    const bool asked = std::find(pipeline_ids.begin(), pipeline_ids.end(), p.id) != pipeline_ids.end();
    // A pipeline baseline (pipeline-cpu, stretch-naive, ...) comes along with a pipeline asked for.
    bool baseline = false;
    for (const BenchBaseline& group : suite.baselines)
      baseline =
          baseline || std::find(group.variants.begin(), group.variants.end(), p.id) != group.variants.end();
    if (!o.variants.empty() && !asked && (pipeline_ids.empty() || !baseline)) continue;
    BenchJob job;
    job.stage_id = p.stage;
    job.variant = p.id;
    job.block_label = "-";
    spec.extra.push_back(job);
    suite.notes.push_back(std::string(p.id) + " = " + pipeline_text(p));
  }
  suite.notes.push_back("histogram rows with a memset-needing variant include clearing the 256 counters");
  // Our best against the library lecture's rungs, each stage and case (after the rows are in).
  spec.finish = [ours, library](BenchSuite& s) {
    for (std::string& line : ours_against_library(s, ours, library)) s.notes.push_back(std::move(line));
  };

  if (std::string note = pinned_note(setup); !note.empty()) suite.notes.push_back(note);
  std::vector<int> kinds;  // of each case's input (-1: --image's planes)
  std::shared_ptr<const histeq::Planes> image_planes;
  if (image_given) {
    image_planes = std::make_shared<const histeq::Planes>(planes_);
    spec.cases.push_back({std::to_string(planes_.width) + "x" + std::to_string(planes_.height), planes_.width,
                          planes_.height, origin_.name});
    kinds.push_back(-1);
  }
  for (BenchSize size : image_given             ? std::vector<BenchSize>{}
                        : o.bench_sizes.empty() ? std::vector<BenchSize>{{3840, 2160}, {16384, 16384}}
                                                : o.bench_sizes) {
    size = image_bench_size(size);
    for (const BenchInput& input : kInputs) {
      spec.cases.push_back({std::to_string(size.width) + "x" + std::to_string(size.height), size.width,
                            size.height, input.label});
      kinds.push_back(input.kind);
    }
  }

  auto engines = std::make_shared<BenchEngines<histeq::Engine>>(suite, o, histeq::make_cpu_engine());
  if (engines->cuda()) engines->set_gpu(histeq::CudaEngine::create(engines->stream()));
  // The plane of the case measured last, made once and uploaded once to each engine for its jobs.
  struct Current {
    size_t case_index = static_cast<size_t>(-1);
    std::shared_ptr<const histeq::Planes> planes;
  };
  auto current = std::make_shared<Current>();
  const uint64_t seed = bench_seed(o);
  spec.probe = [engines, current, kinds, seed, image_planes](const BenchCase& c, const BenchJob& job) {
    if (current->case_index != job.case_index && kinds[job.case_index] < 0) {
      current->planes = image_planes;
      current->case_index = job.case_index;
    }
    if (current->case_index != job.case_index) {
      auto planes = std::make_shared<histeq::Planes>();
      planes->width = static_cast<int>(c.width);
      planes->height = static_cast<int>(c.height);
      planes->layout = histeq::Layout::Grey;
      const size_t n = planes->pixel_count();
      planes->planes.push_back(make_plane(kinds[job.case_index], n, seed + n));
      current->planes = std::move(planes);
      current->case_index = job.case_index;
    }
    const Pipeline* pipeline = nullptr;
    for (const Pipeline& p : pipelines())
      if (job.variant == p.id) pipeline = &p;
    const histeq::Variant* v = pipeline ? nullptr : histeq::find_variant(job.variant);
    std::string why;
    std::shared_ptr<histeq::Engine> e = engines->get(
        pipeline ? !pipeline->cpu : v->backend == histeq::Backend::Cuda, job.case_index,
        [&](histeq::Engine& engine) { engine.upload(*current->planes); }, &why);
    if (!e) return probe_unavailable(why);
    if (v)
      if (std::string no = histeq::library_unavailable(*v); !no.empty()) return probe_unavailable(no);
    if (pipeline) {
      std::vector<std::pair<const histeq::Variant*, int>> steps;
      for (const char* id : pipeline->steps) {
        const histeq::Variant* s = histeq::find_variant(id);
        steps.emplace_back(s, s->default_block);
      }
      return make_histeq_pipeline_probe(std::move(e), engines->stream(), *current->planes, steps);
    }
    return make_histeq_probe(std::move(e), engines->stream(), current->planes, *v, job.block);
  };
  return true;
}

}  // namespace gpulab

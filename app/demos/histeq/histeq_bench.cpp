// Histogram-equalization benchmark rows: every stage variant (and block size with --all-blocks) on
// each size and input (uniform random, constant, a narrow band 100..123), and the whole pipelines
// (CPU, naive GPU, best GPU) for equalize and stretch. Speedup columns: over the stage's CPU variant,
// its naive GPU variant, and CUB's histogram (histogram rows). The measuring loop is core's.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/random.h"
#include "core/bench.h"
#include "demos/common/image_source.h"
#include "demos/histeq/histeq_demo.h"
#include "histeq/histeq.h"

#if defined(GPULAB_HAVE_CUDA)
#include "histeq/histeq_cuda.h"
#endif

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

BenchSuite bench_histeq(const Options& o) {
  BenchSuite suite;
  suite.demo = "histeq";
  const std::vector<BenchBaseline> stage_baselines = {
      {"cpu", {"hist-cpu", "scan-cpu", "reduce-cpu", "apply-cpu"}},
      {"naive", {"hist-atomic-global", "scan-serial", "reduce-divergent", "apply-global"}},
      {"hist-cub", {"hist-cub"}},
  };
  suite.baselines = stage_baselines;
  suite.baselines[0].variants.insert(suite.baselines[0].variants.end(), {"pipeline-cpu", "stretch-cpu"});
  suite.baselines[1].variants.insert(suite.baselines[1].variants.end(), {"pipeline-naive", "stretch-naive"});

  std::vector<std::string> best_hist;
  for (const histeq::Variant* v : histeq::variants_of(StageId::Histogram))
    if (v->backend == histeq::Backend::Cuda && v->exact && v->id != "hist-cub") best_hist.emplace_back(v->id);
  BenchTarget every;
  every.what = "the best histogram variant is faster than hist-cub on every size and input (H100)";
  every.variants = best_hist;
  every.versus = {"hist-cub"};
  every.min_ratio = 1.0;
  every.device_hint = "H100";
  BenchTarget at4k = every;
  at4k.what = "the best histogram variant >= 1.25x hist-cub at 3840x2160 (H100)";
  at4k.width = 3840;
  at4k.height = 2160;
  at4k.min_ratio = 1.25;
  BenchTarget whole;
  whole.what = "the whole equalization of a 3840x2160 grey image <= 15 us (H100)";
  whole.variants = {"pipeline-best", "pipeline-naive"};
  whole.width = 3840;
  whole.height = 2160;
  whole.max_ms = 0.015;
  whole.device_hint = "H100";
  suite.targets = {every, at4k, whole};

  std::unique_ptr<histeq::Engine> cpu = histeq::make_cpu_engine();
  const BenchStream bench_stream(suite, o, std::string(cpu->device_name()));
  const Stream stream = bench_stream.get();
  std::unique_ptr<histeq::Engine> gpu;
#if defined(GPULAB_HAVE_CUDA)
  if (bench_stream.cuda()) gpu = histeq::CudaEngine::create(stream);
#endif

  // --variant picks stage variants and pipeline ids; the stage table's plan adds its baselines.
  std::vector<std::string> stage_ids, pipeline_ids;
  for (const std::string& id : o.variants) {
    bool is_pipeline = false;
    for (const Pipeline& p : pipelines()) is_pipeline |= id == p.id;
    (is_pipeline ? pipeline_ids : stage_ids).push_back(id);
  }
  const bool only_pipelines = stage_ids.empty() && !pipeline_ids.empty();
  std::vector<std::pair<const histeq::Variant*, bool>> plan;
  if (!only_pipelines) plan = bench_plan(histeq::variants(), stage_ids, stage_baselines);
  std::vector<const Pipeline*> chosen_pipelines;
  for (const Pipeline& p : pipelines()) {
    const bool asked = std::find(pipeline_ids.begin(), pipeline_ids.end(), p.id) != pipeline_ids.end();
    // A pipeline baseline (pipeline-cpu, stretch-naive, ...) comes along with a pipeline asked for.
    bool baseline = false;
    for (const BenchBaseline& group : suite.baselines)
      baseline = baseline || std::find(group.variants.begin(), group.variants.end(), p.id) != group.variants.end();
    if (o.variants.empty() || asked || (!pipeline_ids.empty() && baseline)) chosen_pipelines.push_back(&p);
  }
  for (const Pipeline* p : chosen_pipelines)
    suite.notes.push_back(std::string(p->id) + " = " + pipeline_text(*p));
  suite.notes.push_back("histogram rows with a memset-needing variant include clearing the 256 counters");

  std::vector<BenchSize> sizes = o.bench_sizes;
  if (sizes.empty()) sizes = {{3840, 2160}, {16384, 16384}};
  for (BenchSize size : sizes) {
    size = image_bench_size(size);
    const int w = static_cast<int>(size.width), h = static_cast<int>(size.height);
    const size_t n = size_t(w) * size_t(h);
    const std::string size_label = std::to_string(w) + "x" + std::to_string(h);
    for (const BenchInput& input : kInputs) {
      histeq::Planes planes;
      planes.width = w;
      planes.height = h;
      planes.layout = histeq::Layout::Grey;
      planes.planes.push_back(make_plane(input.kind, n, bench_seed(o) + n));
      std::string gpu_error;
      cpu->upload(planes);
      if (gpu) {
        try {
          gpu->upload(planes);
        } catch (const std::exception& e) {
          gpu_error = e.what();
        }
      }
      planes = histeq::Planes{};  // the engines hold their copies
      // Scan and apply read a histogram and a LUT: compute them once on each engine.
      prepare_stage_inputs(*cpu, StageId::Apply, 1);
      if (gpu && gpu_error.empty()) prepare_stage_inputs(*gpu, StageId::Apply, 1);

      auto measure = [&](BenchRow row, bool is_cpu, double items, double bytes, const std::function<void(int)>& step) {
        row.demo = "histeq";
        row.size = size_label;
        row.width = w;
        row.height = h;
        row.input = input.label;
        row.item_unit = "pixels";
        histeq::Engine* e = is_cpu ? cpu.get() : gpu.get();
        row.device = e ? std::string(e->device_name()) : "";
        bench_measure_row(row, !e ? "no CUDA device" : is_cpu ? "" : gpu_error, !is_cpu, items, bytes, step, stream, o,
                          suite);
        std::fprintf(stderr, "bench: %-9s %-24s %-5s %s %s %s\n", row.stage.c_str(), row.variant.c_str(),
                     row.block.c_str(), size_label.c_str(), input.label,
                     row.error.empty() ? (std::to_string(row.ms_median * 1e3) + " us/step").c_str() : row.error.c_str());
        suite.rows.push_back(row);
      };

      for (const auto& [variant, baseline_only] : plan) {
        const auto* v = variant;  // a plain variable: lambdas below capture it (clang 14 cannot capture a binding)
        const std::vector<int> blocks = bench_blocks(*v, o);
        const bool is_cpu = v->backend == histeq::Backend::Cpu;
        for (int block : blocks) {
          BenchRow row;
          row.stage = std::string(histeq::stage_infos()[static_cast<int>(v->stage)].key);
          row.variant = std::string(v->id);
          row.block = v->blocks.empty() ? "-" : std::to_string(block);
          row.baseline_only = baseline_only;
          histeq::Engine* e = is_cpu ? cpu.get() : gpu.get();
          measure(row, is_cpu, double(n), histeq::stage_bytes(v->stage, double(n)), [&, v, block](int steps) {
            for (int i = 0; i < steps; ++i) e->run(*v, block, 0);
          });
        }
      }
      for (const Pipeline* p : chosen_pipelines) {
        BenchRow row;
        row.stage = p->stage;
        row.variant = p->id;
        row.block = "-";
        std::vector<const histeq::Variant*> steps;
        for (const char* id : p->steps) steps.push_back(histeq::find_variant(id));
        histeq::Engine* e = p->cpu ? cpu.get() : gpu.get();
        measure(row, p->cpu, double(n), 3.0 * double(n), [&, steps](int k) {
          for (int i = 0; i < k; ++i)
            for (const histeq::Variant* v : steps) e->run(*v, v->default_block, 0);
        });
      }
    }
  }
  return suite;
}

}  // namespace gpulab

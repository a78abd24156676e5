// The probe of one histogram-equalization stage variant, for the ladder (on a copy of the current
// planes) and the bench (on its cases): the stage's inputs (a histogram for scan, a LUT for apply)
// made first by the engine's plain variants; one step runs the stage over every processed plane.
// verify compares the stage's own result (histogram, LUT, min/max or output plane) with the CPU
// engine's for the same stage, byte for byte.
#include <cstdio>
#include <memory>

#include "common/text.h"
#include "demos/common/cuda_start.h"
#include "demos/common/probe_checks.h"
#include "demos/histeq/histeq_demo.h"
#include "histeq/histeq.h"

#include "histeq/histeq_cuda.h"

namespace gpulab {
namespace {

using histeq::Backend;
using histeq::StageId;

// The first difference between the stage results of two engines on plane `p`, or "".
std::string compare(histeq::Engine& got, histeq::Engine& want, const histeq::Variant& v, int p) {
  char buf[200];
  auto differ = [&](const auto& a, const auto& b, const char* what) -> std::string {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
      if (a[i] != b[i]) {
        std::snprintf(buf, sizeof buf, "%s differs from the CPU's in plane %d at %zu: %lld, not %lld", what,
                      p, i, static_cast<long long>(a[i]), static_cast<long long>(b[i]));
        return buf;
      }
    return {};
  };
  switch (v.stage) {
    case StageId::Histogram: {
      const histeq::Histogram a = got.histogram(p), b = want.histogram(p);
      long long lost = 0;
      for (size_t i = 0; i < a.size(); ++i)
        lost += static_cast<long long>(b[i]) - static_cast<long long>(a[i]);
      if (std::string d = differ(a, b, "the histogram"); !d.empty()) {
        if (!v.exact && lost > 0) {
          std::snprintf(buf, sizeof buf, "loses counts, as its race does: %lld of %zu pixels not counted",
                        lost, static_cast<size_t>(got.width()) * static_cast<size_t>(got.height()));
          return buf;
        }
        return d;
      }
      if (v.writes_lut) return differ(got.lut(p), want.lut(p), "the LUT it writes");
      return {};
    }
    case StageId::Scan:
      return differ(got.lut(p), want.lut(p), "the LUT");
    case StageId::Reduce: {
      const histeq::MinMax a = got.minmax(p), b = want.minmax(p);
      if (a == b) return differ(got.lut(p), want.lut(p), "the stretch LUT");
      std::snprintf(buf, sizeof buf, "min/max %d..%d differs from the CPU's %d..%d in plane %d", a.min, a.max,
                    b.min, b.max, p);
      return buf;
    }
    case StageId::Apply:
      return differ(got.output(p), want.output(p), "the output");
  }
  return {};
}

}  // namespace

void prepare_stage_inputs(histeq::Engine& e, StageId stage, int planes) {
  const bool cpu = e.backend() == Backend::Cpu;
  for (int p = 0; p < planes; ++p) {
    if (stage == StageId::Scan || stage == StageId::Apply)
      e.run(*histeq::find_variant(cpu ? "hist-cpu" : "hist-atomic-global"), 256, p);
    if (stage == StageId::Apply) e.run(*histeq::find_variant(cpu ? "scan-cpu" : "scan-serial"), 0, p);
  }
}

Probe make_histeq_probe(std::shared_ptr<histeq::Engine> engine, Stream stream,
                        std::shared_ptr<const histeq::Planes> planes, const histeq::Variant& v, int block) {
  const int n = planes->processed();
  prepare_stage_inputs(*engine, v.stage, n);
  const double pixels = static_cast<double>(planes->pixel_count()) * n;
  Probe p;
  p.gpu = v.backend == Backend::Cuda;
  p.stream = p.gpu ? stream : nullptr;
  p.device = std::string(engine->device_name());
  p.items_per_step = pixels;
  p.item_unit = "pixels";
  p.per = "per image";  // every plane of the image: "pipeline (per image)"'s words
  p.bytes_per_step = histeq::stage_bytes(v.stage, pixels);
  p.width = planes->width;
  p.height = planes->height;
  p.size = std::to_string(p.width) + "x" + std::to_string(p.height);
  histeq::Engine* e = engine.get();
  const histeq::Variant* pv = &v;
  p.run = [e, pv, block, n](int steps) {
    for (int i = 0; i < steps; ++i)
      for (int pl = 0; pl < n; ++pl) e->run(*pv, block, pl);
  };
  if (p.gpu) {
    p.verify = [engine, pv, block, planes, n]() -> std::string {
      auto reference = histeq::make_cpu_engine();
      reference->upload(*planes);
      prepare_stage_inputs(*reference, pv->stage, n);
      const histeq::Variant& ref = *histeq::variants_of(pv->stage).front();  // the stage's CPU variant
      // A histogram variant that writes the LUT is compared with the CPU's histogram and scan.
      const histeq::Variant* ref_scan = pv->writes_lut ? histeq::find_variant("scan-cpu") : nullptr;
      for (int pl = 0; pl < n; ++pl) {
        reference->run(ref, 0, pl);
        if (ref_scan) reference->run(*ref_scan, 0, pl);
        engine->run(*pv, block, pl);
        if (std::string d = compare(*engine, *reference, *pv, pl); !d.empty()) return d;
      }
      return {};
    };
  }
  p.state = engine;
  return p;
}

// The ladder's probe: a fresh engine of the variant's backend holding a copy of the current planes.
Probe HisteqDemo::probe(const Picks& picks, size_t stage) {
  if (stage == kWholePipeline) return pipeline_probe(picks);
  if (stage >= histeq::kStageCount) return probe_unavailable("no stage " + std::to_string(stage));
  const histeq::Variant* v = &variant(picks, stage);
  int block = picks[stage].block;
  std::string why;
  if (!variant_available(*v, &why)) return probe_unavailable(why);
  if (why = check_probe_block(*v, &block); !why.empty()) return probe_unavailable(why);
  std::shared_ptr<histeq::Engine> engine;
  if (v->backend == Backend::Cuda) engine = histeq::CudaEngine::create(ctx_->stream);
  if (!engine) engine = histeq::make_cpu_engine();
  engine->upload(planes_);
  return make_histeq_probe(std::move(engine), ctx_->stream, std::make_shared<const histeq::Planes>(planes_),
                           *v, block);
}

Probe make_histeq_pipeline_probe(std::shared_ptr<histeq::Engine> engine, Stream stream,
                                 const histeq::Planes& planes,
                                 const std::vector<std::pair<const histeq::Variant*, int>>& steps) {
  std::vector<std::pair<const histeq::Variant*, int>> run;
  std::string ran;
  bool lut_written = false;
  for (const auto& [v, block] : steps) {
    if (v->stage == StageId::Scan && lut_written) continue;
    lut_written = lut_written || v->writes_lut;
    run.emplace_back(v, block);
    if (!ran.empty()) ran += " → ";
    ran += v->id;
    if (!v->blocks.empty()) {
      ran += ' ';
      ran += std::to_string(block);
    }
  }
  const int n = planes.processed();
  const double pixels = static_cast<double>(planes.pixel_count()) * n;
  Probe p;
  p.gpu = !run.empty() && run.front().first->backend == Backend::Cuda;
  p.stream = p.gpu ? stream : nullptr;
  p.device = std::string(engine->device_name());
  p.items_per_step = pixels;
  p.item_unit = "pixels";
  p.per = "per image";  // "pipeline (per image)"'s words
  p.bytes_per_step =
      3.0 * pixels;  // as the pipeline's read-out: read for the histogram, read and write to apply
  p.width = planes.width;
  p.height = planes.height;
  p.size = std::to_string(p.width) + "x" + std::to_string(p.height);
  histeq::Engine* e = engine.get();
  p.run = [e, run, n](int k) {
    for (int i = 0; i < k; ++i)
      for (int pl = 0; pl < n; ++pl)  // as the demo runs it: each plane through every stage
        for (const auto& [v, block] : run) e->run(*v, block, pl);
  };
  p.note = ran;
  p.state = std::move(engine);
  return p;
}

// The whole pipeline on a copy of the current planes (the ladder's last panel).
// The whole pipeline of `picks`: every stage that runs in the current mode, in order (a scan after a
// histogram variant that writes the LUT is left out by make_histeq_pipeline_probe).
Probe HisteqDemo::pipeline_probe(const Picks& picks) {
  std::vector<std::pair<const histeq::Variant*, int>> chain;
  std::string why;
  for (size_t s = 0; s < histeq::kStageCount; ++s) {
    if (!histeq::stage_runs(info(s).id, mode_)) continue;
    const histeq::Variant* v = &variant(picks, s);
    if (!variant_available(*v, &why)) return probe_unavailable(why);
    if (!chain.empty() && v->backend != chain.front().first->backend)
      return probe_unavailable("a pipeline runs on one backend: " + std::string(chain.front().first->id) +
                               " and " + std::string(v->id) + " do not");
    int block = picks[s].block;
    if (why = check_probe_block(*v, &block); !why.empty()) return probe_unavailable(why);
    chain.emplace_back(v, block);
  }
  if (chain.empty()) return probe_unavailable("an empty pipeline");
  std::shared_ptr<histeq::Engine> engine;
  if (chain.front().first->backend == Backend::Cuda) engine = histeq::CudaEngine::create(ctx_->stream);
  if (!engine) engine = histeq::make_cpu_engine();
  engine->upload(planes_);
  return make_histeq_pipeline_probe(std::move(engine), ctx_->stream, planes_, chain);
}

}  // namespace gpulab

// The probe of one rotation variant, for the ladder (on a copy of the current image, with the current
// settings) and the bench (on its cases): one step is one rotation of the whole image. verify checks
// one output as the verify button does (verify_rotation).
#include <algorithm>
#include <memory>

#include "base/stats.h"
#include "common/text.h"
#include "demos/common/probe_checks.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/rotate/rotate_demo_internal.h"
#include "demos/rotate/rotate_verify.h"
#include "rotate/rotate.h"

#include "rotate/rotate_cuda.h"

namespace gpulab {

Probe make_rotate_probe(std::shared_ptr<rotate::Engine> engine, Stream stream,
                        std::shared_ptr<const image::Image> source, const rotate::Settings& settings,
                        const std::string& settings_label, const rotate::Variant& v, int block) {
  const double n = static_cast<double>(source->pixel_count());
  Probe p;
  p.gpu = v.backend == rotate::Backend::Cuda;
  p.stream = p.gpu ? stream : nullptr;
  p.device = std::string(engine->device_name());
  p.items_per_step = n;
  p.item_unit = "pixels";
  p.per = per_words(rotate_internal::kThroughputLabel);
  p.bytes_per_step = n * source->channels * 2.0;  // as throughput(): the output written, the source read once
  p.width = source->width;
  p.height = source->height;
  p.size = std::to_string(p.width) + "x" + std::to_string(p.height);
  rotate::Engine* e = engine.get();
  const rotate::Variant* pv = &v;
  p.run = [e, pv, block, settings](int steps) {
    for (int i = 0; i < steps; ++i) e->run(*pv, block, settings);
  };
  p.verify = [engine, source, pv, block, settings, settings_label]() -> std::string {
    engine->run(*pv, block, settings);
    const RotateVerdict verdict = verify_rotation(engine->output(), *source, *pv, settings, settings_label);
    return verdict.ok ? std::string() : verdict.text;
  };
  p.state = engine;
  return p;
}

// The ladder's probe: a fresh engine of the variant's backend holding a copy of the current image,
// rotated with the current settings (angle, scale, filter, address mode); a GPU variant whose
// settings CUDA restricts is not measured.
Probe RotateDemo::probe(const Picks& picks, size_t stage) {
  if (stage != 0) return probe_unavailable("texture rotation has no pipeline of stages");
  const rotate::Variant* v = &rotate::variants()[picks.at(0).variant];
  int block = picks[0].block;
  std::string why;
  if (!variant_available(*v, &why)) return probe_unavailable(why);
  if (v->backend == rotate::Backend::Cuda) {
    if (why = rotate::cuda_restriction(*v, settings_); !why.empty()) return probe_unavailable(why);
  }
  if (why = check_probe_block(*v, &block); !why.empty()) return probe_unavailable(why);
  auto source = std::make_shared<const image::Image>(image_);
  std::shared_ptr<rotate::Engine> engine;
  if (v->backend == rotate::Backend::Cuda) engine = rotate::CudaEngine::create(ctx_->stream);
  if (!engine) engine = rotate::make_cpu_engine();
  engine->upload(*source);
  return make_rotate_probe(std::move(engine), ctx_->stream, std::move(source), settings_, settings_label(),
                           *v, block);
}

}  // namespace gpulab

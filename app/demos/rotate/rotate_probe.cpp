// The ladder's probe of one rotation variant: a fresh engine of the variant's backend holding a copy
// of the current image, rotated with the current settings (angle, scale, filter, address mode); one
// step is one rotation of the whole image. verify checks one output as the verify button does
// (verify_rotation).
#include <algorithm>
#include <memory>

#include "common/text.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/common/probe_checks.h"
#include "demos/rotate/rotate_verify.h"
#include "rotate/rotate.h"

#if defined(GPULAB_HAVE_CUDA)
#include "rotate/rotate_cuda.h"
#endif

namespace gpulab {

Probe RotateDemo::probe(size_t stage, std::string_view id, int block) {
  Probe p;
  const rotate::Variant* v = stage == 0 ? rotate::find_variant(id) : nullptr;
  if (!v) {
    p.unavailable = "no variant " + text::quote(id) + " in the rotation stage";
    return p;
  }
  if (!variant_available(*v, &p.unavailable)) return p;
  if (v->backend == rotate::Backend::Cuda) {
    if (std::string why = rotate::cuda_restriction(*v, settings_); !why.empty()) {
      p.unavailable = why;
      return p;
    }
  }
  if (p.unavailable = check_probe_block(*v, &block); !p.unavailable.empty()) return p;
  const bool gpu = v->backend == rotate::Backend::Cuda;
  struct State {
    image::Image source;
    std::unique_ptr<rotate::Engine> engine;
  };
  auto st = std::make_shared<State>();
  st->source = image_;
#if defined(GPULAB_HAVE_CUDA)
  if (gpu) st->engine = rotate::CudaEngine::create(ctx_->stream);
#endif
  if (!st->engine) st->engine = rotate::make_cpu_engine();
  st->engine->upload(st->source);
  const rotate::Settings settings = settings_;
  const double n = static_cast<double>(image_.pixel_count());
  p.gpu = gpu;
  p.stream = gpu ? ctx_->stream : nullptr;
  p.device = std::string(st->engine->device_name());
  p.items_per_step = n;
  p.item_unit = "pixels";
  p.bytes_per_step = n * image_.channels * 2.0;  // as throughput(): the output written, the source read once
  p.width = image_.width;
  p.height = image_.height;
  p.size = std::to_string(p.width) + "x" + std::to_string(p.height);
  rotate::Engine* e = st->engine.get();
  p.run = [e, v, block, settings](int steps) {
    for (int i = 0; i < steps; ++i) e->run(*v, block, settings);
  };
  const std::string label = settings_label();
  p.verify = [st, v, block, settings, label]() -> std::string {
    st->engine->run(*v, block, settings);
    const RotateVerdict verdict = verify_rotation(st->engine->output(), st->source, *v, settings, label);
    return verdict.ok ? std::string() : verdict.text;
  };
  p.state = st;
  return p;
}

}  // namespace gpulab

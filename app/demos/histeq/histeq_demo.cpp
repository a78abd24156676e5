// Histogram equalization, host side: the demo's lifecycle. The stage variants (one backend for all
// stages), the command line's options, attach and detach, which engine holds the planes, compute and
// render, batch mode, bench and the read-outs.
#include "demos/histeq/histeq_demo.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <stdexcept>

#include "common/error.h"
#include "common/text.h"
#include "core/bench.h"
#include "demos/common/cuda_start.h"
#include "demos/common/image_source.h"
#include "demos/common/stage_table.h"
#include "demos/histeq/histeq_demo_internal.h"
#include "demos/histeq/histeq_display.h"
#include "gl/gl.h"

#include "histeq/histeq_cuda.h"

namespace gpulab {
namespace {

using histeq::Backend;
using histeq::Colour;
using histeq::Mode;
using histeq::StageId;
using histeq_internal::section_name;

// The GPU variant each stage starts on: the fastest of each stage on the H100.
constexpr std::string_view kGpuDefaults[histeq::kStageCount] = {"hist-bank-private", "scan-block",
                                                                "reduce-warp-shuffle", "apply-shared"};

// The GPU variant a stage starts on: the one named above, else (the table changed) its last GPU
// variant, the table listing each stage's variants from the lecture's first to its fastest.
const histeq::Variant* default_gpu_variant(size_t stage, StageId s) {
  const histeq::Variant* v = histeq::find_variant(kGpuDefaults[stage]);
  if (v && v->stage == s && v->backend == Backend::Cuda) return v;
  v = nullptr;
  for (const histeq::Variant* c : histeq::variants_of(s))
    if (c->backend == Backend::Cuda) v = c;
  return v;
}

const histeq::Variant* cpu_variant(StageId s) {
  for (const histeq::Variant* v : histeq::variants_of(s))
    if (v->backend == Backend::Cpu) return v;
  throw std::logic_error("histeq: a stage without a CPU variant");
}

// The generated image to start on: a low-contrast one shows the lesson best.
const image::Generated* default_generated() {
  const auto all = image::generated_images();
  if (all.empty()) return nullptr;
  for (std::string_view want : {"hazy", "low", "dark", "fog"})
    for (const image::Generated& g : all)
      if (g.id.find(want) != std::string_view::npos) return &g;
  return &all.front();
}

}  // namespace

HisteqDemo::HisteqDemo() : engines_(histeq::make_cpu_engine()) { active_ = engines_.cpu(); }

HisteqDemo::~HisteqDemo() = default;

const histeq::StageInfo& HisteqDemo::info(size_t stage) const { return histeq::stage_infos()[stage]; }

const histeq::Variant& HisteqDemo::variant(const Picks& picks, size_t stage) const {
  return *histeq::variants_of(info(stage).id)[static_cast<size_t>(picks.at(stage).variant)];
}

const histeq::Variant& HisteqDemo::variant(size_t stage) const { return variant(setup().picks, stage); }

bool HisteqDemo::stage_active(const Picks& picks, size_t stage) const {
  if (!histeq::stage_runs(info(stage).id, mode_)) return false;
  // A histogram variant that writes the LUT itself leaves the scan stage nothing to do.
  return !(info(stage).id == histeq::StageId::Scan && variant(picks, 0).writes_lut);
}

bool HisteqDemo::stage_active(size_t stage) const { return stage_active(setup().picks, stage); }

bool HisteqDemo::on_gpu() const { return variant(0).backend == Backend::Cuda && engines_.gpu(); }

void HisteqDemo::notify(std::string line) const {
  if (ctx_ && ctx_->notify) ctx_->notify(std::move(line));
}

// ---------------------------------------------------------------------------------------------
// Stages and variants.

const StageTables& HisteqDemo::stage_tables() const {
  static const StageTables tables = [] {
    StageTables t;
    t.one_backend = true;  // the CPU variants form one backend: every stage on the CPU or on the GPU
    t.pipeline = true;
    for (size_t s = 0; s < histeq::kStageCount; ++s) {
      const histeq::StageInfo& si = histeq::stage_infos()[s];
      const histeq::Variant* cpu = cpu_variant(si.id);
      const histeq::Variant* gpu = default_gpu_variant(s, si.id);
      t.stages.push_back(make_stage_table(
          si.key, si.title, histeq::variants_of(si.id),
          [](const histeq::Variant& v) { return v.backend == Backend::Cuda; }, gpu ? gpu->id : cpu->id,
          cpu->id));
    }
    return t;
  }();
  return tables;
}

std::string HisteqDemo::why_unavailable(size_t stage, int v) const {
  const histeq::Variant& variant = *histeq::variants_of(info(stage).id)[static_cast<size_t>(v)];
  if (std::string why = engines_.why_unavailable(variant.backend == Backend::Cuda); !why.empty()) return why;
  return histeq::library_unavailable(variant);  // an NPP rung where NPP was not found at build time
}

std::string HisteqDemo::inactive_reason(size_t stage) const {
  if (stage_active(stage)) return {};
  return histeq::stage_runs(info(stage).id, mode_)
             ? std::string(variant(0).id) + " writes the LUT in its last block"
         : mode_ == Mode::Equalize ? "runs in stretch mode only"
                                   : "runs in equalize mode only";
}

bool HisteqDemo::picks_changed(const Picks&, std::string* why) {
  dirty_ = true;
  if (!ctx_) return true;
  const histeq::Variant& v = variant(0);
  if (!variant_available(v, why)) return false;
  if (!move_image_to_engine([&] { sync_engine(); }, v.backend == Backend::Cuda, why)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Options.

void HisteqParams::add_options(CLI::App& cli) {
  CLI::Option_group* g = cli.add_option_group("Histogram equalization (--demo histeq)");
  g->add_option("--mode", mode, "equalize (default) or stretch (contrast stretch to 0..255)");
  g->add_flag("--per-channel", per_channel,
              "colour images: process R, G and B each on its own (default: the luminance Y only)");
  g->add_flag("--histogram-overlay", histogram_overlay,
              "draw the histogram and CDF, before and after, over the image (a lesson step's overlay = "
              "\"histogram\")");
}

bool HisteqParams::same_input(const DemoParams& other) const {
  const auto& o = dynamic_cast<const HisteqParams&>(other);
  // The overlay shapes no result, but a lesson step that turns it on must be started afresh (a step on
  // the same input only changes the picks), so it counts here.
  return mode == o.mode && per_channel == o.per_channel && histogram_overlay == o.histogram_overlay;
}

std::vector<std::string> HisteqParams::given() const {
  std::vector<std::string> out;
  if (!mode.empty()) out.push_back("--mode " + mode);
  if (per_channel) out.push_back("--per-channel");
  return out;
}

std::string HisteqDemo::configure(const Options& o) {
  const HisteqParams& p = params<HisteqParams>();
  const SharedInputs& in = setup().shared;
  headless_ = o.headless;
  if (std::string bad = reject_init(in, name()); !bad.empty()) return bad;
  if (std::string bad = reject_seed(in, "the histeq demo (its images are files or fixed generated pictures)");
      !bad.empty())
    return bad;
  if (p.mode.empty() || p.mode == "equalize")
    mode_ = Mode::Equalize;
  else if (p.mode == "stretch")
    mode_ = Mode::Stretch;
  else
    return "--mode must be equalize or stretch, got " + text::quote(p.mode);
  colour_ = p.per_channel ? Colour::PerChannel : Colour::Luminance;
  overlay_ = p.histogram_overlay;
  if (o.steps >= 0)
    return "--steps: histogram equalization has no steps to count (the pipeline's output is the same every "
           "run); --save-image writes the processed image";
  save_image_ = o.save_image;
  // A run that shows the image refuses one over the GL texture limit from its header, before decoding
  // it (batch mode does not show it: no limit). attach() queries the limit again.
  max_texture_ = batch_requested() ? 0 : o.gl_max_texture;
  if (!in.image.empty()) {
    std::string err;
    if (!load_path(in.image, &err)) return err;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Attach and detach.

void HisteqDemo::attach(Context& ctx) {
  ctx_ = &ctx;
  engines_.start(ctx, [](Stream s) { return histeq::CudaEngine::create(s); });
  // GPU picks without a GPU engine run on the CPU: the shell picks the CPU rungs and says so.
  engine_serial_[1] = 0;  // a new CUDA engine holds nothing yet
  active_ = engine_for(on_gpu() ? Backend::Cuda : Backend::Cpu);

  max_texture_ = gl::max_texture_size();
  display_ = std::make_unique<HisteqDisplay>(ctx);
  picker_.set_files(list_image_files(ctx.assets / "images"));
  // The image from --image (loaded by configure), else a generated one.
  start_with_image(
      image_, origin_.name, max_texture_, batch_requested(), headless_, "processed", [&] { sync_engine(); },
      [&] { display_->set_source(image_); }, default_generated(),
      [&](const image::Generated& g, std::string* err) {
        image_ = image::Image();  // nothing to restore when this one fails too
        return load_generated(g, err);
      },
      [&](std::string line) { notify(std::move(line)); });
  view_.fitted = false;
  dirty_ = true;
  display_stale_ = true;
}

void HisteqDemo::detach() {
  display_.reset();
  engines_.stop();
  engine_serial_[1] = 0;
  active_ = engines_.cpu();
  ctx_ = nullptr;
  output_current_ = false;
  after_fresh_ = false;
  dragging_split_ = false;
}

void HisteqDemo::sync_engine() {
  const Backend b = on_gpu() ? Backend::Cuda : Backend::Cpu;
  histeq::Engine* e = engine_for(b);
  if (!e)
    throw std::logic_error("histeq: no engine for the " + std::string(b == Backend::Cuda ? "GPU" : "CPU") +
                           " variants");
  const size_t idx = b == Backend::Cuda ? 1 : 0;
  if (engine_serial_[idx] != planes_serial_ && !planes_.planes.empty()) {
    e->upload(planes_);  // keeps its previous planes when it throws (out of memory)
    engine_serial_[idx] = planes_serial_;
  }
  if (e != active_) {
    active_ = e;
    output_current_ = false;
    after_fresh_ = false;
    dirty_ = true;
  }
}

// ---------------------------------------------------------------------------------------------
// The frame.

void HisteqDemo::compute(Frame& frame) {
  layout(frame);
  handle_input(frame);
  if (frame.reset) {
    split_ = 0.5f;
    view_.fitted = false;
    dirty_ = true;
  }
  layout(frame);  // after input moved or zoomed the view
  int runs = frame.playing ? std::max(1, frame.steps_per_frame) : frame.step_once ? 1 : 0;
  if (dirty_ && runs == 0) runs = 1;
  run_pipeline(runs, true);
  last_runs_ = runs;
  if (display_stale_ && display_ && display_->has_image() && output_current_) {
    display_->update(*active_, force_host_copy_);
    display_stale_ = false;
  }
}

void HisteqDemo::render(Frame& frame) {
  if (!display_) return;
  display_->draw(split_view(view_, frame, image_.width, image_.height, split_));
  marks_.clear();
  if (overlay_) draw_overlay(frame);
}

// ---------------------------------------------------------------------------------------------
// Batch, bench, read-outs.

std::string HisteqDemo::run_batch(const Options&) {
  return save_batch_image(
      save_image_, [&] { return output_image(); },
      [&] {
        return std::string(mode_ == Mode::Equalize ? "histogram equalization" : "contrast stretch") + " of " +
               origin_.name + " (" + size_label() + ") with " + pipeline_label();
      });
}

std::vector<KernelInfo> HisteqDemo::kernels() const {
  std::vector<KernelInfo> out;
  if (!on_gpu()) return out;
  const auto* gpu = engines_.gpu_as<const histeq::CudaEngine>();
  for (size_t s = 0; s < histeq::kStageCount; ++s) {
    if (!stage_active(s)) continue;
    for (const KernelInfo& k : gpu->kernels(variant(s), block(s))) out.push_back(k);
  }
  return out;
}

TimingKey HisteqDemo::pipeline_key() const {
  TimingKey k;
  for (size_t s = 0; s < histeq::kStageCount; ++s)
    if (stage_active(s)) k.push_back(pick(s));
  return k;
}

std::vector<Throughput> HisteqDemo::throughput() const {
  const double n = static_cast<double>(planes_.pixel_count());
  const int planes = planes_.processed();
  std::vector<Throughput> rows;
  Throughput all;
  all.label = "pipeline (per image)";
  all.timed = pipeline_key();
  all.steps = last_runs_;
  all.items_per_step = n * planes;
  all.item_unit = "pixels";
  all.bytes_per_step = 3.0 * n * planes;  // read for the histogram (or min/max), read and write to apply
  all.whole_pipeline = true;
  rows.push_back(all);
  for (size_t s = 0; s < histeq::kStageCount; ++s) {
    if (!stage_active(s)) continue;
    Throughput t;
    t.label = std::string(info(s).key) + (planes > 1 ? " (per plane)" : " (per image)");
    t.timed = {pick(s)};
    t.steps = last_timed_stages_ ? static_cast<double>(last_runs_) * planes : 0.0;
    t.items_per_step = n;
    t.item_unit = "pixels";
    switch (info(s).id) {
      case StageId::Histogram:
        t.bytes_per_step = n;
        break;
      case StageId::Scan:
        t.bytes_per_step = 2.0 * histeq::kBins * 4;
        break;
      case StageId::Reduce:
        t.bytes_per_step = n;
        break;
      case StageId::Apply:
        t.bytes_per_step = 2.0 * n;
        break;
    }
    rows.push_back(std::move(t));
  }
  return rows;
}

}  // namespace gpulab

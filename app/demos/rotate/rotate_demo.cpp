// Texture rotation, host side: the demo's lifecycle. The variant (CPU reference or a CUDA kernel),
// attach and detach, the image and which engine holds it, the rotation into the displayed texture
// (surface or PBO), compute and render, verify, batch mode, bench and the read-outs.
#include "demos/rotate/rotate_demo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "common/error.h"
#include "common/text.h"
#include "core/bench.h"
#include "core/timings.h"
#include "demos/common/cuda_start.h"
#include "demos/common/stage_table.h"
#include "demos/rotate/rotate_demo_internal.h"
#include "demos/rotate/rotate_verify.h"
#include "gl/gl.h"

#include "rotate/rotate_cuda.h"

namespace gpulab {
namespace {

using rotate::Backend;
using rotate_internal::kDefaultSpin;

constexpr std::string_view kGpuDefault = "tex-array";  // the texture unit over a cudaArray
constexpr std::string_view kDefaultImage = "filter-test";

// The generated image to start on: the filter test, else the first there is.
const image::Generated* default_generated() {
  if (const image::Generated* g = image::find_generated(kDefaultImage)) return g;
  return image::generated_images().empty() ? nullptr : &image::generated_images().front();
}

const rotate::Variant& cpu_variant() {
  for (const rotate::Variant& v : rotate::variants())
    if (v.backend == Backend::Cpu) return v;
  throw std::logic_error("rotate: no CPU variant in the table");
}

// The GPU variant to start on: tex-array, else (the table changed) the first GPU one.
const rotate::Variant* default_gpu_variant() {
  const rotate::Variant* v = rotate::find_variant(kGpuDefault);
  if (v && v->backend == Backend::Cuda) return v;
  for (const rotate::Variant& c : rotate::variants())
    if (c.backend == Backend::Cuda) return &c;
  return nullptr;
}

}  // namespace

RotateDemo::RotateDemo() : engines_(rotate::make_cpu_engine()) {
  spin_ = kDefaultSpin;  // picked with key 4 from another demo, configure() never runs
  active_ = engines_.cpu();
}

RotateDemo::~RotateDemo() = default;

void RotateDemo::notify(std::string line) const {
  if (ctx_ && ctx_->notify) ctx_->notify(std::move(line));
}

const rotate::Variant& RotateDemo::variant() const { return rotate::variants()[pick(0).variant]; }

void RotateDemo::settings_changed() {
  dirty_ = true;
  engine_output_current_ = false;
  ++output_version_;
  verify_result_.clear();
}

// ---------------------------------------------------------------------------------------------
// Stages and variants.

const StageTables& RotateDemo::stage_tables() const {
  static const StageTables tables = [] {
    StageTables t;
    const rotate::Variant* gpu = default_gpu_variant();
    t.stages.push_back(make_stage_table(
        "rotate", "rotate", rotate::variants(),
        [](const rotate::Variant& v) { return v.backend == Backend::Cuda; }, gpu ? gpu->id : cpu_variant().id,
        cpu_variant().id));
    return t;
  }();
  return tables;
}

std::string RotateDemo::why_unavailable(size_t, int v) const {
  return engines_.why_unavailable(rotate::variants()[static_cast<size_t>(v)].backend == Backend::Cuda);
}

bool RotateDemo::picks_changed(const Picks& before, std::string* why) {
  const rotate::Variant& v = variant();
  if (ctx_) {
    if (!variant_available(v, why)) return false;
    if (!move_image_to_engine([&] { sync_engine(); }, v.backend == Backend::Cuda, why)) return false;
  }
  if (!(before.at(0) == pick(0))) settings_changed();
  return true;
}

// ---------------------------------------------------------------------------------------------
// Attach and detach.

void RotateDemo::attach(Context& ctx) {
  ctx_ = &ctx;
  engines_.start(ctx, [](Stream s) { return rotate::CudaEngine::create(s); });
  // GPU picks without a GPU engine run on the CPU: the shell picks the CPU rungs and says so.
  engine_serial_[1] = 0;  // a new CUDA engine holds nothing yet
  active_ = engine_for(on_gpu() ? Backend::Cuda : Backend::Cpu);

  max_texture_ = gl::max_texture_size();
  display_ = std::make_unique<RotateDisplay>(ctx);
  picker_.set_files(list_image_files(ctx.assets / "images"));
  // The image from --image (read by configure), else the generated filter test.
  start_with_image(
      image_, origin_.name, max_texture_, batch_requested(), headless_, "rotated", [&] { sync_engine(); },
      [&] { display_->set_source(image_); }, default_generated(),
      [&](const image::Generated& g, std::string* err) {
        image_ = image::Image();  // nothing to restore when this one fails too
        return load_generated(g, err);
      },
      [&](std::string line) { notify(std::move(line)); });
  view_.fitted = false;
  settings_changed();
}

void RotateDemo::detach() {
  display_.reset();
  engines_.stop();
  engine_serial_[1] = 0;
  active_ = engines_.cpu();
  ctx_ = nullptr;
  engine_output_current_ = false;
  dragging_angle_ = dragging_split_ = false;
  hovering_ = false;
  shown_ = Shown{};
}

void RotateDemo::sync_engine() {
  const Backend b = on_gpu() ? Backend::Cuda : Backend::Cpu;
  rotate::Engine* e = engine_for(b);
  if (!e)
    throw std::logic_error(std::string("rotate: no engine for the ") + (b == Backend::Cuda ? "GPU" : "CPU") +
                           " variants");
  const size_t idx = b == Backend::Cuda ? 1 : 0;
  if (engine_serial_[idx] != image_serial_ && !image_.empty()) {
    e->upload(image_);  // keeps its previous image when it throws (out of memory)
    engine_serial_[idx] = image_serial_;
  }
  if (e != active_) {
    active_ = e;
    settings_changed();
  }
}

// ---------------------------------------------------------------------------------------------
// Images.

bool RotateDemo::set_image(image::Image img, const std::string& name, std::string* error) {
  if (std::string refused = image_refusal(img, name, ctx_ ? max_texture_ : 0); !refused.empty()) {
    *error = std::move(refused);
    return false;
  }
  const std::string dims = size_text(img.width, img.height);
  const uint64_t serial = image_serial_ + 1;
  if (ctx_) {
    const size_t idx = on_gpu() ? 1 : 0;
    *error = replace_image(
        name, dims, "rotated",
        [&] {
          active_->upload(img);
          engine_serial_[idx] = serial;
        },
        [&] { display_->set_source(img); },
        [&] {
          if (image_.empty()) return;
          active_->upload(image_);
          engine_serial_[idx] = image_serial_;
          display_->set_source(image_);
        });
    if (!error->empty()) return false;
  }
  image_ = std::move(img);
  image_serial_ = serial;
  origin_ = {name, {}, {}};
  view_.fitted = false;
  hovering_ = false;
  inspect_x_ = inspect_y_ = -1;
  settings_changed();
  return true;
}

bool RotateDemo::load_path(const std::filesystem::path& path, std::string* error) {
  if (!open_image_file(path, set_image_fn(), &origin_, error, max_texture_)) return false;
  status_ = "loaded " + origin_.name + ": " + image_label(image_);
  return true;
}

bool RotateDemo::load_generated(const image::Generated& g, std::string* error) {
  // The PNG tools/make_images wrote, when it is there; else the same image made in memory.
  if (!open_generated_image(g, ctx_ ? ctx_->assets : std::filesystem::path(), set_image_fn(), &origin_,
                            error))
    return false;
  status_.clear();
  return true;
}

SetImage RotateDemo::set_image_fn() {
  return [this](image::Image img, const std::string& name, std::string* error) {
    return set_image(std::move(img), name, error);
  };
}

bool RotateDemo::open_file(const std::filesystem::path& path, std::string* error) {
  return load_path(path, error);
}

// ---------------------------------------------------------------------------------------------
// The rotation.

void RotateDemo::run_output(int runs) {
  if (runs <= 0 || image_.empty()) return;
  if (!ctx_) throw std::logic_error("rotate: the rotation runs once the demo is attached");
  sync_engine();
  RotateRun run;
  run.variant = &variant();
  run.block = block();
  run.settings = settings_;
  run.runs = runs;
  run.timed = {pick(0)};
  if (!on_gpu()) {
    KeyedCpuSection cpu(ctx_->timings, run.timed, "rotate (CPU)");
    for (int i = 0; i < runs; ++i) active_->run(variant(), block(), settings_);
    engine_output_current_ = true;
  }
  if (display_ && display_->has_image()) {
    display_->update(*active_, run, output_, force_host_copy_);  // timed by the display's own sections
    // The CUDA display paths write the texture, not the engine's output().
    if (on_gpu()) engine_output_current_ = false;
  }
  dirty_ = false;
}

image::Image RotateDemo::output_image() {
  if (!ctx_) throw std::logic_error("rotate: the output needs the demo attached");
  sync_engine();
  if (!engine_output_current_) {
    active_->run(variant(), block(), settings_);
    engine_output_current_ = true;
  }
  return active_->output();
}

std::string RotateDemo::verify() {
  const RotateVerdict v = verify_rotation(output_image(), image_, variant(), settings_, settings_label());
  verify_ok_ = v.ok;
  return v.text;
}

// ---------------------------------------------------------------------------------------------
// The frame.

void RotateDemo::compute(Frame& frame) {
  if (display_) display_->collect();
  layout(frame);
  handle_input(frame);
  if (frame.reset) {
    rotate::Settings s = settings_;
    s.params.angle_deg = start_angle_;
    s.params.scale = start_scale_;
    set_settings(s);
    split_ = 0.5f;
    view_.fitted = false;
    dirty_ = true;
  }
  layout(frame);  // after input moved or zoomed the view
  if (frame.playing && spin_ != 0.0f && frame.dt > 0 && std::isfinite(frame.dt))
    set_angle(static_cast<float>(angle() + double(spin_) * frame.dt));
  int runs = frame.playing ? std::max(1, frame.steps_per_frame) : frame.step_once ? 1 : 0;
  if (dirty_ && runs == 0) runs = 1;
  run_output(runs);
  last_runs_ = runs;
}

void RotateDemo::render(Frame& frame) {
  if (!display_) return;
  display_->draw(split_view(view_, frame, image_.width, image_.height, split_), compare_);
  draw_overlay(frame);
}

// ---------------------------------------------------------------------------------------------
// Batch, bench, read-outs.

std::string RotateDemo::run_batch(const Options&) {
  return save_batch_image(
      save_image_, [&] { return output_image(); },
      [&] {
        char line[512];
        std::snprintf(line, sizeof line, "%s (%s) rotated by %g° at x%g with %s (%s)", origin_.name.c_str(),
                      image_label(image_).c_str(), double(settings_.params.angle_deg),
                      double(settings_.params.scale), std::string(variant().id).c_str(),
                      settings_label().c_str());
        return std::string(line);
      });
}

std::vector<KernelInfo> RotateDemo::kernels() const {
  if (on_gpu()) return engines_.gpu_as<const rotate::CudaEngine>()->kernels(variant(), block());
  return {};
}

std::vector<Throughput> RotateDemo::throughput() const {
  Throughput t;
  t.label = rotate_internal::kThroughputLabel;
  t.timed = {pick(0)};
  t.steps = last_runs_;
  const double n = static_cast<double>(image_.pixel_count());
  t.items_per_step = n;
  t.item_unit = "pixels";
  // The output written and the source read once each: a lower bound (filtering reads up to four
  // texels a pixel, most of them from the cache).
  t.bytes_per_step = n * image_.channels * 2.0;
  return {t};
}

}  // namespace gpulab

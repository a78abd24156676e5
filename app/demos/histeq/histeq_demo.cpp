// Histogram equalization, host side: the image and its planes, the stage variants (one backend for
// all stages), the pipeline with its timing sections, the before | after view, the plots, verify and
// batch mode.
#include "ui/verify_button.h"
#include "demos/common/cuda_start.h"
#include "demos/histeq/histeq_demo.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "common/text.h"
#include "common/error.h"
#include "core/bench.h"
#include "base/stats.h"
#include "core/timings.h"
#include "demos/common/image_source.h"
#include "demos/histeq/histeq_display.h"
#include "gl/gl.h"

#if defined(GPULAB_HAVE_CUDA)
#include "histeq/histeq_cuda.h"
#endif

namespace gpulab {
namespace {

using histeq::Backend;
using histeq::Colour;
using histeq::Mode;
using histeq::StageId;

// The GPU variant each stage starts on: the fastest of each stage on the H100.
constexpr std::string_view kGpuDefaults[histeq::kStageCount] = {"hist-bank-private", "scan-block",
                                                                "reduce-warp-shuffle", "apply-shared"};
constexpr int kMaxTimedRuns = 64;  // per-stage GPU sections cost two events a run: only this many a frame

const ImVec4 kRed(1.0f, 0.4f, 0.3f, 1.0f);
const ImVec4 kAmber(1.0f, 0.75f, 0.2f, 1.0f);

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

std::string section_name(std::string_view key, bool gpu) {
  // CPU sections get names of their own: Timings::find prefers a GPU series of the same name,
  // which would hide the CPU one after a backend switch.
  return gpu ? std::string(key) : std::string(key) + " (CPU)";
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

std::string plane_name(histeq::Layout layout, int plane) {
  if (layout == histeq::Layout::Grey) return "grey";
  if (layout == histeq::Layout::YCrCb) return "luminance Y";
  static const char* rgb[] = {"red", "green", "blue"};
  return rgb[std::clamp(plane, 0, 2)];
}

}  // namespace

HisteqDemo::HisteqDemo() {
  cpu_ = histeq::make_cpu_engine();
  active_ = cpu_.get();
  for (size_t s = 0; s < choice_.size(); ++s) {
    const histeq::Variant* g = default_gpu_variant(s, info(s).id);
    if (!g) g = cpu_variant(info(s).id);  // a stage without GPU variants (none today)
    choice_[s].gpu = g;
    choice_[s].gpu_block = g->default_block;
    choice_[s].current = g;  // until attach picks the backend (GPU when a device exists)
    choice_[s].block = g->default_block;
  }
#if !defined(GPULAB_HAVE_CUDA)
  choose_backend(Backend::Cpu);  // no GPU variant can run in this build
#endif
}

HisteqDemo::~HisteqDemo() = default;

const histeq::StageInfo& HisteqDemo::info(size_t stage) const { return histeq::stage_infos()[stage]; }

bool HisteqDemo::stage_active(size_t stage) const {
  if (!histeq::stage_runs(info(stage).id, mode_)) return false;
  // A histogram variant that writes the LUT itself leaves the scan stage nothing to do.
  return !(info(stage).id == histeq::StageId::Scan && choice_[0].current->writes_lut);
}

bool HisteqDemo::on_gpu() const { return choice_[0].current->backend == Backend::Cuda; }

histeq::Engine* HisteqDemo::engine_for(Backend b) const {
  return b == Backend::Cuda ? gpu_.get() : cpu_.get();
}

bool HisteqDemo::variant_available(const histeq::Variant& v, std::string* why) const {
  if (v.backend == Backend::Cpu || gpu_) return true;
  if (why) *why = cuda_unavailable_reason(ctx_);
  return false;
}

void HisteqDemo::notify(std::string line) const {
  if (ctx_ && ctx_->notify) ctx_->notify(std::move(line));
}

// ---------------------------------------------------------------------------------------------
// Stages and variants.

std::vector<Stage> HisteqDemo::stages() const {
  std::vector<Stage> out;
  for (size_t s = 0; s < choice_.size(); ++s) {
    const histeq::StageInfo& si = info(s);
    Stage st;
    st.id = si.key;
    st.title = si.title;
    const auto vs = histeq::variants_of(si.id);
    for (size_t i = 0; i < vs.size(); ++i) {
      const histeq::Variant& v = *vs[i];
      VariantChoice c;
      c.id = v.id;
      c.title = v.title;
      c.lesson = v.lesson;
      c.blocks = v.blocks;
      c.default_block = v.default_block;
      c.needs_cuda = v.backend == histeq::Backend::Cuda;
#if defined(GPULAB_HAVE_CUDA)
      c.available = !ctx_ || variant_available(v, &c.unavailable_reason);  // known once attached
#else
      c.available = variant_available(v, &c.unavailable_reason);
#endif
      if (&v == choice_[s].current) st.variant = static_cast<int>(i);
      st.variants.push_back(std::move(c));
    }
    st.block = choice_[s].current->blocks.empty() ? 0 : choice_[s].block;
    st.active = stage_active(s);
    if (!st.active)
      st.inactive_reason = histeq::stage_runs(si.id, mode_)
                               ? std::string(choice_[0].current->id) + " writes the LUT in its last block"
                               : mode_ == Mode::Equalize ? "runs in stretch mode only" : "runs in equalize mode only";
    out.push_back(std::move(st));
  }
  return out;
}

void HisteqDemo::choose_backend(Backend b) {
  for (size_t s = 0; s < choice_.size(); ++s) {
    StageChoice& c = choice_[s];
    if (b == Backend::Cpu) {
      c.current = cpu_variant(info(s).id);
      c.block = 0;
    } else if (c.current->backend == Backend::Cpu) {
      c.current = c.gpu;
      c.block = c.gpu_block;
    }
  }
}

bool HisteqDemo::set_variant(size_t stage, std::string_view id, std::string* why) {
  if (stage >= choice_.size()) {
    if (why) *why = "histogram equalization has " + std::to_string(choice_.size()) + " stages";
    return false;
  }
  const histeq::Variant* v = histeq::find_variant(id);
  if (!v || v->stage != info(stage).id) {
    if (why)
      *why = "no variant " + text::quote(id) + " in the " + std::string(info(stage).key) +
             " stage (see gpulab --list)";
    return false;
  }
  if (ctx_ && !variant_available(*v, why)) return false;
  const auto keep = choice_;
  const bool keep_chosen = backend_chosen_;
  // One backend for every stage: a CPU variant anywhere takes every stage to the CPU; a GPU
  // variant anywhere brings every CPU stage back to its last GPU choice.
  if (v->backend == Backend::Cpu) {
    choose_backend(Backend::Cpu);
  } else {
    StageChoice& c = choice_[stage];
    c.gpu = v;
    c.gpu_block = v->default_block;
    c.current = v;
    c.block = v->default_block;
    choose_backend(Backend::Cuda);
  }
  backend_chosen_ = true;
  if (ctx_) {
    try {
      sync_engine();
    } catch (const std::exception& e) {
      choice_ = keep;
      backend_chosen_ = keep_chosen;
      if (why)
        *why = "cannot move the image to the " + std::string(v->backend == Backend::Cuda ? "GPU" : "CPU") +
               ": " + e.what();
      return false;
    }
    dirty_ = true;
  }
  return true;
}

bool HisteqDemo::set_block(size_t stage, int block, std::string* why) {
  if (stage >= choice_.size()) {
    if (why) *why = "histogram equalization has " + std::to_string(choice_.size()) + " stages";
    return false;
  }
  StageChoice& c = choice_[stage];
  const histeq::Variant& v = *c.current;
  if (v.blocks.empty() || std::find(v.blocks.begin(), v.blocks.end(), block) == v.blocks.end()) {
    if (why) {
      std::string list;
      for (int b : v.blocks) list += (list.empty() ? "" : ", ") + std::to_string(b);
      *why = v.blocks.empty()
                 ? std::string(v.id) + " has no block size (" +
                       (v.backend == Backend::Cpu ? "it runs on the CPU" : "it fixes its own launch") + ")"
                 : std::string(v.id) + " takes blocks of " + list + " threads";
    }
    return false;
  }
  c.block = block;
  if (v.backend == Backend::Cuda) c.gpu_block = block;
  dirty_ = true;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Options.

void HisteqDemo::add_options(CLI::App& cli) {
  CLI::Option_group* g = cli.add_option_group("Histogram equalization (--demo histeq)");
  g->add_option("--mode", cli_.mode, "equalize (default) or stretch (contrast stretch to 0..255)");
  g->add_flag("--per-channel", cli_.per_channel,
              "colour images: process R, G and B each on its own (default: the luminance Y only)");
}

std::string HisteqDemo::configure(const Options& o) {
  if (std::string bad = reject_seed(o, "the histeq demo (its images are files or fixed generated pictures)");
      !bad.empty())
    return bad;
  if (cli_.mode == "equalize")
    mode_ = Mode::Equalize;
  else if (cli_.mode == "stretch")
    mode_ = Mode::Stretch;
  else
    return "--mode must be equalize or stretch, got " + text::quote(cli_.mode);
  colour_ = cli_.per_channel ? Colour::PerChannel : Colour::Luminance;
  // The CPU variants form one backend: a CPU and a GPU variant cannot both be asked for.
  std::string cpu_id, gpu_id;
  for (const std::string& id : o.variants) {
    const histeq::Variant* v = histeq::find_variant(id);
    if (!v) continue;  // apply_variant_options has refused it already
    (v->backend == Backend::Cpu ? cpu_id : gpu_id) = id;
  }
  if (!cpu_id.empty() && !gpu_id.empty())
    return "--variant " + cpu_id + " and --variant " + gpu_id +
           " mix the backends: the CPU variants (hist-cpu, scan-cpu, reduce-cpu, apply-cpu) run "
           "together, the GPU ones together";
  if (o.steps >= 0)
    return "--steps: histogram equalization has no steps to count (the pipeline's output is the same every "
           "run); --save-image writes the processed image";
  save_image_ = o.save_image;
  if (!o.image.empty()) {
    std::string err;
    if (!load_path(o.image, &err)) return err;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Attach and detach.

void HisteqDemo::attach(Context& ctx) {
  ctx_ = &ctx;
  std::string gpu_failure;
#if defined(GPULAB_HAVE_CUDA)
  gpu_ = start_cuda_engine(ctx, [](Stream s) { return histeq::CudaEngine::create(s); }, &gpu_failure);
#endif
  if (!backend_chosen_) {
    choose_backend(gpu_ ? Backend::Cuda : Backend::Cpu);
  } else if (on_gpu() && !gpu_) {
    std::string why;
    variant_available(*choice_[0].current, &why);
    if (gpu_failure.empty())  // else start_cuda_engine has said why
      notify("the GPU variants are not available (" + why + "): using the CPU variants");
    choose_backend(Backend::Cpu);
  }
  engine_serial_[1] = 0;  // a new CUDA engine holds nothing yet
  active_ = engine_for(on_gpu() ? Backend::Cuda : Backend::Cpu);

  max_texture_ = gl_max_texture_size();
  display_ = std::make_unique<HisteqDisplay>(ctx);
  picker_.set_files(list_image_files(ctx.assets / "images"));
  // The image from --image (loaded by configure), else a generated one.
  start_with_image(
      image_, origin_.name, max_texture_, batch_requested(), "processed", [&] { sync_engine(); },
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
  gpu_.reset();
  engine_serial_[1] = 0;
  active_ = cpu_.get();
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
// Images.

bool HisteqDemo::set_image(image::Image img, const std::string& name, std::string* error) {
  if (std::string refused = image_refusal(img, name, ctx_ ? max_texture_ : 0); !refused.empty()) {
    *error = std::move(refused);
    return false;
  }
  const std::string dims = size_text(img.width, img.height);
  histeq::Planes p;
  try {
    p = histeq::split(img, colour_);
  } catch (const std::exception& e) {
    *error = name + ": " + e.what();
    return false;
  }
  const uint64_t serial = planes_serial_ + 1;
  if (ctx_) {
    const size_t idx = on_gpu() ? 1 : 0;
    *error = replace_image(
        name, dims, "processed",
        [&] {
          active_->upload(p);
          engine_serial_[idx] = serial;
        },
        [&] { display_->set_source(img); },
        [&] {
          if (image_.empty()) return;  // none yet, or the one attach gave up on
          active_->upload(planes_);
          engine_serial_[idx] = planes_serial_;
          display_->set_source(image_);
        });
    if (!error->empty()) return false;
  }
  image_ = std::move(img);
  planes_ = std::move(p);
  planes_serial_ = serial;
  origin_ = {name, {}, {}};
  compute_before();
  channel_ = 0;
  dirty_ = true;
  output_current_ = false;
  display_stale_ = true;
  view_.fitted = false;
  verify_result_.clear();
  return true;
}

bool HisteqDemo::load_path(const std::filesystem::path& path, std::string* error) {
  if (!open_image_file(path, set_image_fn(), &origin_, error)) return false;
  status_ = "loaded " + origin_.name + ": " + size_label();
  return true;
}

bool HisteqDemo::load_generated(const image::Generated& g, std::string* error) {
  // The PNG tools/make_images wrote, when it is there; else the same image made in memory.
  if (!open_generated_image(g, ctx_ ? ctx_->assets : std::filesystem::path(), set_image_fn(), &origin_, error))
    return false;
  status_.clear();
  return true;
}

SetImage HisteqDemo::set_image_fn() {
  return [this](image::Image img, const std::string& name, std::string* error) {
    return set_image(std::move(img), name, error);
  };
}

bool HisteqDemo::open_file(const std::filesystem::path& path, std::string* error) {
  return load_path(path, error);
}

void HisteqDemo::resplit() {
  histeq::Planes p = histeq::split(image_, colour_);
  const uint64_t serial = planes_serial_ + 1;
  if (ctx_) {
    active_->upload(p);
    engine_serial_[on_gpu() ? 1 : 0] = serial;
  }
  planes_ = std::move(p);
  planes_serial_ = serial;
  compute_before();
  channel_ = std::min(channel_, planes_.processed() - 1);
}

void HisteqDemo::set_mode(Mode m) {
  if (m == mode_) return;
  mode_ = m;
  dirty_ = true;
  output_current_ = false;
  verify_result_.clear();
}

void HisteqDemo::set_colour(Colour c) {
  if (c == colour_) return;
  const Colour keep = colour_;
  colour_ = c;
  try {
    if (!image_.empty()) resplit();
  } catch (const std::exception& e) {
    colour_ = keep;
    notify(std::string("cannot switch the colour handling: ") + e.what());
    return;
  }
  dirty_ = true;
  output_current_ = false;
  verify_result_.clear();
}

void HisteqDemo::compute_before() {
  before_.clear();
  for (int p = 0; p < planes_.processed(); ++p) before_.push_back(histeq::histogram_cpu(planes_.planes[p]));
  after_fresh_ = false;
}

// ---------------------------------------------------------------------------------------------
// The pipeline.

void HisteqDemo::run_pipeline(int times, bool timed) {
  if (times <= 0 || planes_.planes.empty()) return;
  if (!ctx_) throw std::logic_error("histeq: the pipeline runs once the demo is attached");
  const bool gpu = on_gpu();
  const int planes = planes_.processed();
  Timings* t = timed && ctx_ ? ctx_->timings : nullptr;
  const bool stage_sections = t && times * planes <= kMaxTimedRuns;
  std::vector<size_t> active;
  for (size_t s = 0; s < choice_.size(); ++s)
    if (stage_active(s)) active.push_back(s);

  auto run_all = [&](auto&& begin, auto&& end) {
    for (int i = 0; i < times; ++i)
      for (int p = 0; p < planes; ++p)
        for (size_t s : active) {
          const StageChoice& c = choice_[s];
          if (stage_sections) begin(info(s).key);
          active_->run(*c.current, c.current->blocks.empty() ? 0 : c.block, p);
          if (stage_sections) end(info(s).key);
        }
  };
  output_current_ = false;
  if (gpu) {
    Stream stream = ctx_->stream;
#if defined(GPULAB_HAVE_CUDA)
    stream = static_cast<histeq::CudaEngine*>(active_)->stream();
#endif
    if (t) t->gpu_begin("pipeline", stream);
    run_all([&](std::string_view key) { t->gpu_begin(std::string(key), stream); },
            [&](std::string_view key) { t->gpu_end(std::string(key), stream); });
    if (t) t->gpu_end("pipeline", stream);
  } else {
    CpuSection pipeline(t, section_name("pipeline", false));
    std::optional<CpuSection> stage;
    run_all([&](std::string_view key) { stage.emplace(t, section_name(key, false)); },
            [&](std::string_view) { stage.reset(); });
  }
  last_timed_stages_ = stage_sections;
  output_current_ = true;
  display_stale_ = true;
  // The plots read the histogram and LUT back, which waits for the GPU. A deterministic pipeline
  // gives the same ones every run, so they are read once per change, not once a frame; the racy
  // histogram differs from run to run.
  bool exact = true;
  for (size_t s : active) exact = exact && choice_[s].current->exact;
  if (dirty_ || !exact) after_fresh_ = false;
  dirty_ = false;
}

image::Image HisteqDemo::output_image() {
  if (dirty_ || !output_current_) run_pipeline(1, false);
  std::vector<std::vector<uint8_t>> out;
  for (int p = 0; p < planes_.processed(); ++p) out.push_back(active_->output(p));
  return histeq::merge(planes_, out);
}

std::string HisteqDemo::verify() {
  const image::Image got = output_image();
  const image::Image want = histeq::process_cpu(image_, mode_, colour_);
  std::string id;
  for (size_t s = 0; s < choice_.size(); ++s)
    if (stage_active(s) && !choice_[s].current->exact) id = std::string(choice_[s].current->id);
  if (std::string bad = shape_mismatch(got, want, "the CPU reference"); !bad.empty()) {
    verify_ok_ = false;
    return bad;
  }
  const auto [differ, largest] = diff_pixels(got, want);
  verify_ok_ = differ == 0;
  if (differ == 0) {
    std::string s = pipeline_label() + " matches the CPU reference byte for byte (" + size_label() + ")";
    if (!id.empty()) s += " (this time: " + id + " lost no counts that mattered)";
    return s;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu pixels differ (largest difference %d) of %zu", differ, largest,
                got.pixel_count());
  std::string s = buf;
  if (!id.empty()) s += ": expected, " + id + " loses counts, so its CDF and LUT are off";
  return s;
}

void HisteqDemo::read_after() {
  const int planes = planes_.processed();
  engine_hist_.assign(planes, {});
  after_.assign(planes, {});
  luts_.assign(planes, {});
  minmax_.assign(planes, {});
  for (int p = 0; p < planes; ++p) {
    luts_[p] = active_->lut(p);
    if (mode_ == Mode::Equalize) {
      engine_hist_[p] = active_->histogram(p);
      after_[p] = histeq::remap_histogram(engine_hist_[p], luts_[p]);
    } else {
      minmax_[p] = active_->minmax(p);
      after_[p] = histeq::remap_histogram(before_[p], luts_[p]);
    }
  }
  after_fresh_ = true;
}

// ---------------------------------------------------------------------------------------------
// View and input.

void HisteqDemo::layout(const Frame& frame) { view_.layout(frame, image_.width, image_.height); }

void HisteqDemo::handle_input(const Frame& frame) {
  for (int key : frame.input.keys) {
    switch (key) {
      case GLFW_KEY_E:
        set_mode(mode_ == Mode::Equalize ? Mode::Stretch : Mode::Equalize);
        break;
      case GLFW_KEY_C:
        if (image_.is_colour())
          set_colour(colour_ == Colour::Luminance ? Colour::PerChannel : Colour::Luminance);
        else
          notify("a grey image has one plane: luminance and per channel are the same");
        break;
      case GLFW_KEY_LEFT:
        split_ = std::max(0.0f, split_ - 0.05f);
        break;
      case GLFW_KEY_RIGHT:
        split_ = std::min(1.0f, split_ + 0.05f);
        break;
      case GLFW_KEY_F:
        view_.fitted = false;
        break;
      default:
        break;
    }
  }
  const Input& in = frame.input;
  if (!in.down[0]) dragging_split_ = false;
  if (!frame.mouse_free) return;
  const double w = image_.width * view_.scale;
  const bool over_image = view_.over(in.mouse_x, in.mouse_y, image_.width, image_.height);
  // Left button on the image: the split follows the cursor (a click moves it there, a drag slides it).
  if (in.pressed[0] && over_image) dragging_split_ = true;
  if (dragging_split_ && in.down[0] && w > 0)
    split_ = static_cast<float>(std::clamp((in.mouse_x - view_.left) / w, 0.0, 1.0));
  view_.zoom_at(in.mouse_x, in.mouse_y, in.wheel);
  if (in.dragging[1] || in.dragging[2]) view_.pan(in.delta_x, in.delta_y);  // right or middle drag
}

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
}

// ---------------------------------------------------------------------------------------------
// Batch, bench, read-outs.

std::string HisteqDemo::run_batch(const Options&) {
  return save_batch_image(save_image_, [&] { return output_image(); }, [&] {
    return std::string(mode_ == Mode::Equalize ? "histogram equalization" : "contrast stretch") + " of " +
           origin_.name + " (" + size_label() + ") with " + pipeline_label();
  });
}

std::vector<KernelInfo> HisteqDemo::kernels() const {
  std::vector<KernelInfo> out;
#if defined(GPULAB_HAVE_CUDA)
  if (!gpu_ || !on_gpu()) return out;
  const auto* gpu = static_cast<const histeq::CudaEngine*>(gpu_.get());
  for (size_t s = 0; s < choice_.size(); ++s) {
    if (!stage_active(s)) continue;
    const StageChoice& c = choice_[s];
    for (const KernelInfo& k : gpu->kernels(*c.current, c.current->blocks.empty() ? 0 : c.block))
      out.push_back(k);
  }
#endif
  return out;
}

std::vector<Throughput> HisteqDemo::throughput() const {
  const bool gpu = on_gpu();
  const double n = static_cast<double>(planes_.pixel_count());
  const int planes = planes_.processed();
  std::vector<Throughput> rows;
  Throughput all;
  all.label = "pipeline (per image)";
  all.section = section_name("pipeline", gpu);
  all.steps = last_runs_;
  all.items_per_step = n * planes;
  all.item_unit = "pixels";
  all.bytes_per_step = 3.0 * n * planes;  // read for the histogram (or min/max), read and write to apply
  rows.push_back(all);
  for (size_t s = 0; s < choice_.size(); ++s) {
    if (!stage_active(s)) continue;
    Throughput t;
    t.label = std::string(info(s).key) + (planes > 1 ? " (per plane)" : " (per image)");
    t.section = section_name(info(s).key, gpu);
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

std::string HisteqDemo::pipeline_label() const {
  std::string s;
  for (size_t c = 0; c < choice_.size(); ++c)
    if (stage_active(c)) s += (s.empty() ? "" : " > ") + std::string(choice_[c].current->id);
  return s;
}

std::string HisteqDemo::size_label() const {
  std::string s = image_label(image_);
  if (image_.is_colour()) s += colour_ == Colour::PerChannel ? " per channel" : " (luminance)";
  return s;
}

std::string HisteqDemo::caption() const {
  std::string s = "Histogram equalization | " + pipeline_label() + " | " + size_label();
  if (const auto ms = ctx_ && ctx_->timings ? ctx_->timings->median_per_step(section_name("pipeline", on_gpu()), last_runs_)
                                             : std::nullopt) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " | %.3f ms", *ms);
    s += buf;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// UI.

void HisteqDemo::ui_image(float w) {
  // The image: generated ones (from assets/images when the PNG is there), other files there, or any
  // path typed or dropped.
  pick_and_open(
      picker_, w, origin_,
      [&](const image::Generated& g, std::string* err) { return load_generated(g, err); },
      [&](const std::filesystem::path& p, std::string* err) { return load_path(p, err); },
      [&](std::string line) { notify(std::move(line)); });
  ImGui::Text("%s, %s", size_label().c_str(),
              format_count(static_cast<double>(image_.pixel_count()), "pixels").c_str());
  ImGui::TextDisabled("display: %s", display_ ? display_->path_description().c_str() : "-");
}

void HisteqDemo::ui_plots(float w) {
  if (!output_current_ || planes_.planes.empty()) {
    ImGui::TextDisabled("histograms: waiting for the pipeline");
    return;
  }
  if (!after_fresh_) read_after();  // waits for the GPU: once per change, only while shown
  const int planes = planes_.processed();
  if (planes > 1) {
    ImGui::TextUnformatted("channel");
    for (int p = 0; p < planes; ++p) {
      ImGui::SameLine();
      ImGui::RadioButton(plane_name(planes_.layout, p).c_str(), &channel_, p);
    }
  }
  const int p = std::clamp(channel_, 0, planes - 1);
  const double n = static_cast<double>(planes_.pixel_count());

  // The racy histogram: counts lost to overwritten updates, summed over the processed planes.
  if (mode_ == Mode::Equalize && !choice_[0].current->exact) {
    double counted = 0;
    for (const auto& h : engine_hist_) counted += std::accumulate(h.begin(), h.end(), 0.0);
    const double lost = n * planes - counted;
    ImGui::PushStyleColor(ImGuiCol_Text, kRed);
    ImGui::TextWrapped("%s lost %.0f of %.0f counts (%.2f%%): the histogram is wrong, and so is the LUT",
                       std::string(choice_[0].current->id).c_str(), lost, n * planes,
                       100.0 * lost / std::max(1.0, n * planes));
    ImGui::PopStyleColor();
  }

  auto values = [&](const histeq::Histogram& h) {
    std::vector<float> v(histeq::kBins);
    for (int i = 0; i < histeq::kBins; ++i)
      v[i] = log_scale_ ? std::log10(1.0f + static_cast<float>(h[i])) : static_cast<float>(h[i]);
    return v;
  };
  auto cdf = [&](const histeq::Histogram& h) {
    std::vector<float> v(histeq::kBins);
    double sum = 0, total = std::max(1.0, static_cast<double>(std::accumulate(h.begin(), h.end(), 0.0)));
    for (int i = 0; i < histeq::kBins; ++i) v[i] = static_cast<float>((sum += h[i]) / total);
    return v;
  };
  const float plot_h = 70.0f * ImGui::GetIO().FontGlobalScale;
  // A histogram with its CDF drawn over it (0..1 over the plot's height), the classic figure.
  auto plot = [&](const char* id, const std::string& title, const histeq::Histogram& h,
                  const ImVec4* colour) {
    const std::vector<float> bars = values(h), line = cdf(h);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (colour) ImGui::PushStyleColor(ImGuiCol_PlotHistogram, *colour);
    ImGui::PlotHistogram(id, bars.data(), histeq::kBins, 0, title.c_str(), 0.0f, FLT_MAX, ImVec2(w, plot_h));
    if (colour) ImGui::PopStyleColor();
    const ImVec2 after_plot = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(at);
    ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_PlotLines, ImVec4(0.45f, 0.85f, 1.0f, 1.0f));
    ImGui::PlotLines((std::string(id) + "cdf").c_str(), line.data(), histeq::kBins, 0, nullptr, 0.0f, 1.0f,
                     ImVec2(w, plot_h));
    ImGui::PopStyleColor(2);
    ImGui::SetCursorScreenPos(after_plot);
  };
  const std::string plane = plane_name(planes_.layout, p);
  plot("##before", "before: " + plane + " histogram, CDF", before_[p], nullptr);
  if (mode_ == Mode::Equalize && engine_hist_[p] != before_[p]) {
    static const ImVec4 red(0.9f, 0.25f, 0.2f, 1.0f);
    plot("##counted", "as " + std::string(choice_[0].current->id) + " counted it", engine_hist_[p], &red);
  }
  plot("##after", "after: histogram, CDF", after_[p], nullptr);
  {
    // The transfer function the pipeline built: out = lut[in].
    std::vector<float> lut(histeq::kBins);
    for (int i = 0; i < histeq::kBins; ++i) lut[i] = luts_[p][i];
    ImGui::PlotLines(
        "##lut", lut.data(), histeq::kBins, 0,
        mode_ == Mode::Equalize ? "LUT: out = lut[in] (the scaled CDF)" : "LUT: out = lut[in] (a line)", 0.0f,
        255.0f, ImVec2(w, plot_h * 0.7f));
  }
  if (mode_ == Mode::Stretch)
    ImGui::Text("%s: min %d, max %d stretched to 0..255", plane.c_str(), minmax_[p].min, minmax_[p].max);
  ImGui::Checkbox("log scale", &log_scale_);
  ImGui::SameLine();
  ImGui::TextDisabled("bars: histogram, blue line: CDF");
}

void HisteqDemo::ui_labels(const Frame& frame) {
  // "before" and "after" beside the split line, over the image (clipped to the free area).
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float sx = fs.x > 0 ? fs.x : 1.0f, sy = fs.y > 0 ? fs.y : 1.0f;
  const double w = image_.width * view_.scale, h = image_.height * view_.scale;
  const float split = static_cast<float>((view_.left + split_ * w) / sx);
  const float top = static_cast<float>(std::max(view_.top, 0.0) / sy);
  const float left = static_cast<float>(std::max(view_.left, static_cast<double>(view_.inset)) / sx);
  const float right = static_cast<float>(std::min(view_.left + w, static_cast<double>(view_.fb_w)) / sx);
  const float bottom = static_cast<float>(std::min(view_.top + h, static_cast<double>(view_.fb_h)) / sy);
  if (right <= left || bottom <= top) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->PushClipRect(ImVec2(static_cast<float>(view_.inset) / sx, 0), ImVec2(view_.fb_w / sx, view_.fb_h / sy));
  const float pad = 6.0f * frame.ui_scale;
  auto label = [&](const char* text, float x, bool right_aligned) {
    const ImVec2 ts = ImGui::CalcTextSize(text);
    const float x0 = right_aligned ? x - pad - ts.x - 2 * pad : x + pad;
    if (x0 < left || x0 + ts.x + 2 * pad > right || top + ts.y + 2 * pad > bottom) return;
    const ImVec2 a(x0, top + pad), b(x0 + ts.x + 2 * pad, top + pad + ts.y + pad);
    dl->AddRectFilled(a, b, IM_COL32(0, 0, 0, 170), 3.0f);
    dl->AddText(ImVec2(a.x + pad, a.y + pad * 0.5f), IM_COL32(255, 255, 255, 255), text);
  };
  label("before", split, true);
  label(mode_ == Mode::Equalize ? "after: equalized" : "after: stretched", split, false);
  dl->PopClipRect();
}

void HisteqDemo::ui(Frame& frame) {
  const float w = 220.0f * frame.ui_scale;
  ui_image(w);

  // Mode and colour handling.
  ImGui::Separator();
  int mode = mode_ == Mode::Equalize ? 0 : 1;
  bool changed = ImGui::RadioButton("equalize", &mode, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("stretch", &mode, 1);
  if (changed) set_mode(mode == 0 ? Mode::Equalize : Mode::Stretch);
  ImGui::SameLine();
  ImGui::TextDisabled("(E)");
  int colour = colour_ == Colour::Luminance ? 0 : 1;
  ImGui::BeginDisabled(!image_.is_colour());
  changed = ImGui::RadioButton("luminance", &colour, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("per channel", &colour, 1);
  ImGui::EndDisabled();
  if (changed) set_colour(colour == 0 ? Colour::Luminance : Colour::PerChannel);
  ImGui::SameLine();
  if (image_.is_colour()) {
    ImGui::TextDisabled("(C)");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "luminance: Y of YCrCb equalized, colours kept; per channel: R, G and B each on its own "
          "(colours shift)");
  } else {
    ImGui::TextDisabled("grey image: one plane");
  }

  // The split and the view.
  ImGui::SetNextItemWidth(w);
  ImGui::SliderFloat("split", &split_, 0.0f, 1.0f, "%.2f");
  ImGui::SameLine();
  if (ImGui::Button("fit (F)")) view_.fitted = false;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "left of the line: before, right: after. Click or drag on the image to move the split "
      "(Left/Right keys); wheel: zoom, right drag: pan. Keys: E equalize/stretch, C luminance/per "
      "channel, F fit");
  ImGui::PopStyleColor();

  ImGui::Separator();
  try {
    ui_plots(w * 1.8f);
  } catch (const std::exception& e) {
    ImGui::TextColored(kRed, "histograms: %s", e.what());
  }

  // Verify against the CPU reference.
  ImGui::Separator();
  if (ui::verify_button("compare this pipeline's output with the CPU reference (histeq::process_cpu), byte for byte",
                        [&] { return verify(); }, &verify_result_, &verify_ok_))
    notify(verify_result_);
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
  ui_labels(frame);
}

}  // namespace gpulab

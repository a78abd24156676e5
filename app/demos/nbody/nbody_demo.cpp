// N-body, host side: settings and UI, the CPU and CUDA engines and moving the state between them
// when the variant's backend changes, the camera, conservation plots, verify, body files, batch.
#include "demos/nbody/nbody_demo.h"
#include "core/cli.h"
#include "demos/common/cuda_start.h"
#include "demos/common/image_view.h"
#include "demos/common/probe_checks.h"
#include "demos/common/stage_table.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "base/stats.h"
#include "common/error.h"
#include "common/text.h"
#include "core/batch.h"
#include "core/cli_number.h"
#include "core/files.h"
#include "core/timings.h"
#include "demos/nbody/nbody_display.h"
#include "gl/image_io.h"

#include "nbody/nbody_cuda.h"

namespace gpulab {
namespace {

constexpr size_t kMaxSamples = 2000;  // conservation samples kept for the plots
constexpr int kBodyChoices[] = {1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576};
constexpr long long kMaxVerifyBodies = 65536;  // the CPU reference is O(N²) a step
constexpr double kMaxCpuProbeBodies = 131072;  // the ladder's CPU rung: ~1.7e10 interactions, seconds a step

std::string count_label(long long n) {
  if (n >= 1048576 && n % 1048576 == 0) return std::to_string(n / 1048576) + "Mi";
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n / 1024) + "Ki";
  return std::to_string(n);
}

double norm(const std::array<double, 3>& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

}  // namespace

NbodyDemo::NbodyDemo() : engines_(nbody::make_cpu_engine()) { active_ = engines_.cpu(); }

NbodyDemo::~NbodyDemo() = default;

const nbody::Variant& NbodyDemo::current() const { return nbody::variants()[pick(0).variant]; }

const StageTables& NbodyDemo::stage_tables() const {
  static const StageTables tables = [] {
    StageTables t;
    auto gpu = [](const nbody::Variant& v) { return v.backend == nbody::Backend::Cuda; };
    t.stages.push_back(make_stage_table("step", "force and integration", nbody::variants(), gpu,
                                        "gpu-tile-register", "cpu"));
    return t;
  }();
  return tables;
}

std::string NbodyDemo::why_unavailable(size_t, int variant) const {
  return engines_.why_unavailable(nbody::variants()[variant].backend == nbody::Backend::Cuda);
}

bool NbodyDemo::picks_changed(const Picks&, std::string* why) {
  if (!ctx_) return true;
  const nbody::Variant& v = current();
  if (!variant_available(v, why)) return false;
  nbody::Engine* to = engine_for(v);
  if (to != active_) switch_engine(to);
  return true;
}

void NbodyParams::add_options(CLI::App& cli) {
  CLI::Option_group* g = cli.add_option_group("N-body (--demo nbody)");
  g->add_option("--bodies", bodies, "number of bodies (default 16384; 2048 on the CPU backend)")
      ->check(whole_number(nbody::kMinBodies, nbody::kMaxBodies));
  // Given or not matters (they override a loaded file's header): each() notes it at parse time.
  g->add_option("--dt", dt, "time step (default 0.005)")->each([this](const std::string&) {
    dt_given = true;
  });
  g->add_option("--softening", softening, "Plummer softening length epsilon (default 0.05)")
      ->each([this](const std::string&) { softening_given = true; });
  g->add_option("--gravity", gravity, "gravitational constant G (default 1)")
      ->each([this](const std::string&) { gravity_given = true; });
  g->add_option("--load-bodies", load_bodies,
                "start from a body file: CSV (as --save-bodies writes) or tipsy");
  g->add_option("--save-bodies", save_bodies,
                "write the state as CSV after exactly --steps K steps, and exit")
      ->type_name(kOutputPath);
}

bool NbodyParams::same_input(const DemoParams& other) const {
  const auto& o = dynamic_cast<const NbodyParams&>(other);
  return bodies == o.bodies && dt_given == o.dt_given && softening_given == o.softening_given &&
         gravity_given == o.gravity_given && (!dt_given || dt == o.dt) &&
         (!softening_given || softening == o.softening) && (!gravity_given || gravity == o.gravity) &&
         load_bodies == o.load_bodies;
}

std::vector<std::string> NbodyParams::given() const {
  std::vector<std::string> out;
  if (bodies) out.push_back("--bodies " + std::to_string(bodies));
  if (dt_given) out.push_back("--dt " + option_number(dt));
  if (softening_given) out.push_back("--softening " + option_number(softening));
  if (gravity_given) out.push_back("--gravity " + option_number(gravity));
  if (!load_bodies.empty()) out.push_back("--load-bodies " + load_bodies);
  return out;
}

bool NbodyDemo::batch_requested() const { return bound() && !params<NbodyParams>().save_bodies.empty(); }

std::string NbodyDemo::configure(const Options& o) {
  const NbodyParams& p = params<NbodyParams>();
  const SharedInputs& in = setup().shared;
  if (std::string bad = reject_image_options(in, o, name()); !bad.empty()) return bad;
  const std::string init_name = in.init.empty() ? "plummer" : in.init;  // --init (shared with matrix)
  const nbody::InitInfo* init = nbody::find_init(init_name);
  if (!init) return "unknown --init " + text::quote(init_name) + " (plummer, sphere, disk, galaxies)";
  init_ = init->kind;
  if (in.seed) seed_ = *in.seed;
  if (p.bodies) bodies_ = p.bodies;
  if (!p.load_bodies.empty()) {
    nbody::LoadResult r = nbody::load_bodies(p.load_bodies);
    if (!r.file) return r.error;
    if (r.file->params) params_ = *r.file->params;
    loaded_ = std::move(r.file->system);
    loaded_path_ = p.load_bodies;
    if (p.bodies)
      return "--bodies and --load-bodies cannot go together (the file has " +
             std::to_string(loaded_->size()) + " bodies)";
  }
  // Flags override the file's header.
  if (p.dt_given) params_.dt = static_cast<float>(p.dt);
  if (p.softening_given) params_.softening = static_cast<float>(p.softening);
  if (p.gravity_given) params_.G = static_cast<float>(p.gravity);
  const std::string bad = nbody::check_params(params_);
  if (!bad.empty()) return bad;
  return {};
}

void NbodyDemo::notify(std::string line) const {
  if (ctx_ && ctx_->notify) ctx_->notify(std::move(line));
}

void NbodyDemo::attach(Context& ctx) {
  ctx_ = &ctx;
  engines_.start(ctx, [](Stream s) { return nbody::CudaEngine::create(s); });
  // A pick that cannot run here runs on the CPU (the shell then picks cpu).
  const nbody::Variant* runs = &current();
  if (!variant_available(*runs, nullptr)) runs = nbody::find_variant("cpu");  // said by the shell
  if (!bodies_) bodies_ = engines_.gpu() ? nbody::kDefaultBodies : nbody::kDefaultBodiesCpu;
  bodies_input_ = static_cast<int>(bodies_);
  active_ = engine_for(*runs);
  for (nbody::Engine* e : engines_.both())
    if (e) e->set_params(params_);
  std::string err;
  if (!rebuild(&err)) throw std::runtime_error(err);
  display_ = std::make_unique<NbodyDisplay>(ctx);
  view_fitted_ = false;
}

void NbodyDemo::detach() {
  display_.reset();
  engines_.stop();
  active_ = engines_.cpu();
  ctx_ = nullptr;
}

void NbodyDemo::switch_engine(nbody::Engine* to) {
  // The state moves with the variant: download from one backend, upload to the other.
  nbody::System s = active_->download();
  to->set_params(params_);
  to->upload(s);
  active_ = to;
  diag_pending_ = false;
}

bool NbodyDemo::rebuild(std::string* error) {
  nbody::System s;
  try {
    s = loaded_ ? *loaded_ : nbody::make_initial(init_, static_cast<size_t>(bodies_), seed_, params_);
    active_->upload(s);  // keeps the previous state when it throws (out of memory)
  } catch (const std::exception& e) {
    *error = "cannot make " + std::to_string(loaded_ ? loaded_->size() : bodies_) + " bodies: " + e.what();
    return false;
  }
  // The other engine drops a stale state of another size (it is refilled on a variant switch).
  initial_ = std::move(s);
  reset_state();
  return true;
}

void NbodyDemo::reset_state() {
  if (active_->size() != initial_.size() || step_ != 0) active_->upload(initial_);
  step_ = 0;
  samples_.clear();
  baseline_.reset();
  // A large system on the CPU can take hours before its first picture: the energy of the initial
  // state (a pass over the pairs, about a step's time: measured) and the first frame's step. Said
  // before them, once, from a sample (a batch run says its own estimate for its steps).
  if (!first_frame_estimated_ && current().backend == nbody::Backend::Cpu && initial_.size() > 8192) {
    first_frame_estimated_ = true;
    if (params<NbodyParams>().save_bodies.empty())
      say_long_run("the first frame of " + std::to_string(initial_.size()) +
                       " bodies on the CPU (their energy, then a step)",
                   2 * nbody::estimate_cpu_seconds(initial_, params_, current(), 1), "from a sample of 2048");
  }
  last_diag_step_ = 0;
  // The first sample is of the initial state: the baseline of the drift plots. A batch run plots no
  // drift and its energy is a pass over the pairs (on the CPU, hours for millions of bodies before the
  // steps' own estimate was said): the frames that may follow it take their first sample themselves.
  diag_pending_ = !batch_requested();
  if (diag_pending_) active_->request_diagnostics();
}

bool NbodyDemo::open_file(const std::filesystem::path& path, std::string* error) {
  nbody::LoadResult r = nbody::load_bodies(path.string());
  if (!r.file) {
    *error = r.error;
    return false;
  }
  auto keep_loaded = std::move(loaded_);
  const nbody::Params keep_params = params_;
  loaded_ = std::move(r.file->system);
  if (r.file->params && nbody::check_params(*r.file->params).empty()) apply_params(*r.file->params);
  if (!rebuild(error)) {
    loaded_ = std::move(keep_loaded);
    apply_params(keep_params);
    return false;
  }
  loaded_path_ = path;
  bodies_ = static_cast<long long>(initial_.size());
  bodies_input_ = static_cast<int>(std::min<long long>(bodies_, 1 << 30));
  view_fitted_ = false;
  status_ = "loaded " + path.filename().string() + ": " + std::to_string(initial_.size()) + " bodies";
  return true;
}

void NbodyDemo::apply_params(const nbody::Params& p) {
  params_ = p;
  for (nbody::Engine* e : engines_.both())
    if (e) e->set_params(p);
}

void NbodyDemo::advance(int steps) {
  if (steps <= 0) return;
  const nbody::Variant& v = current();
  Timings* t = ctx_ ? ctx_->timings : nullptr;
  if (v.backend == nbody::Backend::Cuda) {
    auto* gpu = engines_.gpu_as<nbody::CudaEngine>();
    if (t) t->gpu_begin(TimingKey{pick(0)}, "step", gpu->stream());
    gpu->step(v, block(), steps);
    if (t) t->gpu_end(TimingKey{pick(0)}, "step", gpu->stream());
  } else {
    KeyedCpuSection s(t, TimingKey{pick(0)}, "step (CPU)");
    active_->step(v, block(), steps);
  }
  step_ += static_cast<uint64_t>(steps);
  last_steps_ = steps;
}

void NbodyDemo::compute(Frame& frame) {
  handle_input(frame);
  last_steps_ = 0;
  if (frame.reset) reset_state();
  const int n = frame.playing ? frame.steps_per_frame : (frame.step_once ? 1 : 0);
  advance(n);
  // Conservation samples every diag_every_ steps, read back a frame or more later: never a stall.
  if (auto d = active_->poll_diagnostics()) {
    diag_pending_ = false;
    if (!baseline_) baseline_ = *d;
    samples_.push_back({last_diag_step_, *d});
    if (samples_.size() > kMaxSamples) samples_.erase(samples_.begin(), samples_.begin() + kMaxSamples / 4);
    if (d->total_mass > 0 && d->kinetic > 0)
      speed_scale_ = static_cast<float>(2.5 * std::sqrt(2.0 * d->kinetic / d->total_mass));
  }
  if (!diag_pending_ && step_ >= last_diag_step_ + static_cast<uint64_t>(diag_every_)) {
    active_->request_diagnostics();
    diag_pending_ = true;
    last_diag_step_ = step_;
  }
  CpuSection s(ctx_->timings, "vertices");
  display_->update(*active_, force_host_copy_);
}

void NbodyDemo::fit_view(float aspect) {
  // Frame a little more than the sphere holding 90% of the mass: outliers (escapers) would shrink the
  // picture, and two galaxies on a collision course sit near that radius.
  double r = baseline_ && baseline_->radius > 0 ? baseline_->radius : 0.0;
  if (!samples_.empty() && samples_.back().d.radius > 0) r = samples_.back().d.radius;
  if (!(r > 0)) r = 1.5;
  camera_.fit(glm::vec3(0.0f), static_cast<float>(r) * 1.8f, aspect);
  view_fitted_ = true;
}

std::vector<KeyBinding> NbodyDemo::keys() const {
  return {{GLFW_KEY_F, 0, 0, false, "F", "fit the view to the bodies", title()}};
}

void NbodyDemo::handle_input(const Frame& frame) {
  const Frame::Rect area = frame.view_or_all();
  const float aspect = static_cast<float>(std::max(1, area.w)) / std::max(1, area.h);
  for (int key : frame.input.keys)
    if (key == GLFW_KEY_F) fit_view(aspect);
  const bool layout_changed =
      frame.width != last_fb_w_ || frame.height != last_fb_h_ || !(area == last_area_);
  if (!view_fitted_ || layout_changed) {
    if (!view_fitted_) fit_view(aspect);
    last_fb_w_ = frame.width;
    last_fb_h_ = frame.height;
    last_area_ = area;
  }
  if (!frame.mouse_free) return;
  const Input& in = frame.input;
  const float h = static_cast<float>(std::max(1, area.h));
  if (in.wheel != 0.0f) camera_.zoom(in.wheel);
  if (in.dragging[0] && !in.shift) camera_.rotate(in.delta_x, in.delta_y, h);
  if (in.dragging[1] || in.dragging[2] || (in.dragging[0] && in.shift))
    camera_.pan(in.delta_x, in.delta_y, h);
}

void NbodyDemo::render(Frame& frame) {
  // The picture fills the view region (GL's viewport is y up).
  const Frame::Rect area = frame.view_or_all();
  const int w = std::max(1, area.w), h = std::max(1, area.h);
  NbodyLook look;
  look.view_proj = camera_.projection(static_cast<float>(w) / h) * camera_.view();
  look.viewport_h = static_cast<float>(h);
  look.fov_y = camera_.fov_y;
  look.point_size = point_size_ * 0.01f;
  look.mean_mass = initial_.size() ? 1.0f / static_cast<float>(initial_.size()) : 1.0f;
  look.speed_max = speed_scale_;
  look.brightness = brightness_;
  look.mark_scale = view_mark_scale(frame);
  display_->draw(look, area.x, frame.height - (area.y + h), w, h);
}

void NbodyDemo::verify(int steps) {
  // Runs the current variant and the CPU reference side by side from the same state.
  const nbody::Variant& v = current();
  nbody::System start = active_->download();
  if (static_cast<long long>(start.size()) > kMaxVerifyBodies) {
    verify_result_ =
        "verify runs the O(N^2) CPU reference: at most " + std::to_string(kMaxVerifyBodies) + " bodies";
    return;
  }
  auto reference = nbody::make_cpu_engine();
  reference->set_params(params_);
  reference->upload(start);
  const auto t0 = std::chrono::steady_clock::now();
  // A fresh engine of the variant's backend, so the current run's stored accelerations do not differ.
  nbody::Engine* e = active_;
  e->upload(start);
  e->step(v, block(), steps);
  reference->step(*nbody::find_variant("cpu"), 0, steps);
  const nbody::System got = e->download(), want = reference->download();
  step_ += static_cast<uint64_t>(steps);
  const double diff = nbody::max_position_difference(got, want);
  const nbody::Diagnostics d = reference->diagnostics();
  const double radius = d.radius > 0 ? d.radius : 1.0;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s vs cpu after %d steps, %zu bodies: largest position difference %.3g (%.3g of the "
                "90%%-mass radius) (%.2f s)",
                std::string(v.id).c_str(), steps, start.size(), diff, diff / radius, s);
  verify_result_ = buf;
  notify(verify_result_);
}

// verify allows 1e-4 of the 90%-mass radius: ten times the float rounding the GPU tests bound
// (nbody_cuda_gpu_test.cpp), far below a missing tile's error.
Probe make_nbody_probe(std::shared_ptr<nbody::Engine> engine, Stream stream,
                       std::shared_ptr<const nbody::System> start, const nbody::Params& params,
                       const nbody::Variant& v, int block) {
  engine->set_params(params);
  engine->upload(*start);
  const double n = static_cast<double>(start->size());
  Probe p;
  p.gpu = v.backend == nbody::Backend::Cuda;
  p.stream = p.gpu ? stream : nullptr;
  p.device = std::string(engine->device_name());
  p.items_per_step = nbody::interactions_per_step(n);
  p.item_unit = "interactions";
  p.flops_per_step = nbody::kFlopsPerInteraction * p.items_per_step;
  p.width = static_cast<long long>(n);
  p.height = 1;
  p.size = "N=" + std::to_string(p.width);
  nbody::Engine* e = engine.get();
  const nbody::Variant* pv = &v;
  p.run = [e, pv, block](int steps) { e->step(*pv, block, steps); };
  if (p.width > kMaxVerifyBodies) {
    p.note = "not verified: the O(N^2) CPU reference is too slow above " + std::to_string(kMaxVerifyBodies) +
             " bodies";
  } else if (v.id != "cpu") {
    p.verify = [engine, start, pv, block, params]() -> std::string {
      constexpr int kSteps = 2;
      auto reference = nbody::make_cpu_engine();
      reference->set_params(params);
      reference->upload(*start);
      reference->step(*nbody::find_variant("cpu"), 0, kSteps);
      engine->upload(*start);
      engine->step(*pv, block, kSteps);
      const nbody::System got = engine->download(), want = reference->download();
      engine->upload(*start);
      const nbody::Diagnostics d = reference->diagnostics();
      const double radius = d.radius > 0 ? d.radius : 1.0;
      const double diff = nbody::max_position_difference(got, want);
      if (!(diff <= 1e-4 * radius)) {
        char buf[160];
        std::snprintf(
            buf, sizeof buf,
            "differs from cpu after %d steps: a position off by %.3g (%.3g of the 90%%-mass radius)", kSteps,
            diff, diff / radius);
        return buf;
      }
      return {};
    };
  }
  p.state = engine;
  return p;
}

// The ladder's probe: a fresh engine of the variant's backend holding a copy of the current system
// and parameters; the CPU only up to kMaxCpuProbeBodies.
Probe NbodyDemo::probe(const Picks& picks, size_t stage) {
  if (stage != 0) return probe_unavailable("N-body has no pipeline of stages");
  const nbody::Variant* v = &nbody::variants()[picks.at(0).variant];
  int block = picks[0].block;
  std::string why;
  if (!variant_available(*v, &why)) return probe_unavailable(why);
  if (why = check_probe_block(*v, &block); !why.empty()) return probe_unavailable(why);
  const bool gpu = v->backend == nbody::Backend::Cuda;
  const double n = static_cast<double>(active_->size());
  if (!gpu && n > kMaxCpuProbeBodies) {
    char buf[160];
    std::snprintf(
        buf, sizeof buf,
        "too slow for the CPU at %zu bodies (%.2g interactions a step; the ladder runs it up to %.0f)",
        active_->size(), nbody::interactions_per_step(n), kMaxCpuProbeBodies);
    return probe_unavailable(buf);
  }
  std::shared_ptr<nbody::Engine> engine;
  if (gpu) engine = nbody::CudaEngine::create(ctx_->stream);
  if (!engine) engine = nbody::make_cpu_engine();
  return make_nbody_probe(std::move(engine), ctx_->stream,
                          std::make_shared<const nbody::System>(active_->download()), params_, *v, block);
}

void NbodyDemo::save_csv(const std::filesystem::path& path) {
  write_text_file(path, nbody::write_csv(active_->download(), params_, step_));
}

std::string NbodyDemo::run_batch(const Options& o) {
  const std::string& out = params<NbodyParams>().save_bodies;
  if (out.empty()) return {};
  try {
    // A state that blew up (coincident bodies without softening, huge values) is not written: the file
    // would hold nan, which no reader (gpulab's own included) takes. Checked after each batch of steps
    // (they double: a few dozen checks in all), so the step named is where it was first seen.
    auto check_finite = [this, &out]() {
      if (std::string bad = nbody::check_finite(active_->download(), step_); !bad.empty())
        throw std::runtime_error(bad + "; " + text::quote(out) + " not written");
    };
    // On the CPU a step is N^2 interactions: a large system's first step alone can take days, so the
    // time is estimated before it, from a sample (the step loop refines it once steps are timed).
    if (current().backend == nbody::Backend::Cpu && active_->size() > 8192 && o.steps > 0) {
      const double s = nbody::estimate_cpu_seconds(active_->download(), params_, current(), o.steps);
      say_long_run(
          std::to_string(o.steps) + " steps of " + std::to_string(active_->size()) + " bodies on the CPU", s,
          "from a sample of 2048");
    }
    run_batch_steps(
        o.steps < 0 ? 0 : o.steps,
        [&](int n) {
          advance(n);
          check_finite();
        },
        "steps");
    check_finite();
    save_csv(out);
    std::fprintf(stderr, "gpulab: %llu steps of %zu bodies with %s, written to %s\n",
                 static_cast<unsigned long long>(step_), active_->size(), std::string(current().id).c_str(),
                 text::escape(out, 4096).c_str());
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

std::vector<KernelInfo> NbodyDemo::kernels() const {
  if (engines_.gpu() && current().backend == nbody::Backend::Cuda)
    return engines_.gpu_as<const nbody::CudaEngine>()->kernels(current(), block());
  return {};
}

std::vector<Throughput> NbodyDemo::throughput() const {
  Throughput t;
  t.label = "step (per step)";
  t.timed = {pick(0)};
  t.steps = last_steps_;
  const double n = static_cast<double>(active_->size());
  t.items_per_step = nbody::interactions_per_step(n);
  t.item_unit = "interactions";
  t.flops_per_step = nbody::kFlopsPerInteraction * t.items_per_step;
  return {t};
}

std::string NbodyDemo::caption() const {
  const nbody::Variant& v = current();
  std::string s = "N-body | " + std::string(v.id) +
                  (v.blocks.empty() ? "" : " | block " + std::to_string(block())) + " | " +
                  count_label(static_cast<long long>(active_->size())) + " bodies";
  if (const auto ms = ctx_ && ctx_->timings
                          ? ctx_->timings->median_per_step(throughput().front().timed, last_steps_)
                          : std::nullopt) {
    const double n = static_cast<double>(active_->size());
    s += " | " + format_time_per(*ms, throughput().front().label) + ", " +
         format_si(nbody::interactions_per_step(n) / (*ms * 1e-3), "interactions/s");
  }
  s += " | " + std::string(active_->device_name());
  return s;
}

void NbodyDemo::set_body_count(long long n) {
  if (n < nbody::kMinBodies || n > nbody::kMaxBodies) {
    notify("the body count must be from 1 to " + std::to_string(nbody::kMaxBodies));
    return;
  }
  // A generated system of n bodies; on failure (out of memory) the current system stays.
  const long long keep = bodies_;
  auto keep_loaded = std::move(loaded_);
  bodies_ = n;
  loaded_.reset();
  std::string err;
  if (!rebuild(&err)) {
    bodies_ = keep;
    loaded_ = std::move(keep_loaded);
    notify(err);
    return;
  }
  bodies_input_ = static_cast<int>(n);
  view_fitted_ = false;
}

void NbodyDemo::ui_system(float w) {
  // Body count: powers of two, or any typed value.
  ImGui::SetNextItemWidth(w);
  if (ImGui::BeginCombo("bodies", count_label(bodies_).c_str())) {
    for (int n : kBodyChoices) {
      if (ImGui::Selectable(count_label(n).c_str(), n == bodies_)) set_body_count(n);
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(w * 0.6f);
  ImGui::InputInt("##bodies", &bodies_input_, 0);
  ImGui::SameLine();
  if (ImGui::Button("set count")) set_body_count(bodies_input_);
  // Initial conditions and seed.
  ImGui::SetNextItemWidth(w);
  const nbody::InitInfo* cur = nullptr;
  for (const auto& k : nbody::init_kinds())
    if (k.kind == init_) cur = &k;
  const std::string label = loaded_ ? loaded_path_.filename().string() : std::string(cur ? cur->title : "?");
  if (ImGui::BeginCombo("initial", label.c_str())) {
    for (const auto& k : nbody::init_kinds()) {
      if (ImGui::Selectable(std::string(k.title).c_str(), !loaded_ && k.kind == init_)) {
        init_ = k.kind;
        loaded_.reset();
        std::string err;
        if (!rebuild(&err)) notify(err);
        view_fitted_ = false;
      }
    }
    ImGui::EndCombo();
  }
  int seed = static_cast<int>(seed_ & 0x7fffffff);
  ImGui::SetNextItemWidth(w * 0.6f);
  if (ImGui::InputInt("seed", &seed)) seed_ = static_cast<uint64_t>(std::max(seed, 0));
  ImGui::SameLine();
  if (ImGui::Button("new system")) {
    loaded_.reset();
    std::string err;
    if (!rebuild(&err)) notify(err);
  }
  // Physics parameters: out-of-range values are clamped, and the panel says so.
  dt_input_ = params_.dt;
  softening_input_ = params_.softening;
  gravity_input_ = params_.G;
  bool changed = false;
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::InputFloat("dt", &dt_input_, 0.0f, 0.0f, "%.5f", ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::InputFloat("softening", &softening_input_, 0.0f, 0.0f, "%.4f",
                               ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SetNextItemWidth(w);
  changed |=
      ImGui::InputFloat("G", &gravity_input_, 0.0f, 0.0f, "%.4f", ImGuiInputTextFlags_EnterReturnsTrue);
  if (changed) {
    nbody::Params p;
    p.dt = std::isfinite(dt_input_) ? std::clamp(dt_input_, 1e-6f, 1.0f) : params_.dt;
    p.softening =
        std::isfinite(softening_input_) ? std::clamp(softening_input_, 0.0f, 10.0f) : params_.softening;
    p.G = std::isfinite(gravity_input_) ? std::clamp(gravity_input_, 1e-6f, 1e3f) : params_.G;
    param_note_.clear();
    if (p.dt != dt_input_) param_note_ += "dt clamped to " + std::to_string(p.dt) + " (1e-6..1). ";
    if (p.softening != softening_input_)
      param_note_ += "softening clamped to " + std::to_string(p.softening) + " (0..10). ";
    if (p.G != gravity_input_) param_note_ += "G clamped to " + std::to_string(p.G) + " (1e-6..1000). ";
    apply_params(p);
  }
  if (!param_note_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.2f, 1.0f), "%s", param_note_.c_str());
  // A body file (CSV or tipsy): typed, or dropped on the window.
  ImGui::SetNextItemWidth(w);
  if (ImGui::InputTextWithHint("##path", "bodies.csv or galaxy.tipsy", path_input_, sizeof path_input_,
                               ImGuiInputTextFlags_EnterReturnsTrue)) {
    std::string err;
    if (!open_file(path_input_, &err)) notify(err);
  }
  ImGui::SameLine();
  ImGui::TextDisabled("open (Enter), or drop a file");
  if (ImGui::Button("save CSV")) {
    try {
      const auto p = gl::unique_screenshot_path("bodies", "nbody", ".csv");
      save_csv(p);
      notify("saved " + text::escape(p.string(), 4096));
    } catch (const std::exception& e) {
      notify(e.what());
    }
  }
}

void NbodyDemo::ui_plots() {
  if (!baseline_ || samples_.empty()) {
    ImGui::TextDisabled("conservation: waiting for the first sample");
    return;
  }
  const nbody::Diagnostics& b = *baseline_;
  const nbody::Diagnostics& d = samples_.back().d;
  // Momentum's natural scale: the sum of |m v| (its total is zero by construction, so relative to
  // itself it means nothing).
  double pscale = 0;
  for (const Sample& s : samples_) pscale = std::max(pscale, std::sqrt(2.0 * s.d.kinetic * s.d.total_mass));
  const double e0 = std::abs(b.energy()) > 0 ? std::abs(b.energy()) : 1.0;
  std::vector<float> energy, momentum, angular;
  for (const Sample& s : samples_) {
    energy.push_back(static_cast<float>((s.d.energy() - b.energy()) / e0));
    std::array<double, 3> dp{s.d.momentum[0] - b.momentum[0], s.d.momentum[1] - b.momentum[1],
                             s.d.momentum[2] - b.momentum[2]};
    std::array<double, 3> dl{s.d.angular_momentum[0] - b.angular_momentum[0],
                             s.d.angular_momentum[1] - b.angular_momentum[1],
                             s.d.angular_momentum[2] - b.angular_momentum[2]};
    momentum.push_back(static_cast<float>(norm(dp) / std::max(pscale, 1e-30)));
    const double l0 = norm(b.angular_momentum);
    angular.push_back(static_cast<float>(l0 > 1e-12 ? norm(dl) / l0 : norm(dl)));
  }
  ImGui::Text("E = %.6g (kinetic %.4g, potential %.4g), step %llu", d.energy(), d.kinetic, d.potential,
              static_cast<unsigned long long>(samples_.back().step));
  char overlay[96];
  const float wplot = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
  std::snprintf(overlay, sizeof overlay, "energy drift (E-E0)/|E0| = %.2e", energy.back());
  ImGui::PlotLines("##energy", energy.data(), static_cast<int>(energy.size()), 0, overlay, FLT_MAX, FLT_MAX,
                   ImVec2(wplot, 60));
  std::snprintf(overlay, sizeof overlay, "momentum |P-P0| / sum m|v| = %.2e", momentum.back());
  ImGui::PlotLines("##momentum", momentum.data(), static_cast<int>(momentum.size()), 0, overlay, FLT_MAX,
                   FLT_MAX, ImVec2(wplot, 45));
  std::snprintf(overlay, sizeof overlay,
                norm(b.angular_momentum) > 1e-12 ? "angular momentum |L-L0|/|L0| = %.2e"
                                                 : "angular momentum |L-L0| = %.2e",
                angular.back());
  ImGui::PlotLines("##angular", angular.data(), static_cast<int>(angular.size()), 0, overlay, FLT_MAX,
                   FLT_MAX, ImVec2(wplot, 45));
  ImGui::SetNextItemWidth(120);
  if (ImGui::InputInt("sample every K steps", &diag_every_)) diag_every_ = std::clamp(diag_every_, 1, 100000);
}

void NbodyDemo::ui(Frame& frame) {
  const float w = 220.0f * frame.ui_scale;
  ImGui::Text("%s bodies, step %llu, t = %.4g", count_label(static_cast<long long>(active_->size())).c_str(),
              static_cast<unsigned long long>(step_), static_cast<double>(step_) * params_.dt);
  ImGui::TextDisabled("display: %s", display_ ? display_->path_description().c_str() : "-");
  ui_system(w);

  // View: the colour legend (the same ramp as the shader), point size, brightness, fit.
  ImGui::Separator();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float lw = w, lh = 12.0f * frame.ui_scale;
  for (int i = 0; i < 32; ++i) {
    const auto c0 = speed_colour(i / 32.0f), c1 = speed_colour((i + 1) / 32.0f);
    const ImU32 a = ImGui::ColorConvertFloat4ToU32(ImVec4(c0[0], c0[1], c0[2], 1));
    const ImU32 b = ImGui::ColorConvertFloat4ToU32(ImVec4(c1[0], c1[1], c1[2], 1));
    dl->AddRectFilledMultiColor(ImVec2(p.x + lw * i / 32, p.y), ImVec2(p.x + lw * (i + 1) / 32, p.y + lh), a,
                                b, b, a);
  }
  ImGui::Dummy(ImVec2(lw, lh));
  ImGui::SameLine();
  ImGui::Text("speed 0 .. %.3g", speed_scale_);
  ImGui::SetNextItemWidth(w);
  ImGui::SliderFloat("point size", &point_size_, 0.5f, 20.0f, "%.1f");
  ImGui::SetNextItemWidth(w);
  ImGui::SliderFloat("brightness", &brightness_, 0.05f, 2.0f, "%.2f");
  if (ImGui::Button("fit view (F)")) view_fitted_ = false;
  ImGui::SameLine();
  ImGui::TextDisabled("drag: rotate, wheel: zoom, right drag: pan");

  ImGui::Separator();
  ui_plots();

  // Verify against the CPU reference.
  ImGui::Separator();
  ImGui::SetNextItemWidth(w * 0.5f);
  ImGui::InputInt("##verifyk", &verify_steps_);
  verify_steps_ = std::clamp(verify_steps_, 1, 10000);
  ImGui::SameLine();
  if (ImGui::Button("verify")) {
    try {
      verify(verify_steps_);
    } catch (const std::exception& e) {
      verify_result_ = std::string("verify failed: ") + e.what();
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "run this variant and the CPU reference K steps from the same state and compare positions");
  if (!verify_result_.empty()) ImGui::TextWrapped("%s", verify_result_.c_str());
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
}

}  // namespace gpulab

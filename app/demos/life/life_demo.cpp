// Game of Life, host side: settings and UI, input (zoom, pan, draw), the CPU and CUDA engines and
// moving the state between them when the variant's backend changes, verify, patterns.
#include "demos/life/life_demo.h"
#include "core/cli.h"
#include "demos/common/cuda_start.h"
#include "demos/common/probe_checks.h"
#include "demos/common/stage_table.h"
#include "demos/common/view_palette.h"

#include <imgui.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "base/stats.h"
#include "common/error.h"
#include "common/number.h"
#include "common/text.h"
#include "core/batch.h"
#include "core/files.h"
#include "core/timings.h"
#include "demos/life/life_display.h"
#include "gl/image_io.h"
#include "platform/platform.h"

#include "life/life_cuda.h"

namespace gpulab {
namespace {

constexpr double kMinZoom = 1.0 / 64.0, kMaxZoom = 64.0;
// What a step is: the throughput label's words, so the HUD's, the bench's and the ladder's.
constexpr char kPerStep[] = "per generation";

}  // namespace

LifeDemo::LifeDemo() : engines_(life::make_cpu_engine()) { active_ = engines_.cpu(); }

LifeDemo::~LifeDemo() = default;

const life::Variant& LifeDemo::current() const { return life::variants()[pick(0).variant]; }

const StageTables& LifeDemo::stage_tables() const {
  static const StageTables tables = [] {
    StageTables t;
    auto gpu = [](const life::Variant& v) { return v.backend == life::Backend::Cuda; };
    t.stages.push_back(
        make_stage_table("step", "generation", life::variants(), gpu, "gpu-global", "cpu-lut"));
    StageTable ghost;
    ghost.id = "ghost";
    ghost.title = "ghost copies";
    ghost.variants = {variant_choice(life::ghost_variant(), true)};
    t.stages.push_back(ghost);
    return t;
  }();
  return tables;
}

// The ghost copies run with the byte-per-cell GPU variants only, which say so.
std::string LifeDemo::why_unavailable(size_t stage, int variant) const {
  if (stage != 0) return {};
  return engines_.why_unavailable(life::variants()[variant].backend == life::Backend::Cuda);
}

std::string LifeDemo::inactive_reason(size_t stage) const {
  if (stage != 1) return {};
  const bool runs = current().backend == life::Backend::Cuda && current().layout == life::Layout::Bytes;
  return runs ? std::string() : "only the byte-per-cell GPU variants copy ghost cells";
}

bool LifeDemo::picks_changed(const Picks&, std::string* why) {
  if (!ctx_) return true;
  const life::Variant& v = current();
  if (!variant_available(v, why)) return false;
  life::Engine* to = engine_for(v);
  if (to != active_) switch_engine(to);
  return true;
}

void LifeParams::add_options(CLI::App& cli) {
  CLI::Option_group* g = cli.add_option_group("Game of Life (--demo life)");
  g->add_option("--grid", grid, "grid size WxH (default 1024x1024)");
  g->add_option("--rule", rule, "B/S rule, e.g. B3/S23, B36/S23, B3678/S34678, B2/S");
  g->add_option("--pattern", pattern, "load a pattern (.rle or .cells) at the grid's centre");
  g->add_option("--density", density, "random fill density when no pattern is given (default 0.25)")
      ->check(CLI::Range(0.0, 1.0));
  g->add_option("--generations-per-pass", generations_per_pass,
                "gpu-bit-multistep: generations advanced on chip per pass through memory, 1..16 (default 16)")
      ->type_name("K");
  g->add_option("--save-pattern", save_pattern,
                "write the grid as RLE (after --steps K generations) and exit")
      ->type_name(kOutputPath);
}

bool LifeParams::same_input(const DemoParams& other) const {
  const auto& o = dynamic_cast<const LifeParams&>(other);
  // gpu-bit-multistep's k too: a lesson step that names it must run it (the same-input path of a
  // step changes only the picks).
  return grid == o.grid && rule == o.rule && pattern == o.pattern && density == o.density &&
         generations_per_pass == o.generations_per_pass;
}

std::vector<std::string> LifeParams::given() const {
  std::vector<std::string> out;
  if (!grid.empty()) out.push_back("--grid " + grid);
  if (!rule.empty()) out.push_back("--rule " + rule);
  if (!pattern.empty()) out.push_back("--pattern " + pattern);
  if (density != LifeParams().density) out.push_back("--density " + option_number(density));
  if (!generations_per_pass.empty()) out.push_back("--generations-per-pass " + generations_per_pass);
  return out;
}

bool LifeDemo::batch_requested() const { return bound() && !params<LifeParams>().save_pattern.empty(); }

std::string LifeDemo::configure(const Options& o) {
  const LifeParams& p = params<LifeParams>();
  const SharedInputs& in = setup().shared;
  if (std::string bad = reject_init(in, name()); !bad.empty()) return bad;
  if (std::string bad = reject_image_options(in, o, name()); !bad.empty()) return bad;
  if (!p.rule.empty()) {
    std::string err;
    auto r = life::Rule::parse(p.rule, &err);
    if (!r) return "bad --rule: " + err;
    rule_ = *r;
    rule_text_ = rule_.to_string();
    rule_from_command_line_ = true;
  }
  if (!p.grid.empty()) {
    // Parsed without wrap-around (4294967306x10 is not 10x10); check_size gives the edges' limits.
    long long w = 0, h = 0;
    if (std::string bad = text::parse_whole_size(p.grid, life::kMinEdge, life::kMaxEdge, &w, &h);
        !bad.empty())
      return "--grid " + bad + ", e.g. 1024x1024";
    const std::string err = life::check_size(w, h);
    if (!err.empty()) return err;
    grid_w_ = static_cast<int>(w);
    grid_h_ = static_cast<int>(h);
  }
  if (!p.pattern.empty()) {
    // Read once, here: what reset and the batch run place is this copy.
    // The grid is known: an RLE header larger than it is refused before its body is read.
    if (is_lesson_path(p.pattern)) return "--pattern " + lesson_given_as(p.pattern, "a pattern");
    life::PatternResult r = life::load_pattern_file(p.pattern, grid_w_, grid_h_);
    if (!r) return life::describe(r.error, p.pattern);
    if (r.pattern->width > grid_w_ || r.pattern->height > grid_h_)
      return text::escape(p.pattern) + ": the pattern is " + std::to_string(r.pattern->width) + "x" +
             std::to_string(r.pattern->height) + ", larger than the " + std::to_string(grid_w_) + "x" +
             std::to_string(grid_h_) + " grid (use --grid)";
    std::string told = adopt_pattern(std::move(r), p.pattern, true);
    if (!told.empty()) pending_notices_.push_back(std::move(told));
  }
  if (!p.generations_per_pass.empty()) {
    std::string err;
    const auto k = life::parse_generations_per_pass(p.generations_per_pass, &err);
    if (!k) return "bad --generations-per-pass: " + err;
    generations_per_pass_ = *k;
  }
  density_ = p.density;
  if (in.seed) seed_ = *in.seed;
  return {};
}

void LifeDemo::notify(std::string line) const {
  if (ctx_ && ctx_->notify) ctx_->notify(std::move(line));
}

void LifeDemo::attach(Context& ctx) {
  ctx_ = &ctx;
  for (std::string& n : pending_notices_) notify(std::move(n));
  pending_notices_.clear();
  engines_.start(ctx, [](Stream s) { return life::CudaEngine::create(s); });
  // A pick that cannot run here runs on the CPU (the shell then picks cpu-lut).
  const life::Variant* runs = &current();
  if (!variant_available(*runs, nullptr)) runs = life::find_variant("cpu-lut");  // said by the shell
  active_ = engine_for(*runs);
  for (life::Engine* e : engines_.both()) {
    if (!e) continue;
    e->set_rule(rule_);
    e->set_generations_per_pass(generations_per_pass_);
  }
  // A huge grid's first frame on the CPU (making and filling it, a generation) can take minutes: said
  // before it, from the same work on a fresh 4096x4096 grid (larger than the caches, as the grid is).
  if (active_->backend() == life::Backend::Cpu && double(grid_w_) * grid_h_ > 8192.0 * 8192.0) {
    const double per_sample = sample_seconds([&] {
      auto sample = life::make_cpu_engine();
      sample->set_rule(rule_);
      sample->resize(4096, 4096);
      sample->randomize(density_, seed_);
      sample->step(*runs, runs->default_block, 1);
    });
    say_long_run("the first frame of a " + std::to_string(grid_w_) + "x" + std::to_string(grid_h_) +
                     " grid on the CPU",
                 per_sample * (double(grid_w_) * grid_h_) / (4096.0 * 4096.0), "from a 4096x4096 sample");
  }
  active_->resize(grid_w_, grid_h_);
  reset_contents();
  display_ = std::make_unique<LifeDisplay>(ctx);

  pattern_files_.clear();
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(ctx.assets / "patterns", ec)) {
    const auto ext = entry.path().extension();
    if (ext == ".rle" || ext == ".cells") pattern_files_.push_back(entry.path());
  }
  std::sort(pattern_files_.begin(), pattern_files_.end());
}

void LifeDemo::detach() {
  display_.reset();
  engines_.stop();
  active_ = engines_.cpu();
  ctx_ = nullptr;
}

void LifeDemo::switch_engine(life::Engine* to) {
  // The state moves with the variant: download from one backend, upload to the other.
  life::Grid grid = active_->download();
  if (to->width() != grid.width || to->height() != grid.height) to->resize(grid.width, grid.height);
  to->set_rule(rule_);
  to->set_generations_per_pass(generations_per_pass_);
  to->upload(grid);
  active_ = to;
}

void LifeDemo::reset_contents() {
  generation_ = 0;
  population_age_ = 1 << 30;
  if (pattern_) {
    life::Grid grid(active_->width(), active_->height());
    std::string err;
    if (life::place_centered(grid, *pattern_, &err)) {
      active_->upload(grid);
      return;
    }
    // Only a grid made smaller than the pattern since gets here.
    notify(text::escape(pattern_path_.filename().string()) + ": " + err + "; filled at random instead");
  }
  active_->randomize(density_, seed_);
}

// Takes a pattern just read from `path`: it becomes what reset places, and its rule the rule, unless
// --rule was given for the command line's --pattern. Returns what the user should be told (the
// file's warnings, a rule that was overruled), "" for nothing.
std::string LifeDemo::adopt_pattern(life::PatternResult read, const std::filesystem::path& path,
                                    bool command_line) {
  std::string told;
  auto tell = [&](std::string line) { told += (told.empty() ? "" : "\n") + std::move(line); };
  for (const life::PatternError& w : read.warnings) tell(life::describe(w, path.string()));
  const life::Pattern& p = *read.pattern;
  if (p.rule && !(*p.rule == rule_)) {
    if (command_line && rule_from_command_line_) {
      tell(text::escape(path.string()) + ": the file says rule " + p.rule->to_string() + "; --rule " +
           rule_.to_string() + " wins");
    } else {
      rule_ = *p.rule;
      rule_text_ = rule_.to_string();
      for (life::Engine* e : engines_.both())
        if (e) e->set_rule(rule_);
    }
  }
  if (!command_line) rule_from_command_line_ = false;  // a file opened later brings its own rule
  pattern_ = std::move(*read.pattern);
  pattern_path_ = path;
  return told;
}

void LifeDemo::forget_pattern() {
  pattern_.reset();
  pattern_path_.clear();
}

bool LifeDemo::load_pattern(const std::filesystem::path& path, std::string* error) {
  if (is_lesson_path(path)) {
    *error = lesson_given_as(path, "a pattern");
    return false;
  }
  life::PatternResult r = life::load_pattern_file(path.string());
  if (!r) {
    *error = life::describe(r.error, path.string());
    return false;
  }
  life::Grid grid(active_->width(), active_->height());
  if (!life::place_centered(grid, *r.pattern, error)) {
    *error = text::escape(path.filename().string()) + ": " + *error;
    return false;
  }
  const std::string name = r.pattern->name;
  const std::string told = adopt_pattern(std::move(r), path, false);
  if (!told.empty()) notify(told);
  active_->upload(grid);
  generation_ = 0;
  population_age_ = 1 << 30;
  status_ = "loaded " + text::escape(path.filename().string()) +
            (name.empty() ? "" : " (" + text::escape(name) + ")");
  return true;
}

bool LifeDemo::open_file(const std::filesystem::path& path, std::string* error) {
  return load_pattern(path, error);
}

bool LifeDemo::resize_grid(int w, int h, std::string* error) {
  const std::string bad = life::check_size(w, h);
  if (!bad.empty()) {
    *error = bad;
    return false;
  }
  try {
    active_->resize(w, h);  // keeps the previous grid when it throws
  } catch (const std::exception& e) {
    *error = "cannot make a " + std::to_string(w) + "x" + std::to_string(h) + " grid: " + e.what();
    return false;
  }
  grid_w_ = w;
  grid_h_ = h;
  view_fitted_ = false;
  reset_contents();
  return true;
}

void LifeDemo::set_rule(const life::Rule& r) {
  rule_ = r;
  rule_text_ = r.to_string();
  for (life::Engine* e : engines_.both())
    if (e) e->set_rule(r);
}

namespace {
// Times the ghost copies and the step kernel as sections of their own (the lecture's point: how
// much of a generation the ghost kernels cost), beside the whole "step".
class SectionTimer final : public life::KernelTimer {
 public:
  SectionTimer(Timings& t, Stream s) : t_(t), s_(s) {}
  void begin(std::string_view kernel) override { t_.gpu_begin("step: " + std::string(kernel), s_); }
  void end(std::string_view kernel) override { t_.gpu_end("step: " + std::string(kernel), s_); }

 private:
  Timings& t_;
  Stream s_;
};
}  // namespace

void LifeDemo::advance(int generations) {
  if (generations <= 0) return;
  const life::Variant& v = current();
  Timings* t = ctx_->timings;
  if (v.backend == life::Backend::Cuda) {
    auto* gpu = engines_.gpu_as<life::CudaEngine>();
    // Per-kernel sections cost two events a kernel: only for a modest number of generations a frame.
    std::optional<SectionTimer> kernels;
    if (t && generations <= 64) kernels.emplace(*t, gpu->stream());
    gpu->set_kernel_timer(kernels ? &*kernels : nullptr);
    if (t) t->gpu_begin(TimingKey{pick(0)}, "step", gpu->stream());
    try {
      gpu->step(v, block(), generations, ghost_block());
    } catch (...) {
      gpu->set_kernel_timer(nullptr);
      throw;
    }
    gpu->set_kernel_timer(nullptr);
    if (t) t->gpu_end(TimingKey{pick(0)}, "step", gpu->stream());
  } else {
    KeyedCpuSection s(t, TimingKey{pick(0)}, "step (CPU)");
    active_->step(v, block(), generations);
  }
  generation_ += static_cast<uint64_t>(generations);
  last_steps_ = generations;
}

void LifeDemo::compute(Frame& frame) {
  handle_input(frame);
  last_steps_ = 0;
  if (frame.reset) reset_contents();
  if (!pending_edits_.empty()) {
    active_->set_cells(pending_edits_);
    pending_edits_.clear();
    population_age_ = 1 << 30;
  }
  const int n = frame.playing ? frame.steps_per_frame : (frame.step_once ? 1 : 0);
  advance(n);
  if (fade_) active_->fade_tick();
  // The population is counted on the GPU and read back a frame or more later: the frame never waits.
  if (auto p = active_->poll_population()) population_ = *p;
  if (++population_age_ >= 10 || (n > 0 && !frame.playing)) {
    active_->request_population();
    population_age_ = 0;
  }
  // Keep the grid fitted to the free part of the screen until the user zooms or pans.
  const bool layout_changed =
      frame.width != last_fb_w_ || frame.height != last_fb_h_ || !(frame.view_or_all() == last_area_);
  if (!view_fitted_ || (!view_touched_ && layout_changed)) {
    fit_view(frame.width, frame.height, frame.view_or_all());
    view_touched_ = false;
  }
  last_fb_w_ = frame.width;
  last_fb_h_ = frame.height;
  last_area_ = frame.view_or_all();
  light_ = light_theme();
  display_->update(*active_, make_view(frame.width, frame.height));
}

void LifeDemo::render(Frame& frame) { display_->draw(frame.width, frame.height); }

void LifeDemo::fit_view(int fb_w, int fb_h, const Frame::Rect& area) {
  // Fit the grid into the view region, its centre on the region's centre.
  const double zx = static_cast<double>(std::max(1, area.w)) / grid_w_;
  const double zy = static_cast<double>(std::max(1, area.h)) / grid_h_;
  const double fit = std::min(zx, zy);
  zoom_ = std::clamp(fit * 0.95, kMinZoom, kMaxZoom);
  // Whole pixels a cell (or whole cells a pixel): every cell the same size, crisp on a projector. The
  // margin gives way before a whole step does (a 512 grid in 535 pixels is 1 pixel a cell, not 1/2).
  zoom_ = zoom_ >= 1.0 ? std::floor(zoom_) : fit >= 1.0 ? 1.0 : 1.0 / std::ceil(1.0 / fit - 1e-9);
  const double cells_per_px = 1.0 / zoom_;
  const double dx = area.x + 0.5 * area.w - 0.5 * fb_w, dy = area.y + 0.5 * area.h - 0.5 * fb_h;
  centre_x_ = grid_w_ * 0.5 - dx * cells_per_px;
  centre_y_ = grid_h_ * 0.5 - dy * cells_per_px;
  view_fitted_ = true;
}

life::View LifeDemo::make_view(int fb_w, int fb_h) const {
  life::View v;
  v.tex_width = std::max(fb_w, 1);
  v.tex_height = std::max(fb_h, 1);
  // A whole number of pixels a cell is exact in units of 1/zoom cell (one unit a pixel); any other
  // zoom (the wheel's) in 1/256 cell.
  const double whole = std::round(zoom_);
  v.unit = zoom_ >= 1.0 && std::abs(zoom_ - whole) < 1e-9 ? static_cast<int32_t>(whole) : 256;
  v.step_q8 = v.unit != 256 ? 1 : std::max<int32_t>(1, static_cast<int32_t>(std::lround(256.0 / zoom_)));
  const double cells_per_px = static_cast<double>(v.step_q8) / v.unit;
  v.origin_x_q8 = std::llround((centre_x_ - 0.5 * fb_w * cells_per_px) * v.unit);
  v.origin_y_q8 = std::llround((centre_y_ - 0.5 * fb_h * cells_per_px) * v.unit);
  v.age_fade = fade_;
  v.grid_lines = grid_lines_;
  if (light_) {
    // The light theme's palette: dark cells on paper, a dark-orange trail, the rest light grey
    // (0xAABBGGRR).
    v.alive_rgba = 0xFF5A2A12u;
    v.dead_rgba = 0xFFF2F5F7u;
    v.fade_rgba = 0xFF3C8CE6u;
    v.background_rgba = 0xFFD6D2CEu;
    v.grid_rgba = 0xFFC8C2BCu;
  }
  return v;
}

void LifeDemo::handle_input(const Frame& frame) {
  if (!frame.mouse_free) return;
  const Input& in = frame.input;
  const double px = in.mouse_x, py = in.mouse_y;
  const life::View v = make_view(frame.width, frame.height);
  const double cpp = static_cast<double>(v.step_q8) / v.unit;
  auto cell_at_mouse = [&](double* cx, double* cy) {
    *cx = static_cast<double>(v.origin_x_q8) / v.unit + px * cpp;
    *cy = static_cast<double>(v.origin_y_q8) / v.unit + py * cpp;
  };
  // Zoom around the cursor.
  if (in.wheel != 0.0f) {
    double cx, cy;
    cell_at_mouse(&cx, &cy);
    const double f = std::pow(1.25, in.wheel);
    zoom_ = std::clamp(zoom_ * f, kMinZoom, kMaxZoom);
    view_touched_ = true;
    const double cpp2 = make_view(frame.width, frame.height).step_q8 /
                        static_cast<double>(make_view(frame.width, frame.height).unit);
    centre_x_ = cx - (px - 0.5 * frame.width) * cpp2;
    centre_y_ = cy - (py - 0.5 * frame.height) * cpp2;
  }
  // Pan: right or middle drag, or left drag when not drawing.
  const bool pan = in.dragging[1] || in.dragging[2] || (!draw_mode_ && in.dragging[0]);
  if (pan && (in.delta_x != 0.0f || in.delta_y != 0.0f)) {
    view_touched_ = true;
    centre_x_ -= in.delta_x * cpp;
    centre_y_ -= in.delta_y * cpp;
  }
  // Draw (left) and erase (Shift + left, or right click in draw mode).
  if (draw_mode_ && in.down[0]) {
    double cx, cy;
    cell_at_mouse(&cx, &cy);
    const int x = static_cast<int>(std::floor(cx)), y = static_cast<int>(std::floor(cy));
    if (x >= 0 && y >= 0 && x < grid_w_ && y < grid_h_)
      pending_edits_.push_back({x, y, static_cast<uint8_t>(in.shift ? 0 : 1)});
  }
}

void LifeDemo::verify(int generations) {
  // Runs the current variant and a CPU reference side by side from the same grid.
  const life::Variant& v = current();
  const life::Variant& ref = *life::find_variant(v.id == "cpu-lut" ? "cpu-naive" : "cpu-lut");
  life::Grid start = active_->download();
  auto reference = life::make_cpu_engine();
  reference->resize(start.width, start.height);
  reference->set_rule(rule_);
  reference->upload(start);
  const auto t0 = std::chrono::steady_clock::now();
  // Not through advance(): K generations in one frame would distort the timing window.
  active_->step(v, block(), generations, ghost_block());
  generation_ += static_cast<uint64_t>(generations);
  reference->step(ref, 0, generations);
  life::Grid got = active_->download();
  life::Grid want = reference->download();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  char buf[256];
  if (auto d = life::first_difference(got, want)) {
    std::snprintf(buf, sizeof buf,
                  "MISMATCH after %d generations: first differing cell (%d, %d): %s has %d, %s has %d",
                  generations, d->x, d->y, std::string(v.id).c_str(), got.at(d->x, d->y),
                  std::string(ref.id).c_str(), want.at(d->x, d->y));
  } else {
    std::snprintf(buf, sizeof buf, "match: %s = %s after %d generations on %dx%d (%.2f s)",
                  std::string(v.id).c_str(), std::string(ref.id).c_str(), generations, start.width,
                  start.height, s);
  }
  verify_result_ = buf;
  notify(verify_result_);
  population_age_ = 1 << 30;
}

namespace {
// Puts `in` into `e`: its size and rule, then its cells (or random ones).
void load(life::Engine& e, const LifeInput& in) {
  if (e.width() != in.width || e.height() != in.height) e.resize(in.width, in.height);
  e.set_rule(in.rule);
  e.set_generations_per_pass(in.generations_per_pass);
  if (in.cells)
    e.upload(*in.cells);
  else
    e.randomize(in.density, in.seed);
}
}  // namespace

Probe make_life_probe(std::shared_ptr<life::Engine> engine, Stream stream,
                      std::shared_ptr<const LifeInput> input, const life::Variant& v, int block, int ghost) {
  load(*engine, *input);
  Probe p;
  p.gpu = v.backend == life::Backend::Cuda;
  p.stream = p.gpu ? stream : nullptr;
  p.device = std::string(engine->device_name());
  p.items_per_step = static_cast<double>(input->width) * input->height;
  p.item_unit = "cell updates";
  p.per = kPerStep;
  p.bytes_per_step = life::bytes_per_generation(v, input->width, input->height, input->generations_per_pass);
  p.width = input->width;
  p.height = input->height;
  p.size = std::to_string(p.width) + "x" + std::to_string(p.height);
  if (v.step_kernel() == life::Kernel::BitMultistep) p.steps_per_pass = input->generations_per_pass;
  life::Engine* e = engine.get();
  const life::Variant* pv = &v;
  p.run = [e, pv, block, ghost](int steps) { e->step(*pv, block, steps, ghost); };
  p.verify = [engine, input, pv, block, ghost]() -> std::string {
    life::Engine* e = engine.get();
    constexpr int kGenerations = 8;
    const life::Variant& ref = *life::find_variant(pv->id == "cpu-lut" ? "cpu-naive" : "cpu-lut");
    load(*e, *input);
    life::Grid random;  // random cells as this engine made them
    if (!input->cells) random = e->download();
    const life::Grid& start = input->cells ? *input->cells : random;
    auto reference = life::make_cpu_engine();
    reference->resize(start.width, start.height);
    reference->set_rule(input->rule);
    reference->upload(start);
    reference->step(ref, 0, kGenerations);
    e->step(*pv, block, kGenerations, ghost);
    const life::Grid got = e->download(), want = reference->download();
    load(*e, *input);
    if (auto d = life::first_difference(got, want))
      return "differs from " + std::string(ref.id) + " after " + std::to_string(kGenerations) +
             " generations at cell (" + std::to_string(d->x) + ", " + std::to_string(d->y) + ")";
    return {};
  };
  p.state = engine;
  return p;
}

// The ladder's probe: a fresh engine of the variant's backend holding a copy of the current grid
// and rule, stepped with the ghost stage's block.
Probe LifeDemo::probe(const Picks& picks, size_t stage) {
  if (stage == 1)
    return probe_unavailable(
        "timed inside each generation of the byte-per-cell GPU variants (the step stage)");
  if (stage != 0) return probe_unavailable("Game of Life has no pipeline of stages");
  const life::Variant* v = &life::variants()[picks.at(0).variant];
  int block = picks[0].block;
  std::string why;
  if (!variant_available(*v, &why)) return probe_unavailable(why);
  if (why = check_probe_block(*v, &block); !why.empty()) return probe_unavailable(why);
  auto input = std::make_shared<LifeInput>();
  input->cells = active_->download();
  input->width = input->cells->width;
  input->height = input->cells->height;
  input->rule = rule_;
  input->generations_per_pass = generations_per_pass_;
  std::shared_ptr<life::Engine> engine;
  if (v->backend == life::Backend::Cuda) engine = life::CudaEngine::create(ctx_->stream);
  if (!engine) engine = life::make_cpu_engine();
  return make_life_probe(std::move(engine), ctx_->stream, std::move(input), *v, block, picks.at(1).block);
}

void LifeDemo::save_rle(const std::filesystem::path& path) {
  const life::Grid g = active_->download();
  write_text_file(
      path, life::write_rle(g, rule_, pattern_path_.empty() ? "gpulab grid" : pattern_path_.stem().string()));
}

std::string LifeDemo::run_batch(const Options& o) {
  const std::string& out = params<LifeParams>().save_pattern;
  if (out.empty()) return {};
  try {
    run_batch_steps(
        o.steps < 0 ? 0 : o.steps, [this](int n) { advance(n); }, "generations");
    save_rle(out);
    std::fprintf(stderr, "gpulab: %llu generations of %s with %s, written to %s\n",
                 static_cast<unsigned long long>(generation_), rule_.to_string().c_str(),
                 std::string(current().id).c_str(), text::escape(out, 4096).c_str());
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

std::vector<KernelInfo> LifeDemo::kernels() const {
  if (engines_.gpu() && current().backend == life::Backend::Cuda)
    return engines_.gpu_as<const life::CudaEngine>()->kernels(current(), block(), ghost_block());
  return {};
}

std::vector<Throughput> LifeDemo::throughput() const {
  Throughput t;
  t.label = std::string("step (") + kPerStep + ")";
  t.timed = {pick(0)};
  t.steps = last_steps_;
  t.items_per_step = static_cast<double>(active_->width()) * active_->height();
  t.item_unit = "cell updates";
  // Passes of k generations; a frame of fewer generations makes one shorter pass.
  t.bytes_per_step = life::bytes_per_generation(current(), active_->width(), active_->height(),
                                                std::min(generations_per_pass_, std::max(last_steps_, 1)));
  return {t};
}

std::string LifeDemo::caption() const {
  const life::Variant& v = current();
  std::string s = "Game of Life | " + std::string(v.id) + " | block " +
                  block_label(v.blocks, v.square_blocks, block()) + " | " + std::to_string(active_->width()) +
                  "x" + std::to_string(active_->height());
  if (v.step_kernel() == life::Kernel::BitMultistep)
    s += " | " + std::to_string(generations_per_pass_) + " gen/pass";
  if (const auto ms = ctx_ && ctx_->timings
                          ? ctx_->timings->median_per_step(throughput().front().timed, last_steps_)
                          : std::nullopt) {
    s += " | " + format_time_per(*ms, throughput().front().label);
  }
  s += " | " + std::string(active_->device_name());
  return s;
}

void LifeDemo::ui(Frame& frame) {
  const float w = 220.0f * frame.ui_scale;

  ImGui::Text("Generation %llu   population %s", static_cast<unsigned long long>(generation_),
              format_count(static_cast<double>(population_), "cells").c_str());
  ImGui::TextDisabled("display: %s", display_ ? display_->path_description().c_str() : "-");

  // Rule.
  ImGui::SetNextItemWidth(w);
  if (ImGui::BeginCombo("rule", rule_.to_string().c_str())) {
    for (const auto& nr : life::kNamedRules) {
      const std::string label = std::string(nr.name) + "  " + std::string(nr.text);
      if (ImGui::Selectable(label.c_str(), rule_.to_string() == nr.text))
        set_rule(*life::Rule::parse(nr.text));
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(w * 0.6f);
  if (ImGui::InputTextWithHint("##rule", "B36/S23", rule_input_, sizeof rule_input_,
                               ImGuiInputTextFlags_EnterReturnsTrue)) {
    std::string err;
    if (auto r = life::Rule::parse(rule_input_, &err)) {
      set_rule(*r);
      status_ = "rule " + r->to_string();
    } else {
      status_ = std::string("bad rule: ") + err;
    }
  }
  ImGui::SameLine();
  ImGui::TextDisabled("custom rule (Enter)");

  // Grid size.
  static const int kSizes[] = {64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
  const std::string cur = std::to_string(grid_w_) + " x " + std::to_string(grid_h_);
  ImGui::SetNextItemWidth(w);
  if (ImGui::BeginCombo("grid", cur.c_str())) {
    for (int s : kSizes) {
      const std::string label = std::to_string(s) + " x " + std::to_string(s);
      if (ImGui::Selectable(label.c_str(), s == grid_w_ && s == grid_h_)) {
        std::string err;
        if (!resize_grid(s, s, &err)) notify(err);
      }
    }
    ImGui::EndCombo();
  }
  if (custom_size_of_[0] != grid_w_ || custom_size_of_[1] != grid_h_) {
    // The grid changed (combo, pattern, command line): the fields start from its size.
    custom_size_[0] = custom_size_of_[0] = grid_w_;
    custom_size_[1] = custom_size_of_[1] = grid_h_;
  }
  ImGui::SetNextItemWidth(w);
  ImGui::InputInt2("##custom", custom_size_);
  ImGui::SameLine();
  if (ImGui::Button("resize")) {
    std::string err;
    if (!resize_grid(custom_size_[0], custom_size_[1], &err)) notify(err);
  }

  // gpu-bit-multistep's k: memory-bound at 1, compute-bound as it grows.
  if (current().step_kernel() == life::Kernel::BitMultistep) {
    int k = generations_per_pass_;
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderInt("generations / pass", &k, life::kMinGenerationsPerPass,
                         life::kMaxGenerationsPerPass)) {
      generations_per_pass_ = std::clamp(k, life::kMinGenerationsPerPass, life::kMaxGenerationsPerPass);
      for (life::Engine* e : engines_.both())
        if (e) e->set_generations_per_pass(generations_per_pass_);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("generations advanced on chip between one read and one write of the grid");
  }

  // Contents.
  float d = static_cast<float>(density_);
  ImGui::SetNextItemWidth(w);
  if (ImGui::SliderFloat("density", &d, 0.0f, 1.0f, "%.2f")) density_ = d;
  if (ImGui::Button("random fill")) {
    forget_pattern();
    ++seed_;
    reset_contents();
  }
  ImGui::SameLine();
  if (ImGui::Button("clear")) {
    forget_pattern();
    active_->clear();
    generation_ = 0;
    population_age_ = 1 << 30;
  }
  ImGui::SameLine();
  if (ImGui::Button("save RLE")) {
    try {
      const auto rle = gl::unique_screenshot_path("patterns", "life", ".rle");
      save_rle(rle);
      notify("saved " + text::escape(rle.string(), 4096));
    } catch (const std::exception& e) {
      notify(e.what());
    }
  }
  if (!pattern_files_.empty()) {
    ImGui::SetNextItemWidth(w);
    const std::string label = pattern_path_.empty() ? "(random)" : pattern_path_.filename().string();
    if (ImGui::BeginCombo("pattern", label.c_str())) {
      for (const auto& p : pattern_files_) {
        if (ImGui::Selectable(p.filename().string().c_str(), p == pattern_path_)) {
          std::string err;
          if (!load_pattern(p, &err)) notify(err);
        }
      }
      ImGui::EndCombo();
    }
  }
  ImGui::SetNextItemWidth(w);
  if (ImGui::InputTextWithHint("##path", "path/to/pattern.rle", path_input_, sizeof path_input_,
                               ImGuiInputTextFlags_EnterReturnsTrue)) {
    std::string err;
    if (!load_pattern(path_input_, &err)) notify(err);
  }
  ImGui::SameLine();
  ImGui::TextDisabled("open (Enter), or drop a file");

  // View.
  ImGui::Checkbox("age fade", &fade_);
  ImGui::SameLine();
  ImGui::Checkbox("grid lines", &grid_lines_);
  ImGui::SameLine();
  ImGui::Checkbox("draw", &draw_mode_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("left: draw, Shift+left: erase; right drag pans");
  if (ImGui::Button("fit view")) view_fitted_ = false;
  ImGui::SameLine();
  ImGui::TextDisabled("zoom %.3g px/cell (wheel), drag to pan", zoom_);

  // Verify against the CPU reference.
  ImGui::SetNextItemWidth(w * 0.5f);
  ImGui::InputInt("##verifyk", &verify_generations_);
  verify_generations_ = std::clamp(verify_generations_, 1, 100000);
  ImGui::SameLine();
  if (ImGui::Button("verify")) {
    try {
      verify(verify_generations_);
    } catch (const std::exception& e) {
      verify_result_ = std::string("verify failed: ") + e.what();
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("run this variant and the CPU reference for K generations and compare");
  if (!verify_result_.empty()) {
    const bool ok = verify_result_.rfind("match", 0) == 0;
    ImGui::TextColored(ok ? ImVec4(0.4f, 0.9f, 0.4f, 1) : ImVec4(1, 0.4f, 0.3f, 1), "%s",
                       verify_result_.c_str());
  }
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
}

}  // namespace gpulab

// Texture rotation, host side: the image, the variant (CPU reference or a CUDA kernel), the angle,
// scale and texture options, the output written into the displayed texture (surface or PBO), the
// view with its overlays, the pixel inspector, verify and batch mode.
#include "ui/verify_button.h"
#include "demos/common/cuda_start.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/rotate/rotate_verify.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "common/text.h"
#include "common/error.h"
#include "core/bench.h"
#include "base/stats.h"
#include "core/timings.h"
#include "gl/gl.h"

#if defined(GPULAB_HAVE_CUDA)
#include "rotate/rotate_cuda.h"
#endif

namespace gpulab {
namespace {

using rotate::Address;
using rotate::Backend;
using rotate::Filter;
using rotate::ReadMode;

constexpr std::string_view kGpuDefault = "tex-array";  // the texture unit over a cudaArray
constexpr std::string_view kDefaultImage = "filter-test";

// The generated image to start on: the filter test, else the first there is.
const image::Generated* default_generated() {
  if (const image::Generated* g = image::find_generated(kDefaultImage)) return g;
  return image::generated_images().empty() ? nullptr : &image::generated_images().front();
}
constexpr float kDefaultSpin = 10.0f;    // degrees a second while playing, unless --angle fixes the angle
constexpr int kMagnified = 16;           // output pixels a side in the magnifier
constexpr float kMagnification = 8.0f;   // screen pixels per output pixel there

const ImVec4 kRed(1.0f, 0.4f, 0.3f, 1.0f);
const ImVec4 kGreen(0.4f, 0.9f, 0.4f, 1.0f);
const ImVec4 kYellow(1.0f, 0.85f, 0.2f, 1.0f);

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

// A number as the command line gives it ("30", "-12.5", "1e-1"; "nan" and "inf" parse, and are
// refused by rotate::check_params with the rest of the bad values).
bool parse_number(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  *out = v;
  return true;
}

std::string strip_prefix(std::string s) {
  constexpr std::string_view prefix = "rotate: ";
  if (s.rfind(prefix, 0) == 0) s.erase(0, prefix.size());
  return s;
}

float reduce_degrees(double a) {
  if (!std::isfinite(a)) return 0.0f;
  double r = std::fmod(a, 360.0);
  if (r < 0) r += 360.0;
  float f = static_cast<float>(r);
  return f >= 360.0f ? 0.0f : f;
}

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// A pixel's channels as text: "200", "(200, 10, 30)".
std::string values_text(const float* v, int channels, int digits) {
  if (channels == 1) return fixed(v[0], digits);
  std::string s = "(";
  for (int c = 0; c < channels; ++c) s += (c ? ", " : "") + fixed(v[c], digits);
  return s + ")";
}

const char* channel_name(int channels, int c) {
  static const char* grey_alpha[] = {"grey", "alpha"};
  static const char* rgba[] = {"R", "G", "B", "A"};
  return channels <= 2 ? grey_alpha[c] : rgba[c];
}

}  // namespace

RotateDemo::RotateDemo() {
  spin_ = kDefaultSpin;  // picked with key 4 from another demo, configure() never runs
  cpu_ = rotate::make_cpu_engine();
  active_ = cpu_.get();
  gpu_variant_ = default_gpu_variant();
  if (gpu_variant_) gpu_block_ = gpu_variant_->default_block;
  // Until attach picks the backend (the GPU's when a device exists).
  variant_ = gpu_variant_ ? gpu_variant_ : &cpu_variant();
  block_ = variant_->default_block;
#if !defined(GPULAB_HAVE_CUDA)
  choose(cpu_variant(), 0);  // no GPU variant can run in this build
#endif
}

RotateDemo::~RotateDemo() = default;

void RotateDemo::notify(std::string line) const {
  if (ctx_ && ctx_->notify) ctx_->notify(std::move(line));
}

rotate::Engine* RotateDemo::engine_for(Backend b) const {
  return b == Backend::Cuda ? gpu_.get() : cpu_.get();
}

bool RotateDemo::variant_available(const rotate::Variant& v, std::string* why) const {
  if (v.backend == Backend::Cpu || gpu_) return true;
  if (why) *why = cuda_unavailable_reason(ctx_);
  return false;
}

void RotateDemo::choose(const rotate::Variant& v, int block) {
  variant_ = &v;
  block_ = v.blocks.empty() ? 0 : block;
  if (v.backend == Backend::Cuda) {
    gpu_variant_ = &v;
    gpu_block_ = block_;
  }
}

void RotateDemo::settings_changed() {
  dirty_ = true;
  engine_output_current_ = false;
  ++output_version_;
  verify_result_.clear();
}

// ---------------------------------------------------------------------------------------------
// Stages and variants.

std::vector<Stage> RotateDemo::stages() const {
  Stage st;
  st.id = "rotate";
  st.title = "rotate";
  const auto vs = rotate::variants();
  for (size_t i = 0; i < vs.size(); ++i) {
    const rotate::Variant& v = vs[i];
    VariantChoice c;
    c.id = v.id;
    c.title = v.title;
    c.lesson = v.lesson;
    c.blocks = v.blocks;
    c.square_blocks = true;
    c.default_block = v.default_block;
    c.needs_cuda = v.backend == Backend::Cuda;
#if defined(GPULAB_HAVE_CUDA)
    c.available = !ctx_ || variant_available(v, &c.unavailable_reason);  // known once attached
#else
    c.available = variant_available(v, &c.unavailable_reason);
#endif
    if (&v == variant_) st.variant = static_cast<int>(i);
    st.variants.push_back(std::move(c));
  }
  st.block = block();
  return {std::move(st)};
}

bool RotateDemo::set_variant(size_t stage, std::string_view id, std::string* why) {
  if (stage != 0) {
    if (why) *why = "texture rotation has one stage (rotate)";
    return false;
  }
  const rotate::Variant* v = rotate::find_variant(id);
  if (!v) {
    if (why) *why = "no variant " + text::quote(id) + " in the rotate stage (see gpulab --list)";
    return false;
  }
  if (ctx_ && !variant_available(*v, why)) return false;
  const rotate::Variant* keep_variant = variant_;
  const rotate::Variant* keep_gpu = gpu_variant_;
  const int keep_block = block_, keep_gpu_block = gpu_block_;
  const bool keep_chosen = backend_chosen_;
  choose(*v, v->default_block);
  backend_chosen_ = true;
  if (ctx_) {
    try {
      sync_engine();
    } catch (const std::exception& e) {
      variant_ = keep_variant;
      gpu_variant_ = keep_gpu;
      block_ = keep_block;
      gpu_block_ = keep_gpu_block;
      backend_chosen_ = keep_chosen;
      if (why)
        *why = "cannot move the image to the " + std::string(v->backend == Backend::Cuda ? "GPU" : "CPU") +
               ": " + e.what();
      return false;
    }
  }
  settings_changed();
  return true;
}

bool RotateDemo::set_block(size_t stage, int b, std::string* why) {
  if (stage != 0) {
    if (why) *why = "texture rotation has one stage (rotate)";
    return false;
  }
  const rotate::Variant& v = *variant_;
  if (v.blocks.empty() || std::find(v.blocks.begin(), v.blocks.end(), b) == v.blocks.end()) {
    if (why) {
      std::string list;
      for (int e : v.blocks) list += (list.empty() ? "" : ", ") + block_label(v.blocks, true, e);
      *why = v.blocks.empty() ? std::string(v.id) + " has no block size (it runs on the CPU)"
                              : std::string(v.id) + " takes blocks of " + list + " threads";
    }
    return false;
  }
  choose(v, b);
  settings_changed();
  return true;
}

// ---------------------------------------------------------------------------------------------
// Options.

void RotateDemo::add_options(CLI::App& cli) {
  CLI::Option_group* g = cli.add_option_group("Texture rotation (--demo rotate)");
  g->add_option("--angle", cli_.angle, "rotation in degrees, counter-clockwise as displayed (default 0)")
      ->type_name("DEG");
  g->add_option("--scale", cli_.scale, "scale about the centre, > 1 enlarges (1/64 to 64, default 1)")
      ->type_name("S");
  g->add_option("--spin", cli_.spin,
                "degrees a second while playing (default 10, or 0 when --angle is given)")
      ->type_name("DEG/S");
  g->add_option("--filter", cli_.filter, "point or linear (default)")->type_name("point|linear");
  g->add_option("--address", cli_.address, "wrap, clamp, mirror or border (default)")
      ->type_name("wrap|clamp|mirror|border");
  g->add_option("--normalized", cli_.normalized, "normalized texture coordinates: on (default) or off")
      ->type_name("on|off");
  g->add_option("--read-mode", cli_.read_mode,
                "texture read mode: element (element type) or normalized (normalized float, default)")
      ->type_name("element|normalized");
  g->add_option("--output", cli_.output,
                "how the output reaches the displayed texture: surface (default) or pbo (a pixel buffer)")
      ->type_name("surface|pbo");
}

std::string RotateDemo::configure(const Options& o) {
  if (std::string bad = reject_seed(o, "the rotate demo (its images are files or fixed generated pictures)");
      !bad.empty())
    return bad;
  rotate::Settings s;
  const bool angle_given = !cli_.angle.empty();
  double v = 0;
  if (angle_given) {
    if (!parse_number(cli_.angle, &v)) return "--angle must be a number of degrees, got " + text::quote(cli_.angle);
    s.params.angle_deg = static_cast<float>(v);
    if (!std::isfinite(s.params.angle_deg))
      return "--angle " + cli_.angle + ": " + strip_prefix(rotate::check_params(s.params));
  }
  if (!cli_.scale.empty()) {
    if (!parse_number(cli_.scale, &v)) return "--scale must be a number, got " + text::quote(cli_.scale);
    s.params.scale = static_cast<float>(v);
  }
  if (std::string why = rotate::check_params(s.params); !why.empty())
    return "--scale " + cli_.scale + ": " + strip_prefix(why);
  float spin = angle_given ? 0.0f : kDefaultSpin;
  if (!cli_.spin.empty()) {
    if (!parse_number(cli_.spin, &v) || !std::isfinite(static_cast<float>(v)))
      return "--spin must be a finite number of degrees a second, got " + text::quote(cli_.spin);
    spin = static_cast<float>(v);
  }
  if (const auto f = rotate::parse_filter(cli_.filter))
    s.params.filter = *f;
  else
    return "--filter must be point or linear, got " + text::quote(cli_.filter);
  if (const auto a = rotate::parse_address(cli_.address))
    s.params.address = *a;
  else
    return "--address must be wrap, clamp, mirror or border, got " + text::quote(cli_.address);
  if (cli_.normalized == "on")
    s.normalized = true;
  else if (cli_.normalized == "off")
    s.normalized = false;
  else
    return "--normalized must be on or off, got " + text::quote(cli_.normalized);
  if (cli_.read_mode == "element")
    s.read_mode = ReadMode::ElementType;
  else if (cli_.read_mode == "normalized")
    s.read_mode = ReadMode::NormalizedFloat;
  else
    return "--read-mode must be element or normalized, got " + text::quote(cli_.read_mode);
  RotateOutput out;
  if (cli_.output == "surface")
    out = RotateOutput::Surface;
  else if (cli_.output == "pbo")
    out = RotateOutput::Pbo;
  else
    return "--output must be surface or pbo, got " + text::quote(cli_.output);
  if (o.steps >= 0)
    return "--steps: texture rotation has no steps to count (each frame rotates the source afresh); "
           "--save-image writes the rotated image";
  settings_ = s;
  start_angle_ = s.params.angle_deg;
  start_scale_ = s.params.scale;
  spin_ = spin;
  output_ = out;
  save_image_ = o.save_image;
  settings_changed();
  if (!o.image.empty()) {
    std::string err;
    if (!load_path(o.image, &err)) return err;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Attach and detach.

void RotateDemo::attach(Context& ctx) {
  ctx_ = &ctx;
  std::string gpu_failure;
#if defined(GPULAB_HAVE_CUDA)
  gpu_ = start_cuda_engine(ctx, [](Stream s) { return rotate::CudaEngine::create(s); }, &gpu_failure);
#endif
  if (!backend_chosen_) {
    if (gpu_ && gpu_variant_)
      choose(*gpu_variant_, gpu_block_);
    else
      choose(cpu_variant(), 0);
  } else if (on_gpu() && !gpu_) {
    std::string why;
    variant_available(*variant_, &why);
    if (gpu_failure.empty())  // else start_cuda_engine has said why
      notify("the GPU variants are not available (" + why + "): using the CPU reference");
    choose(cpu_variant(), 0);
  }
  engine_serial_[1] = 0;  // a new CUDA engine holds nothing yet
  active_ = engine_for(variant_->backend);

  max_texture_ = gl_max_texture_size();
  display_ = std::make_unique<RotateDisplay>(ctx);
  picker_.set_files(list_image_files(ctx.assets / "images"));
  // The image from --image (read by configure), else the generated filter test.
  start_with_image(
      image_, origin_.name, max_texture_, batch_requested(), "rotated", [&] { sync_engine(); },
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
  gpu_.reset();
  engine_serial_[1] = 0;
  active_ = cpu_.get();
  ctx_ = nullptr;
  engine_output_current_ = false;
  dragging_angle_ = dragging_split_ = false;
  hovering_ = false;
  shown_ = Shown{};
}

void RotateDemo::sync_engine() {
  const Backend b = variant_->backend;
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
  if (!open_image_file(path, set_image_fn(), &origin_, error)) return false;
  status_ = "loaded " + origin_.name + ": " + image_label(image_);
  return true;
}

bool RotateDemo::load_generated(const image::Generated& g, std::string* error) {
  // The PNG tools/make_images wrote, when it is there; else the same image made in memory.
  if (!open_generated_image(g, ctx_ ? ctx_->assets : std::filesystem::path(), set_image_fn(), &origin_, error))
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
// Settings.

void RotateDemo::set_angle(float degrees) {
  const float a = reduce_degrees(degrees);
  if (a == settings_.params.angle_deg) return;
  settings_.params.angle_deg = a;
  settings_changed();
}

void RotateDemo::set_settings(const rotate::Settings& s) {
  rotate::Settings n = s;
  if (!std::isfinite(n.params.angle_deg)) n.params.angle_deg = settings_.params.angle_deg;
  if (!std::isfinite(n.params.scale)) n.params.scale = settings_.params.scale;
  n.params.scale = std::clamp(n.params.scale, rotate::kMinScale, rotate::kMaxScale);
  const auto& a = settings_;
  if (n.params.angle_deg == a.params.angle_deg && n.params.scale == a.params.scale &&
      n.params.filter == a.params.filter && n.params.address == a.params.address &&
      n.normalized == a.normalized && n.read_mode == a.read_mode)
    return;
  settings_ = n;
  settings_changed();
}

void RotateDemo::set_output_path(RotateOutput o) {
  if (o == output_) return;
  output_ = o;
  dirty_ = true;
  ++output_version_;
}

std::string RotateDemo::settings_label() const {
  const rotate::Settings e = rotate::effective(*variant_, settings_);
  return std::string(rotate::name(e.params.filter)) + ", " + std::string(rotate::name(e.params.address)) +
         ", " + (e.normalized ? "normalized" : "unnormalized");
}

// ---------------------------------------------------------------------------------------------
// The rotation.

std::string RotateDemo::section() const {
  if (!on_gpu()) return "rotate (CPU)";
  return output_ == RotateOutput::Surface ? "rotate (surface)" : "rotate (PBO)";
}

void RotateDemo::run_output(int runs) {
  if (runs <= 0 || image_.empty()) return;
  if (!ctx_) throw std::logic_error("rotate: the rotation runs once the demo is attached");
  sync_engine();
  RotateRun run;
  run.variant = variant_;
  run.block = block();
  run.settings = settings_;
  run.runs = runs;
  if (!on_gpu()) {
    CpuSection cpu(ctx_->timings, "rotate (CPU)");
    for (int i = 0; i < runs; ++i) active_->run(*variant_, block(), settings_);
    engine_output_current_ = true;
  }
  if (display_ && display_->has_image()) {
    display_->update(*active_, run, output_, force_host_copy_);  // timed by the display's own sections
    // The CUDA display paths write the texture, not the engine's output().
    if (on_gpu()) engine_output_current_ = false;
  }
  last_section_ = section();
  dirty_ = false;
}

image::Image RotateDemo::output_image() {
  if (!ctx_) throw std::logic_error("rotate: the output needs the demo attached");
  sync_engine();
  if (!engine_output_current_) {
    active_->run(*variant_, block(), settings_);
    engine_output_current_ = true;
  }
  return active_->output();
}

std::string RotateDemo::verify() {
  const RotateVerdict v = verify_rotation(output_image(), image_, *variant_, settings_, settings_label());
  verify_ok_ = v.ok;
  return v.text;
}

std::optional<RotateInspection> RotateDemo::inspect(int x, int y) const {
  if (image_.empty() || x < 0 || y < 0 || x >= image_.width || y >= image_.height) return std::nullopt;
  RotateInspection r;
  const int w = image_.width, h = image_.height, c = image_.channels;
  r.x = x;
  r.y = y;
  r.width = w;
  r.height = h;
  r.channels = c;
  r.lecture = variant_->kind == rotate::Kind::Lecture;
  r.params = rotate::effective(*variant_, settings_).params;
  const rotate::Coefficients k = rotate::coefficients(r.params);
  r.source = r.lecture ? rotate::lecture_source_coord(x, y, w, h, k) : rotate::source_coord(x, y, w, h, k);
  auto texel = [&](int i, int j, int ch) -> float {  // 0 for a border texel
    return i < 0 || j < 0
               ? 0.0f
               : float(image_.pixels[(size_t(j) * size_t(w) + size_t(i)) * size_t(c) + size_t(ch)]);
  };
  if (r.params.filter == Filter::Point) {
    const rotate::PointTap t = rotate::point_tap(r.source, w, h, r.params.address);
    r.taps = 1;
    r.raw_i[0] = int(std::floor(r.source.x));
    r.raw_j[0] = int(std::floor(r.source.y));
    r.i[0] = t.i;
    r.j[0] = t.j;
    r.weight[0] = 1.0f;
    for (int ch = 0; ch < c; ++ch) {
      r.texel[0][ch] = texel(t.i, t.j, ch);
      r.filtered[ch] = r.texel[0][ch];
      r.value[ch] = rotate::to_byte(r.filtered[ch]);
    }
    inspect_unit(r);
    return r;
  }
  const rotate::LinearTaps t = rotate::linear_taps(r.source, w, h, r.params.address);
  const float px = r.source.x - 0.5f, py = r.source.y - 0.5f;
  const float x0 = std::floor(px), y0 = std::floor(py);
  r.fx = px - x0;
  r.fy = py - y0;
  r.taps = 4;
  const int i0 = int(x0), j0 = int(y0);
  const int raw_i[4] = {i0, i0 + 1, i0, i0 + 1}, raw_j[4] = {j0, j0, j0 + 1, j0 + 1};
  const int ii[4] = {t.i0, t.i1, t.i0, t.i1}, jj[4] = {t.j0, t.j0, t.j1, t.j1};
  const float wt[4] = {t.w00, t.w10, t.w01, t.w11};
  for (int q = 0; q < 4; ++q) {
    r.raw_i[q] = raw_i[q];
    r.raw_j[q] = raw_j[q];
    r.i[q] = ii[q];
    r.j[q] = jj[q];
    r.weight[q] = wt[q];
    for (int ch = 0; ch < c; ++ch) r.texel[q][ch] = texel(ii[q], jj[q], ch);
  }
  for (int ch = 0; ch < c; ++ch) {
    r.filtered[ch] = rotate::blend(t, r.texel[0][ch], r.texel[1][ch], r.texel[2][ch], r.texel[3][ch]);
    r.value[ch] = rotate::to_byte(r.filtered[ch]);
  }
  inspect_unit(r);
  return r;
}

void RotateDemo::inspect_unit(RotateInspection& r) const {
  r.unit = variant_->backend == Backend::Cuda;
  if (!r.unit) return;
  const rotate::Settings e = rotate::effective(*variant_, settings_);
  const int w = r.width, h = r.height, c = std::clamp(r.channels, 1, 4);
  auto texel = [&](int i, int j, int ch) {  // 0 for a border texel
    return i < 0 || j < 0 ? 0 : int(image_.pixels[(size_t(j) * size_t(w) + size_t(i)) * size_t(c) + size_t(ch)]);
  };
  const rotate::Coord tc = rotate::texture_coord(r.source, w, h, e.normalized);
  if (e.params.filter == Filter::Point) {
    const rotate::PointTap t = rotate::unit_point_tap(tc, w, h, e.normalized, e.params.address);
    r.unit_i[0] = t.i;
    r.unit_j[0] = t.j;
    for (int ch = 0; ch < c; ++ch) r.unit_value[ch] = uint8_t(texel(t.i, t.j, ch));
    return;
  }
  const rotate::UnitTaps t = rotate::unit_linear_taps(tc, w, h, e.normalized, e.params.address);
  const int ii[4] = {t.i0, t.i1, t.i0, t.i1}, jj[4] = {t.j0, t.j0, t.j1, t.j1};
  const int wt[4] = {t.w00, t.w10, t.w01, t.w11};
  r.unit_a = t.a;
  r.unit_b = t.b;
  for (int q = 0; q < 4; ++q) {
    r.unit_i[q] = ii[q];
    r.unit_j[q] = jj[q];
    r.unit_weight[q] = wt[q];
  }
  for (int ch = 0; ch < c; ++ch)
    r.unit_value[ch] = rotate::unit_blend(t, texel(t.i0, t.j0, ch), texel(t.i1, t.j0, ch), texel(t.i0, t.j1, ch),
                                          texel(t.i1, t.j1, ch));
}

std::optional<std::pair<int, int>> RotateDemo::hovered_pixel() const {
  if (!hovering_) return std::nullopt;
  return std::make_pair(hover_x_, hover_y_);
}

// ---------------------------------------------------------------------------------------------
// View and input.

void RotateDemo::layout(const Frame& frame) { view_.layout(frame, image_.width, image_.height); }

double RotateDemo::screen_angle(double mx, double my) const {
  const double cx = view_.left + image_.width * view_.scale * 0.5,
               cy = view_.top + image_.height * view_.scale * 0.5;
  // Screen y grows downwards: counter-clockwise as displayed is a growing atan2(−dy, dx).
  return std::atan2(-(my - cy), mx - cx) * (180.0 / 3.14159265358979323846);
}

void RotateDemo::handle_input(const Frame& frame) {
  const Input& in = frame.input;
  for (int key : in.keys) {
    switch (key) {
      case GLFW_KEY_Q:  // a quarter turn: counter-clockwise, Shift: clockwise
        set_angle(angle() + (in.shift ? -90.0f : 90.0f));
        break;
      case GLFW_KEY_LEFT_BRACKET:
        set_angle(angle() + 90.0f);
        break;
      case GLFW_KEY_RIGHT_BRACKET:
        set_angle(angle() - 90.0f);
        break;
      case GLFW_KEY_LEFT:
        set_angle(angle() + (in.shift ? 15.0f : 1.0f));
        break;
      case GLFW_KEY_RIGHT:
        set_angle(angle() - (in.shift ? 15.0f : 1.0f));
        break;
      case GLFW_KEY_L: {
        rotate::Settings s = settings_;
        s.params.filter = s.params.filter == Filter::Point ? Filter::Linear : Filter::Point;
        set_settings(s);
        break;
      }
      case GLFW_KEY_A: {
        const auto& all = rotate::kAddresses;
        const int n = static_cast<int>(std::size(all));
        int i = 0;
        while (i < n && all[i] != settings_.params.address) ++i;
        rotate::Settings s = settings_;
        s.params.address = all[(i + (in.shift ? n - 1 : 1)) % n];
        set_settings(s);
        break;
      }
      case GLFW_KEY_P:
        set_output_path(output_ == RotateOutput::Surface ? RotateOutput::Pbo : RotateOutput::Surface);
        break;
      case GLFW_KEY_S:
        compare_ = !compare_;
        break;
      case GLFW_KEY_M:
        magnifier_ = !magnifier_;
        break;
      case GLFW_KEY_F:
        view_.fitted = false;
        break;
      default:
        break;
    }
  }
  if (!in.down[0]) dragging_angle_ = dragging_split_ = false;
  mouse_x_ = in.mouse_x;
  mouse_y_ = in.mouse_y;
  if (!frame.mouse_free) {
    hovering_ = false;
    return;
  }
  const double w = image_.width * view_.scale;
  const bool over_image = view_.over(in.mouse_x, in.mouse_y, image_.width, image_.height);
  hovering_ = over_image && view_.scale > 0;
  if (hovering_) {
    hover_x_ =
        std::clamp(static_cast<int>(std::floor((in.mouse_x - view_.left) / view_.scale)), 0, image_.width - 1);
    hover_y_ =
        std::clamp(static_cast<int>(std::floor((in.mouse_y - view_.top) / view_.scale)), 0, image_.height - 1);
    inspect_x_ = hover_x_;
    inspect_y_ = hover_y_;
  }
  // Left button: on the comparison's split line it moves the split, elsewhere on the image it turns
  // the picture about its centre, following the cursor.
  if (in.pressed[0] && over_image) {
    const double split_x = view_.left + split_ * w;
    if (compare_ && std::abs(in.mouse_x - split_x) <= 6.0 * std::max(1.0f, frame.ui_scale)) {
      dragging_split_ = true;
    } else {
      dragging_angle_ = true;
      drag_angle_ = screen_angle(in.mouse_x, in.mouse_y);
    }
  }
  if (dragging_split_ && in.down[0] && w > 0)
    split_ = static_cast<float>(std::clamp((in.mouse_x - view_.left) / w, 0.0, 1.0));
  if (dragging_angle_ && in.down[0]) {
    const double a = screen_angle(in.mouse_x, in.mouse_y);
    double d = a - drag_angle_;
    if (d > 180.0) d -= 360.0;
    if (d < -180.0) d += 360.0;
    if (d != 0.0) set_angle(static_cast<float>(angle() + d));
    drag_angle_ = a;
  }
  if (in.wheel != 0.0f && view_.scale > 0) {
    if (in.ctrl) {
      view_.zoom_at(in.mouse_x, in.mouse_y, in.wheel);  // Ctrl+wheel: zoom the view around the cursor
    } else {
      // Wheel: the rotation's scale, four clicks a doubling.
      rotate::Settings s = settings_;
      s.params.scale = static_cast<float>(std::clamp(double(s.params.scale) * std::pow(2.0, in.wheel / 4.0),
                                                     double(rotate::kMinScale), double(rotate::kMaxScale)));
      set_settings(s);
    }
  }
  if (in.dragging[1] || in.dragging[2]) view_.pan(in.delta_x, in.delta_y);  // right or middle drag
}

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
}

// ---------------------------------------------------------------------------------------------
// Batch, bench, read-outs.

std::string RotateDemo::run_batch(const Options&) {
  return save_batch_image(
      save_image_, [&] { return output_image(); },
      [&] {
        char line[512];
        std::snprintf(line, sizeof line, "%s (%s) rotated by %g° at x%g with %s (%s)", origin_.name.c_str(),
                      image_label(image_).c_str(), double(settings_.params.angle_deg), double(settings_.params.scale),
                      std::string(variant_->id).c_str(), settings_label().c_str());
        return std::string(line);
      });
}

std::vector<KernelInfo> RotateDemo::kernels() const {
#if defined(GPULAB_HAVE_CUDA)
  if (gpu_ && on_gpu())
    return static_cast<const rotate::CudaEngine*>(gpu_.get())->kernels(*variant_, block());
#endif
  return {};
}

std::vector<Throughput> RotateDemo::throughput() const {
  Throughput t;
  t.label = "rotate (per frame)";
  t.section = last_section_.empty() ? section() : last_section_;
  t.steps = last_runs_;
  const double n = static_cast<double>(image_.pixel_count());
  t.items_per_step = n;
  t.item_unit = "pixels";
  // The output written and the source read once each: a lower bound (filtering reads up to four
  // texels a pixel, most of them from the cache).
  t.bytes_per_step = n * image_.channels * 2.0;
  return {t};
}

std::string RotateDemo::caption() const {
  char view[64];
  std::snprintf(view, sizeof view, "%.1f° x%.2f", double(settings_.params.angle_deg),
                double(settings_.params.scale));
  std::string s = "Texture rotation | " + std::string(variant_->id) + " | " + settings_label() + " | " +
                  view + " | " + image_label(image_);
  if (const auto ms = ctx_ && ctx_->timings
                          ? ctx_->timings->median_per_step(last_section_.empty() ? section() : last_section_, last_runs_)
                          : std::nullopt) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " | %.3f ms", *ms);
    s += buf;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// UI.

void RotateDemo::ui_angle(float w) {
  float a = angle();
  ImGui::SetNextItemWidth(w);
  if (ImGui::SliderFloat("angle", &a, 0.0f, 360.0f, "%.1f°")) set_angle(a);
  ImGui::SameLine();
  if (ImGui::SmallButton("+90")) set_angle(angle() + 90.0f);
  ImGui::SameLine();
  if (ImGui::SmallButton("-90")) set_angle(angle() - 90.0f);
  ImGui::SameLine();
  if (ImGui::SmallButton("0")) set_angle(0.0f);
  ImGui::SetNextItemWidth(w);
  ImGui::SliderFloat("spin", &spin_, -90.0f, 90.0f, "%.0f°/s");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("degrees a second while playing (Space plays and pauses); 0 holds the angle");
  ImGui::SameLine();
  if (ImGui::SmallButton("stop")) spin_ = 0.0f;
  float scale = settings_.params.scale;
  ImGui::SetNextItemWidth(w);
  if (ImGui::SliderFloat("scale", &scale, rotate::kMinScale, rotate::kMaxScale, "x%.3f",
                         ImGuiSliderFlags_Logarithmic)) {
    rotate::Settings s = settings_;
    s.params.scale = scale;
    set_settings(s);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("x1")) {
    rotate::Settings s = settings_;
    s.params.scale = 1.0f;
    set_settings(s);
  }
}

void RotateDemo::ui_texture_options() {
  rotate::Settings s = settings_;
  int filter = s.params.filter == Filter::Point ? 0 : 1;
  ImGui::TextUnformatted("filter ");
  ImGui::SameLine();
  bool changed = ImGui::RadioButton("point", &filter, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("linear", &filter, 1);
  ImGui::SameLine();
  ImGui::TextDisabled("(L)");
  if (changed) s.params.filter = filter == 0 ? Filter::Point : Filter::Linear;

  ImGui::TextUnformatted("address");
  int address = 0;
  for (int i = 0; i < static_cast<int>(std::size(rotate::kAddresses)); ++i)
    if (rotate::kAddresses[i] == s.params.address) address = i;
  for (int i = 0; i < static_cast<int>(std::size(rotate::kAddresses)); ++i) {
    ImGui::SameLine();
    if (ImGui::RadioButton(std::string(rotate::name(rotate::kAddresses[i])).c_str(), &address, i))
      s.params.address = rotate::kAddresses[i];
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(A)");

  ImGui::Checkbox("normalized coordinates", &s.normalized);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("on: the kernel samples at (sx / W, sy / H) in [0, 1); off: at (sx, sy) in texels");
  int read = s.read_mode == ReadMode::ElementType ? 0 : 1;
  ImGui::TextUnformatted("read mode");
  ImGui::SameLine();
  changed = ImGui::RadioButton("element type", &read, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("normalized float", &read, 1);
  if (changed) s.read_mode = read == 0 ? ReadMode::ElementType : ReadMode::NormalizedFloat;
  set_settings(s);

  // What CUDA does not allow for this variant, and what runs instead.
  const std::string why = rotate::cuda_restriction(*variant_, settings_);
  if (!why.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kYellow);
    ImGui::TextWrapped("%s: %s. Runs as: %s", std::string(variant_->id).c_str(), why.c_str(),
                       settings_label().c_str());
    ImGui::PopStyleColor();
  }
}

void RotateDemo::ui_output(float w) {
  int out = output_ == RotateOutput::Surface ? 0 : 1;
  ImGui::TextUnformatted("output ");
  ImGui::SameLine();
  bool changed = ImGui::RadioButton("surface", &out, 0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the kernel writes the displayed GL texture through a surface object (surf2Dwrite)");
  ImGui::SameLine();
  changed |= ImGui::RadioButton("PBO", &out, 1);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the kernel writes RGBA8 rows into a mapped GL pixel buffer; GL then copies it into the texture "
        "(glTextureSubImage2D from the bound PBO)");
  ImGui::SameLine();
  ImGui::TextDisabled("(P)");
  if (changed) set_output_path(out == 0 ? RotateOutput::Surface : RotateOutput::Pbo);
  const std::string path = display_ ? display_->path_description() : std::string();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w * 1.8f);
  ImGui::TextWrapped("display: %s", path.empty() ? "-" : path.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

void RotateDemo::ui_inspector(bool turning) {
  // The pixel under the cursor, else the last one there, else the centre.
  const int x = inspect_x_ >= 0 && inspect_x_ < image_.width ? inspect_x_ : image_.width / 2;
  const int y = inspect_y_ >= 0 && inspect_y_ < image_.height ? inspect_y_ : image_.height / 2;
  const auto r = inspect(x, y);
  if (!r) {
    ImGui::TextDisabled("pixel inspector: no image");
    return;
  }
  const int c = r->channels;
  ImGui::Text("pixel (%d, %d)%s", r->x, r->y, hovering_ ? "" : "  (hover over the image to inspect)");
  const rotate::Coefficients k = rotate::coefficients(r->params);
  const double cx = r->width * 0.5, cy = r->height * 0.5;
  if (r->lecture) {
    // The lecture's kernel: x where x + 0.5 belongs, and the aspect ratio inside the rotation.
    ImGui::Text("x - W/2 = %.1f, y - H/2 = %.1f  (the pixel's corner: no +0.5)", r->x - cx, r->y - cy);
    ImGui::Text("sx = W/2 + (x - W/2)*%.4f - (y - H/2)*(W/H)*%.4f = %.3f", double(k.cos_s), double(k.sin_s),
                double(r->source.x));
    ImGui::Text("sy = H/2 + (y - H/2)*%.4f + (x - W/2)*(H/W)*%.4f = %.3f", double(k.cos_s), double(k.sin_s),
                double(r->source.y));
  } else {
    ImGui::Text("dx = x + 0.5 - W/2 = %.1f, dy = y + 0.5 - H/2 = %.1f", r->x + 0.5 - cx, r->y + 0.5 - cy);
    ImGui::Text("sx = W/2 + (dx*cos t - dy*sin t) / s = %.3f", double(r->source.x));
    ImGui::Text("sy = H/2 + (dy*cos t + dx*sin t) / s = %.3f", double(r->source.y));
    ImGui::TextDisabled("(t = %g°, s = %g: cos t / s = %.4f, sin t / s = %.4f)", double(r->params.angle_deg),
                        double(r->params.scale), double(k.cos_s), double(k.sin_s));
  }
  auto index_text = [](int raw, int mapped) {
    if (mapped < 0) return std::to_string(raw) + "->border";
    return raw == mapped ? std::to_string(raw) : std::to_string(raw) + "->" + std::to_string(mapped);
  };
  if (r->taps == 1) {
    ImGui::Text("point: T[floor sx, floor sy] = T[%s, %s] = %s", index_text(r->raw_i[0], r->i[0]).c_str(),
                index_text(r->raw_j[0], r->j[0]).c_str(), values_text(r->texel[0], c, 0).c_str());
  } else {
    ImGui::Text("linear: i0 = floor(sx - 0.5) = %d, fx = %.4f", r->raw_i[0], double(r->fx));
    ImGui::Text("        j0 = floor(sy - 0.5) = %d, fy = %.4f", r->raw_j[0], double(r->fy));
    static const char* wname[4] = {"(1-fx)(1-fy)", "fx(1-fy)    ", "(1-fx)fy    ", "fx*fy       "};
    for (int q = 0; q < 4; ++q)
      ImGui::Text("  T[%s, %s] = %-16s w = %s = %.4f", index_text(r->raw_i[q], r->i[q]).c_str(),
                  index_text(r->raw_j[q], r->j[q]).c_str(), values_text(r->texel[q], c, 0).c_str(), wname[q],
                  double(r->weight[q]));
    for (int ch = 0; ch < c; ++ch) {
      std::string sum;
      for (int q = 0; q < 4; ++q)
        sum += (q ? " + " : "") + fixed(r->weight[q], 4) + "*" + fixed(r->texel[q][ch], 0);
      // Two lines, not wrapped: ImGui would break a wrapped line inside a number, at its '.'.
      ImGui::Text("%s = %s", c > 1 ? channel_name(c, ch) : "v", sum.c_str());
      ImGui::Text("%*s= %.3f", c > 1 ? int(std::strlen(channel_name(c, ch))) + 1 : 2, "",
                  double(r->filtered[ch]));
    }
  }
  float value[4];
  for (int ch = 0; ch < c; ++ch) value[ch] = r->value[ch];
  ImGui::Text("output = floor(v + 0.5) = %s  (%s, %s)", values_text(value, c, 0).c_str(),
              std::string(rotate::name(r->params.filter)).c_str(),
              std::string(rotate::name(r->params.address)).c_str());
  if (r->unit) {
    // The texture unit's own arithmetic (rotate.h's unit model): 8-bit fractions and weights.
    float unit_value[4];
    for (int ch = 0; ch < c; ++ch) unit_value[ch] = r->unit_value[ch];
    if (r->taps == 1) {
      const bool same = r->unit_i[0] == r->i[0] && r->unit_j[0] == r->j[0];
      ImGui::Text("texture unit: %s = %s", same ? "the same texel" : "the next texel (a tie: 21-bit coordinates)",
                  values_text(unit_value, c, 0).c_str());
    } else {
      ImGui::Text("texture unit: fx = %d/256, fy = %d/256 (8 bits)", r->unit_a, r->unit_b);
      ImGui::Text("  w = %d, %d, %d, %d /256 -> %s", r->unit_weight[0], r->unit_weight[1], r->unit_weight[2],
                  r->unit_weight[3], values_text(unit_value, c, 0).c_str());
      ImGui::TextDisabled("  (w11 = round(fx*fy), the others sum to 256 with it)");
    }
  }

  // What the displayed texture holds there, read back once per change: a read waits for GL, so not
  // while the picture turns (it would change every frame anyway).
  if (turning) {
    ImGui::TextDisabled("displayed: read back when the picture holds still (pause, or spin 0)");
  } else if (display_ && display_->has_image() && !dirty_) {
    if (shown_.x != x || shown_.y != y || shown_.version != output_version_) {
      const auto px = display_->read_pixel(x, y);
      std::copy(px.begin(), px.end(), shown_.rgba);
      shown_.x = x;
      shown_.y = y;
      shown_.version = output_version_;
    }
    uint8_t want[4];
    want[0] = r->value[0];
    want[1] = c >= 3 ? r->value[1] : r->value[0];
    want[2] = c >= 3 ? r->value[2] : r->value[0];
    want[3] = c == 2 ? r->value[1] : c == 4 ? r->value[3] : 255;
    int diff = 0;
    for (int q = 0; q < 4; ++q) diff = std::max(diff, std::abs(int(want[q]) - int(shown_.rgba[q])));
    ImGui::PushStyleColor(ImGuiCol_Text, diff == 0 ? kGreen : diff <= 1 ? kYellow : kRed);
    ImGui::Text("displayed: RGBA (%d, %d, %d, %d)%s", shown_.rgba[0], shown_.rgba[1], shown_.rgba[2],
                shown_.rgba[3],
                diff == 0   ? ""
                : diff <= 1 ? "  (1 level off: 8-bit filter weights)"
                            : "  (differs)");
    ImGui::PopStyleColor();
  }

  // The lecture's figure with these numbers: the texels around the sample point, their values as
  // colours, and where the sample falls between their centres.
  const float cell = 40.0f * ImGui::GetIO().FontGlobalScale;
  const int cells = r->taps == 1 ? 1 : 2;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int q = 0; q < r->taps; ++q) {
    const int cx = q % 2, cy = q / 2;
    const ImVec2 a(at.x + cx * cell, at.y + cy * cell), b(a.x + cell, a.y + cell);
    const float* t = r->texel[q];
    const int g0 = int(t[0]), g1 = c >= 3 ? int(t[1]) : g0, g2 = c >= 3 ? int(t[2]) : g0;
    dl->AddRectFilled(a, b, IM_COL32(g0, g1, g2, 255));
    dl->AddRect(a, b, IM_COL32(120, 120, 120, 255));
    const bool light = (g0 + g1 + g2) > 3 * 128;
    const std::string label = fixed(r->weight[q], 2);
    dl->AddText(ImVec2(a.x + 3, a.y + 2), light ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255),
                label.c_str());
  }
  // The sample point: between the texel centres at (fx, fy) for linear; inside the texel for point.
  const float sx = r->taps == 1 ? (r->source.x - std::floor(r->source.x)) * cell : (0.5f + r->fx) * cell;
  const float sy = r->taps == 1 ? (r->source.y - std::floor(r->source.y)) * cell : (0.5f + r->fy) * cell;
  dl->AddCircleFilled(ImVec2(at.x + sx, at.y + sy), 4.0f, IM_COL32(255, 60, 40, 255));
  dl->AddCircle(ImVec2(at.x + sx, at.y + sy), 4.0f, IM_COL32(255, 255, 255, 255));
  ImGui::Dummy(ImVec2(cells * cell, cells * cell));
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextDisabled("squares: the texels (weights on them)");
  ImGui::TextDisabled("red dot: (sx, sy)");
  float out[4];
  for (int ch = 0; ch < c; ++ch) out[ch] = r->value[ch];
  ImGui::TextDisabled("blended: %s", values_text(out, c, 0).c_str());
  ImGui::EndGroup();
}

void RotateDemo::ui_overlay(const Frame& frame) {
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float sx = fs.x > 0 ? fs.x : 1.0f, sy = fs.y > 0 ? fs.y : 1.0f;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->PushClipRect(ImVec2(static_cast<float>(view_.inset) / sx, 0), ImVec2(view_.fb_w / sx, view_.fb_h / sy));
  const double w = image_.width * view_.scale, h = image_.height * view_.scale;
  auto to_screen = [&](double px, double py) {  // output pixel coordinates to ImGui points
    return ImVec2(static_cast<float>((view_.left + px * view_.scale) / sx),
                  static_cast<float>((view_.top + py * view_.scale) / sy));
  };
  // The output's frame, so that border texels (black) stand apart from the background.
  dl->AddRect(to_screen(0, 0), to_screen(image_.width, image_.height), IM_COL32(110, 110, 110, 200));
  if (show_frame_ && w > 0 && h > 0) {
    // Where the source's edges land: q = c + s * R^T (p - c), the definition solved for the output.
    const double t = double(angle()) * (3.14159265358979323846 / 180.0), s = settings_.params.scale;
    const double cs = std::cos(t), sn = std::sin(t), cx = image_.width * 0.5, cy = image_.height * 0.5;
    const double corners[4][2] = {{0, 0},
                                  {double(image_.width), 0},
                                  {double(image_.width), double(image_.height)},
                                  {0, double(image_.height)}};
    ImVec2 pts[4];
    for (int i = 0; i < 4; ++i) {
      const double u = corners[i][0] - cx, v = corners[i][1] - cy;
      pts[i] = to_screen(cx + s * (u * cs + v * sn), cy + s * (-u * sn + v * cs));
    }
    dl->AddPolyline(pts, 4, IM_COL32(255, 200, 60, 200), ImDrawFlags_Closed, 1.5f * frame.ui_scale);
    dl->AddCircleFilled(pts[0], 3.5f * frame.ui_scale, IM_COL32(255, 200, 60, 230));  // the source's top-left
  }
  // The magnifier: the output around the cursor, nearest filtering, one output pixel per square.
  if (magnifier_ && hovering_ && display_ && display_->has_image()) {
    const int nx = std::min(kMagnified, image_.width), ny = std::min(kMagnified, image_.height);
    const int x0 = std::clamp(hover_x_ - nx / 2, 0, image_.width - nx);
    const int y0 = std::clamp(hover_y_ - ny / 2, 0, image_.height - ny);
    const float cell = kMagnification * frame.ui_scale / sx;
    const float mw = nx * cell, mh = ny * cell;
    ImVec2 a(mouse_x_ / sx + 24.0f, mouse_y_ / sy + 24.0f);
    if (a.x + mw > view_.fb_w / sx) a.x = mouse_x_ / sx - 24.0f - mw;
    if (a.y + mh > view_.fb_h / sy) a.y = mouse_y_ / sy - 24.0f - mh;
    const ImVec2 b(a.x + mw, a.y + mh);
    const ImVec2 uv0(float(x0) / image_.width, float(y0) / image_.height);
    const ImVec2 uv1(float(x0 + nx) / image_.width, float(y0 + ny) / image_.height);
    dl->AddRectFilled(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), IM_COL32(0, 0, 0, 220));
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(display_->output().id())), a, b, uv0,
                 uv1);
    const ImVec2 p(a.x + (hover_x_ - x0) * cell, a.y + (hover_y_ - y0) * cell);
    dl->AddRect(p, ImVec2(p.x + cell, p.y + cell), IM_COL32(255, 60, 40, 255), 0.0f, 0, 2.0f);
    dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), IM_COL32(200, 200, 200, 255));
  }
  dl->PopClipRect();
}

void RotateDemo::ui(Frame& frame) {
  const float w = 220.0f * frame.ui_scale;
  pick_and_open(
      picker_, w, origin_,
      [&](const image::Generated& g, std::string* err) { return load_generated(g, err); },
      [&](const std::filesystem::path& p, std::string* err) { return load_path(p, err); },
      [&](std::string line) { notify(std::move(line)); });
  ImGui::Text("%s, %s", image_label(image_).c_str(),
              format_count(static_cast<double>(image_.pixel_count()), "pixels").c_str());

  ImGui::Separator();
  ui_angle(w);
  ImGui::Separator();
  ui_texture_options();
  ImGui::Separator();
  ui_output(w);

  ImGui::Separator();
  ImGui::Checkbox("compare (S)", &compare_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the source left of a split line, the output right of it");
  ImGui::SameLine();
  ImGui::Checkbox("source frame", &show_frame_);
  ImGui::SameLine();
  ImGui::Checkbox("magnifier (M)", &magnifier_);
  ImGui::SameLine();
  if (ImGui::Button("fit (F)")) view_.fitted = false;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w * 1.8f);
  ImGui::TextWrapped(
      "left drag on the image: rotate about the centre; wheel: scale; Ctrl+wheel: zoom the view, right drag: "
      "pan. Keys: Q / Shift+Q or [ / ] quarter turns, Left/Right 1° (Shift 15°), L filter, A address mode, "
      "P surface/PBO, S compare, M magnifier, F fit; Space plays the spin");
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();

  ImGui::Separator();
  try {
    // Dragging the angle changes the picture every frame too: no read-back (it would wait for GL).
    ui_inspector((frame.playing && spin_ != 0.0f) || dragging_angle_);
  } catch (const std::exception& e) {
    ImGui::TextColored(kRed, "inspector: %s", e.what());
  }

  ImGui::Separator();
  if (ui::verify_button("compare this variant's output with the CPU reference (rotate_cpu with the settings CUDA "
                        "runs): point filtering exactly, linear within 1 level",
                        [&] { return verify(); }, &verify_result_, &verify_ok_))
    notify(verify_result_);
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
  ui_overlay(frame);
}

}  // namespace gpulab

// Texture rotation: its settings. The command line's options (add_options, configure) and the setters
// the panel and the keys go through (angle, scale, texture options, output path).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/text.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/rotate/rotate_demo_internal.h"

namespace gpulab {
namespace {

using rotate::ReadMode;
using rotate_internal::kDefaultSpin;

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

}  // namespace

// ---------------------------------------------------------------------------------------------
// Options.

void RotateParams::add_options(CLI::App& cli) {
  CLI::Option_group* g = cli.add_option_group("Texture rotation (--demo rotate)");
  g->add_option("--angle", angle, "rotation in degrees, counter-clockwise as displayed (default 0)")
      ->type_name("DEG");
  g->add_option("--scale", scale, "scale about the centre, > 1 enlarges (1/64 to 64, default 1)")
      ->type_name("S");
  g->add_option("--spin", spin, "degrees a second while playing (default 10, or 0 when --angle is given)")
      ->type_name("DEG/S");
  g->add_option("--filter", filter, "point or linear (default)")->type_name("point|linear");
  g->add_option("--address", address, "wrap, clamp, mirror or border (default)")
      ->type_name("wrap|clamp|mirror|border");
  g->add_option("--normalized", normalized, "normalized texture coordinates: on (default) or off")
      ->type_name("on|off");
  g->add_option("--read-mode", read_mode,
                "texture read mode: element (element type) or normalized (normalized float, default)")
      ->type_name("element|normalized");
  g->add_option("--output", output,
                "how the output reaches the displayed texture: surface (default) or pbo (a pixel buffer)")
      ->type_name("surface|pbo");
}

// The spin and the output path change how the rotation is shown, not what it computes.
bool RotateParams::same_input(const DemoParams& other) const {
  const auto& o = dynamic_cast<const RotateParams&>(other);
  return angle == o.angle && scale == o.scale && filter == o.filter && address == o.address &&
         normalized == o.normalized && read_mode == o.read_mode;
}

std::vector<std::string> RotateParams::given() const {
  std::vector<std::string> out;
  auto add = [&](const char* flag, const std::string& v) {
    if (!v.empty()) out.push_back(std::string(flag) + " " + v);
  };
  add("--angle", angle);
  add("--scale", scale);
  add("--spin", spin);
  add("--filter", filter);
  add("--address", address);
  add("--normalized", normalized);
  add("--read-mode", read_mode);
  add("--output", output);
  return out;
}

std::string RotateDemo::configure(const Options& o) {
  const RotateParams& cli = params<RotateParams>();
  const SharedInputs& in = setup().shared;
  headless_ = o.headless;
  if (std::string bad = reject_init(in, name()); !bad.empty()) return bad;
  if (std::string bad = reject_seed(in, "the rotate demo (its images are files or fixed generated pictures)");
      !bad.empty())
    return bad;
  rotate::Settings s;
  const bool angle_given = !cli.angle.empty();
  double v = 0;
  if (angle_given) {
    if (!parse_number(cli.angle, &v))
      return "--angle must be a number of degrees, got " + text::quote(cli.angle);
    s.params.angle_deg = static_cast<float>(v);
    if (!std::isfinite(s.params.angle_deg))
      return "--angle " + cli.angle + ": " + strip_prefix(rotate::check_params(s.params));
  }
  if (!cli.scale.empty()) {
    if (!parse_number(cli.scale, &v)) return "--scale must be a number, got " + text::quote(cli.scale);
    s.params.scale = static_cast<float>(v);
  }
  if (std::string why = rotate::check_params(s.params); !why.empty())
    return "--scale " + cli.scale + ": " + strip_prefix(why);
  float spin = angle_given ? 0.0f : kDefaultSpin;
  if (!cli.spin.empty()) {
    if (!parse_number(cli.spin, &v) || !std::isfinite(static_cast<float>(v)))
      return "--spin must be a finite number of degrees a second, got " + text::quote(cli.spin);
    spin = static_cast<float>(v);
  }
  auto given_or = [](const std::string& v, const char* def) { return v.empty() ? std::string(def) : v; };
  const std::string filter = given_or(cli.filter, "linear"), address = given_or(cli.address, "border"),
                    normalized = given_or(cli.normalized, "on"),
                    read_mode = given_or(cli.read_mode, "normalized"),
                    output = given_or(cli.output, "surface");
  if (const auto f = rotate::parse_filter(filter))
    s.params.filter = *f;
  else
    return "--filter must be point or linear, got " + text::quote(filter);
  if (const auto a = rotate::parse_address(address))
    s.params.address = *a;
  else
    return "--address must be wrap, clamp, mirror or border, got " + text::quote(address);
  if (normalized == "on")
    s.normalized = true;
  else if (normalized == "off")
    s.normalized = false;
  else
    return "--normalized must be on or off, got " + text::quote(normalized);
  if (read_mode == "element")
    s.read_mode = ReadMode::ElementType;
  else if (read_mode == "normalized")
    s.read_mode = ReadMode::NormalizedFloat;
  else
    return "--read-mode must be element or normalized, got " + text::quote(read_mode);
  RotateOutput out;
  if (output == "surface")
    out = RotateOutput::Surface;
  else if (output == "pbo")
    out = RotateOutput::Pbo;
  else
    return "--output must be surface or pbo, got " + text::quote(output);
  if (o.steps >= 0)
    return "--steps: texture rotation has no steps to count (each frame rotates the source afresh); "
           "--save-image writes the rotated image";
  settings_ = s;
  start_angle_ = s.params.angle_deg;
  start_scale_ = s.params.scale;
  spin_ = spin;
  output_ = out;
  save_image_ = o.save_image;
  // A run that shows the image refuses one over the GL texture limit from its header, before decoding
  // it (batch mode does not show it: no limit). attach() queries the limit again.
  max_texture_ = batch_requested() ? 0 : o.gl_max_texture;
  settings_changed();
  if (!in.image.empty()) {
    std::string err;
    if (!load_path(in.image, &err)) return err;
  }
  return {};
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
  const rotate::Settings e = rotate::effective(variant(), settings_);
  return std::string(rotate::name(e.params.filter)) + ", " + std::string(rotate::name(e.params.address)) +
         ", " + (e.normalized ? "normalized" : "unnormalized");
}

}  // namespace gpulab

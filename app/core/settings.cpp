// Per-user settings in TOML (toml++), read leniently and written atomically.
#include "core/settings.h"

#include <toml++/toml.h>

#include "core/toml_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <system_error>

#include "common/file_io.h"
#include "common/text.h"

namespace gpulab {
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMaxSettingsBytes = 64 * 1024;

std::string where(const std::string& source, const toml::source_region& at) {
  return text::escape(source) + ":" + std::to_string(at.begin.line) + ": ";
}

bool valid_demo_name(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  for (const char c : s)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
          c == '-' || c == '_'))
      return false;
  return true;
}

}  // namespace

const char* theme_name(Theme theme) { return theme == Theme::Light ? "light" : "dark"; }

fs::path settings_path(std::string* why) {
  // The specification ignores a relative XDG_CONFIG_HOME.
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg == '/')
    return fs::path(xdg) / "gpulab" / "settings.toml";
  if (const char* home = std::getenv("HOME"); home && *home == '/')
    return fs::path(home) / ".config" / "gpulab" / "settings.toml";
  if (why) *why = "settings are not kept: neither XDG_CONFIG_HOME nor HOME is an absolute path";
  return {};
}

SettingsLoad parse_settings(std::string_view text, const std::string& source) {
  SettingsLoad r;
  r.found = true;
  toml::table table;
  try {
    table = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    r.problems.push_back(where(source, e.source()) + "not valid TOML (" + text::escape(e.description()) +
                         "); the file is ignored, defaults used");
    return r;
  }
  Settings& s = r.settings;
  for (auto&& [key, node] : table) {
    const std::string k(key.str());
    const std::string at = where(source, node.source());
    auto bad = [&](const std::string& what) {
      r.problems.push_back(at + text::quote(k) + " " + what + "; ignored, the default used");
    };
    if (k == "ui_scale") {
      if (!node.is_number()) {
        bad(std::string("must be a number, not ") + toml_type_name(node));
        continue;
      }
      const double v = node.value<double>().value_or(0.0);
      if (!std::isfinite(v) || v < kMinUiScale || v > kMaxUiScale) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "is %g, outside %.2f..%.0f", v, kMinUiScale, kMaxUiScale);
        bad(buf);
        continue;
      }
      s.ui_scale = static_cast<float>(v);
    } else if (k == "theme") {
      const auto v = node.value<std::string>();
      if (!node.is_string() || !v) {
        bad(std::string("must be \"dark\" or \"light\", not ") + toml_type_name(node));
      } else if (*v == "dark") {
        s.theme = Theme::Dark;
      } else if (*v == "light") {
        s.theme = Theme::Light;
      } else {
        bad("is " + text::quote(*v) + ", not \"dark\" or \"light\"");
      }
    } else if (k == "hud") {
      if (!node.is_boolean()) {
        bad(std::string("must be true or false, not ") + toml_type_name(node));
        continue;
      }
      s.hud = node.value<bool>().value_or(false);
    } else if (k == "last_demo") {
      const auto v = node.value<std::string>();
      if (!node.is_string() || !v)
        bad(std::string("must be a demo's name (a string), not ") + toml_type_name(node));
      else if (!valid_demo_name(*v))
        bad("is " + text::quote(*v) + ", not a demo's name");
      else
        s.last_demo = *v;
    } else if (k == "window_width" || k == "window_height") {
      if (!node.is_integer()) {
        bad(std::string("must be an integer, not ") + toml_type_name(node));
        continue;
      }
      const int64_t v = node.value<int64_t>().value_or(0);
      if (v < kMinWindowEdge || v > kMaxWindowEdge) {
        bad("is " + std::to_string(v) + ", outside " + std::to_string(kMinWindowEdge) + ".." +
            std::to_string(kMaxWindowEdge));
        continue;
      }
      (k == "window_width" ? s.window_width : s.window_height) = static_cast<int>(v);
    } else {
      r.problems.push_back(at + "unknown setting " + text::quote(k) +
                           " (known: ui_scale, theme, hud, last_demo, window_width, window_height); ignored");
    }
  }
  return r;
}

SettingsLoad load_settings(const fs::path& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return {};  // none yet (or a dangling link): the defaults, quietly
  files::ReadResult rr = files::read_regular_file(path, kMaxSettingsBytes);
  if (!rr.error.empty()) {
    SettingsLoad r;
    r.found = true;
    r.problems.push_back(text::escape(path.string()) + ": cannot read the settings (" + rr.error +
                         "); defaults used");
    return r;
  }
  const std::string_view text(reinterpret_cast<const char*>(rr.bytes.data()), rr.bytes.size());
  return parse_settings(text, path.string());
}

std::string settings_to_toml(const Settings& s) {
  std::ostringstream out;
  out << "# gpulab settings, written by gpulab when it exits (gpulab --reset-settings forgets them).\n";
  if (s.ui_scale) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", static_cast<double>(*s.ui_scale));
    std::string v = buf;
    if (v.find('.') == std::string::npos) v += ".0";
    out << "# UI scale, " << kMinUiScale << " to " << kMaxUiScale << " (left out: the display's scale)\n";
    out << "ui_scale = " << v << "\n";
  }
  out << "# \"dark\", or \"light\" (high contrast, for projectors)\n";
  out << "theme = \"" << theme_name(s.theme) << "\"\n";
  out << "# the heads-up display over the picture\n";
  out << "hud = " << (s.hud ? "true" : "false") << "\n";
  if (!s.last_demo.empty()) out << "last_demo = \"" << s.last_demo << "\"\n";
  out << "window_width = " << s.window_width << "\n";
  out << "window_height = " << s.window_height << "\n";
  return out.str();
}

std::string save_settings(const fs::path& path, const Settings& settings) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec)
    return "cannot create " + text::quote(path.parent_path().string()) + " for the settings: " + ec.message();
  std::string err = files::write_regular_file(path, settings_to_toml(settings));
  return err.empty() ? err : "settings not saved: " + err;
}

std::string forget_settings(const fs::path& path) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (ec || !fs::exists(st)) return {};
  if (!fs::is_regular_file(st) && !fs::is_symlink(st))
    return text::quote(path.string()) + " is not a regular file: not removed";
  fs::remove(path, ec);
  if (ec) return "cannot remove " + text::quote(path.string()) + ": " + ec.message();
  return {};
}

}  // namespace gpulab

// Per-user settings in TOML (toml++), read leniently and written atomically.
#include "core/settings.h"

#include <toml++/toml.h>

#include "core/toml_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
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
  if (const TomlDepth deep = toml_too_deep(text); deep.line) {
    r.problems.push_back(text::escape(source) + ":" + std::to_string(deep.line) + ": nested " +
                         std::to_string(deep.depth) +
                         " levels deep (dotted keys, tables, arrays), more than " +
                         std::to_string(kMaxTomlDepth) + "; the file is ignored, defaults used");
    r.readable = false;
    return r;
  }
  if (const int at = toml_backslash_before_non_ascii(text); at) {
    r.problems.push_back(text::escape(source) + ":" + std::to_string(at) + ": " + kTomlBackslashProblem +
                         "; the file is ignored, defaults used");
    r.readable = false;
    return r;
  }
  toml::table table;
  try {
    table = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    r.problems.push_back(where(source, e.source()) + "not valid TOML (" + text::escape(e.description()) +
                         "); the file is ignored, defaults used");
    r.readable = false;
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
    } else if (k == "hint_used") {
      if (!node.is_boolean()) {
        bad(std::string("must be true or false, not ") + toml_type_name(node));
        continue;
      }
      s.hint_used = node.value<bool>().value_or(false);
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
    } else if (k == "keys") {
      // [keys] ACTION = "KEY" or ["KEY", ...]: checked against the key map when the app applies them.
      const toml::table* t = node.as_table();
      if (!t) {
        bad(std::string("must be a table ([keys], then ACTION = \"KEY\"), not ") + toml_type_name(node));
        continue;
      }
      for (auto&& [action, value] : *t) {
        KeyRemap remap;
        remap.action = std::string(action.str());
        const std::string vat = where(source, value.source());
        bool ok = true;
        if (value.is_string()) {
          remap.keys.push_back(*value.value<std::string>());
        } else if (const toml::array* list = value.as_array()) {
          for (const toml::node& e : *list) {
            if (!e.is_string())
              ok = false;
            else
              remap.keys.push_back(*e.value<std::string>());
          }
        } else {
          ok = false;
        }
        if (!ok || remap.keys.size() > 4) {
          r.problems.push_back(vat + "keys." + text::quote(remap.action) +
                               " must be a key (\"F5\") or a list of up to 4 keys; ignored");
          continue;
        }
        s.keys.push_back(std::move(remap));
      }
    } else if (k == "monitor") {
      if (!node.is_integer()) {
        bad(std::string("must be a monitor's number (0, 1, ...), not ") + toml_type_name(node));
        continue;
      }
      const int64_t v = node.value<int64_t>().value_or(-1);
      if (v < 0 || v > kMaxMonitor) {
        bad("is " + std::to_string(v) + ", outside 0.." + std::to_string(kMaxMonitor));
        continue;
      }
      s.monitor = static_cast<int>(v);
    } else {
      r.problems.push_back(
          at + "unknown setting " + text::quote(k) +
          " (known: ui_scale, theme, hud, hint_used, last_demo, window_width, window_height, monitor, "
          "[keys]); "
          "ignored");
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
    r.readable = false;
    return r;
  }
  const std::string_view text(reinterpret_cast<const char*>(rr.bytes.data()), rr.bytes.size());
  return parse_settings(text, path.string());
}

namespace {

// The keys gpulab owns, in the order a fresh file lists them.
constexpr const char* kKeys[] = {"ui_scale",  "theme",        "hud",           "hint_used",
                                 "last_demo", "window_width", "window_height", "monitor"};

// Key `k`'s value in TOML, or "" when the file leaves it out (no UI scale chosen, no last demo).
std::string value_text(const Settings& s, std::string_view k) {
  if (k == "ui_scale") {
    if (!s.ui_scale) return {};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", static_cast<double>(*s.ui_scale));
    std::string v = buf;
    if (v.find('.') == std::string::npos) v += ".0";
    return v;
  }
  if (k == "theme") return std::string("\"") + theme_name(s.theme) + "\"";
  if (k == "hud") return s.hud ? "true" : "false";
  if (k == "hint_used") return s.hint_used ? "true" : "false";
  if (k == "last_demo") return s.last_demo.empty() ? std::string() : "\"" + s.last_demo + "\"";
  if (k == "window_width") return std::to_string(s.window_width);
  if (k == "monitor") return s.monitor ? std::to_string(*s.monitor) : std::string();
  return std::to_string(s.window_height);
}

bool ascii(std::string_view line) {
  for (const char c : line)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

}  // namespace

std::string patch_settings_toml(std::string_view text, const Settings& settings) {
  const SettingsLoad was = parse_settings(text, "settings.toml");
  if (!was.readable) return std::string(text);
  const toml::table root = toml::parse(text, std::string("settings.toml"));
  std::vector<std::string> lines;
  for (std::string_view l : text::split_lines(text)) lines.emplace_back(l);
  const bool bom = text.substr(0, 3) == "\xEF\xBB\xBF";
  const bool crlf = text.find("\r\n") != std::string_view::npos;
  // New keys go above the first table or array (a key below a [table] header would be the table's).
  // Every table counts, nested ones too: a table made first by a sub-table's header ([e.2] above [e])
  // has its own header's line as its source, below the sub-table's.
  size_t insert_at = lines.size();
  std::function<void(const toml::node&)> visit = [&](const toml::node& n) {
    if (n.is_table() || n.is_array())
      insert_at = std::min(insert_at, static_cast<size_t>(std::max<uint32_t>(n.source().begin.line, 1)) - 1);
    if (const toml::table* t = n.as_table())
      for (auto&& [k, c] : *t) visit(c);
    else if (const toml::array* a = n.as_array())
      for (const toml::node& c : *a) visit(c);
  };
  for (auto&& [key, node] : root) visit(node);
  struct Edit {
    size_t first, count;  // `count` 0-based lines from `first` replaced (0: an insertion before `first`)
    std::vector<std::string> with;
  };
  std::vector<Edit> edits;
  for (const char* k : kKeys) {
    const std::string now = value_text(settings, k), before = value_text(was.settings, k);
    if (now == before) continue;  // what the file says (or its default) already: the line is left as it is
    const toml::node* node = root.get(k);
    if (!node) {
      if (!now.empty()) edits.push_back({insert_at, 0, {std::string(k) + " = " + now}});
      continue;
    }
    if (node->is_table() || node->is_array()) continue;  // not ours to rewrite: reported when read
    const toml::source_region& at = node->source();
    const size_t first = at.begin.line - 1, last = at.end.line - 1;
    if (first >= lines.size() || last >= lines.size() || last < first) continue;
    if (now.empty()) {
      edits.push_back({first, last - first + 1, {}});  // left out now (the display's UI scale): the line goes
      continue;
    }
    // The value replaced where it stands, the key, spacing and a comment after it kept; columns are
    // counted in characters, so a line with other than ASCII is written afresh.
    std::string line = std::string(k) + " = " + now;
    if (ascii(lines[first]) && ascii(lines[last]) && at.begin.column >= 1 && at.end.column >= 1 &&
        at.begin.column - 1 <= lines[first].size() && at.end.column - 1 <= lines[last].size())
      line = lines[first].substr(0, at.begin.column - 1) + now + lines[last].substr(at.end.column - 1);
    edits.push_back({first, last - first + 1, {line}});
  }
  if (edits.empty()) return std::string(text);
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.first > b.first; });
  for (const Edit& e : edits) {
    const auto at = lines.begin() + static_cast<std::ptrdiff_t>(e.first);
    lines.erase(at, at + static_cast<std::ptrdiff_t>(e.count));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(e.first), e.with.begin(), e.with.end());
  }
  std::string out = bom ? "\xEF\xBB\xBF" : "";
  for (const std::string& l : lines) out += l + (crlf ? "\r\n" : "\n");
  return out;
}

std::string settings_to_toml(const Settings& s) {
  std::ostringstream out;
  out << "# gpulab settings, written by gpulab when they change (gpulab --reset-settings forgets them).\n"
         "# Edit freely: gpulab rewrites only the lines of the settings it changes.\n";
  if (s.ui_scale) {
    out << "# UI scale, " << kMinUiScale << " to " << kMaxUiScale << " (left out: the display's scale)\n";
    out << "ui_scale = " << value_text(s, "ui_scale") << "\n";
  }
  out << "# \"dark\", or \"light\" (high contrast, for projectors)\n";
  out << "theme = " << value_text(s, "theme") << "\n";
  out << "# the heads-up display over the picture\n";
  out << "hud = " << value_text(s, "hud") << "\n";
  out << "# the first start's hint (F1 keys, Lesson tab, F7 projector) was used: not shown again\n";
  out << "hint_used = " << value_text(s, "hint_used") << "\n";
  if (!s.last_demo.empty()) out << "last_demo = " << value_text(s, "last_demo") << "\n";
  out << "window_width = " << value_text(s, "window_width") << "\n";
  out << "window_height = " << value_text(s, "window_height") << "\n";
  if (s.monitor) {
    out << "# the monitor projector mode fills (0-based; left out: the one the window is not on)\n";
    out << "monitor = " << value_text(s, "monitor") << "\n";
  }
  return out.str();
}

std::string save_settings(const fs::path& path, const Settings& settings) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec)
    return "cannot create " + text::quote(path.parent_path().string()) + " for the settings: " + ec.message();
  std::string text = settings_to_toml(settings);
  if (fs::exists(fs::symlink_status(path, ec))) {
    // A file that is there is patched, never replaced: its comments and the lines gpulab does not
    // own stay. One gpulab cannot read (now) is left as it is.
    files::ReadResult rr = files::read_regular_file(path, kMaxSettingsBytes);
    if (!rr.error.empty())
      return "settings not saved: cannot read " + text::quote(path.string()) + " (" + rr.error +
             "); it is left as it is";
    const std::string_view old(reinterpret_cast<const char*>(rr.bytes.data()), rr.bytes.size());
    const SettingsLoad was = parse_settings(old, path.string());
    if (!was.readable)
      return "settings not saved: " + (was.problems.empty() ? text::quote(path.string()) : was.problems[0]) +
             "; it is left as it is";
    text = patch_settings_toml(old, settings);
    if (text == old) return {};
  }
  std::string err = files::write_regular_file(path, text);
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

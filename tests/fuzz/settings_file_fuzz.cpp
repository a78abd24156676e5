// Fuzz target: the settings reader (app/core/settings.h): parse_settings on the input as a
// settings.toml, then, where it could be read, patch_settings_toml with other settings.
// Oracles: no message holds a raw control byte; a file that could not be read has exactly one
// problem (it is ignored whole) and gives the defaults; every value read is in its range; patching
// with the settings read changes nothing (the file is left byte for byte); patching with other
// settings gives a file that reads back (readable) with those settings, wherever the file's key was
// gpulab's to rewrite (not a table or an array there).
#include <toml++/toml.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/settings.h"
#include "fuzz_check.h"

using namespace gpulab;

namespace {

void check_values(const Settings& s) {
  if (s.ui_scale)
    fuzz::require(*s.ui_scale >= kMinUiScale && *s.ui_scale <= kMaxUiScale, "settings: ui_scale");
  fuzz::require(s.window_width >= kMinWindowEdge && s.window_width <= kMaxWindowEdge,
                "settings: window_width");
  fuzz::require(s.window_height >= kMinWindowEdge && s.window_height <= kMaxWindowEdge,
                "settings: window_height");
  fuzz::require(s.last_demo.size() <= 64, "settings: last_demo");
}

// Other settings, chosen from the input's length so that each run patches something different.
Settings other(const Settings& s, size_t salt) {
  Settings o = s;
  o.theme = s.theme == Theme::Dark ? Theme::Light : Theme::Dark;
  if (salt & 1) o.hud = !s.hud;
  if (salt & 2) o.ui_scale = s.ui_scale ? std::nullopt : std::optional<float>(1.5f);
  if (salt & 4) o.last_demo = s.last_demo == "nbody" ? "life" : "nbody";
  if (salt & 8) o.window_width = s.window_width == 800 ? 900 : 800;
  if (salt & 16) o.window_height = s.window_height == 600 ? 700 : 600;
  if (salt & 32) o.hint_used = !s.hint_used;
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const SettingsLoad r = parse_settings(text, "fuzz/settings.toml");
  for (const std::string& p : r.problems) fuzz::check_message("settings", p);
  check_values(r.settings);
  if (!r.readable) {
    fuzz::require(r.problems.size() == 1, "settings: an unreadable file with other than one problem");
    fuzz::require(r.settings == Settings{}, "settings: an unreadable file did not give the defaults");
    fuzz::require(patch_settings_toml(text, other(r.settings, size)) == text,
                  "settings: a file that could not be read was patched");
    return 0;
  }
  fuzz::require(patch_settings_toml(text, r.settings) == text,
                "settings: patching with its own settings changed it");
  const Settings want = other(r.settings, size);
  const std::string patched = patch_settings_toml(text, want);
  const SettingsLoad again = parse_settings(patched, "fuzz/patched.toml");
  if (!again.readable) fuzz::fail("settings: the patched file cannot be read: " + again.problems.at(0));
  const toml::table root = toml::parse(text, std::string("fuzz/settings.toml"));
  auto ours = [&](const char* key) {
    const toml::node* n = root.get(key);
    return !n || !(n->is_table() || n->is_array());
  };
  const Settings& got = again.settings;
  fuzz::require(!ours("theme") || got.theme == want.theme, "settings: theme not patched");
  fuzz::require(!ours("hud") || got.hud == want.hud, "settings: hud not patched");
  fuzz::require(!ours("hint_used") || got.hint_used == want.hint_used, "settings: hint_used not patched");
  fuzz::require(!ours("ui_scale") || got.ui_scale == want.ui_scale, "settings: ui_scale not patched");
  fuzz::require(!ours("last_demo") || got.last_demo == want.last_demo, "settings: last_demo not patched");
  fuzz::require(!ours("window_width") || got.window_width == want.window_width,
                "settings: width not patched");
  fuzz::require(!ours("window_height") || got.window_height == want.window_height,
                "settings: height not patched");
  return 0;
}

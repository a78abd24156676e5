#pragma once
// Per-user settings: UI scale, theme, HUD, the last demo and the window size, kept in
// $XDG_CONFIG_HOME/gpulab/settings.toml (~/.config/gpulab/ when XDG_CONFIG_HOME is unset or not an
// absolute path, as the XDG base-directory specification says). A file that cannot be used is
// reported, with the file and line, and ignored: a bad TOML file entirely, a bad entry (unknown key,
// wrong type, out of range) alone, its default used. Nothing here is ever fatal. A file gpulab wrote
// or can read is patched when settings change: only the lines of the keys it owns and that changed are
// rewritten, comments and other keys kept; a file it cannot read (or a read-only one) is never
// written. Writes go through files::write_regular_file (a temporary file renamed over it; a FIFO or
// folder is refused).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/keymap.h"

namespace gpulab {

enum class Theme { Dark, Light };
const char* theme_name(Theme theme);  // "dark", "light"

inline constexpr float kMinUiScale = 0.75f;
inline constexpr float kMaxUiScale = 4.0f;
inline constexpr int kMinWindowEdge = 200;
inline constexpr int kMaxWindowEdge = 16384;
inline constexpr int kMaxMonitor = 15;

struct Settings {
  std::optional<float> ui_scale;  // none: the display's content scale
  Theme theme = Theme::Dark;
  bool hud = false;
  std::string last_demo;  // empty: none yet
  int window_width = 1600;
  int window_height = 900;
  // The monitor projector mode fills (0-based, as the system lists them); none: chosen (monitors.h).
  std::optional<int> monitor;
  // The first start's hint ("F1 keys · Lesson tab · F7 projector") was used: it is not shown again.
  bool hint_used = false;
  // [keys]: the shell keys remapped (core/keymap.h: set_key_remaps); gpulab never writes them.
  std::vector<KeyRemap> keys;

  bool operator==(const Settings&) const = default;
};

struct SettingsLoad {
  Settings settings;                  // the defaults, with every good entry of the file applied
  bool found = false;                 // a file (or something) was there
  std::vector<std::string> problems;  // one line each: "FILE:LINE: what", shown in the UI
  // false when the file could not be read as a whole (not valid TOML, too large, nested too deep,
  // unreadable): gpulab then never writes it, so the user's text is not lost to the defaults.
  bool readable = true;
};

// The settings file's path, or empty with `why` when neither XDG_CONFIG_HOME nor HOME is usable.
std::filesystem::path settings_path(std::string* why);

// Parses a settings file's text; `source` names the file in the messages.
SettingsLoad parse_settings(std::string_view text, const std::string& source);
// Reads and parses `path`; a missing file gives the defaults and no problem.
SettingsLoad load_settings(const std::filesystem::path& path);

// The file's text (every key, comments saying what each is).
std::string settings_to_toml(const Settings& settings);
// `text` (a settings file gpulab can read) with the lines of the keys whose value differs from
// `settings` rewritten in place, missing keys added above the first table, and everything else (comments,
// unknown keys, rejected values gpulab did not change) kept byte for byte.
std::string patch_settings_toml(std::string_view text, const Settings& settings);
// Saves `settings` in `path`: a fresh file (settings_to_toml, creating its folder, gpulab/, inside the
// config folder when missing), or the file that is there patched (patch_settings_toml). A file that
// is there but cannot be read, is not valid TOML, or is read-only is left as it is. Written
// atomically (files::write_regular_file). "" on success (or nothing to change), else the message.
std::string save_settings(const std::filesystem::path& path, const Settings& settings);
// Removes the file (for --reset-settings). "" on success or when there was none.
std::string forget_settings(const std::filesystem::path& path);

}  // namespace gpulab
